//! Test helpers: the plain Dijkstra oracle, seeded random grids, and ASCII failure reports.
//!
//! One oracle (a textbook Dijkstra), one random generator (the core's
//! [`SplitMix64`]) and one movement rule ([`validate_path`], applied to single steps):
//! the integration tests use these and nothing else of their own.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;

#[path = "../../examples/support/benchmark.rs"]
pub mod benchmark;

use tilepath::grid::{Cell, Connectivity, Cost, Direction, GridSize};
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{AsciiScenario, BitGrid, CachedScenario, Scenario};
use tilepath::search::validate_path;

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

/// The naive footprint test, independent of any cache: scans the square.
pub fn blocked_naive(obstacles: &impl Scenario, cell: Cell, diameter: u32) -> bool {
    let r = (diameter / 2) as i32;
    (cell.y - r..=cell.y + r)
        .any(|y| (cell.x - r..=cell.x + r).any(|x| obstacles.is_obstacle(Cell::new(x, y))))
}

/// Plain Dijkstra with a binary heap and lazy deletion: the oracle for every algorithm.
/// Returns the fixed-point optimal cost, `None` when no path exists.
///
/// Independent of the clearance cache: the agent's footprint is tested naively
/// ([`blocked_naive`]) into a grid of cells the agent cannot stand on, and a step is
/// allowed when [`validate_path`] accepts it on that grid (one cell wide agent).
pub fn oracle_cost(
    obstacles: &impl Scenario,
    start: Cell,
    goal: Cell,
    diameter: u32,
    connectivity: Connectivity,
) -> Option<Cost> {
    let size = obstacles.size();
    let mut inflated = BitGrid::new(size, false);
    for i in 0..size.area() {
        let c = size.cell(i);
        inflated.set(c, blocked_naive(obstacles, c, diameter));
    }
    let standing = CachedScenario::from_bits(inflated).expect("a test grid fits");
    let layer = standing.layer(1).expect("diameter 1 exists");
    let step_ok = |a: Cell, b: Cell| validate_path(layer, &[a, b], a, b, connectivity).is_ok();
    let stands = |c: Cell| validate_path(layer, &[c], c, c, connectivity).is_ok();
    if !stands(start) || !stands(goal) {
        return None;
    }
    let mut dist = vec![Cost::MAX; size.area()];
    let mut heap = BinaryHeap::new();
    dist[size.index(start)] = 0;
    heap.push(Reverse((0, start.x, start.y)));
    while let Some(Reverse((d, x, y))) = heap.pop() {
        let c = Cell::new(x, y);
        if c == goal {
            return Some(d);
        }
        if d > dist[size.index(c)] {
            continue;
        }
        for &dir in connectivity.directions() {
            let n = c.step(dir);
            if !size.contains(n) || !step_ok(c, n) {
                continue;
            }
            let nd = d + dir.cost();
            if nd < dist[size.index(n)] {
                dist[size.index(n)] = nd;
                heap.push(Reverse((nd, n.x, n.y)));
            }
        }
    }
    None
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
