//! Re-planning: map edits, equal and changed requests, the `Replanning` marker, removed
//! requests, `NavGridChanged` messages.

use std::collections::HashSet;
use std::time::Duration;

use bevy::prelude::*;
use bevy_tilepath::components::{PathStatus, Replanning};
#[cfg(feature = "tilemap")]
use bevy_tilepath::prelude::BlocksPath;
use bevy_tilepath::prelude::{
    Arrived, Cell, GridLayout, NavGrid, NavGridChanged, PathRequest, PathResult, Steering,
    TilepathPlugin, TilepathSettings, TilepathSystems,
};
#[cfg(feature = "tilemap")]
use bevy_tilepath::scenario::Scenario;
use bevy_tilepath::stats::TilepathStats;

#[cfg(feature = "tilemap")]
use crate::common::{SIZE, assert_answers, level, results, run_until_answered, spawn_units};
use crate::common::{SolvedLog, TILE, app, found_path, grid_of, minimal_plugins, position, shapes};
#[cfg(feature = "tilemap")]
use crate::tilemaps::spawn_tilemap;
use bevy_tilepath::prelude::FrameBudget;

/// An open grid of `width × height` cells laid out as `layout`, `TILE` apart, cell
/// (0, 0) at the origin.
fn open_grid(layout: GridLayout, width: usize, height: usize) -> NavGrid {
    let rows = vec![".".repeat(width); height].join("\n");
    grid_of(layout, &rows)
}

/// World centre of an agent of `diameter` on `cell` of the app's grid.
fn center(app: &App, cell: Cell, diameter: u32) -> Vec2 {
    let grid = app.world().resource::<NavGrid>();
    grid.agent_center(cell, diameter)
}

#[test]
#[cfg(feature = "tilemap")]
fn blocking_tiles_on_found_paths_makes_exactly_the_crossing_units_replan_around_them() {
    let mut app = app();
    let (_, tiles) = spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 1000, 12, false, false);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.budget = FrameBudget::Time(Duration::MAX);
        // Every answer is reviewed in the frame of the edit (the review's own budget is
        // tested in `review`).
        settings.replan.review_budget = u32::MAX;
    }
    run_until_answered(&mut app, 200);
    let before = results(&app, &units);
    let generation = app.world().resource::<NavGrid>().generation();

    let mut walls = HashSet::new();
    for result in before.iter().step_by(40) {
        if let PathResult::Found(path) = result
            && path.cells.len() > 6
        {
            walls.insert(path.cells[path.cells.len() / 2]);
        }
    }
    assert!(walls.len() >= 10);
    for c in &walls {
        let tile = tiles[c.y as usize * SIZE + c.x as usize];
        app.world_mut().entity_mut(tile).insert(BlocksPath);
    }
    app.world_mut().resource_mut::<SolvedLog>().0.clear();
    run_until_answered(&mut app, 200);

    let grid = app.world().resource::<NavGrid>();
    assert!(grid.generation() > generation);
    for c in &walls {
        assert!(grid.scenario().is_obstacle(*c));
    }
    let log = &app.world().resource::<SolvedLog>().0;
    let replanned: HashSet<Entity> = log.iter().map(|(_, m)| m.entity).collect();
    let mut crossing = 0;
    for (unit, old) in units.iter().zip(&before) {
        let touches = |cells: &[Cell]| {
            // A path depends on its cells and on the two cells each diagonal step passes.
            let r = (unit.diameter / 2) as i32;
            let near = |c: Cell| walls.iter().any(|w| w.chebyshev(c) as i32 <= r);
            cells.iter().any(|&c| near(c))
                || cells
                    .windows(2)
                    .any(|w| near(Cell::new(w[1].x, w[0].y)) || near(Cell::new(w[0].x, w[1].y)))
        };
        let now = app.world().get::<PathResult>(unit.entity).unwrap();
        match old {
            PathResult::Found(path) if touches(&path.cells) => {
                crossing += 1;
                assert!(
                    replanned.contains(&unit.entity),
                    "{unit:?} was not re-planned"
                );
                if let PathResult::Found(new) = now {
                    assert!(new.generation > path.generation);
                    assert!(
                        new.cells.iter().all(|c| !walls.contains(c)),
                        "{unit:?} still crosses a new wall"
                    );
                }
            }
            PathResult::Found(_) => {
                assert!(
                    !replanned.contains(&unit.entity),
                    "{unit:?} re-planned needlessly"
                );
                assert_eq!(now, old);
            }
            _ => {}
        }
    }
    assert!(crossing >= walls.len());
    assert_answers(&mut app, &units);
}

