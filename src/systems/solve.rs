//! Solving pending requests within the frame budget: oldest first, searches sliced across
//! frames, shared goal fields for group orders, parallel solver threads.
//!
//! A frame's work, in order:
//! 1. requests are taken from the front of the queue (at most `max_requests_per_frame`);
//!    input errors are answered at once; a request whose search was suspended resumes it;
//! 2. requests that share a goal (see [`TilepathSettings::field_min_requests`]) join its
//!    shared field, which grows until every one of their cells is settled (or the
//!    budget is spent);
//! 3. the other requests, and those whose field reached them, are served in queue order
//!    on the solver threads: a search runs until it ends or the budget does, and is then
//!    suspended (its pathfinder kept in a pool) to be resumed next frame.
//!
//! Under an expansion budget the frame's answers are those of serving the work one job
//! after another with the expansions left: threads run ahead on later jobs, and a job
//! whose run could differ from that (it was given more than was left) is run again.

use std::sync::Mutex;
use std::time::Instant;

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::PathQueue;
use super::fields::{FieldKey, Fields};
use super::prepare::{prepare, world_position};
use super::slices::{self, Budget, Outcome, Solvers, Suspended};
use crate::components::{
    FoundPath, NavGrid, PathFailure, PathRequest, PathResult, PathSolved, PathTicket, Replanning,
};
use crate::grid::{Cell, cost_to_f64};
use crate::plugin::TilepathSettings;
use crate::profiles::MovementProfiles;
use crate::search::{PathQuery as SearchQuery, PathStats, Pathfinder};
use crate::stats::TilepathStats;

/// One request taken from the queue this frame.
#[derive(Debug)]
pub(crate) struct Job {
    pub(crate) entity: Entity,
    pub(crate) order: u64,
    pub(crate) work: Work,
    /// What the answer reports about its ends (kept while the search is suspended).
    pub(crate) ends: Ends,
}

/// What a path reports about its ends beyond the search's own answer: the unit's cell,
/// the requested goal and whether it is out of reach (see [`FoundPath`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ends {
    pub(crate) from: Cell,
    pub(crate) requested: Cell,
    pub(crate) partial: bool,
}

/// What a job needs.
#[derive(Debug)]
pub(crate) enum Work {
    /// A search: new (`slot` is `None`) or suspended in an earlier frame (its pathfinder
    /// is in `Solvers::slots[slot]`; the query is the one it started with), guided by a
    /// shared field when `guide` is set (see [`Guide`]).
    Search {
        query: SearchQuery,
        slot: Option<usize>,
        guide: Option<Guide>,
    },
    /// A path read off the shared field with this index.
    Field { field: usize, query: SearchQuery },
}

/// A shared field that guides a search to a goal near the field's own (a claimed cell or
/// a formation slot of a group order): its distances bound the search from below, see
/// `Pathfinder::find_guided`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guide {
    /// Which field, across frames.
    pub(crate) key: FieldKey,
    /// Its index among this frame's fields (`usize::MAX` until the frame resolves it).
    pub(crate) field: usize,
}

