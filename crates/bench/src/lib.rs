//! The measurement programs of `tilepath` and `bevy_tilepath`, kept out of the published
//! crates with their heavy dependencies (bevy_northstar, the `pathfinding` and
//! `grid_pathfinding` peers, criterion, plotters). The programs are this crate's examples
//! and bench, run from the workspace root:
//!
//! ```text
//! cargo run --release -p tilepath_bench --no-default-features --example movingai -- --help
//! cargo run --release -p tilepath_bench --no-default-features --example chart -- --help
//! cargo run --release -p tilepath_bench --example army -- --help
//! cargo run --release -p tilepath_bench --example crowd -- --help
//! cargo run --release -p tilepath_bench --example stress -- --help
//! cargo run --release -p tilepath_bench --example peers -- --help
//! cargo run --release -p tilepath_bench --example frames
//! cargo bench -p tilepath_bench --bench plugin
//! ```
//!
//! `--no-default-features` leaves out the `bevy` feature, so the core's programs
//! (`movingai`, `chart`) build without compiling bevy; they also run with it.
//!
//! This library holds what several programs share: the bar charts of `chart` and `army`
//! ([`chart`]), bevy_northstar's grid as `army`, `crowd` and `peers` build it (`northstar`, with
//! the `bevy` feature), the command-line error of every program ([`usage_error`]), the
//! process's CPU time ([`process_cpu`]) and, with the `bevy` feature, a task pool of a
//! given size (`task_pool`).
//! Code that the published crates' tests need too stays there and is included by
//! `#[path]`: `crates/tilepath/examples/support/` (MovingAI loading, the counting
//! allocator), and the root crate's `tests/stress/` (the live-edits and soak scenarios
//! and what they watch, run in short by `tests/plugin`).

use std::process::ExitCode;
use std::time::Duration;

pub mod chart;
#[cfg(feature = "bevy")]
pub mod northstar;

/// Reports a bad command line: the error (none for `--help`), then `usage`; exit status 2.
pub fn usage_error(error: &str, usage: &str) -> ExitCode {
    if !error.is_empty() {
        eprintln!("error: {error}");
    }
    eprintln!("{usage}");
    ExitCode::from(2)
}

/// User + system CPU time of the whole process so far (`/proc/self/stat`, fields 14 and
/// 15, in clock ticks of 10 ms: the usual `CLK_TCK` of 100 on Linux). Zero elsewhere.
pub fn process_cpu() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // The command name may hold spaces: fields are counted after its closing ')'.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return Duration::ZERO;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // `rest` starts at field 3 (state): utime is field 14, stime field 15.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// A `MinimalPlugins` task pool plugin whose compute pool has exactly `threads` threads
/// (the default pool has one compute thread on two cores).
#[cfg(feature = "bevy")]
pub fn task_pool(threads: usize) -> bevy::app::TaskPoolPlugin {
    let mut options = bevy::app::TaskPoolOptions::default();
    options.compute.min_threads = threads;
    options.compute.max_threads = threads;
    bevy::app::TaskPoolPlugin {
        task_pool_options: options,
    }
}
