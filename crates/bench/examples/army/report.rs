//! Each unit's own optimal cost (the core's A*), the rows of the report, the markdown
//! table and the CSV.

use std::collections::HashMap;
use std::fmt::Write as _;

use bevy_tilepath::prelude::{Algorithm, Cell};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::search::{PathQuery, Pathfinder};
use bevy_tilepath::tilepath::grid::cost_to_f64;

use crate::measure::Outcome;
use crate::scene::Scene;
use crate::{Case, Mode};

/// Optimal costs already computed, by map, start and end.
#[derive(Default)]
pub struct References {
    known: HashMap<(String, Cell, Cell), Option<f64>>,
}

/// One row of the report: a case, what it measured and how its paths compare.
pub struct Row {
    pub case: Case,
    pub outcome: Outcome,
    /// Sum of the path costs and of the units' own optimal costs (paths with an optimum).
    pub cost: f64,
    pub optimal: f64,
    /// Paths whose cost differs from the unit's own optimum by more than 0.001.
    pub mismatches: usize,
    /// Paths that break our movement rules.
    pub invalid: usize,
    /// CPU milliseconds of every run of the case (`--repeat`; the outcome is the run of
    /// median CPU), in the order they ran.
    pub cpu_runs: Vec<f64>,
}

impl References {
    /// Compares `outcome`'s paths with each unit's own optimal cost on `map` (computed in
    /// parallel for the pairs not seen before) and makes the row.
    pub fn row(
        &mut self,
        scene: &Scene,
        map: &CachedScenario,
        case: Case,
        outcome: Outcome,
    ) -> Row {
        let key = |s: Cell, r: Cell| (scene.name.clone(), s, r);
        let mut todo: Vec<(Cell, Cell)> = outcome
            .paths
            .iter()
            .map(|p| (p.start, p.reached))
            .filter(|&(s, r)| !self.known.contains_key(&key(s, r)))
            .collect();
        todo.sort_unstable_by_key(|&(s, r)| (s.y, s.x, r.y, r.x));
        todo.dedup();
        for (pair, cost) in todo.iter().zip(optimal_costs(scene, map, &todo)) {
            self.known.insert(key(pair.0, pair.1), cost);
        }
        let (mut cost, mut optimal, mut mismatches, mut invalid) = (0.0, 0.0, 0, 0);
        for p in &outcome.paths {
            if !p.valid {
                invalid += 1;
                continue;
            }
            match self.known[&key(p.start, p.reached)] {
                Some(best) => {
                    cost += p.cost;
                    optimal += best;
                    if (p.cost - best).abs() > 1e-3 {
                        mismatches += 1;
                    }
                }
                None => mismatches += 1,
            }
        }
        let cpu_runs = vec![outcome.cpu_ms];
        Row {
            case,
            outcome,
            cost,
            optimal,
            mismatches,
            invalid,
            cpu_runs,
        }
    }
}

