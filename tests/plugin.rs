//! The Bevy plugin, headless: tilemap sync, request solving, re-planning, budgets,
//! threads, steering and bad input.
#![cfg(all(feature = "tilemap", feature = "debug"))]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::time::Duration;

use bevy::app::{PluginGroupBuilder, TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy::time::TimeUpdateStrategy;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::{
    Algorithm, Arrived, BlocksPath, CachedScenario, Cell, CollisionLayer, FoundPath, NavGrid,
    PathError, PathFailure, PathGoal, PathRequest, PathResult, PathSolved, PathTicket, Scenario,
    Steering, TilepathPlugin, TilepathSettings,
};
use bevy_tilepath::scenario::Layer;

const TILE: f32 = 16.0;
const SIZE: usize = 64;

/// Every test builds its app the same way, so the process-wide task pools get 2 compute
/// threads (4 threads minus one IO and one async-compute thread) whichever test runs first.
fn minimal_plugins() -> PluginGroupBuilder {
    MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(4),
    })
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((minimal_plugins(), TilepathPlugin));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )));
    app.init_resource::<SolvedLog>();
    app.add_systems(PostUpdate, log_solved);
    app
}

/// Every `PathSolved` message with the frame it was read in.
#[derive(Resource, Default)]
struct SolvedLog(Vec<(u32, PathSolved)>);

fn log_solved(
    mut reader: MessageReader<PathSolved>,
    mut log: ResMut<SolvedLog>,
    mut frame: Local<u32>,
) {
    *frame += 1;
    for m in reader.read() {
        log.0.push((*frame, m.clone()));
    }
}

/// Deterministic pseudo-random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A 64x64 level: scattered walls, two long walls with gaps, and a closed room whose
/// inside cannot be reached from outside. `walls[y][x]`.
fn level() -> Vec<Vec<bool>> {
    let mut rng = Rng(7);
    let mut walls = vec![vec![false; SIZE]; SIZE];
    for row in walls.iter_mut() {
        for cell in row.iter_mut() {
            *cell = rng.below(100) < 15;
        }
    }
    for (y, row) in walls.iter_mut().enumerate() {
        row[20] = y % 16 != 5;
    }
    for (x, wall) in walls[32].iter_mut().enumerate() {
        *wall = x % 20 != 9;
    }
    for (y, row) in walls.iter_mut().enumerate().take(57).skip(44) {
        row[44] = true;
        row[56] = true;
        if y == 44 || y == 56 {
            row[44..=56].fill(true);
        }
    }
    walls
}

/// Spawns a tilemap with one tile per cell (`BlocksPath` and texture 1 on walls); returns
/// the map entity and the tiles, row-major.
fn spawn_tilemap(world: &mut World, walls: &[Vec<bool>]) -> (Entity, Vec<Entity>) {
    let size = TilemapSize {
        x: walls[0].len() as u32,
        y: walls.len() as u32,
    };
    let map = world.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    let mut tiles = Vec::new();
    for (y, row) in walls.iter().enumerate() {
        for (x, &wall) in row.iter().enumerate() {
            let pos = TilePos {
                x: x as u32,
                y: y as u32,
            };
            let mut tile = world.spawn((pos, TileTextureIndex(wall as u32), TilemapId(map)));
            if wall {
                tile.insert(BlocksPath);
            }
            storage.set(&pos, tile.id());
            tiles.push(tile.id());
        }
    }
    world.entity_mut(map).insert((
        storage,
        size,
        TilemapGridSize { x: TILE, y: TILE },
        TilemapTileSize { x: TILE, y: TILE },
        Transform::default(),
        TilemapAnchor::None,
        CollisionLayer::default(),
    ));
    (map, tiles)
}

fn world_of(cell: Cell) -> Vec2 {
    Vec2::new(cell.x as f32, cell.y as f32) * TILE
}

/// Where `entity` stands (its translation, without z).
fn position(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .unwrap()
        .translation
        .truncate()
}

/// A unit of the big scenes.
#[derive(Clone, Copy, Debug)]
struct Unit {
    entity: Entity,
    diameter: u32,
    goal: Cell,
}

