//! Army benchmark: 1,000 or 5,000 units spread over a 512 × 512 map get one order, and
//! we count the frames, time, CPU and memory until every unit has its path, and how good
//! the paths are, for per-unit search, shared goal fields, shared approaches and
//! bevy_northstar 0.7.
//!
//! ```text
//! cargo run --release -p tilepath_bench --example army -- [--map NAME]... [--units N]... [--order move|formation]...
//!     [--threads N]... [--mode per-unit|fields|approach|northstar]... [--frames CAP] [--repeat N]
//!     [--csv FILE] [--chart FILE.svg] [--check]
//! cargo run --release -p tilepath_bench --example army -- --chart-from FILE.csv --chart FILE.svg
//! ```
//!
//! Every option takes one value or a comma-separated list and may be repeated; without
//! them the full matrix runs: maps AR0011SR and maze512-4-0 (MovingAI, from
//! `$MOVINGAI_DIR` or `../shared/movingai`) and a generated countryside map with terrain
//! weights, 1,000 and 5,000 units, a move order (every unit `PathRequest::new(point)`;
//! the plugin claims distinct cells around the point), a formation order (each unit
//! its own cell in rings around the point) and a gather order (every unit to exactly
//! the point, `claim_goal(false)`), 1 and 2 solver threads, and four modes:
//! per-unit search (`GroupOrders::PerUnit`), shared fields (the default settings), shared
//! approaches (`GroupOrders::SharedApproach`: not exact, bounded) and bevy_northstar. Headless
//! (`MinimalPlugins`), default frame budget (2 ms).
//!
//! Each case runs in its own child process (the compute pool's thread count is fixed
//! once per process, and so the peak memory is the case's own). `--repeat N` runs the
//! modes of each map, unit count, order and thread count N times in turn (A, B, C, A,
//! B, C, ...), so that a slower spell of a shared machine falls on every mode alike, and
//! reports each case's run of median CPU time with the range of all N; after the table
//! it prints each mode's median CPU over northstar's. The driver then checks
//! every path against the unit's own optimal cost (the core's A* from the same start to
//! the same end, same movement profile), prints a markdown table and optionally writes
//! the rows as CSV and a chart. `--check` fails (exit 1) when one of our paths is invalid,
//! a path of an exact mode is not optimal, or a case of ours did not finish; `--chart-from` draws the chart again
//! from a CSV without running anything: a cheap correctness run is
//! `--map AR0011SR --units 1000 --threads 1 --mode per-unit,fields --check`.

mod chart;
mod measure;
mod northstar;
mod ours;
mod report;
mod scene;
#[cfg(test)]
mod tests;
#[path = "../../../../tests/stress/watch.rs"]
mod watch;

use std::process::{Command, ExitCode, Stdio};

use bevy::tasks::ComputeTaskPool;
use bevy_tilepath::prelude::Cell;
use tilepath_bench::task_pool;

use measure::Outcome;
use scene::{Army, MAPS, Scene};

/// How the units are answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Our plugin, one search per unit (`GroupOrders::PerUnit`).
    PerUnit,
    /// Our plugin with its default settings (shared goal fields on).
    Fields,
    /// Our plugin with `GroupOrders::SharedApproach`: distinct goals of one
    /// order share a field for the long way (not exact, bounded).
    Approach,
    /// bevy_northstar 0.7 with its defaults.
    Northstar,
}

impl Mode {
    const ALL: [Mode; 4] = [Mode::PerUnit, Mode::Fields, Mode::Approach, Mode::Northstar];

    pub fn name(self) -> &'static str {
        match self {
            Mode::PerUnit => "per-unit",
            Mode::Fields => "fields",
            Mode::Approach => "approach",
            Mode::Northstar => "northstar",
        }
    }

    /// True for the modes whose every path must equal the unit's own optimum.
    pub fn exact(self) -> bool {
        matches!(self, Mode::PerUnit | Mode::Fields)
    }
}

/// What the units are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Every unit to the same point (our plugin claims distinct cells around it).
    Move,
    /// Each unit to its own cell of a formation around the point.
    Formation,
    /// Every unit to exactly the point (`claim_goal(false)`: one shared goal cell, what a
    /// gathering or attack order on one target asks).
    Gather,
}

impl Order {
    const ALL: [Order; 3] = [Order::Move, Order::Formation, Order::Gather];

    pub fn name(self) -> &'static str {
        match self {
            Order::Move => "move",
            Order::Formation => "formation",
            Order::Gather => "gather",
        }
    }

    /// The goal cell given to unit `i`.
    pub fn goal(self, army: &Army, i: usize) -> Cell {
        match self {
            Order::Move | Order::Gather => army.target,
            Order::Formation => army.slots[i],
        }
    }

    /// Whether the plugin claims distinct cells around the goal.
    pub fn claims(self) -> bool {
        self != Order::Gather
    }
}

