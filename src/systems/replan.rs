//! Queueing new or changed requests, and re-planning paths that a map edit invalidated.

use std::collections::{HashMap, HashSet};

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::PathQueue;
use super::prepare::world_position;
use crate::components::{
    FoundPath, NavGrid, NavGridChanged, PathFailure, PathRequest, PathResult, PathTicket,
    Replanning,
};
use crate::grid::{Cell, Connectivity, Cost, GridSize, cost_to_f64};
use crate::plugin::TilepathSettings;
use crate::scenario::{CellRect, ProfileId, Scenario};
use crate::search::PathError;
use crate::stats::TilepathStats;

/// Queues every request inserted or changed since the last run whose value differs from
/// the one already queued or answered (its result becomes `Pending`), and every request
/// whose entity gained [`Replanning`] and is not queued yet (its result is kept), in
/// entity index order (spawn order in a world without despawns). Starts the frame's
/// [`TilepathStats`].
#[allow(clippy::type_complexity)]
pub(crate) fn queue_changed_requests(
    mut commands: Commands,
    mut queue: ResMut<PathQueue>,
    mut stats: ResMut<TilepathStats>,
    mut changed: Query<
        (
            Entity,
            &PathRequest,
            &mut PathResult,
            &mut PathTicket,
            Option<Ref<Replanning>>,
        ),
        Or<(Changed<PathRequest>, Added<Replanning>)>,
    >,
    mut order: Local<Vec<Entity>>,
) {
    queue.frame += 1;
    let stats = &mut *stats;
    (stats.solved, stats.failed, stats.replanned, stats.expanded) = (0, 0, 0, 0);
    stats.solve_time = Default::default();
    order.clear();
    order.extend(changed.iter().map(|(entity, ..)| entity));
    order.sort_unstable_by_key(|e| (e.index_u32(), e.to_bits()));
    for &entity in order.iter() {
        let Ok((entity, request, mut result, mut ticket, replanning)) = changed.get_mut(entity)
        else {
            continue;
        };
        if ticket.request() != Some(request) {
            queue.enqueue(entity, request.clone(), &mut ticket);
            if !result.is_pending() {
                *result = PathResult::Pending;
            }
            if replanning.is_some() {
                commands.entity(entity).remove::<Replanning>();
            }
        } else if replanning.is_some_and(|r| r.is_added()) && !ticket.is_queued() {
            queue.enqueue(entity, request.clone(), &mut ticket);
            stats.replanned += 1;
        }
    }
}

/// What the re-planner remembers between frames.
#[derive(Default)]
pub(crate) struct ReplanState {
    had_grid: bool,
    last_generation: u64,
    log: Vec<NavGridChanged>,
    flipped: HashSet<Cell>,
    terrain: HashSet<Cell>,
    requeue: Vec<(u64, Entity)>,
    /// Cells that became passable or may have become cheaper (obstacles removed, terrain
    /// changed), with the generation of their change.
    openings: Vec<(u64, Cell)>,
    /// Per change with openings: its generation, the bounding box of its openings and
    /// their range in `openings`.
    opened_areas: Vec<(u64, CellRect, std::ops::Range<usize>)>,
    /// Nearest reachable cell to a partial path's requested goal on the current map, by
    /// (profile, diameter, component, requested goal).
    nearest: HashMap<(ProfileId, u32, u32, Cell), Option<Cell>>,
}

/// Octile distance (fixed point) from `cell` to the nearest cell of `rect`.
fn to_rect(cell: Cell, rect: CellRect) -> Cost {
    let clamp = |v: i32, lo: i32, hi: i32| v.clamp(lo, (hi - 1).max(lo));
    let near = Cell::new(
        clamp(cell.x, rect.min.x, rect.max.x),
        clamp(cell.y, rect.min.y, rect.max.y),
    );
    Connectivity::Octile.heuristic(cell, near)
}

