//! Solving pending requests in parallel, oldest first, within the frame budget.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, TaskPool};
use bevy::transform::helper::{ComputeGlobalTransformError, TransformHelper};

use super::PathQueue;
use crate::components::{
    FoundPath, NavGrid, PathFailure, PathGoal, PathRequest, PathResult, PathSolved, PathTicket,
    Replanning,
};
use crate::grid::{Cell, cost_to_f64};
use crate::plugin::TilepathSettings;
use crate::profiles::MovementProfiles;
use crate::scenario::CellRect;
use crate::search::{PathQuery as SearchQuery, Pathfinder};
use crate::stats::TilepathStats;

/// One search of this frame.
#[derive(Debug)]
pub(crate) struct Job {
    entity: Entity,
    order: u64,
    query: SearchQuery,
    ends: Ends,
}

/// What a path reports about its ends beyond the search's own answer: the unit's cell,
/// the requested goal and whether it is out of reach (see [`FoundPath`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ends {
    from: Cell,
    requested: Cell,
    partial: bool,
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

/// One solver's state: the pathfinder (its buffers survive between frames) and the
/// answers it produced this frame, tagged with their job index. The solve system keeps at
/// most `max_threads` of them (fewer when the task pool has fewer threads), one per
/// task, so the memory held is bounded by the thread limit, not by the pool's size.
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
    mut commands: Commands,
    grid: Option<Res<NavGrid>>,
    settings: Res<TilepathSettings>,
    profiles: Res<MovementProfiles>,
    mut queue: ResMut<PathQueue>,
    mut requests: Requests,
    transforms: TransformHelper,
    mut workers: Local<Vec<Worker>>,
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
        let Ok((request, mut result, mut ticket, replanning)) = requests.get_mut(entity) else {
            continue;
        };
        if ticket.order() != order || !ticket.is_queued() {
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
            Ok((query, ends)) => buffers.jobs.push(Job {
                entity,
                order,
                query,
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
    stats.pathfinders = workers.len();
    stats.pathfinder_bytes = workers.iter().map(|w| w.pathfinder.memory_bytes()).sum();
    finish_stats(&mut stats, &queue, &requests, started);
}

/// The world position of `entity`: its `Transform` composed with those of its `ChildOf`
/// ancestors, as of now (what `GlobalTransform` will hold after propagation).
///
/// # Errors
///
/// [`PathFailure::NoTransform`] when the entity or an ancestor has no `Transform` (or
/// the hierarchy is broken), [`PathFailure::InvalidPosition`] when the position is not
/// finite.
pub(crate) fn world_position(
    transforms: &TransformHelper,
    entity: Entity,
) -> Result<Vec2, PathFailure> {
    let global =
        transforms
            .compute_global_transform(entity)
            .map_err(|e: ComputeGlobalTransformError| {
                debug!("no start position for {entity}: {e}");
                PathFailure::NoTransform
            })?;
    let position = global.translation().truncate();
    if position.is_finite() {
        Ok(position)
    } else {
        Err(PathFailure::InvalidPosition)
    }
}

/// Solves `buffers.jobs` on the `ComputeTaskPool` within the frame budget counted from
/// `started`, and leaves the answers in `buffers.answers` in job order (a prefix of the jobs).
fn solve_in_parallel(
    workers: &mut Vec<Worker>,
    buffers: &mut SolveBuffers,
    grid: &NavGrid,
    settings: &TilepathSettings,
    started: Instant,
) {
    let deadline = started.checked_add(settings.frame_budget);
    let next = AtomicUsize::new(0);
    let jobs = &buffers.jobs[..];
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    let allowed = settings.max_threads.min(pool.thread_num()).max(1);
    workers.truncate(allowed);
    let threads = allowed.min(jobs.len()).max(1);
    if workers.len() < threads {
        workers.resize_with(threads, Worker::default);
    }
    if threads == 1 {
        work(&mut workers[0], jobs, &next, deadline, grid);
    } else {
        let next = &next;
        pool.scope(|scope| {
            for worker in workers[..threads].iter_mut() {
                scope.spawn(async move { work(worker, jobs, next, deadline, grid) });
            }
        });
    }
    for worker in workers.iter_mut() {
        buffers.answers.append(&mut worker.done);
    }
    buffers.answers.sort_unstable_by_key(|(index, _)| *index);
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
        let answer = solve_one(&mut worker.pathfinder, grid, &job.query, job.ends);
        worker.done.push((index, answer));
    }
}

fn solve_one(
    pathfinder: &mut Pathfinder,
    grid: &NavGrid,
    query: &SearchQuery,
    ends: Ends,
) -> Result<FoundPath, PathFailure> {
    let stats = pathfinder.find(grid.scenario(), query)?;
    Ok(FoundPath {
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
    })
}

/// Turns a request into a search query and what its answer reports about its ends, or
/// says why the input is unusable. `position` is the entity's world position (or why it
/// has none); `slot` the goal cell claimed for it, if any.
///
/// With [`PathRequest::nearest_start`] a blocked start is moved to the nearest standable
/// cell here; with [`PathRequest::nearest_goal`] an off-map goal is kept (the search
/// plans to the reachable cell nearest to it) and the answer is marked partial when the
/// goal area is not reachable from the start (a look at the components, no search).
fn prepare(
    grid: &NavGrid,
    request: &PathRequest,
    slot: Option<Cell>,
    position: Result<Vec2, PathFailure>,
    settings: &TilepathSettings,
    profiles: &MovementProfiles,
) -> Result<(SearchQuery, Ends), PathFailure> {
    let profile = profiles
        .resolve(request.profile.as_deref())
        .ok_or(PathFailure::UnknownProfile)?;
    let position = position?;
    let diameter = request.diameter;
    let from = grid
        .agent_cell(position, diameter)
        .ok_or(PathFailure::StartOffMap { position })?;
    let off_map = PathFailure::GoalOffMap { goal: request.goal };
    let requested = match request.goal {
        PathGoal::Cell(cell) if grid.size().contains(cell) || request.nearest_goal => cell,
        PathGoal::Cell(_) => return Err(off_map),
        PathGoal::World(p) if !p.is_finite() => return Err(PathFailure::InvalidGoal),
        PathGoal::World(p) if request.nearest_goal => grid
            .agent_cell_anywhere(p, diameter)
            .ok_or(PathFailure::InvalidGoal)?,
        PathGoal::World(p) => grid.agent_cell(p, diameter).ok_or(off_map)?,
    };
    let layer = grid.scenario().layer_for(profile, diameter);
    let mut start = from;
    let mut partial = false;
    if let Some(layer) = layer {
        if request.nearest_start && layer.is_blocked(from) {
            start = layer.nearest_free(from, |_| true).unwrap_or(from);
        }
        let label = layer.components().label(start);
        let r = i64::from(request.goal_radius);
        let area = CellRect::from_cell(requested).grow_clip(r, r, grid.size());
        partial = label != 0 && !area.cells().any(|c| layer.components().label(c) == label);
    }
    let (goal, goal_radius) = match slot {
        Some(slot) if request.claim_goal && request.goal_radius == 0 => (slot, 0),
        _ => (requested, request.goal_radius),
    };
    let query = SearchQuery::new(start, goal)
        .algorithm(request.algorithm.unwrap_or(settings.default_algorithm))
        .diameter(diameter)
        .connectivity(request.connectivity)
        .limits(request.limits.unwrap_or(settings.default_limits))
        .smooth(request.smooth)
        .profile(profile)
        .goal_radius(goal_radius)
        .nearest_goal(request.nearest_goal)
        .nearest_start(request.nearest_start);
    Ok((
        query,
        Ends {
            from,
            requested,
            partial,
        },
    ))
}
