//! Memory per pathfinder: per-cell buffers exist only for the algorithms that ran.
//!
//! Pins the table in the `Pathfinder` docs on a small map: 8 bytes per cell of shared
//! records for every algorithm, plus 4 for the heap positions (A*, Dijkstra,
//! best-first, JPS; not JPS+, whose open list keeps no positions and whose jump table
//! belongs to the map), the BFS levels or the evasion path positions, each allocated only
//! when its algorithm first runs. The lists (open list, queue, stack, traces, path)
//! are bounded here by a generous 2 bytes per cell; they grow with the largest query.

use tilepath::grid::{Cell, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::generate;

const SIDE: u32 = 256;
const LISTS: f64 = 2.0;

fn map() -> CachedScenario {
    CachedScenario::from_bits(generate::random_rects(GridSize::new(SIDE, SIDE), 3)).unwrap()
}

/// Queries between free cells near opposite corners and across the middle.
fn queries(map: &CachedScenario) -> Vec<PathQuery> {
    let layer = map.layer(1).unwrap();
    let size = map.size();
    let free = |from: usize| {
        (from..size.area())
            .chain(0..from)
            .map(|i| size.cell(i))
            .find(|&c| !layer.is_blocked(c))
            .unwrap()
    };
    let n = size.area();
    (0..6)
        .map(|k| PathQuery::new(free(k * 97), free(n - 1 - k * 131)))
        .chain([PathQuery::new(free(n / 2), free(n / 2 + 200))])
        .collect()
}

/// Bytes per cell after running `algorithms` (each on every query) on a fresh pathfinder.
fn bytes_per_cell(map: &CachedScenario, algorithms: &[Algorithm]) -> f64 {
    let mut pf = Pathfinder::new();
    for &a in algorithms {
        for q in queries(map) {
            assert!(pf.find(map, &q.algorithm(a)).is_ok(), "{a} {q:?}");
        }
    }
    pf.memory_bytes() as f64 / map.size().area() as f64
}

#[test]
fn each_algorithm_holds_its_documented_bytes_per_cell() {
    let map = map();
    for (algorithm, per_cell) in [
        (Algorithm::AStar, 12.0),
        (Algorithm::Jps, 12.0),
        (Algorithm::JpsPlus, 8.0),
        (Algorithm::Dijkstra, 12.0),
        (Algorithm::BestFirst, 12.0),
        (Algorithm::Bfs, 12.0),
        (Algorithm::Dfs, 8.0),
        (Algorithm::Iddfs, 8.0),
        (Algorithm::Evasion, 12.0),
    ] {
        let measured = bytes_per_cell(&map, &[algorithm]);
        assert!(
            (per_cell..=per_cell + LISTS).contains(&measured),
            "{algorithm}: {measured:.2} bytes per cell, documented {per_cell}"
        );
    }
    let all = bytes_per_cell(&map, &Algorithm::ALL);
    assert!((20.0..=20.0 + LISTS).contains(&all), "all: {all:.2}");
}

#[test]
fn a_warm_pathfinder_keeps_its_size_and_a_smaller_map_reuses_it() {
    let map = map();
    let mut pf = Pathfinder::new();
    for q in queries(&map) {
        pf.find(&map, &q).unwrap();
    }
    let warm = pf.memory_bytes();
    for q in queries(&map) {
        pf.find(&map, &q).unwrap();
    }
    assert_eq!(pf.memory_bytes(), warm);
    let small = CachedScenario::new(GridSize::new(16, 16)).unwrap();
    pf.find(&small, &PathQuery::new(Cell::new(0, 0), Cell::new(15, 9)))
        .unwrap();
    assert_eq!(pf.memory_bytes(), warm);
}
