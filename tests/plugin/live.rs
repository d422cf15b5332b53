//! Live map edits: paths repaired in place stay optimal, walls behind a unit and
//! openings that cannot shorten a path re-plan nothing, failures are retried only when an
//! edit can change their answer, and a small army under constant edits keeps moving.

use std::time::Duration;

use bevy::prelude::*;
use bevy_tilepath::components::{PathStatus, QueueLane, Replanning};
use bevy_tilepath::prelude::{
    Algorithm, Cell, FoundPath, NavGrid, PathFailure, PathRequest, PathResult, Steering,
    TilepathSettings,
};
use bevy_tilepath::search::{PathError, PathQuery, Pathfinder};
use bevy_tilepath::stats::TilepathStats;

use crate::common::{
    Rng, SolvedLog, TILE, app, assert_answers, center_of, insert_level_grid, minimal_plugins,
    position, run_until_answered, spawn_units,
};
use crate::stress::{self, live_edits};
use bevy_tilepath::prelude::FrameBudget;

fn grid_of(rows: &[String]) -> NavGrid {
    NavGrid::from_ascii(&rows.join("\n"), Vec2::ZERO, Vec2::splat(TILE)).unwrap()
}

fn open_rows(width: usize, height: usize) -> Vec<String> {
    vec![".".repeat(width); height]
}

fn found(app: &App, unit: Entity) -> FoundPath {
    match app.world().get::<PathResult>(unit).unwrap() {
        PathResult::Found(path) => path.clone(),
        other => panic!("{unit}: expected a path, got {other:?}"),
    }
}

fn stats(app: &App) -> &TilepathStats {
    app.world().resource::<TilepathStats>()
}

/// Asserts that `path` costs exactly what a fresh A* search of the core finds on the
/// current map from its first to its last cell (fixed-point costs, not lengths).
fn assert_fresh_cost(grid: &NavGrid, path: &FoundPath, diameter: u32) {
    let map = grid.scenario();
    let cost = map
        .weights(path.profile)
        .unwrap()
        .path_cost(&path.cells)
        .unwrap();
    let query = PathQuery::new(path.cells[0], *path.cells.last().unwrap())
        .algorithm(Algorithm::AStar)
        .diameter(diameter)
        .profile(path.profile);
    let fresh = Pathfinder::new().find(map, &query).unwrap();
    assert_eq!(cost, fresh.cost, "{path:?}");
    assert!((f64::from(path.cost) - bevy_tilepath::grid::cost_to_f64(cost)).abs() < 1e-3);
}

#[test]
fn paths_repaired_in_place_cost_exactly_what_a_fresh_search_finds() {
    let mut app = app();
    insert_level_grid(&mut app);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.budget = FrameBudget::Time(Duration::MAX);
        // Every answer is checked in the frame of the edit (the review's own budget is
        // tested in `review`).
        settings.replan.review_budget = u32::MAX;
    }
    let units = spawn_units(&mut app, 600, 31, true, false);
    run_until_answered(&mut app, 20);
    let mut rng = Rng(5);
    let (mut repaired, mut replanned) = (0, 0);
    for _ in 0..25 {
        // Walls on the middle of some paths (neither end), a few walls opened elsewhere.
        let mut edits: Vec<(Cell, bool)> = Vec::new();
        for _ in 0..6 {
            let unit = &units[rng.below(units.len())];
            if let Some(path) = app.world().get::<PathResult>(unit.entity).unwrap().found()
                && path.cells.len() > 4
            {
                let cell = path.cells[1 + rng.below(path.cells.len() - 2)];
                edits.push((cell, true));
            }
        }
        for _ in 0..3 {
            let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
            if app.world().resource::<NavGrid>().is_blocked(c, 1) && !edits.iter().any(|e| e.0 == c)
            {
                edits.push((c, false));
            }
        }
        let before: Vec<(Option<FoundPath>, (QueueLane, u64))> = units
            .iter()
            .map(|u| {
                let world = app.world();
                let path = world.get::<PathResult>(u.entity).unwrap().found().cloned();
                let status = world.get::<PathStatus>(u.entity).unwrap();
                (path, (status.lane(), status.number()))
            })
            .collect();
        app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        app.update();
        repaired += stats(&app).repaired;
        replanned += stats(&app).replanned;
        let grid = app.world().resource::<NavGrid>();
        for (unit, (old, order)) in units.iter().zip(&before) {
            let world = app.world();
            let (Some(old), Some(new)) =
                (old, world.get::<PathResult>(unit.entity).unwrap().found())
            else {
                continue;
            };
            let ticket = world.get::<PathStatus>(unit.entity).unwrap();
            if new != old && (ticket.lane(), ticket.number()) == *order && !ticket.is_queued() {
                // Changed without going through the queue: repaired in place (and not
                // waiting for an improvement, which would be the final answer).
                assert!(new.generation > old.generation);
                assert_fresh_cost(grid, new, unit.diameter);
                assert_eq!(new.cost, old.cost, "a splice keeps the cost");
            }
        }
        // Every answer, repaired or searched, is a valid shortest path from the unit.
        assert_answers(&mut app, &units);
    }
    println!("{repaired} paths repaired in place, {replanned} re-planned");
    assert!(repaired >= 20, "{repaired} repairs");
    assert!(replanned >= 20, "{replanned} re-plans");
}

