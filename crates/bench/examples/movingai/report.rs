//! What the runner counts per scen file and algorithm, and how it prints it.

use super::Runner;

/// One query's outcome, whoever answered it.
pub struct Answer {
    /// The value compared with the reference: the octile length without terrain, the
    /// weighted cost in grid units with it; `None` when no path was found.
    pub value: Option<f64>,
    /// The path obeys the movement rules of the query's layer.
    pub valid: bool,
    /// The reported cost equals the cost recomputed from the path (peers: always).
    pub cost_ok: bool,
    /// Nodes expanded, when the algorithm reports it.
    pub expanded: Option<u32>,
    /// Length of the smoothed path, when smoothing ran.
    pub smoothed: Option<f64>,
    /// Length of the cell path.
    pub length: f64,
    /// True with `--terrain`: `value` is a weighted cost, so the smoothing ratio is
    /// taken over the cell path's length rather than over the reference.
    pub weighted: bool,
}

/// Per scen file and algorithm.
#[derive(Default)]
pub struct Tally {
    pub queries: usize,
    pub solved: usize,
    pub mismatches: usize,
    pub invalid: usize,
    pub wrong_cost: usize,
    pub max_abs_err: f64,
    pub times_us: Vec<f64>,
    pub expanded: u64,
    pub expanded_known: usize,
    pub allocs: u64,
    pub ratio_sum: f64,
    pub ratio_n: usize,
    pub smooth_sum: f64,
    pub smooth_n: usize,
    /// Preprocessing before the first query (JPS+ table, a peer's grid), if any.
    pub prep_ms: Option<f64>,
}

/// The reference answer of one problem.
#[derive(Clone, Copy, Debug)]
pub enum Expected {
    /// The scen file's 9th column (length, or weighted cost with `--terrain`), compared
    /// within the tolerance.
    Stored(f64),
    /// Our Dijkstra's fixed-point cost, compared exactly.
    Exact(u64),
    /// Our Dijkstra found no path.
    NoPath,
}

impl Tally {
    /// Counts one answer against its reference; `exact` is the answer's fixed-point
    /// cost for an [`Expected::Exact`] comparison.
    pub fn add(&mut self, answer: &Answer, exact: Option<u64>, expected: Expected, tolerance: f64) {
        self.queries += 1;
        if let Some(e) = answer.expanded {
            self.expanded += u64::from(e);
            self.expanded_known += 1;
        }
        if !answer.valid {
            self.invalid += 1;
        }
        if !answer.cost_ok {
            self.wrong_cost += 1;
        }
        let reference = match expected {
            Expected::Stored(v) => Some(v),
            Expected::Exact(c) => Some(tilepath::grid::cost_to_f64(c)),
            Expected::NoPath => None,
        };
        match (answer.value, reference) {
            (Some(value), Some(opt)) => {
                self.solved += 1;
                let err = (value - opt).abs();
                self.max_abs_err = self.max_abs_err.max(err);
                let equal = match expected {
                    Expected::Exact(c) => exact == Some(c),
                    _ => err <= tolerance,
                };
                if !equal || !answer.valid || !answer.cost_ok {
                    self.mismatches += 1;
                }
                if opt > 0.0 {
                    self.ratio_sum += value / opt;
                    self.ratio_n += 1;
                    let base = if answer.weighted { answer.length } else { opt };
                    if let Some(s) = answer.smoothed.filter(|_| base > 0.0) {
                        self.smooth_sum += s / base;
                        self.smooth_n += 1;
                    }
                }
            }
            (Some(_), None) => {
                self.solved += 1;
                self.mismatches += 1;
            }
            (None, Some(_)) => self.mismatches += 1,
            (None, None) => {}
        }
    }

    pub fn mean_us(&self) -> f64 {
        self.times_us.iter().sum::<f64>() / self.queries.max(1) as f64
    }
}

