//! Frame budgets: searches suspended when the budget is spent and resumed next frame
//! (time and expansion budgets), the solve-time histogram, and lockstep runs under an
//! expansion budget that are bit-identical with one and two solver threads.

use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::grid::{GridSize, cost_to_f64};
use bevy_tilepath::prelude::{
    Algorithm, Cell, NavGrid, PathRequest, PathResult, Steering, TilepathPlugin, TilepathSettings,
};
use bevy_tilepath::scenario::{CachedScenario, generate};
use bevy_tilepath::search::{PathQuery, Pathfinder};
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, TILE, app, bits_of, center_of, level, minimal_plugins, world_of};
use bevy_tilepath::prelude::FrameBudget;

/// A `size × size` maze with one-cell corridors (long winding paths), `TILE` apart.
fn maze_grid(size: u32, seed: u64) -> NavGrid {
    let bits = generate::maze(GridSize::new(size, size), 1, seed);
    NavGrid::new(
        CachedScenario::from_bits(bits).unwrap(),
        Vec2::ZERO,
        Vec2::splat(TILE),
    )
}

/// The free cells of `grid` nearest to its lower-left and upper-right corners.
fn far_ends(grid: &NavGrid) -> (Cell, Cell) {
    let size = grid.size();
    let free = |c: &Cell| !grid.is_blocked(*c, 1);
    let all = || {
        (0..size.height as i32)
            .flat_map(move |y| (0..size.width as i32).map(move |x| Cell::new(x, y)))
    };
    let start = all().find(free).unwrap();
    let goal = all().rfind(free).unwrap();
    (start, goal)
}

/// Sets an expansion budget of `budget` a frame and spawns one unit at `start` with an
/// A* request to `goal`.
fn one_astar_unit(app: &mut App, budget: u32, start: Cell, goal: Cell) -> Entity {
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(budget);
    app.world_mut()
        .spawn((
            Transform::from_translation(world_of(start).extend(0.0)),
            PathRequest::new(goal).algorithm(Algorithm::AStar),
        ))
        .id()
}

/// Runs `app` until `unit` has an answer; returns the frames it took and the cells
/// expanded in them all.
fn run_until_found(app: &mut App, unit: Entity, max_frames: u32) -> (u32, u64) {
    let mut expanded = 0;
    for frame in 1..=max_frames {
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        expanded += stats.expanded;
        if !app.world().get::<PathResult>(unit).unwrap().is_pending() {
            assert_eq!(stats.suspended, 0);
            return (frame, expanded);
        }
        assert_eq!(
            stats.suspended, 1,
            "frame {frame}: the search waits in the pool"
        );
    }
    panic!("no answer after {max_frames} frames");
}

#[test]
fn a_search_larger_than_the_budget_finishes_over_several_frames_as_if_unsliced() {
    let grid = maze_grid(96, 3);
    let (start, goal) = far_ends(&grid);
    for algorithm in [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Jps] {
        let mut pathfinder = Pathfinder::new();
        let query = PathQuery::new(start, goal).algorithm(algorithm);
        let whole = pathfinder.find(grid.scenario(), &query).unwrap();
        let cells = pathfinder.path().to_vec();
        for budget in [Some(300), None] {
            let mut app = app();
            app.insert_resource(NavGrid::new(
                grid.scenario().clone(),
                grid.origin(),
                grid.tile_size(),
            ));
            {
                let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
                // Under a time budget of zero each frame runs one slice (256 expansions).
                settings.budget = match budget {
                    Some(n) => FrameBudget::Expansions(n),
                    None => FrameBudget::Time(Duration::ZERO),
                };
                settings.max_threads = 1;
            }
            let unit = app
                .world_mut()
                .spawn((
                    Transform::from_translation(world_of(start).extend(0.0)),
                    PathRequest::new(goal).algorithm(algorithm),
                ))
                .id();
            let (frames, expanded) = run_until_found(&mut app, unit, 10_000);
            let path = app
                .world()
                .get::<PathResult>(unit)
                .unwrap()
                .found()
                .cloned()
                .unwrap();
            let what = format!("{algorithm:?} with budget {budget:?}");
            assert_eq!(path.cells, cells, "{what}: the path of the whole search");
            assert_eq!(path.expanded, whole.expanded, "{what}");
            assert_eq!(
                expanded,
                u64::from(whole.expanded),
                "{what}: resumed, never restarted"
            );
            let per_frame = u64::from(budget.unwrap_or(TilepathSettings::TIME_SLICE));
            let least = u64::from(whole.expanded).div_ceil(per_frame);
            assert!(
                u64::from(frames) >= least && frames > 3,
                "{what}: {frames} frames for {} expansions",
                whole.expanded
            );
            if algorithm != Algorithm::Jps {
                // One expansion is one cell: the budget is met exactly.
                assert!(u64::from(frames) <= least + 1, "{what}: {frames} frames");
            }
        }
    }
}