/// The requests the solve system reads and answers.
type Requests<'w, 's> = Query<
    'w,
    's,
    (
        &'static PathRequest,
        &'static mut PathResult,
        &'static mut PathTicket,
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
) {
    let started = Instant::now();
    let state = &mut *state;
    stats.field_answers = 0;
    stats.guided = 0;
    let generation = grid.as_ref().map(|g| g.generation());
    if generation != state.generation || grid.as_ref().is_some_and(|g| g.is_added()) {
        // Suspended searches and fields were for another map: drop them (the requests
        // are prepared and searched again from where their units stand).
        state.solvers.forget_suspended();
        state.fields.clear();
        state.generation = generation;
    }
    let mut budget = match settings.expansion_budget {
        Some(n) => Budget::Expansions {
            left: u64::from(n.max(1)),
        },
        None => Budget::Time {
            deadline: started.checked_add(settings.frame_budget),
        },
    };
    state.jobs.clear();
    state.answers.clear();
    let max_jobs = settings.max_requests_per_frame.max(1);
    while state.jobs.len() < max_jobs {
        let Some((order, entity)) = queue.entries.pop_front() else {
            break;
        };
        let Ok((request, mut result, mut ticket, replanning)) = requests.get_mut(entity) else {
            continue;
        };
        if ticket.order() != order || !ticket.is_queued() {
            continue;
        }
        if grid.is_some()
            && let Some(suspended) = state.solvers.take_suspended(entity, order)
        {
            let slot = state.solvers.slots.len();
            state.solvers.slots.push(Mutex::new(suspended.pathfinder));
            state.jobs.push(Job {
                entity,
                order,
                work: Work::Search {
                    query: suspended.query,
                    slot: Some(slot),
                    guide: suspended.guide.map(|key| Guide {
                        key,
                        field: usize::MAX,
                    }),
                },
                ends: suspended.ends,
            });
            continue;
        }
        let prepared = match grid.as_deref() {
            Some(grid) => prepare(
                grid,
                request,
                ticket.slot(),
                world_position(&transforms, entity),
                &settings,
                &profiles,
            ),
            None => Err(PathFailure::NoMap),
        };
        match prepared {
            Ok((query, ends)) => state.jobs.push(Job {
                entity,
                order,
                work: Work::Search {
                    query,
                    slot: None,
                    guide: None,
                },
                ends,
            }),
            Err(failure) => {
                ticket.answered();
                *result = PathResult::Failed(failure);
                if replanning {
                    commands.entity(entity).remove::<Replanning>();
                }
                stats.failed += 1;
                solved.write(PathSolved {
                    entity,
                    outcome: Err(failure),
                });
            }
        }
    }
    let had_work = !state.jobs.is_empty();
    if let Some(grid) = grid.as_deref()
        && had_work
    {
        solve_jobs(state, grid, &settings, &mut budget, queue.frame, &mut stats);
    }
    finish_jobs(
        state,
        &mut commands,
        &mut queue,
        &mut requests,
        &mut solved,
        &mut stats,
    );
    let (pathfinders, bytes) = state.solvers.memory();
    stats.pathfinders = pathfinders;
    stats.pathfinder_bytes = bytes;
    stats.suspended = state.solvers.suspended.len();
    stats.fields = state.fields.len();
    stats.field_bytes = state.fields.memory_bytes();
    finish_stats(&mut stats, &queue, &requests, started);
    if had_work {
        let time = stats.solve_time;
        stats.solve_times.record(time);
    }
}

