//! Liveness under edits: the failures the probe of issue 21 found, one test each. Every
//! test here runs under an expansion budget or a zero time budget (one slice a frame),
//! so what it counts does not depend on the machine's speed.

use std::collections::HashSet;
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::grid::{Connectivity, GridSize};
use bevy_tilepath::prelude::{
    Algorithm, Cell, MovementProfile, MovementProfiles, NavGrid, PathRequest, PathResult, Steering,
    TilepathPlugin, TilepathSettings,
};
use bevy_tilepath::scenario::{CachedScenario, MapEdit, generate};
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, SolvedLog, TILE, app, center_of, minimal_plugins, unlimited};
use bevy_tilepath::prelude::{FrameBudget, GroupOrders};

/// A grid of `size` × `size` with obstacles from `generate::open_field`.
fn field_grid(size: u32, seed: u64) -> NavGrid {
    let bits = generate::open_field(GridSize::new(size, size), seed);
    NavGrid::new(
        CachedScenario::from_bits(bits).unwrap(),
        Vec2::ZERO,
        Vec2::splat(TILE),
    )
}

/// A free cell of `grid` for an agent one cell wide, drawn from `rng`, not in `keep`.
fn free_cell(grid: &NavGrid, rng: &mut Rng, keep: &HashSet<Cell>) -> Cell {
    let size = grid.size();
    loop {
        let c = Cell::new(
            rng.below(size.width as usize) as i32,
            rng.below(size.height as usize) as i32,
        );
        if !grid.is_blocked(c, 1) && !keep.contains(&c) {
            return c;
        }
    }
}

fn spawn(app: &mut App, start: Cell, request: PathRequest) -> Entity {
    let at = center_of(start, request.diameter).extend(0.0);
    app.world_mut()
        .spawn((Transform::from_translation(at), request))
        .id()
}

/// Panics unless every path answered this frame (in the `SolvedLog`) holds on the map as
/// it is; returns the entities answered.
fn check_answers(app: &mut App) -> Vec<Entity> {
    let log = std::mem::take(&mut app.world_mut().resource_mut::<SolvedLog>().0);
    let grid = app.world().resource::<NavGrid>();
    let mut answered = Vec::new();
    for (_, message) in &log {
        answered.push(message.entity);
        let Some(PathResult::Found(path)) = app.world().get::<PathResult>(message.entity) else {
            continue;
        };
        let diameter = app
            .world()
            .get::<PathRequest>(message.entity)
            .unwrap()
            .diameter;
        let layer = grid.scenario().layer_for(path.profile, diameter).unwrap();
        let valid = bevy_tilepath::search::validate_path(
            layer,
            &path.cells,
            path.start,
            path.reached,
            Connectivity::Octile,
        );
        assert_eq!(valid, Ok(()), "{}: {path:?}", message.entity);
    }
    answered
}

/// Runs `app`, with `edit` before each frame, until every one of `units` has had an
/// answer; panics after `max_frames`. Returns the frames it took.
fn run_until_all_answered(
    app: &mut App,
    units: &[Entity],
    max_frames: u32,
    mut edit: impl FnMut(&mut App, u32),
) -> u32 {
    let mut waiting: HashSet<Entity> = units.iter().copied().collect();
    for frame in 1..=max_frames {
        edit(app, frame);
        app.update();
        for entity in check_answers(app) {
            waiting.remove(&entity);
        }
        if waiting.is_empty() {
            return frame;
        }
    }
    panic!(
        "{} of {} requests still unanswered after {max_frames} frames",
        waiting.len(),
        units.len()
    );
}

