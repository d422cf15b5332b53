//! Stress runs of the plugin, headless: live map edits or the soak, one program, two modes.
//!
//! ```sh
//! cargo run --release -p tilepath_bench --example stress -- --mode live-edits [--units 5000] [--size 256]
//!     [--frames 600] [--edits 20] [--budget-ms 2 | --expansions N] [--threads 2] [--seed 11]
//!     [--every 100] [--speed 6] [--max-requests N] [--defer-cuts N] [--review-budget N]
//!     [--no-jump-tables]
//! cargo run --release -p tilepath_bench --example stress -- --mode soak [--units 5000] [--size 512]
//!     [--frames 2000] [--edits 20] [--budget-ms 2 | --expansions N] [--threads 2] [--seed 5]
//!     [--every 1000] [--order-every 60] [--shared-approach]
//! ```
//!
//! **live-edits**: steering units on `tilepath::scenario::generate::rts_level(size,
//! seed)`, on distinct random free cells, sent to random free cells (a new one on every
//! arrival); every frame `edits` random tiles flip before `TilepathSystems::SyncMap` (half
//! free cells that become walls, units standing on some of them, half walls that open).
//! It prints the queue, waits, re-plans, frozen units, arrivals and the plugin's time
//! per system set.
//!
//! **soak**: a third of the units each of infantry (1 cell wide), cavalry (2) and tanks
//! (3), each with its own terrain costs, on `countryside(size, seed)`; every
//! `--order-every` frames a tenth of the army (every tenth unit, in turn) is sent to a
//! random point, so each unit gets a new order every ten orders (10 s by default); every
//! frame half the flipped tiles become walls (never under a unit) and half of the walls
//! built earlier open. It prints panics, units inside blocked cells, frozen units,
//! pending requests, arrivals, completed orders, peak memory and solve times.
//!
//! In both modes time advances by a fixed 16 ms per frame; the first orders are answered
//! in a warm-up without budget and the measured frames follow, with a checkpoint line
//! every `--every` frames. The budget is wall-clock time (`--budget-ms`, 2 ms by
//! default: the counts then depend on the machine) or `--expansions N` per frame (which
//! wins over `--budget-ms`: the whole run is then deterministic). The harness is the
//! root crate's `tests/stress/` (the plugin tests run both modes in short); its modules
//! define exactly what is printed. Exits with status 1 when a frame panicked or a unit
//! stood inside a blocked cell (counted by the soak), 2 on a bad command line.

mod cli;
#[path = "../../../../tests/stress/mod.rs"]
mod stress;
#[cfg(test)]
mod tests;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::time::Instant;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;

use cli::Args;
use stress::{report, watch};

fn main() -> ExitCode {
    let Args {
        config,
        threads,
        every,
    } = match cli::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            eprintln!("{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    // Solver threads: the compute pool gets `threads` (plus one IO and one async thread).
    let plugins = MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(threads + 2),
    });
    let started = Instant::now();
    let mut app = stress::build(&config, plugins);
    let warm = stress::warm_up(&mut app, &config);
    report::header(&config, threads, warm, started.elapsed().as_secs_f64());
    let mut panics = 0;
    let mut memory = Vec::new();
    let mut window = 0;
    for frame in 1..=config.frames {
        if catch_unwind(AssertUnwindSafe(|| stress::step(&mut app))).is_err() {
            panics += 1;
            eprintln!("frame {frame} panicked; the run stops");
            break;
        }
        if frame == 1_000.min(config.frames) || frame == config.frames {
            memory.push((frame, watch::peak_rss_kb()));
        }
        if frame % every == 0 || frame == config.frames {
            let seconds = started.elapsed().as_secs_f64();
            report::checkpoint(&app, &config, window, seconds);
            window = frame as usize;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    report::summary(&app, &config, panics, &memory, seconds);
    if panics > 0 || stress::metrics(&app).in_blocked > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
