//! Queueing new or changed requests, and re-planning paths that a map edit invalidated.

use std::collections::HashSet;

use bevy::prelude::*;

use super::PathQueue;
use crate::components::{ChangeLog, FoundPath, NavGrid, PathRequest, PathResult, PathTicket};
use crate::grid::{Cell, GridSize};
use crate::plugin::TilepathSettings;
use crate::stats::TilepathStats;

/// Queues every request inserted or changed since the last run, in entity index order
/// (spawn order in a world without despawns). Starts the frame's [`TilepathStats`].
pub(crate) fn queue_changed_requests(
    mut queue: ResMut<PathQueue>,
    mut stats: ResMut<TilepathStats>,
    mut changed: Query<(Entity, &mut PathResult, &mut PathTicket), Changed<PathRequest>>,
    mut order: Local<Vec<Entity>>,
) {
    queue.frame += 1;
    let stats = &mut *stats;
    (stats.solved, stats.failed, stats.replanned, stats.expanded) = (0, 0, 0, 0);
    stats.solve_time = Default::default();
    order.clear();
    order.extend(changed.iter().map(|(entity, ..)| entity));
    order.sort_unstable_by_key(|e| (e.index_u32(), e.to_bits()));
    for &entity in order.iter() {
        if let Ok((entity, mut result, mut ticket)) = changed.get_mut(entity) {
            queue.enqueue(entity, &mut result, &mut ticket);
        }
    }
}

/// What the re-planner remembers between frames.
#[derive(Default)]
pub(crate) struct ReplanState {
    had_grid: bool,
    last_generation: u64,
    log: ChangeLog,
    flipped: HashSet<Cell>,
    requeue: Vec<(u64, Entity)>,
}

impl ReplanState {
    /// True when `path` (for an agent of `diameter`) may be invalid after the logged changes:
    /// a change covered the whole map, or a cell flipped within the agent's radius of a
    /// path cell or of a corner a diagonal step passes. Bounding boxes are checked first.
    fn invalidates(&self, path: &FoundPath, diameter: u32, size: GridSize) -> bool {
        let mut nearby = false;
        for (change, &whole) in self.log.changes.iter().zip(&self.log.whole) {
            if change.generation <= path.generation {
                continue;
            }
            if whole {
                return true;
            }
            let rect = change.affected(diameter.saturating_add(2), size);
            nearby |= !rect.is_empty() && path.cells.iter().any(|&c| rect.contains(c));
        }
        nearby
            && touches(&path.cells, (diameter / 2) as i32, |c| {
                self.flipped.contains(&c)
            })
    }
}

/// True when `flipped` holds a cell within Chebyshev distance `r` of a cell of `path`, or
/// of one of the two cells a diagonal step of `path` passes between.
fn touches(path: &[Cell], r: i32, flipped: impl Fn(Cell) -> bool) -> bool {
    let near = |c: Cell| {
        (c.y - r..=c.y + r).any(|y| (c.x - r..=c.x + r).any(|x| flipped(Cell::new(x, y))))
    };
    path.iter().any(|&c| near(c))
        || path.windows(2).any(|w| {
            w[0].x != w[1].x
                && w[0].y != w[1].y
                && (near(Cell::new(w[1].x, w[0].y)) || near(Cell::new(w[0].x, w[1].y)))
        })
}

/// Sends found paths that cross a changed cell (for their agent's diameter) back to the
/// queue, and retries failures a map change may have fixed. When the grid disappears,
/// every answered request is queued again (and then fails with `NoMap`).
pub(crate) fn replan_paths(
    grid: Option<ResMut<NavGrid>>,
    settings: Res<TilepathSettings>,
    mut queue: ResMut<PathQueue>,
    mut requests: Query<(Entity, &PathRequest, &mut PathResult, &mut PathTicket)>,
    mut state: Local<ReplanState>,
    mut stats: ResMut<TilepathStats>,
) {
    let state = &mut *state;
    let (everything, size) = match grid {
        None => {
            let lost = std::mem::replace(&mut state.had_grid, false);
            state.log.clear();
            (lost, None)
        }
        Some(mut grid) => {
            let fresh =
                !state.had_grid || grid.is_added() || grid.generation() < state.last_generation;
            state.had_grid = true;
            state.last_generation = grid.generation();
            grid.bypass_change_detection().take_changes(&mut state.log);
            (fresh, Some(grid.size()))
        }
    };
    if !settings.replan_on_change || (!everything && state.log.changes.is_empty()) {
        return;
    }
    state.flipped.clear();
    state.flipped.extend(state.log.cells.iter().copied());
    state.requeue.clear();
    for (entity, request, result, ticket) in requests.iter() {
        let stale = match result {
            PathResult::Pending => false,
            PathResult::Failed(failure) => failure.depends_on_map(),
            PathResult::Found(path) => {
                everything
                    || size.is_some_and(|size| state.invalidates(path, request.diameter, size))
            }
        };
        if stale {
            state.requeue.push((ticket.order(), entity));
        }
    }
    state.requeue.sort_unstable();
    stats.replanned = state.requeue.len();
    stats.total_replanned += state.requeue.len() as u64;
    for &(_, entity) in &state.requeue {
        if let Ok((entity, _, mut result, mut ticket)) = requests.get_mut(entity) {
            queue.enqueue(entity, &mut result, &mut ticket);
        }
    }
}
