//! Solving pending requests within the frame budget: oldest first, searches sliced across
//! frames, shared goal fields for group orders, parallel solver threads.
//!
//! A frame's work, in order:
//! 1. requests are taken from the front of the queue in batches (64, then twice as many
//!    each time, at most `max_requests_per_frame` in all) while the budget lasts;
//!    input errors are answered at once; a request whose search was suspended resumes it
//!    (carried over the map edits since, see `Pathfinder::resume`);
//! 2. requests that share a goal (see [`FieldSettings::min_requests`](crate::settings::FieldSettings::min_requests)) join its
//!    shared field, which grows until every one of their cells is settled (or the
//!    budget is spent);
//! 3. the other requests, and those whose field reached them, are served in queue order
//!    on the solver threads: a search runs until it ends or the budget does, and is then
//!    suspended (its pathfinder kept in a pool) to be resumed next frame.
//!
//! Steps 2 and 3 run for each batch; the next batch is taken while budget is left.
//!
//! Under an expansion budget the frame's answers are those of serving the work one job
//! after another with the expansions left: threads run ahead on later jobs, and a job
//! whose run could differ from that (it was given more than was left) is run again.

mod around;
mod fields;
mod finish;
mod jobs;
mod outcomes;
mod solvers;

use std::sync::Mutex;
use std::time::Instant;

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::PathQueue;
use super::answer::{Answered, Answerer, Outbox, write_answer};
use super::resolve::{prepare, world_position};
use crate::components::{
    FoundPath, NavGrid, PathFailure, PathRequest, PathResult, PathSolved, PathStatus,
    RefusedLayers, Replanning, UnitMap,
};
use crate::main_thread::MainThread;
use crate::profiles::MovementProfiles;
use crate::search::Around;
use crate::settings::{FrameBudget, TilepathSettings};
use crate::stats::TilepathStats;
use fields::Fields;
use jobs::{Budget, Job, Pace, Work};
use solvers::{Outcome, Solvers};

/// The requests the solve system reads and answers.
type Requests<'w, 's> = Query<
    'w,
    's,
    (
        &'static PathRequest,
        &'static mut PathResult,
        &'static mut PathStatus,
        Has<Replanning>,
    ),
>;

/// State of the solve system, kept between frames.
#[derive(Default)]
pub(crate) struct SolveState {
    solvers: Solvers,
    fields: Fields,
    /// The map generation the suspended searches and the fields are for.
    generation: Option<u64>,
    /// The map object ([`CachedScenario::id`](crate::scenario::CachedScenario::id)) they
    /// are for: a `NavGrid` inserted in place of another is another map.
    map: Option<u64>,
    /// [`NavGrid::upkeep_time`] and [`NavGrid::upkeep_work`] of that map when the solve
    /// step last ran.
    upkeep: std::time::Duration,
    upkeep_work: u64,
    /// Expansions of map upkeep not yet charged to an expansion budget (at most one
    /// frame's budget).
    upkeep_debt: u64,
    /// The tilemap sync refused every layer this frame: with no grid, requests fail with
    /// `MapRefused` instead of `NoMap`.
    map_refused: bool,
    /// The frame's [`UnitMap`], taken from the resource while the frame solves (an O(1)
    /// swap) and given back at its end, and what entering a unit's cell and a fully
    /// congested one cost.
    units: UnitMap,
    unit_penalty: f32,
    congestion_penalty: f32,
    /// Scratch of the paths planned again around units.
    detour: around::Detour,
    jobs: Vec<Job>,
    items: Vec<usize>,
    outcomes: Vec<(usize, Outcome)>,
    answers: Vec<(usize, Result<FoundPath, PathFailure>)>,
    answered: Vec<bool>,
}

