//! Live map edits at army scale, headless: steering units on a generated map whose tiles
//! flip every frame, with the queue, waits, re-plans, frozen units and arrivals printed.
//!
//! ```sh
//! cargo run --release -p tilepath_bench --example live_edits -- [--units 5000] [--size 256] [--frames 600]
//!     [--edits 20] [--budget-ms 2] [--expansions N] [--threads 2] [--seed 11]
//!     [--speed 6] [--every 100] [--max-requests N] [--defer-cuts N] [--no-jump-tables]
//! ```
//!
//! The map is `tilepath::scenario::generate::rts_level(size, seed)`; units start on
//! distinct random free cells and are sent to random free cells (a new one on every
//! arrival); every frame `edits` random tiles flip before `TilepathSystems::SyncMap`
//! (half free cells that become walls, units standing on some of them, half walls that
//! open). Time advances by a fixed 16 ms per frame, so a run is deterministic apart from
//! what the wall-clock budget lets the solver finish (`--expansions N` counts the budget
//! in expansions instead: then the whole run is deterministic). The first orders are
//! answered in a warm-up without budget; the measured frames follow. See the root crate's
//! `tests/stress/live_edits.rs` (the plugin tests run it too) for the exact definitions of what is printed.

#[path = "../../../../tests/stress/live_edits.rs"]
mod scenario;

use std::time::Duration;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;

use scenario::{Config, Metrics};

