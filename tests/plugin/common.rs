//! Shared plumbing of the plugin tests: apps, the 64x64 level, units, an independent
//! shortest-path oracle and answer checks.
// Each feature set compiles a different subset of the tests, which use different helpers.
#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Duration;

use bevy::app::{PluginGroupBuilder, TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::FrameBudget;
use bevy_tilepath::prelude::{
    Cell, FoundPath, GridLayout, MapEdit, NavGrid, PathFailure, PathRequest, PathResult,
    PathSolved, Steering, TilepathPlugin, TilepathSettings,
};
use bevy_tilepath::scenario::{BitGrid, CachedScenario, Layer};
use bevy_tilepath::search::PathError;
use bevy_tilepath::shape::HexLayout;

use crate::shaped::shortest_on;

pub const TILE: f32 = 16.0;
pub const SIZE: usize = 64;

/// Every test builds its app the same way, so the process-wide task pools get 2 compute
/// threads (4 threads minus one IO and one async-compute thread) whichever test runs first.
pub fn minimal_plugins() -> PluginGroupBuilder {
    MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(4),
    })
}

/// Settings without a wall-clock budget: every frame solves all it is given (an
/// expansion budget no frame reaches), and background landmark tables are installed a
/// fixed number of frames after their build began, so what a test sees does not depend
/// on the machine's speed (tests of budgets set a smaller expansion budget, or a zero
/// time budget: one slice a frame).
pub fn unlimited() -> TilepathSettings {
    TilepathSettings {
        budget: FrameBudget::Expansions(u32::MAX),
        ..default()
    }
}

/// A headless app with the plugin, 16 ms frames, no wall-clock budget ([`unlimited`])
/// and a log of `PathSolved` messages.
pub fn app() -> App {
    let mut app = App::new();
    app.add_plugins((minimal_plugins(), TilepathPlugin::default()));
    app.insert_resource(unlimited());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )));
    app.init_resource::<SolvedLog>();
    app.add_systems(PostUpdate, log_solved);
    app
}

/// Every `PathSolved` message with the frame it was read in.
#[derive(Resource, Default)]
pub struct SolvedLog(pub Vec<(u32, PathSolved)>);

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
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A 64x64 level: scattered walls, two long walls with gaps, and a closed room whose
/// inside cannot be reached from outside. `walls[y][x]`.
pub fn level() -> Vec<Vec<bool>> {
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

pub fn bits_of(walls: &[Vec<bool>]) -> BitGrid {
    let size = GridSize::new(walls[0].len() as u32, walls.len() as u32);
    let mut bits = BitGrid::new(size, false);
    for (y, row) in walls.iter().enumerate() {
        for (x, &w) in row.iter().enumerate() {
            bits.set(Cell::new(x as i32, y as i32), w);
        }
    }
    bits
}

/// The level as a hand-made grid placed like the level's tilemap (cell (0, 0) centred at
/// the origin, `TILE` apart).
pub fn insert_level_grid(app: &mut App) {
    let map = CachedScenario::from_bits(bits_of(&level())).unwrap();
    app.insert_resource(NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)));
}

/// World centre of `cell` in the test maps (cell (0, 0) centred at the origin).
pub fn world_of(cell: Cell) -> Vec2 {
    Vec2::new(cell.x as f32, cell.y as f32) * TILE
}

/// World centre of an agent of `diameter` anchored at `cell` in the test maps.
pub fn center_of(cell: Cell, diameter: u32) -> Vec2 {
    let even = diameter >= 2 && diameter.is_multiple_of(2);
    world_of(cell) + Vec2::splat(if even { TILE / 2.0 } else { 0.0 })
}

/// The path `unit` was answered with (cloned); panics, showing the result, when it has
/// none.
pub fn found_path(app: &App, unit: Entity) -> FoundPath {
    match app.world().get::<PathResult>(unit) {
        Some(PathResult::Found(path)) => path.clone(),
        other => panic!("expected a path for {unit}, got {other:?}"),
    }
}

/// Where `entity` stands (its translation, without z).
pub fn position(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .unwrap()
        .translation
        .truncate()
}

/// A unit of the big scenes.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    pub entity: Entity,
    pub diameter: u32,
    pub goal: Cell,
}

/// Spawns a one-tile `Steering` unit centred on `cell` of the app's grid, with `request`.
pub fn spawn_steering_on(app: &mut App, cell: Cell, request: PathRequest) -> Entity {
    let at = app.world().resource::<NavGrid>().agent_center(cell, 1);
    app.world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            request,
            Steering::default(),
        ))
        .id()
}

