//! The queue of requests waiting for the solver, in three lanes.

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::components::{PathRequest, PathStatus, QueueLane};

/// Pending requests in service order: `(ticket order, entity)`, orders increasing from
/// front to back. Entries whose entity's ticket no longer matches are stale and skipped.
///
/// Three lanes share the queue, each oldest first, each served only when no request of
/// the lanes before it waits: requests that need an answer (new or changed requests,
/// retried failures, paths a wall cut near their unit or that must be planned again)
/// are in [`QueueLane::Urgent`]; re-plans of paths cut far ahead of their unit in
/// [`QueueLane::Deferred`]; re-plans that may only improve a path that is still valid (a
/// cell opened where a cheaper way might pass) in [`QueueLane::Improvement`], at the
/// back. Each lane's orders start at [`QueueLane::first_order`]; a request joins the back
/// of its lane.
#[derive(Resource, Debug, Default)]
pub(crate) struct PathQueue {
    entries: VecDeque<(u64, Entity)>,
    /// The number the next request queued in each lane draws, by `QueueLane as usize`.
    next: [u64; 3],
    frame: u64,
    /// Requests queued since the frame began.
    queued_this_frame: usize,
    /// The solve step left requests that need an answer waiting last frame.
    behind: bool,
}

impl PathQueue {
    /// Queues `entity`'s `request` behind every request that needs an answer (ahead of
    /// the deferred re-plans and the improvements) and records it in its ticket.
    pub(crate) fn enqueue(
        &mut self,
        entity: Entity,
        request: PathRequest,
        ticket: &mut PathStatus,
    ) {
        self.enqueue_in(QueueLane::Urgent, entity, request, ticket);
    }

    /// Queues `entity`'s `request` at the back of `lane` (see [`QueueLane`]) and records
    /// it in its ticket.
    pub(crate) fn enqueue_in(
        &mut self,
        lane: QueueLane,
        entity: Entity,
        request: PathRequest,
        ticket: &mut PathStatus,
    ) {
        let next = &mut self.next[lane as usize];
        let order = lane.first_order() + *next;
        *next += 1;
        ticket.enqueue(self.frame, order, request);
        self.queued_this_frame += 1;
        // Behind the last entry with a lower order: the back of its lane.
        let at = self.entries.partition_point(|&(o, _)| o < order);
        self.entries.insert(at, (order, entity));
    }

    /// Starts a frame of the plugin (intake does, first).
    pub(crate) fn begin_frame(&mut self) {
        self.frame += 1;
        self.queued_this_frame = 0;
    }

    /// Requests queued since the frame began.
    pub(crate) fn queued_this_frame(&self) -> usize {
        self.queued_this_frame
    }

    /// The plugin's frame count, as tickets record it.
    pub(crate) fn frame(&self) -> u64 {
        self.frame
    }

    /// True when the solve step left requests that need an answer waiting last frame.
    pub(crate) fn behind(&self) -> bool {
        self.behind
    }

    /// Records whether requests that need an answer were left waiting this frame.
    pub(crate) fn set_behind(&mut self, behind: bool) {
        self.behind = behind;
    }

    /// Takes the front entry (maybe stale: its ticket decides).
    pub(crate) fn pop_front(&mut self) -> Option<(u64, Entity)> {
        self.entries.pop_front()
    }

    /// Puts an entry taken this frame back at the front, where it was.
    pub(crate) fn push_front(&mut self, order: u64, entity: Entity) {
        self.entries.push_front((order, entity));
    }

    /// True when nothing waits (stale entries count as waiting until taken).
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The front entries of the urgent lane, up to `n`.
    pub(crate) fn urgent_front(&self, n: usize) -> impl Iterator<Item = (u64, Entity)> + '_ {
        self.entries
            .iter()
            .copied()
            .take_while(|&(order, _)| QueueLane::of_order(order) == QueueLane::Urgent)
            .take(n)
    }
}
