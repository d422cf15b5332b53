//! The counters of a stress run's measured frames, and the systems both modes share to fill them.
//!
//! Every measured frame, after the plugin's `Steer` set, [`Metrics`] takes the plugin's
//! figures of the frame ([`TilepathStats`]: pending requests, re-plans, repairs,
//! answers, expansions, solve and re-planning time, the plugin's time), the time of each
//! of the plugin's system sets ([`STAGES`]) and how each unit spent the frame
//! ([`Motion`]: a **frozen unit-frame** is a unit that did not move, has not arrived and
//! has no path to follow; one waiting for the first answer to a new order is counted
//! apart). The modes add their own counts (waits of answers and arrivals in
//! `live_edits`, units inside blocked cells and completed orders in `soak`); the fields
//! a mode does not count stay 0.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_tilepath::components::Replanning;
use bevy_tilepath::prelude::{Arrived, Cell, PathResult, TilepathSystems};
use bevy_tilepath::stats::TilepathStats;

use super::watch::{self, Before, Motion};
use super::{Stress, StressSystems};

/// Counters of the measured frames.
#[derive(Resource, Clone, Debug, Default)]
pub struct Metrics {
    /// Measured frames so far.
    pub frames: u32,
    /// Pending requests after the last frame, and the most after any measured frame.
    pub pending: usize,
    pub max_pending: usize,
    /// Frozen unit-frames (see the module docs).
    pub frozen: u64,
    /// Unit-frames in which a unit did not move because it waited for the first answer
    /// to its new goal (its result `Pending`): new orders, counted apart from frozen.
    pub ordered: u64,
    /// Unit-frames in which a unit with a current path did not move (crowds, stalls): for
    /// information, not frozen.
    pub idle: u64,
    /// Re-plans, paths repaired in place, provisional detours given to units whose
    /// re-plan waits (`TilepathStats::detoured`), cells the solver expanded, answers of
    /// the solver (paths and failures).
    pub replans: u64,
    pub repairs: u64,
    /// Requests the re-planning step reviewed (`TilepathStats::reviewed`), and the most
    /// frames a pass of that review over every request took.
    pub reviewed: u64,
    pub review_pass_max: u32,
    pub detours: u64,
    pub expanded: u64,
    pub solves: u64,
    /// Tiles flipped: free cells that became walls (and, in `live_edits`, how many had a
    /// unit on them), walls that opened.
    pub walls_built: u64,
    pub walls_on_units: u64,
    pub walls_opened: u64,
    /// Solve time of every measured frame.
    pub solve_times: Vec<Duration>,
    /// Re-planning time (finding what edits concern, repairs) of every measured frame.
    pub replan_times: Vec<Duration>,
    /// The plugin's time (all its systems, `TilepathStats::plugin_time`) of every
    /// measured frame.
    pub plugin_times: Vec<Duration>,
    /// The map upkeep of the frame's edits (`TilepathStats::upkeep_time`) of every
    /// measured frame.
    pub upkeep_times: Vec<Duration>,
    /// The work of that upkeep (`TilepathStats::upkeep_work`) and the expansions an
    /// expansion budget charged for it (`upkeep_charged`), over the measured frames.
    pub upkeep_work: u64,
    pub upkeep_charged: u64,
    /// Per measured frame, the time of each of the plugin's system sets:
    /// [`STAGES`] in order.
    pub stage_times: Vec<[Duration; 4]>,
    /// Re-plans and answers of every measured frame.
    pub replans_per_frame: Vec<usize>,
    pub solves_per_frame: Vec<usize>,
    /// `live_edits`: the longest wait of an answered request, in frames (see
    /// `live_edits`), and the answers by wait: `waits[w]` answers waited `w` frames (the
    /// last bucket: longer).
    pub max_wait: u64,
    pub waits: Vec<u64>,
    /// `live_edits`: `PathSolved` messages.
    pub solved_messages: u64,
    /// Units that reached the end of their path: in `live_edits` those then sent to a new
    /// goal, in `soak` every unit that gained `Arrived`.
    pub arrivals: u64,
    /// `soak`: arrivals at the end of a complete (not partial) path, and unit orders given.
    pub completed: u64,
    pub orders: u64,
    /// `soak`: unit-frames inside a blocked cell, and the first few (frame, unit, cell).
    pub in_blocked: u64,
    pub blocked_examples: Vec<(u32, Entity, Cell)>,
    /// `soak`: of the pending requests, those that need an answer (not re-plans in the
    /// improvement lane, which only may shorten a path that is still valid), after the
    /// last frame and the most after any.
    pub needing_answer: usize,
    pub max_needing_answer: usize,
}

/// Buckets of [`Metrics::waits`].
const WAIT_BUCKETS: usize = 64;

impl Metrics {
    /// No frame counted yet.
    pub fn new() -> Self {
        Self {
            waits: vec![0; WAIT_BUCKETS],
            ..default()
        }
    }

    /// Quantile `q` (0..=1) of the solve times of frames `from..`.
    pub fn solve_quantile(&self, from: usize, q: f64) -> Duration {
        Self::quantile(&self.solve_times, from, q)
    }