/// Spawns `n` units on the square 64x64 [`level`] (whose grid the test inserts itself,
/// placed like [`insert_level_grid`]): see [`crate::shaped::spawn_units_at`].
pub fn spawn_units(
    app: &mut App,
    n: usize,
    seed: u64,
    free_starts: bool,
    steering: bool,
) -> Vec<Unit> {
    let grid = level_grid(GridLayout::Square);
    crate::shaped::spawn_units_at(app, &grid, n, seed, free_starts, steering)
}

pub fn run_until_answered(app: &mut App, max_frames: usize) -> usize {
    for frame in 1..=max_frames {
        app.update();
        let mut q = app
            .world_mut()
            .query::<(&PathResult, &bevy_tilepath::components::PathStatus)>();
        if q.iter(app.world())
            .all(|(r, t)| !r.is_pending() && !t.is_queued())
        {
            return frame;
        }
    }
    panic!("requests still pending after {max_frames} frames");
}

/// Independent check: shortest octile distance from `start` to `goal` on `layer`
/// (8 moves, no corner cutting), `None` when unreachable.
pub fn shortest(layer: &Layer, start: Cell, goal: Cell) -> Option<f64> {
    oracle(
        start,
        |c| c == goal,
        moves(GridLayout::Square, layer, |_| 1.0),
    )
}

/// Asserts `path` is a valid path for the unit on the current grid and, for the optimal
/// algorithms used here, a shortest one, on any layout: each step is one step of the
/// grid's shape that the layer allows, and the length is the shape's length of the
/// cells and the oracle's shortest.
pub fn assert_valid(grid: &NavGrid, path: &FoundPath, start: Cell, unit: &Unit) {
    let layout = grid.layout();
    let shape = layout.shape();
    let layer = grid.scenario().layer(unit.diameter).unwrap();
    assert_eq!(path.cells.first(), Some(&start), "{layout:?} {unit:?}");
    assert_eq!(path.cells.last(), Some(&unit.goal), "{layout:?} {unit:?}");
    for c in &path.cells {
        assert!(
            !layer.is_blocked(*c),
            "{layout:?} {unit:?} crosses blocked {c}"
        );
    }
    for w in path.cells.windows(2) {
        assert_eq!(
            shape.steps(w[0], w[1]),
            1,
            "{layout:?} {unit:?}: {} -> {} is no step",
            w[0],
            w[1]
        );
        assert!(
            layer.can_step(w[0], w[1]),
            "{layout:?} {unit:?}: {} -> {} is not allowed (a wall or a cut corner)",
            w[0],
            w[1]
        );
    }
    assert_eq!(path.waypoints.len(), path.cells.len(), "{layout:?}");
    for (cell, waypoint) in path.cells.iter().zip(&path.waypoints) {
        assert_eq!(
            *waypoint,
            grid.agent_center(*cell, unit.diameter),
            "{layout:?} {unit:?}"
        );
    }
    let walked = shape.path_length(&path.cells);
    assert!(
        (f64::from(path.length) - walked).abs() < 1e-3,
        "{layout:?} {unit:?}: length {} of cells {walked}",
        path.length
    );
    let best =
        shortest_on(grid, layer, start, unit.goal).expect("a found path implies reachability");
    assert!(
        (f64::from(path.length) - best).abs() < 1e-3,
        "{layout:?} {unit:?}: length {} vs {best}",
        path.length
    );
}

/// Asserts every answer is a valid shortest path or a justified failure, on any layout
/// (see [`assert_valid`]); returns (found, failed) counts.
pub fn assert_answers(app: &mut App, units: &[Unit]) -> (usize, usize) {
    let grid = app.world().resource::<NavGrid>();
    let layout = grid.layout();
    let (mut found, mut failed) = (0, 0);
    for unit in units {
        let start = grid
            .agent_cell(position(app, unit.entity), unit.diameter)
            .unwrap();
        let layer = grid.scenario().layer(unit.diameter).unwrap();
        match app.world().get::<PathResult>(unit.entity).unwrap() {
            PathResult::Found(path) => {
                assert_valid(grid, path, start, unit);
                found += 1;
            }
            PathResult::Failed(PathFailure::Search(PathError::StartBlocked { cell, diameter })) => {
                assert_eq!((*cell, *diameter), (start, unit.diameter), "{layout:?}");
                assert!(layer.is_blocked(start), "{layout:?} {unit:?}");
                failed += 1;
            }
            PathResult::Failed(PathFailure::Search(PathError::GoalBlocked { cell, diameter })) => {
                assert_eq!((*cell, *diameter), (unit.goal, unit.diameter), "{layout:?}");
                assert!(layer.is_blocked(unit.goal), "{layout:?} {unit:?}");
                failed += 1;
            }
            PathResult::Failed(PathFailure::Search(PathError::Unreachable)) => {
                assert!(
                    !layer.is_blocked(start) && !layer.is_blocked(unit.goal),
                    "{layout:?} {unit:?}"
                );
                assert_eq!(
                    shortest_on(grid, layer, start, unit.goal),
                    None,
                    "{layout:?} {unit:?}"
                );
                failed += 1;
            }
            other => panic!("{layout:?} {unit:?}: unexpected {other:?}"),
        }
    }
    (found, failed)
}