#[test]
fn walls_behind_a_walking_unit_replan_nothing_and_a_wall_ahead_is_repaired_or_replanned() {
    let mut app = app();
    app.insert_resource(grid_of(&open_rows(60, 30)));
    let spawn = |app: &mut App, from: Cell, to: Cell| {
        app.world_mut()
            .spawn((
                Transform::from_translation(center_of(from, 1).extend(1.0)),
                PathRequest::new(to),
                Steering::with_speed(192.0),
            ))
            .id()
    };
    // Straight east along y = 2, walking; and a unit standing still whose path goes 30
    // east and 15 up (diagonal and straight steps, so equally short detours exist).
    let straight = spawn(&mut app, Cell::new(1, 2), Cell::new(58, 2));
    let mixed = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(Cell::new(1, 10), 1).extend(1.0)),
            PathRequest::new(Cell::new(31, 25)),
        ))
        .id();
    for _ in 0..110 {
        app.update();
    }
    let grid = app.world().resource::<NavGrid>();
    let here = grid.agent_cell(position(&app, straight), 1).unwrap();
    assert!(here.x >= 20, "walking: at {here}");
    let path = found(&app, straight);
    let walked: Vec<Cell> = path
        .cells
        .iter()
        .copied()
        .filter(|c| c.x < here.x - 1)
        .collect();
    assert!(walked.len() >= 5);
    app.world_mut().resource_mut::<SolvedLog>().0.clear();

    // Walls on the cells both units walked past: nothing changes.
    let behind = walked.iter().map(|&c| (c, true));
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits(behind);
    app.update();
    assert_eq!((stats(&app).replanned, stats(&app).repaired), (0, 0));
    assert!(app.world().resource::<SolvedLog>().0.is_empty());
    assert_eq!(found(&app, straight), path);

    // A wall ahead of the straight walker: going round costs more, a search re-plans it.
    let ahead = Cell::new(here.x + 15, 2);
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(ahead, true)]);
    app.update();
    assert_eq!((stats(&app).replanned, stats(&app).repaired), (1, 0));
    let around = found(&app, straight);
    assert!(!around.cells.contains(&ahead));
    assert_fresh_cost(app.world().resource::<NavGrid>(), &around, 1);

    // A wall where the mixed path turns from diagonal to straight steps: an equally
    // short detour is spliced in.
    let mixed_path = found(&app, mixed);
    let cells = &mixed_path.cells;
    let diagonal = |k: usize| cells[k].x != cells[k + 1].x && cells[k].y != cells[k + 1].y;
    let turn = (1..cells.len() - 2)
        .find(|&k| diagonal(k - 1) != diagonal(k))
        .expect("a turn");
    let wall = cells[turn];
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(wall, true)]);
    app.update();
    assert_eq!((stats(&app).replanned, stats(&app).repaired), (0, 1));
    let spliced = found(&app, mixed);
    assert!(!spliced.cells.contains(&wall));
    assert_eq!(spliced.cost, mixed_path.cost);
    assert_eq!(spliced.cells.first(), cells.first());
    assert_fresh_cost(app.world().resource::<NavGrid>(), &spliced, 1);
    assert!(app.world().get::<Replanning>(mixed).is_none());
    assert!(!app.world().get::<PathStatus>(mixed).unwrap().is_queued());
}

