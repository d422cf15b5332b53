//! The live-edits scenario: an army of steering units on a generated map whose tiles flip
//! every frame, and what it measures (pending requests, waits, re-plans, solves, frozen
//! units, arrivals, solve times). `crates/bench/examples/live_edits/main.rs` runs it from
//! the command line (`cargo run --release -p tilepath_bench --example live_edits`); the
//! plugin tests run a small version of it (`tests/plugin/live.rs`), so it stays in this crate.
//!
//! # What is measured
//!
//! - **Pending**: [`TilepathStats::pending`] after each frame (requests still queued).
//! - **Wait** of an answered request: the plugin frame of its answer minus the frame it
//!   was last queued in ([`PathStatus::queued_frame`]): 0 when answered the frame it was
//!   queued, and for a path repaired in place (answered in the frame of the edit). A
//!   re-plan triggered while the request already waits keeps its place (and its queued
//!   frame). Re-plans that may only improve a valid path wait in a lane of their own
//!   (`QueueLane::Improvement`), counted apart.
//! - **Frozen unit-frame**: after a frame, a unit that has a goal (a [`PathRequest`]),
//!   has not arrived (no [`Arrived`]), did not move in that frame (its translation is
//!   bit-identical to the one before the frame) and has no path to follow: its
//!   [`PathResult`] is `Failed`, or it is `Found` but the unit carries [`Replanning`]
//!   (it waits for a re-plan, typically in front of a wall that cut its path). A unit
//!   held back by the crowd while it has a current path is not frozen.
//! - **New-order unit-frame**: the same, but the result is `Pending`: the unit got a new
//!   goal (after an arrival) and waits for its first answer. Counted apart, as an RTS
//!   unit that was just given an order, not one stopped by an edit.
//! - **Arrival**: a unit with [`Arrived`] whose answer is for its current request; it is
//!   then sent to a new random free cell (so arrivals keep counting).
//! - **Solve time**: [`TilepathStats::solve_time`] of every measured frame (frames
//!   without work included).

#![allow(dead_code)]

use std::collections::HashSet;
use std::time::Duration;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Arrived, CachedScenario, Cell, NavGrid, PathError, PathFailure, PathRequest, PathResult,
    PathSolved, PathStatus, QueueLane, Replanning, Scenario, Steering, TilepathPlugin,
    TilepathSettings, TilepathStats, TilepathSystems,
};
use bevy_tilepath::scenario::generate::{self, SplitMix64};

#[path = "watch.rs"]
mod watch;
use bevy_tilepath::prelude::FrameBudget;
use watch::{Before, Motion, remember_positions};

/// World units per cell.
pub const TILE: f32 = 16.0;
/// Simulated time per frame.
pub const FRAME: Duration = Duration::from_millis(16);

/// What the scenario runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Steering units.
    pub units: usize,
    /// Side of the square map, in cells.
    pub size: u32,
    /// Measured frames (after the warm-up that answers the first orders).
    pub frames: u32,
    /// Tiles flipped per frame: half of them (rounded down) free cells that become walls,
    /// the rest walls that open.
    pub edits: usize,
    /// Wall-clock solve budget per frame.
    pub budget: Duration,
    /// Count the budget in expansions instead ([`FrameBudget::Expansions`]):
    /// the run is then deterministic.
    pub expansions: Option<u32>,
    /// Seed of the map, the units, their goals and the edits.
    pub seed: u64,
    /// Unit speed in cells per second.
    pub speed: f32,
    /// [`TilepathSettings::max_requests_per_frame`] (`None`: the plugin's default).
    pub max_requests: Option<usize>,
    /// [`ReplanSettings::defer_cuts_beyond`](bevy_tilepath::prelude::ReplanSettings::defer_cuts_beyond) (`None`: the plugin's default).
    pub defer_cuts: Option<u32>,
    /// [`TilepathSettings::jump_tables`].
    pub jump_tables: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            units: 5_000,
            size: 256,
            frames: 600,
            edits: 20,
            budget: Duration::from_millis(2),
            expansions: None,
            seed: 11,
            speed: 6.0,
            max_requests: None,
            defer_cuts: None,
            jump_tables: true,
        }
    }
}