/// Nanoseconds per expansion over a set of queries, or `n/a` without expansions.
fn ns_per_expanded(sum_us: f64, expanded: u64) -> String {
    if expanded == 0 {
        return "n/a".into();
    }
    format!("{:.1}", sum_us * 1e3 / expanded as f64)
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

/// The `scen=...` line of one file and algorithm.
pub fn print_line(scen: &str, runner: Runner, diameter: u32, t: &Tally, smooth: bool) {
    let mut times = t.times_us.clone();
    times.sort_by(f64::total_cmp);
    let n = t.queries.max(1) as f64;
    let expanded = if t.expanded_known > 0 {
        format!("{:.1}", t.expanded as f64 / t.expanded_known as f64)
    } else {
        "n/a".into()
    };
    let mismatches = if runner.optimal() {
        t.mismatches.to_string()
    } else {
        "n/a".into()
    };
    let mut line = format!(
        "scen={scen} algo={} diameter={diameter} queries={} solved={} mismatches={mismatches} max_abs_err={:.6} mean_us={:.2} p50_us={:.2} p99_us={:.2} expanded_mean={expanded} ns_per_expanded={} allocs_per_query={:.2}",
        runner.name(),
        t.queries,
        t.solved,
        t.max_abs_err,
        t.mean_us(),
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        ns_per_expanded(t.times_us.iter().sum(), t.expanded),
        t.allocs as f64 / n,
    );
    if !runner.optimal() || t.invalid > 0 {
        line += &format!(
            " invalid={} length_ratio={:.4}",
            t.invalid,
            t.ratio_sum / t.ratio_n.max(1) as f64
        );
    }
    if t.wrong_cost > 0 {
        line += &format!(" wrong_cost={}", t.wrong_cost);
    }
    if let Some(ms) = t.prep_ms {
        line += &format!(" prep_ms={ms:.2}");
    }
    if smooth && runner.is_ours() {
        line += &format!(
            " smooth_ratio={:.4}",
            t.smooth_sum / t.smooth_n.max(1) as f64
        );
    }
    println!("{line}");
}

/// Sums over every scen file of one algorithm, for its `TOTAL` line.
#[derive(Default)]
pub struct Total {
    pub queries: usize,
    pub solved: usize,
    pub mismatches: usize,
    pub invalid: usize,
    pub wrong_cost: usize,
    pub sum_us: f64,
    pub expanded: u64,
    pub expanded_known: usize,
    pub allocs: u64,
    pub prep_ms: Option<f64>,
    pub ratio_sum: f64,
    pub ratio_n: usize,
}

impl Total {
    pub fn add(&mut self, t: &Tally) {
        self.queries += t.queries;
        self.solved += t.solved;
        self.mismatches += t.mismatches;
        self.invalid += t.invalid;
        self.wrong_cost += t.wrong_cost;
        self.sum_us += t.times_us.iter().sum::<f64>();
        self.expanded += t.expanded;
        self.expanded_known += t.expanded_known;
        self.allocs += t.allocs;
        if let Some(ms) = t.prep_ms {
            *self.prep_ms.get_or_insert(0.0) += ms;
        }
        self.ratio_sum += t.ratio_sum;
        self.ratio_n += t.ratio_n;
    }

    /// Prints the sums as one line headed by `head` (`TOTAL`, or a family's).
    pub fn print(&self, runner: Runner, head: &str) {
        let mismatches = if runner.optimal() {
            self.mismatches.to_string()
        } else {
            "n/a".into()
        };
        let expanded = if self.expanded_known > 0 {
            format!("{:.1}", self.expanded as f64 / self.expanded_known as f64)
        } else {
            "n/a".into()
        };
        let n = self.queries.max(1) as f64;
        let mut line = format!(
            "{head} algo={} queries={} solved={} mismatches={mismatches} mean_us={:.2} expanded_mean={expanded} ns_per_expanded={} allocs_per_query={:.2} invalid={} wrong_cost={}",
            runner.name(),
            self.queries,
            self.solved,
            self.sum_us / n,
            ns_per_expanded(self.sum_us, self.expanded),
            self.allocs as f64 / n,
            self.invalid,
            self.wrong_cost,
        );
        if !runner.optimal() {
            line += &format!(
                " length_ratio={:.4}",
                self.ratio_sum / self.ratio_n.max(1) as f64
            );
        }
        if let Some(ms) = self.prep_ms {
            line += &format!(" prep_ms={ms:.2}");
        }
        println!("{line}");
    }
}

/// The MovingAI benchmark family of a scen file, from its map's name: `bg512` (the
/// Baldur's Gate maps scaled to 512, `AR*SR`), `mazes`, `random`, `rooms`, `street`
/// (city maps); any other map is its own family, named after its file.
pub fn family(scen: &str) -> &str {
    let map = scen.split('.').next().unwrap_or(scen);
    let street = [
        "Berlin", "Boston", "Denver", "London", "Milan", "Moscow", "NewYork", "Paris",
    ];
    if map.starts_with("AR") && map.ends_with("SR") {
        "bg512"
    } else if map.starts_with("maze") {
        "mazes"
    } else if map.starts_with("random") {
        "random"
    } else if map.contains("room") {
        "rooms"
    } else if street.iter().any(|s| map.starts_with(s)) {
        "street"
    } else {
        map
    }
}