/// The anchor cells of an agent of `diameter` whose footprint covers `cell`.
fn anchors_over(cell: Cell, diameter: u32) -> CellRect {
    let d = i64::from(diameter.max(1));
    let (before, after) = ((d - 1) / 2, d / 2);
    let c = |v: i32, by: i64| {
        (i64::from(v) + by).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    };
    CellRect {
        min: Cell::new(c(cell.x, -after), c(cell.y, -after)),
        max: Cell::new(c(cell.x, before + 1), c(cell.y, before + 1)),
    }
}

/// What [`ReplanState::shortcut`] needs to know of a unit besides its path.
struct Walker<'a> {
    grid: &'a NavGrid,
    /// The unit's anchor cell now, when it has a position on the map.
    at: Option<Cell>,
    diameter: u32,
}

impl ReplanState {
    /// True when a change of the log covers the whole map.
    fn whole_map(&self) -> bool {
        self.log.iter().any(|change| change.whole_map)
    }

    /// True when `path` (for an agent of `diameter`) may be invalid or no longer the
    /// cheapest after the logged changes: a change covered the whole map or re-registered
    /// the path's profile; an obstacle flipped within the agent's footprint of a path
    /// cell or of a corner a diagonal step passes; or a terrain changed within the
    /// footprint plus one cell of those (the path crosses it, so its cost changed, or
    /// passes next to it, so a cheaper way or a newly blocked footprint may be there).
    /// Bounding boxes are checked first.
    fn invalidates(&self, path: &FoundPath, diameter: u32, size: GridSize) -> bool {
        let (mut near_flip, mut near_terrain) = (false, false);
        for change in &self.log {
            if change.generation <= path.generation {
                continue;
            }
            if change.whole_map || change.profiles.contains(&path.profile) {
                return true;
            }
            if change.cells.is_empty() && change.terrain.is_empty() {
                continue;
            }
            let rect = affected(change.area, diameter.saturating_add(2), size);
            if !rect.is_empty() && path.cells.iter().any(|&c| rect.contains(c)) {
                near_flip |= !change.cells.is_empty();
                near_terrain |= !change.terrain.is_empty();
            }
        }
        let reach = (diameter / 2) as i32;
        (near_flip && touches(&path.cells, reach, |c| self.flipped.contains(&c)))
            || (near_terrain && touches(&path.cells, reach + 1, |c| self.terrain.contains(&c)))
    }
}

impl ReplanState {
    /// Collects the cells of the log that became passable or whose terrain changed, and
    /// their bounding box per change.
    fn collect_openings(&mut self, grid: &NavGrid) {
        self.openings.clear();
        self.opened_areas.clear();
        self.nearest.clear();
        for change in &self.log {
            let first = self.openings.len();
            let opened = change
                .cells
                .iter()
                .filter(|&&c| !grid.scenario().is_obstacle(c));
            self.openings.extend(
                opened
                    .chain(&change.terrain)
                    .map(|&c| (change.generation, c)),
            );
            if let Some(&(_, c)) = self.openings.get(first) {
                let mut area = CellRect::from_cell(c);
                for &(_, c) in &self.openings[first..] {
                    area.include(c);
                }
                self.opened_areas
                    .push((change.generation, area, first..self.openings.len()));
            }
        }
    }