/// The reproduction of the probe: a long A* search is suspended, then 59 units are sent
/// to one goal, and 8 walls go up every frame at a zero time budget. The shared field's
/// carry-over used to eat every frame, so that nothing was answered, the older search
/// included (0 of 60 in 3,000 frames).
#[test]
fn an_older_search_and_a_group_order_are_answered_while_walls_go_up_every_frame() {
    let grid = field_grid(64, 3);
    let mut app = app();
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Time(Duration::ZERO);
    let mut rng = Rng(11);
    let mut keep = HashSet::new();
    let (start, goal) = (Cell::new(1, 1), Cell::new(62, 62));
    let (start, goal) = (
        grid.scenario()
            .layer(1)
            .unwrap()
            .nearest_free(start, |_| true)
            .unwrap(),
        grid.scenario()
            .layer(1)
            .unwrap()
            .nearest_free(goal, |_| true)
            .unwrap(),
    );
    keep.extend([start, goal]);
    let rally = free_cell(&grid, &mut rng, &keep);
    keep.insert(rally);
    let starts: Vec<Cell> = (0..59)
        .map(|_| {
            let c = free_cell(&grid, &mut rng, &keep);
            keep.insert(c);
            c
        })
        .collect();
    app.insert_resource(grid);
    let older = spawn(
        &mut app,
        start,
        PathRequest::new(goal).algorithm(Algorithm::AStar),
    );
    app.update();
    assert!(app.world().resource::<TilepathStats>().suspended > 0);
    let mut units = vec![older];
    units.extend(
        starts
            .iter()
            .map(|&s| spawn(&mut app, s, PathRequest::new(rally).claim_goal(false))),
    );
    let mut walls = Vec::new();
    let frames = run_until_all_answered(&mut app, &units, 3_000, |app, _| {
        let mut grid = app.world_mut().resource_mut::<NavGrid>();
        let mut edits = Vec::new();
        for _ in 0..8 {
            let c = free_cell(&grid, &mut rng, &keep);
            edits.push((c, true));
            walls.push(c);
        }
        while walls.len() > 160 {
            edits.push((walls.remove(0), false));
        }
        grid.apply_edits(edits);
    });
    let stats = app.world().resource::<TilepathStats>();
    println!(
        "    60 requests answered in {frames} frames under 8 walls a frame; {} searches ran \
         whole",
        stats.total_whole
    );
}

/// Explicit JPS, JPS+ and best-first requests used to start over on every edit anywhere
/// on the map, so that a search longer than a frame's budget never ended while one far
/// cell flipped every frame (none answered in 2,000 frames). They end now, and the
/// expansions of a search that an edit started over are charged from its restart (they
/// used to be charged from zero, so a frame could spend more than its budget).
#[test]
fn jps_jps_plus_and_best_first_searches_end_while_a_far_cell_flips_every_frame() {
    let maze = || {
        let bits = generate::maze(GridSize::new(192, 192), 2, 5);
        let map = CachedScenario::from_bits(bits).unwrap();
        NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE))
    };
    let grid = maze();
    let layer = grid.scenario().layer(1).unwrap();
    let start = layer.nearest_free(Cell::new(2, 2), |_| true).unwrap();
    let goal = layer.nearest_free(Cell::new(150, 150), |_| true).unwrap();
    let far = layer.nearest_free(Cell::new(188, 3), |_| true).unwrap();
    for algorithm in [Algorithm::Jps, Algorithm::JpsPlus, Algorithm::BestFirst] {
        let mut app = app();
        app.insert_resource(maze());
        app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(300);
        let unit = spawn(&mut app, start, PathRequest::new(goal).algorithm(algorithm));
        let mut charged = 0;
        let mut over = 0;
        let frames = run_until_all_answered(&mut app, &[unit], 2_000, |app, frame| {
            if frame > 1 {
                let stats = app.world().resource::<TilepathStats>();
                charged += stats.expanded;
                // A frame that ran the oldest request whole may spend more.
                over += u32::from(stats.whole == 0 && stats.expanded > 300 + 64);
            }
            app.world_mut()
                .resource_mut::<NavGrid>()
                .apply_edits([(far, frame % 2 == 0)]);
        });
        let stats = app.world().resource::<TilepathStats>();
        charged += stats.expanded;
        let path = crate::common::found_path(&app, unit);
        println!(
            "    {algorithm:?}: answered in {frames} frames, {charged} expansions charged, \
             the last attempt {}",
            path.expanded
        );
        assert!(
            charged >= u64::from(path.expanded),
            "{algorithm:?}: {charged} charged for a last attempt of {}",
            path.expanded
        );
        assert_eq!(over, 0, "{algorithm:?}: frames over the budget");
    }
}