/// Counters of the measured frames.
#[derive(Resource, Clone, Debug, Default)]
pub struct Metrics {
    /// Measured frames so far.
    pub frames: u32,
    /// Pending requests after the last frame, and the most after any measured frame.
    pub pending: usize,
    pub max_pending: usize,
    /// The longest wait of an answered request, in frames (see the module docs).
    pub max_wait: u64,
    /// Answers by wait: `waits[w]` answers waited `w` frames (the last bucket: longer).
    pub waits: Vec<u64>,
    /// Re-plans, paths repaired in place, answers of the solver (paths and failures),
    /// cells the solver expanded, `PathSolved` messages.
    pub replans: u64,
    pub repairs: u64,
    /// Provisional detours given to units whose re-plan waits (`TilepathStats::detoured`).
    pub detours: u64,
    pub expanded: u64,
    pub solves: u64,
    pub solved_messages: u64,
    /// Frozen unit-frames (see the module docs).
    pub frozen: u64,
    /// Unit-frames in which a unit did not move because it waited for the first answer
    /// to its new goal (its result `Pending`): new orders, counted apart from frozen.
    pub ordered: u64,
    /// Unit-frames in which a unit with a current path did not move (crowds, stalls): for
    /// information, not frozen.
    pub idle: u64,
    /// Units that reached the end of their path and got a new goal.
    pub arrivals: u64,
    /// Tiles flipped: free cells that became walls (and how many had a unit on them), walls
    /// that opened.
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
    /// Per measured frame, the time of each of the plugin's system sets:
    /// [`STAGES`] in order.
    pub stage_times: Vec<[Duration; 4]>,
    /// Re-plans and answers of every measured frame.
    pub replans_per_frame: Vec<usize>,
    pub solves_per_frame: Vec<usize>,
}

impl Metrics {
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
}

/// What the scenario keeps between frames.
#[derive(Resource)]
struct Live {
    /// Edits and new goals run only once the warm-up is over.
    on: bool,
    /// Plugin frames so far (counted like the plugin's queue: once per run of `Update`).
    frame: u64,
    rng: SplitMix64,
    size: GridSize,
    edits: usize,
}

/// The scenario's app: `plugins` (`MinimalPlugins` with the task pool you want), the
/// plugin in `Update`, the map, the units and their first goals. Run [`warm_up`] next.
pub fn build(config: &Config, plugins: PluginGroupBuilder) -> App {
    let mut app = App::new();
    app.add_plugins((plugins, TilepathPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
    let size = GridSize::new(config.size, config.size);
    let bits = generate::rts_level(size, config.seed);
    let map = CachedScenario::from_bits(bits).expect("a supported map size");
    let mut rng = SplitMix64::new(config.seed ^ 0x5EED);
    let free: Vec<Cell> = (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| !map.is_obstacle(c))
        .collect();
    let grid = NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE));
    let mut taken = HashSet::new();
    for _ in 0..config.units.min(free.len()) {
        let start = loop {
            let c = free[rng.below(free.len() as u32) as usize];
            if taken.insert(c) {
                break c;
            }
        };
        let goal = free[rng.below(free.len() as u32) as usize];
        app.world_mut().spawn((
            Transform::from_translation(grid.agent_center(start, 1).extend(1.0)),
            PathRequest::new(goal),
            Steering::with_speed(config.speed * TILE),
            Before::default(),
        ));
    }
    app.insert_resource(grid);
    app.insert_resource(Live {
        on: false,
        frame: 0,
        rng,
        size,
        edits: config.edits,
    });
    app.insert_resource(Metrics {
        waits: vec![0; 64],
        ..default()
    });
    app.init_resource::<Marks>();
    app.add_systems(
        Update,
        (
            (count_frame, remember_positions, edit_map, mark::<0>)
                .chain()
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
            mark::<4>.after(TilepathSystems::Steer).before(count_units),
            read_answers.after(TilepathSystems::Solve),
            (count_units, new_goals)
                .chain()
                .after(TilepathSystems::Steer),
        ),
    );
    app
}

/// Answers the first orders with no budget (the measured frames start with every unit
/// walking), then sets the configured budget. Returns the warm-up frames.
pub fn warm_up(app: &mut App, config: &Config) -> u32 {
    let frames = watch::answer_first_orders(app);
    let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
    *settings = TilepathSettings {
        budget: match config.expansions {
            Some(n) => FrameBudget::Expansions(n),
            None => FrameBudget::Time(config.budget),
        },
        ..default()
    };
    if let Some(n) = config.max_requests {
        settings.max_requests_per_frame = n;
    }
    if let Some(n) = config.defer_cuts {
        settings.replan.defer_cuts_beyond = n;
    }
    settings.jump_tables = config.jump_tables;
    app.world_mut().resource_mut::<Live>().on = true;
    frames
}