#[test]
fn failures_are_retried_only_when_an_edit_can_change_their_answer() {
    let mut app = app();
    // A closed room (x 10..=14, y 2..=6), a wall cell at (3, 8), a free far corner.
    let mut rows = open_rows(30, 12);
    for (y, row) in rows.iter_mut().enumerate().take(7).skip(2) {
        for x in 10..=14 {
            if y == 2 || y == 6 || x == 10 || x == 14 {
                row.replace_range(x..x + 1, "#");
            }
        }
    }
    rows[8].replace_range(3..4, "#");
    rows[1].replace_range(1..2, "#");
    app.insert_resource(grid_of(&rows));
    let spawn = |app: &mut App, at: Cell, goal: Cell| {
        app.world_mut()
            .spawn((
                Transform::from_translation(center_of(at, 1).extend(1.0)),
                PathRequest::new(goal).exact(),
            ))
            .id()
    };
    let unreachable = spawn(&mut app, Cell::new(1, 4), Cell::new(12, 4));
    let goal_blocked = spawn(&mut app, Cell::new(1, 9), Cell::new(3, 8));
    let start_blocked = spawn(&mut app, Cell::new(1, 1), Cell::new(5, 1));
    // Unreachable too, but its goal will be walled: the answer becomes GoalBlocked.
    let walled_goal = spawn(&mut app, Cell::new(2, 4), Cell::new(11, 3));
    app.update();
    let failure = |app: &App, unit| {
        *app.world()
            .get::<PathResult>(unit)
            .unwrap()
            .failure()
            .expect("a failure")
    };
    assert_eq!(
        failure(&app, unreachable),
        PathFailure::Search(PathError::Unreachable)
    );
    assert!(matches!(
        failure(&app, goal_blocked),
        PathFailure::Search(PathError::GoalBlocked { .. })
    ));
    assert!(matches!(
        failure(&app, start_blocked),
        PathFailure::Search(PathError::StartBlocked { .. })
    ));
    let solved = |app: &App| app.world().resource::<SolvedLog>().0.len();
    let answers = solved(&app);

    // Edits far from every start and goal, and cells of the room's inside: no retry.
    let edit = |app: &mut App, edits: Vec<(Cell, bool)>| {
        app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        app.update();
    };
    for round in 0..6 {
        edit(&mut app, vec![(Cell::new(27, 10), round % 2 == 0)]);
        edit(&mut app, vec![(Cell::new(12, 5), round % 2 == 0)]);
    }
    assert_eq!(solved(&app), answers, "far edits re-solved failures");
    assert_eq!(stats(&app).total_replanned, 0);

    // A wall on the goal of an unreachable request: its answer becomes GoalBlocked.
    edit(&mut app, vec![(Cell::new(11, 3), true)]);
    assert_eq!(solved(&app), answers + 1);
    assert!(matches!(
        failure(&app, walled_goal),
        PathFailure::Search(PathError::GoalBlocked { .. })
    ));
    // A door into the room: the components merge, the unreachable request is answered.
    edit(&mut app, vec![(Cell::new(10, 4), false)]);
    assert_eq!(solved(&app), answers + 2);
    assert_eq!(
        found(&app, unreachable).cells.last(),
        Some(&Cell::new(12, 4))
    );
    // The blocked goal and start free up: each is retried once, and found.
    edit(&mut app, vec![(Cell::new(3, 8), false)]);
    assert_eq!(solved(&app), answers + 3);
    assert_eq!(
        found(&app, goal_blocked).cells.last(),
        Some(&Cell::new(3, 8))
    );
    edit(&mut app, vec![(Cell::new(1, 1), false)]);
    assert_eq!(solved(&app), answers + 4);
    assert_eq!(
        found(&app, start_blocked).cells.first(),
        Some(&Cell::new(1, 1))
    );
}

