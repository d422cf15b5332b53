//! The plugin's request pipeline: queueing, re-planning after map edits, parallel solving.

mod fields;
mod prepare;
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
#[derive(Resource, Debug, Default)]
pub(crate) struct PathQueue {
    entries: VecDeque<(u64, Entity)>,
    next_order: u64,
    frame: u64,
}

impl PathQueue {
    /// Appends `entity`'s `request` to the back of the queue and records it in its ticket.
    fn enqueue(&mut self, entity: Entity, request: PathRequest, ticket: &mut PathTicket) {
        let order = self.next_order;
        self.next_order += 1;
        ticket.enqueue(self.frame, order, request);
        self.entries.push_back((order, entity));
    }
}