/// Runs one measured frame.
pub fn step(app: &mut App) {
    app.update();
}

fn count_frame(mut live: ResMut<Live>) {
    live.frame += 1;
}

/// Flips `edits` random tiles in one edit: half of them free cells that become walls
/// (with or without a unit on them), the rest walls that open.
fn edit_map(
    mut live: ResMut<Live>,
    grid: Option<ResMut<NavGrid>>,
    units: Query<&Transform, With<PathRequest>>,
    mut metrics: ResMut<Metrics>,
) {
    let Some(mut grid) = grid else {
        return;
    };
    if !live.on {
        return;
    }
    let live = &mut *live;
    let size = live.size;
    let walls = live.edits / 2;
    let openings = live.edits - walls;
    let mut chosen: Vec<(Cell, bool)> = Vec::with_capacity(live.edits);
    let mut pick = |want_obstacle: bool, n: usize, chosen: &mut Vec<(Cell, bool)>| {
        let mut found = 0;
        for _ in 0..n * 200 {
            if found == n {
                break;
            }
            let c = Cell::new(
                live.rng.below(size.width) as i32,
                live.rng.below(size.height) as i32,
            );
            if grid.scenario().is_obstacle(c) == want_obstacle
                && chosen.iter().all(|&(d, _)| d != c)
            {
                chosen.push((c, !want_obstacle));
                found += 1;
            }
        }
    };
    pick(false, walls, &mut chosen);
    pick(true, openings, &mut chosen);
    let occupied: HashSet<Cell> = units
        .iter()
        .filter_map(|t| grid.agent_cell(t.translation.truncate(), 1))
        .collect();
    for &(cell, blocked) in &chosen {
        if blocked {
            metrics.walls_built += 1;
            metrics.walls_on_units += u64::from(occupied.contains(&cell));
        } else {
            metrics.walls_opened += 1;
        }
    }
    grid.apply_edits(chosen);
}

/// Counts the frame's `PathSolved` messages and the waits of the answers.
fn read_answers(
    live: Res<Live>,
    mut solved: MessageReader<PathSolved>,
    tickets: Query<&PathStatus>,
    stats: Res<TilepathStats>,
    mut metrics: ResMut<Metrics>,
) {
    if !live.on {
        solved.clear();
        return;
    }
    let metrics = &mut *metrics;
    for message in solved.read() {
        metrics.solved_messages += 1;
        // (A path repaired while its request waits in the improvement lane is not the
        // request's answer yet: its ticket stays queued.)
        if let Some(ticket) = tickets.get(message.entity).ok().filter(|t| !t.is_queued()) {
            let wait = live.frame.saturating_sub(ticket.queued_frame());
            metrics.max_wait = metrics.max_wait.max(wait);
            let last = metrics.waits.len() - 1;
            metrics.waits[(wait as usize).min(last)] += 1;
        }
    }
    metrics.frames += 1;
    metrics.pending = stats.pending;
    metrics.max_pending = metrics.max_pending.max(stats.pending);
    metrics.replans += stats.replanned as u64;
    metrics.repairs += stats.repaired as u64;
    metrics.detours += stats.detoured as u64;
    metrics.expanded += stats.expanded;
    metrics.solves += (stats.solved + stats.failed) as u64;
    metrics.solve_times.push(stats.solve_time);
    metrics.replan_times.push(stats.replan_time);
    metrics.replans_per_frame.push(stats.replanned);
    metrics.solves_per_frame.push(stats.solved + stats.failed);
}

/// The plugin's system sets whose times [`Metrics::stage_times`] holds, in order.
pub const STAGES: [&str; 4] = ["sync", "re-plan", "solve", "steer"];

/// When each stage of this frame began (and the last one ended), marked by [`mark`].
#[derive(Resource, Default)]
struct Marks([Option<std::time::Instant>; 5]);

/// Marks the boundary `I` between the plugin's system sets.
fn mark<const I: usize>(mut marks: ResMut<Marks>) {
    marks.0[I] = Some(std::time::Instant::now());
}