/// Spawns `n` units with random starts (free for their diameter when `free_starts`),
/// goals and diameters; the goals of every seventh unit are world positions.
fn spawn_units(app: &mut App, n: usize, seed: u64, free_starts: bool, steering: bool) -> Vec<Unit> {
    let walls = level();
    let map = CachedScenario::from_bits(bits_of(&walls)).unwrap();
    let mut rng = Rng(seed);
    let mut units = Vec::with_capacity(n);
    for i in 0..n {
        let diameter = if i % 5 == 4 { 2 } else { 1 };
        let algorithm = [Algorithm::AStar, Algorithm::Jps, Algorithm::Dijkstra][i % 3];
        let start = loop {
            let c = Cell::new(rng.below(SIZE) as i32, rng.below(SIZE) as i32);
            if !free_starts || !map.layer(diameter).unwrap().is_blocked(c) {
                break c;
            }
        };
        let goal = Cell::new(rng.below(SIZE) as i32, rng.below(SIZE) as i32);
        let offset = Vec2::new(rng.below(7) as f32 - 3.0, rng.below(7) as f32 - 3.0);
        let target: PathGoal = if i % 7 == 0 {
            (world_of(goal) + offset).into()
        } else {
            goal.into()
        };
        let mut unit = app.world_mut().spawn((
            Transform::from_translation((world_of(start) + offset).extend(1.0)),
            PathRequest::new(target)
                .algorithm(algorithm)
                .diameter(diameter),
        ));
        if steering {
            unit.insert(Steering {
                speed: 48.0,
                arrival_radius: 8.0,
                separation_radius: 6.0,
                separation_strength: 0.5,
                ..Steering::default()
            });
        }
        units.push(Unit {
            entity: unit.id(),
            diameter,
            goal,
        });
    }
    units
}

fn bits_of(walls: &[Vec<bool>]) -> bevy_tilepath::scenario::BitGrid {
    let size = bevy_tilepath::grid::GridSize::new(walls[0].len() as u32, walls.len() as u32);
    let mut bits = bevy_tilepath::scenario::BitGrid::new(size, false);
    for (y, row) in walls.iter().enumerate() {
        for (x, &w) in row.iter().enumerate() {
            bits.set(Cell::new(x as i32, y as i32), w);
        }
    }
    bits
}

fn run_until_answered(app: &mut App, max_frames: usize) -> usize {
    for frame in 1..=max_frames {
        app.update();
        let mut q = app.world_mut().query::<&PathResult>();
        if q.iter(app.world()).all(|r| !r.is_pending()) {
            return frame;
        }
    }
    panic!("requests still pending after {max_frames} frames");
}

/// Independent check: shortest octile distance from `start` to `goal` on `layer`
/// (8 moves, no corner cutting), `None` when unreachable.
fn shortest(layer: &Layer, start: Cell, goal: Cell) -> Option<f64> {
    // Non-negative f64s order like their bit patterns.
    let mut dist: HashMap<Cell, f64> = HashMap::from([(start, 0.0)]);
    let mut open = BinaryHeap::from([Reverse((0f64.to_bits(), start))]);
    while let Some(Reverse((bits, c))) = open.pop() {
        let d = f64::from_bits(bits);
        if c == goal {
            return Some(d);
        }
        if d > dist[&c] {
            continue;
        }
        for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
            let n = Cell::new(c.x + dx, c.y + dy);
            let corner_cut =
                layer.is_blocked(Cell::new(n.x, c.y)) || layer.is_blocked(Cell::new(c.x, n.y));
            if n == c || layer.is_blocked(n) || corner_cut {
                continue;
            }
            let nd = d + if dx != 0 && dy != 0 {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            if dist.get(&n).is_none_or(|&old| nd < old - 1e-9) {
                dist.insert(n, nd);
                open.push(Reverse((nd.to_bits(), n)));
            }
        }
    }
    None
}

/// Asserts `path` is a valid path for the unit on the current grid and, for the optimal
/// algorithms used here, a shortest one.
fn assert_valid(grid: &NavGrid, path: &FoundPath, start: Cell, unit: &Unit) {
    let layer = grid.scenario().layer(unit.diameter).unwrap();
    assert_eq!(path.cells.first(), Some(&start), "{unit:?}");
    assert_eq!(path.cells.last(), Some(&unit.goal), "{unit:?}");
    for c in &path.cells {
        assert!(!layer.is_blocked(*c), "{unit:?} crosses blocked {c}");
    }
    for w in path.cells.windows(2) {
        assert!(w[0].is_adjacent(w[1]), "{unit:?}: {} -> {}", w[0], w[1]);
        if w[0].x != w[1].x && w[0].y != w[1].y {
            assert!(
                !layer.is_blocked(Cell::new(w[1].x, w[0].y))
                    && !layer.is_blocked(Cell::new(w[0].x, w[1].y)),
                "{unit:?} cuts a corner at {} -> {}",
                w[0],
                w[1]
            );
        }
    }
    assert_eq!(path.waypoints.len(), path.cells.len());
    assert_eq!(path.waypoints.last(), Some(&grid.cell_to_world(unit.goal)));
    let best = shortest(layer, start, unit.goal).expect("a found path implies reachability");
    assert!(
        (path.length as f64 - best).abs() < 1e-3,
        "{unit:?}: length {} vs {best}",
        path.length
    );
}