/// Takes pending requests from the front of the queue and answers what the frame's
/// budget allows (see the [module docs](self)).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_paths(
    _main: MainThread,
    mut commands: Commands,
    grid: Option<Res<NavGrid>>,
    settings: Res<TilepathSettings>,
    profiles: Res<MovementProfiles>,
    mut queue: ResMut<PathQueue>,
    mut requests: Requests,
    transforms: TransformHelper,
    mut state: Local<SolveState>,
    mut solved: MessageWriter<PathSolved>,
    mut stats: ResMut<TilepathStats>,
    refused: Res<RefusedLayers>,
    mut unit_map: ResMut<UnitMap>,
) {
    let started = Instant::now();
    let state = &mut *state;
    std::mem::swap(&mut state.units, &mut *unit_map);
    state.unit_penalty = settings.crowd.unit_penalty;
    state.congestion_penalty = settings.congestion.penalty();
    state.map_refused = refused.0 > 0;
    let generation = grid.as_ref().map(|g| g.generation());
    let map = grid.as_ref().map(|g| g.scenario().id());
    let replaced = grid.as_ref().is_none_or(|g| {
        g.is_added()
            || state.map != map
            || state
                .generation
                .is_none_or(|seen| g.whole_map_generation() > seen)
    });
    if replaced {
        // Suspended searches were for another map, size or placement: drop them (the
        // requests are prepared and searched again from where their units stand).
        for s in state.solvers.suspended.drain(..) {
            set_back(&mut requests, s.entity, s.order);
            state.solvers.spares.push(s.pathfinder);
        }
    }
    state.solvers.keep_suspended(|entity, order| {
        requests
            .get(entity)
            .is_ok_and(|(_, _, ticket, _)| ticket.waits_as(order))
    });
    if replaced {
        state.fields.clear();
    } else if generation != state.generation
        && let Some(grid) = grid.as_deref()
    {
        // Suspended searches and fields of an edited map go on: carried over the edits
        // where that is exact (`Pathfinder::resume`, `DistanceField::carry_over`),
        // started over otherwise.
        state.fields.carry_over(grid.scenario());
        for (entity, order) in state.solvers.drop_cut_approaches(grid) {
            set_back(&mut requests, entity, order);
        }
    }
    // The map's upkeep since the last run (its edits: clearance, layers, components,
    // jump tables), wherever the edits were made, counts against the budget: its time
    // under a time budget, its work under an expansion budget.
    let (upkeep, upkeep_work) = grid.as_deref().map_or(Default::default(), |g| {
        let (total, work) = (g.upkeep_time(), g.upkeep_work());
        let since = match state.map == map {
            true => (
                total.saturating_sub(state.upkeep),
                work.saturating_sub(state.upkeep_work),
            ),
            false => (total, work),
        };
        (state.upkeep, state.upkeep_work) = (total, work);
        since
    });
    stats.upkeep_time = upkeep;
    stats.upkeep_work = upkeep_work;
    stats.upkeep_charged = 0;
    state.generation = generation;
    state.map = map;
    let mut budget = match settings.budget {
        FrameBudget::Expansions(n) => {
            // Upkeep owed (at most one frame's budget) takes at most half of the frame:
            // the oldest request keeps at least the other half (the progress
            // guarantee's `⌈b / 2⌉`).
            let n = u64::from(n.max(1));
            let owed = upkeep_work.div_ceil(UPKEEP_WORK_PER_EXPANSION);
            state.upkeep_debt = (state.upkeep_debt + owed).min(n);
            let charged = state.upkeep_debt.min(n / 2);
            state.upkeep_debt -= charged;
            stats.upkeep_charged = charged;
            Budget::Expansions { left: n - charged }
        }
        FrameBudget::Time(time) => Budget::Time {
            deadline: started
                .checked_sub(upkeep)
                .unwrap_or(started)
                .checked_add(time),
        },
    };
    state.jobs.clear();
    state.answers.clear();
    let max_jobs = settings.max_requests_per_frame.max(1);
    // Requests are taken in batches that double while the budget lasts: a frame that
    // can answer a few requests does not prepare thousands first (and put them back).
    let mut batch = FIRST_BATCH;
    loop {
        let first = state.jobs.len();
        let want = batch.min(max_jobs - first);
        let taken = take_jobs(
            state,
            grid.as_deref(),
            want,
            &settings,
            &profiles,
            &mut queue,
            &mut requests,
            &transforms,
            &mut commands,
            &mut solved,
            &mut stats,
        );
        if let Some(grid) = grid.as_deref()
            && state.jobs.len() > first
        {
            solve_jobs(
                state,
                grid,
                &settings,
                &mut budget,
                first,
                queue.frame(),
                &mut stats,
            );
        }
        let spent = match budget {
            Budget::Expansions { left } => left == 0,
            Budget::Time { deadline } => deadline.is_some_and(|d| Instant::now() >= d),
        };
        if !taken || spent || state.jobs.len() >= max_jobs {
            break;
        }
        batch = batch.saturating_mul(2);
    }
    let had_work = !state.jobs.is_empty();
    state.finish_jobs(
        &mut commands,
        &mut queue,
        &mut requests,
        &mut solved,
        &mut stats,
    );
    let behind = queue.urgent_front(64).any(|(order, entity)| {
        requests
            .get(entity)
            .is_ok_and(|(_, _, ticket, _)| ticket.waits_as(order))
    });
    queue.set_behind(behind);
    let (pathfinders, bytes) = state.solvers.memory();
    stats.pathfinders = pathfinders;
    stats.pathfinder_bytes = bytes;
    stats.suspended = state.solvers.suspended.len();
    stats.fields = state.fields.len();
    stats.field_bytes = state.fields.memory_bytes();
    std::mem::swap(&mut state.units, &mut *unit_map);
    finish_stats(&mut stats, &requests, started);
    if had_work {
        let time = stats.solve_time;
        stats.solve_times.record(time);
    }
}

