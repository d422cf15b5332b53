//! The end of a frame's solving: answers written, suspended searches kept or dropped, and
//! the requests not answered put back at the front of the queue.

use bevy::prelude::*;

use super::jobs::Work;
use super::solvers::Suspended;
use super::{Requests, SolveState, set_back};
use crate::components::PathSolved;
use crate::pipeline::PathQueue;
use crate::pipeline::answer::{Answered, Answerer, Outbox, write_answer};
use crate::search::Pathfinder;
use crate::stats::TilepathStats;

impl SolveState {
    /// Writes this frame's answers (in job order), returns resumed searches that are still
    /// suspended to the pool, drops suspended searches whose request moved on, and puts
    /// every job not answered back at the front of the queue, in order.
    pub(super) fn finish_jobs(
        &mut self,
        commands: &mut Commands,
        queue: &mut PathQueue,
        requests: &mut Requests,
        solved: &mut MessageWriter<PathSolved>,
        stats: &mut TilepathStats,
    ) {
        self.answered.clear();
        self.answered.resize(self.jobs.len(), false);
        let mut out = Outbox {
            commands,
            solved,
            stats,
        };
        for (index, answer) in self.answers.drain(..) {
            self.answered[index] = true;
            let entity = self.jobs[index].entity;
            let Ok((_, mut result, mut status, replanning)) = requests.get_mut(entity) else {
                continue;
            };
            let unit = Answered {
                entity,
                result: &mut result,
                status: &mut status,
                replanning,
            };
            let by = Answerer::Solver {
                still_queued: false,
            };
            write_answer(unit, answer, by, &mut out);
        }
        stats.total_field_answers += stats.field_answers as u64;
        // Resumed searches: back to the pool while suspended, otherwise spares.
        let resumed = std::mem::take(&mut self.solvers.resumed);
        let mut resumed: Vec<Option<Pathfinder>> = resumed
            .into_iter()
            .map(|m| Some(m.into_inner().unwrap_or_else(|e| e.into_inner())))
            .collect();
        for (index, job) in self.jobs.iter().enumerate() {
            let field = match job.work {
                Work::Field { field, .. } => Some(field),
                Work::Search { .. } => None,
            };
            if !self.answered[index] && field.is_some_and(|at| self.fields.set_back(at)) {
                set_back(requests, job.entity, job.order);
            }
            if let Work::Search {
                query,
                resumed: Some(at),
            } = job.work
                && let Some(pathfinder) = resumed[at].take()
            {
                if pathfinder.edit_setbacks() > job.setbacks {
                    set_back(requests, job.entity, job.order);
                }
                if pathfinder.is_suspended() {
                    self.solvers.suspended.push(Suspended {
                        entity: job.entity,
                        order: job.order,
                        query,
                        ends: job.ends,
                        approach: job.approach.clone(),
                        pathfinder,
                    });
                } else {
                    self.solvers.spares.push(pathfinder);
                }
            }
        }
        // Suspended searches of requests answered, changed or gone are dropped.
        let mut kept = Vec::with_capacity(self.solvers.suspended.len());
        for s in std::mem::take(&mut self.solvers.suspended) {
            let live = requests
                .get(s.entity)
                .is_ok_and(|(_, _, ticket, _)| ticket.waits_as(s.order));
            if live {
                kept.push(s);
            } else {
                self.solvers.spares.push(s.pathfinder);
            }
        }
        self.solvers.suspended = kept;
        for (index, job) in self.jobs.iter().enumerate().rev() {
            if !self.answered[index] {
                queue.push_front(job.order, job.entity);
            }
        }
        self.fields.end_frame();
        let threads = self.solvers.workers.len().max(1);
        self.solvers.restock(threads);
    }
}
