//! What one case measured, how it travels from the child process to the driver, and the
//! process counters it reads (Linux `/proc`).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use bevy_tilepath::grid::Connectivity;
use bevy_tilepath::prelude::Cell;
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::tilepath::grid::cost_to_f64;
use bevy_tilepath::tilepath::scenario::ProfileId;
use bevy_tilepath::tilepath::search::{InvalidPath, validate_path};
use tilepath_bench::process_cpu;

/// Shared with the other headless scenarios.
pub use crate::watch::peak_rss_kb;

/// One unit's answer: where its path starts and ends and what it costs under our cost
/// model (step length × mean weight of its two cells), and whether it obeys our movement
/// rules (free cells, king moves, no corner cutting).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitPath {
    pub start: Cell,
    pub reached: Cell,
    pub cost: f64,
    pub valid: bool,
}

/// What one case measured.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Every unit had a path or a failure before the frame cap.
    pub done: bool,
    /// Frames from the order until every unit had an answer (or the cap).
    pub frames: u32,
    /// Wall-clock milliseconds of those frames (frames run back to back, headless).
    pub wall_ms: f64,
    /// Process CPU time (user + system, every thread) spent in those frames.
    pub cpu_ms: f64,
    /// Sum of the per-frame solve times (ours: `TilepathStats::solve_time`; northstar:
    /// the span of its `PathingSet`).
    pub solve_ms: f64,
    /// Longest and 99th-percentile per-frame solve time (frames with work).
    pub frame_max_ms: f64,
    pub frame_p99_ms: f64,
    /// Frames whose solve time exceeded the 2 ms budget by more than 0.5 ms.
    pub over_budget: u32,
    /// Largest `pathfinder_bytes + field_bytes` seen (ours; 0 for northstar).
    pub search_bytes: u64,
    /// Peak resident memory of the process (VmHWM), kB.
    pub rss_kb: u64,
    /// Milliseconds to build the pathfinding map (ours: cached scenario and its layer;
    /// northstar: `Grid::new`, `set_nav` and `build`), before the order.
    pub setup_ms: f64,
    /// 1-minute load average when the case started (1 is this benchmark alone).
    pub load: f64,
    /// Paths read off shared goal fields.
    pub field_answers: u64,
    /// Units answered with a failure.
    pub failed: usize,
    /// Per answered unit with a path.
    pub paths: Vec<UnitPath>,
}

impl Outcome {
    /// The text the child prints: one `CASE` line, then one `UNIT` line per path.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        writeln!(
            s,
            "CASE done={} frames={} wall_ms={} cpu_ms={} solve_ms={} frame_max_ms={} \
             frame_p99_ms={} over_budget={} search_bytes={} rss_kb={} setup_ms={} load={} field_answers={} failed={}",
            u8::from(self.done),
            self.frames,
            self.wall_ms,
            self.cpu_ms,
            self.solve_ms,
            self.frame_max_ms,
            self.frame_p99_ms,
            self.over_budget,
            self.search_bytes,
            self.rss_kb,
            self.setup_ms,
            self.load,
            self.field_answers,
            self.failed
        )
        .expect("writing to a String");
        for p in &self.paths {
            writeln!(
                s,
                "UNIT {} {} {} {} {} {}",
                p.start.x,
                p.start.y,
                p.reached.x,
                p.reached.y,
                p.cost,
                u8::from(p.valid)
            )
            .expect("writing to a String");
        }
        s
    }

    /// Reads what [`Outcome::to_text`] wrote (other lines are ignored).
    pub fn parse(text: &str) -> Result<Outcome, String> {
        let mut out = None;
        let mut paths = Vec::new();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("CASE") => {
                    let mut o = Outcome::default();
                    for word in words {
                        let (key, value) = word.split_once('=').ok_or(format!("bad {word}"))?;
                        let f = || value.parse::<f64>().map_err(|_| format!("bad {word}"));
                        match key {
                            "done" => o.done = value == "1",
                            "frames" => o.frames = f()? as u32,
                            "wall_ms" => o.wall_ms = f()?,
                            "cpu_ms" => o.cpu_ms = f()?,
                            "solve_ms" => o.solve_ms = f()?,
                            "frame_max_ms" => o.frame_max_ms = f()?,
                            "frame_p99_ms" => o.frame_p99_ms = f()?,
                            "over_budget" => o.over_budget = f()? as u32,
                            "search_bytes" => o.search_bytes = f()? as u64,
                            "rss_kb" => o.rss_kb = f()? as u64,
                            "setup_ms" => o.setup_ms = f()?,
                            "load" => o.load = f()?,
                            "field_answers" => o.field_answers = f()? as u64,
                            "failed" => o.failed = f()? as usize,
                            _ => {}
                        }
                    }
                    out = Some(o);
                }
                Some("UNIT") => {
                    let v: Vec<f64> = words
                        .map(|w| w.parse::<f64>().map_err(|_| format!("bad line {line}")))
                        .collect::<Result<_, _>>()?;
                    if v.len() != 6 {
                        return Err(format!("bad line {line}"));
                    }
                    paths.push(UnitPath {
                        start: Cell::new(v[0] as i32, v[1] as i32),
                        reached: Cell::new(v[2] as i32, v[3] as i32),
                        cost: v[4],
                        valid: v[5] == 1.0,
                    });
                }
                _ => {}
            }
        }
        let mut out = out.ok_or("no CASE line")?;
        out.paths = paths;
        Ok(out)
    }
}

