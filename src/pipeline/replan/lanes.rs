//! The queue lanes of re-plans: urgent, deferred (a cut far ahead) and improvements.

use bevy::transform::helper::TransformHelper;

use super::{Context, ReplanState, Requests, Verdict, unit_position};
use crate::components::{FoundPath, NavGrid};
use crate::grid::Cell;
use crate::pipeline::PathQueue;
use crate::settings::TilepathSettings;

/// The lane of the queue a re-plan goes to (see [`crate::systems::PathQueue`]).
#[derive(Clone, Copy, Debug)]
pub(super) enum Lane {
    Urgent,
    /// A cut this far ahead: the cut cell.
    Deferred(Cell),
    Improvement,
}

/// How a reviewed request waits in the queue.
#[derive(Clone, Copy, Debug)]
pub(super) enum Waiting {
    /// Not queued.
    No,
    /// In the deferred lane, with this ticket order.
    Deferred(u64),
    /// In the improvement lane.
    Improvement,
}

/// The verdict on a path cut at `cells[first]` for a unit at `cells[ahead]`: re-plan in
/// the deferred lane when the solver is behind (see `PathQueue::behind`: it left urgent
/// requests waiting last frame) and the cut lies
/// farther than `ReplanSettings::defer_cuts_beyond` cells ahead of the unit (along the
/// path), urgently otherwise.
pub(super) fn defer_or_requeue(
    cx: &Context<'_, '_, '_>,
    path: &FoundPath,
    ahead: usize,
    first: usize,
) -> Verdict {
    let beyond = cx.settings.replan.defer_cuts_beyond as usize;
    match path.cells.get(first) {
        Some(&cell) if cx.behind && beyond > 0 && first.saturating_sub(ahead) > beyond => {
            Verdict::Defer(cell)
        }
        _ => Verdict::Requeue,
    }
}

/// Makes urgent the deferred re-plans whose unit came within
/// `ReplanSettings::defer_cuts_beyond` cells (Chebyshev) of its cut, in queue order;
/// forgets those answered or queued again since.
pub(super) fn promote_deferred(
    state: &mut ReplanState,
    grid: &NavGrid,
    settings: &TilepathSettings,
    queue: &mut PathQueue,
    requests: &mut Requests,
    transforms: &TransformHelper,
) {
    let beyond = settings.replan.defer_cuts_beyond;
    state.deferred.retain(|&order, &mut (entity, cut)| {
        let Ok((entity, request, _, mut ticket, _, _, place)) = requests.get_mut(entity) else {
            return false;
        };
        if !ticket.waits_as(order) {
            return false;
        }
        let near = unit_position(transforms, entity, (place.0, place.1))
            .and_then(|p| grid.agent_cell(p, request.diameter))
            .is_none_or(|c| c.chebyshev(cut) <= beyond);
        if near {
            queue.enqueue(entity, request.clone(), &mut ticket);
        }
        !near
    });
}