#[test]
fn openings_that_cannot_shorten_a_path_replan_nothing() {
    let mut app = app();
    // A wall three cells thick across the map (y 9..=11), open only at x >= 38: a unit
    // going from below it to above it makes a long detour.
    let mut rows = open_rows(40, 20);
    for row in rows.iter_mut().take(12).skip(9) {
        *row = format!("{}..", "#".repeat(38));
    }
    app.insert_resource(grid_of(&rows));
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(Cell::new(6, 3), 1).extend(1.0)),
            PathRequest::new(Cell::new(6, 17)),
        ))
        .id();
    app.update();
    let path = found(&app, unit);
    assert!(path.cells.iter().any(|c| c.x >= 38), "a detour");
    // Inside the wall, and on its straight edge facing the unit: a straight bound through
    // either would be far below the detour, but neither lets any route save anything.
    for cell in [Cell::new(8, 10), Cell::new(7, 9), Cell::new(20, 11)] {
        app.world_mut()
            .resource_mut::<NavGrid>()
            .apply_edits([(cell, false)]);
        app.update();
        assert_eq!(stats(&app).replanned, 0, "opening {cell} re-planned");
        assert!(!app.world().get::<PathStatus>(unit).unwrap().is_queued());
        assert_eq!(found(&app, unit), path);
        app.world_mut()
            .resource_mut::<NavGrid>()
            .apply_edits([(cell, true)]);
        app.update();
    }
    // A hole through the wall: re-planned (as an improvement: the old path stays valid).
    let hole = [9, 10, 11].map(|y| (Cell::new(6, y), false));
    app.world_mut().resource_mut::<NavGrid>().apply_edits(hole);
    app.update();
    assert_eq!(stats(&app).replanned, 1);
    let through = found(&app, unit);
    assert!(through.cells.contains(&Cell::new(6, 10)));
    assert!(through.cost < path.cost);
}

#[test]
fn a_small_army_under_constant_edits_keeps_moving_and_gets_every_answer_in_time() {
    let config = stress::Config {
        units: 500,
        size: 64,
        frames: 200,
        edits: 6,
        // A fixed number of expansions per frame: the outcome does not depend on the
        // machine.
        budget: FrameBudget::Expansions(12_000),
        seed: 3,
        mode: stress::Mode::LiveEdits(live_edits::Options {
            speed: 6.0,
            ..default()
        }),
    };
    let mut app = stress::build(&config, minimal_plugins());
    stress::warm_up(&mut app, &config);
    for _ in 0..config.frames {
        stress::step(&mut app);
    }
    let m = stress::metrics(&app).clone();
    let unanswered = live_edits::unanswered(&app);
    let (start_blocked, _) = live_edits::blocked_units(&app);
    println!(
        "{} frames: max pending {}, longest wait {}, re-plans {}, repairs {}, answers {}, \
         frozen {}, arrivals {}, walls built {} ({} with a unit on them) and opened {}; \
         still queued {} (improvements {}, oldest {}/{})",
        m.frames,
        m.max_pending,
        m.max_wait,
        m.replans,
        m.repairs,
        m.solves,
        m.frozen,
        m.arrivals,
        m.walls_built,
        m.walls_on_units,
        m.walls_opened,
        unanswered.count,
        unanswered.improvements,
        unanswered.oldest,
        unanswered.oldest_improvement
    );
    assert_eq!(m.frames, config.frames);
    assert!(m.walls_built > 500 && m.repairs > 50 && m.replans > 50);
    assert_eq!(m.frozen, 0, "frozen unit-frames");
    assert_eq!(
        m.ordered, 0,
        "unit-frames waiting for a new order's first answer"
    );
    assert!(m.max_wait <= 30, "an answer waited {} frames", m.max_wait);
    assert!(
        unanswered.oldest <= 30,
        "a request waits for {}",
        unanswered.oldest
    );
    assert_eq!(start_blocked, 0);
    // Units avoid each other (and queue at gaps), so fewer arrive than ghosts would.
    assert!(m.arrivals > 20, "{} arrivals", m.arrivals);
}
