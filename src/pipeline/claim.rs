//! Claimed goal cells: units sent to the same cell end on distinct cells around it.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::queue::PathQueue;
use super::resolve::{resolve, world_position};
use crate::components::{NavGrid, PathRequest, PathStatus};
use crate::grid::{Cell, Connectivity, Cost, GridSize, STRAIGHT};
use crate::main_thread::MainThread;
use crate::profiles::MovementProfiles;
use crate::scenario::{CellRect, ProfileId};
use crate::shape::GridShape;

/// A request that asks for a claimed cell this frame.
#[derive(Clone, Copy, Debug)]
struct Claimant {
    entity: Entity,
    /// The requested goal (anchor cell, possibly off the map).
    goal: Cell,
    profile: ProfileId,
    diameter: u32,
    /// The component of the unit's (possibly moved) start on its layer.
    label: u32,
    /// Distance from the unit's start to the goal: nearer units choose first.
    distance: Cost,
    /// The unit's (possibly moved) start.
    start: Cell,
}

/// Candidate cells around a goal in the order claimed cells are handed out: distance
/// ([`GridShape::distance`]), then `y`, then `x` (the order of [`crate::scenario::Layer::nearest_free`]). Cells are
/// listed square by square of growing Chebyshev radius; the first `settled` entries are
/// final (no cell outside the square comes before them).
#[derive(Default)]
struct Rings {
    centre: Cell,
    shape: GridShape,
    radius: i64,
    max_radius: i64,
    cells: Vec<(Cost, i32, i32)>,
    settled: usize,
}

impl Rings {
    fn start(&mut self, centre: Cell, size: GridSize, shape: GridShape) {
        self.shape = shape;
        let (w, h) = (i64::from(size.width), i64::from(size.height));
        let (cx, cy) = (i64::from(centre.x), i64::from(centre.y));
        let gap = (-cx).max(cx - (w - 1)).max(-cy).max(cy - (h - 1)).max(0);
        self.centre = centre;
        self.max_radius = cx.max(w - 1 - cx).max(cy).max(h - 1 - cy).max(gap);
        self.radius = gap + 3;
        self.fill(size);
    }

    /// Lists the cells of the square of `self.radius` (clipped to the map) in order.
    fn fill(&mut self, size: GridSize) {
        let r = self.radius;
        let rect = CellRect::from_cell(self.centre).grow_clip(r, r, size);
        let (centre, shape) = (self.centre, self.shape);
        self.cells.clear();
        self.cells.extend(
            rect.cells()
                .map(|c| (shape.distance(Connectivity::Octile, c, centre), c.y, c.x)),
        );
        self.cells.sort_unstable();
        self.settled = if r >= self.max_radius {
            self.cells.len()
        } else {
            let bound = (r as Cost + 1) * STRAIGHT;
            self.cells.partition_point(|&(d, ..)| d < bound)
        };
    }

    /// Makes sure entry `i` is settled when the map has that many cells; false when the
    /// whole map is listed and `i` is past its end.
    fn settle(&mut self, i: usize, size: GridSize) -> bool {
        while i >= self.settled {
            if self.radius >= self.max_radius {
                return false;
            }
            self.radius = (self.radius * 2).min(self.max_radius);
            self.fill(size);
        }
        true
    }

    fn cell(&self, i: usize) -> Cell {
        let (_, y, x) = self.cells[i];
        Cell::new(x, y)
    }
}

/// Buffers of the claims, reused every frame.
#[derive(Default)]
pub(crate) struct SlotBuffers {
    /// Per map cell: the stamp of the frame that claimed it.
    claimed: Vec<u32>,
    stamp: u32,
    claimants: Vec<Claimant>,
    /// The cell given to each claimant (same order).
    given: Vec<Option<Cell>>,
    /// One group's claimants and cells, by angle around the goal.
    turn: Vec<(f32, usize)>,
    cells: Vec<(f32, Cell)>,
    rings: Rings,
}

impl SlotBuffers {
    /// Claims the on-map cells of the footprint of an agent of `diameter` on `anchor`.
    fn claim(&mut self, shape: GridShape, anchor: Cell, diameter: u32, size: GridSize) {
        for c in footprint(shape, anchor, diameter, size) {
            self.claimed[size.index(c)] = self.stamp;
        }
    }

    /// True when a cell of that footprint is claimed already.
    fn is_claimed(&self, shape: GridShape, anchor: Cell, diameter: u32, size: GridSize) -> bool {
        footprint(shape, anchor, diameter, size).any(|c| self.claimed[size.index(c)] == self.stamp)
    }
}