/// Asserts every answer is a valid shortest path or a justified failure; returns
/// (found, failed) counts.
fn assert_answers(app: &mut App, units: &[Unit]) -> (usize, usize) {
    let grid = app.world().resource::<NavGrid>();
    let (mut found, mut failed) = (0, 0);
    for unit in units {
        let start = grid.world_to_cell(position(app, unit.entity)).unwrap();
        let layer = grid.scenario().layer(unit.diameter).unwrap();
        match app.world().get::<PathResult>(unit.entity).unwrap() {
            PathResult::Found(path) => {
                assert_valid(grid, path, start, unit);
                found += 1;
            }
            PathResult::Failed(PathFailure::Search(PathError::StartBlocked { .. })) => {
                assert!(layer.is_blocked(start));
                failed += 1;
            }
            PathResult::Failed(PathFailure::Search(PathError::GoalBlocked { .. })) => {
                assert!(layer.is_blocked(unit.goal));
                failed += 1;
            }
            PathResult::Failed(PathFailure::Search(PathError::Unreachable)) => {
                assert!(!layer.is_blocked(start) && !layer.is_blocked(unit.goal));
                assert_eq!(shortest(layer, start, unit.goal), None, "{unit:?}");
                failed += 1;
            }
            other => panic!("{unit:?}: unexpected {other:?}"),
        }
    }
    (found, failed)
}

fn results(app: &App, units: &[Unit]) -> Vec<PathResult> {
    units
        .iter()
        .map(|u| app.world().get::<PathResult>(u.entity).unwrap().clone())
        .collect()
}

#[test]
fn thousand_units_on_a_walled_tilemap_get_valid_paths_or_justified_failures() {
    let mut app = app();
    spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 1000, 11, false, false);
    app.world_mut()
        .resource_mut::<TilepathSettings>()
        .frame_budget = Duration::from_secs(5);
    run_until_answered(&mut app, 200);

    let (found, failed) = assert_answers(&mut app, &units);
    assert_eq!(found + failed, 1000);
    assert!(found > 400, "found {found}");
    assert!(failed > 0, "the level has blocked and unreachable goals");
    let log = &app.world().resource::<SolvedLog>().0;
    assert_eq!(log.len(), 1000, "one message per answered request");
}

#[test]
fn blocking_tiles_on_found_paths_makes_exactly_the_crossing_units_replan_around_them() {
    let mut app = app();
    let (_, tiles) = spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 1000, 12, false, false);
    app.world_mut()
        .resource_mut::<TilepathSettings>()
        .frame_budget = Duration::from_secs(5);
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
fn paths_are_identical_with_one_and_two_solver_threads() {
    let run = |threads: usize| {
        let mut app = app();
        spawn_tilemap(app.world_mut(), &level());
        let units = spawn_units(&mut app, 1000, 13, false, false);
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.max_threads = threads;
        settings.frame_budget = Duration::from_secs(5);
        run_until_answered(&mut app, 200);
        results(&app, &units)
    };
    let one = run(1);
    assert_eq!(
        ComputeTaskPool::get().thread_num(),
        2,
        "the test needs two compute threads"
    );
    let two = run(2);
    assert_eq!(one, two);
    assert!(one.iter().filter(|r| r.found().is_some()).count() > 400);
}

