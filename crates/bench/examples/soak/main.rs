//! The soak run, headless: thousands of steering units of three sizes and movement
//! profiles on a countryside map, group orders every second, tile edits every frame;
//! prints panics, units inside blocked cells, frozen units, pending requests, arrivals,
//! completed orders, peak memory and solve times.
//!
//! ```sh
//! cargo run --release -p tilepath_bench --example soak -- [--frames 2000] [--units 5000] [--size 512]
//!     [--edits 20] [--order-every 60] [--budget-ms 2] [--threads 2] [--seed 5]
//!     [--shared-approach]
//! ```
//!
//! The map is `tilepath::scenario::generate::countryside(size, seed)`; a third of the
//! units is each of `scenario::KINDS` (infantry 1 cell wide, cavalry 2, tanks 3, each
//! with its own terrain costs); every `--order-every` frames a tenth of the army (every
//! tenth unit, in turn) is sent to a random point, so each unit gets a new order every
//! ten orders (10 s by default). Time advances by a fixed 16 ms per frame. The first
//! orders are answered in a warm-up without budget; the measured frames follow. See
//! the root crate's `tests/stress/soak.rs` (the plugin tests run it too) for the exact definitions of what is printed. Exits with status 1 when
//! a frame panicked or a unit stood inside a blocked cell.

#[path = "../../../../tests/stress/soak.rs"]
mod scenario;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;

use bevy_tilepath::prelude::GroupOrders;
use scenario::Config;
use scenario::watch::{ms, peak_rss_kb};

fn parse() -> Result<(Config, usize), String> {
    let mut config = Config::default();
    let mut threads = 2;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |v: String| v.parse::<f64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--frames" => config.frames = number(value()?)? as u32,
            "--units" => config.units = number(value()?)? as usize,
            "--size" => config.size = number(value()?)? as u32,
            "--edits" => config.edits = number(value()?)? as usize,
            "--order-every" => config.order_every = number(value()?)? as u32,
            "--budget-ms" => config.budget = Duration::from_secs_f64(number(value()?)? / 1e3),
            "--threads" => threads = (number(value()?)? as usize).max(1),
            "--seed" => config.seed = number(value()?)? as u64,
            "--shared-approach" => config.group_orders = GroupOrders::SharedApproach,
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok((config, threads))
}

fn main() -> ExitCode {
    let (config, threads) = match parse() {
        Ok(parsed) => parsed,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            eprintln!(
                "usage: soak [--frames N] [--units N] [--size N] [--edits N] [--order-every FRAMES] \
                 [--budget-ms MS] [--threads N] [--seed N] [--shared-approach]"
            );
            return ExitCode::from(2);
        }
    };
    let plugins = MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(threads + 2),
    });
    let started = Instant::now();
    let mut app = scenario::build(&config, plugins);
    let warm = scenario::warm_up(&mut app, &config);
    println!(
        "soak: {} units (infantry, cavalry, tanks: 1, 2, 3 cells wide) on a {}x{} countryside \
         map (seed {}), a tenth of them ordered to a random point every {} frames, {} tiles flipped per frame, budget {:.2} ms \
         per frame, {threads} solver threads, group orders {:?}, 16 ms frames; warm-up {warm} \
         frames ({:.1} s)",
        config.units,
        config.size,
        config.size,
        config.seed,
        config.order_every,
        config.edits,
        ms(config.budget),
        config.group_orders,
        started.elapsed().as_secs_f64(),
    );
    let mut panics = 0;
    let mut memory = Vec::new();
    for frame in 1..=config.frames {
        if catch_unwind(AssertUnwindSafe(|| app.update())).is_err() {
            panics += 1;
            eprintln!("frame {frame} panicked; the run stops");
            break;
        }
        if frame == 1_000.min(config.frames) || frame == config.frames {
            memory.push((frame, peak_rss_kb()));
        }
        if frame % 1_000 == 0 {
            let m = scenario::metrics(&app);
            println!(
                "frame {frame:>6}: pending {:>5} (max {:>5}) | inside blocked {} | frozen {} | \
                 arrivals {} | completed {} | {:.0} s",
                m.pending,
                m.max_pending,
                m.in_blocked,
                m.frozen,
                m.arrivals,
                m.completed,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let m = scenario::metrics(&app);
    println!(
        "--- after {} frames ({:.1} s) ---",
        m.frames,
        started.elapsed().as_secs_f64()
    );
    scenario::report(m, panics, &memory);
    if panics > 0 || m.in_blocked > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