/// Terrain repaints used to drop every shared field and restart every suspended search,
/// anywhere on the map: with 16 repaints a frame a group order with fields got no answer
/// in 1,000 frames.
#[test]
fn group_orders_are_answered_while_terrain_is_repainted_every_frame() {
    let grid = field_grid(64, 7);
    let mut app = app();
    app.insert_resource(
        MovementProfiles::default().with("mud", MovementProfile::new().with_weight(1, 3)),
    );
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(2_000);
    let mut rng = Rng(5);
    let mut keep = HashSet::new();
    let rally = free_cell(&grid, &mut rng, &keep);
    keep.insert(rally);
    let units: Vec<(Cell, PathRequest)> = (0..59)
        .map(|i| {
            let c = free_cell(&grid, &mut rng, &keep);
            keep.insert(c);
            let request = PathRequest::new(rally).claim_goal(false);
            (
                c,
                if i % 2 == 0 {
                    request.profile("mud")
                } else {
                    request
                },
            )
        })
        .collect();
    app.insert_resource(grid);
    app.update();
    let units: Vec<Entity> = units
        .into_iter()
        .map(|(c, r)| spawn(&mut app, c, r))
        .collect();
    let frames = run_until_all_answered(&mut app, &units, 1_000, |app, _| {
        let mut grid = app.world_mut().resource_mut::<NavGrid>();
        let edits: Vec<MapEdit> = (0..16)
            .map(|_| {
                let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
                MapEdit::Terrain(c, rng.below(2) as u8)
            })
            .collect();
        grid.apply_map_edits(edits);
    });
    println!("    59 group requests answered in {frames} frames under 16 repaints a frame");
}

/// A `NavGrid` inserted in place of another of the same size used to get answers from the
/// old map's shared fields and suspended searches (23 of 23 later answers crossed the new
/// map's wall): every answer after the swap now holds on the new map, and the paths
/// answered before it are planned again.
#[test]
fn a_navgrid_inserted_in_place_of_another_answers_on_the_new_map() {
    let open = ["................................"; 8].join("\n");
    let mut walled: Vec<String> = vec!["................................".into(); 8];
    walled[4] = "###############################.".into();
    let walled = walled.join("\n");
    let mut app = app();
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(40);
    app.insert_resource(NavGrid::from_ascii(&open, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    let goal = Cell::new(2, 7);
    let first: Vec<Entity> = (0..12)
        .map(|x| {
            spawn(
                &mut app,
                Cell::new(2 * x + 4, 0),
                PathRequest::new(goal).claim_goal(false),
            )
        })
        .collect();
    // Part of the order answered, part waiting on the field or suspended.
    for _ in 0..3 {
        app.update();
        check_answers(&mut app);
    }
    app.insert_resource(NavGrid::from_ascii(&walled, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    let later: Vec<Entity> = (0..11)
        .map(|x| {
            spawn(
                &mut app,
                Cell::new(2 * x + 5, 1),
                PathRequest::new(goal).claim_goal(false),
            )
        })
        .collect();
    let all: Vec<Entity> = first.iter().chain(&later).copied().collect();
    let frames = run_until_all_answered(&mut app, &all, 2_000, |_, _| {});
    // Run on until nothing waits: the paths of before the swap are planned again.
    for _ in 0..2_000 {
        if app.world().resource::<TilepathStats>().pending == 0 {
            break;
        }
        app.update();
        check_answers(&mut app);
    }
    let grid = app.world().resource::<NavGrid>();
    for &unit in &all {
        let path = crate::common::found_path(&app, unit);
        assert!(
            path.cells.iter().all(|&c| !grid.is_blocked(c, 1)),
            "{unit}: {path:?} crosses the new wall"
        );
        assert!(
            path.cells.contains(&Cell::new(31, 4)),
            "{unit}: through the gap"
        );
    }
    println!("    23 requests answered on the new map within {frames} frames of the swap");
}

/// Shared approaches whose slots lie farther from the first slot than the units do used
/// to answer `Unreachable` on a static map (the field grew until the units' cells were
/// settled, and did not reach their slots): they now run their own search where the
/// field does not reach.
#[test]
fn shared_approaches_to_slots_beyond_their_field_are_answered() {
    let mut app = app();
    let grid = field_grid(64, 9);
    let layer = grid.scenario().layer(1).unwrap();
    let near = |c: Cell| layer.nearest_free(c, |_| true).unwrap();
    let first = near(Cell::new(8, 8));
    let members: Vec<(Cell, Cell)> = (0..11)
        .map(|i| {
            let start = near(Cell::new(6 + i % 4, 10 + i / 4));
            let slot = if i == 0 {
                first
            } else {
                near(Cell::new(8 + 20 + 2 * i, 8 + i))
            };
            (start, slot)
        })
        .collect();
    app.insert_resource(
        MovementProfiles::default().with("mud", MovementProfile::new().with_weight(1, 3)),
    );
    // Weighted terrain in every third column, where approaches run.
    let mut grid = grid;
    let mud: Vec<MapEdit> = (0..64 * 64)
        .map(|i| Cell::new(i % 64, i / 64))
        .filter(|c| c.x % 3 == 0)
        .map(|c| MapEdit::Terrain(c, 1))
        .collect();
    grid.apply_map_edits(mud);
    app.insert_resource(grid);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.group_orders = GroupOrders::SharedApproach;
        settings.fields.min_requests = 4;
    }
    let units: Vec<Entity> = members
        .iter()
        .map(|&(start, slot)| {
            spawn(
                &mut app,
                start,
                PathRequest::new(slot).claim_goal(false).profile("mud"),
            )
        })
        .collect();
    run_until_all_answered(&mut app, &units, 100, |_, _| {});
    for (&unit, &(_, slot)) in units.iter().zip(&members) {
        let path = crate::common::found_path(&app, unit);
        assert_eq!(path.reached, slot, "{unit}");
        assert_eq!(path.cells.last(), Some(&slot), "{unit}");
    }
}

/// One lockstep run with searches resumed behind newer requests: 24 steering units on a
/// 128 × 128 field in `FixedUpdate`, 700 expansions a frame, two walls a frame, a new
/// order to one unit every 7 frames (urgent, so it is served before the searches
/// suspended earlier). Returns every unit's translation bits at every frame and the
/// frames with a suspended search.
fn busy_lockstep(threads: usize, frames: u32) -> (Vec<Vec<[u32; 3]>>, u32) {
    let mut app = App::new();
    app.add_plugins((
        minimal_plugins(),
        TilepathPlugin::default().in_schedule(FixedUpdate),
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        20,
    )));
    app.insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(20)));
    app.init_resource::<SolvedLog>();
    let grid = field_grid(128, 13);
    let mut rng = Rng(17);
    let keep = HashSet::new();
    let starts: Vec<Cell> = (0..24).map(|_| free_cell(&grid, &mut rng, &keep)).collect();
    let goals: Vec<Cell> = (0..24).map(|_| free_cell(&grid, &mut rng, &keep)).collect();
    let free: Vec<Cell> = (0..2_000)
        .map(|_| free_cell(&grid, &mut rng, &keep))
        .collect();
    app.insert_resource(grid);
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(700),
        max_threads: threads,
        ..unlimited()
    });
    let units: Vec<Entity> = starts
        .iter()
        .zip(&goals)
        .enumerate()
        .map(|(i, (&start, &goal))| {
            let algorithm = [Algorithm::Auto, Algorithm::AStar, Algorithm::Dijkstra][i % 3];
            app.world_mut()
                .spawn((
                    Transform::from_translation(center_of(start, 1).extend(1.0)),
                    PathRequest::new(goal).algorithm(algorithm),
                    Steering {
                        speed: 48.0,
                        ..Steering::default()
                    },
                ))
                .id()
        })
        .collect();
    let mut trace = Vec::with_capacity(frames as usize);
    let mut suspended = 0;
    for frame in 0..frames {
        if frame % 7 == 3 {
            let unit = units[(frame as usize / 7) % units.len()];
            let goal = free[rng.below(free.len())];
            app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = goal.into();
        }
        let edits: Vec<(Cell, bool)> = (0..2)
            .map(|_| (free[rng.below(free.len())], rng.below(2) == 0))
            .collect();
        app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        app.update();
        suspended += u32::from(app.world().resource::<TilepathStats>().suspended > 0);
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
    (trace, suspended)
}