#[test]
fn a_tiny_frame_budget_serves_few_requests_per_frame_oldest_first() {
    let mut app = app();
    spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 30, 14, false, false);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.frame_budget = Duration::ZERO;
        settings.max_threads = 1;
    }
    app.update();
    let pending = |app: &mut App| {
        let mut q = app.world_mut().query::<&PathResult>();
        q.iter(app.world()).filter(|r| r.is_pending()).count()
    };
    assert_eq!(
        pending(&mut app),
        29,
        "a zero budget still serves the oldest request"
    );
    for _ in 0..9 {
        app.update();
    }
    assert_eq!(pending(&mut app), 20);

    // A cap on requests per frame with an ample budget.
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.frame_budget = Duration::from_secs(5);
        settings.max_requests_per_frame = 3;
        settings.max_threads = 2;
    }
    for expected in [17, 14, 11, 8, 5, 2, 0] {
        app.update();
        assert_eq!(pending(&mut app), expected);
    }

    let log = &app.world().resource::<SolvedLog>().0;
    assert_eq!(log.len(), 30);
    let per_frame = |frame: u32| log.iter().filter(|(f, _)| *f == frame).count();
    assert!((1..=10).all(|f| per_frame(f) == 1));
    assert!((11..=16).all(|f| per_frame(f) == 3));
    let tickets: Vec<u64> = log
        .iter()
        .map(|(_, m)| app.world().get::<PathTicket>(m.entity).unwrap().order())
        .collect();
    assert!(
        tickets.windows(2).all(|w| w[0] < w[1]),
        "served oldest first: {tickets:?}"
    );
    let served: Vec<Entity> = log.iter().map(|(_, m)| m.entity).collect();
    let spawned: Vec<Entity> = units.iter().map(|u| u.entity).collect();
    assert_eq!(
        served, spawned,
        "requests spawned in one frame are served in spawn order"
    );
}

#[test]
fn bad_input_fails_with_a_typed_reason_and_never_panics() {
    let mut app = app();
    let free = vec![vec![false; 8]; 8];
    let here = Transform::from_xyz(16.0, 16.0, 0.0);
    let early = app
        .world_mut()
        .spawn((here, PathRequest::new(Cell::new(3, 3))))
        .id();
    app.update();
    assert_eq!(
        app.world().get::<PathResult>(early),
        Some(&PathResult::Failed(PathFailure::NoMap))
    );

    let (map, _) = spawn_tilemap(app.world_mut(), &free);
    let spawn =
        |app: &mut App, bundle: (Transform, PathRequest)| app.world_mut().spawn(bundle).id();
    let off_goal = spawn(&mut app, (here, PathRequest::new(Cell::new(8, 0))));
    let off_world_goal = spawn(&mut app, (here, PathRequest::new(Vec2::new(-20.0, 0.0))));
    let nan_goal = spawn(&mut app, (here, PathRequest::new(Vec2::new(f32::NAN, 0.0))));
    let nan_start = spawn(
        &mut app,
        (
            Transform::from_xyz(f32::NAN, 0.0, 0.0),
            PathRequest::new(Cell::new(1, 1)),
        ),
    );
    let off_start = spawn(
        &mut app,
        (
            Transform::from_xyz(500.0, 0.0, 0.0),
            PathRequest::new(Cell::new(1, 1)),
        ),
    );
    let zero = spawn(
        &mut app,
        (here, PathRequest::new(Cell::new(1, 1)).diameter(0)),
    );
    let no_transform = app
        .world_mut()
        .spawn(PathRequest::new(Cell::new(1, 1)))
        .id();
    app.update();

    let failure =
        |app: &App, e: Entity| app.world().get::<PathResult>(e).unwrap().failure().copied();
    assert!(
        app.world()
            .get::<PathResult>(early)
            .unwrap()
            .found()
            .is_some(),
        "retried once the map exists"
    );
    assert!(matches!(
        failure(&app, off_goal),
        Some(PathFailure::GoalOffMap { .. })
    ));
    assert!(matches!(
        failure(&app, off_world_goal),
        Some(PathFailure::GoalOffMap { .. })
    ));
    assert_eq!(failure(&app, nan_goal), Some(PathFailure::InvalidGoal));
    assert_eq!(failure(&app, nan_start), Some(PathFailure::InvalidPosition));
    assert!(matches!(
        failure(&app, off_start),
        Some(PathFailure::StartOffMap { .. })
    ));
    assert_eq!(
        failure(&app, zero),
        Some(PathFailure::Search(PathError::InvalidDiameter {
            diameter: 0
        }))
    );
    assert_eq!(failure(&app, no_transform), Some(PathFailure::NoTransform));

    app.world_mut().entity_mut(map).despawn();
    let late = spawn(&mut app, (here, PathRequest::new(Cell::new(2, 2))));
    app.update();
    assert!(app.world().get_resource::<NavGrid>().is_none());
    assert_eq!(
        failure(&app, early),
        Some(PathFailure::NoMap),
        "paths die with their map"
    );
    assert_eq!(failure(&app, late), Some(PathFailure::NoMap));
    app.update();
}

