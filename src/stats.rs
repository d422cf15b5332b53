//! Counters of the request pipeline, for HUDs, logs and tuning the frame budget.

use std::time::Duration;

use bevy::prelude::*;

/// What the plugin did in the last frame and since it started. Updated by the
/// [`crate::plugin::TilepathSystems::Replan`], [`crate::plugin::TilepathSystems::Solve`]
/// and [`crate::plugin::TilepathSystems::Steer`] sets; read it after them for the
/// current frame.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::stats::TilepathStats;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
/// app.insert_resource(NavGrid::from_ascii("....\n.##.\n....", Vec2::ZERO, Vec2::ONE).unwrap());
/// app.world_mut().spawn((Transform::default(), PathRequest::new(Cell::new(3, 2))));
/// // A goal on a wall fails when the request does not ask for the nearest reachable cell.
/// app.world_mut().spawn((Transform::default(), PathRequest::new(Cell::new(1, 1)).nearest_goal(false)));
/// app.update();
/// let stats = app.world().resource::<TilepathStats>();
/// assert_eq!((stats.solved, stats.failed, stats.pending), (1, 1, 0));
/// assert_eq!(stats.total_solved, 1);
/// ```
#[derive(Resource, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct TilepathStats {
    /// Requests answered with a path in the last frame.
    pub solved: usize,
    /// Requests answered with a [`crate::components::PathFailure`] in the last frame
    /// (bad input, no map, blocked or unreachable goals, limits).
    pub failed: usize,
    /// Requests still queued after the last frame (frame budget or per-frame cap spent),
    /// new ones and re-plans alike.
    pub pending: usize,
    /// Requests queued again for the same request in the last frame (they keep their
    /// result and get [`crate::components::Replanning`]): found paths a map edit crossed
    /// (an obstacle within the agent's footprint, a terrain change within the footprint
    /// plus one cell) or whose movement profile changed, failures the change may fix
    /// (off-map starts and goals only on a new map, resize or move; unknown profiles on a
    /// change of the profiles), stalled steering units and markers inserted by the user.
    pub replanned: usize,
    /// Found paths that a new wall cut ahead of their unit and that were repaired in
    /// place in the last frame: a detour of exactly the cut stretch's cost was spliced in
    /// (optimal), the result replaced and a
    /// [`crate::components::PathSolved`] sent at once, without going through the queue.
    /// (A path repaired while its request waits in the improvement lane costs what the
    /// old one had left; the queued improvement still follows.)
    pub repaired: usize,
    /// Cut paths of the last frame for which only a dearer detour was found nearby: the
    /// unit got it as a provisional path ([`crate::components::FoundPath::provisional`])
    /// to walk while its request, counted in `replanned`, is planned again.
    pub detoured: usize,
    /// Cells expanded in the last frame: by the slices of searches that ran (finished or
    /// not, a search answered in the frame counting at least 1, as the budget charges
    /// it) and by shared fields growing. Under
    /// [`crate::settings::FrameBudget::Expansions`] the budget pays this, plus
    /// `field_charged` and `upkeep_charged`.
    pub expanded: u64,
    /// What the last frame's answers read off shared fields cost its
    /// [`crate::settings::FrameBudget::Expansions`] budget: one expansion per 4 cells of
    /// each path, plus one, plus the expansions of a shared approach's last stretch
    /// ended in the frame (or of the unit's own search, where the field did not serve
    /// it) and of planning the path again around units.
    pub field_charged: u64,
    /// Nodes expanded since the plugin started (searches and fields).
    pub total_expanded: u64,
    /// Wall-clock time of the last frame's solve step.
    pub solve_time: Duration,
    /// Wall-clock time of the last frame's re-planning after map edits (finding the
    /// paths and failures an edit concerns, and repairing paths in place). It is not
    /// part of the solve step's budget: repairs are local searches capped in expansions.
    pub replan_time: Duration,
    /// Wall-clock time the map's edits spent bringing it up to date since the solve step
    /// last ran ([`NavGrid::upkeep_time`](crate::components::NavGrid::upkeep_time)):
    /// under [`crate::settings::FrameBudget::Time`] it counts against the frame's solve
    /// budget.
    pub upkeep_time: Duration,
    /// The work of that upkeep ([`NavGrid::upkeep_work`](crate::components::NavGrid::upkeep_work)),
    /// the same on every machine.
    pub upkeep_work: u64,
    /// Expansions of the last frame's [`crate::settings::FrameBudget::Expansions`] budget
    /// that paid for map upkeep (its work owed, at most half of the budget).
    pub upkeep_charged: u64,
    /// Wall-clock time of all the plugin's systems in the last frame, from the start of
    /// [`crate::plugin::TilepathSystems::SyncMap`] to the end of
    /// [`crate::plugin::TilepathSystems::Steer`] (your systems ordered in between
    /// count too).
    pub plugin_time: Duration,
    /// Per-frame solve times since the plugin started (frames in which the solve step had
    /// work), with their maximum and quantiles.
    pub solve_times: SolveTimeHistogram,
    /// Searches of the last frame that ran to their end whatever the budget: the oldest
    /// request's, after map edits had set its work back twice (see the progress
    /// guarantee in [`crate::settings::TilepathSettings`]).
    pub whole: usize,
    /// Such searches since the plugin started.
    pub total_whole: u64,
    /// Searches suspended by the frame budget, waiting to be resumed next frame (each
    /// holds a pathfinder; at most one per solver thread).
    pub suspended: usize,
    /// Requests of the last frame answered from a shared goal field.
    pub field_answers: usize,
    /// Requests answered from shared goal fields since the plugin started.
    pub total_field_answers: u64,
    /// Shared goal fields cached (at most
    /// [`crate::settings::FieldSettings::max_fields`]).
    pub fields: usize,
    /// Bytes those fields hold (about 13 bytes per map cell each).
    pub field_bytes: usize,
    /// Paths found since the plugin started.
    pub total_solved: u64,
    /// Failures since the plugin started.
    pub total_failed: u64,
    /// Re-plans since the plugin started.
    pub total_replanned: u64,
    /// Paths repaired in place since the plugin started.
    pub total_repaired: u64,
    /// Provisional detours given since the plugin started.
    pub total_detoured: u64,
    /// Answered requests the re-planning step reviewed against map edits in the last
    /// frame (see [`crate::settings::ReplanSettings::review_budget`]).
    pub reviewed: usize,
    /// Frames the last complete pass of that review over every request took: how long
    /// an edit waited, at most, to be checked against every path.
    pub review_pass_frames: u32,
    /// Units the last frame's steering and grid stepping read. Steering reads the units
    /// that may move (they follow a path, or something moved or changed them lately)
    /// and those near them: units at rest away from them cost nothing (see
    /// [`crate::steering::Steering`]). Grid stepping reads every
    /// [`GridStepper`](crate::steering::GridStepper), or none in a tick that could change
    /// nothing (every stepper stood settled after the last one, and nothing changed
    /// since).
    pub steered: usize,
    /// Pathfinders the solve step keeps between frames: one warm pathfinder per solver
    /// thread (at most [`crate::settings::TilepathSettings::max_threads`] and the compute
    /// pool's thread count), the suspended searches, and as many spares.
    pub pathfinders: usize,
    /// Bytes those pathfinders hold (their search buffers, sized by the largest map and
    /// the algorithms they ran; about 12 bytes per cell each for A*).
    pub pathfinder_bytes: usize,
}