    /// True when a cell opened since `path` was planned could make it shorter: for a
    /// path to its goal, when the cheapest conceivable route through an opened cell
    /// (octile distances from the unit to the cell and from the cell to the path's end,
    /// times the profile's smallest weight) costs less than what is left of the path;
    /// for a partial path, when a reachable cell nearer to the requested goal exists now.
    /// Each change's bounding box is tried first (against the path's whole cost, then
    /// its remaining cost), its cells only when the box passes.
    fn shortcut(&mut self, path: &FoundPath, walker: &Walker) -> bool {
        if !self
            .opened_areas
            .iter()
            .any(|(generation, ..)| *generation > path.generation)
        {
            return false;
        }
        let scenario = walker.grid.scenario();
        let (Some(layer), Some(weights)) = (
            scenario.layer_for(path.profile, walker.diameter),
            scenario.weights(path.profile),
        ) else {
            return false;
        };
        if path.partial {
            let label = layer.components().label(path.reached);
            if label == 0 {
                return true;
            }
            let key = (path.profile, walker.diameter, label, path.requested);
            let nearest = *self
                .nearest
                .entry(key)
                .or_insert_with(|| layer.nearest_reachable(path.reached, path.requested));
            let d = |c: Cell| Connectivity::Octile.heuristic(c, path.requested);
            return nearest.is_some_and(|n| d(n) < d(path.reached));
        }
        let from = walker
            .at
            .filter(|at| path.cells.contains(at))
            .unwrap_or(path.start);
        let goal = path.reached;
        let min_weight = Cost::from(weights.min().max(1));
        let reach = i64::from(walker.diameter / 2);
        let bound = |area: CellRect| {
            let area = CellRect {
                min: Cell::new(
                    (i64::from(area.min.x) - reach) as i32,
                    (i64::from(area.min.y) - reach) as i32,
                ),
                max: Cell::new(
                    (i64::from(area.max.x) + reach) as i32,
                    (i64::from(area.max.y) + reach) as i32,
                ),
            };
            (to_rect(from, area) + to_rect(goal, area)) * min_weight
        };
        let total = f64::from(path.cost);
        let mut remaining: Option<Cost> = None;
        for (generation, area, cells) in &self.opened_areas {
            if *generation <= path.generation || cost_to_f64(bound(*area)) >= total + 1e-3 {
                continue;
            }
            let remaining = *remaining.get_or_insert_with(|| {
                let at = path.cells.iter().position(|&c| c == from).unwrap_or(0);
                weights.path_cost(&path.cells[at..]).unwrap_or(Cost::MAX)
            });
            if bound(*area) >= remaining {
                continue;
            }
            let helps = self.openings[cells.clone()].iter().any(|&(_, c)| {
                walker.grid.weight(c, path.profile).is_some()
                    && bound(anchors_over(c, walker.diameter)) < remaining
            });
            if helps {
                return true;
            }
        }
        false
    }
}