/// Grows the fields of this frame's jobs, runs the jobs that are ready on the solver
/// threads and keeps what the budget allows: answers in `state.answers` (by job index),
/// suspended searches in the pool.
fn solve_jobs(
    state: &mut SolveState,
    grid: &NavGrid,
    settings: &TilepathSettings,
    budget: &mut Budget,
    frame: u64,
    stats: &mut TilepathStats,
) {
    state.fields.assign(grid, settings, &mut state.jobs, frame);
    let grown = state.fields.grow(grid.scenario(), budget, false);
    stats.expanded += grown;
    state.items.clear();
    for (index, job) in state.jobs.iter_mut().enumerate() {
        let (at, query) = match job.work {
            Work::Field { field, query } => (field, query),
            Work::Search {
                query,
                slot: None,
                guide: Some(guide),
            } => (guide.field, query),
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
                slot: None,
                guide: None,
            };
        }
        state.items.push(index);
    }
    let progressed = grown > 0;
    if state.items.is_empty() {
        return;
    }
    state.solvers.run(
        &state.jobs,
        &state.items,
        &state.fields,
        grid,
        settings,
        *budget,
        progressed,
        &mut state.outcomes,
    );
    let mut left = match *budget {
        Budget::Expansions { left } => Some(left),
        Budget::Time { .. } => None,
    };
    for (index, outcome) in std::mem::take(&mut state.outcomes) {
        let job_index = state.items[index];
        let job = &state.jobs[job_index];
        let outcome = match left {
            None => outcome,
            // Past the end of an expansion budget: as if never run.
            Some(0) => {
                if let Outcome::Suspended {
                    pathfinder: Some(pathfinder),
                    ..
                } = outcome
                {
                    state.solvers.spares.push(*pathfinder);
                }
                continue;
            }
            Some(l) => in_order(&mut state.solvers, &state.fields, grid, job, outcome, l),
        };
        if let Some(l) = &mut left {
            *l = match outcome {
                Outcome::Suspended { .. } => 0,
                Outcome::Answer { charge, .. } => l.saturating_sub(charge),
            };
        }
        match outcome {
            Outcome::Answer { answer, charge, .. } => {
                match job.work {
                    Work::Field { .. } => stats.field_answers += 1,
                    Work::Search { guide, .. } => {
                        stats.expanded += charge;
                        stats.guided += usize::from(guide.is_some());
                    }
                }
                state.answers.push((job_index, answer));
            }
            Outcome::Suspended {
                charge, pathfinder, ..
            } => {
                stats.expanded += charge;
                if let (Some(pathfinder), Work::Search { query, guide, .. }) =
                    (pathfinder, &job.work)
                {
                    state.solvers.suspended.push(Suspended {
                        entity: job.entity,
                        order: job.order,
                        query: *query,
                        ends: job.ends,
                        guide: guide.map(|g| g.key),
                        pathfinder: *pathfinder,
                    });
                }
            }
        }
    }
    if let Budget::Expansions { left: l } = budget {
        *l = left.unwrap_or(0);
    }
}

/// Under an expansion budget with `left` expansions, the outcome that serving the jobs
/// one after another would give `job` (whose run on a thread gave `outcome`): the same
/// when the job was given exactly `left`, or finished within less; a search given more
/// than `left` that did not is run again from its start with `left`.
fn in_order(
    solvers: &mut Solvers,
    fields: &Fields,
    grid: &NavGrid,
    job: &Job,
    outcome: Outcome,
    left: u64,
) -> Outcome {
    let (Work::Search { query, slot, guide }, budget) = (&job.work, outcome_budget(&outcome))
    else {
        return outcome; // field answers fit whatever is left
    };
    let fits = match &outcome {
        Outcome::Answer { charge, .. } => budget == left || *charge < left,
        Outcome::Suspended { .. } => budget == left,
    };
    // A resumed search cannot be run again; with one suspended search at a time (always
    // the case under an expansion budget) it is the first job and was given `left`.
    if fits || slot.is_some() {
        return outcome;
    }
    let mut pathfinder = match outcome {
        Outcome::Suspended {
            pathfinder: Some(pathfinder),
            ..
        } => pathfinder,
        _ => Box::new(solvers.spare()),
    };
    let budget = Budget::Expansions { left };
    let field = guide.map(|g| fields.field(g.field));
    let (progress, charge) = slices::slice(&mut pathfinder, grid, Some(query), field, budget, left);
    if matches!(progress, Ok(crate::search::Progress::Suspended { .. })) {
        return Outcome::Suspended {
            charge,
            budget: left,
            pathfinder: Some(pathfinder),
        };
    }
    let answer = slices::answer(progress, &pathfinder, grid, query, job.ends);
    solvers.spares.push(*pathfinder);
    Outcome::Answer {
        answer,
        charge: charge.max(1),
        budget: left,
    }
}

fn outcome_budget(outcome: &Outcome) -> u64 {
    match outcome {
        Outcome::Answer { budget, .. } | Outcome::Suspended { budget, .. } => *budget,
    }
}

