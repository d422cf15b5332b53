//! Solving pending requests in parallel, oldest first, within the frame budget.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, TaskPool};
use bevy::utils::Parallel;

use super::PathQueue;
use crate::components::{
    FoundPath, NavGrid, PathFailure, PathGoal, PathRequest, PathResult, PathSolved, PathTicket,
};
use crate::plugin::TilepathSettings;
use crate::search::{PathQuery as SearchQuery, Pathfinder};
use crate::stats::TilepathStats;

/// One search of this frame.
#[derive(Debug)]
pub(crate) struct Job {
    entity: Entity,
    order: u64,
    query: SearchQuery,
}

/// Per-thread state: the pathfinder (its buffers survive between frames) and the answers
/// this thread produced this frame, tagged with their job index.
#[derive(Default)]
pub(crate) struct Worker {
    pathfinder: Pathfinder,
    done: Vec<(usize, Result<FoundPath, PathFailure>)>,
}

/// Buffers of the solve system, reused every frame.
#[derive(Default)]
pub(crate) struct SolveBuffers {
    jobs: Vec<Job>,
    answers: Vec<(usize, Result<FoundPath, PathFailure>)>,
}

/// Takes pending requests from the front of the queue (at most
/// `max_requests_per_frame`), answers input errors at once, and solves the rest on the
/// `ComputeTaskPool`. Threads take jobs in queue order from a shared counter and stop
/// taking new ones when the frame budget is spent, so the solved jobs are always the
/// oldest ones; the first job is always solved so that the queue moves.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_paths(
    grid: Option<Res<NavGrid>>,
    settings: Res<TilepathSettings>,
    mut queue: ResMut<PathQueue>,
    mut requests: Query<(
        &PathRequest,
        &mut PathResult,
        &PathTicket,
        Option<&Transform>,
    )>,
    mut workers: Local<Parallel<Worker>>,
    mut buffers: Local<SolveBuffers>,
    mut solved: MessageWriter<PathSolved>,
    mut stats: ResMut<TilepathStats>,
) {
    let started = Instant::now();
    let buffers = &mut *buffers;
    buffers.jobs.clear();
    buffers.answers.clear();
    let max_jobs = settings.max_requests_per_frame.max(1);
    while buffers.jobs.len() < max_jobs {
        let Some((order, entity)) = queue.entries.pop_front() else {
            break;
        };
        let Ok((request, mut result, ticket, transform)) = requests.get_mut(entity) else {
            continue;
        };
        if ticket.order() != order || !result.is_pending() {
            continue;
        }
        let prepared = match grid.as_deref() {
            Some(grid) => prepare(grid, request, transform, &settings),
            None => Err(PathFailure::NoMap),
        };
        match prepared {
            Ok(query) => buffers.jobs.push(Job {
                entity,
                order,
                query,
            }),
            Err(failure) => {
                *result = PathResult::Failed(failure);
                stats.failed += 1;
                solved.write(PathSolved {
                    entity,
                    outcome: Err(failure),
                });
            }
        }
    }
    if let Some(grid) = grid.as_deref()
        && !buffers.jobs.is_empty()
    {
        solve_in_parallel(&mut workers, buffers, grid, &settings, started);
    }
    let solved_count = buffers.answers.len();
    debug_assert!(
        buffers
            .answers
            .iter()
            .enumerate()
            .all(|(i, (index, _))| i == *index),
        "solved jobs must be a prefix of the queue"
    );
    for (index, answer) in buffers.answers.drain(..) {
        let entity = buffers.jobs[index].entity;
        let Ok((_, mut result, _, _)) = requests.get_mut(entity) else {
            continue;
        };
        let outcome = answer.as_ref().map(|path| path.length).map_err(|f| *f);
        *result = match answer {
            Ok(path) => {
                stats.solved += 1;
                stats.expanded += u64::from(path.expanded);
                PathResult::Found(path)
            }
            Err(failure) => {
                stats.failed += 1;
                PathResult::Failed(failure)
            }
        };
        solved.write(PathSolved { entity, outcome });
    }
    for job in buffers.jobs[solved_count..].iter().rev() {
        queue.entries.push_front((job.order, job.entity));
    }
    finish_stats(&mut stats, &queue, &requests, started);
}

