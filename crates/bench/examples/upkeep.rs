//! The map upkeep of edits: time per `CachedScenario::apply_edits` call on generated RTS
//! levels with the one-cell, two-cell and three-cell layers built, each with its JPS+
//! jump table (clearance, layer bits, components and tables brought up to date).
//!
//! `cargo run --release -p tilepath_bench --example upkeep`

use std::time::Instant;

use tilepath::prelude::*;
use tilepath::scenario::ProfileId;
use tilepath::scenario::generate::{SplitMix64, rts_level};

/// Calls timed per row.
const CALLS: usize = 2_000;

fn main() {
    println!("| map | edits per call | µs per call |");
    println!("|---|---:|---:|");
    for side in [256u32, 512] {
        for per_call in [1usize, 20] {
            let bits = rts_level(GridSize::new(side, side), 11);
            let Ok(mut map) = CachedScenario::from_bits(bits) else {
                eprintln!("cannot build a {side} × {side} map");
                return;
            };
            for diameter in 1..=3 {
                map.build_jump_table(ProfileId::DEFAULT, diameter);
            }
            let mut rng = SplitMix64::new(3);
            let mut edits = Vec::with_capacity(per_call);
            let started = Instant::now();
            for _ in 0..CALLS {
                edits.clear();
                for _ in 0..per_call {
                    let cell = Cell::new(rng.below(side) as i32, rng.below(side) as i32);
                    edits.push((cell, !map.is_obstacle(cell)));
                }
                map.apply(edits.iter().copied());
            }
            let micros = started.elapsed().as_secs_f64() * 1e6 / CALLS as f64;
            println!("| rts_level {side} × {side} | {per_call} | {micros:.0} |");
        }
    }
}