    /// Quantile `q` (0..=1) of the times of stage `stage` (see [`STAGES`]) of frames
    /// `from..`.
    pub fn stage_quantile(&self, stage: usize, from: usize, q: f64) -> Duration {
        let times: Vec<Duration> = self.stage_times.iter().map(|t| t[stage]).collect();
        Self::quantile(&times, from, q)
    }

    /// Quantile `q` (0..=1) of the plugin's times of frames `from..`.
    pub fn plugin_quantile(&self, from: usize, q: f64) -> Duration {
        Self::quantile(&self.plugin_times, from, q)
    }

    /// Quantile `q` (0..=1) of the re-planning times of frames `from..`.
    pub fn replan_quantile(&self, from: usize, q: f64) -> Duration {
        Self::quantile(&self.replan_times, from, q)
    }

    fn quantile(all: &[Duration], from: usize, q: f64) -> Duration {
        watch::quantile(&all[from.min(all.len())..], q)
    }

    /// Mean of `values[from..]`.
    pub fn mean(values: &[usize], from: usize) -> f64 {
        let part = &values[from.min(values.len())..];
        if part.is_empty() {
            0.0
        } else {
            part.iter().sum::<usize>() as f64 / part.len() as f64
        }
    }

    /// Answers that waited more than `frames` frames.
    pub fn waited_more_than(&self, frames: usize) -> u64 {
        self.waits.iter().skip(frames + 1).sum()
    }

    /// Counts an answer that waited `wait` frames.
    pub fn count_wait(&mut self, wait: u64) {
        self.max_wait = self.max_wait.max(wait);
        let last = self.waits.len() - 1;
        self.waits[(wait as usize).min(last)] += 1;
    }
}

/// The plugin's system sets whose times [`Metrics::stage_times`] holds, in order.
pub const STAGES: [&str; 4] = ["sync", "re-plan", "solve", "steer"];

/// When each stage of this frame began (and the last one ended), marked by [`mark`].
#[derive(Resource, Default)]
struct Marks([Option<Instant>; 5]);

/// Marks the boundary `I` between the plugin's system sets.
fn mark<const I: usize>(mut marks: ResMut<Marks>) {
    marks.0[I] = Some(Instant::now());
}

/// Adds the marks between the plugin's sets and [`record_frame`].
pub(super) fn add_systems(app: &mut App) {
    app.init_resource::<Marks>();
    app.add_systems(
        Update,
        (
            mark::<0>
                .after(StressSystems::Edit)
                .before(TilepathSystems::SyncMap),
            mark::<1>
                .after(TilepathSystems::SyncMap)
                .before(TilepathSystems::Replan),
            mark::<2>
                .after(TilepathSystems::Replan)
                .before(TilepathSystems::Solve),
            mark::<3>
                .after(TilepathSystems::Solve)
                .before(TilepathSystems::Steer),
            mark::<4>
                .after(TilepathSystems::Steer)
                .before(StressSystems::Record),
            record_frame.in_set(StressSystems::Record),
        ),
    );
}

/// What [`record_frame`] reads of a unit.
type UnitState = (
    &'static Transform,
    &'static Before,
    &'static PathResult,
    Has<Arrived>,
    Has<Replanning>,
);

/// Counts a measured frame: the plugin's figures, the stages' times, and frozen, idle
/// and new-order unit-frames.
fn record_frame(
    stress: Res<Stress>,
    stats: Res<TilepathStats>,
    marks: Res<Marks>,
    units: Query<UnitState>,
    mut metrics: ResMut<Metrics>,
) {
    if !stress.on {
        return;
    }
    let m = &mut *metrics;
    m.frames += 1;
    m.pending = stats.pending;
    m.max_pending = m.max_pending.max(stats.pending);
    m.replans += stats.replanned as u64;
    m.repairs += stats.repaired as u64;
    m.reviewed += stats.reviewed as u64;
    m.review_pass_max = m.review_pass_max.max(stats.review_pass_frames);
    m.detours += stats.detoured as u64;
    m.expanded += stats.expanded;
    m.solves += (stats.solved + stats.failed) as u64;
    m.solve_times.push(stats.solve_time);
    m.replan_times.push(stats.replan_time);
    m.plugin_times.push(stats.plugin_time);
    m.replans_per_frame.push(stats.replanned);
    m.solves_per_frame.push(stats.solved + stats.failed);
    let span = |i: usize| match (marks.0[i], marks.0[i + 1]) {
        (Some(a), Some(b)) => b.saturating_duration_since(a),
        _ => Duration::ZERO,
    };
    m.stage_times.push([span(0), span(1), span(2), span(3)]);
    m.upkeep_times.push(stats.upkeep_time);
    m.upkeep_work += stats.upkeep_work;
    m.upkeep_charged += stats.upkeep_charged;
    for (transform, before, result, arrived, replanning) in &units {
        match watch::motion(transform.translation, before, arrived, replanning, result) {
            Motion::Moving => {}
            Motion::Idle => m.idle += 1,
            Motion::Ordered => m.ordered += 1,
            Motion::Frozen => m.frozen += 1,
        }
    }
}
