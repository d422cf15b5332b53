//! The MovingAI runner itself: options, the timed loop and the checks, shared by the
//! `movingai` example and the `peers` example (which adds bevy_northstar's searches as
//! peers). The benchmark loader and the counting allocator stay in the core's
//! `examples/support/`, where the core's tests and bench include them too.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use tilepath::grid::{cost_to_f64, path_length};
use tilepath::prelude::*;
#[path = "../../../tilepath/examples/support/benchmark.rs"]
mod benchmark;
use tilepath::scenario::movingai::Problem;
use tilepath::scenario::movingai_terrain::{TerrainMap, TerrainSpec};
use tilepath::scenario::{Layer, ProfileId, Weights};
use tilepath::search::validate_path;

#[path = "../../../tilepath/examples/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

#[path = "jump_tables.rs"]
mod jump_tables;
#[path = "memory.rs"]
mod memory;
#[path = "peers.rs"]
mod peers;
#[path = "report.rs"]
mod report;
use peers::PeerCosts;
pub use peers::{ExternalPeer, PeerSolver};
use report::{Answer, Expected, Tally, Total};

/// The profile `--terrain` registers its spec as.
const TERRAIN_PROFILE: ProfileId = ProfileId(1);

/// Who answers the queries: one of ours (with the open list asked for: `NAME:auto`,
/// `NAME:heap` or `NAME:radix`; none is the query's default, `auto`) or a peer.
#[derive(Clone, Copy)]
enum Runner {
    Ours(Algorithm, Option<OpenList>),
    PfAstar,
    GpJps,
    /// A peer the including crate adds (see [`main_with`]).
    External(&'static dyn ExternalPeer),
}

impl PartialEq for Runner {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Runner {
    fn name(self) -> String {
        match self {
            Runner::Ours(a, None) => a.name().into(),
            Runner::Ours(a, Some(q)) => format!("{}:{}", a.name(), q.name()),
            Runner::PfAstar => "pf-astar".into(),
            Runner::GpJps => "gp-jps".into(),
            Runner::External(p) => p.name().into(),
        }
    }

    fn optimal(self) -> bool {
        match self {
            Runner::Ours(a, _) => a.is_optimal(),
            Runner::PfAstar | Runner::GpJps => true,
            Runner::External(p) => p.optimal(),
        }
    }

    /// Peers that only know uniform costs (refused with `--terrain`).
    fn unweighted_only(self) -> bool {
        matches!(self, Runner::GpJps | Runner::External(_))
    }

    fn is_ours(self) -> bool {
        matches!(self, Runner::Ours(..))
    }

