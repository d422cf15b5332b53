//! Test helpers: the plain Dijkstra oracle, seeded random grids, and ASCII failure reports.
//!
//! One oracle (a textbook Dijkstra), one random generator (the core's
//! [`SplitMix64`]) and one movement rule ([`validate_path`], applied to single steps):
//! the integration tests use these and nothing else of their own. The `terrain_maps`
//! example includes this file for the oracle's optima.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::Write;
use std::path::PathBuf;

#[path = "../../examples/support/benchmark.rs"]
pub mod benchmark;

use tilepath::grid::{Cell, Connectivity, Cost, Direction, GridSize};
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{AsciiScenario, BitGrid, CachedScenario, JumpTable, Layer, Scenario};
use tilepath::search::validate_path;

/// Prints a summary line (cases tried, inputs fuzzed) straight to the process's stderr:
/// libtest captures `println!` and `eprintln!` of passing tests, not writes to the
/// stderr handle, so `cargo test` (and CI's log) shows the line.
pub fn report(line: &str) {
    // One write of the whole line, so it is not cut by the harness's own output.
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}

/// The benchmark data folder; a missing folder fails under CI and skips otherwise.
pub fn movingai_dir() -> Option<PathBuf> {
    let dir = benchmark::data_dir(env!("CARGO_MANIFEST_DIR").as_ref());
    if dir.is_none() {
        assert!(
            std::env::var("CI").is_err(),
            "CI=true but the MovingAI data is missing: set MOVINGAI_DIR or put shared/ beside the repo"
        );
        eprintln!("skipping: no MovingAI data (set MOVINGAI_DIR)");
    }
    dir
}

/// A grid from a seed: each cell an obstacle with probability `percent`/100.
pub fn random_grid(size: GridSize, percent: u32, seed: u64) -> BitGrid {
    let mut bits = BitGrid::new(size, false);
    let mut rng = SplitMix64::new(seed);
    for y in 0..size.height as i32 {
        for x in 0..size.width as i32 {
            if rng.chance(percent, 100) {
                bits.set(Cell::new(x, y), true);
            }
        }
    }
    bits
}

/// The naive footprint test, independent of any cache: scans the square from
/// `cell - (diameter - 1) / 2` to `cell + diameter / 2` on each axis.
pub fn blocked_naive(obstacles: &impl Scenario, cell: Cell, diameter: u32) -> bool {
    let d = diameter.max(1) as i32;
    let (lo, hi) = ((d - 1) / 2, d / 2);
    (cell.y - lo..=cell.y + hi)
        .any(|y| (cell.x - lo..=cell.x + hi).any(|x| obstacles.is_obstacle(Cell::new(x, y))))
}

/// Plain Dijkstra with a binary heap and lazy deletion: the oracle for every algorithm
/// on maps without terrain. Returns the fixed-point optimal cost, `None` when no path
/// exists. See [`oracle_weighted_cost`].
pub fn oracle_cost(
    obstacles: &impl Scenario,
    start: Cell,
    goal: Cell,
    diameter: u32,
    connectivity: Connectivity,
) -> Option<Cost> {
    oracle_weighted_cost(obstacles, |_| Some(1), start, goal, diameter, connectivity)
}

/// Plain Dijkstra on weighted terrain: the oracle for every algorithm. `weight(cell)`
/// is the cell's weight under the agent's profile (`None` when its terrain is blocked);
/// a step from `a` to `b` costs its fixed-point length × (w(a) + w(b)) / 2.
///
/// Independent of the clearance cache and of the core's weights: a cell is standable
/// when every cell of the agent's footprint is on the map, not an obstacle and of
/// passable terrain (tested naively, [`blocked_naive`]); a step is allowed when
/// [`validate_path`] accepts it on the grid of standable cells (one cell wide agent).
pub fn oracle_weighted_cost(
    obstacles: &impl Scenario,
    weight: impl Fn(Cell) -> Option<u8>,
    start: Cell,
    goal: Cell,
    diameter: u32,
    connectivity: Connectivity,
) -> Option<Cost> {
    let no_extra = |_| 0;
    let conn = connectivity;
    oracle_priced_cost(obstacles, weight, no_extra, start, goal, diameter, conn)
}