fn parse() -> Result<(Config, usize, u32), String> {
    let mut config = Config::default();
    let mut threads = 2;
    let mut every = 100;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |v: String| v.parse::<f64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--units" => config.units = number(value()?)? as usize,
            "--size" => config.size = number(value()?)? as u32,
            "--frames" => config.frames = number(value()?)? as u32,
            "--edits" => config.edits = number(value()?)? as usize,
            "--budget-ms" => config.budget = Duration::from_secs_f64(number(value()?)? / 1e3),
            "--expansions" => config.expansions = Some(number(value()?)? as u32),
            "--threads" => threads = (number(value()?)? as usize).max(1),
            "--seed" => config.seed = number(value()?)? as u64,
            "--speed" => config.speed = number(value()?)? as f32,
            "--max-requests" => config.max_requests = Some(number(value()?)? as usize),
            "--defer-cuts" => config.defer_cuts = Some(number(value()?)? as u32),
            "--no-jump-tables" => config.jump_tables = false,
            "--every" => every = (number(value()?)? as u32).max(1),
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok((config, threads, every))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One checkpoint line: the window is the frames since the last checkpoint.
fn checkpoint(m: &Metrics, window: usize, unanswered: scenario::Unanswered) {
    println!(
        "frame {:>4}: pending {:>5} (max {:>5}; improvements {:>5}; oldest {:>3}/{:>3} frames) | \
         longest wait {:>3} | re-plans/frame {:>6.1} | solves/frame {:>6.1} | repairs {:>6} | \
         frozen {:>7} | arrivals {:>6} | PathSolved {:>7} | solve ms p50 {:.2} p99 {:.2} max {:.2} | \
         re-plan ms p50 {:.2} max {:.2}",
        m.frames,
        m.pending,
        m.max_pending,
        unanswered.improvements,
        unanswered.oldest,
        unanswered.oldest_improvement,
        m.max_wait,
        Metrics::mean(&m.replans_per_frame, window),
        Metrics::mean(&m.solves_per_frame, window),
        m.repairs,
        m.frozen,
        m.arrivals,
        m.solved_messages,
        ms(m.solve_quantile(window, 0.5)),
        ms(m.solve_quantile(window, 0.99)),
        ms(m.solve_quantile(window, 1.0)),
        ms(m.replan_quantile(window, 0.5)),
        ms(m.replan_quantile(window, 1.0)),
    );
}

fn main() {
    let (config, threads, every) = match parse() {
        Ok(parsed) => parsed,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            eprintln!(
                "usage: live_edits [--units N] [--size N] [--frames N] [--edits N] \
                 [--budget-ms MS] [--expansions N] [--threads N] [--seed N] [--speed CELLS_PER_S] \
                 [--every N] [--max-requests N] [--defer-cuts N] [--no-jump-tables]"
            );
            std::process::exit(2);
        }
    };
    // Solver threads: the compute pool gets `threads` (plus one IO and one async thread).
    let plugins = MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(threads + 2),
    });
    let mut app = scenario::build(&config, plugins);
    let started = std::time::Instant::now();
    let warm = scenario::warm_up(&mut app, &config);
    let budget = match config.expansions {
        Some(n) => format!("{n} expansions"),
        None => format!("{:.2} ms", ms(config.budget)),
    };
    println!(
        "live_edits: {} units on a {}x{} rts_level map (seed {}), {} tiles flipped per frame, \
         budget {budget} per frame, {} requests per frame, {threads} solver threads, {} cells/s, \
         16 ms frames; warm-up {warm} frames ({:.1} s)",
        config.units,
        config.size,
        config.size,
        config.seed,
        config.edits,
        config
            .max_requests
            .map_or("default".to_string(), |n| n.to_string()),
        config.speed,
        started.elapsed().as_secs_f64(),
    );
    let mut window = 0;
    for frame in 1..=config.frames {
        scenario::step(&mut app);
        if frame % every == 0 || frame == config.frames {
            checkpoint(scenario::metrics(&app), window, scenario::unanswered(&app));
            window = frame as usize;
        }
    }
    let m = scenario::metrics(&app);
    let stats = scenario::stats(&app);
    let (start_blocked, in_walls) = scenario::blocked_units(&app);
    let unanswered = scenario::unanswered(&app);
    let frames = m.frames.max(1) as f64;
    println!(
        "--- after {} frames ({:.1} s) ---",
        m.frames,
        started.elapsed().as_secs_f64()
    );
    println!(
        "pending requests: max {}, end {} (oldest still queued: {} frames), of which \
         improvements (re-plans of valid paths a cell opened near): {} (oldest {} frames)",
        m.max_pending,
        unanswered.count,
        unanswered.oldest,
        unanswered.improvements,
        unanswered.oldest_improvement
    );
    println!(
        "longest wait of an answered request: {} frames; answers waiting more than 30 frames: {}",
        m.max_wait,
        m.waited_more_than(30)
    );
    println!(
        "re-plans: {} ({:.1} per frame); repaired in place: {} ({:.1} per frame); provisional \
         detours: {}; solver answers: {} ({:.1} per frame, {:.0} cells expanded per answer); \
         PathSolved messages: {}",
        m.replans,
        m.replans as f64 / frames,
        m.repairs,
        m.repairs as f64 / frames,
        m.detours,
        m.solves,
        m.solves as f64 / frames,
        m.expanded as f64 / m.solves.max(1) as f64,
        m.solved_messages
    );
    println!(
        "frozen unit-frames: {}; waiting for a new order's first answer: {}; \
         idle unit-frames (a path, held back): {}",
        m.frozen, m.ordered, m.idle
    );
    println!(
        "units StartBlocked at the end: {start_blocked}; standing in a wall: {in_walls}; arrivals: {}",
        m.arrivals
    );
    println!("walls built: {}, opened: {}", m.walls_built, m.walls_opened);
    println!(
        "plugin time per frame (all its systems): p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; \
         solve: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; re-planning (outside the budget): \
         p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; plugin totals since the start: paths {} \
         failures {} re-plans {} searches run whole {}",
        ms(m.plugin_quantile(0, 0.5)),
        ms(m.plugin_quantile(0, 0.99)),
        ms(m.plugin_quantile(0, 1.0)),
        ms(m.solve_quantile(0, 0.5)),
        ms(m.solve_quantile(0, 0.99)),
        ms(m.solve_quantile(0, 1.0)),
        ms(m.replan_quantile(0, 0.5)),
        ms(m.replan_quantile(0, 0.99)),
        ms(m.replan_quantile(0, 1.0)),
        stats.total_solved,
        stats.total_failed,
        stats.total_replanned,
        stats.total_whole
    );
    let stages: Vec<String> = scenario::STAGES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            format!(
                "{name} p50 {:.3} / p99 {:.3} ms",
                ms(m.stage_quantile(i, 0, 0.5)),
                ms(m.stage_quantile(i, 0, 0.99))
            )
        })
        .collect();
    println!("the plugin's system sets per frame: {}", stages.join(", "));
}
