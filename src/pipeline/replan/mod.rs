//! Re-planning paths that a map edit invalidated: review, in-place repairs, queue lanes.

mod context;
mod cursor;
mod detour;
mod lanes;
mod locate;
mod marks;
mod openings;
mod retry;
mod review;

use std::collections::BTreeMap;

use bevy::ecs::entity::EntityHashSet;

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::answer::{Answered, Answerer, Outbox, write_answer};
use super::changes::MapChanges;
use super::queue::PathQueue;
use super::repair::Repairer;
use crate::components::{FoundPath, NavGrid, PathResult, PathSolved, QueueLane, Replanning};
use crate::grid::Cell;
use crate::main_thread::MainThread;
use crate::profiles::MovementProfiles;
use crate::settings::TilepathSettings;
use crate::stats::TilepathStats;
use context::{Context, Requests};
use cursor::Cursor;
use lanes::{Lane, promote_deferred};
use marks::Marks;
use openings::Opened;

/// What the re-planner remembers between frames.
#[derive(Default)]
pub(crate) struct ReplanState {
    /// Cells that became passable or cheaper, per layer, until every request saw them.
    opened: Opened,
    /// New walls and terrain changes, until every request saw them.
    marks: Marks,
    /// Which requests the review takes next, and what each has seen.
    cursor: Cursor,
    /// Requests this frame's sweep of a whole-map or profile change sent back.
    swept: EntityHashSet,
    /// The widest agent seen, so that the marks cover it next time.
    widest: u32,
    /// The map generation at the end of the last review.
    last_generation: u64,
    /// Requests to queue, in queue order, and the lane each goes to.
    requeue: Vec<(u64, Entity, Lane)>,
    /// The requests waiting in the deferred lane, by ticket order: entity and the first
    /// cut cell ahead of its unit.
    deferred: BTreeMap<u64, (Entity, Cell)>,
    /// Expansions left for this frame's repairs.
    repair_left: u32,
    /// Repaired paths, and whether their request waits in the improvement lane.
    repaired: Vec<(Entity, FoundPath, bool)>,
    /// Provisional detours of requests planned again (see [`Verdict::Detour`]).
    detours: Vec<(Entity, FoundPath)>,
    repairer: Repairer,
}

/// Brings the answers up to date with the map changes ([`MapChanges`], taken and
/// announced at the end of `SyncMap`), reviewing as many answered requests a frame as
/// `ReplanSettings::review_budget` allows, round-robin, each against every edit it has
/// not seen (a change of the whole map or of profiles reviews all at once): found paths
/// that a new wall cuts ahead of their unit are repaired
/// in place when a detour of equal cost exists (a new [`PathResult`] and a
/// [`PathSolved`] at once, see [`super::repair`]), and sent back to the queue otherwise;
/// found paths near changed terrain, planned with a changed profile, or that a newly
/// opened (or cheaper) cell could shorten (see [`Opened::shortcut`]) go back to the
/// queue; failures go back when the change can change their answer (see
/// [`retry()`]). Queued requests keep their [`PathResult`] and get [`Replanning`] until
/// the new answer; requests already queued are left in place (they will be solved on the
/// current map). When the grid disappears, every answered request is queued again (and
/// then fails with `NoMap`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn replan_paths(
    _main: MainThread,
    mut commands: Commands,
    grid: Option<Res<NavGrid>>,
    settings: Res<TilepathSettings>,
    profiles: Res<MovementProfiles>,
    mut queue: ResMut<PathQueue>,
    mut requests: Requests,
    mut state: Local<ReplanState>,
    mut stats: ResMut<TilepathStats>,
    changes: Res<MapChanges>,
    mut solved: MessageWriter<PathSolved>,
    transforms: TransformHelper,
) {
    let started = std::time::Instant::now();
    let state = &mut *state;
    let everything = changes.everything;
    let pending = state.review_pending();
    if settings.replan.on_change && (everything || !changes.log.is_empty() || pending) {
        let context = Context {
            grid: grid.as_deref(),
            transforms: &transforms,
            settings: &settings,
            profiles: &profiles,
            log: &changes.log,
            everything,
            whole_map: changes.whole_map(),
            profiles_changed: changes.log.iter().any(|c| !c.profiles.is_empty()),
            behind: queue.behind(),
        };
        state.review(&context, &requests);
        stats.reviewed = state.cursor.reviewed;
        stats.review_pass_frames = state.cursor.last_frames;
        stats.replanned += state.requeue.len();
        for &(_, entity, lane) in &state.requeue {
            if let Ok((entity, request, result, mut ticket, replanning, _, _)) =
                requests.get_mut(entity)
            {
                match lane {
                    Lane::Improvement => {
                        // The path stays valid: no `Replanning`, the unit has a path to
                        // follow.
                        queue.enqueue_in(
                            QueueLane::Improvement,
                            entity,
                            request.clone(),
                            &mut ticket,
                        );
                        continue;
                    }
                    Lane::Deferred(cut) => {
                        queue.enqueue_in(QueueLane::Deferred, entity, request.clone(), &mut ticket);
                        state.deferred.insert(ticket.order(), (entity, cut));
                    }
                    Lane::Urgent => queue.enqueue(entity, request.clone(), &mut ticket),
                }
                if !replanning && !result.is_pending() {
                    commands.entity(entity).insert(Replanning);
                }
            }
        }
        for (entity, path) in state.detours.drain(..) {
            // Queued above, with `Replanning`: the answer replaces the detour.
            if let Ok((_, _, mut result, _, _, _, _)) = requests.get_mut(entity) {
                *result = PathResult::Found(path);
                stats.detoured += 1;
            }
        }
        let mut out = Outbox {
            commands: &mut commands,
            solved: &mut solved,
            stats: &mut stats,
        };
        for (entity, path, improve) in state.repaired.drain(..) {
            if let Ok((_, _, mut result, mut status, replanning, _, _)) = requests.get_mut(entity) {
                let unit = Answered {
                    entity,
                    result: &mut result,
                    status: &mut status,
                    replanning,
                };
                let by = Answerer::Repair {
                    frame: queue.frame(),
                    still_queued: improve,
                };
                write_answer(unit, Ok(path), by, &mut out);
            }
        }
    }
    if let Some(grid) = grid.as_deref() {
        promote_deferred(
            &mut state.deferred,
            grid,
            &settings,
            &mut queue,
            &mut requests,
            &transforms,
        );
    } else {
        state.deferred.clear();
    }
    stats.total_replanned += stats.replanned as u64;
    stats.total_detoured += stats.detoured as u64;
    stats.replan_time = started.elapsed();
}

impl ReplanState {
    /// Records what the log changed: the marks of new walls and terrain, the opened cells.
    fn prepare(&mut self, cx: &Context<'_, '_, '_>) {
        let Some(grid) = cx.grid.filter(|_| !cx.everything) else {
            return;
        };
        self.marks.record(cx.log, grid, self.widest);
        self.opened.collect(cx.log, grid);
    }
}
