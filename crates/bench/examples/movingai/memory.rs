//! `--memory SIZE`: bytes held by a warm pathfinder per algorithm on a generated clutter map.

use std::process::ExitCode;

use tilepath::grid::GridSize;
use tilepath::prelude::*;
use tilepath::scenario::generate::{self, SplitMix64};

use super::Runner;

/// Prints bytes per cell and MiB of a warm pathfinder per algorithm on a SIZE² clutter map.
pub fn memory_table(side: u32, runners: &[Runner]) -> ExitCode {
    let size = GridSize::new(side, side);
    let map = CachedScenario::from_bits(generate::random_rects(size, 1))
        .expect("a generated map fits the size limits");
    let layer = map.layer(1).expect("diameter 1 always exists");
    let mut rng = SplitMix64::new(7);
    let mut free_near = |x: i32, y: i32| {
        (0..side as i32).find_map(|k| {
            let c = Cell::new(
                (x + k * 7 + rng.range(0, 3)).clamp(0, side as i32 - 1),
                (y + k * 3).clamp(0, side as i32 - 1),
            );
            (!layer.is_blocked(c)).then_some(c)
        })
    };
    let last = side as i32 - 1;
    let queries: Vec<PathQuery> = (0..8)
        .map(|k| {
            let t = k * last / 8;
            let (a, b) = (free_near(t, 0), free_near(last - t, last));
            PathQuery::new(a.unwrap_or_default(), b.unwrap_or_default())
        })
        .collect();
    let ours: Vec<Algorithm> = runners
        .iter()
        .filter_map(|r| match r {
            Runner::Ours(a, _) => Some(*a),
            _ => None,
        })
        .collect();
    let cells = size.area() as f64;
    println!("| algorithm | bytes per cell | MiB at {side}² | found |");
    println!("|---|---|---|---|");
    for algorithm in ours {
        let mut pf = Pathfinder::new();
        let found = queries
            .iter()
            .filter(|q| pf.find(&map, &q.algorithm(algorithm)).is_ok())
            .count();
        let bytes = pf.memory_bytes() as f64;
        println!(
            "| {algorithm} | {:.2} | {:.1} | {found}/{} |",
            bytes / cells,
            bytes / (1024.0 * 1024.0),
            queries.len()
        );
    }
    ExitCode::SUCCESS
}
