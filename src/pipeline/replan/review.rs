//! The review of answered requests: changes of the whole map at once, cell edits round-robin under `review_budget`.

use bevy::prelude::*;

use super::ReplanState;
use super::context::{Context, Requests};
use super::lanes::{Lane, Verdict, Waiting, defer_or_requeue};
use super::locate::{OnPath, locate};
use super::openings::Walker;
use super::retry::retry;
use crate::components::{FoundPath, PathProgress, PathRequest, PathResult, PathStatus};
use crate::pipeline::repair::{self, Spliced};
use crate::pipeline::resolve::Place;

/// Path cells ahead of a unit following its path that are looked at every frame with new
/// walls, before the round-robin review.
const LOOK_AHEAD: usize = 8;

/// One request as the review reads it.
type Item<'a> = (
    Entity,
    &'a PathRequest,
    &'a PathResult,
    &'a PathStatus,
    Option<&'a PathProgress>,
    Place<'a>,
);

impl ReplanState {
    /// Sorts the answered requests that this frame reviews into keep, re-plan (`requeue`,
    /// in queue order) or repaired (`repaired`): every request for a change of the whole
    /// map or of movement profiles (`sweep`), and as many as `review_budget` allows
    /// against the cell edits they have not seen (`advance`).
    pub(super) fn review(&mut self, cx: &Context<'_, '_, '_>, requests: &Requests) {
        self.prepare(cx);
        self.repair_left = cx.settings.replan.repair_budget;
        self.requeue.clear();
        self.repaired.clear();
        self.detours.clear();
        self.swept.clear();
        if cx.everything || cx.whole_map || cx.profiles_changed {
            self.sweep(cx, requests);
        }
        if cx.everything || cx.whole_map {
            // Every answer is planned again on the new map.
            let now = cx.grid.map_or(0, |g| g.generation());
            self.cursor.reset(now);
            self.marks.reset();
            self.opened.forget(u64::MAX);
        } else {
            self.advance(cx, requests);
        }
        self.requeue
            .sort_unstable_by_key(|&(order, entity, _)| (order, entity));
        self.last_generation = cx.grid.map_or(0, |g| g.generation());
    }

    /// True when some request has not been reviewed against every edit yet.
    pub(super) fn review_pending(&self) -> bool {
        self.cursor.in_pass() || self.marks.edited > self.cursor.covered
    }

    /// Re-plans every answer that a change of the whole map or of its movement profile
    /// invalidates, and retries the failures such a change can fix.
    fn sweep(&mut self, cx: &Context<'_, '_, '_>, requests: &Requests) {
        for (entity, request, result, ticket, _, _, place) in requests.iter() {
            self.widest = self.widest.max(request.diameter);
            let improving = ticket.is_queued() && ticket.is_improvement();
            if ticket.is_queued() && !improving {
                continue; // planned on the current map
            }
            let requeue = match result {
                PathResult::Pending => false,
                PathResult::Failed(_) if improving => false,
                PathResult::Failed(failure) => retry(
                    failure,
                    entity,
                    (place.0, place.1),
                    request,
                    ticket,
                    cx,
                    false,
                ),
                PathResult::Found(path) => {
                    cx.grid.is_none()
                        || cx.everything
                        || cx.log.iter().any(|c| {
                            c.generation > path.generation
                                && (c.whole_map || c.profiles.contains(&path.profile))
                        })
                }
            };
            if requeue {
                self.requeue.push((ticket.order(), entity, Lane::Urgent));
                self.swept.insert(entity);
            }
        }
    }

    /// Reviews requests round-robin against the cell edits they have not seen, until the
    /// frame's `review_budget` (in path cells) is spent, after at least one.
    fn advance(&mut self, cx: &Context<'_, '_, '_>, requests: &Requests) {
        let Some(grid) = cx.grid else {
            return;
        };
        let now = grid.generation();
        let budget = cx.settings.replan.review_budget as usize;
        self.cursor.reviewed = 0;
        self.look_ahead(cx, requests, now);
        let mut spent = 0;
        let mut first = true;
        if self.cursor.in_pass() {
            self.cursor.frames += 1;
        }
        loop {
            if !self.cursor.in_pass() {
                let covered = self.cursor.end_pass();
                self.marks.forget(covered);
                self.opened.forget(covered);
                if self.marks.edited <= covered {
                    return; // every request has seen every edit
                }
                let all = requests.iter().map(|item| item.0).collect();
                self.cursor.begin(all, now);
                self.cursor.frames = 1;
                if !self.cursor.in_pass() {
                    continue; // no requests
                }
            }
            if !first && spent >= budget {
                return;
            }
            first = false;
            let Some(entity) = self.cursor.take() else {
                continue;
            };
            if self.swept.contains(&entity) {
                spent += 1;
                continue;
            }
            let Ok((entity, request, result, ticket, _, progress, place)) = requests.get(entity)
            else {
                spent += 1;
                continue; // its request went
            };
            let seen = self.cursor.seen(entity);
            let since = match result {
                PathResult::Found(path) => seen.max(path.generation),
                _ => seen,
            };
            let item = (
                entity,
                request,
                result,
                ticket,
                progress,
                (place.0, place.1),
            );
            spent += self.review_one(cx, item, since);
            self.cursor.saw(entity, now);
        }
    }