/// The core's A* cost from each start to each end for a one-cell unit of the scene's
/// profile (`None` when there is no path), on two threads.
fn optimal_costs(scene: &Scene, map: &CachedScenario, pairs: &[(Cell, Cell)]) -> Vec<Option<f64>> {
    let half = pairs.len().div_ceil(2).max(1);
    std::thread::scope(|s| {
        let parts: Vec<_> = pairs
            .chunks(half)
            .map(|chunk| {
                s.spawn(move || {
                    let mut pathfinder = Pathfinder::new();
                    chunk
                        .iter()
                        .map(|&(start, end)| {
                            let query = PathQuery::new(start, end)
                                .algorithm(Algorithm::AStar)
                                .profile(scene.profile);
                            pathfinder
                                .find(map, &query)
                                .ok()
                                .map(|stats| cost_to_f64(stats.cost))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().expect("a reference thread"))
            .collect()
    })
}

impl Row {
    /// Mean cost of the group over the mean of the units' own optima.
    pub fn ratio(&self) -> f64 {
        if self.optimal > 0.0 {
            self.cost / self.optimal
        } else {
            f64::NAN
        }
    }

    fn frames(&self, cap: u32) -> String {
        if self.outcome.done {
            self.outcome.frames.to_string()
        } else {
            format!("> {cap} ({} of {})", self.answered(), self.case.units)
        }
    }

    /// The CPU column: the run's CPU time, and the range of all runs when repeated.
    fn cpu(&self) -> String {
        let o = &self.outcome;
        if self.cpu_runs.len() < 2 {
            return format!("{:.0}", o.cpu_ms);
        }
        let min = self.cpu_runs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self.cpu_runs.iter().copied().fold(0.0, f64::max);
        format!("{:.0} ({min:.0}-{max:.0})", o.cpu_ms)
    }

    fn answered(&self) -> usize {
        self.outcome.paths.len() + self.outcome.failed
    }

    /// One line for the progress log.
    pub fn summary(&self) -> String {
        let o = &self.outcome;
        format!(
            "{} {} {} {}t {}: {} frames{} {:.0} ms, cpu {:.0} ms, frame max {:.2} ms, \
             {} paths, cost/optimal {:.4}, mismatches {}, invalid {}, failed {}",
            self.case.map,
            self.case.units,
            self.case.order.name(),
            self.case.threads,
            self.case.mode.name(),
            o.frames,
            if o.done { "" } else { " (not all answered)" },
            o.wall_ms,
            o.cpu_ms,
            o.frame_max_ms,
            o.paths.len(),
            self.ratio(),
            self.mismatches,
            self.invalid,
            o.failed
        )
    }
}

fn mib(bytes: f64) -> f64 {
    bytes / (1024.0 * 1024.0)
}

/// The columns that name a case in the table and the CSV: map, units, order, threads, mode.
fn case_columns(case: &Case) -> [String; 5] {
    [
        case.map.clone(),
        case.units.to_string(),
        case.order.name().to_string(),
        case.threads.to_string(),
        case.mode.name().to_string(),
    ]
}

/// The markdown table of `rows` (`cap`: the frame cap, for cases that hit it).
pub fn table(rows: &[Row], cap: u32) -> String {
    let mut s = String::new();
    s.push_str(
        "| map | units | order | threads | mode | frames until all have a path | ms | CPU ms | \
         solve ms (sum) | max / p99 solve ms per frame | frames > 2.5 ms | mean cost / own optimum | mismatches | \
         invalid | search MiB | peak RSS MiB | map setup ms | load |\n",
    );
    s.push_str(
        "|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let o = &r.outcome;
        let ours = r.case.mode != Mode::Northstar;
        let search = if ours {
            format!("{:.1}", mib(o.search_bytes as f64))
        } else {
            "n/a".into()
        };
        writeln!(
            s,
            "| {} | {} | {:.0} | {} | {:.0} | {:.2} / {:.2} | {} | {:.4} | {} | {} | {} | {:.0} | {:.0} | {:.1} |",
            case_columns(&r.case).join(" | "),
            r.frames(cap),
            o.wall_ms,
            r.cpu(),
            o.solve_ms,
            o.frame_max_ms,
            o.frame_p99_ms,
            o.over_budget,
            r.ratio(),
            r.mismatches,
            r.invalid,
            search,
            o.rss_kb as f64 / 1024.0,
            o.setup_ms,
            o.load
        )
        .expect("writing to a String");
    }
    s
}

/// For each case of ours with a northstar case of the same map, units, order and
/// threads among `rows`: its CPU over northstar's, one line each.
pub fn over_northstar(rows: &[Row]) -> String {
    let mut s = String::from("\nCPU over northstar's (runs of median CPU):\n");
    let same = |a: &Case, b: &Case| {
        (&a.map, a.units, a.order, a.threads) == (&b.map, b.units, b.order, b.threads)
    };
    for r in rows.iter().filter(|r| r.case.mode != Mode::Northstar) {
        let theirs = rows
            .iter()
            .find(|n| n.case.mode == Mode::Northstar && same(&n.case, &r.case));
        if let Some(n) = theirs.filter(|n| n.outcome.cpu_ms > 0.0) {
            writeln!(
                s,
                "  {} {} {} {}t {}: {:.2}",
                r.case.map,
                r.case.units,
                r.case.order.name(),
                r.case.threads,
                r.case.mode.name(),
                r.outcome.cpu_ms / n.outcome.cpu_ms
            )
            .expect("writing to a String");
        }
    }
    s
}

/// The rows as CSV, one line per case.
pub fn csv(rows: &[Row]) -> String {
    let mut s = String::from(
        "map,units,order,threads,mode,done,frames,wall_ms,cpu_ms,solve_ms,frame_max_ms,\
         frame_p99_ms,over_budget,paths,failed,cost_ratio,mean_cost,mean_optimal,mismatches,invalid,\
         field_answers,search_bytes,peak_rss_kb,setup_ms,load,cpu_runs_ms\n",
    );
    for r in rows {
        let o = &r.outcome;
        let valid = (o.paths.len() - r.invalid).max(1) as f64;
        writeln!(
            s,
            "{},{},{},{:.3},{:.1},{:.3},{:.4},{:.4},{},{},{},{:.6},{:.4},{:.4},{},{},{},{},{},{:.1},{:.2},{}",
            case_columns(&r.case).join(","),
            u8::from(o.done),
            o.frames,
            o.wall_ms,
            o.cpu_ms,
            o.solve_ms,
            o.frame_max_ms,
            o.frame_p99_ms,
            o.over_budget,
            o.paths.len(),
            o.failed,
            r.ratio(),
            r.cost / valid,
            r.optimal / valid,
            r.mismatches,
            r.invalid,
            o.field_answers,
            o.search_bytes,
            o.rss_kb,
            o.setup_ms,
            o.load,
            r.cpu_runs
                .iter()
                .map(|c| format!("{c:.0}"))
                .collect::<Vec<_>>()
                .join(" ")
        )
        .expect("writing to a String");
    }
    s
}

/// Rows read back from [`csv`] (without the per-unit paths), to draw the chart again.
pub fn rows_from_csv(text: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("empty CSV")?.split(',').collect();
    let mut rows = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(',').collect();
        let get = |name: &str| -> Result<&str, String> {
            let i = header.iter().position(|h| *h == name);
            i.and_then(|i| fields.get(i).copied())
                .ok_or(format!("no {name} in {line}"))
        };
        let num = |name: &str| -> Result<f64, String> {
            get(name)?
                .parse::<f64>()
                .map_err(|_| format!("bad {name} in {line}"))
        };
        let order = crate::Order::ALL
            .into_iter()
            .find(|o| Ok(o.name()) == get("order"));
        let mode = Mode::ALL.into_iter().find(|m| Ok(m.name()) == get("mode"));
        let case = Case {
            map: get("map")?.to_string(),
            units: num("units")? as usize,
            order: order.ok_or(format!("bad order in {line}"))?,
            threads: num("threads")? as usize,
            mode: mode.ok_or(format!("bad mode in {line}"))?,
        };
        let outcome = Outcome {
            done: num("done")? == 1.0,
            frames: num("frames")? as u32,
            wall_ms: num("wall_ms")?,
            cpu_ms: num("cpu_ms")?,
            solve_ms: num("solve_ms")?,
            frame_max_ms: num("frame_max_ms")?,
            frame_p99_ms: num("frame_p99_ms")?,
            over_budget: num("over_budget")? as u32,
            failed: num("failed")? as usize,
            ..Outcome::default()
        };
        // Absent from CSVs written before `--repeat`: the one run's CPU.
        let cpu_runs = get("cpu_runs_ms")
            .ok()
            .and_then(|v| v.split(' ').map(|c| c.parse::<f64>().ok()).collect())
            .unwrap_or_else(|| vec![outcome.cpu_ms]);
        rows.push(Row {
            case,
            outcome,
            cost: num("cost_ratio")?,
            optimal: 1.0,
            mismatches: num("mismatches")? as usize,
            invalid: num("invalid")? as usize,
            cpu_runs,
        });
    }
    Ok(rows)
}
