//! What a review decides for a request, and the queue lanes of re-plans: urgent, deferred, improvements.

use bevy::transform::helper::TransformHelper;

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::context::{Context, Requests};
use crate::components::{FoundPath, NavGrid};
use crate::grid::Cell;
use crate::pipeline::PathQueue;
use crate::pipeline::resolve::world_position;
use crate::settings::TilepathSettings;

/// What the logged changes mean for one answered request.
pub(super) enum Verdict {
    Keep,
    /// Plan again, ahead of improvements.
    Requeue,
    /// A new wall cut the path farther ahead of its unit than
    /// `ReplanSettings::defer_cuts_beyond` (first cut cell): plan again in the deferred
    /// lane.
    Defer(Cell),
    /// Plan again when nothing more urgent waits: a cell opened where a cheaper way
    /// might pass, the path is still valid.
    Improve,
    /// A new wall cut the path and a detour of the same cost was spliced in. `improve`:
    /// a cell opened where a cheaper way might pass, so the request also waits (or goes
    /// on waiting) in the improvement lane.
    Repaired {
        path: FoundPath,
        improve: bool,
    },
    /// A new wall cut the path and no detour of the same cost was found nearby: plan
    /// again in `lane` (`None`: the request already waits where it should), and let the
    /// unit walk a provisional detour meanwhile ([`FoundPath::provisional`]).
    Detour {
        path: FoundPath,
        lane: Option<Lane>,
    },
}

/// The lane of the queue a re-plan goes to (see [`PathQueue`]).
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
    deferred: &mut BTreeMap<u64, (Entity, Cell)>,
    grid: &NavGrid,
    settings: &TilepathSettings,
    queue: &mut PathQueue,
    requests: &mut Requests,
    transforms: &TransformHelper,
) {
    let beyond = settings.replan.defer_cuts_beyond;
    deferred.retain(|&order, &mut (entity, cut)| {
        let Ok((entity, request, _, mut ticket, _, _, place)) = requests.get_mut(entity) else {
            return false;
        };
        if !ticket.waits_as(order) {
            return false;
        }
        let near = world_position(transforms, entity, Some((place.0, place.1)))
            .ok()
            .and_then(|p| grid.agent_cell(p, request.diameter))
            .is_none_or(|c| c.chebyshev(cut) <= beyond);
        if near {
            queue.enqueue(entity, request.clone(), &mut ticket);
        }
        !near
    });
}