/// Lockstep used to break at two solver threads when a search suspended earlier was
/// resumed behind newer urgent requests (the runs differed from frame 48 to 301 on): it
/// assumed a resumed search was the frame's first job.
#[test]
fn lockstep_holds_at_two_threads_with_searches_resumed_behind_newer_requests() {
    const FRAMES: u32 = 1_500;
    let (one, suspended) = busy_lockstep(1, FRAMES);
    let (again, _) = busy_lockstep(1, FRAMES);
    assert_eq!(one, again, "two runs with one thread");
    assert_eq!(
        ComputeTaskPool::get().thread_num(),
        2,
        "the test needs two compute threads"
    );
    for run in 0..2 {
        let (two, suspended_two) = busy_lockstep(2, FRAMES);
        for (frame, (a, b)) in one.iter().zip(&two).enumerate() {
            if let Some(unit) = (0..a.len()).find(|&u| a[u] != b[u]) {
                panic!(
                    "run {run}, frame {frame}: unit {unit} at {:?} with one thread, {:?} \
                     with two",
                    a[unit].map(f32::from_bits),
                    b[unit].map(f32::from_bits)
                );
            }
        }
        assert_eq!(suspended, suspended_two);
    }
    assert!(
        suspended > 100,
        "{suspended} frames with a suspended search"
    );
    println!("    {FRAMES} frames, {suspended} with a suspended search: identical");
}
