//! Writing an answer to a path request: the one place that sets [`PathResult`], closes
//! the [`PathStatus`], removes [`Replanning`], counts the answer in [`TilepathStats`] and
//! sends [`PathSolved`], for every pipeline stage that answers.

use bevy::prelude::*;

use crate::components::{FoundPath, PathFailure, PathResult, PathSolved, PathStatus, Replanning};
use crate::stats::TilepathStats;

/// Who answers, which decides how the answer is counted and what becomes of the ticket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answerer {
    /// The solver answered the request (a path or a failure): counted in
    /// [`TilepathStats::solved`] or [`TilepathStats::failed`]. The ticket leaves the
    /// queue unless `still_queued`: the request was queued again while it was solved
    /// (the new entry answers it once more).
    Solver {
        /// The request waits in the queue again.
        still_queued: bool,
    },
    /// The re-planner repaired a found path in place in plugin frame `frame`: counted in
    /// [`TilepathStats::repaired`]. The ticket leaves the queue as if queued and
    /// answered in `frame` ([`PathStatus::repaired`]), unless `still_queued`: the request
    /// waits in the improvement lane, which still answers it.
    Repair {
        /// The plugin frame of the repair.
        frame: u64,
        /// The request waits in the queue (its improvement lane).
        still_queued: bool,
    },
}

/// The parts of an answered unit that its answer writes.
pub(crate) struct Answered<'a> {
    pub(crate) entity: Entity,
    pub(crate) result: &'a mut PathResult,
    pub(crate) status: &'a mut PathStatus,
    /// The unit carries [`Replanning`].
    pub(crate) replanning: bool,
}

/// Where answers go besides the unit: the commands that remove [`Replanning`], the
/// [`PathSolved`] messages and the statistics.
pub(crate) struct Outbox<'a, 'c, 's, 'm> {
    pub(crate) commands: &'a mut Commands<'c, 's>,
    pub(crate) solved: &'a mut MessageWriter<'m, PathSolved>,
    pub(crate) stats: &'a mut TilepathStats,
}

/// Writes `answer` for `unit`, answered by `by`:
/// - [`PathResult`] becomes `Found` or `Failed`;
/// - the ticket leaves the queue ([`PathStatus::is_queued`] false) unless the request
///   waits again (see [`Answerer`]), and only then is [`Replanning`] removed;
/// - the answer is counted in the frame's and the total statistics (see [`Answerer`]);
/// - a [`PathSolved`] is sent, whose outcome is the path's
///   [`length`](FoundPath::length) in cells (never its cost) or the failure.
///
/// Complexity: O(1), besides moving the path.
pub(crate) fn write_answer(
    unit: Answered<'_>,
    answer: Result<FoundPath, PathFailure>,
    by: Answerer,
    out: &mut Outbox<'_, '_, '_, '_>,
) {
    let Answered {
        entity,
        result,
        status,
        replanning,
    } = unit;
    let still_queued = match by {
        Answerer::Solver { still_queued } => {
            if !still_queued {
                status.answered();
            }
            still_queued
        }
        Answerer::Repair {
            frame,
            still_queued,
        } => {
            if !still_queued {
                status.repaired(frame);
            }
            still_queued
        }
    };
    if replanning && !still_queued {
        out.commands.entity(entity).try_remove::<Replanning>();
    }
    let stats = &mut *out.stats;
    match (by, &answer) {
        (Answerer::Repair { .. }, _) => {
            stats.repaired += 1;
            stats.total_repaired += 1;
        }
        (Answerer::Solver { .. }, Ok(_)) => {
            stats.solved += 1;
            stats.total_solved += 1;
        }
        (Answerer::Solver { .. }, Err(_)) => {
            stats.failed += 1;
            stats.total_failed += 1;
        }
    }
    let outcome = answer.as_ref().map(|path| path.length).map_err(|f| *f);
    *result = match answer {
        Ok(path) => PathResult::Found(path),
        Err(failure) => PathResult::Failed(failure),
    };
    out.solved.write(PathSolved { entity, outcome });
}