/// One run.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub map: String,
    pub units: usize,
    pub order: Order,
    pub threads: usize,
    pub mode: Mode,
}

/// The command line.
struct Options {
    maps: Vec<String>,
    units: Vec<usize>,
    orders: Vec<Order>,
    threads: Vec<usize>,
    modes: Vec<Mode>,
    frames: u32,
    repeat: usize,
    csv: Option<String>,
    chart: Option<String>,
    chart_from: Option<String>,
    check: bool,
    child: bool,
}

const USAGE: &str = "usage: army [--map NAME]... [--units N]... [--order move|formation]... \
[--threads N]... [--mode per-unit|fields|approach|northstar]... [--frames CAP] [--repeat N] \
[--csv FILE] [--chart FILE.svg] [--check] | --chart-from FILE.csv --chart FILE.svg";

fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        maps: Vec::new(),
        units: Vec::new(),
        orders: Vec::new(),
        threads: Vec::new(),
        modes: Vec::new(),
        frames: 20_000,
        repeat: 1,
        csv: None,
        chart: None,
        chart_from: None,
        check: false,
        child: false,
    };
    let mut args = args.peekable();
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        let list = |v: String| -> Vec<String> { v.split(',').map(str::to_string).collect() };
        let count = |v: &str| v.parse::<usize>().ok().filter(|&n| n > 0);
        match a.as_str() {
            "--map" => {
                for m in list(value()?) {
                    if !MAPS.contains(&m.as_str()) {
                        return Err(format!("unknown map {m}; one of {MAPS:?}"));
                    }
                    o.maps.push(m);
                }
            }
            "--units" => {
                for v in list(value()?) {
                    o.units.push(count(&v).ok_or(format!("--units {v}"))?);
                }
            }
            "--threads" => {
                for v in list(value()?) {
                    o.threads.push(count(&v).ok_or(format!("--threads {v}"))?);
                }
            }
            "--order" => {
                for v in list(value()?) {
                    let order = Order::ALL.into_iter().find(|x| x.name() == v);
                    o.orders.push(order.ok_or(format!("--order {v}"))?);
                }
            }
            "--mode" => {
                for v in list(value()?) {
                    let mode = Mode::ALL.into_iter().find(|x| x.name() == v);
                    o.modes.push(mode.ok_or(format!("--mode {v}"))?);
                }
            }
            "--frames" => {
                let v = value()?;
                o.frames = count(&v).ok_or(format!("--frames {v}"))? as u32;
            }
            "--repeat" => {
                let v = value()?;
                o.repeat = count(&v).ok_or(format!("--repeat {v}"))?;
            }
            "--csv" => o.csv = Some(value()?),
            "--chart" => o.chart = Some(value()?),
            "--chart-from" => o.chart_from = Some(value()?),
            "--check" => o.check = true,
            "--child" => o.child = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if let Some(chart) = o.chart.as_ref().filter(|c| !c.ends_with(".svg")) {
        return Err(format!(
            "--chart {chart}: the chart is an SVG, name a .svg file"
        ));
    }
    if o.maps.is_empty() {
        o.maps = MAPS.iter().map(|m| m.to_string()).collect();
    }
    if o.units.is_empty() {
        o.units = vec![1_000, 5_000];
    }
    if o.orders.is_empty() {
        o.orders = Order::ALL.to_vec();
    }
    if o.threads.is_empty() {
        o.threads = vec![1, 2];
    }
    if o.modes.is_empty() {
        o.modes = Mode::ALL.to_vec();
    }
    Ok(o)
}