/// Cells whose freedom may have changed for an agent of `diameter` after the obstacles of
/// `area` changed (the footprint reaches at most `diameter / 2` cells from its anchor).
fn affected(area: CellRect, diameter: u32, size: GridSize) -> CellRect {
    area.expand_clip((diameter / 2) as i32, size)
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

/// True when the logged changes may turn `failure` into a path: obstacle and terrain
/// edits can unblock a start or goal or connect them; a change of the movement profiles
/// can define a missing profile (or change what blocks); only a new map, resize or move
/// can bring an off-map start or goal onto the map (or a missing map back).
fn may_fix(failure: &PathFailure, whole_map: bool, profiles: bool) -> bool {
    match failure {
        PathFailure::NoMap | PathFailure::StartOffMap { .. } | PathFailure::GoalOffMap { .. } => {
            whole_map
        }
        PathFailure::UnknownProfile | PathFailure::Search(PathError::UnknownProfile { .. }) => {
            whole_map || profiles
        }
        other => other.depends_on_map(),
    }
}

/// Announces the grid's changes as [`NavGridChanged`] messages, sends found paths that
/// cross a changed cell (for their agent's diameter) or that a newly opened (or cheaper)
/// cell could shorten (see [`ReplanState::shortcut`]) back to the queue, and retries
/// failures a map change may have fixed; both keep their [`PathResult`] and get
/// [`Replanning`] until the new answer. Requests already queued are left in place (they
/// will be solved on the current map). When the grid disappears, every answered request
/// is queued again (and then fails with `NoMap`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn replan_paths(
    mut commands: Commands,
    mut grid: Option<ResMut<NavGrid>>,
    settings: Res<TilepathSettings>,
    mut queue: ResMut<PathQueue>,
    mut requests: Query<(
        Entity,
        &PathRequest,
        &PathResult,
        &mut PathTicket,
        Has<Replanning>,
    )>,
    mut state: Local<ReplanState>,
    mut stats: ResMut<TilepathStats>,
    mut announce: MessageWriter<NavGridChanged>,
    transforms: TransformHelper,
) {
    let state = &mut *state;
    state.log.clear();
    let (everything, size) = match grid.as_mut() {
        None => {
            let lost = std::mem::replace(&mut state.had_grid, false);
            (lost, None)
        }
        Some(grid) => {
            let fresh =
                !state.had_grid || grid.is_added() || grid.generation() < state.last_generation;
            state.had_grid = true;
            state.last_generation = grid.generation();
            let grid = grid.bypass_change_detection();
            if fresh {
                state.log.push(NavGridChanged {
                    generation: grid.generation(),
                    area: CellRect::of_size(grid.size()),
                    whole_map: true,
                    ..NavGridChanged::default()
                });
                // Changes made before this run are part of the new map.
                let mut before = Vec::new();
                grid.take_changes(&mut before);
            } else {
                grid.take_changes(&mut state.log);
            }
            (fresh, Some(grid.size()))
        }
    };
    if settings.replan_on_change && (everything || !state.log.is_empty()) {
        let walkers = grid.as_deref().map(|grid| (grid, &transforms));
        requeue_invalidated(state, everything, size, walkers, &mut requests);
        stats.replanned += state.requeue.len();
        for &(_, entity) in &state.requeue {
            if let Ok((entity, request, result, mut ticket, replanning)) = requests.get_mut(entity)
            {
                queue.enqueue(entity, request.clone(), &mut ticket);
                if !replanning && !result.is_pending() {
                    commands.entity(entity).insert(Replanning);
                }
            }
        }
    }
    stats.total_replanned += stats.replanned as u64;
    announce.write_batch(state.log.drain(..));
}

/// Fills `state.requeue` with the answered requests that the logged changes (or the grid
/// appearing or disappearing, `everything`) may have made stale, in queue order.
fn requeue_invalidated(
    state: &mut ReplanState,
    everything: bool,
    size: Option<GridSize>,
    walkers: Option<(&NavGrid, &TransformHelper)>,
    requests: &mut Query<(
        Entity,
        &PathRequest,
        &PathResult,
        &mut PathTicket,
        Has<Replanning>,
    )>,
) {
    let whole_map = everything || state.whole_map();
    state.flipped.clear();
    state
        .flipped
        .extend(state.log.iter().flat_map(|c| c.cells.iter().copied()));
    state.terrain.clear();
    state
        .terrain
        .extend(state.log.iter().flat_map(|c| c.terrain.iter().copied()));
    let profiles_changed = state.log.iter().any(|c| !c.profiles.is_empty());
    match walkers {
        Some((grid, _)) if !everything => state.collect_openings(grid),
        _ => {
            state.openings.clear();
            state.opened_areas.clear();
        }
    }
    state.requeue.clear();
    for (entity, request, result, ticket, _) in requests.iter() {
        if ticket.is_queued() {
            continue;
        }
        let stale = match result {
            PathResult::Pending => false,
            PathResult::Failed(failure) => may_fix(failure, whole_map, profiles_changed),
            PathResult::Found(path) => {
                everything
                    || size.is_some_and(|size| state.invalidates(path, request.diameter, size))
                    || !state.opened_areas.is_empty()
                        && walkers.is_some_and(|(grid, transforms)| {
                            let at = world_position(transforms, entity)
                                .ok()
                                .and_then(|p| grid.agent_cell(p, request.diameter));
                            let walker = Walker {
                                grid,
                                at,
                                diameter: request.diameter,
                            };
                            state.shortcut(path, &walker)
                        })
            }
        };
        if stale {
            state.requeue.push((ticket.order(), entity));
        }
    }
    state.requeue.sort_unstable();
}