/// What [`count_units`] reads of a unit.
type UnitState = (
    &'static Transform,
    &'static Before,
    &'static PathResult,
    Has<Arrived>,
    Has<Replanning>,
);

/// Counts frozen and idle units (see the module docs).
fn count_units(
    live: Res<Live>,
    units: Query<UnitState>,
    stats: Res<TilepathStats>,
    marks: Res<Marks>,
    mut metrics: ResMut<Metrics>,
) {
    if !live.on {
        return;
    }
    metrics.plugin_times.push(stats.plugin_time);
    let span = |i: usize| match (marks.0[i], marks.0[i + 1]) {
        (Some(a), Some(b)) => b.saturating_duration_since(a),
        _ => Duration::ZERO,
    };
    metrics
        .stage_times
        .push([span(0), span(1), span(2), span(3)]);
    for (transform, before, result, arrived, replanning) in &units {
        match watch::motion(transform.translation, before, arrived, replanning, result) {
            Motion::Moving => {}
            Motion::Idle => metrics.idle += 1,
            Motion::Ordered => metrics.ordered += 1,
            Motion::Frozen => metrics.frozen += 1,
        }
    }
}

/// Sends every unit that arrived (at the end of the path answering its current request)
/// to a new random free cell.
fn new_goals(
    mut live: ResMut<Live>,
    grid: Res<NavGrid>,
    mut units: Query<(&mut PathRequest, &PathResult, &PathStatus), With<Arrived>>,
    mut metrics: ResMut<Metrics>,
) {
    if !live.on {
        return;
    }
    let size = live.size;
    for (mut request, result, ticket) in &mut units {
        if result.found().is_none() || ticket.request() != Some(&*request) {
            continue;
        }
        let goal = loop {
            let c = Cell::new(
                live.rng.below(size.width) as i32,
                live.rng.below(size.height) as i32,
            );
            if !grid.scenario().is_obstacle(c) {
                break c;
            }
        };
        request.goal = goal.into();
        metrics.arrivals += 1;
    }
}

/// Units whose request failed with `StartBlocked`, and units whose cell is blocked, now.
pub fn blocked_units(app: &App) -> (usize, usize) {
    let grid = app.world().resource::<NavGrid>();
    let mut start_blocked = 0;
    let mut in_walls = 0;
    let mut query = app
        .world()
        .try_query::<(&Transform, &PathResult, &PathRequest)>()
        .expect("registered components");
    for (transform, result, request) in query.iter(app.world()) {
        if matches!(
            result,
            PathResult::Failed(PathFailure::Search(PathError::StartBlocked { .. }))
        ) {
            start_blocked += 1;
        }
        let cell = grid.agent_cell(transform.translation.truncate(), request.diameter);
        if cell.is_none_or(|c| grid.is_blocked(c, request.diameter)) {
            in_walls += 1;
        }
    }
    (start_blocked, in_walls)
}

/// Requests still queued now.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unanswered {
    /// Requests queued, and the longest any of them has waited so far, in frames.
    pub count: usize,
    pub oldest: u64,
    /// Of those, re-plans that may only improve a valid path (see
    /// `QueueLane::Improvement`; they wait behind the others), and their longest wait.
    pub improvements: usize,
    pub oldest_improvement: u64,
}

/// The requests still queued now (see [`Unanswered`]).
pub fn unanswered(app: &App) -> Unanswered {
    let frame = app.world().resource::<Live>().frame;
    let mut query = app
        .world()
        .try_query::<&PathStatus>()
        .expect("registered components");
    let mut out = Unanswered::default();
    for ticket in query.iter(app.world()) {
        if ticket.is_queued() {
            let wait = frame.saturating_sub(ticket.queued_frame());
            if is_improvement(ticket) {
                out.improvements += 1;
                out.oldest_improvement = out.oldest_improvement.max(wait);
            } else {
                out.count += 1;
                out.oldest = out.oldest.max(wait);
            }
        }
    }
    out.count += out.improvements;
    out
}

/// True for a re-plan queued in the improvement lane.
fn is_improvement(ticket: &PathStatus) -> bool {
    ticket.lane() == QueueLane::Improvement
}

/// The scenario's counters.
pub fn metrics(app: &App) -> &Metrics {
    app.world().resource::<Metrics>()
}

/// The plugin's counters.
pub fn stats(app: &App) -> &TilepathStats {
    app.world().resource::<TilepathStats>()
}