#[test]
fn a_map_edit_carries_a_suspended_search_over_to_the_new_map() {
    let grid = maze_grid(64, 5);
    let (start, goal) = far_ends(&grid);
    let mut app = app();
    app.insert_resource(NavGrid::new(
        grid.scenario().clone(),
        grid.origin(),
        grid.tile_size(),
    ));
    let unit = one_astar_unit(&mut app, 100, start, goal);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<TilepathStats>().suspended, 1);
    // Wall off part of the old shortest path, somewhere in the middle.
    let mut pathfinder = Pathfinder::new();
    let old = pathfinder
        .find(
            grid.scenario(),
            &PathQuery::new(start, goal).algorithm(Algorithm::AStar),
        )
        .unwrap();
    let old_path = pathfinder.path().to_vec();
    let cut = old_path[old_path.len() / 2..]
        .iter()
        .copied()
        .find(|&c| {
            let mut edited = grid.scenario().clone();
            edited.set_obstacle(c, true);
            Pathfinder::new()
                .find(
                    &edited,
                    &PathQuery::new(start, goal).algorithm(Algorithm::AStar),
                )
                .is_ok()
        })
        .expect("a cell of the path whose loss leaves a detour");
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(cut, true)]);
    let (_, expanded) = run_until_found(&mut app, unit, 10_000);
    let grid = app.world().resource::<NavGrid>();
    let path = app
        .world()
        .get::<PathResult>(unit)
        .unwrap()
        .found()
        .cloned()
        .unwrap();
    assert!(!path.cells.contains(&cut));
    assert_eq!(path.generation, grid.generation());
    let fresh = pathfinder
        .find(
            grid.scenario(),
            &PathQuery::new(start, goal).algorithm(Algorithm::AStar),
        )
        .unwrap();
    assert!(fresh.cost > old.cost, "the cut made the way longer");
    // The answer is the edited map's optimum, reached without starting over: the
    // expansions after the edit are fewer than a fresh search's.
    assert_eq!(path.cost, cost_to_f64(fresh.cost) as f32);
    assert!(
        expanded < u64::from(fresh.expanded),
        "{expanded} expansions after the edit, {} for a fresh search",
        fresh.expanded
    );
}

#[test]
fn per_frame_solve_times_are_recorded_and_every_frame_makes_progress() {
    let grid = maze_grid(96, 9);
    let mut app = app();
    let free: Vec<Cell> = (0..96)
        .flat_map(|y| (0..96).map(move |x| Cell::new(x, y)))
        .filter(|&c| !grid.is_blocked(c, 1))
        .collect();
    app.insert_resource(grid);
    let budget = Duration::from_millis(1);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.budget = FrameBudget::Time(budget);
        settings.max_threads = 2;
    }
    let mut rng = Rng(4);
    for i in 0..120 {
        let start = free[rng.below(free.len())];
        let goal = free[rng.below(free.len())];
        let algorithm = [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Jps][i % 3];
        app.world_mut().spawn((
            Transform::from_translation(world_of(start).extend(0.0)),
            PathRequest::new(goal).algorithm(algorithm),
        ));
    }
    // Whatever the machine's speed, each frame runs at least one slice of the oldest
    // request: no search here expands more than the maze's free cells, so this many
    // frames are enough at any speed.
    let bound = 120 * (free.len() as u64).div_ceil(u64::from(TilepathSettings::TIME_SLICE)) + 120;
    let mut frames = 0;
    loop {
        app.update();
        frames += 1;
        let stats = app.world().resource::<TilepathStats>();
        if stats.pending == 0 && stats.suspended == 0 {
            break;
        }
        assert!(frames <= bound, "{frames} frames, bound {bound}");
    }
    let stats = app.world().resource::<TilepathStats>();
    let histogram = &stats.solve_times;
    assert_eq!(histogram.frames, frames);
    assert_eq!(stats.total_solved, 120);
    for line in histogram.lines() {
        println!("{line}");
    }
    // Times are printed, never asserted: they depend on the machine (the release
    // benchmarks report them).
    println!(
        "{frames} frames (bound {bound}), budget {budget:?}: median {:?}, p99 {:?}, max {:?}",
        histogram.quantile(0.5),
        histogram.quantile(0.99),
        histogram.max
    );
}