pub fn results(app: &App, units: &[Unit]) -> Vec<PathResult> {
    units
        .iter()
        .map(|u| app.world().get::<PathResult>(u.entity).unwrap().clone())
        .collect()
}

/// The layouts every looped suite runs on: square, isometric, and hexagons in an
/// offset-row and an offset-column layout.
pub fn shapes() -> [GridLayout; 4] {
    [
        GridLayout::Square,
        GridLayout::Isometric,
        GridLayout::Hex(HexLayout::RowOdd),
        GridLayout::Hex(HexLayout::ColumnEven),
    ]
}

/// `text` as a grid laid out as `layout`, cell (0, 0) centred at the origin, `TILE`
/// apart: row 0 first, `#`, `@`, `T`, `W` and `O` walls, a digit a free cell of that
/// terrain id, anything else a free cell of terrain 0.
pub fn grid_of(layout: GridLayout, text: &str) -> NavGrid {
    let map = CachedScenario::from_ascii(text).unwrap();
    let mut grid = NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)).with_layout(layout);
    let rows = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let terrain = rows.enumerate().flat_map(|(y, row)| {
        row.chars().enumerate().filter_map(move |(x, ch)| {
            let id = ch.to_digit(10)? as u8;
            Some(MapEdit::Terrain(Cell::new(x as i32, y as i32), id))
        })
    });
    grid.apply_map_edits(terrain.collect::<Vec<_>>());
    grid
}

/// √3 / 2: a regular hexagon's width over its height (pointy top).
const HALF_SQRT_3: f32 = 0.866_025_4;

/// `text` as a grid laid out as `layout`, cell (0, 0) at the origin. Hexagons are
/// regular, neighbouring centres `TILE` apart (so that a unit one tile wide touches its
/// neighbours); other layouts are `TILE` squares.
pub fn regular_grid_of(layout: GridLayout, text: &str) -> NavGrid {
    let size = match layout {
        GridLayout::Hex(HexLayout::Row | HexLayout::RowEven | HexLayout::RowOdd) => {
            Vec2::new(TILE, TILE / HALF_SQRT_3)
        }
        GridLayout::Hex(_) => Vec2::new(TILE / HALF_SQRT_3, TILE),
        _ => Vec2::splat(TILE),
    };
    let map = CachedScenario::from_ascii(text).unwrap();
    NavGrid::new(map, Vec2::ZERO, size).with_layout(layout)
}

/// The axes of a test written along rows: cell `(x, y)` is itself, except on column
/// hexagons, whose straight lines (the paths without equal-cost alternatives) run along
/// columns: there it is `(y, x)`.
#[derive(Clone, Copy)]
pub struct Along(bool);

impl Along {
    pub fn of(layout: GridLayout) -> Self {
        use HexLayout::{Column, ColumnEven, ColumnOdd};
        Self(matches!(
            layout,
            GridLayout::Hex(Column | ColumnEven | ColumnOdd)
        ))
    }

    /// The cell at `x` along the test's rows and `y` across them.
    pub fn cell(self, x: i32, y: i32) -> Cell {
        if self.0 {
            Cell::new(y, x)
        } else {
            Cell::new(x, y)
        }
    }

    /// How far along the test's rows `cell` lies.
    pub fn x(self, cell: Cell) -> i32 {
        if self.0 { cell.y } else { cell.x }
    }

    /// The ASCII map of an open grid `width` cells along the rows, `height` across.
    pub fn open(self, width: usize, height: usize) -> String {
        let (w, h) = if self.0 {
            (height, width)
        } else {
            (width, height)
        };
        vec![".".repeat(w); h].join("\n")
    }
}

/// The 64x64 [`level`] as a grid laid out as `layout` (see [`grid_of`]).
pub fn level_grid(layout: GridLayout) -> NavGrid {
    let map = CachedScenario::from_bits(bits_of(&level())).unwrap();
    NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)).with_layout(layout)
}

