//! Queueing new or changed requests, and those whose unit asks for a re-plan.

use bevy::prelude::*;

use super::queue::PathQueue;
use crate::components::{PathRequest, PathResult, PathStatus, Replanning};
use crate::main_thread::MainThread;
use crate::stats::TilepathStats;

/// Queues every request inserted or changed since the last run whose value differs from
/// the one already queued or answered (its result becomes `Pending`), and every request
/// whose entity gained [`Replanning`] and is not queued yet (its result is kept), in
/// entity index order (spawn order in a world without despawns). Starts the frame's
/// [`TilepathStats`].
#[allow(clippy::type_complexity)]
pub(crate) fn queue_changed_requests(
    _main: MainThread,
    mut commands: Commands,
    mut queue: ResMut<PathQueue>,
    mut stats: ResMut<TilepathStats>,
    mut changed: Query<
        (
            Entity,
            &PathRequest,
            &mut PathResult,
            &mut PathStatus,
            Option<Ref<Replanning>>,
        ),
        Or<(Changed<PathRequest>, Added<Replanning>)>,
    >,
    mut order: Local<Vec<Entity>>,
) {
    queue.begin_frame();
    let stats = &mut *stats;
    order.clear();
    order.extend(changed.iter().map(|(entity, ..)| entity));
    order.sort_unstable_by_key(|e| (e.index_u32(), e.to_bits()));
    for &entity in order.iter() {
        let Ok((entity, request, mut result, mut ticket, replanning)) = changed.get_mut(entity)
        else {
            continue;
        };
        if ticket.request() != Some(request) {
            queue.enqueue(entity, request.clone(), &mut ticket);
            if !result.is_pending() {
                *result = PathResult::Pending;
            }
            if replanning.is_some() {
                commands.entity(entity).remove::<Replanning>();
            }
        } else if replanning.is_some_and(|r| r.is_added())
            && (!ticket.is_queued() || ticket.is_improvement())
        {
            // (An improvement waiting in the queue becomes urgent. A deferred re-plan got
            // its `Replanning` from the plugin: it stays deferred.)
            queue.enqueue(entity, request.clone(), &mut ticket);
            stats.replanned += 1;
        }
    }
}