#[test]
fn a_hand_made_grid_is_used_as_is_and_its_edits_and_request_changes_replan() {
    let mut app = App::new();
    app.insert_resource(TilepathSettings {
        max_requests_per_frame: 7,
        ..crate::common::unlimited()
    });
    app.add_plugins((minimal_plugins(), TilepathPlugin::default()));
    let rows = "..........\n..........\n..........";
    app.insert_resource(NavGrid::from_ascii(rows, Vec2::ZERO, Vec2::ONE).unwrap());
    let request = PathRequest::new(Cell::new(9, 0));
    let unit = app
        .world_mut()
        .spawn((Transform::default(), request.clone()))
        .id();
    app.update();
    let settings = app.world().resource::<TilepathSettings>();
    assert_eq!(
        settings.max_requests_per_frame, 7,
        "settings inserted first survive"
    );
    assert_eq!(found_path(&app, unit).length, 9.0);

    let edit = [(Cell::new(5, 0), true), (Cell::new(5, 1), true)];
    app.world_mut().resource_mut::<NavGrid>().apply_edits(edit);
    app.update();
    assert!(
        found_path(&app, unit).cells.contains(&Cell::new(5, 2)),
        "{:?}",
        found_path(&app, unit).cells
    );

    // Changing the request, or inserting a different one, queues it again.
    let ticket = app.world().get::<PathStatus>(unit).unwrap().clone();
    app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = Cell::new(0, 2).into();
    app.update();
    assert_eq!(found_path(&app, unit).cells.last(), Some(&Cell::new(0, 2)));
    app.world_mut()
        .entity_mut(unit)
        .insert(request.smooth(true));
    app.update();
    assert_eq!(found_path(&app, unit).cells.last(), Some(&Cell::new(9, 0)));
    assert!(app.world().get::<PathStatus>(unit).unwrap().number() >= ticket.number() + 2);

    // A collision layer does not override a hand-made grid.
    #[cfg(feature = "tilemap")]
    {
        crate::tilemaps::spawn_tilemap(app.world_mut(), &[vec![true; 4], vec![true; 4]]);
        app.update();
        let grid = app.world().resource::<NavGrid>();
        assert!(!grid.scenario().is_obstacle(Cell::new(0, 0)));
    }
}

#[test]
fn walking_units_keep_a_path_to_follow_while_map_edits_replan_them() {
    for layout in shapes() {
        walking_units_keep_a_path(layout);
    }
}