impl SolveState {
    /// Plans the stretch of job `job`'s found path that crosses units it avoids again
    /// around them ([`around::around_units`]); returns the expansions it spent.
    fn plan_around_units(
        &mut self,
        grid: &NavGrid,
        job: usize,
        answer: &mut Result<FoundPath, PathFailure>,
    ) -> u64 {
        let Ok(path) = answer else {
            return 0;
        };
        let job = &self.jobs[job];
        let around = Around {
            units: self.units.cells(),
            avoid: job.avoid,
            penalty_tiles: self.unit_penalty,
            congestion: self.units.congestion(),
            congestion_tiles: self.congestion_penalty,
        };
        around::around_units(&mut self.detour, grid, &around, job.query(), path)
    }
}

/// Requests taken by the first batch of a frame; each further batch takes twice as many.
const FIRST_BATCH: usize = 64;

/// Units of map upkeep work ([`MapChange::work`](crate::scenario::MapChange::work)) that
/// an expansion budget charges as one expansion: a unit is a few nanoseconds of work, an
/// expansion about a hundred.
pub(crate) const UPKEEP_WORK_PER_EXPANSION: u64 = 32;

/// Records on `entity`'s ticket that map edits set back the work on its request `order`
/// (see [`Pace`]).
fn set_back(requests: &mut Requests, entity: Entity, order: u64) {
    if let Ok((_, _, mut ticket, _)) = requests.get_mut(entity)
        && ticket.order() == order
    {
        ticket.set_back();
    }
}

/// Takes up to `want` requests from the front of the queue as jobs (a suspended search
/// resumes, a new request is prepared) and answers those whose input is unusable at
/// once. Returns whether the queue had anything left to take.
#[allow(clippy::too_many_arguments)]
fn take_jobs(
    state: &mut SolveState,
    grid: Option<&NavGrid>,
    want: usize,
    settings: &TilepathSettings,
    profiles: &MovementProfiles,
    queue: &mut PathQueue,
    requests: &mut Requests,
    transforms: &TransformHelper,
    commands: &mut Commands,
    solved: &mut MessageWriter<PathSolved>,
    stats: &mut TilepathStats,
) -> bool {
    let first = state.jobs.len();
    while state.jobs.len() - first < want {
        let Some((order, entity)) = queue.pop_front() else {
            return false;
        };
        let Ok((request, mut result, mut ticket, replanning)) = requests.get_mut(entity) else {
            continue;
        };
        if !ticket.waits_as(order) {
            continue;
        }
        let front = state.jobs.is_empty();
        let solo = ticket.setbacks() >= Pace::SOLO;
        let whole = front && ticket.setbacks() >= Pace::WHOLE;
        if grid.is_some()
            && let Some(suspended) = state.solvers.take_suspended(entity, order)
        {
            let at = state.solvers.resumed.len();
            let setbacks = suspended.pathfinder.edit_setbacks();
            state.solvers.resumed.push(Mutex::new(suspended.pathfinder));
            state.jobs.push(Job {
                entity,
                order,
                work: Work::Search {
                    query: suspended.query,
                    resumed: Some(at),
                },
                ends: suspended.ends,
                approach: suspended.approach,
                solo,
                whole,
                setbacks,
                avoid: request.avoid_units,
            });
            continue;
        }
        let prepared = match grid {
            Some(grid) => prepare(
                grid,
                request,
                ticket.claimed_cell(),
                world_position(transforms, entity, None),
                settings,
                profiles,
            ),
            None if state.map_refused => Err(PathFailure::MapRefused),
            None => Err(PathFailure::NoMap),
        };
        match prepared {
            Ok((query, ends)) => state.jobs.push(Job {
                entity,
                order,
                work: Work::Search {
                    query,
                    resumed: None,
                },
                ends,
                approach: None,
                solo,
                whole,
                setbacks: 0,
                avoid: request.avoid_units,
            }),
            Err(failure) => {
                let unit = Answered {
                    entity,
                    result: &mut result,
                    status: &mut ticket,
                    replanning,
                };
                let by = Answerer::Solver {
                    still_queued: false,
                };
                let mut out = Outbox {
                    commands,
                    solved,
                    stats,
                };
                write_answer(unit, Err(failure), by, &mut out);
            }
        }
    }
    !queue.is_empty()
}

