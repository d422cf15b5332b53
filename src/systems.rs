//! The plugin's request pipeline: queueing, re-planning after map edits, parallel solving.

mod fields;
mod jobs;
mod openings;
mod prepare;
mod repair;
mod replan;
mod slices;
mod slots;
mod solve;

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::components::{PathRequest, PathTicket};

pub(crate) use replan::{queue_changed_requests, replan_paths};
pub(crate) use slots::assign_slots;
pub(crate) use solve::solve_paths;

/// Pending requests in service order: `(ticket order, entity)`, orders increasing from
/// front to back. Entries whose entity's ticket no longer matches are stale and skipped.
///
/// Two lanes share the queue: requests that need an answer (new or changed requests,
/// retried failures, paths a wall cut or that must be planned again) get orders below
/// [`PathTicket::IMPROVEMENT`] and are inserted behind the last of them; re-plans that
/// may only improve a path that is still valid (a cell opened where a cheaper way might
/// pass) get orders from [`PathTicket::IMPROVEMENT`] on, at the back. So the second lane
/// is served only when no request of the first waits; each lane is oldest first.
#[derive(Resource, Debug, Default)]
pub(crate) struct PathQueue {
    entries: VecDeque<(u64, Entity)>,
    next_order: u64,
    next_improvement: u64,
    frame: u64,
}

impl PathQueue {
    /// Queues `entity`'s `request` behind every request that needs an answer (ahead of
    /// the improvements) and records it in its ticket.
    fn enqueue(&mut self, entity: Entity, request: PathRequest, ticket: &mut PathTicket) {
        let order = self.next_order;
        self.next_order += 1;
        ticket.enqueue(self.frame, order, request);
        let at = self
            .entries
            .partition_point(|&(o, _)| o < PathTicket::IMPROVEMENT);
        self.entries.insert(at, (order, entity));
    }

    /// Queues a re-plan that may only improve a valid path at the back of the queue.
    fn enqueue_improvement(
        &mut self,
        entity: Entity,
        request: PathRequest,
        ticket: &mut PathTicket,
    ) {
        let order = PathTicket::IMPROVEMENT + self.next_improvement;
        self.next_improvement += 1;
        ticket.enqueue(self.frame, order, request);
        self.entries.push_back((order, entity));
    }
}