/// Gives every request queued this frame that claims its goal
/// ([`PathRequest::claim_goal`], no goal area) and has no claimed cell yet the nearest
/// cell around its goal whose footprint overlaps no footprint claimed before, that the
/// unit can stand on and reach from its start: requests with the same goal, profile,
/// diameter and component take their cells in order of the unit's distance to the goal,
/// nearest first, and then hand them out again by direction (`match_by_angle`). Runs
/// after the requests of the frame are queued, before they are
/// solved. A request for which no such cell exists claims nothing.
pub(crate) fn claim_goals(
    _main: MainThread,
    grid: Option<Res<NavGrid>>,
    profiles: Res<MovementProfiles>,
    queue: Res<PathQueue>,
    mut tickets: Query<(Entity, &PathRequest, &mut PathStatus)>,
    transforms: TransformHelper,
    mut buffers: Local<SlotBuffers>,
) {
    // Only requests queued this frame claim: none, nothing to look at.
    let Some(grid) = grid.filter(|_| queue.queued_this_frame() > 0) else {
        return;
    };
    let buffers = &mut *buffers;
    buffers.claimants.clear();
    let wants_claim = |request: &PathRequest, ticket: &PathStatus| {
        request.claim_goal
            && request.options.goal_radius == 0
            && ticket.is_queued()
            && ticket.claimed_cell().is_none()
            && ticket.queued_frame() == queue.frame()
            && ticket.request() == Some(request)
    };
    for (entity, request, ticket) in &tickets {
        if !wants_claim(request, ticket) {
            continue;
        }
        if let Some(claimant) = claimant(&grid, &profiles, &transforms, entity, request) {
            buffers.claimants.push(claimant);
        }
    }
    if buffers.claimants.is_empty() {
        return;
    }
    let size = grid.size();
    let shape = grid.layout().shape();
    if buffers.claimed.len() != size.area() {
        buffers.claimed = vec![0; size.area()];
        buffers.stamp = 0;
    }
    buffers.stamp = buffers.stamp.wrapping_add(1);
    if buffers.stamp == 0 {
        buffers.claimed.fill(0);
        buffers.stamp = 1;
    }
    for (_, request, ticket) in &tickets {
        if let Some(claimed) = ticket.claimed_cell()
            && request.claim_goal
        {
            buffers.claim(shape, claimed, request.diameter, size);
        }
    }
    buffers.claimants.sort_unstable_by_key(|c| {
        (
            c.goal.y,
            c.goal.x,
            c.profile.0,
            c.diameter,
            c.label,
            c.distance,
            c.entity,
        )
    });
    let mut group: Option<(Cell, ProfileId, u32, u32)> = None;
    let mut next = 0usize;
    let mut first = 0usize;
    buffers.given.clear();
    buffers.given.resize(buffers.claimants.len(), None);
    for k in 0..buffers.claimants.len() {
        let c = buffers.claimants[k];
        let key = (c.goal, c.profile, c.diameter, c.label);
        if group != Some(key) {
            buffers.match_by_angle(first..k);
            group = Some(key);
            first = k;
            buffers.rings.start(c.goal, size, shape);
            next = 0;
        }
        let Some(layer) = grid.scenario().layer_for(c.profile, c.diameter) else {
            continue;
        };
        let components = layer.components();
        let mut claimed = None;
        while buffers.rings.settle(next, size) {
            let cell = buffers.rings.cell(next);
            let fits = !layer.is_blocked(cell)
                && components.label(cell) == c.label
                && !buffers.is_claimed(shape, cell, c.diameter, size);
            if fits {
                claimed = Some(cell);
                break;
            }
            next += 1;
        }
        if let Some(cell) = claimed {
            buffers.claim(shape, cell, c.diameter, size);
            buffers.given[k] = Some(cell);
        }
    }
    buffers.match_by_angle(first..buffers.claimants.len());
    for (c, &cell) in buffers.claimants.iter().zip(&buffers.given) {
        if let Some(cell) = cell
            && let Ok((_, _, mut ticket)) = tickets.get_mut(c.entity)
        {
            ticket.set_claimed_cell(Some(cell));
        }
    }
}

impl SlotBuffers {
    /// Hands the cells claimed for one group (`range` of the claimants: same goal,
    /// profile, diameter and component, so any of them fits any of its members) out
    /// again by direction: members and cells sorted by their angle around the goal are
    /// paired in that order, so a unit coming from the east ends on the east side of
    /// the blob. Units then do not walk around the group to a cell on its far side,
    /// and a shared field's bound guides their searches well (see `fields`).
    fn match_by_angle(&mut self, range: std::ops::Range<usize>) {
        self.turn.clear();
        self.cells.clear();
        for k in range {
            let c = self.claimants[k];
            if let Some(cell) = self.given[k] {
                // (In i64: a goal far off the map, near the i32 range, must not overflow.)
                let delta = |a: i32, b: i32| (i64::from(a) - i64::from(b)) as f64;
                let angle = |p: Cell| delta(p.y, c.goal.y).atan2(delta(p.x, c.goal.x)) as f32;
                self.turn.push((angle(c.start), k));
                self.cells.push((angle(cell), cell));
            }
        }
        self.turn
            .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.cells.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then((a.1.y, a.1.x).cmp(&(b.1.y, b.1.x)))
        });
        for (&(_, k), &(_, cell)) in self.turn.iter().zip(&self.cells) {
            self.given[k] = Some(cell);
        }
    }
}

/// What the claims need to know of a request, or `None` when it cannot be
/// planned (no position, unknown profile, off-map start, unsupported diameter) or its
/// unit stands in no component.
fn claimant(
    grid: &NavGrid,
    profiles: &MovementProfiles,
    transforms: &TransformHelper,
    entity: Entity,
    request: &PathRequest,
) -> Option<Claimant> {
    let position = world_position(transforms, entity, None);
    let resolved = resolve(grid, request, None, position, profiles).ok()?;
    let layer = resolved.layer?;
    let label = resolved.label;
    if !request.options.nearest_goal && layer.components().label(resolved.requested) != label {
        // The goal itself cannot be reached: the request fails as it asked.
        return None;
    }
    (label != 0).then_some(Claimant {
        entity,
        goal: resolved.requested,
        profile: resolved.profile,
        diameter: request.diameter,
        label,
        distance: layer
            .shape()
            .distance(Connectivity::Octile, resolved.start, resolved.requested),
        start: resolved.start,
    })
}

/// The on-map cells of the footprint of an agent of `diameter` on `anchor`: its square,
/// or on hexagons the tiles within `diameter / 2` steps.
fn footprint(
    shape: GridShape,
    anchor: Cell,
    diameter: u32,
    size: GridSize,
) -> impl Iterator<Item = Cell> {
    shape
        .footprint(anchor, diameter)
        .clip(size)
        .cells()
        .filter(move |&c| shape.covers(anchor, diameter, c))
}
