//! The plugin's request pipeline: queueing, re-planning after map edits, parallel solving.

mod fields;
mod jobs;
mod openings;
mod prepare;
mod repair;
mod replan;
mod requests;
mod slices;
mod slots;
mod solve;

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::components::{PathRequest, PathTicket};

pub(crate) use replan::replan_paths;

/// When the plugin's frame started: the start of its `SyncMap` set, for
/// `TilepathStats::plugin_time`.
#[derive(Resource, Debug, Default)]
pub(crate) struct FrameClock {
    pub(crate) started: Option<std::time::Instant>,
}

/// Starts the plugin's frame (first system of `SyncMap`).
pub(crate) fn start_frame(mut clock: ResMut<FrameClock>) {
    clock.started = Some(std::time::Instant::now());
}

/// Records the plugin's time this frame (last system of `Steer`).
pub(crate) fn finish_frame(clock: Res<FrameClock>, mut stats: ResMut<crate::stats::TilepathStats>) {
    if let Some(started) = clock.started {
        stats.plugin_time = started.elapsed();
    }
}
pub(crate) use requests::queue_changed_requests;
pub(crate) use slots::assign_slots;
pub(crate) use solve::solve_paths;

/// Pending requests in service order: `(ticket order, entity)`, orders increasing from
/// front to back. Entries whose entity's ticket no longer matches are stale and skipped.
///
/// Three lanes share the queue, each oldest first, each served only when no request of
/// the lanes before it waits: requests that need an answer (new or changed requests,
/// retried failures, paths a wall cut near their unit or that must be planned again)
/// get orders below [`PathTicket::DEFERRED`]; re-plans of paths cut far ahead of their
/// unit get orders from [`PathTicket::DEFERRED`] on; re-plans that may only improve a
/// path that is still valid (a cell opened where a cheaper way might pass) get orders
/// from [`PathTicket::IMPROVEMENT`] on, at the back. A request joins the back of its
/// lane.
#[derive(Resource, Debug, Default)]
pub(crate) struct PathQueue {
    entries: VecDeque<(u64, Entity)>,
    next_order: u64,
    next_improvement: u64,
    next_deferred: u64,
    frame: u64,
    /// The solve step left requests that need an answer waiting last frame.
    behind: bool,
}

impl PathQueue {
    /// Queues `entity`'s `request` behind every request that needs an answer (ahead of
    /// the deferred re-plans and the improvements) and records it in its ticket.
    fn enqueue(&mut self, entity: Entity, request: PathRequest, ticket: &mut PathTicket) {
        let order = self.next_order;
        self.next_order += 1;
        self.insert(entity, request, ticket, order);
    }

    /// Queues the re-plan of a path cut far ahead of its unit in the deferred lane.
    fn enqueue_deferred(&mut self, entity: Entity, request: PathRequest, ticket: &mut PathTicket) {
        let order = PathTicket::DEFERRED + self.next_deferred;
        self.next_deferred += 1;
        self.insert(entity, request, ticket, order);
    }

    /// Inserts `order` behind the last entry with a lower order (the back of its lane).
    fn insert(
        &mut self,
        entity: Entity,
        request: PathRequest,
        ticket: &mut PathTicket,
        order: u64,
    ) {
        ticket.enqueue(self.frame, order, request);
        let at = self.entries.partition_point(|&(o, _)| o < order);
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
