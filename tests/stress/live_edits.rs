//! The live-edits mode: units of one size on `rts_level`, random tiles flipped every frame.
//!
//! Units start on distinct random free cells of `rts_level(size, seed)` and are sent to
//! random free cells, a new one on every arrival; every frame `edits` random tiles flip
//! (half free cells that become walls, some under units, half walls that open). The
//! plugin tests run a small version of it (`tests/plugin/live.rs`).
//!
//! # What is measured
//!
//! Besides what every mode counts ([`Metrics`](super::Metrics)):
//!
//! - **Pending**: `TilepathStats::pending` after each frame (requests still queued).
//! - **Wait** of an answered request: the plugin frame of its answer minus the frame it
//!   was last queued in ([`PathStatus::queued_frame`]): 0 when answered the frame it was
//!   queued, and for a path repaired in place (answered in the frame of the edit). A
//!   re-plan triggered while the request already waits keeps its place (and its queued
//!   frame). Re-plans that may only improve a valid path wait in a lane of their own
//!   (`QueueLane::Improvement`), counted apart.
//! - **Frozen unit-frame**: after a frame, a unit that has a goal (a [`PathRequest`]),
//!   has not arrived (no [`Arrived`]), did not move in that frame (its translation is
//!   bit-identical to the one before the frame) and has no path to follow: its
//!   [`PathResult`] is `Failed`, or it is `Found` but the unit carries `Replanning`
//!   (it waits for a re-plan, typically in front of a wall that cut its path). A unit
//!   held back by the crowd while it has a current path is not frozen.
//! - **New-order unit-frame**: the same, but the result is `Pending`: the unit got a new
//!   goal (after an arrival) and waits for its first answer. Counted apart, as an RTS
//!   unit that was just given an order, not one stopped by an edit.
//! - **Arrival**: a unit with [`Arrived`] whose answer is for its current request; it is
//!   then sent to a new random free cell (so arrivals keep counting).
//! - **Solve time**: `TilepathStats::solve_time` of every measured frame (frames
//!   without work included).

use std::collections::HashSet;

use bevy::prelude::*;
use bevy_tilepath::components::{PathStatus, QueueLane};
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Arrived, Cell, NavGrid, PathFailure, PathRequest, PathResult, PathSolved, TilepathSettings,
    TilepathSystems,
};
use bevy_tilepath::scenario::generate::{self, SplitMix64};
use bevy_tilepath::scenario::{CachedScenario, Scenario};
use bevy_tilepath::search::PathError;

use super::{Config, Metrics, Stress, StressSystems, TILE};

/// What only the live-edits mode has.
#[derive(Clone, Debug)]
pub struct Options {
    /// Unit speed in cells per second.
    pub speed: f32,
    /// [`TilepathSettings::max_requests_per_frame`] (`None`: the plugin's default).
    pub max_requests: Option<usize>,
    /// [`ReplanSettings::defer_cuts_beyond`](bevy_tilepath::prelude::ReplanSettings::defer_cuts_beyond)
    /// (`None`: the plugin's default).
    pub defer_cuts: Option<u32>,
    /// [`ReplanSettings::review_budget`](bevy_tilepath::prelude::ReplanSettings::review_budget)
    /// (`None`: the plugin's default).
    pub review_budget: Option<u32>,
    /// [`TilepathSettings::jump_tables`].
    pub jump_tables: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            speed: 6.0,
            max_requests: None,
            defer_cuts: None,
            review_budget: None,
            jump_tables: true,
        }
    }
}

impl Options {
    /// Puts these options into the measured frames' settings.
    pub(super) fn configure(&self, settings: &mut TilepathSettings) {
        if let Some(n) = self.max_requests {
            settings.max_requests_per_frame = n;
        }
        if let Some(n) = self.defer_cuts {
            settings.replan.defer_cuts_beyond = n;
        }
        if let Some(n) = self.review_budget {
            settings.replan.review_budget = n;
        }
        settings.jump_tables = self.jump_tables;
    }
}

