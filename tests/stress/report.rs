//! What a stress run prints: its header, checkpoint lines and final figures, per mode.
//!
//! The lines both modes print (frozen units, walls, solver answers, percentiles of the
//! per-frame times, peak memory) are written once here.

use std::time::Duration;

use bevy::prelude::*;
use bevy_tilepath::prelude::FrameBudget;

use super::live_edits;
use super::metrics::STAGES;
use super::watch::{ms, quantile};
use super::{Config, Metrics, Mode};

/// The budget as the header says it: `2.00 ms` or `30000 expansions`.
pub fn budget(budget: FrameBudget) -> String {
    match budget {
        FrameBudget::Time(d) => format!("{:.2} ms", ms(d)),
        FrameBudget::Expansions(n) => format!("{n} expansions"),
    }
}

/// `p50 …, p99 …, max … ms` of `times`.
pub fn spread(times: &[Duration]) -> String {
    format!(
        "p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        ms(quantile(times, 0.5)),
        ms(quantile(times, 0.99)),
        ms(quantile(times, 1.0)),
    )
}

/// What the run is, after its warm-up of `warm` frames (`seconds` since the start).
pub fn header(config: &Config, threads: usize, warm: u32, seconds: f64) {
    let budget = budget(config.budget);
    let (units, size, seed, edits) = (config.units, config.size, config.seed, config.edits);
    match &config.mode {
        Mode::LiveEdits(options) => println!(
            "live-edits: {units} units on a {size}x{size} rts_level map (seed {seed}), {edits} \
             tiles flipped per frame, budget {budget} per frame, {} requests per frame, \
             {threads} solver threads, {} cells/s, 16 ms frames; warm-up {warm} frames \
             ({seconds:.1} s)",
            options
                .max_requests
                .map_or("default".to_string(), |n| n.to_string()),
            options.speed,
        ),
        Mode::Soak(options) => println!(
            "soak: {units} units (infantry, cavalry, tanks: 1, 2, 3 cells wide) on a \
             {size}x{size} countryside map (seed {seed}), a tenth of them ordered to a random \
             point every {} frames, {edits} tiles flipped per frame, budget {budget} per \
             frame, {threads} solver threads, group orders {:?}, 16 ms frames; warm-up {warm} \
             frames ({seconds:.1} s)",
            options.order_every, options.group_orders,
        ),
    }
}