/// One lockstep run: units with orders and map edits scripted by frame, planned and
/// steered in `FixedUpdate` under an expansion budget with `threads` solver threads.
/// Returns every unit's translation bits at every frame, and the number of frames in
/// which a search was suspended and of answers read off shared fields.
fn lockstep(threads: usize, frames: u32) -> (Vec<Vec<[u32; 3]>>, u32, u64) {
    let mut app = App::new();
    app.add_plugins((
        minimal_plugins(),
        TilepathPlugin::default().in_schedule(FixedUpdate),
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        20,
    )));
    app.insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(20)));
    let walls = level();
    app.insert_resource(NavGrid::new(
        CachedScenario::from_bits(bits_of(&walls)).unwrap(),
        Vec2::ZERO,
        Vec2::splat(TILE),
    ));
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(1_500),
        max_threads: threads,
        ..default()
    });
    let mut rng = Rng(21);
    let map = CachedScenario::from_bits(bits_of(&walls)).unwrap();
    let free = |c: Cell, d: u32| !map.layer(d).unwrap().is_blocked(c);
    let mut units = Vec::new();
    for i in 0..90 {
        let diameter = if i % 6 == 5 { 2 } else { 1 };
        let start = loop {
            let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
            if free(c, diameter) {
                break c;
            }
        };
        let algorithm = [Algorithm::Auto, Algorithm::AStar, Algorithm::Dijkstra][i % 3];
        units.push(
            app.world_mut()
                .spawn((
                    Transform::from_translation(center_of(start, diameter).extend(1.0)),
                    // Claims would give every unit its own goal cell; group orders
                    // share one here so that shared fields answer them.
                    PathRequest::new(Cell::new(0, 0))
                        .algorithm(algorithm)
                        .diameter(diameter)
                        .claim_goal(false),
                    Steering {
                        speed: 64.0,
                        ..Steering::default()
                    },
                ))
                .id(),
        );
    }
    let mut trace = Vec::with_capacity(frames as usize);
    let (mut suspended_frames, mut field_answers) = (0, 0);
    for frame in 0..frames {
        if frame % 400 == 0 {
            // A group order (most units to one point) and a few own orders.
            let rally = loop {
                let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
                if free(c, 1) {
                    break c;
                }
            };
            for (i, &unit) in units.iter().enumerate() {
                let goal = if i % 4 == 3 {
                    Cell::new(rng.below(64) as i32, rng.below(64) as i32)
                } else {
                    rally
                };
                app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = goal.into();
            }
        }
        if frame % 30 == 7 {
            let edits: Vec<(Cell, bool)> = (0..4)
                .map(|_| {
                    let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
                    (c, rng.below(2) == 0)
                })
                .collect();
            app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        }
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        suspended_frames += u32::from(stats.suspended > 0);
        field_answers += stats.field_answers as u64;
        trace.push(
            units
                .iter()
                .map(|&u| {
                    let t = app.world().get::<Transform>(u).unwrap().translation;
                    [t.x.to_bits(), t.y.to_bits(), t.z.to_bits()]
                })
                .collect(),
        );
    }
    (trace, suspended_frames, field_answers)
}

#[test]
fn an_expansion_budget_gives_bit_identical_lockstep_runs_with_one_and_two_threads() {
    const FRAMES: u32 = 2_000;
    let (one, suspended, fields) = lockstep(1, FRAMES);
    assert_eq!(
        ComputeTaskPool::get().thread_num(),
        2,
        "the test needs two compute threads"
    );
    let (two, suspended_two, fields_two) = lockstep(2, FRAMES);
    for (frame, (a, b)) in one.iter().zip(&two).enumerate() {
        if let Some(unit) = (0..a.len()).find(|&u| a[u] != b[u]) {
            panic!(
                "frame {frame}: unit {unit} at {:?} with one thread, {:?} with two",
                a[unit].map(f32::from_bits),
                b[unit].map(f32::from_bits)
            );
        }
    }
    assert_eq!((suspended, fields), (suspended_two, fields_two));
    assert!(suspended > 0, "some searches were suspended");
    assert!(fields > 0, "group orders were answered from shared fields");
    let moved = one[0]
        .iter()
        .zip(&one[FRAMES as usize - 1])
        .filter(|(a, b)| a != b)
        .count();
    println!(
        "{suspended} frames with a suspended search, {fields} field answers, {moved} units moved"
    );
    assert!(moved > 45, "{moved} of 90 units moved");
}

