//! The plugin's request pipeline: queueing, re-planning after map edits, parallel solving.

mod replan;
mod solve;

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::components::{PathResult, PathTicket};

pub(crate) use replan::{queue_changed_requests, replan_paths};
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
    /// Marks `entity`'s request pending and appends it to the back of the queue.
    fn enqueue(&mut self, entity: Entity, result: &mut Mut<PathResult>, ticket: &mut PathTicket) {
        let order = self.next_order;
        self.next_order += 1;
        *ticket = PathTicket::new(self.frame, order);
        self.entries.push_back((order, entity));
        if !result.is_pending() {
            **result = PathResult::Pending;
        }
    }
}
