//! Writes generated weighted MovingAI maps and, per terrain spec, scen files whose optima come from a plain Dijkstra.
//!
//! ```text
//! cargo run --release -p tilepath --example terrain_maps -- OUT_DIR [--spec NAME:SPEC]... [--problems N]
//! ```
//!
//! Writes `OUT_DIR/maps/countryside-256-1.map`, `countryside-512-2.map` and
//! `countryside-512-3.map` ([`generate::countryside`] at that side and seed), then for
//! every spec `OUT_DIR/scen-NAME/<map>.scen` with N problems per map (default 400:
//! 40 random starts, and for each one random reachable goal in each tenth of the range
//! of its optima, so short and long paths are equally represented) for an agent of diameter 1, sorted
//! by optimum, and `OUT_DIR/specs.txt` (one `NAME SPEC` line per spec). The 9th column
//! is the weighted optimum of the issue-10 model (step length × mean weight of its two
//! cells) in grid units with 8 decimals, computed by the plain Dijkstra oracle of the
//! tests (`oracle_weighted_distances` in `tests/common/mod.rs`: a binary heap over a
//! naively tested footprint, weights read from the spec, none of our searches and not
//! the core's step costs); the bucket is floor(optimum / 4) as in the MovingAI files. SPEC is a `--terrain` spec of the
//! `movingai` runner (see `tilepath::scenario::movingai_terrain`); without `--spec` the
//! two profiles are `infantry:.=2,R=1,F=4,S=7,W=x` and `hover:.=2,R=2,F=x,S=3,W=1`.
//!
//! Check them with the runner (default maps folder: `scen-NAME/../maps`):
//!
//! ```text
//! cargo run --release -p tilepath_bench --no-default-features --example movingai -- --terrain '.=2,R=1,F=4,S=7,W=x' \
//!     --reference stored --algo astar --check OUT_DIR/scen-infantry/*.scen
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tilepath::grid::{Cell, Connectivity, GridSize, cost_to_f64};
use tilepath::scenario::FnScenario;
use tilepath::scenario::generate::{self, SplitMix64};
use tilepath::scenario::movingai_terrain::{TerrainMap, TerrainSpec, terrain_char};

#[path = "../tests/common/mod.rs"]
mod common;

/// The maps written: (side, seed).
const MAPS: [(u32, u64); 3] = [(256, 1), (512, 2), (512, 3)];

const DEFAULT_SPECS: [(&str, &str); 2] = [
    ("infantry", ".=2,R=1,F=4,S=7,W=x"),
    ("hover", ".=2,R=2,F=x,S=3,W=1"),
];

const GOALS_PER_START: u64 = 10;

