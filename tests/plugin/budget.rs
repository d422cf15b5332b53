//! Frame budgets: searches suspended when the budget is spent and resumed next frame
//! (time and expansion budgets), the solve-time histogram and the upkeep of edits, on
//! every layout (lockstep runs are in `lockstep`).

use std::time::Duration;

use bevy::prelude::*;
use bevy_tilepath::grid::{GridSize, cost_to_f64};
use bevy_tilepath::prelude::{
    Algorithm, Cell, GridLayout, NavGrid, PathRequest, PathResult, TilepathSettings,
};
use bevy_tilepath::scenario::{CachedScenario, generate};
use bevy_tilepath::search::{PathQuery, Pathfinder};
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, TILE, app, shapes};
use bevy_tilepath::prelude::FrameBudget;

/// A `size × size` maze with one-cell corridors (long winding paths), laid out as
/// `layout`, `TILE` apart.
fn maze_grid(size: u32, seed: u64, layout: GridLayout) -> NavGrid {
    let bits = generate::maze(GridSize::new(size, size), 1, seed);
    NavGrid::new(
        CachedScenario::from_bits(bits).unwrap(),
        Vec2::ZERO,
        Vec2::splat(TILE),
    )
    .with_layout(layout)
}

/// A `128 × 128` open field (seed 4: scattered walls) laid out as `layout`.
fn field_grid(layout: GridLayout) -> NavGrid {
    let bits = generate::open_field(GridSize::new(128, 128), 4);
    NavGrid::new(
        CachedScenario::from_bits(bits).unwrap(),
        Vec2::ZERO,
        Vec2::splat(TILE),
    )
    .with_layout(layout)
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

/// Sets an expansion budget of `budget` a frame and spawns one unit at `start` of the
/// app's grid with an A* request to `goal`.
fn one_astar_unit(app: &mut App, budget: u32, start: Cell, goal: Cell) -> Entity {
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(budget);
    let at = app.world().resource::<NavGrid>().cell_to_world(start);
    app.world_mut()
        .spawn((
            Transform::from_translation(at.extend(0.0)),
            PathRequest::new(goal).algorithm(Algorithm::AStar),
        ))
        .id()
}

/// Runs `app` until `unit` has an answer; returns the frames it took, the cells
/// expanded in them all and in the last of them (`TilepathStats::expanded`).
fn run_until_found(app: &mut App, unit: Entity, max_frames: u32) -> (u32, u64, u64) {
    let mut expanded = 0;
    for frame in 1..=max_frames {
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        expanded += stats.expanded;
        if !app.world().get::<PathResult>(unit).unwrap().is_pending() {
            assert_eq!(stats.suspended, 0);
            return (frame, expanded, stats.expanded);
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
    for layout in shapes() {
        sliced_search_is_the_whole_search(layout);
    }
}

fn sliced_search_is_the_whole_search(layout: GridLayout) {
    let grid = maze_grid(96, 3, layout);
    let (start, goal) = far_ends(&grid);
    for algorithm in [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Jps] {
        let mut pathfinder = Pathfinder::new();
        let query = PathQuery::new(start, goal).algorithm(algorithm);
        let whole = pathfinder.find(grid.scenario(), &query).unwrap();
        let cells = pathfinder.path().to_vec();
        for budget in [Some(300), None] {
            let mut app = app();
            app.insert_resource(
                NavGrid::new(grid.scenario().clone(), grid.origin(), grid.tile_size())
                    .with_layout(layout),
            );
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
                    Transform::from_translation(grid.cell_to_world(start).extend(0.0)),
                    PathRequest::new(goal).algorithm(algorithm),
                ))
                .id();
            let (frames, expanded, last) = run_until_found(&mut app, unit, 10_000);
            let path = app
                .world()
                .get::<PathResult>(unit)
                .unwrap()
                .found()
                .cloned()
                .unwrap();
            let what = format!("{layout:?}: {algorithm:?} with budget {budget:?}");
            assert_eq!(path.cells, cells, "{what}: the path of the whole search");
            assert_eq!(path.expanded, whole.expanded, "{what}");
            // An answer is charged at least one expansion: a search suspended right
            // after its budget's last expansion, that ends on resuming without
            // expanding (here on Hex(ColumnEven), 2,816 = 11 slices of 256), reports 1
            // in its last frame.
            let zero_last = last == 1 && expanded == u64::from(whole.expanded) + 1;
            assert!(
                expanded == u64::from(whole.expanded) || zero_last,
                "{what}: resumed, never restarted: {expanded} expansions reported, {} \
                 for the whole search",
                whole.expanded
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
    for layout in shapes() {
        an_edit_carries_a_search_over(layout);
    }
}

fn an_edit_carries_a_search_over(layout: GridLayout) {
    let grid = maze_grid(64, 5, layout);
    let (start, goal) = far_ends(&grid);
    let mut app = app();
    app.insert_resource(
        NavGrid::new(grid.scenario().clone(), grid.origin(), grid.tile_size()).with_layout(layout),
    );
    let unit = one_astar_unit(&mut app, 100, start, goal);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<TilepathStats>().suspended,
        1,
        "{layout:?}"
    );
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
        .unwrap_or_else(|| panic!("{layout:?}: no cell of the path whose loss leaves a detour"));
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(cut, true)]);
    let (_, expanded, _) = run_until_found(&mut app, unit, 10_000);
    let grid = app.world().resource::<NavGrid>();
    let path = app
        .world()
        .get::<PathResult>(unit)
        .unwrap()
        .found()
        .cloned()
        .unwrap();
    assert!(!path.cells.contains(&cut), "{layout:?}");
    assert_eq!(path.generation, grid.generation(), "{layout:?}");
    let fresh = pathfinder
        .find(
            grid.scenario(),
            &PathQuery::new(start, goal).algorithm(Algorithm::AStar),
        )
        .unwrap();
    assert!(
        fresh.cost > old.cost,
        "{layout:?}: the cut made the way longer"
    );
    // The answer is the edited map's optimum, reached without starting over: the
    // expansions after the edit are fewer than a fresh search's.
    assert_eq!(path.cost, cost_to_f64(fresh.cost) as f32, "{layout:?}");
    assert!(
        expanded < u64::from(fresh.expanded),
        "{layout:?}: {expanded} expansions after the edit, {} for a fresh search",
        fresh.expanded
    );
}

#[test]
fn per_frame_solve_times_are_recorded_and_every_frame_makes_progress() {
    for layout in shapes() {
        solve_times_are_recorded(layout);
    }
}

fn solve_times_are_recorded(layout: GridLayout) {
    let grid = maze_grid(96, 9, layout);
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
        let at = app.world().resource::<NavGrid>().cell_to_world(start);
        app.world_mut().spawn((
            Transform::from_translation(at.extend(0.0)),
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
        assert!(
            frames <= bound,
            "{layout:?}: {frames} frames, bound {bound}"
        );
    }
    let stats = app.world().resource::<TilepathStats>();
    let histogram = &stats.solve_times;
    assert_eq!(histogram.frames, frames, "{layout:?}");
    assert_eq!(stats.total_solved, 120, "{layout:?}");
    for line in histogram.lines() {
        println!("{line}");
    }
    // Times are printed, never asserted: they depend on the machine (the release
    // benchmarks report them).
    println!(
        "{layout:?}: {frames} frames (bound {bound}), budget {budget:?}: median {:?}, p99 {:?}, max {:?}",
        histogram.quantile(0.5),
        histogram.quantile(0.99),
        histogram.max
    );
}

#[test]
fn a_search_longer_than_a_frame_ends_while_tiles_flip_every_frame() {
    for layout in shapes() {
        a_search_ends_under_flips(layout);
    }
}

fn a_search_ends_under_flips(layout: GridLayout) {
    // An A* of twenty expansions a frame, two tiles flipped before every frame: the
    // search is carried over the edits instead of starting over each frame (which
    // never ended).
    let grid = field_grid(layout);
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
        assert_eq!(path.generation, grid.generation(), "{layout:?}");
        assert_eq!(path.cost, cost_to_f64(fresh.cost) as f32, "{layout:?}");
        assert!(
            path.cells.iter().all(|&c| !grid.is_blocked(c, 1)),
            "{layout:?}"
        );
        assert!(
            frame > 10,
            "{layout:?}: a search of {} expansions answered after {frame} frames of 20",
            fresh.expanded
        );
        return;
    }
    panic!("{layout:?}: no answer in 2,000 frames of edits");
}

/// The map upkeep of edits made between two frames, wherever they were made, is what the
/// solve step reports (and counts against a time budget); a replaced grid starts its own
/// count.
#[test]
fn the_upkeep_of_edits_between_frames_is_reported_once() {
    for layout in shapes() {
        upkeep_is_reported_once(layout);
    }
}

fn upkeep_is_reported_once(layout: GridLayout) {
    let mut app = app();
    app.insert_resource(maze_grid(64, 5, layout));
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
        assert_eq!(
            total > seen,
            frame > 0,
            "{layout:?}: frame {frame}: the edits' upkeep"
        );
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        assert_eq!(stats.upkeep_time, total - seen, "{layout:?}: frame {frame}");
        seen = total;
    }
    app.insert_resource(maze_grid(64, 6, layout));
    app.update();
    let stats = app.world().resource::<TilepathStats>();
    assert_eq!(
        stats.upkeep_time,
        Duration::ZERO,
        "{layout:?}: a new grid has no upkeep yet"
    );
}