    /// Reviews at once, out of turn, the requests of units following their path (with
    /// [`PathProgress`] on a path of one waypoint per cell) whose next [`LOOK_AHEAD`]
    /// cells lie near a wall of this frame: the unit would reach it before its turn.
    /// Apart from `review_budget`: O(requests) looks at 8 cells, and a review of the
    /// units a new wall stands just ahead of.
    fn look_ahead(&mut self, cx: &Context<'_, '_, '_>, requests: &Requests, now: u64) {
        let (Some(grid), floor) = (cx.grid, self.last_generation) else {
            return;
        };
        if self.marks.walled <= floor {
            return;
        }
        for (entity, request, result, ticket, _, progress, place) in requests.iter() {
            let (PathResult::Found(path), Some(progress)) = (result, progress) else {
                continue;
            };
            let len = path.cells.len();
            if path.generation >= now || path.waypoints.len() != len {
                continue;
            }
            let from = progress.next_waypoint.saturating_sub(1).min(len);
            let ahead = &path.cells[from..(from + LOOK_AHEAD).min(len)];
            if self.swept.contains(&entity)
                || !self.marks.near_cut(grid, ahead, request.diameter, floor)
            {
                continue;
            }
            let since = self.cursor.seen(entity).max(path.generation);
            let item = (
                entity,
                request,
                result,
                ticket,
                Some(progress),
                (place.0, place.1),
            );
            self.review_one(cx, item, since);
            self.cursor.saw(entity, now);
            self.cursor.reviewed += 1;
        }
    }

    /// Reviews one request against the cell edits after generation `since`; returns what
    /// it cost in path cells.
    fn review_one(&mut self, cx: &Context<'_, '_, '_>, item: Item<'_>, since: u64) -> usize {
        let (entity, request, result, ticket, progress, place) = item;
        self.widest = self.widest.max(request.diameter);
        if self.marks.edited <= since {
            return 1; // nothing it has not seen
        }
        let cost = match result {
            PathResult::Found(path) => path.cells.len().max(1),
            _ => 1,
        };
        // Queued requests wait for their answer, except improvements (a cut makes them
        // urgent) and deferred re-plans (a nearer cut does).
        let improving = ticket.is_queued() && ticket.is_improvement();
        let deferred = ticket.is_queued() && ticket.is_deferred();
        if ticket.is_queued() && !improving && !deferred {
            // Planned again soon: a new wall across the path walked meanwhile gets a
            // provisional detour.
            if let PathResult::Found(path) = result
                && let Some(detour) =
                    self.detour_while_queued(cx, entity, place, request, path, progress, since)
            {
                self.detours.push((entity, detour));
            }
            return cost;
        }
        let verdict = match result {
            PathResult::Pending => Verdict::Keep,
            PathResult::Failed(_) if improving || deferred => Verdict::Keep,
            PathResult::Failed(failure) => {
                if retry(failure, entity, place, request, ticket, cx, true) {
                    Verdict::Requeue
                } else {
                    Verdict::Keep
                }
            }
            // A deferred re-plan is planned again anyway: only a new wall near its path
            // (a cheap look at the marks first) can make it urgent.
            PathResult::Found(path)
                if deferred
                    && !cx.grid.is_some_and(|grid| {
                        self.marks
                            .near_cut(grid, &path.cells, request.diameter, since)
                    }) =>
            {
                Verdict::Keep
            }
            PathResult::Found(path) => {
                let lane = if deferred {
                    Waiting::Deferred(ticket.order())
                } else if improving {
                    Waiting::Improvement
                } else {
                    Waiting::No
                };
                let on_path = (entity, place, request, path, progress);
                self.review_path(cx, on_path, lane, since)
            }
        };
        let order = ticket.order();
        match verdict {
            Verdict::Keep => {}
            Verdict::Requeue => self.requeue.push((order, entity, Lane::Urgent)),
            Verdict::Defer(cut) => self.requeue.push((order, entity, Lane::Deferred(cut))),
            Verdict::Improve => self.requeue.push((order, entity, Lane::Improvement)),
            Verdict::Repaired { path, improve } => {
                if improve && !improving {
                    self.requeue.push((order, entity, Lane::Improvement));
                }
                self.repaired.push((entity, path, improve));
            }
            Verdict::Detour { path, lane } => {
                if let Some(lane) = lane {
                    self.requeue.push((order, entity, lane));
                }
                self.detours.push((entity, path));
            }
        }
        cost
    }