/// Writes this frame's answers (in job order), returns resumed searches that are still
/// suspended to the pool, drops suspended searches whose request moved on, and puts
/// every job not answered back at the front of the queue, in order.
fn finish_jobs(
    state: &mut SolveState,
    commands: &mut Commands,
    queue: &mut PathQueue,
    requests: &mut Requests,
    solved: &mut MessageWriter<PathSolved>,
    stats: &mut TilepathStats,
) {
    state.answered.clear();
    state.answered.resize(state.jobs.len(), false);
    for (index, answer) in state.answers.drain(..) {
        state.answered[index] = true;
        let entity = state.jobs[index].entity;
        let Ok((_, mut result, mut ticket, replanning)) = requests.get_mut(entity) else {
            continue;
        };
        ticket.answered();
        if replanning {
            commands.entity(entity).remove::<Replanning>();
        }
        let outcome = answer.as_ref().map(|path| path.length).map_err(|f| *f);
        *result = match answer {
            Ok(path) => {
                stats.solved += 1;
                PathResult::Found(path)
            }
            Err(failure) => {
                stats.failed += 1;
                PathResult::Failed(failure)
            }
        };
        solved.write(PathSolved { entity, outcome });
    }
    stats.total_field_answers += stats.field_answers as u64;
    stats.total_guided += stats.guided as u64;
    // Resumed searches: back to the pool while suspended, otherwise spares.
    let slots = std::mem::take(&mut state.solvers.slots);
    let mut slots: Vec<Option<Pathfinder>> = slots
        .into_iter()
        .map(|m| Some(m.into_inner().unwrap_or_else(|e| e.into_inner())))
        .collect();
    for job in &state.jobs {
        if let Work::Search {
            query,
            slot: Some(slot),
            guide,
        } = job.work
            && let Some(pathfinder) = slots[slot].take()
        {
            if pathfinder.is_suspended() {
                state.solvers.suspended.push(Suspended {
                    entity: job.entity,
                    order: job.order,
                    query,
                    ends: job.ends,
                    guide: guide.map(|g| g.key),
                    pathfinder,
                });
            } else {
                state.solvers.spares.push(pathfinder);
            }
        }
    }
    // Suspended searches of requests answered, changed or gone are dropped.
    let mut kept = Vec::with_capacity(state.solvers.suspended.len());
    for s in std::mem::take(&mut state.solvers.suspended) {
        let live = requests
            .get(s.entity)
            .is_ok_and(|(_, _, ticket, _)| ticket.order() == s.order && ticket.is_queued());
        if live {
            kept.push(s);
        } else {
            state.solvers.spares.push(s.pathfinder);
        }
    }
    state.solvers.suspended = kept;
    for (index, job) in state.jobs.iter().enumerate().rev() {
        if !state.answered[index] {
            queue.entries.push_front((job.order, job.entity));
        }
    }
    let threads = state.solvers.workers.len().max(1);
    state.solvers.restock(threads);
}

/// Adds this frame's answers to the totals and counts the requests still waiting (queue
/// entries that are still their entity's current, queued request).
fn finish_stats(
    stats: &mut TilepathStats,
    queue: &PathQueue,
    requests: &Requests,
    started: Instant,
) {
    stats.total_solved += stats.solved as u64;
    stats.total_expanded += stats.expanded;
    stats.total_failed += stats.failed as u64;
    stats.pending = queue
        .entries
        .iter()
        .filter(|(order, entity)| {
            requests
                .get(*entity)
                .is_ok_and(|(_, _, ticket, _)| ticket.order() == *order && ticket.is_queued())
        })
        .count();
    stats.solve_time = started.elapsed();
}

/// The [`FoundPath`] of the search that just ended on `pathfinder` with `stats`.
pub(crate) fn found_path(
    pathfinder: &Pathfinder,
    grid: &NavGrid,
    query: &SearchQuery,
    stats: &PathStats,
    ends: Ends,
) -> FoundPath {
    FoundPath {
        cells: pathfinder.path().to_vec(),
        from: ends.from,
        start: stats.start,
        requested: ends.requested,
        reached: stats.reached,
        partial: ends.partial,
        waypoints: pathfinder
            .waypoints()
            .iter()
            .map(|&cell| grid.agent_center(cell, query.diameter))
            .collect(),
        length: stats.length as f32,
        cost: cost_to_f64(stats.cost) as f32,
        profile: query.profile,
        generation: grid.generation(),
        expanded: stats.expanded,
    }
}