/// Under an expansion budget the work of the map's upkeep between two frames (the same
/// on every machine) is charged: one expansion per 32 units, at most half of a frame's
/// budget, the rest owed to the next frames (at most one budget owed). The search gets
/// what is left.
#[test]
fn an_expansion_budget_charges_the_work_of_map_upkeep() {
    for layout in shapes() {
        upkeep_work_is_charged(layout);
    }
}

fn upkeep_work_is_charged(layout: GridLayout) {
    const BUDGET: u64 = 400;
    let grid = field_grid(layout);
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
        assert!(
            total > seen,
            "{layout:?}: frame {frame}: the flips cost upkeep work"
        );
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        assert_eq!(stats.upkeep_work, total - seen, "{layout:?}: frame {frame}");
        owed = (owed + (total - seen).div_ceil(32)).min(BUDGET);
        let charged = owed.min(BUDGET / 2);
        owed -= charged;
        assert_eq!(stats.upkeep_charged, charged, "{layout:?}: frame {frame}");
        if stats.whole == 0 {
            assert!(
                stats.expanded <= BUDGET - charged,
                "{layout:?}: frame {frame}: {} expansions, {charged} charged",
                stats.expanded
            );
        }
        charged_frames += usize::from(charged > 0);
        seen = total;
        if !app.world().get::<PathResult>(unit).unwrap().is_pending() {
            assert!(
                charged_frames > 0,
                "{layout:?}: some frames paid for upkeep"
            );
            println!(
                "{layout:?}: answered in frame {frame}; {charged_frames} frames paid for upkeep"
            );
            return;
        }
    }
    panic!("{layout:?}: no answer in 2,000 frames of edits");
}