impl TilepathStats {
    /// Puts the counters of one frame back to zero (the running totals, the time
    /// histogram and the pathfinders' memory stay): done once, when the plugin's frame
    /// starts.
    pub(crate) fn begin_frame(&mut self) {
        self.solved = 0;
        self.failed = 0;
        self.replanned = 0;
        self.expanded = 0;
        self.repaired = 0;
        self.detoured = 0;
        self.reviewed = 0;
        self.whole = 0;
        self.field_answers = 0;
        self.field_charged = 0;
        self.solve_time = Duration::ZERO;
        self.steered = 0;
    }
}

/// A histogram of per-frame solve times: [`SolveTimeHistogram::BUCKETS`] buckets of
/// [`SolveTimeHistogram::BUCKET`] each, the last one open-ended, plus the exact maximum.
///
/// ```
/// use std::time::Duration;
/// use bevy_tilepath::stats::SolveTimeHistogram;
///
/// let mut h = SolveTimeHistogram::default();
/// for us in [100, 200, 300, 2_100] {
///     h.record(Duration::from_micros(us));
/// }
/// assert_eq!(h.frames, 4);
/// assert_eq!(h.max, Duration::from_micros(2_100));
/// assert_eq!(h.quantile(0.5), Duration::from_micros(250)); // upper edge of its bucket
/// assert_eq!(h.frames_over(Duration::from_millis(2)), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub struct SolveTimeHistogram {
    /// Frames per bucket: bucket `i` counts times in `[i, i + 1) × BUCKET`; the last
    /// bucket counts every longer time too.
    pub counts: Vec<u64>,
    /// Frames recorded.
    pub frames: u64,
    /// The longest time recorded.
    pub max: Duration,
    /// The sum of the times recorded.
    pub total: Duration,
}

impl Default for SolveTimeHistogram {
    fn default() -> Self {
        Self {
            counts: vec![0; Self::BUCKETS],
            frames: 0,
            max: Duration::ZERO,
            total: Duration::ZERO,
        }
    }
}

impl SolveTimeHistogram {
    /// Width of a bucket: 50 µs.
    pub const BUCKET: Duration = Duration::from_micros(50);
    /// Number of buckets: 400, so times up to 20 ms have their own bucket.
    pub const BUCKETS: usize = 400;

    /// Counts one frame that took `time`.
    pub fn record(&mut self, time: Duration) {
        if self.counts.len() != Self::BUCKETS {
            self.counts.resize(Self::BUCKETS, 0);
        }
        let i = (time.as_nanos() / Self::BUCKET.as_nanos()).min(Self::BUCKETS as u128 - 1);
        self.counts[i as usize] += 1;
        self.frames += 1;
        self.max = self.max.max(time);
        self.total += time;
    }

    /// The upper edge of the bucket holding the `q`-quantile (`q` in 0..=1) of the
    /// recorded times (the maximum when it falls in the last bucket); zero when nothing
    /// was recorded.
    pub fn quantile(&self, q: f64) -> Duration {
        if self.frames == 0 {
            return Duration::ZERO;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.frames as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &n) in self.counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                if i + 1 == self.counts.len() {
                    return self.max;
                }
                return (Self::BUCKET * (i as u32 + 1)).min(self.max);
            }
        }
        self.max
    }

    /// Frames whose bucket lies at or above `limit` (rounded down to a bucket edge): the
    /// frames that may have taken `limit` or longer.
    pub fn frames_over(&self, limit: Duration) -> u64 {
        let first = (limit.as_nanos() / Self::BUCKET.as_nanos()) as usize;
        self.counts.iter().skip(first).sum()
    }

    /// Text lines `from..to ms: count` for the non-empty buckets, for logs.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(move |(i, n)| {
                let from = Self::BUCKET * i as u32;
                if i + 1 == self.counts.len() {
                    format!("{:>6.2}+      ms: {n}", ms(from))
                } else {
                    format!(
                        "{:>6.2}..{:<6.2} ms: {n}",
                        ms(from),
                        ms(from + Self::BUCKET)
                    )
                }
            })
    }
}