/// The clocks of one order, started just before it is given.
pub struct OrderClock {
    load: f64,
    cpu: Duration,
    started: Instant,
}

impl OrderClock {
    /// Reads the load average and the process's CPU time, then starts the wall clock.
    pub fn start() -> Self {
        let load = load_average();
        let cpu = process_cpu();
        OrderClock {
            load,
            cpu,
            started: Instant::now(),
        }
    }

    /// An outcome that has the map's setup time and the load when the order began.
    pub fn outcome(&self, setup_ms: f64) -> Outcome {
        Outcome {
            setup_ms,
            load: self.load,
            ..Outcome::default()
        }
    }

    /// After the order's last frame: its wall and CPU time, the per-frame solve `times`'
    /// statistics and the peak memory.
    pub fn stop(&self, out: &mut Outcome, times: &[Duration]) {
        out.wall_ms = ms(self.started.elapsed());
        out.cpu_ms = ms(process_cpu().saturating_sub(self.cpu));
        (out.frame_max_ms, out.frame_p99_ms, out.over_budget) = frame_stats(times);
        out.rss_kb = peak_rss_kb();
    }
}

/// Per-frame solve times: the exact maximum, 99th percentile (nearest rank) and the
/// number of frames over the default budget (2 ms) plus 0.5 ms.
pub fn frame_stats(times: &[Duration]) -> (f64, f64, u32) {
    if times.is_empty() {
        return (0.0, 0.0, 0);
    }
    let limit = Duration::from_micros(2_500);
    let over = times.iter().filter(|&&t| t > limit).count() as u32;
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let rank = ((0.99 * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    (ms(sorted[sorted.len() - 1]), ms(sorted[rank - 1]), over)
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A path checked against our movement rules for a one-cell unit of `profile` on `map`
/// and costed with its weights: `valid` is false when a cell is blocked, a step is not a
/// king move, a diagonal cuts a corner or the ends differ from `start` / `goal` (the
/// broken rule is returned too).
pub fn check_path(
    map: &CachedScenario,
    profile: ProfileId,
    cells: &[Cell],
    start: Cell,
    goal: Cell,
) -> (UnitPath, Option<InvalidPath>) {
    let layer = map.layer_for(profile, 1).expect("the profile exists");
    let broken = validate_path(layer, cells, start, goal, Connectivity::Octile).err();
    let cost = map
        .weights(profile)
        .and_then(|w| w.path_cost(cells))
        .map_or(f64::NAN, cost_to_f64);
    let path = UnitPath {
        start,
        reached: goal,
        cost,
        valid: broken.is_none(),
    };
    (path, broken)
}

/// The 1-minute load average of the machine (`/proc/loadavg`), 0 when unknown: other
/// work on the machine shows here and in wall time above CPU time.
pub fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}