/// [`oracle_cost`] with `extra(cell)` added to the cost of every step into `cell` (the
/// oracle of searches that price other units in), octile moves.
pub fn oracle_cost_with(
    obstacles: &impl Scenario,
    extra: impl Fn(Cell) -> Cost,
    start: Cell,
    goal: Cell,
    diameter: u32,
) -> Option<Cost> {
    let (one, octile) = (|_| Some(1), Connectivity::Octile);
    oracle_priced_cost(obstacles, one, extra, start, goal, diameter, octile)
}

/// [`oracle_weighted_cost`] with `extra(cell)` added to every step into `cell`.
fn oracle_priced_cost(
    obstacles: &impl Scenario,
    weight: impl Fn(Cell) -> Option<u8>,
    extra: impl Fn(Cell) -> Cost,
    start: Cell,
    goal: Cell,
    diameter: u32,
    connectivity: Connectivity,
) -> Option<Cost> {
    let mut found = None;
    let conn = connectivity;
    weighted_dijkstra(obstacles, weight, extra, start, diameter, conn, |c, d| {
        if c == goal {
            found = Some(d);
        }
        c != goal
    });
    found
}

/// Optimal weighted costs from `start` to every cell, row-major, `None` where no path
/// exists (everywhere when the agent cannot stand on `start`): the search of
/// [`oracle_weighted_cost`] run to the end, for many goals per start.
pub fn oracle_weighted_distances(
    obstacles: &impl Scenario,
    weight: impl Fn(Cell) -> Option<u8>,
    start: Cell,
    diameter: u32,
    connectivity: Connectivity,
) -> Vec<Option<Cost>> {
    let size = obstacles.size();
    let mut dist = vec![None; size.area()];
    let no_extra = |_| 0;
    weighted_dijkstra(
        obstacles,
        weight,
        no_extra,
        start,
        diameter,
        connectivity,
        |c, d| {
            dist[size.index(c)] = Some(d);
            true
        },
    );
    dist
}

/// The oracle's Dijkstra: calls `settled(cell, cost)` for each cell in order of its
/// optimal cost and stops when it returns false. A step into `n` costs `extra(n)` more.
#[allow(clippy::too_many_arguments)]
fn weighted_dijkstra(
    obstacles: &impl Scenario,
    weight: impl Fn(Cell) -> Option<u8>,
    extra: impl Fn(Cell) -> Cost,
    start: Cell,
    diameter: u32,
    connectivity: Connectivity,
    mut settled: impl FnMut(Cell, Cost) -> bool,
) {
    let size = obstacles.size();
    let mut walls = BitGrid::new(size, false);
    for i in 0..size.area() {
        let c = size.cell(i);
        walls.set(c, obstacles.is_obstacle(c) || weight(c).is_none());
    }
    let walls = CachedScenario::from_bits(walls).expect("a test grid fits");
    let mut inflated = BitGrid::new(size, false);
    for i in 0..size.area() {
        let c = size.cell(i);
        inflated.set(c, blocked_naive(&walls, c, diameter));
    }
    let standing = CachedScenario::from_bits(inflated).expect("a test grid fits");
    let layer = standing.layer(1).expect("diameter 1 exists");
    let step_ok = |a: Cell, b: Cell| validate_path(layer, &[a, b], a, b, connectivity).is_ok();
    let stands = |c: Cell| validate_path(layer, &[c], c, c, connectivity).is_ok();
    if !stands(start) {
        return;
    }
    let w = |c: Cell| Cost::from(weight(c).expect("standable cells are passable"));
    let mut dist = vec![Cost::MAX; size.area()];
    let mut heap = BinaryHeap::new();
    dist[size.index(start)] = 0;
    heap.push(Reverse((0, start.x, start.y)));
    while let Some(Reverse((d, x, y))) = heap.pop() {
        let c = Cell::new(x, y);
        if d > dist[size.index(c)] {
            continue;
        }
        if !settled(c, d) {
            return;
        }
        for &dir in connectivity.directions() {
            let n = c.step(dir);
            if !size.contains(n) || !step_ok(c, n) {
                continue;
            }
            let nd = d + dir.cost() * (w(c) + w(n)) / 2 + extra(n);
            if nd < dist[size.index(n)] {
                dist[size.index(n)] = nd;
                heap.push(Reverse((nd, n.x, n.y)));
            }
        }
    }
}

