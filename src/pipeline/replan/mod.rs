//! Re-planning paths that a map edit invalidated: review, in-place repairs, queue lanes.

mod context;
mod detour;
mod lanes;
mod locate;
mod openings;
mod retry;

use std::collections::{BTreeMap, HashSet};

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::changes::MapChanges;
use super::queue::PathQueue;
use super::repair::{self, Repairer, Spliced};
use crate::components::{
    FoundPath, NavGrid, NavGridChanged, PathProgress, PathRequest, PathResult, PathSolved,
    QueueLane, Replanning,
};
use crate::grid::Cell;
use crate::pipeline::resolve::Place;
use crate::profiles::MovementProfiles;
use crate::scenario::{CellRect, Scenario};
use crate::settings::TilepathSettings;
use crate::stats::TilepathStats;
use context::{Context, Requests};
use lanes::{Lane, Verdict, Waiting, defer_or_requeue, promote_deferred};
use locate::{OnPath, locate};
use openings::{Opened, Walker};
use retry::retry;

/// What the re-planner remembers between frames.
#[derive(Default)]
pub(crate) struct ReplanState {
    terrain: HashSet<Cell>,
    /// Cells that became passable or cheaper, per layer.
    opened: Opened,
    /// One bit per map cell (row-major), set when the cell lies within `near_reach` cells
    /// (Chebyshev) of
    /// an obstacle the log added (a step onto a cell farther from every new wall cannot
    /// have been cut, for an agent up to `2 * (near_reach - 1) + 1` cells wide).
    near: Vec<u64>,
    /// The words of `near` with bits set, cleared at the next run.
    near_set: Vec<usize>,
    near_reach: u32,
    /// True when the log added obstacles.
    walled: bool,
    /// The widest agent seen, so that `near` covers it next time.
    widest: u32,
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

/// Brings the answers up to date with the frame's map changes ([`MapChanges`], taken and
/// announced at the end of `SyncMap`): found paths that a new wall cuts ahead of their unit are repaired
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
    if settings.replan.on_change && (everything || !changes.log.is_empty()) {
        let context = Context {
            grid: grid.as_deref(),
            transforms: &transforms,
            settings: &settings,
            profiles: &profiles,
            log: &changes.log,
            everything,
            whole_map: changes.whole_map(),
            profiles_changed: changes.log.iter().any(|c| !c.profiles.is_empty()),
            edited: changes
                .log
                .iter()
                .any(|c| !c.cells.is_empty() || !c.terrain.is_empty()),
            behind: queue.behind(),
        };
        state.review(&context, &requests);
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
        for (entity, path, improve) in state.repaired.drain(..) {
            if let Ok((_, _, mut result, mut ticket, _, _, _)) = requests.get_mut(entity) {
                if !improve {
                    ticket.repaired(queue.frame());
                }
                solved.write(PathSolved {
                    entity,
                    outcome: Ok(path.length),
                });
                *result = PathResult::Found(path);
                stats.repaired += 1;
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
    stats.total_repaired += stats.repaired as u64;
    stats.total_detoured += stats.detoured as u64;
    stats.replan_time = started.elapsed();
}

impl ReplanState {
    /// Sorts every answered request that is not queued into keep, re-plan (`requeue`, in
    /// queue order) or repaired (`repaired`).
    fn review(&mut self, cx: &Context<'_, '_, '_>, requests: &Requests) {
        self.prepare(cx);
        self.repair_left = cx.settings.replan.repair_budget;
        self.requeue.clear();
        self.repaired.clear();
        self.detours.clear();
        for (entity, request, result, ticket, _, progress, place) in requests.iter() {
            let place = (place.0, place.1);
            self.widest = self.widest.max(request.diameter);
            // Queued requests wait for their answer, except improvements (a cut makes
            // them urgent) and deferred re-plans (a nearer cut does).
            let improving = ticket.is_queued() && ticket.is_improvement();
            let deferred = ticket.is_queued() && ticket.is_deferred();
            if ticket.is_queued() && !improving && !deferred {
                // Planned again soon: a new wall across the path walked meanwhile gets a
                // provisional detour.
                if let PathResult::Found(path) = result
                    && let Some(detour) =
                        self.detour_while_queued(cx, entity, place, request, path, progress)
                {
                    self.detours.push((entity, detour));
                }
                continue;
            }
            let verdict = match result {
                PathResult::Pending => Verdict::Keep,
                PathResult::Failed(_) if improving || deferred => Verdict::Keep,
                PathResult::Failed(failure) => {
                    if retry(failure, entity, place, request, ticket, cx) {
                        Verdict::Requeue
                    } else {
                        Verdict::Keep
                    }
                }
                // A deferred re-plan is planned again anyway: only a new wall near its
                // path (a cheap look at the marks first) can make it urgent.
                PathResult::Found(path)
                    if deferred
                        && !(self.walled
                            && cx.grid.is_some_and(|grid| {
                                self.near_cut(grid, &path.cells, request.diameter)
                            })) =>
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
                    self.review_path(cx, entity, place, request, path, progress, lane)
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
        }
        self.requeue
            .sort_unstable_by_key(|&(order, entity, _)| (order, entity));
    }

    /// Collects what the log changed: terrain cells, opened cells, and the cells near new
    /// walls.
    fn prepare(&mut self, cx: &Context<'_, '_, '_>) {
        self.terrain.clear();
        self.terrain
            .extend(cx.log.iter().flat_map(|c| c.terrain.iter().copied()));
        self.walled = false;
        let Some(grid) = cx.grid.filter(|_| !cx.everything) else {
            self.opened.clear();
            return;
        };
        self.opened.collect(cx.log, grid);
        let size = grid.size();
        let words = size.area().div_ceil(64);
        if self.near.len() != words {
            self.near = vec![0; words];
            self.near_set.clear();
        }
        for &w in &self.near_set {
            self.near[w] = 0;
        }
        self.near_set.clear();
        self.near_reach = self.widest.max(1) / 2 + 1;
        let r = i64::from(self.near_reach);
        for change in cx.log {
            for &c in &change.cells {
                if !grid.scenario().is_obstacle(c) {
                    continue;
                }
                self.walled = true;
                for n in CellRect::from_cell(c).grow_clip(r, r, size).cells() {
                    let i = size.index(n);
                    self.near[i / 64] |= 1 << (i % 64);
                    self.near_set.push(i / 64);
                }
            }
        }
    }

    /// What the logged changes mean for the found `path` of `entity` (see
    /// [`replan_paths`]).
    #[allow(clippy::too_many_arguments)]
    fn review_path(
        &mut self,
        cx: &Context<'_, '_, '_>,
        entity: Entity,
        place: Place,
        request: &PathRequest,
        path: &FoundPath,
        progress: Option<&PathProgress>,
        waiting: Waiting,
    ) -> Verdict {
        let improving = matches!(waiting, Waiting::Improvement);
        let newer = |c: &&NavGridChanged| c.generation > path.generation;
        let whole = cx
            .log
            .iter()
            .filter(newer)
            .any(|c| c.whole_map || c.profiles.contains(&path.profile));
        let Some(grid) = cx.grid else {
            return Verdict::Requeue; // the grid went
        };
        if cx.everything || whole {
            return Verdict::Requeue;
        }
        if !cx
            .log
            .iter()
            .filter(newer)
            .any(|c| !c.cells.is_empty() || !c.terrain.is_empty())
        {
            return Verdict::Keep;
        }
        let diameter = request.diameter;
        let OnPath { at, on, ahead } = locate(cx, grid, entity, place, path, progress, diameter);
        let reach = (diameter / 2) as i32;
        let rest = &path.cells[ahead.min(path.cells.len())..];
        if let Waiting::Deferred(order) = waiting {
            // Planned again anyway: only a cut nearer to the unit than the one it waits
            // for matters.
            if !self.walled || !self.near_cut(grid, rest, diameter) {
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
        if !self.terrain.is_empty() && touches(rest, reach + 1, |c| self.terrain.contains(&c)) {
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
        let shortcut = improving || self.opened.shortcut(path, &walker);
        let improve = if shortcut && !improving {
            Verdict::Improve
        } else {
            Verdict::Keep
        };
        if !self.walled || !self.near_cut(grid, rest, diameter) {
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

    /// True when a step of `cells` (for an agent of `diameter`) may have been cut by a new
    /// wall: a cell of it lies near one (see `ReplanState::near`).
    fn near_cut(&self, grid: &NavGrid, cells: &[Cell], diameter: u32) -> bool {
        if diameter / 2 + 1 > self.near_reach {
            return true; // wider than the marks cover
        }
        let size = grid.size();
        cells.iter().any(|&c| {
            size.contains(c) && {
                let i = size.index(c);
                self.near[i / 64] >> (i % 64) & 1 == 1
            }
        })
    }
}

/// True when `flipped` holds a cell within Chebyshev distance `r` of a cell of `path`, or
/// of one of the two cells a diagonal step of `path` passes between.
fn touches(path: &[Cell], r: i32, flipped: impl Fn(Cell) -> bool) -> bool {
    let near = |c: Cell| {
        (c.y - r..=c.y + r).any(|y| (c.x - r..=c.x + r).any(|x| flipped(Cell::new(x, y))))
    };
    path.iter().any(|&c| near(c))
        || path.windows(2).any(|w| {
            w[0].x != w[1].x
                && w[0].y != w[1].y
                && (near(Cell::new(w[1].x, w[0].y)) || near(Cell::new(w[0].x, w[1].y)))
        })
}