/// Solves `buffers.jobs` on the `ComputeTaskPool` within the frame budget counted from
/// `started`, and leaves the answers in `buffers.answers` in job order (a prefix of the jobs).
fn solve_in_parallel(
    workers: &mut Parallel<Worker>,
    buffers: &mut SolveBuffers,
    grid: &NavGrid,
    settings: &TilepathSettings,
    started: Instant,
) {
    let deadline = started.checked_add(settings.frame_budget);
    let next = AtomicUsize::new(0);
    let jobs = &buffers.jobs[..];
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    let threads = settings
        .max_threads
        .min(pool.thread_num())
        .min(jobs.len())
        .max(1);
    if threads == 1 {
        workers.scope(|worker| work(worker, jobs, &next, deadline, grid));
    } else {
        let workers = &*workers;
        let next = &next;
        pool.scope(|scope| {
            for _ in 0..threads {
                scope.spawn(async move {
                    workers.scope(|worker| work(worker, jobs, next, deadline, grid));
                });
            }
        });
    }
    for worker in workers.iter_mut() {
        buffers.answers.append(&mut worker.done);
    }
    buffers.answers.sort_unstable_by_key(|(index, _)| *index);
}

/// Adds this frame's answers to the totals and counts the requests still waiting (queue
/// entries that are still their entity's current, pending request).
fn finish_stats(
    stats: &mut TilepathStats,
    queue: &PathQueue,
    requests: &Query<(
        &PathRequest,
        &mut PathResult,
        &PathTicket,
        Option<&Transform>,
    )>,
    started: Instant,
) {
    stats.total_solved += stats.solved as u64;
    stats.total_failed += stats.failed as u64;
    stats.pending = queue
        .entries
        .iter()
        .filter(|(order, entity)| {
            requests
                .get(*entity)
                .is_ok_and(|(_, result, ticket, _)| ticket.order() == *order && result.is_pending())
        })
        .count();
    stats.solve_time = started.elapsed();
}

/// Solves jobs taken from the shared counter until none is left or the deadline passed
/// (checked before taking a job, so every taken job is solved).
fn work(
    worker: &mut Worker,
    jobs: &[Job],
    next: &AtomicUsize,
    deadline: Option<Instant>,
    grid: &NavGrid,
) {
    loop {
        if let Some(deadline) = deadline
            && next.load(Ordering::Relaxed) > 0
            && Instant::now() >= deadline
        {
            break;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(index) else {
            break;
        };
        let answer = solve_one(&mut worker.pathfinder, grid, &job.query);
        worker.done.push((index, answer));
    }
}

fn solve_one(
    pathfinder: &mut Pathfinder,
    grid: &NavGrid,
    query: &SearchQuery,
) -> Result<FoundPath, PathFailure> {
    let stats = pathfinder.find(grid.scenario(), query)?;
    Ok(FoundPath {
        cells: pathfinder.path().to_vec(),
        waypoints: pathfinder
            .waypoints()
            .iter()
            .map(|&cell| grid.cell_to_world(cell))
            .collect(),
        length: stats.length as f32,
        generation: grid.generation(),
        expanded: stats.expanded,
    })
}

/// Turns a request into a search query, or says why the input is unusable.
fn prepare(
    grid: &NavGrid,
    request: &PathRequest,
    transform: Option<&Transform>,
    settings: &TilepathSettings,
) -> Result<SearchQuery, PathFailure> {
    let transform = transform.ok_or(PathFailure::NoTransform)?;
    let position = transform.translation.truncate();
    if !position.is_finite() {
        return Err(PathFailure::InvalidPosition);
    }
    let start = grid
        .world_to_cell(position)
        .ok_or(PathFailure::StartOffMap { position })?;
    let off_map = PathFailure::GoalOffMap { goal: request.goal };
    let goal = match request.goal {
        PathGoal::Cell(cell) if grid.size().contains(cell) => cell,
        PathGoal::Cell(_) => return Err(off_map),
        PathGoal::World(p) if !p.is_finite() => return Err(PathFailure::InvalidGoal),
        PathGoal::World(p) => grid.world_to_cell(p).ok_or(off_map)?,
    };
    Ok(SearchQuery::new(start, goal)
        .algorithm(request.algorithm.unwrap_or(settings.default_algorithm))
        .diameter(request.diameter)
        .connectivity(request.connectivity)
        .limits(request.limits.unwrap_or(settings.default_limits))
        .smooth(request.smooth))
}