/// A random terrain grid from a seed: ids 0..`kinds`, in patches (each cell copies its
/// left or upper neighbour with probability 3/4), so weights vary in runs as on real maps.
pub fn random_terrain(size: GridSize, kinds: u8, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut ids = vec![0u8; size.area()];
    for i in 0..size.area() {
        let c = size.cell(i);
        ids[i] = if c.x > 0 && rng.chance(1, 2) {
            ids[i - 1]
        } else if c.y > 0 && rng.chance(1, 2) {
            ids[i - size.width as usize]
        } else {
            rng.range(0, i32::from(kinds.max(1)) - 1) as u8
        };
    }
    ids
}

/// Fixed-point cost of a king-move path.
pub fn cost_of(path: &[Cell]) -> Cost {
    path.windows(2)
        .map(|w| {
            let d =
                Direction::from_delta(w[1].x - w[0].x, w[1].y - w[0].y).expect("adjacent steps");
            d.cost()
        })
        .sum()
}

/// Weighted cost of a king-move path written out from the model: each step's
/// fixed-point length × (w(a) + w(b)) / 2. `None` when a step is not one king move or
/// a cell has no weight (blocked terrain).
pub fn weighted_cost_of(path: &[Cell], weight: impl Fn(Cell) -> Option<u8>) -> Option<Cost> {
    path.windows(2).try_fold(0, |sum: Cost, w| {
        let d = Direction::from_delta(w[1].x - w[0].x, w[1].y - w[0].y)?;
        let (a, b) = (Cost::from(weight(w[0])?), Cost::from(weight(w[1])?));
        Some(sum + d.cost() * (a + b) / 2)
    })
}

/// `None` when the layer has no jump table or its table equals a fresh build;
/// otherwise the first cell whose jumps differ, as (direction, kept, fresh) with the
/// layer drawn, for failure messages.
pub fn stale_jump_table(layer: &Layer) -> Option<String> {
    let table = layer.jump_table()?;
    let fresh = JumpTable::new(layer.bits());
    if *table == fresh {
        return None;
    }
    let size = layer.size();
    let wrong = (0..size.area())
        .map(|i| size.cell(i))
        .find(|&c| {
            Direction::ALL
                .iter()
                .any(|&dir| table.jump(c, dir) != fresh.jump(c, dir))
        })
        .expect("unequal tables differ in some jump");
    let dirs: Vec<_> = Direction::ALL
        .iter()
        .map(|&dir| (dir, table.jump(wrong, dir), fresh.jump(wrong, dir)))
        .filter(|(_, a, b)| a != b)
        .collect();
    Some(format!(
        "cell {wrong} (direction, kept, fresh) {dirs:?}{}",
        picture(layer.bits(), &[wrong])
    ))
}

/// The map as ASCII with the path drawn, for failure messages.
pub fn picture(bits: &BitGrid, path: &[Cell]) -> String {
    let text = tilepath::scenario::render(&AsciiOf(bits), path);
    format!("\n{text}")
}

struct AsciiOf<'a>(&'a BitGrid);

impl Scenario for AsciiOf<'_> {
    fn size(&self) -> GridSize {
        self.0.size()
    }
    fn is_obstacle(&self, cell: Cell) -> bool {
        self.0.get_or(cell, true)
    }
}

/// Parses an ASCII map into a virtual scenario.
pub fn ascii(text: &str) -> AsciiScenario {
    AsciiScenario::parse(text).expect("valid test map")
}