#[test]
fn texture_rules_layer_unions_and_tile_despawns_update_the_grid_incrementally() {
    let mut app = app();
    let free = vec![vec![false; 8]; 8];
    let (ground, ground_tiles) = spawn_tilemap(app.world_mut(), &free);
    let (water, water_tiles) = spawn_tilemap(app.world_mut(), &free);
    app.world_mut()
        .entity_mut(water)
        .insert(CollisionLayer::from_texture_predicate(|index| index >= 5));
    app.world_mut()
        .entity_mut(ground_tiles[3])
        .insert(BlocksPath);
    app.world_mut()
        .entity_mut(water_tiles[8 + 3])
        .insert(TileTextureIndex(6));
    app.update();
    let obstacle = |app: &App, x, y| {
        app.world()
            .resource::<NavGrid>()
            .scenario()
            .is_obstacle(Cell::new(x, y))
    };
    assert!(obstacle(&app, 3, 0) && obstacle(&app, 3, 1) && !obstacle(&app, 4, 1));
    let generation = app.world().resource::<NavGrid>().generation();

    app.world_mut()
        .entity_mut(water_tiles[8 + 3])
        .insert(TileTextureIndex(2));
    app.world_mut()
        .entity_mut(water_tiles[8 + 4])
        .insert(TileTextureIndex(9));
    app.world_mut().entity_mut(ground_tiles[3]).despawn();
    app.update();
    assert!(!obstacle(&app, 3, 0) && !obstacle(&app, 3, 1) && obstacle(&app, 4, 1));
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(
        grid.generation(),
        generation + 1,
        "one frame of edits is one change"
    );

    app.world_mut()
        .entity_mut(ground)
        .insert(CollisionLayer::from_texture_indices([0]));
    app.update();
    assert!(obstacle(&app, 0, 0) && obstacle(&app, 7, 7));
    app.world_mut().entity_mut(ground).despawn();
    app.update();
    assert!(
        !obstacle(&app, 0, 0) && obstacle(&app, 4, 1),
        "a despawned layer frees its cells"
    );
}

#[test]
fn anchor_and_transform_place_cells_where_the_tilemap_draws_them() {
    let mut app = app();
    let (map, _) = spawn_tilemap(app.world_mut(), &vec![vec![false; 10]; 6]);
    let transform = Transform::from_xyz(100.0, -50.0, 0.0).with_scale(Vec3::new(2.0, 2.0, 1.0));
    app.world_mut()
        .entity_mut(map)
        .insert((transform, TilemapAnchor::Center));
    app.update();
    let grid = app.world().resource::<NavGrid>();
    let (size, grid_size, tile_size) = (
        TilemapSize { x: 10, y: 6 },
        TilemapGridSize { x: TILE, y: TILE },
        TilemapTileSize { x: TILE, y: TILE },
    );
    for (x, y) in [(0, 0), (9, 5), (4, 2)] {
        let local = TilePos { x, y }.center_in_world(
            &size,
            &grid_size,
            &tile_size,
            &TilemapType::Square,
            &TilemapAnchor::Center,
        );
        let world = transform.transform_point(local.extend(0.0)).truncate();
        let cell = Cell::new(x as i32, y as i32);
        assert!(grid.cell_to_world(cell).distance(world) < 1e-3);
        assert_eq!(
            grid.world_to_cell(world + Vec2::splat(TILE * 0.9)),
            Some(cell)
        );
    }
    assert_eq!(
        grid.world_to_cell(Vec2::new(100.0 - 10.0 * TILE - 1.0, -50.0)),
        None
    );
}

