//! `--jump-tables`: JPS+ jump tables per map: build time, bytes per cell, time per single-tile edit.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use tilepath::prelude::*;
use tilepath::scenario::JumpTable;
use tilepath::scenario::generate::SplitMix64;

use super::{load_set, scen_name};

/// Single-cell flips timed per map (each flip and its undo count as one edit each).
const EDITS: usize = 2_000;

/// Builds of the table timed per map; the fastest is reported.
const BUILDS: usize = 5;

/// Prints, per scen file's map, for the layer of `diameter`: the table's build time
/// (fastest of [`BUILDS`]), its bytes per cell, and the time of
/// [`JumpTable::update`] for [`EDITS`] random single-cell flips of the layer's bits
/// (mean, p50, p99, max), checked at the end against a fresh build; then the time of
/// a whole `CachedScenario::apply` of one obstacle edit with and without a built table
/// (the difference is the table's share; the rest is clearance, layer bits and
/// components, which may flood a whole region).
pub fn jump_table_report(scens: &[PathBuf], maps: Option<&Path>, diameter: u32) -> ExitCode {
    let mut exact = true;
    for scen in scens {
        let set = match load_set(scen, maps) {
            Ok(set) => set,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let name = scen_name(scen);
        let Ok(map) = CachedScenario::from_bits(set.map.into_bits()) else {
            eprintln!("error: {name}: map too large");
            return ExitCode::from(2);
        };
        let Some(layer) = map.layer(diameter) else {
            eprintln!("error: diameter {diameter} is not supported");
            return ExitCode::from(2);
        };
        let size = map.size();
        let mut bits = layer.bits().clone();
        let mut build_ms = f64::INFINITY;
        for _ in 0..BUILDS {
            let started = Instant::now();
            let table = JumpTable::new(&bits);
            build_ms = build_ms.min(started.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box(&table);
        }
        let mut table = JumpTable::new(&bits);
        let per_cell = table.memory_bytes() as f64 / size.area() as f64;
        let mut rng = SplitMix64::new(1);
        let mut times = Vec::with_capacity(EDITS);
        let mut cells = Vec::with_capacity(EDITS / 2);
        for _ in 0..EDITS / 2 {
            let c = Cell::new(
                rng.range(0, size.width as i32 - 1),
                rng.range(0, size.height as i32 - 1),
            );
            cells.push(c);
            for _ in 0..2 {
                bits.set(c, !bits.get_or(c, true));
                let started = Instant::now();
                table.update(&bits, &[c]);
                times.push(started.elapsed().as_secs_f64() * 1e6);
            }
        }
        exact &= table == JumpTable::new(&bits);
        let (mean, p50, p99, max) = stats(&mut times);
        let with = apply_us(&map, &cells, diameter, true);
        let without = apply_us(&map, &cells, diameter, false);
        println!(
            "scen={name} size={}x{} diameter={diameter} build_ms={build_ms:.2} bytes_per_cell={per_cell:.2} \
             edits={} update_us_mean={mean:.2} update_us_p50={p50:.2} update_us_p99={p99:.2} update_us_max={max:.1} \
             apply_us_with_table={with:.1} apply_us_without={without:.1}",
            size.width,
            size.height,
            times.len()
        );
    }
    if exact {
        println!("every updated table equals a fresh build");
        ExitCode::SUCCESS
    } else {
        eprintln!("an updated table differs from a fresh build");
        ExitCode::from(1)
    }
}

/// Mean, p50, p99 and max of `times` (sorted in place).
fn stats(times: &mut [f64]) -> (f64, f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    (mean, at(0.5), at(0.99), at(1.0))
}

/// Mean µs of `CachedScenario::apply` flipping each of `cells` and back, on a copy of
/// `map` with or without the jump table of the layer of `diameter` built.
fn apply_us(map: &CachedScenario, cells: &[Cell], diameter: u32, table: bool) -> f64 {
    let mut map = map.clone();
    if table {
        map.build_jump_table(tilepath::scenario::ProfileId::DEFAULT, diameter);
    }
    let started = Instant::now();
    for &c in cells {
        let blocked = map.is_obstacle(c);
        map.apply([(c, !blocked)]);
        map.apply([(c, blocked)]);
    }
    started.elapsed().as_secs_f64() * 1e6 / (2 * cells.len()) as f64
}