    fn parse(s: &str, external: &'static [&'static dyn ExternalPeer]) -> Result<Self, String> {
        if let Some(&p) = external.iter().find(|p| p.name() == s) {
            return Ok(Runner::External(p));
        }
        match s {
            "pf-astar" => Ok(Runner::PfAstar),
            "gp-jps" => Ok(Runner::GpJps),
            _ => {
                let (name, queue) = s.split_once(':').unwrap_or((s, ""));
                let queue = match queue {
                    "" => None,
                    q => Some(
                        OpenList::ALL
                            .into_iter()
                            .find(|o| o.name() == q)
                            .ok_or(format!("unknown open list {q:?}: use auto, heap or radix"))?,
                    ),
                };
                name.parse::<Algorithm>()
                    .map(|a| Runner::Ours(a, queue))
                    .map_err(|e| {
                        let names: Vec<&str> = ["pf-astar", "gp-jps"]
                            .into_iter()
                            .chain(external.iter().map(|p| p.name()))
                            .collect();
                        format!("{e}, or a peer: {}", names.join(" "))
                    })
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Reference {
    Stored,
    Dijkstra,
}

struct Options {
    runners: Vec<Runner>,
    diameter: u32,
    maps: Option<PathBuf>,
    terrain: Option<TerrainSpec>,
    reference: Option<Reference>,
    tolerance: f64,
    check: bool,
    smooth: bool,
    limit: Option<usize>,
    sample: usize,
    memory: Option<u32>,
    jump_tables: bool,
    families: bool,
    scens: Vec<PathBuf>,
}

impl Options {
    fn reference(&self) -> Reference {
        self.reference
            .unwrap_or(if self.diameter == 1 && self.terrain.is_none() {
                Reference::Stored
            } else {
                Reference::Dijkstra
            })
    }
}

fn parse_args(external: &'static [&'static dyn ExternalPeer]) -> Result<Options, String> {
    let mut o = Options {
        runners: Vec::new(),
        diameter: 1,
        maps: None,
        terrain: None,
        reference: None,
        tolerance: 0.005,
        check: false,
        smooth: false,
        limit: None,
        sample: 1,
        memory: None,
        jump_tables: false,
        families: false,
        scens: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--algo" => o.runners.push(Runner::parse(&value("--algo")?, external)?),
            "--diameter" => {
                o.diameter = value("--diameter")?
                    .parse()
                    .map_err(|_| "--diameter needs a positive integer".to_string())?
            }
            "--maps" => o.maps = Some(PathBuf::from(value("--maps")?)),
            "--terrain" => {
                let spec = value("--terrain")?;
                o.terrain = Some(TerrainSpec::parse(&spec).map_err(|e| {
                    let entry = spec_entry(&spec, &e);
                    format!("--terrain {spec:?}: {e}{entry}")
                })?);
            }
            "--reference" => {
                o.reference = Some(match value("--reference")?.as_str() {
                    "stored" => Reference::Stored,
                    "dijkstra" => Reference::Dijkstra,
                    other => return Err(format!("--reference {other}: use stored or dijkstra")),
                })
            }
            "--tolerance" => {
                o.tolerance = value("--tolerance")?
                    .parse()
                    .ok()
                    .filter(|t: &f64| t.is_finite() && *t >= 0.0)
                    .ok_or("--tolerance needs a non-negative number".to_string())?
            }
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
            "--jump-tables" => o.jump_tables = true,
            "--families" => o.families = true,
            "--smooth" => o.smooth = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ => o.scens.push(PathBuf::from(a)),
        }
    }
    if o.scens.is_empty() && o.memory.is_none() {
        return Err("no scen file given".into());
    }
    if let Some(r) = o.runners.iter().find(|r| r.unweighted_only())
        && o.terrain.is_some()
    {
        return Err(format!(
            "{} has no terrain weights; leave it out with --terrain",
            r.name()
        ));
    }
    if o.runners.is_empty() && o.memory.is_some() {
        o.runners = Algorithm::ALL.map(|a| Runner::Ours(a, None)).to_vec();
    }
    if o.runners.is_empty() {
        o.runners.push(Runner::Ours(Algorithm::AStar, None));
    }
    Ok(o)
}

/// ` (entry "...")` for a spec error that names an entry, to show the user the text.
fn spec_entry(spec: &str, e: &tilepath::scenario::movingai_terrain::TerrainSpecError) -> String {
    use tilepath::scenario::movingai_terrain::TerrainSpecError as E;
    let entry = match *e {
        E::Empty => return String::new(),
        E::EmptyEntry { entry }
        | E::NotAscii { entry, .. }
        | E::MissingEquals { entry }
        | E::MissingWeight { entry }
        | E::BadWeight { entry }
        | E::WeightOutOfRange { entry, .. }
        | E::Duplicate { entry, .. } => entry,
    };
    spec.split(',')
        .nth(entry)
        .map_or(String::new(), |t| format!(" (entry {t:?})"))
}

const USAGE: &str = "usage: movingai [--algo NAME]... [--diameter D] [--maps DIR] [--terrain SPEC] [--reference stored|dijkstra] [--tolerance X] [--check] [--smooth] [--families] [--limit N] [--sample N] SCEN...\n       movingai --memory SIZE [--algo NAME]...\n       movingai --jump-tables [--diameter D] [--maps DIR] SCEN...";

/// Runs the runner on the command line's arguments, with `external` peers selectable by
/// name beside ours and the built-in ones.
pub fn main_with(external: &'static [&'static dyn ExternalPeer]) -> ExitCode {
    let opts = match parse_args(external) {
        Ok(o) => o,
        Err(e) => return tilepath_bench::usage_error(&e, USAGE),
    };
    if let Some(side) = opts.memory {
        return memory::memory_table(side, &opts.runners);
    }
    if opts.jump_tables {
        return jump_tables::jump_table_report(&opts.scens, opts.maps.as_deref(), opts.diameter);
    }
    if opts.terrain.is_some() || opts.reference.is_some() {
        let terrain = opts
            .terrain
            .as_ref()
            .map_or("none".into(), |s| s.to_string());
        println!(
            "# terrain={terrain} reference={} tolerance={}",
            match opts.reference() {
                Reference::Stored => "stored",
                Reference::Dijkstra => "dijkstra",
            },
            opts.tolerance
        );
    }
    let mut totals: Vec<Total> = opts.runners.iter().map(|_| Total::default()).collect();
    // Per map family (with `--families`), in order of first appearance.
    let mut families: Vec<(String, Vec<Total>)> = Vec::new();
    let mut failed_check = false;
    for scen in &opts.scens {
        let (map, profile, problems) = match load(scen, &opts) {
            Ok(loaded) => loaded,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let name = scen_name(scen);
        let reference = references(&map, profile, &problems, &opts);
        for (k, &runner) in opts.runners.iter().enumerate() {
            let t = run(runner, &map, profile, &problems, &reference, &opts);
            report::print_line(&name, runner, opts.diameter, &t, opts.smooth);
            totals[k].add(&t);
            if opts.families {
                let family = report::family(&name);
                let at = match families.iter().position(|(f, _)| *f == family) {
                    Some(at) => at,
                    None => {
                        let empty = opts.runners.iter().map(|_| Total::default()).collect();
                        families.push((family.to_string(), empty));
                        families.len() - 1
                    }
                };
                families[at].1[k].add(&t);
            }
            let wrong = t.invalid > 0 || t.wrong_cost > 0 || (runner.optimal() && t.mismatches > 0);
            failed_check |= opts.check && runner.is_ours() && wrong;
        }
    }
    for (family, totals) in &families {
        for (runner, total) in opts.runners.iter().zip(totals) {
            total.print(*runner, &format!("FAMILY family={family}"));
        }
    }
    for (runner, total) in opts.runners.iter().zip(&totals) {
        total.print(*runner, "TOTAL");
    }
    if failed_check {
        eprintln!(
            "check failed: an optimal algorithm disagreed with the reference, or a path was invalid or misreported its cost"
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// The scen file's name, as the output lines show it.
fn scen_name(scen: &Path) -> String {
    scen.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// The scen file's problems and map, read from `maps` or else the maps folder beside it.
fn load_set(scen: &Path, maps: Option<&Path>) -> Result<benchmark::BenchmarkSet, String> {
    let maps = maps.map_or_else(|| benchmark::default_maps_dir(scen), Path::to_path_buf);
    benchmark::load(scen, &maps).map_err(|e| e.to_string())
}

/// The scen file's map (with terrain and the spec's profile under `--terrain`), the
/// profile to query and the selected problems; checks the diameter.
fn load(scen: &Path, opts: &Options) -> Result<(CachedScenario, ProfileId, Vec<Problem>), String> {
    let set = load_set(scen, opts.maps.as_deref())?;
    let (map, profile) = match &opts.terrain {
        None => (
            CachedScenario::from_bits(set.map.into_bits()).map_err(|e| e.to_string())?,
            ProfileId::DEFAULT,
        ),
        Some(spec) => {
            let path = &set.map_path;
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let terrain =
                TerrainMap::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut map = terrain.into_scenario().map_err(|e| e.to_string())?;
            map.set_profile(TERRAIN_PROFILE, spec.profile());
            (map, TERRAIN_PROFILE)
        }
    };
    let mut problems = set.problems;
    if opts.sample > 1 {
        problems = problems.into_iter().step_by(opts.sample).collect();
    }
    if let Some(n) = opts.limit {
        problems.truncate(n);
    }
    if map.layer_for(profile, opts.diameter).is_none() {
        return Err(format!(
            "diameter {} is not supported (1..={})",
            opts.diameter,
            tilepath::scenario::MAX_DIAMETER
        ));
    }
    Ok((map, profile, problems))
}

/// The reference per problem (see `--reference`).
fn references(
    map: &CachedScenario,
    profile: ProfileId,
    problems: &[Problem],
    opts: &Options,
) -> Vec<Expected> {
    if opts.reference() == Reference::Stored {
        return problems
            .iter()
            .map(|p| Expected::Stored(p.optimal))
            .collect();
    }
    let mut pf = Pathfinder::new();
    problems
        .iter()
        .map(|p| {
            let q = PathQuery::new(p.start, p.goal)
                .algorithm(Algorithm::Dijkstra)
                .profile(profile)
                .diameter(opts.diameter);
            pf.find(map, &q)
                .map_or(Expected::NoPath, |s| Expected::Exact(s.cost))
        })
        .collect()
}

fn run(
    runner: Runner,
    map: &CachedScenario,
    profile: ProfileId,
    problems: &[Problem],
    reference: &[Expected],
    opts: &Options,
) -> Tally {
    let layer = map
        .layer_for(profile, opts.diameter)
        .expect("checked when loading");
    let weights = map.weights(profile).expect("registered when loading");
    let weighted = opts.terrain.is_some();
    let mut t = Tally {
        times_us: Vec::with_capacity(problems.len()),
        ..Tally::default()
    };
    let mut pf = Pathfinder::new();
    // Preprocessing, timed apart from the queries: the JPS+ table, the peers' grids.
    let prep = Instant::now();
    let gp = (runner == Runner::GpJps).then(|| peers::gp_grid(layer));
    let mut external = match runner {
        Runner::External(p) => Some(p.prepare(layer)),
        _ => None,
    };
    if matches!(runner, Runner::Ours(Algorithm::JpsPlus, _)) {
        // Timed as a fresh build even when an earlier runner already built the table.
        if layer.jump_table().is_some() {
            std::hint::black_box(tilepath::scenario::JumpTable::new(layer.bits()));
        } else {
            layer.build_jump_table();
        }
    }
    // Auto's landmark table on a weighted layer, timed as a fresh build likewise.
    let landmarks =
        matches!(runner, Runner::Ours(Algorithm::Auto, _)) && weights.uniform().is_none();
    if landmarks {
        if layer.landmarks().is_some() {
            std::hint::black_box(tilepath::scenario::Landmarks::build(layer.bits(), weights));
        } else {
            layer.build_landmarks(weights);
        }
    }
    if gp.is_some()
        || external.is_some()
        || landmarks
        || matches!(runner, Runner::Ours(Algorithm::JpsPlus, _))
    {
        t.prep_ms = Some(prep.elapsed().as_secs_f64() * 1e3);
    }
    let moves = (runner == Runner::PfAstar).then(|| peers::move_table(layer));
    let peer_costs = if weighted {
        PeerCosts::Weighted(weights)
    } else {
        PeerCosts::Unit
    };
    let query = |p: &Problem| {
        let q = PathQuery::new(p.start, p.goal)
            .profile(profile)
            .diameter(opts.diameter)
            .smooth(opts.smooth);
        match runner {
            Runner::Ours(a, queue) => q.algorithm(a).open_list(queue.unwrap_or(q.open_list)),
            _ => q.algorithm(Algorithm::AStar),
        }
    };
    if runner.is_ours() {
        // Warm-up: the buffers grow to the largest query of the file, untimed.
        for p in problems {
            let _ = pf.find(map, &query(p));
        }
    }
    for (p, &expected) in problems.iter().zip(reference) {
        let before = allocations();
        let started = Instant::now();
        let (answer, exact) = match runner {
            Runner::Ours(..) => {
                let q = query(p);
                let r = pf.find(map, &q);
                let elapsed = started.elapsed();
                t.allocs += allocations() - before;
                t.times_us.push(elapsed.as_secs_f64() * 1e6);
                match r {
                    Ok(stats) => (
                        Answer {
                            value: Some(if weighted {
                                cost_to_f64(stats.cost)
                            } else {
                                stats.length
                            }),
                            valid: validate_path(
                                layer,
                                pf.path(),
                                p.start,
                                p.goal,
                                q.options.connectivity,
                            )
                            .is_ok(),
                            cost_ok: weights.path_cost(pf.path()) == Some(stats.cost),
                            expanded: Some(stats.expanded),
                            smoothed: opts.smooth.then_some(stats.smoothed_length),
                            length: stats.length,
                            weighted,
                        },
                        Some(stats.cost),
                    ),
                    Err(_) => (no_path(Some(pf.last_expanded()), weighted), None),
                }
            }
            Runner::PfAstar => {
                let table = moves.as_deref().expect("built for pf-astar");
                let mut expanded = 0;
                let path =
                    peers::pf_astar(layer, table, peer_costs, p.start, p.goal, &mut expanded);
                t.times_us.push(started.elapsed().as_secs_f64() * 1e6);
                t.allocs += allocations() - before;
                peer_answer(layer, weights, p, path, Some(expanded), weighted)
            }
            Runner::GpJps => {
                let path = peers::gp_jps(gp.as_ref().expect("built for gp-jps"), p.start, p.goal);
                t.times_us.push(started.elapsed().as_secs_f64() * 1e6);
                t.allocs += allocations() - before;
                peer_answer(layer, weights, p, path, None, weighted)
            }
            Runner::External(_) => {
                let solver = external.as_mut().expect("prepared above");
                let path = solver.find(p.start, p.goal);
                t.times_us.push(started.elapsed().as_secs_f64() * 1e6);
                t.allocs += allocations() - before;
                peer_answer(layer, weights, p, path, None, weighted)
            }
        };
        t.add(&answer, exact, expected, opts.tolerance);
    }
    t
}

fn no_path(expanded: Option<u32>, weighted: bool) -> Answer {
    Answer {
        value: None,
        valid: true,
        cost_ok: true,
        expanded,
        smoothed: None,
        length: 0.0,
        weighted,
    }
}

/// A peer's path, checked by the same rules and costed by the same weights as ours.
fn peer_answer(
    layer: &Layer,
    weights: Weights<'_>,
    p: &Problem,
    path: Option<Vec<Cell>>,
    expanded: Option<u32>,
    weighted: bool,
) -> (Answer, Option<u64>) {
    let Some(cells) = path else {
        return (no_path(expanded, weighted), None);
    };
    let cost = weights.path_cost(&cells);
    let length = path_length(&cells);
    let answer = Answer {
        value: Some(if weighted {
            cost.map_or(f64::INFINITY, cost_to_f64)
        } else {
            length
        }),
        valid: validate_path(layer, &cells, p.start, p.goal, Connectivity::Octile).is_ok(),
        cost_ok: true,
        expanded,
        smoothed: None,
        length,
        weighted,
    };
    (answer, cost)
}