/// The one Dijkstra oracle of the plugin tests, written once over "the neighbours of a
/// cell" in the manner of `pathfinding::dijkstra`: the cheapest cost from `start` to a
/// cell `goal` accepts, `None` when none is reached. `successors` lists each neighbour
/// with the cost of the step (non-negative).
pub fn oracle<I: IntoIterator<Item = (Cell, f64)>>(
    start: Cell,
    goal: impl Fn(Cell) -> bool,
    successors: impl Fn(Cell) -> I,
) -> Option<f64> {
    // Non-negative f64s order like their bit patterns.
    let mut dist: HashMap<Cell, f64> = HashMap::from([(start, 0.0)]);
    let mut open = BinaryHeap::from([Reverse((0f64.to_bits(), start))]);
    while let Some(Reverse((bits, c))) = open.pop() {
        let d = f64::from_bits(bits);
        if goal(c) {
            return Some(d);
        }
        if d > dist[&c] {
            continue;
        }
        for (n, step) in successors(c) {
            let nd = d + step;
            if dist.get(&n).is_none_or(|&old| nd < old - 1e-9) {
                dist.insert(n, nd);
                open.push(Reverse((nd.to_bits(), n)));
            }
        }
    }
    None
}

/// The moves of a unit on `layer` of a grid laid out as `layout`, from tables that share
/// nothing with the crate's: on squares the 8 king moves without cutting a corner
/// (1 straight, √2 diagonal); on hexagons the 6 neighbours of Red Blob Games' offset
/// tables (1 each). Each step costs its length times the mean weight of its two cells.
pub fn moves(
    layout: GridLayout,
    layer: &Layer,
    weight: impl Fn(Cell) -> f64,
) -> impl Fn(Cell) -> Vec<(Cell, f64)> {
    move |c: Cell| {
        let free = |n: Cell| !layer.is_blocked(n);
        let steps: Vec<(Cell, f64)> = match layout {
            GridLayout::Hex(hex) => hex_neighbours(hex, c).map(|n| (n, 1.0)).to_vec(),
            _ => (-1..=1)
                .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
                .filter(|&(dx, dy)| (dx, dy) != (0, 0))
                .filter(|&(dx, dy)| {
                    dx == 0
                        || dy == 0
                        || (free(Cell::new(c.x + dx, c.y)) && free(Cell::new(c.x, c.y + dy)))
                })
                .map(|(dx, dy)| {
                    let length = if dx != 0 && dy != 0 {
                        std::f64::consts::SQRT_2
                    } else {
                        1.0
                    };
                    (Cell::new(c.x + dx, c.y + dy), length)
                })
                .collect(),
        };
        steps
            .into_iter()
            .filter(|&(n, _)| free(c) && free(n))
            .map(|(n, length)| (n, length * (weight(c) + weight(n)) / 2.0))
            .collect()
    }
}

/// The six neighbours of tile `c` in `layout`, from Red Blob Games' offset tables alone.
pub fn hex_neighbours(layout: HexLayout, c: Cell) -> [Cell; 6] {
    const AXIAL: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
    const SHIFTED: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)];
    const UNSHIFTED: [(i32, i32); 6] = [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)];
    let transpose = |t: [(i32, i32); 6]| t.map(|(a, b)| (b, a));
    let odd = |v: i32| v.rem_euclid(2) == 1;
    let table = match layout {
        HexLayout::Row | HexLayout::Column => AXIAL,
        HexLayout::RowOdd if odd(c.y) => SHIFTED,
        HexLayout::RowOdd => UNSHIFTED,
        HexLayout::RowEven if !odd(c.y) => SHIFTED,
        HexLayout::RowEven => UNSHIFTED,
        HexLayout::ColumnOdd if odd(c.x) => transpose(SHIFTED),
        HexLayout::ColumnOdd => transpose(UNSHIFTED),
        HexLayout::ColumnEven if !odd(c.x) => transpose(SHIFTED),
        HexLayout::ColumnEven => transpose(UNSHIFTED),
    };
    table.map(|(dx, dy)| Cell::new(c.x + dx, c.y + dy))
}

/// Where `unit` stands in the steering plane, in plane tiles.
pub fn plane_at(app: &App, unit: Entity) -> Vec2 {
    let grid = app.world().resource::<NavGrid>();
    grid.world_to_plane(position(app, unit)) / grid.plane_tile_size().x
}

/// The worst overlap (plane tiles) of two units' bodies (discs of their shape's
/// `body_radius`, diameter in tiles) at the moment, and the pair.
pub fn worst_overlap(app: &App, units: &[(Entity, u32)]) -> (f32, Option<(Entity, Entity)>) {
    let shape = app.world().resource::<NavGrid>().layout().shape();
    let body = |d: u32| shape.body_radius(d) as f32;
    let mut worst = (0.0, None);
    for (i, &(a, da)) in units.iter().enumerate() {
        for &(b, db) in &units[i + 1..] {
            let gap = plane_at(app, a).distance(plane_at(app, b)) - body(da) - body(db);
            if -gap > worst.0 {
                worst = (-gap, Some((a, b)));
            }
        }
    }
    worst
}