/// Grows the fields of the batch `state.jobs[first..]`, runs its jobs that are ready on
/// the solver threads and keeps what the budget allows: answers in `state.answers` (by
/// job index), suspended searches in the pool. Jobs of earlier batches that waited for
/// a field are not run again this frame.
fn solve_jobs(
    state: &mut SolveState,
    grid: &NavGrid,
    settings: &TilepathSettings,
    budget: &mut Budget,
    first: usize,
    frame: u64,
    stats: &mut TilepathStats,
) {
    let whole = first == 0 && state.jobs.first().is_some_and(|job| job.whole);
    if whole {
        run_whole(state, grid, settings, budget, stats);
    }
    // The frame's first slice always runs: progress even at a zero budget.
    let progressed = first > 0 || whole;
    state
        .fields
        .assign(grid, settings, &mut state.jobs, first, frame);
    // Under an expansion budget the oldest request's own search runs before any field
    // grows, with all the frame's expansions: fields cannot starve it.
    let front = first == 0
        && !whole
        && matches!(budget, Budget::Expansions { .. })
        && matches!(
            state.jobs.first().map(|job| &job.work),
            Some(Work::Search { .. })
        );
    if front {
        run_first_alone(state, grid, settings, *budget);
        state.keep_outcomes(grid, budget, stats);
    }
    let grown = state
        .fields
        .grow(grid.scenario(), budget, progressed || front);
    stats.expanded += grown;
    state.items.clear();
    for (index, job) in state.jobs.iter_mut().enumerate().skip(first) {
        if job.whole || (front && index == 0) {
            continue; // answered by `run_whole`, or run first
        }
        let (at, query) = match job.work {
            Work::Field { field, query } => (field, query),
            Work::Search { .. } => {
                state.items.push(index);
                continue;
            }
        };
        let field = state.fields.field(at);
        if !field.is_settled(query.start) {
            if !field.is_complete() {
                continue; // the field has not reached it yet
            }
            // Not connected after all: its own search answers it.
            job.work = Work::Search {
                query,
                resumed: None,
            };
        }
        state.items.push(index);
    }
    if state.items.is_empty() {
        return;
    }
    // Under an expansion budget a resumed search behind another item must be given
    // exactly what serving the items in order leaves it: it cannot be run again.
    let sequential = matches!(budget, Budget::Expansions { .. })
        && state.items.iter().skip(1).any(|&i| {
            matches!(
                state.jobs[i].work,
                Work::Search {
                    resumed: Some(_),
                    ..
                }
            )
        });
    state.solvers.run(
        &state.jobs,
        &state.items,
        &state.fields,
        grid,
        settings,
        *budget,
        progressed,
        sequential,
        &mut state.outcomes,
    );
    state.keep_outcomes(grid, budget, stats);
}

/// Runs the frame's first job alone on one solver thread within `budget`; its outcome
/// goes to `state.outcomes`.
fn run_first_alone(
    state: &mut SolveState,
    grid: &NavGrid,
    settings: &TilepathSettings,
    budget: Budget,
) {
    state.items.clear();
    state.items.push(0);
    state.solvers.run(
        &state.jobs,
        &state.items,
        &state.fields,
        grid,
        settings,
        budget,
        false,
        true,
        &mut state.outcomes,
    );
}

/// Runs the frame's first job, the oldest request, set back by edits at least
/// [`Pace::WHOLE`] times, to its end whatever the budget (charging an expansion budget
/// what it took): the bound of the progress guarantee.
fn run_whole(
    state: &mut SolveState,
    grid: &NavGrid,
    settings: &TilepathSettings,
    budget: &mut Budget,
    stats: &mut TilepathStats,
) {
    run_first_alone(state, grid, settings, Budget::Time { deadline: None });
    for (_, outcome) in std::mem::take(&mut state.outcomes) {
        let charge = match outcome {
            Outcome::Answer {
                mut answer, charge, ..
            } => {
                let extra = state.plan_around_units(grid, 0, &mut answer);
                state.answers.push((0, answer));
                charge + extra
            }
            // Without a deadline a search ends; should it not, it waits for next frame.
            Outcome::Suspended {
                charge, pathfinder, ..
            } => {
                if let Some(pathfinder) = pathfinder {
                    state.solvers.spares.push(*pathfinder);
                }
                charge
            }
        };
        stats.expanded += charge;
        stats.whole += 1;
        if let Budget::Expansions { left } = budget {
            *left = left.saturating_sub(charge);
        }
    }
}

/// Adds this frame's expansions and whole runs to the totals (answers count themselves,
/// see [`write_answer`]) and counts the requests still waiting.
fn finish_stats(stats: &mut TilepathStats, requests: &Requests, started: Instant) {
    stats.total_expanded += stats.expanded;
    stats.total_whole += stats.whole as u64;
    // Every queued ticket has its entry in the queue (stale entries are skipped when
    // taken): counting tickets reads one column in order, where looking up each entry
    // cost 0.4 ms a frame with 5,000 entries.
    stats.pending = requests
        .iter()
        .filter(|(_, _, ticket, _)| ticket.is_queued())
        .count();
    stats.solve_time = started.elapsed();
}