fn main() -> ExitCode {
    let opts = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => return tilepath_bench::usage_error(&e, USAGE),
    };
    let result = if opts.child {
        child(&opts)
    } else if let Some(csv) = &opts.chart_from {
        redraw(csv, opts.chart.as_deref().unwrap_or("army.svg"))
    } else {
        drive(&opts)
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the one case the options name and prints its outcome.
fn child(opts: &Options) -> Result<ExitCode, String> {
    let case = Case {
        map: opts.maps[0].clone(),
        units: opts.units[0],
        order: opts.orders[0],
        threads: opts.threads[0],
        mode: opts.modes[0],
    };
    let scene = Scene::load(&case.map)?;
    let army = Army::new(&scene, &scene.map(), case.units);
    let outcome = match case.mode {
        Mode::Northstar => northstar::run(&scene, &army, &case, opts.frames),
        _ => ours::run(&scene, &army, &case, opts.frames),
    };
    let pool = ComputeTaskPool::get().thread_num();
    if pool != case.threads {
        return Err(format!(
            "the compute pool has {pool} threads, not {}",
            case.threads
        ));
    }
    print!("{}", outcome.to_text());
    Ok(ExitCode::SUCCESS)
}

/// Runs every case of the matrix in a child process, then reports.
fn drive(opts: &Options) -> Result<ExitCode, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let mut references = report::References::default();
    let mut rows = Vec::new();
    for map in &opts.maps {
        let scene = Scene::load(map)?;
        let cached = scene.map();
        for &units in &opts.units {
            let army = Army::new(&scene, &cached, units);
            eprintln!(
                "{map}: {units} units, point {:?}, formation radius {:.0}",
                army.target,
                army.slots
                    .iter()
                    .map(|s| f64::from(s.chebyshev(army.target)))
                    .fold(0.0, f64::max)
            );
            for &order in &opts.orders {
                for &threads in &opts.threads {
                    let case = |mode| Case {
                        map: map.clone(),
                        units,
                        order,
                        threads,
                        mode,
                    };
                    let mut runs: Vec<Vec<Outcome>> = vec![Vec::new(); opts.modes.len()];
                    for _ in 0..opts.repeat {
                        for (k, &mode) in opts.modes.iter().enumerate() {
                            let outcome = run_child(&exe, &case(mode), opts.frames)?;
                            eprintln!(
                                "  {} {units} {} {threads}t {}: cpu {:.0} ms",
                                map,
                                order.name(),
                                mode.name(),
                                outcome.cpu_ms
                            );
                            runs[k].push(outcome);
                        }
                    }
                    for (k, &mode) in opts.modes.iter().enumerate() {
                        let cpu: Vec<f64> = runs[k].iter().map(|o| o.cpu_ms).collect();
                        let outcome = median_run(std::mem::take(&mut runs[k]));
                        let mut row = references.row(&scene, &cached, case(mode), outcome);
                        row.cpu_runs = cpu;
                        eprintln!("  {}", row.summary());
                        rows.push(row);
                    }
                }
            }
        }
    }
    let wall = started.elapsed().as_secs_f64();
    println!("{}", report::table(&rows, opts.frames));
    if opts.repeat > 1 {
        print!("{}", report::over_northstar(&rows));
    }
    println!("full run: {wall:.0} s wall");
    if let Some(path) = &opts.csv {
        std::fs::write(path, report::csv(&rows)).map_err(|e| format!("{path}: {e}"))?;
        eprintln!("wrote {path}");
    }
    if let Some(path) = &opts.chart {
        write_chart(&rows, path)?;
    }
    if opts.check {
        let bad: Vec<String> = rows
            .iter()
            .filter(|r| r.case.mode != Mode::Northstar)
            .filter(|r| {
                !r.outcome.done || (r.case.mode.exact() && r.mismatches > 0) || r.invalid > 0
            })
            .map(|r| r.summary())
            .collect();
        if !bad.is_empty() {
            eprintln!("check failed:\n  {}", bad.join("\n  "));
            return Ok(ExitCode::FAILURE);
        }
        eprintln!("check passed: every path of ours valid and optimal");
    }
    Ok(ExitCode::SUCCESS)
}

/// The run of median CPU time of `runs` (the lower of the two middle ones for an even
/// count).
fn median_run(mut runs: Vec<Outcome>) -> Outcome {
    runs.sort_by(|a, b| a.cpu_ms.total_cmp(&b.cpu_ms));
    let middle = (runs.len() - 1) / 2;
    runs.swap_remove(middle)
}

/// Draws the chart again from a CSV this program wrote.
fn redraw(csv: &str, out: &str) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{csv}: {e}"))?;
    let rows = report::rows_from_csv(&text)?;
    write_chart(&rows, out)?;
    Ok(ExitCode::SUCCESS)
}

/// Draws the chart of `rows` into the SVG file `path`.
fn write_chart(rows: &[report::Row], path: &str) -> Result<(), String> {
    let svg = chart::render(rows)
        .ok_or("no rows to chart")?
        .map_err(|e| format!("cannot draw the chart: {e}"))?;
    std::fs::write(path, svg).map_err(|e| format!("{path}: {e}"))?;
    eprintln!("wrote {path}");
    Ok(())
}

/// Runs `case` in a child process of this program and reads its outcome.
fn run_child(exe: &std::path::Path, case: &Case, frames: u32) -> Result<Outcome, String> {
    let output = Command::new(exe)
        .args(["--child", "--map", &case.map])
        .args(["--units", &case.units.to_string()])
        .args(["--order", case.order.name()])
        .args(["--threads", &case.threads.to_string()])
        .args(["--mode", case.mode.name()])
        .args(["--frames", &frames.to_string()])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !output.status.success() {
        return Err(format!("{case:?} failed: {}", output.status));
    }
    Outcome::parse(&String::from_utf8_lossy(&output.stdout))
}