/// The map and the units, each on a free cell of its own with a random free goal.
/// Returns the random numbers that draw the rest of the run.
pub(super) fn populate(app: &mut App, config: &Config, options: &Options) -> SplitMix64 {
    let size = GridSize::new(config.size, config.size);
    let bits = generate::rts_level(size, config.seed);
    let map = CachedScenario::from_bits(bits).expect("a supported map size");
    let mut rng = SplitMix64::new(config.seed ^ 0x5EED);
    let free = super::free_cells(size, |c| map.is_obstacle(c));
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
        super::spawn_unit(app, &grid, start, PathRequest::new(goal), options.speed, ());
    }
    app.insert_resource(grid);
    rng
}

/// The mode's systems: the edits, the answers' waits, the new goals.
pub(super) fn add_systems(app: &mut App) {
    app.add_systems(
        Update,
        (
            edit_map.in_set(StressSystems::Edit),
            read_answers.after(TilepathSystems::Solve),
            new_goals.in_set(StressSystems::Count),
        ),
    );
}

/// Flips `edits` random tiles in one edit: half of them free cells that become walls
/// (with or without a unit on them), the rest walls that open.
fn edit_map(
    mut stress: ResMut<Stress>,
    mut grid: ResMut<NavGrid>,
    units: Query<&Transform, With<PathRequest>>,
    mut metrics: ResMut<Metrics>,
) {
    if !stress.on {
        return;
    }
    let stress = &mut *stress;
    let walls = stress.edits / 2;
    let openings = stress.edits - walls;
    let mut chosen: Vec<(Cell, bool)> = Vec::with_capacity(stress.edits);
    for (blocked, n) in [(true, walls), (false, openings)] {
        let map = grid.scenario();
        super::draw_edits(
            &mut stress.rng,
            stress.size,
            (n, 200),
            blocked,
            &mut chosen,
            |c| map.is_obstacle(c) != blocked,
        );
    }
    let occupied: HashSet<Cell> = units
        .iter()
        .filter_map(|t| grid.agent_cell(t.translation.truncate(), 1))
        .collect();
    metrics.walls_on_units += chosen
        .iter()
        .filter(|&&(cell, blocked)| blocked && occupied.contains(&cell))
        .count() as u64;
    super::apply_edits(&mut grid, chosen, &mut metrics);
}

/// Counts the frame's `PathSolved` messages and the waits of the answers.
fn read_answers(
    stress: Res<Stress>,
    mut solved: MessageReader<PathSolved>,
    tickets: Query<&PathStatus>,
    mut metrics: ResMut<Metrics>,
) {
    if !stress.on {
        solved.clear();
        return;
    }
    for message in solved.read() {
        metrics.solved_messages += 1;
        // (A path repaired while its request waits in the improvement lane is not the
        // request's answer yet: its ticket stays queued.)
        if let Some(ticket) = tickets.get(message.entity).ok().filter(|t| !t.is_queued()) {
            metrics.count_wait(stress.frame.saturating_sub(ticket.queued_frame()));
        }
    }
}

/// Sends every unit that arrived (at the end of the path answering its current request)
/// to a new random free cell.
fn new_goals(
    mut stress: ResMut<Stress>,
    grid: Res<NavGrid>,
    mut units: Query<(&mut PathRequest, &PathResult, &PathStatus), With<Arrived>>,
    mut metrics: ResMut<Metrics>,
) {
    if !stress.on {
        return;
    }
    let stress = &mut *stress;
    for (mut request, result, ticket) in &mut units {
        if result.found().is_none() || ticket.request() != Some(&*request) {
            continue;
        }
        let goal = loop {
            let c = super::random_cell(&mut stress.rng, stress.size);
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
    let frame = app.world().resource::<Stress>().frame;
    let mut query = app
        .world()
        .try_query::<&PathStatus>()
        .expect("registered components");
    let mut out = Unanswered::default();
    for ticket in query.iter(app.world()) {
        if ticket.is_queued() {
            let wait = frame.saturating_sub(ticket.queued_frame());
            if ticket.lane() == QueueLane::Improvement {
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