#[test]
fn a_search_longer_than_a_frame_ends_while_tiles_flip_every_frame() {
    // An A* of twenty expansions a frame, two tiles flipped before every frame: the
    // search is carried over the edits instead of starting over each frame (which
    // never ended).
    let size = GridSize::new(128, 128);
    let bits = generate::open_field(size, 4);
    let grid = NavGrid::new(
        CachedScenario::from_bits(bits).unwrap(),
        Vec2::ZERO,
        Vec2::splat(TILE),
    );
    let (start, goal) = far_ends(&grid);
    let mut app = app();
    app.insert_resource(grid);
    let unit = one_astar_unit(&mut app, 20, start, goal);
    let mut rng = Rng(21);
    for frame in 1..=2_000 {
        let mut edits = Vec::new();
        while edits.len() < 2 {
            let c = Cell::new(rng.below(128) as i32, rng.below(128) as i32);
            if c != start && c != goal {
                let blocked = app.world().resource::<NavGrid>().is_blocked(c, 1);
                edits.push((c, !blocked));
            }
        }
        app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        app.update();
        let Some(path) = app.world().get::<PathResult>(unit).unwrap().found() else {
            continue;
        };
        // The answer is for the map of this frame, at its optimal cost.
        let grid = app.world().resource::<NavGrid>();
        let fresh = Pathfinder::new()
            .find(
                grid.scenario(),
                &PathQuery::new(start, goal).algorithm(Algorithm::AStar),
            )
            .unwrap();
        assert_eq!(path.generation, grid.generation());
        assert_eq!(path.cost, cost_to_f64(fresh.cost) as f32);
        assert!(path.cells.iter().all(|&c| !grid.is_blocked(c, 1)));
        assert!(
            frame > 10,
            "a search of {} expansions answered after {frame} frames of 20",
            fresh.expanded
        );
        return;
    }
    panic!("no answer in 2,000 frames of edits");
}

/// The map upkeep of edits made between two frames, wherever they were made, is what the
/// solve step reports (and counts against a time budget); a replaced grid starts its own
/// count.
#[test]
fn the_upkeep_of_edits_between_frames_is_reported_once() {
    let mut app = app();
    app.insert_resource(maze_grid(64, 5));
    app.update();
    let mut seen = app.world().resource::<NavGrid>().upkeep_time();
    for frame in 0..6 {
        let mut grid = app.world_mut().resource_mut::<NavGrid>();
        for k in 0..frame {
            let cell = Cell::new(1 + 2 * k, 1 + 2 * frame);
            let blocked = grid.is_blocked(cell, 1);
            grid.apply_edits([(cell, !blocked)]);
        }
        let total = grid.upkeep_time();
        assert_eq!(total > seen, frame > 0, "frame {frame}: the edits' upkeep");
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        assert_eq!(stats.upkeep_time, total - seen, "frame {frame}");
        seen = total;
    }
    app.insert_resource(maze_grid(64, 6));
    app.update();
    let stats = app.world().resource::<TilepathStats>();
    assert_eq!(
        stats.upkeep_time,
        Duration::ZERO,
        "a new grid has no upkeep yet"
    );
}

/// Under an expansion budget the work of the map's upkeep between two frames (the same
/// on every machine) is charged: one expansion per 32 units, at most half of a frame's
/// budget, the rest owed to the next frames (at most one budget owed). The search gets
/// what is left.
#[test]
fn an_expansion_budget_charges_the_work_of_map_upkeep() {
    const BUDGET: u64 = 400;
    let size = GridSize::new(128, 128);
    let grid = NavGrid::new(
        CachedScenario::from_bits(generate::open_field(size, 4)).unwrap(),
        Vec2::ZERO,
        Vec2::splat(TILE),
    );
    let (start, goal) = far_ends(&grid);
    let mut app = app();
    app.insert_resource(grid);
    app.update();
    let unit = one_astar_unit(&mut app, BUDGET as u32, start, goal);
    let mut seen = app.world().resource::<NavGrid>().upkeep_work();
    let mut rng = Rng(7);
    let (mut owed, mut charged_frames) = (0u64, 0);
    for frame in 1..=2_000 {
        let mut edits = Vec::new();
        while edits.len() < 2 {
            let c = Cell::new(rng.below(128) as i32, rng.below(128) as i32);
            if c.chebyshev(start) > 2 && c.chebyshev(goal) > 2 {
                let blocked = app.world().resource::<NavGrid>().is_blocked(c, 1);
                edits.push((c, !blocked));
            }
        }
        app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        let total = app.world().resource::<NavGrid>().upkeep_work();
        assert!(total > seen, "frame {frame}: the flips cost upkeep work");
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        assert_eq!(stats.upkeep_work, total - seen, "frame {frame}");
        owed = (owed + (total - seen).div_ceil(32)).min(BUDGET);
        let charged = owed.min(BUDGET / 2);
        owed -= charged;
        assert_eq!(stats.upkeep_charged, charged, "frame {frame}");
        if stats.whole == 0 {
            assert!(
                stats.expanded <= BUDGET - charged,
                "frame {frame}: {} expansions, {charged} charged",
                stats.expanded
            );
        }
        charged_frames += usize::from(charged > 0);
        seen = total;
        if !app.world().get::<PathResult>(unit).unwrap().is_pending() {
            assert!(charged_frames > 0, "some frames paid for upkeep");
            println!("answered in frame {frame}; {charged_frames} frames paid for upkeep");
            return;
        }
    }
    panic!("no answer in 2,000 frames of edits");
}