fn walking_units_keep_a_path(layout: GridLayout) {
    let mut app = app();
    app.insert_resource(open_grid(layout, 48, 24));
    // Two searches per frame: re-plans wait in the queue for several frames (a budget
    // in expansions, so that the run does not depend on the machine's load).
    app.insert_resource(TilepathSettings {
        max_requests_per_frame: 2,
        budget: FrameBudget::Expansions(100_000),
        ..default()
    });
    let units: Vec<(Entity, u32, Cell)> = (0..20)
        .map(|i| {
            let diameter = if i % 4 == 3 { 2 } else { 1 };
            let start = Cell::new(1, 1 + i);
            let goal = Cell::new(45, 20 - i);
            // Ghosts: this test counts arrivals on the goal cells, which a crowd would
            // hold back from.
            let steering = Steering {
                speed: 96.0,
                avoidance: bevy_tilepath::steering::Avoidance::Off,
                ..Steering::default()
            };
            let at = center(&app, start, diameter).extend(1.0);
            let entity = app
                .world_mut()
                .spawn((
                    Transform::from_translation(at),
                    // Neighbouring goals overlap the footprints of the 2-cell units: no
                    // claims, every unit goes to its own goal.
                    PathRequest::new(goal).diameter(diameter).claim_goal(false),
                    steering,
                ))
                .id();
            (entity, diameter, goal)
        })
        .collect();
    let (mut frozen, mut replanning_frames, mut moved_while_replanning, mut walls) = (0, 0, 0, 0);
    let mut rng = crate::common::Rng(3);
    let mut standing: Vec<Cell> = Vec::new();
    // Units need about 550-650 frames to walk across while walls keep appearing ahead
    // of them (how long depends on which of the equal-cost detours the search picks):
    // 800 frames leave room for every one to arrive.
    for frame in 0..800 {
        let walking: Vec<bool> = units
            .iter()
            .map(|&(e, ..)| {
                let world = app.world();
                world.get::<PathResult>(e).unwrap().found().is_some()
                    && world.get::<Arrived>(e).is_none()
            })
            .collect();
        let before: Vec<Vec2> = units.iter().map(|&(e, ..)| position(&app, e)).collect();
        if frame % 15 == 5 {
            standing = move_walls_ahead(&mut app, &units, &mut rng, &standing);
            walls += standing.len();
        }
        app.update();
        let grid = app.world().resource::<NavGrid>();
        for (i, &(entity, diameter, _)) in units.iter().enumerate() {
            let world = app.world();
            let here = position(&app, entity);
            let cell = grid
                .agent_cell(here, diameter)
                .unwrap_or_else(|| panic!("{layout:?}: {entity} off the map"));
            assert!(
                !grid.is_blocked(cell, diameter),
                "{layout:?}: {entity} in a wall at {cell}"
            );
            if walking[i] && world.get::<PathResult>(entity).unwrap().found().is_none() {
                frozen += 1;
            }
            if world.get::<Replanning>(entity).is_some() {
                replanning_frames += 1;
                moved_while_replanning += usize::from(here != before[i]);
            }
        }
    }
    assert_eq!(
        frozen, 0,
        "{layout:?}: frames in which a walking unit had no path to follow"
    );
    assert!(walls > 20, "{layout:?}: walls {walls}");
    assert!(replanning_frames > 10, "{layout:?}: {replanning_frames}");
    assert!(
        moved_while_replanning > 10,
        "{layout:?}: {moved_while_replanning}"
    );
    assert!(
        app.world().resource::<TilepathStats>().total_replanned > 10,
        "{layout:?}"
    );
    let arrived = units
        .iter()
        .filter(|&&(e, d, goal)| {
            let grid = app.world().resource::<NavGrid>();
            app.world().get::<Arrived>(e).is_some()
                && grid.agent_cell(position(&app, e), d) == Some(goal)
        })
        .count();
    println!(
        "{layout:?}: walls {walls}, arrived {arrived} of {}",
        units.len()
    );
    assert!(arrived >= 15, "{layout:?}: arrived {arrived}");
}

/// Frees the cells of `standing` and blocks, for every other walking unit, the cell of
/// its path four steps ahead (unless it is near a unit or a goal), in one edit; returns
/// the new walls. Edits that would cut a unit off from its goal are undone (so every
/// re-plan finds a path and a unit without one could only be waiting).
fn move_walls_ahead(
    app: &mut App,
    units: &[(Entity, u32, Cell)],
    rng: &mut crate::common::Rng,
    standing: &[Cell],
) -> Vec<Cell> {
    let grid = app.world().resource::<NavGrid>();
    let occupied: Vec<Cell> = units
        .iter()
        .map(|&(e, d, _)| grid.agent_cell(position(app, e), d).expect("on the map"))
        .collect();
    let mut walls = Vec::new();
    for &(entity, diameter, _) in units.iter().skip(rng.below(2)).step_by(2) {
        let Some(path) = app.world().get::<PathResult>(entity).unwrap().found() else {
            continue;
        };
        let Some(here) = grid.agent_cell(position(app, entity), diameter) else {
            continue;
        };
        let Some(at) = path.cells.iter().position(|&c| c == here) else {
            continue;
        };
        let Some(&cell) = path.cells.get(at + 4) else {
            continue;
        };
        let clear = occupied.iter().all(|o| o.chebyshev(cell) > 2)
            && units.iter().all(|&(_, _, goal)| goal.chebyshev(cell) > 2);
        if clear {
            walls.push(cell);
        }
    }
    let mut grid = app.world_mut().resource_mut::<NavGrid>();
    let edits = standing.iter().map(|&c| (c, false));
    grid.apply_edits(edits.chain(walls.iter().map(|&c| (c, true))));
    let connected = units
        .iter()
        .zip(&occupied)
        .all(|(&(_, d, goal), &at)| grid.scenario().connected(at, goal, d));
    if !connected {
        grid.apply_edits(walls.iter().map(|&c| (c, false)));
        walls.clear();
    }
    walls
}

