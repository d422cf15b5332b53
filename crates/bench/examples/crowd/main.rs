//! Crowd benchmark: units moved by the plugin's `Steering` or `GridStepper` through gaps,
//! head-on in a corridor, past parked friendlies, to one point, as a 5,000-unit army, with
//! mixed sizes, and from goal to goal through one-cell corridors; how long until all
//! arrived against the ideal time, how many never arrive, how many legs they finish or
//! abandon, how long they stall, how much they overlap, how much they move after arriving
//! and what moving costs; the same scenarios on bevy_northstar 0.7 with its `Blocking`
//! collision avoidance.
//!
//! ```text
//! cargo run --release -p tilepath_bench --example crowd -- [--scenario NAME]... [--seconds N]
//!     [--threads N] [--system ours|northstar] [--mover steering|stepper] [--legs N]
//!     [--no-congestion] [--csv FILE] [--svg FILE.svg] [--check]
//! ```
//!
//! `--no-congestion` runs ours with `CongestionSettings::OFF` (on by default).
//!
//! Scenarios (`--scenario` takes one name or a comma-separated list, and may be
//! repeated; all by default): `gap1`, `gap3`, `head_on`, `parked`, `one_point`, `army`,
//! `mixed` (see `scenarios.rs` for their maps and units), and the leg scenarios
//! `corridors` (10 seeds) and `corridors_large`, ports of northstar's `collision_testing`
//! and `demo` examples (`corridors.rs`): every unit goes from goal to goal for 60
//! simulated seconds, or with `--legs N` through N goals until all are done (at most
//! 36,000 frames). `--system ours` runs our plugin with both movers, `Steering` and
//! `GridStepper`, unless `--mover` names one; both systems by default. Headless (`MinimalPlugins`),
//! deterministic: a fixed simulated step of 1/60 s per frame
//! (`TimeUpdateStrategy::ManualDuration`), maps and placements built by this program or
//! the core's seeded generators, no frame budget. Only the plugin's public API is used,
//! and each unit is set up by one function (`ours.rs`), so the benchmark runs unchanged
//! when `Steering` learns avoidance.
//!
//! A run of a scenario ends when every unit with an order has arrived, at the limit
//! (10 × the ideal time, at least 60 s; `--seconds N` lowers it to N) or when nothing
//! moved for 10 s. The program prints a markdown table with its notes, and optionally
//! writes the rows as CSV and a chart of time ÷ ideal as SVG. `--check` exits with
//! status 1 unless every scenario of ours ended with no deadlocked unit and no overlap
//! beyond the tolerance (northstar's rows are not checked); 2 on a bad command line.

mod chart;
mod corridors;
mod legs;
mod metrics;
mod northstar;
mod ours;
mod progress;
mod report;
mod scenarios;

use std::process::ExitCode;
use std::time::Instant;

use bevy::tasks::ComputeTaskPool;
use metrics::Outcome;
use tilepath_bench::task_pool;

use ours::Mover;
use report::{Row, System};
use scenarios::{NAMES, Scenario};

/// Simulated seconds per frame.
pub const DT: f64 = 1.0 / 60.0;
/// World units per tile.
pub const TILE: f32 = 16.0;

/// How long a run may last and how many threads it has.
pub struct Limits {
    pub threads: usize,
    /// `--seconds`: the most simulated seconds of any run.
    pub seconds: Option<f64>,
    /// False with `--no-congestion`: ours runs with `CongestionSettings::OFF`.
    pub congestion: bool,
}

impl Limits {
    /// The limit of a run whose ideal time is `ideal` seconds: 10 × ideal, at least 60 s,
    /// at most `--seconds`.
    pub fn limit(&self, ideal: f64) -> f64 {
        let generous = (10.0 * ideal).max(60.0);
        self.seconds.map_or(generous, |s| generous.min(s))
    }
}

/// The command line.
struct Options {
    scenarios: Vec<String>,
    systems: Vec<System>,
    /// `--legs N`: leg scenarios give every unit N goals and run until all are done.
    legs: Option<u32>,
    limits: Limits,
    csv: Option<String>,
    svg: Option<String>,
    check: bool,
}

const USAGE: &str = "usage: crowd [--scenario NAME]... [--seconds N] [--threads N] \
[--system ours|northstar] [--mover steering|stepper] [--legs N] [--no-congestion] [--csv FILE] \
[--svg FILE.svg] [--check]
scenarios: gap1, gap3, head_on, parked, one_point, army, mixed, corridors, corridors_large \
(all by default)";

/// The most goals `--legs` gives a unit.
const MAX_LEGS: u32 = 10_000;

fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut movers = Vec::new();
    let mut o = Options {
        scenarios: Vec::new(),
        systems: Vec::new(),
        legs: None,
        limits: Limits {
            threads: 1,
            seconds: None,
            congestion: true,
        },
        csv: None,
        svg: None,
        check: false,
    };
    let mut args = args.peekable();
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--scenario" => {
                for name in value()?.split(',') {
                    if !NAMES.contains(&name) {
                        return Err(format!("unknown scenario {name}; one of {NAMES:?}"));
                    }
                    o.scenarios.push(name.to_string());
                }
            }
            "--system" => {
                for name in value()?.split(',') {
                    o.systems.push(match name {
                        "ours" => System::Ours(Mover::Steering),
                        "northstar" => System::Northstar,
                        other => return Err(format!("unknown system {other}")),
                    });
                }
            }
            "--mover" => {
                for name in value()?.split(',') {
                    movers.push(match name {
                        "steering" => Mover::Steering,
                        "stepper" => Mover::Stepper,
                        other => return Err(format!("unknown mover {other}")),
                    });
                }
            }
            "--legs" => {
                let v = value()?;
                let n = v.parse::<u32>().ok().filter(|n| (1..=MAX_LEGS).contains(n));
                o.legs = Some(n.ok_or(format!("--legs {v}: 1 to {MAX_LEGS}"))?);
            }
            "--seconds" => {
                let v = value()?;
                let s = v.parse::<f64>().ok().filter(|s| *s > 0.0 && s.is_finite());
                o.limits.seconds = Some(s.ok_or(format!("--seconds {v}"))?);
            }
            "--threads" => {
                let v = value()?;
                let n = v.parse::<usize>().ok().filter(|&n| n > 0);
                o.limits.threads = n.ok_or(format!("--threads {v}"))?;
            }
            "--no-congestion" => o.limits.congestion = false,
            "--csv" => o.csv = Some(value()?),
            "--svg" => o.svg = Some(value()?),
            "--check" => o.check = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if let Some(svg) = o.svg.as_ref().filter(|s| !s.ends_with(".svg")) {
        return Err(format!(
            "--svg {svg}: the chart is an SVG, name a .svg file"
        ));
    }
    if o.scenarios.is_empty() {
        o.scenarios = NAMES.iter().map(|n| n.to_string()).collect();
    }
    if o.systems.is_empty() {
        o.systems = vec![System::Ours(Mover::Steering), System::Northstar];
    }
    if movers.is_empty() {
        movers = vec![Mover::Steering, Mover::Stepper];
    }
    // `ours` stands for each mover asked for, in place.
    o.systems = o
        .systems
        .iter()
        .flat_map(|&s| match s {
            System::Ours(_) => movers.iter().map(|&m| System::Ours(m)).collect(),
            other => vec![other],
        })
        .collect();
    o.systems.dedup();
    Ok(o)
}

fn main() -> ExitCode {
    let opts = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => return tilepath_bench::usage_error(&e, USAGE),
    };
    match run(&opts) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every scenario on every system, then reports.
fn run(opts: &Options) -> Result<ExitCode, String> {
    let started = Instant::now();
    let speed = ours::speed() / TILE;
    let mut scenarios = Vec::new();
    let mut rows = Vec::new();
    for name in &opts.scenarios {
        let seeds = Scenario::build(name, opts.legs).ok_or(format!("unknown scenario {name}"))?;
        let first = &seeds[0];
        eprintln!(
            "{name}: {} units ({} with an order) on {} × {}, {} seed(s)",
            first.units.len(),
            first.movers(),
            first.bits.size().width,
            first.bits.size().height,
            seeds.len()
        );
        for &system in &opts.systems {
            let mut result: Option<Result<Outcome, String>> = None;
            for scenario in &seeds {
                let run = match (system, scenario.northstar_na) {
                    (System::Ours(mover), _) => Ok(ours::run(scenario, &opts.limits, mover)),
                    (System::Northstar, Some(why)) => Err(why.to_string()),
                    (System::Northstar, None) => Ok(northstar::run(scenario, &opts.limits, speed)),
                };
                result = Some(match (result, run) {
                    (Some(Ok(mut all)), Ok(o)) => {
                        all.merge(&o);
                        Ok(all)
                    }
                    (Some(Err(e)), _) | (_, Err(e)) => Err(e),
                    (None, Ok(o)) => Ok(o),
                });
            }
            let row = Row {
                scenario: first.name,
                system,
                result: result.expect("at least one seed"),
            };
            eprintln!("  {}", row.summary());
            rows.push(row);
        }
        scenarios.extend(seeds.into_iter().take(1));
    }
    let threads = ComputeTaskPool::try_get().map_or(opts.limits.threads, |p| p.thread_num());
    if threads != opts.limits.threads {
        return Err(format!(
            "the compute pool has {threads} threads, not {}",
            opts.limits.threads
        ));
    }
    println!("{}", report::table(&rows, &scenarios, threads, DT));
    println!("full run: {:.0} s wall", started.elapsed().as_secs_f64());
    if let Some(path) = &opts.csv {
        std::fs::write(path, report::csv(&rows, threads)).map_err(|e| format!("{path}: {e}"))?;
        eprintln!("wrote {path}");
    }
    if let Some(path) = &opts.svg {
        let svg = chart::render(&rows)
            .ok_or("no rows to chart")?
            .map_err(|e| format!("cannot draw the chart: {e}"))?;
        std::fs::write(path, svg).map_err(|e| format!("{path}: {e}"))?;
        eprintln!("wrote {path}");
    }
    if opts.check {
        let bad: Vec<String> = rows
            .iter()
            .filter(|r| matches!(r.system, System::Ours(_)) && !r.clean())
            .map(Row::summary)
            .collect();
        if !bad.is_empty() {
            eprintln!(
                "check failed (deadlocks or overlaps):\n  {}",
                bad.join("\n  ")
            );
            return Ok(ExitCode::FAILURE);
        }
        eprintln!("check passed: every scenario of ours without deadlock or overlap");
    }
    Ok(ExitCode::SUCCESS)
}
