//! MovingAI benchmark runner: correctness against the stored optima and speed against peers.
//!
//! ```text
//! cargo run --release --example movingai -- [--algo NAME]... [--diameter D] [--maps DIR]
//!     [--check] [--smooth] [--limit N] [--sample N] SCEN...
//! ```
//!
//! NAME is one of our algorithms (`astar`, `jps`, `dijkstra`, `bfs`, `dfs`, `iddfs`,
//! `best-first`, `evasion`) or a peer run side by side on the same queries and the same
//! bit grid: `pf-astar` (the `pathfinding` crate's A*, same fixed-point costs, successors
//! in a stack-allocated `SmallVec`) and `gp-jps` (the `grid_pathfinding` crate's JPS).
//! One line per scen file and algorithm, then one `TOTAL` line per algorithm.
//! `--sample N` keeps every N-th problem of each file (an even spread over the length
//! buckets); `--limit N` keeps the first N (the shortest).
//! With `--diameter 1` the reference is the stored optimal length; for other diameters
//! the stored optima do not apply and our Dijkstra is the reference.
//! `--check` exits with status 1 on any mismatch of an optimal algorithm of ours.
//! Our pathfinders are warmed up on every problem of the file before the timed pass,
//! so the timed queries measure a warm pathfinder (`allocs_per_query` should be 0).
//!
//! `--memory SIZE` instead measures [`Pathfinder::memory_bytes`] of a warm pathfinder
//! per algorithm (default: all of ours) on a generated SIZE × SIZE clutter map
//! (`generate::random_rects`, seed 1) after 8 queries between far-apart free cells,
//! and prints bytes per cell and MiB.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use tilepath::grid::{Direction, GridSize, path_length};
use tilepath::prelude::*;
#[path = "support/benchmark.rs"]
mod benchmark;
use benchmark::BenchmarkSet;
use smallvec::SmallVec;
use tilepath::scenario::generate::{self, SplitMix64};
use tilepath::scenario::{Layer, movingai::Problem};
use tilepath::search::validate_path;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

const TOLERANCE: f64 = 0.005;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Runner {
    Ours(Algorithm),
    PfAstar,
    GpJps,
}

impl Runner {
    fn name(self) -> &'static str {
        match self {
            Runner::Ours(a) => a.name(),
            Runner::PfAstar => "pf-astar",
            Runner::GpJps => "gp-jps",
        }
    }

    fn optimal(self) -> bool {
        match self {
            Runner::Ours(a) => a.is_optimal(),
            Runner::PfAstar | Runner::GpJps => true,
        }
    }

    fn parse(s: &str) -> Result<Self, String> {
        match s {
            "pf-astar" => Ok(Runner::PfAstar),
            "gp-jps" => Ok(Runner::GpJps),
            _ => s
                .parse::<Algorithm>()
                .map(Runner::Ours)
                .map_err(|e| format!("{e}, or a peer: pf-astar gp-jps")),
        }
    }
}

struct Options {
    runners: Vec<Runner>,
    diameter: u32,
    maps: Option<PathBuf>,
    check: bool,
    smooth: bool,
    limit: Option<usize>,
    sample: usize,
    memory: Option<u32>,
    scens: Vec<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        runners: Vec::new(),
        diameter: 1,
        maps: None,
        check: false,
        smooth: false,
        limit: None,
        sample: 1,
        memory: None,
        scens: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--algo" => o.runners.push(Runner::parse(&value("--algo")?)?),
            "--diameter" => {
                o.diameter = value("--diameter")?
                    .parse()
                    .map_err(|_| "--diameter needs a positive integer".to_string())?
            }
            "--maps" => o.maps = Some(PathBuf::from(value("--maps")?)),
            "--limit" => {
                o.limit = Some(
                    value("--limit")?
                        .parse()
                        .map_err(|_| "--limit needs a count".to_string())?,
                )
            }
            "--sample" => {
                o.sample = value("--sample")?
                    .parse()
                    .ok()
                    .filter(|&n: &usize| n > 0)
                    .ok_or("--sample needs a positive count".to_string())?
            }
            "--memory" => {
                o.memory = Some(
                    value("--memory")?
                        .parse()
                        .ok()
                        .filter(|&n: &u32| (2..=65_535).contains(&n))
                        .ok_or("--memory needs a map side in 2..=65535".to_string())?,
                )
            }
            "--check" => o.check = true,
            "--smooth" => o.smooth = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ => o.scens.push(PathBuf::from(a)),
        }
    }
    if o.scens.is_empty() && o.memory.is_none() {
        return Err("no scen file given".into());
    }
    if o.runners.is_empty() && o.memory.is_some() {
        o.runners = Algorithm::ALL.map(Runner::Ours).to_vec();
    }
    if o.runners.is_empty() {
        o.runners.push(Runner::Ours(Algorithm::AStar));
    }
    Ok(o)
}