#[test]
fn steering_units_never_stand_in_blocked_cells_while_walls_appear() {
    let mut app = app();
    let (_, tiles) = spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 200, 15, true, true);
    let mut built = 0;
    let mut arrived = 0;
    for frame in 0..400 {
        app.update();
        let grid = app.world().resource::<NavGrid>();
        let mut occupied = Vec::new();
        for unit in &units {
            let p = position(&app, unit.entity);
            let cell = grid.world_to_cell(p).expect("units stay on the map");
            assert!(
                !grid.is_blocked(cell, unit.diameter),
                "frame {frame}: {unit:?} stands in blocked {cell}"
            );
            occupied.push(cell);
        }
        if frame % 40 == 20 {
            // Wall off cells on paths, away from every unit (so no unit is walled in).
            let mut rng = Rng(frame as u64);
            let mut walls = Vec::new();
            for unit in units.iter().step_by(4) {
                if let Some(PathResult::Found(path)) = app.world().get::<PathResult>(unit.entity) {
                    let c = path.cells[rng.below(path.cells.len())];
                    if occupied.iter().all(|o| o.chebyshev(c) > 2) {
                        walls.push(c);
                    }
                }
            }
            for c in walls {
                app.world_mut()
                    .entity_mut(tiles[c.y as usize * SIZE + c.x as usize])
                    .insert(BlocksPath);
                built += 1;
            }
        }
        arrived = units
            .iter()
            .filter(|u| app.world().get::<Arrived>(u.entity).is_some())
            .count();
    }
    assert!(built > 20, "built {built}");
    assert!(arrived > 20, "arrived {arrived}");
    for unit in &units {
        if app.world().get::<Arrived>(unit.entity).is_some() {
            let p = position(&app, unit.entity);
            let grid = app.world().resource::<NavGrid>();
            assert_eq!(
                grid.world_to_cell(p),
                Some(unit.goal),
                "{unit:?} arrived elsewhere"
            );
        }
    }
}

#[test]
fn a_hand_made_grid_is_used_as_is_and_its_edits_and_request_changes_replan() {
    let mut app = App::new();
    app.insert_resource(TilepathSettings {
        max_requests_per_frame: 7,
        ..default()
    });
    app.add_plugins((minimal_plugins(), TilepathPlugin));
    let rows = "..........\n..........\n..........";
    app.insert_resource(NavGrid::from_ascii(rows, Vec2::ZERO, Vec2::ONE).unwrap());
    let request = PathRequest::new(Cell::new(9, 0));
    let unit = app.world_mut().spawn((Transform::default(), request)).id();
    app.update();
    let settings = app.world().resource::<TilepathSettings>();
    assert_eq!(
        settings.max_requests_per_frame, 7,
        "settings inserted first survive"
    );
    let found = |app: &App| {
        app.world()
            .get::<PathResult>(unit)
            .unwrap()
            .found()
            .unwrap()
            .clone()
    };
    assert_eq!(found(&app).length, 9.0);

    let edit = [(Cell::new(5, 0), true), (Cell::new(5, 1), true)];
    app.world_mut().resource_mut::<NavGrid>().apply_edits(edit);
    app.update();
    assert!(
        found(&app).cells.contains(&Cell::new(5, 2)),
        "{:?}",
        found(&app).cells
    );

    // Changing or re-inserting the request queues it again.
    let ticket = *app.world().get::<PathTicket>(unit).unwrap();
    app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = Cell::new(0, 2).into();
    app.update();
    assert_eq!(found(&app).cells.last(), Some(&Cell::new(0, 2)));
    app.world_mut()
        .entity_mut(unit)
        .insert(request.smooth(true));
    app.update();
    assert_eq!(found(&app).cells.last(), Some(&Cell::new(9, 0)));
    assert!(app.world().get::<PathTicket>(unit).unwrap().order() >= ticket.order() + 2);

    // A collision layer does not override a hand-made grid.
    spawn_tilemap(app.world_mut(), &[vec![true; 4], vec![true; 4]]);
    app.update();
    let grid = app.world().resource::<NavGrid>();
    assert!(!grid.scenario().is_obstacle(Cell::new(0, 0)));
}

#[test]
fn the_debug_plugin_is_off_by_default_and_draws_headless_when_enabled() {
    use bevy::asset::AssetApp;
    use bevy::gizmos::GizmoAsset;
    use bevy::gizmos::config::GizmoConfigStore;
    use bevy_tilepath::prelude::{TilepathDebugPlugin, TilepathGizmos};

    // The parts of `GizmoPlugin` the gizmo group needs, without a renderer or camera.
    let mut app = app();
    app.add_plugins(bevy::asset::AssetPlugin::default())
        .init_asset::<GizmoAsset>()
        .add_plugins(TilepathDebugPlugin);
    spawn_tilemap(app.world_mut(), &level());
    spawn_units(&mut app, 20, 16, false, false);
    app.update();
    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    let (config, options) = store.config_mut::<TilepathGizmos>();
    assert!(!config.enabled, "debug drawing is off by default");
    config.enabled = true;
    options.clearance = true;
    // Only the schedule that draws: turning gizmo lines into meshes needs a renderer.
    app.world_mut().run_schedule(Update);
}