struct Options {
    out: PathBuf,
    specs: Vec<(String, TerrainSpec)>,
    problems: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut out = None;
    let mut specs = Vec::new();
    let mut problems = 400;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--spec" => {
                let v = args.next().ok_or("--spec needs NAME:SPEC")?;
                let (name, spec) = v.split_once(':').ok_or("--spec needs NAME:SPEC")?;
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                    return Err(format!("spec name `{name}`: use letters, digits and -"));
                }
                let parsed = TerrainSpec::parse(spec).map_err(|e| format!("--spec {v}: {e}"))?;
                specs.push((name.to_string(), parsed));
            }
            "--problems" => {
                problems = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n: &usize| n > 0)
                    .ok_or("--problems needs a positive count")?;
            }
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ if out.is_none() => out = Some(PathBuf::from(a)),
            _ => return Err("one output folder only".into()),
        }
    }
    if specs.is_empty() {
        for (name, spec) in DEFAULT_SPECS {
            specs.push((
                name.into(),
                TerrainSpec::parse(spec).expect("valid default"),
            ));
        }
    }
    Ok(Options {
        out: out.ok_or("no output folder given")?,
        specs,
        problems,
    })
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}");
            }
            eprintln!("usage: terrain_maps OUT_DIR [--spec NAME:SPEC]... [--problems N]");
            return ExitCode::from(2);
        }
    };
    match write_all(&opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write_all(opts: &Options) -> Result<(), String> {
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    let mkdir =
        |path: &Path| std::fs::create_dir_all(path).map_err(|e| format!("{}: {e}", path.display()));
    let maps_dir = opts.out.join("maps");
    mkdir(&maps_dir)?;
    let mut specs_txt = String::new();
    for (name, spec) in &opts.specs {
        writeln!(specs_txt, "{name} {spec}").expect("writing to a String");
        mkdir(&opts.out.join(format!("scen-{name}")))?;
    }
    write(&opts.out.join("specs.txt"), &specs_txt)?;
    for (side, seed) in MAPS {
        let file = format!("countryside-{side}-{seed}.map");
        let terrain = generate::countryside(GridSize::new(side, side), seed);
        write(&maps_dir.join(&file), &terrain.to_movingai())?;
        for (name, spec) in &opts.specs {
            let scen = scen_text(&file, &terrain, spec, opts.problems, seed);
            let path = opts
                .out
                .join(format!("scen-{name}"))
                .join(format!("{file}.scen"));
            write(&path, &scen.text)?;
            println!(
                "{}: {} problems, optimum {:.2}..{:.2}, {} skipped",
                path.display(),
                scen.problems,
                scen.min,
                scen.max,
                scen.skipped
            );
        }
    }
    Ok(())
}

struct Scen {
    text: String,
    problems: usize,
    min: f64,
    max: f64,
    skipped: usize,
}

/// `count` problems on `terrain` for a one-cell agent moving by `spec`: random starts
/// the agent can stand on, and for each up to ten goals it can reach (other than the
/// start), one at random from each tenth of the range of its optima, with the optimum
/// from one Dijkstra per start. `skipped` counts starts that reach nothing and empty
/// tenths.
fn scen_text(
    file: &str,
    terrain: &TerrainMap,
    spec: &TerrainSpec,
    count: usize,
    seed: u64,
) -> Scen {
    let size = terrain.size();
    let no_obstacles = FnScenario::new(size, |_| false);
    let weight = |c: Cell| {
        let id = terrain.get(c)?;
        terrain_char(id).and_then(|ch| spec.weight(ch))
    };
    let standable: Vec<Cell> = (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| weight(c).is_some())
        .collect();
    let mut rng = SplitMix64::new(seed ^ 0x5eed_7e77);
    let mut problems: Vec<(f64, Cell, Cell)> = Vec::with_capacity(count);
    let mut skipped = 0;
    while problems.len() < count && !standable.is_empty() {
        let start = standable[rng.below(standable.len() as u32) as usize];
        let dist = common::oracle_weighted_distances(
            &no_obstacles,
            weight,
            start,
            1,
            Connectivity::Octile,
        );
        // Reachable cells by optimum; one goal from each tenth of the range of optima,
        // so the problems spread over short and long paths alike.
        let mut reachable: Vec<(u64, usize)> = dist
            .iter()
            .enumerate()
            .filter_map(|(i, d)| d.map(|d| (d, i)))
            .filter(|&(d, _)| d > 0)
            .collect();
        if reachable.is_empty() {
            skipped += 1;
            continue;
        }
        reachable.sort_unstable();
        let longest = reachable.last().map_or(0, |r| r.0);
        for band in 0..GOALS_PER_START {
            if problems.len() == count {
                break;
            }
            let lo = reachable.partition_point(|r| r.0 <= longest * band / 10);
            let hi = reachable.partition_point(|r| r.0 <= longest * (band + 1) / 10);
            if lo >= hi {
                skipped += 1;
                continue;
            }
            let (cost, i) = reachable[lo + rng.below((hi - lo) as u32) as usize];
            problems.push((cost_to_f64(cost), start, size.cell(i)));
        }
    }
    problems.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut text = String::from("version 1\n");
    for &(optimum, s, g) in &problems {
        writeln!(
            text,
            "{}\t{file}\t{}\t{}\t{}\t{}\t{}\t{}\t{optimum:.8}",
            (optimum / 4.0).floor() as u64,
            size.width,
            size.height,
            s.x,
            s.y,
            g.x,
            g.y
        )
        .expect("writing to a String");
    }
    Scen {
        text,
        problems: problems.len(),
        min: problems.first().map_or(0.0, |p| p.0),
        max: problems.last().map_or(0.0, |p| p.0),
        skipped,
    }
}