/// One checkpoint line of the mode: `window` is the first frame since the last one.
pub fn checkpoint(app: &App, config: &Config, window: usize, seconds: f64) {
    let m = super::metrics(app);
    match &config.mode {
        Mode::LiveEdits(_) => {
            let unanswered = live_edits::unanswered(app);
            println!(
                "frame {:>4}: pending {:>5} (max {:>5}; improvements {:>5}; oldest {:>3}/{:>3} \
                 frames) | longest wait {:>3} | re-plans/frame {:>6.1} | solves/frame {:>6.1} | \
                 repairs {:>6} | frozen {:>7} | arrivals {:>6} | PathSolved {:>7} | solve ms \
                 p50 {:.2} p99 {:.2} max {:.2} | re-plan ms p50 {:.2} max {:.2}",
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
        Mode::Soak(_) => println!(
            "frame {:>6}: pending {:>5} (max {:>5}) | inside blocked {} | frozen {} | \
             arrivals {} | completed {} | {seconds:.0} s",
            m.frames, m.pending, m.max_pending, m.in_blocked, m.frozen, m.arrivals, m.completed,
        ),
    }
}

/// The figures at the end of a run of `seconds`: `panics` counted by the caller,
/// `memory` the peak resident set in kB at some frames.
pub fn summary(app: &App, config: &Config, panics: u32, memory: &[(u32, u64)], seconds: f64) {
    let m = super::metrics(app);
    println!("--- after {} frames ({seconds:.1} s) ---", m.frames);
    match &config.mode {
        Mode::LiveEdits(_) => live_edits_summary(app, panics, memory),
        Mode::Soak(_) => soak(m, panics, memory),
    }
}

/// The live-edits figures (see [`summary`]).
pub fn live_edits_summary(app: &App, panics: u32, memory: &[(u32, u64)]) {
    let m = super::metrics(app);
    let stats = super::stats(app);
    let (start_blocked, in_walls) = live_edits::blocked_units(app);
    let unanswered = live_edits::unanswered(app);
    let frames = f64::from(m.frames.max(1));
    println!("panics: {panics}");
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
         detours: {}; {}; PathSolved messages: {}",
        m.replans,
        m.replans as f64 / frames,
        m.repairs,
        m.repairs as f64 / frames,
        m.detours,
        answers(m),
        m.solved_messages
    );
    println!(
        "reviewed against edits: {:.0} requests per frame; longest review pass: {} frames",
        m.reviewed as f64 / frames,
        m.review_pass_max
    );
    frozen(m);
    println!(
        "units StartBlocked at the end: {start_blocked}; standing in a wall: {in_walls}; arrivals: {}",
        m.arrivals
    );
    walls(m);
    peak_memory(memory);
    println!(
        "plugin time per frame (all its systems): {}; solve: {}; re-planning (outside the \
         budget): {}; plugin totals since the start: paths {} failures {} re-plans {} \
         searches run whole {}",
        spread(&m.plugin_times),
        spread(&m.solve_times),
        spread(&m.replan_times),
        stats.total_solved,
        stats.total_failed,
        stats.total_replanned,
        stats.total_whole
    );
    let stages: Vec<String> = STAGES
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
    // Path work: the edits' upkeep and every system set but steering (the last).
    let path_times: Vec<Duration> = (m.upkeep_times.iter().zip(&m.stage_times))
        .map(|(upkeep, stages)| *upkeep + stages[..STAGES.len() - 1].iter().sum::<Duration>())
        .collect();
    println!(
        "map upkeep of the edits per frame: {}; path work per frame (upkeep, sync, \
         re-plan, solve; all but steering): {}",
        spread(&m.upkeep_times),
        spread(&path_times)
    );
    let frames = m.upkeep_times.len().max(1) as f64;
    println!(
        "map upkeep work per frame: {:.0} units; expansions it was charged per frame: {:.1}",
        m.upkeep_work as f64 / frames,
        m.upkeep_charged as f64 / frames
    );
}

/// The soak figures (see [`summary`]).
pub fn soak(m: &Metrics, panics: u32, memory: &[(u32, u64)]) {
    println!("panics: {panics}");
    println!(
        "unit-frames inside a blocked cell for their footprint: {}{}",
        m.in_blocked,
        if m.blocked_examples.is_empty() {
            String::new()
        } else {
            format!(" (first: {:?})", m.blocked_examples)
        }
    );
    frozen(m);
    println!(
        "pending requests: max {}, at the end {}; of those needing an answer (not \
         improvements of valid paths): max {}, at the end {}",
        m.max_pending, m.pending, m.max_needing_answer, m.needing_answer
    );
    println!(
        "unit orders given: {}; arrivals: {}; orders completed (arrived at the end of a complete path): {}",
        m.orders, m.arrivals, m.completed
    );
    walls(m);
    println!("{}; paths repaired in place: {}", answers(m), m.repairs);
    peak_memory(memory);
    println!("solve time per frame: {}", spread(&m.solve_times));
}

/// `solver answers: N (… per frame, … cells expanded per answer)`.
fn answers(m: &Metrics) -> String {
    format!(
        "solver answers: {} ({:.1} per frame, {:.0} cells expanded per answer)",
        m.solves,
        m.solves as f64 / f64::from(m.frames.max(1)),
        m.expanded as f64 / m.solves.max(1) as f64,
    )
}

fn frozen(m: &Metrics) {
    println!(
        "frozen unit-frames: {}; waiting for a new order's first answer: {}; \
         idle unit-frames (a path, held back): {}",
        m.frozen, m.ordered, m.idle
    );
}

fn walls(m: &Metrics) {
    println!("walls built: {}, opened: {}", m.walls_built, m.walls_opened);
}

/// The peak resident set at each sampled frame, and its growth from the first sample
/// to the last.
fn peak_memory(memory: &[(u32, u64)]) {
    for (frame, kb) in memory {
        println!(
            "peak memory at frame {frame}: {:.1} MiB",
            *kb as f64 / 1024.0
        );
    }
    if let [(_, first), .., (_, last)] = memory {
        println!(
            "peak memory growth: {:+.2} %",
            (*last as f64 / (*first).max(1) as f64 - 1.0) * 100.0
        );
    }
}