#[test]
fn an_equal_request_does_not_requeue_and_a_changed_one_does() {
    for layout in shapes() {
        only_a_changed_request_requeues(layout);
    }
}

fn only_a_changed_request_requeues(layout: GridLayout) {
    // Names the layout in the output of a failure below.
    println!("layout {layout:?}");
    let mut app = app();
    app.insert_resource(open_grid(layout, 10, 3));
    let request = PathRequest::new(Cell::new(9, 0));
    let start = center(&app, Cell::new(0, 0), 1).extend(0.0);
    let unit = app
        .world_mut()
        .spawn((Transform::from_translation(start), request.clone()))
        .id();
    app.update();
    let ticket = app.world().get::<PathStatus>(unit).unwrap().clone();
    assert_eq!(ticket.request(), Some(&request));
    assert!(!ticket.is_queued());
    let answered = app.world().get::<PathResult>(unit).unwrap().clone();
    assert!(answered.found().is_some());

    // Writing or inserting the same request (both mark it changed) plans nothing.
    *app.world_mut().get_mut::<PathRequest>(unit).unwrap() = request.clone();
    app.update();
    app.world_mut().entity_mut(unit).insert(request);
    app.update();
    assert_eq!(app.world().get::<PathStatus>(unit), Some(&ticket));
    assert_eq!(app.world().get::<PathResult>(unit), Some(&answered));
    assert_eq!(app.world().resource::<SolvedLog>().0.len(), 1);
    assert_eq!(app.world().resource::<TilepathStats>().total_solved, 1);

    // A different request is queued at once, with a pending result until answered.
    app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = Cell::new(4, 2).into();
    app.update();
    let ticket2 = app.world().get::<PathStatus>(unit).unwrap().clone();
    assert!(ticket2.number() > ticket.number());
    let path = found_path(&app, unit);
    assert_eq!(path.cells.last(), Some(&Cell::new(4, 2)));
    assert_eq!(app.world().resource::<SolvedLog>().0.len(), 2);
}

#[test]
fn inserting_replanning_plans_the_same_request_again_and_keeps_the_old_path_meanwhile() {
    for layout in shapes() {
        replanning_keeps_the_old_path(layout);
    }
}

fn replanning_keeps_the_old_path(layout: GridLayout) {
    // Names the layout in the output of a failure below.
    println!("layout {layout:?}");
    let mut app = app();
    app.insert_resource(open_grid(layout, 10, 3));
    let units: Vec<Entity> = (0..2)
        .map(|y| {
            let start = center(&app, Cell::new(0, y), 1).extend(0.0);
            app.world_mut()
                .spawn((
                    Transform::from_translation(start),
                    PathRequest::new(Cell::new(9, y)),
                ))
                .id()
        })
        .collect();
    app.update();
    let old: Vec<PathResult> = units
        .iter()
        .map(|&u| app.world().get::<PathResult>(u).unwrap().clone())
        .collect();
    assert!(old.iter().all(|r| r.found().is_some()));

    // A zero budget serves one request per frame: the second waits a frame, walkable.
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.budget = FrameBudget::Time(Duration::ZERO);
        settings.max_threads = 1;
    }
    for &unit in &units {
        app.world_mut().entity_mut(unit).insert(Replanning);
    }
    app.update();
    assert_eq!(app.world().resource::<TilepathStats>().replanned, 2);
    assert!(app.world().get::<Replanning>(units[0]).is_none());
    assert!(app.world().get::<Replanning>(units[1]).is_some());
    assert!(app.world().get::<PathStatus>(units[1]).unwrap().is_queued());
    assert_eq!(app.world().get::<PathResult>(units[1]), Some(&old[1]));
    app.update();
    assert!(app.world().get::<Replanning>(units[1]).is_none());
    assert_eq!(app.world().resource::<SolvedLog>().0.len(), 4);
}