    /// What the cell edits after generation `since` mean for a found path (see
    /// [`super::replan_paths`]).
    fn review_path(
        &mut self,
        cx: &Context<'_, '_, '_>,
        (entity, place, request, path, progress): OnPathOf<'_>,
        waiting: Waiting,
        since: u64,
    ) -> Verdict {
        let improving = matches!(waiting, Waiting::Improvement);
        let Some(grid) = cx.grid else {
            return Verdict::Requeue; // the grid went
        };
        let diameter = request.diameter;
        let OnPath { at, on, ahead } = locate(cx, grid, entity, place, path, progress, diameter);
        let reach = (diameter / 2) as i32;
        let rest = &path.cells[ahead.min(path.cells.len())..];
        if let Waiting::Deferred(order) = waiting {
            // Planned again anyway: only a cut nearer to the unit than the one it waits
            // for matters.
            if !self.marks.near_cut(grid, rest, diameter, since) {
                return Verdict::Keep;
            }
            let cut = grid
                .scenario()
                .layer_for(path.profile, diameter)
                .and_then(|layer| repair::cut(layer, &path.cells, ahead));
            let Some(cut) = cut else {
                return Verdict::Keep;
            };
            let verdict = defer_or_requeue(cx, path, ahead, cut.first);
            let detour = on.and_then(|i| self.detour(grid, request, path, i));
            return match (verdict, detour) {
                (Verdict::Defer(cell), detour) => {
                    if let Some(entry) = self.deferred.get_mut(&order) {
                        entry.1 = cell;
                    }
                    detour.map_or(Verdict::Keep, |path| Verdict::Detour { path, lane: None })
                }
                (_, Some(path)) => Verdict::Detour {
                    path,
                    lane: Some(Lane::Urgent),
                },
                (other, None) => other,
            };
        }
        if self.marks.terrain_near(rest, reach + 1, since) {
            return Verdict::Requeue;
        }
        // A unit walking out of a wall that opened: a new plan would start where it stands.
        if path.start_moved()
            && on.is_none()
            && at.is_some_and(|c| {
                self.opened.contains(c) && !grid.is_blocked_for(c, diameter, path.profile)
            })
        {
            return Verdict::Requeue;
        }
        let walker = Walker {
            grid,
            on,
            diameter,
            connectivity: request.options.connectivity,
        };
        // Improvements already queued go on waiting for their answer.
        let shortcut = improving || self.opened.shortcut(path, &walker, since);
        let improve = if shortcut && !improving {
            Verdict::Improve
        } else {
            Verdict::Keep
        };
        if !self.marks.near_cut(grid, rest, diameter, since) {
            return improve;
        }
        let Some(layer) = grid.scenario().layer_for(path.profile, diameter) else {
            return Verdict::Requeue;
        };
        let Some(first_cut) = repair::cut(layer, &path.cells, ahead) else {
            return improve;
        };
        let cut_verdict = defer_or_requeue(cx, path, ahead, first_cut.first);
        // Cut ahead of the unit: splice a detour of the same cost in (exact requests
        // walking their path, see `repair`), or plan again.
        let repairable = !path.partial
            && self.repair_left > 0
            && repair::repairable(
                request,
                cx.settings.defaults.algorithm,
                cx.settings.defaults.limits,
            );
        let Some(i) = on.filter(|_| repairable) else {
            return cut_verdict;
        };
        let repaired = match repair::cut(layer, &path.cells, i) {
            // Only cells between the waypoint the unit heads for and the unit were cut.
            None => self
                .repairer
                .rest(grid, path, request, i)
                .map(Spliced::Exact),
            Some(cut) => {
                let left = &mut self.repair_left;
                self.repairer.splice(grid, path, request, i, cut, left)
            }
        };
        match (repaired, cut_verdict) {
            (Some(Spliced::Exact(path)), _) => Verdict::Repaired {
                path,
                improve: shortcut,
            },
            (Some(Spliced::Detour(path)), Verdict::Defer(cell)) => Verdict::Detour {
                path,
                lane: Some(Lane::Deferred(cell)),
            },
            (Some(Spliced::Detour(path)), _) => Verdict::Detour {
                path,
                lane: Some(Lane::Urgent),
            },
            (None, verdict) => verdict,
        }
    }
}

/// A found path and what locates its unit.
type OnPathOf<'a> = (
    Entity,
    Place<'a>,
    &'a PathRequest,
    &'a FoundPath,
    Option<&'a PathProgress>,
);
