//! The rows of the report, the markdown table with its notes, and the CSV.

use std::fmt::Write as _;

use crate::corridors::{LEG_RUN_S, SEEDS};
use crate::metrics::{LEGS_CAP_S, Outcome, SHORT, STALL_SECS, TOLERANCE};
use crate::northstar::{AVOIDANCE_DISTANCE, RETRY_SECS};
use crate::ours::{Mover, STEP_TICKS};
use crate::progress::{PROGRESS_TILES, WINDOW_S};
use crate::scenarios::Scenario;

/// Who moves the crowd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    Ours(Mover),
    Northstar,
}

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::Ours(Mover::Steering) => "ours Steering",
            System::Ours(Mover::Stepper) => "ours GridStepper",
            System::Northstar => "northstar",
        }
    }
}

/// One scenario run by one system, or why it was not run.
pub struct Row {
    pub scenario: &'static str,
    pub system: System,
    pub result: Result<Outcome, String>,
}

impl Row {
    /// Time until all arrived over the ideal; when not all arrived, the time the run
    /// lasted over the ideal (a lower bound) and `false`.
    pub fn ratio(&self) -> Option<(f64, bool)> {
        let o = self.result.as_ref().ok()?;
        if o.ideal_s <= 0.0 {
            return None;
        }
        Some(match o.arrived_s {
            Some(t) => (t / o.ideal_s, true),
            None => (o.ran_s / o.ideal_s, false),
        })
    }

    /// One line for the progress log.
    pub fn summary(&self) -> String {
        match &self.result {
            Err(why) => format!("{} {}: n/a ({why})", self.scenario, self.system.name()),
            Ok(o) => format!(
                "{} {}: {}, ideal {:.2} s, deadlocks {}, legs {} (abandoned {}), stalled {:.1} \
                 unit-s (longest {:.1} s), overlap pair-frames {}, worst {:.2}, \
                 steer {:.3} ms/frame, {} frames, {:.1} s wall",
                self.scenario,
                self.system.name(),
                arrived(o),
                o.ideal_s,
                o.deadlocks,
                o.legs,
                o.abandoned,
                o.stalled_unit_s,
                o.longest_stall_s,
                o.overlap_pair_frames,
                o.worst_overlap,
                o.steer_ms,
                o.frames,
                o.wall_s
            ),
        }
    }

    /// True when the row passes `--check`: run, no deadlock, no overlap.
    pub fn clean(&self) -> bool {
        matches!(&self.result, Ok(o) if o.deadlocks == 0 && o.overlap_pair_frames == 0)
    }
}

fn arrived(o: &Outcome) -> String {
    match o.arrived_s {
        Some(t) => format!("{t:.2}"),
        None if o.stalled => format!("> {:.1} (stalled)", o.ran_s),
        None => format!("> {:.1} (limit)", o.ran_s),
    }
}

/// Units per millisecond of movement time per thread.
fn throughput(o: &Outcome, threads: usize) -> f64 {
    if o.steer_ms > 0.0 {
        o.units as f64 / o.steer_ms / threads as f64
    } else {
        f64::NAN
    }
}