/// Per scen file and algorithm.
#[derive(Default)]
struct Tally {
    queries: usize,
    solved: usize,
    mismatches: usize,
    invalid: usize,
    max_abs_err: f64,
    times_us: Vec<f64>,
    expanded: u64,
    allocs: u64,
    ratio_sum: f64,
    ratio_n: usize,
    smooth_sum: f64,
    smooth_n: usize,
}

/// One query's outcome, whoever answered it.
struct Answer {
    path_len: Option<f64>,
    valid: bool,
    expanded: Option<u32>,
    smoothed: Option<f64>,
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}");
            }
            eprintln!(
                "usage: movingai [--algo NAME]... [--diameter D] [--maps DIR] [--check] [--smooth] [--limit N] [--sample N] SCEN...\n       movingai --memory SIZE [--algo NAME]..."
            );
            return ExitCode::from(2);
        }
    };
    if let Some(side) = opts.memory {
        return memory_table(side, &opts.runners);
    }
    let mut totals: Vec<(Runner, usize, usize, f64)> =
        opts.runners.iter().map(|&r| (r, 0, 0, 0.0)).collect();
    let mut failed_check = false;
    for scen in &opts.scens {
        let maps = opts
            .maps
            .clone()
            .unwrap_or_else(|| benchmark::default_maps_dir(scen));
        let set = match benchmark::load(scen, &maps) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let (map, mut problems) = prepare(set);
        if opts.sample > 1 {
            problems = problems.into_iter().step_by(opts.sample).collect();
        }
        if let Some(n) = opts.limit {
            problems.truncate(n);
        }
        let Some(layer) = map.layer(opts.diameter) else {
            eprintln!(
                "error: diameter {} is not supported (1..={})",
                opts.diameter,
                tilepath::scenario::MAX_DIAMETER
            );
            return ExitCode::from(2);
        };
        let reference = references(&map, &problems, opts.diameter);
        let name = scen
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        for (k, &runner) in opts.runners.iter().enumerate() {
            let t = run(runner, &map, layer, &problems, &reference, &opts);
            print_line(&name, runner, opts.diameter, &t, opts.smooth);
            let tot = &mut totals[k];
            tot.1 += t.queries;
            tot.2 += t.mismatches;
            tot.3 += t.times_us.iter().sum::<f64>();
            if opts.check
                && runner.optimal()
                && matches!(runner, Runner::Ours(_))
                && t.mismatches > 0
            {
                failed_check = true;
            }
        }
    }
    for (runner, queries, mismatches, sum_us) in totals {
        let mismatches = if runner.optimal() {
            mismatches.to_string()
        } else {
            "n/a".into()
        };
        println!(
            "TOTAL algo={} queries={queries} mismatches={mismatches} mean_us={:.2}",
            runner.name(),
            sum_us / queries.max(1) as f64
        );
    }
    if failed_check {
        eprintln!("check failed: an optimal algorithm disagreed with the reference");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Prints bytes per cell and MiB of a warm pathfinder per algorithm on a SIZE² clutter map.
fn memory_table(side: u32, runners: &[Runner]) -> ExitCode {
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
            Runner::Ours(a) => Some(*a),
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

fn prepare(set: BenchmarkSet) -> (CachedScenario, Vec<Problem>) {
    let map = CachedScenario::from_bits(set.map.into_bits()).expect("a parsed map is never empty");
    (map, set.problems)
}

/// Reference length per problem: the stored optimum for diameter 1, else our Dijkstra.
fn references(map: &CachedScenario, problems: &[Problem], diameter: u32) -> Vec<Option<f64>> {
    if diameter == 1 {
        return problems.iter().map(|p| Some(p.optimal)).collect();
    }
    let mut pf = Pathfinder::new();
    problems
        .iter()
        .map(|p| {
            let q = PathQuery::new(p.start, p.goal)
                .algorithm(Algorithm::Dijkstra)
                .diameter(diameter);
            pf.find(map, &q).ok().map(|s| s.length)
        })
        .collect()
}

fn run(
    runner: Runner,
    map: &CachedScenario,
    layer: &Layer,
    problems: &[Problem],
    reference: &[Option<f64>],
    opts: &Options,
) -> Tally {
    let mut t = Tally {
        times_us: Vec::with_capacity(problems.len()),
        ..Tally::default()
    };
    let mut pf = Pathfinder::new();
    let gp = (runner == Runner::GpJps).then(|| gp_grid(layer));
    let moves = (runner == Runner::PfAstar).then(|| move_table(layer));
    let query = |p: &Problem| {
        PathQuery::new(p.start, p.goal)
            .diameter(opts.diameter)
            .smooth(opts.smooth)
            .algorithm(match runner {
                Runner::Ours(a) => a,
                _ => Algorithm::AStar,
            })
    };
    if let Runner::Ours(_) = runner {
        // Warm-up: the buffers grow to the largest query of the file, untimed.
        for p in problems {
            let _ = pf.find(map, &query(p));
        }
    }
    for (p, &reference) in problems.iter().zip(reference) {
        let before = allocations();
        let started = Instant::now();
        let answer = match runner {
            Runner::Ours(_) => {
                let q = query(p);
                let r = pf.find(map, &q);
                let elapsed = started.elapsed();
                let allocs = allocations() - before;
                t.times_us.push(elapsed.as_secs_f64() * 1e6);
                t.allocs += allocs;
                match r {
                    Ok(stats) => Answer {
                        path_len: Some(stats.length),
                        valid: validate_path(layer, pf.path(), p.start, p.goal, q.connectivity)
                            .is_ok(),
                        expanded: Some(stats.expanded),
                        smoothed: opts.smooth.then_some(stats.smoothed_length),
                    },
                    Err(_) => Answer {
                        path_len: None,
                        valid: true,
                        expanded: Some(pf.last_expanded()),
                        smoothed: None,
                    },
                }
            }
            Runner::PfAstar => {
                let table = moves.as_deref().expect("built for pf-astar");
                let path = pf_astar(layer, table, p.start, p.goal);
                t.times_us.push(started.elapsed().as_secs_f64() * 1e6);
                t.allocs += allocations() - before;
                peer_answer(layer, p, path)
            }
            Runner::GpJps => {
                let path = gp_jps(gp.as_ref().expect("built for gp-jps"), p.start, p.goal);
                t.times_us.push(started.elapsed().as_secs_f64() * 1e6);
                t.allocs += allocations() - before;
                peer_answer(layer, p, path)
            }
        };
        t.queries += 1;
        t.expanded += u64::from(answer.expanded.unwrap_or(0));
        if !answer.valid {
            t.invalid += 1;
        }
        match (answer.path_len, reference) {
            (Some(len), Some(opt)) => {
                t.solved += 1;
                let err = (len - opt).abs();
                t.max_abs_err = t.max_abs_err.max(err);
                if err > TOLERANCE || !answer.valid {
                    t.mismatches += 1;
                }
                if opt > 0.0 {
                    t.ratio_sum += len / opt;
                    t.ratio_n += 1;
                    if let Some(s) = answer.smoothed {
                        t.smooth_sum += s / opt;
                        t.smooth_n += 1;
                    }
                }
            }
            (Some(_), None) => {
                t.solved += 1;
                t.mismatches += 1;
            }
            (None, Some(_)) => t.mismatches += 1,
            (None, None) => {}
        }
    }
    t
}

fn peer_answer(layer: &Layer, p: &Problem, path: Option<Vec<Cell>>) -> Answer {
    match path {
        Some(cells) => Answer {
            path_len: Some(path_length(&cells)),
            valid: validate_path(layer, &cells, p.start, p.goal, Connectivity::Octile).is_ok(),
            expanded: None,
            smoothed: None,
        },
        None => Answer {
            path_len: None,
            valid: true,
            expanded: None,
            smoothed: None,
        },
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

fn print_line(scen: &str, runner: Runner, diameter: u32, t: &Tally, smooth: bool) {
    let mut times = t.times_us.clone();
    times.sort_by(f64::total_cmp);
    let n = t.queries.max(1) as f64;
    let mean = times.iter().sum::<f64>() / n;
    let expanded = if matches!(runner, Runner::Ours(_)) {
        format!("{:.1}", t.expanded as f64 / n)
    } else {
        "n/a".into()
    };
    let mismatches = if runner.optimal() {
        t.mismatches.to_string()
    } else {
        "n/a".into()
    };
    let mut line = format!(
        "scen={scen} algo={} diameter={diameter} queries={} solved={} mismatches={mismatches} max_abs_err={:.6} mean_us={mean:.2} p50_us={:.2} p99_us={:.2} expanded_mean={expanded} allocs_per_query={:.2}",
        runner.name(),
        t.queries,
        t.solved,
        t.max_abs_err,
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        t.allocs as f64 / n,
    );
    if !runner.optimal() || t.invalid > 0 {
        line += &format!(
            " invalid={} length_ratio={:.4}",
            t.invalid,
            t.ratio_sum / t.ratio_n.max(1) as f64
        );
    }
    if smooth && matches!(runner, Runner::Ours(_)) {
        line += &format!(
            " smooth_ratio={:.4}",
            t.smooth_sum / t.smooth_n.max(1) as f64
        );
    }
    println!("{line}");
}

/// The legal moves of every cell as a bit mask over [`Direction::ALL`], decided by
/// [`validate_path`] on each one-step path (the one implementation of the move rules).
/// Built once per map, untimed, so the peer's successor function is a table lookup
/// like ours.
fn move_table(layer: &Layer) -> Vec<u8> {
    let size = layer.size();
    (0..size.area())
        .map(|i| {
            let c = size.cell(i);
            Direction::ALL
                .iter()
                .enumerate()
                .filter(|&(_, &d)| {
                    let n = c.step(d);
                    validate_path(layer, &[c, n], c, n, Connectivity::Octile).is_ok()
                })
                .fold(0u8, |mask, (k, _)| mask | (1 << k))
        })
        .collect()
}

/// The `pathfinding` crate's A* over the same moves and costs as ours.
fn pf_astar(layer: &Layer, moves: &[u8], start: Cell, goal: Cell) -> Option<Vec<Cell>> {
    let size = layer.size();
    let successors = |c: &Cell| {
        let mut out: SmallVec<[(Cell, u64); 8]> = SmallVec::new();
        let mut mask = moves[size.index(*c)];
        while mask != 0 {
            let d = Direction::ALL[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            out.push((c.step(d), d.cost()));
        }
        out
    };
    pathfinding::prelude::astar(
        &start,
        successors,
        |c| Connectivity::Octile.heuristic(*c, goal),
        |c| *c == goal,
    )
    .map(|(path, _)| path)
}

fn gp_grid(layer: &Layer) -> grid_pathfinding::PathingGrid {
    use grid_util::grid::Grid;
    let size = layer.size();
    let mut bools =
        grid_util::grid::BoolGrid::new(size.width as usize, size.height as usize, false);
    for y in 0..size.height {
        for x in 0..size.width {
            if !layer.is_free_xy(x, y) {
                bools.set(x as usize, y as usize, true);
            }
        }
    }
    let mut g = grid_pathfinding::PathingGrid::new(size.width as usize, size.height as usize, true);
    g.grid = bools;
    g.update_all_neighbours();
    g.generate_components();
    g
}

fn gp_jps(grid: &grid_pathfinding::PathingGrid, start: Cell, goal: Cell) -> Option<Vec<Cell>> {
    use grid_util::point::Point;
    grid.get_path_single_goal(
        Point::new(start.x, start.y),
        Point::new(goal.x, goal.y),
        false,
    )
    .map(|p| p.into_iter().map(|q| Cell::new(q.x, q.y)).collect())
}