#[test]
fn removing_the_request_removes_the_plugin_components_and_stops_steering() {
    for layout in shapes() {
        a_removed_request_stops_its_unit(layout);
    }
}

fn a_removed_request_stops_its_unit(layout: GridLayout) {
    let mut app = app();
    app.insert_resource(open_grid(layout, 20, 3));
    let spawn = |app: &mut App, goal: Cell| {
        let start = center(app, Cell::new(0, 1), 1).extend(0.0);
        app.world_mut()
            .spawn((
                Transform::from_translation(start),
                PathRequest::new(goal),
                Steering::default(),
            ))
            .id()
    };
    let walker = spawn(&mut app, Cell::new(19, 1));
    let arrived = spawn(&mut app, Cell::new(0, 1));
    for _ in 0..20 {
        app.update();
    }
    assert!(app.world().get::<Arrived>(arrived).is_some(), "{layout:?}");
    let grid = app.world().resource::<NavGrid>();
    assert_ne!(
        grid.agent_cell(position(&app, walker), 1),
        Some(Cell::new(0, 1)),
        "{layout:?}: walking"
    );
    app.world_mut().entity_mut(walker).insert(Replanning);
    for unit in [walker, arrived] {
        app.world_mut().entity_mut(unit).remove::<PathRequest>();
    }
    app.update();
    let stopped = position(&app, walker);
    for unit in [walker, arrived] {
        let entity = app.world().entity(unit);
        assert!(!entity.contains::<PathResult>());
        assert!(!entity.contains::<PathStatus>());
        assert!(!entity.contains::<Replanning>());
        assert!(!entity.contains::<Arrived>());
    }
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(
        position(&app, walker),
        stopped,
        "{layout:?}: a unit without a request stands still"
    );
}

/// The `NavGridChanged` messages one reader saw, in order.
#[derive(Resource, Default)]
struct Seen<const READER: usize>(Vec<NavGridChanged>);

fn read_changes<const READER: usize>(
    mut changes: MessageReader<NavGridChanged>,
    mut seen: ResMut<Seen<READER>>,
) {
    seen.0.extend(changes.read().cloned());
}

#[test]
fn map_changes_are_announced_to_every_reader_with_the_grid_generation() {
    let mut app = App::new();
    app.add_plugins((minimal_plugins(), TilepathPlugin::default()));
    app.insert_resource(crate::common::unlimited());
    app.init_resource::<Seen<0>>().init_resource::<Seen<1>>();
    app.add_systems(
        Update,
        (read_changes::<0>, read_changes::<1>).after(TilepathSystems::Replan),
    );
    app.insert_resource(open_grid(GridLayout::Square, 8, 4));
    app.update();
    {
        let mut grid = app.world_mut().resource_mut::<NavGrid>();
        let change = grid.apply_edits([(Cell::new(2, 1), true), (Cell::new(5, 3), true)]);
        assert_eq!(change.map(|c| c.generation), Some(1));
        // Re-blocking a wall changes nothing and announces nothing.
        assert_eq!(grid.apply_edits([(Cell::new(2, 1), true)]), None);
        grid.apply_edits([(Cell::new(2, 1), false)]);
    }
    app.update();
    app.world_mut()
        .resource_mut::<NavGrid>()
        .set_placement(Vec2::new(4.0, 4.0), Vec2::splat(TILE));
    app.update();
    let generation = app.world().resource::<NavGrid>().generation();
    assert_eq!(generation, 3, "one counter: two edits and one move");

    let seen = &app.world().resource::<Seen<0>>().0;
    assert_eq!(
        seen,
        &app.world().resource::<Seen<1>>().0,
        "both readers see everything"
    );
    let summary: Vec<(u64, bool, HashSet<Cell>)> = seen
        .iter()
        .map(|m| (m.generation, m.whole_map, m.cells.iter().copied().collect()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (0, true, HashSet::new()),
            (1, false, HashSet::from([Cell::new(2, 1), Cell::new(5, 3)])),
            (2, false, HashSet::from([Cell::new(2, 1)])),
            (3, true, HashSet::new()),
        ]
    );
    assert!(seen[1].area.contains(Cell::new(5, 3)) && seen[1].area.contains(Cell::new(2, 1)));
}