/// The markdown table of `rows` (`threads`: the compute pool's), then its notes.
pub fn table(rows: &[Row], scenarios: &[Scenario], threads: usize, dt: f64) -> String {
    let mut s = String::new();
    s.push_str(
        "| scenario | system | units (moving / all) | ideal s | all arrived s | ÷ ideal | deadlocks | \
         legs finished (per sim. minute) | abandoned | stalled unit-s (longest s) | longest leg s | overlap pair-frames | worst overlap (tiles) | jitter (÷ top speed) | settled short (farthest, tiles) | movement ms/frame (mean / max) | \
         agents per ms per thread | frames | wall s |\n",
    );
    s.push_str(
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let o = match &r.result {
            Ok(o) => o,
            Err(why) => {
                let blank = " |".repeat(16);
                writeln!(
                    s,
                    "| {} | {} | n/a: {why} |{blank}",
                    r.scenario,
                    r.system.name()
                )
                .expect("writing to a String");
                continue;
            }
        };
        let ratio = match r.ratio() {
            Some((x, true)) => format!("{x:.2}"),
            Some((x, false)) => format!("> {x:.2}"),
            None => "n/a".into(),
        };
        writeln!(
            s,
            "| {} | {} | {} / {} | {:.2} | {} | {} | {} | {} ({:.1}) | {} | {:.1} ({:.1}) | {:.1} | {} | {:.2} | {:.3} | {} ({:.1}) | {:.3} / {:.3} | {:.0} | {} | {:.1} |",
            r.scenario,
            r.system.name(),
            o.movers,
            o.units,
            o.ideal_s,
            arrived(o),
            ratio,
            o.deadlocks,
            o.legs,
            o.legs_per_minute(),
            o.abandoned,
            o.stalled_unit_s,
            o.longest_stall_s,
            o.longest_leg_s,
            o.overlap_pair_frames,
            o.worst_overlap,
            o.jitter,
            o.settled_short,
            o.farthest_short,
            o.steer_ms,
            o.steer_max_ms,
            throughput(o, threads),
            o.frames,
            o.wall_s
        )
        .expect("writing to a String");
    }
    s.push('\n');
    writeln!(
        s,
        "Notes. Headless, {:.4} s of simulated time per frame, {threads} compute thread(s); \
         tiles of 16 world units, top speed 4 tiles/s (`Steering::default()`), same speed \
         for northstar's units; our `GridStepper` takes a cell every {STEP_TICKS} frames \
         (`ticks_per_step: {STEP_TICKS}`, default patience), 4 cells/s.",
        dt
    )
    .expect("writing to a String");
    s.push_str("Ideal time per scenario:\n");
    for sc in scenarios {
        writeln!(s, "- {}: {}.", sc.name, sc.ideal_note).expect("writing to a String");
    }
    writeln!(
        s,
        "- Arrived: ours, every unit with an order holds `Arrived` in the same frame; northstar, \
         every unit stands on its goal cell with no `NextPos` left. A run stops when all arrived, \
         at the limit (10 × ideal, at least 60 s, or `--seconds`), or when nothing moved for \
         {STALL_SECS} s (\"stalled\"); deadlocks are the units not arrived then.\n\
         - Overlaps: pairs of units whose discs (radius diameter / 2 tiles) are closer than \
         the sum of their radii by more than {TOLERANCE} tile, summed over frames (parked \
         units included); northstar's units are discs of radius 0.5 at their interpolated \
         positions, so two units in one cell always count.\n\
         - Jitter: mean speed over one more second after the run of the units arrived at its end, \
         as a fraction of the top speed.\n\
         - Settled short: units counted as arrived that stand more than {SHORT} tile from the end \
         of their path at the end of the run (ours: held back or walled in by the crowd; \
         northstar's arrival is its goal cell, so 0), and the farthest of them.\n\
         - Movement time: ours, the `TilepathSystems::Steer` set (steering, progress, \
         end of frame); northstar, its `PathingSet` (searches, avoidance, re-routes) plus \
         the mover and the retries. Agents per ms per thread: all units (parked too) over \
         the mean movement time and the threads.\n\
         - Legs (`corridors`, `corridors_large`, ported from northstar's `collision_testing` \
         and `demo`; see `corridors.rs` for the deviations): every unit has successive goals, \
         the next given when it arrives or abandons (a failed search); a timed run lasts \
         {LEG_RUN_S} s (`corridors`: {SEEDS} seeds, merged into one row: legs, stalls and \
         frames add up), `--legs N` gives N goals each and runs until all are done (cap \
         {LEGS_CAP_S} s; \"all arrived\" is then the time all legs were done). Longest leg: \
         the longest finished leg, seconds. Deadlocks in a timed leg run: units stalled for \
         the last {STALL_SECS} s of it.\n\
         - Stalled: a unit with an order whose remaining path length (shortest path on the \
         static map from its cell to its goal) did not drop by {PROGRESS_TILES} tile within \
         the last {WINDOW_S} s of its leg, measured alike for every system; unit-seconds summed, \
         and the longest stall of one unit.\n\
         - Ours: default `PathRequest::new(goal).diameter(d)` (goal claims on); congestion \
         on (`CongestionSettings::default()`) unless `--no-congestion`; no frame \
         budget (`FrameBudget::Time(Duration::MAX)`), so every order is solved in its frame \
         and the run does not depend on the machine.\n\
         - northstar 0.7: collision on, `avoidance_distance({AVOIDANCE_DISTANCE})`, every \
         unit `Blocking`, HPA* refined paths; search and avoidance caps per frame lifted to the \
         number of units; failed units ask again after {RETRY_SECS} s; where all units are sent \
         to one point, each gets its own cell around it (it has no goal claims)."
    )
    .expect("writing to a String");
    s
}

/// The rows as CSV, one line per scenario and system.
pub fn csv(rows: &[Row], threads: usize) -> String {
    let mut s = String::from(
        "scenario,system,movers,units,ideal_s,arrived_s,limit_s,ran_s,stalled,deadlocks,\
         legs,abandoned,stalled_unit_s,longest_stall_s,longest_leg_s,overlap_pair_frames,worst_overlap,jitter,settled_short,farthest_short,steer_ms,steer_max_ms,agents_per_ms_thread,\
         frames,wall_s,threads,na\n",
    );
    for r in rows {
        match &r.result {
            Err(why) => writeln!(
                s,
                "{},{},,,,,,,,,,,,,,,,,,,,,,,,{threads},\"{why}\"",
                r.scenario,
                r.system.name()
            ),
            Ok(o) => writeln!(
                s,
                "{},{},{},{},{:.4},{},{:.4},{:.4},{},{},{},{},{:.2},{:.2},{:.2},{},{:.4},{:.5},{},{:.2},{:.4},{:.4},{:.2},{},{:.2},{threads},",
                r.scenario,
                r.system.name(),
                o.movers,
                o.units,
                o.ideal_s,
                o.arrived_s.map_or(String::new(), |t| format!("{t:.4}")),
                o.limit_s,
                o.ran_s,
                u8::from(o.stalled),
                o.deadlocks,
                o.legs,
                o.abandoned,
                o.stalled_unit_s,
                o.longest_stall_s,
                o.longest_leg_s,
                o.overlap_pair_frames,
                o.worst_overlap,
                o.jitter,
                o.settled_short,
                o.farthest_short,
                o.steer_ms,
                o.steer_max_ms,
                throughput(o, threads),
                o.frames,
                o.wall_s
            ),
        }
        .expect("writing to a String");
    }
    s
}
