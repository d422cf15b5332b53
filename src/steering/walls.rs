//! Where a unit may not go: footprints on the anchor lattice, moves that slide along walls.

use bevy::prelude::*;

use crate::components::NavGrid;
use crate::grid::{Cell, Connectivity, Direction};
use crate::scenario::Layer;

/// The share of [`Walls::hex_wall_gap`]'s least distance that a hexagonal unit keeps
/// from a blocked tile's centre: a margin for rounding.
const HEX_WALL_MARGIN: f32 = 0.95;

/// The rectangle (inclusive corners) of anchor cells that a one-tile square centred on
/// `p` overlaps, with a small tolerance so that touching edges do not count. A unit
/// whose centre is at `p` covers, in world space, exactly the footprints of these
/// anchors: its footprint (its diameter in tiles, centred on `p`) is clear of blocked
/// cells when all of them are free on its layer.
pub(super) fn overlapped(lattice: &Lattice, p: Vec2) -> (Cell, Cell) {
    const EPS: f32 = 1e-3;
    let u = (p - lattice.corner) / lattice.tile;
    let lo = (u - Vec2::splat(0.5 - EPS)).floor();
    let hi = (u + Vec2::splat(0.5 - EPS)).floor();
    (
        Cell::new(lo.x as i32, lo.y as i32),
        Cell::new(hi.x as i32, hi.y as i32),
    )
}

/// Where a unit may not go: its layer, its anchor lattice and the cell it escapes
/// toward when it stands where it cannot stand (the first cell of its path).
#[derive(Clone, Copy)]
pub(super) struct Walls<'a> {
    pub(super) grid: &'a NavGrid,
    pub(super) layer: &'a Layer,
    pub(super) lattice: Lattice,
    pub(super) diameter: u32,
    pub(super) escape: Cell,
}

impl Walls<'_> {
    /// True when a unit whose centre is at `from` may move to `to` (a short move: less
    /// than half a tile).
    ///
    /// - From a blocked anchor cell (a wall appeared on the unit, or it was pushed
    ///   there), it may stay in that cell, enter a free one, or enter a blocked one that
    ///   is nearer (octile) to its escape cell: it walks out toward its path.
    /// - Otherwise it may stay in its anchor cell or enter a neighbouring free one
    ///   ([`Layer::can_step`]), and on squares its footprint may not overlap a
    ///   blocked cell it did not already overlap: a unit never pushes its footprint
    ///   further into a wall, and one that overlaps a wall (a wall painted next to it)
    ///   can only move out of it.
    pub(super) fn may_move(&self, from: Vec2, to: Vec2) -> bool {
        let (grid, layer) = (self.grid, self.layer);
        let Some(target) = grid.plane_agent_cell(to, self.diameter) else {
            return false;
        };
        let Some(current) = grid.plane_agent_cell(from, self.diameter) else {
            return !layer.is_blocked(target);
        };
        let shape = layer.shape();
        if shape.steps(current, target) > 1 {
            return false;
        }
        if layer.is_blocked(current) {
            let d = |c: Cell| shape.distance(Connectivity::Octile, c, self.escape);
            return target == current || !layer.is_blocked(target) || d(target) < d(current);
        }
        if target != current && !layer.can_step(current, target) {
            return false;
        }
        if !shape.is_square() {
            return self.clear_of_hex_walls(target, from, to);
        }
        let (was_lo, was_hi) = overlapped(&self.lattice, from);
        let (lo, hi) = overlapped(&self.lattice, to);
        let inside_before =
            |c: Cell| c.x >= was_lo.x && c.x <= was_hi.x && c.y >= was_lo.y && c.y <= was_hi.y;
        (lo.y..=hi.y).all(|y| {
            (lo.x..=hi.x).all(|x| {
                let c = Cell::new(x, y);
                !layer.is_blocked(c) || inside_before(c)
            })
        })
    }

    /// Whether a hexagonal unit's centre at `to`, in anchor tile `target`, keeps its
    /// distance from each blocked neighbour of that tile: no nearer to its centre than
    /// from `from`, or no nearer than [`Walls::hex_wall_gap`]. A unit that walks its path
    /// is so never refused; one that heads into a wall stops short of it instead of
    /// pressing its disc in.
    fn clear_of_hex_walls(&self, target: Cell, from: Vec2, to: Vec2) -> bool {
        let (grid, layer) = (self.grid, self.layer);
        let shape = layer.shape();
        let centre = grid.plane_agent_center(target, self.diameter);
        Direction::ALL.into_iter().all(|d| {
            let w = target.step(d);
            if !shape.is_neighbour(target, d) || !layer.is_blocked(w) {
                return true;
            }
            let wall = grid.plane_agent_center(w, self.diameter);
            let now = to.distance(wall);
            now >= from.distance(wall) || now >= self.hex_wall_gap(target, centre, w, wall)
        })
    }

    /// How near the centre `wall` of tile `w` a unit comes that walks, inside tile
    /// `target` (centre `centre`), the straight line between that tile and a neighbour
    /// of both: the least distance from `wall` to the half of such a line inside
    /// `target`, less a margin. On regular hexagons √3 / 2 of a tile.
    fn hex_wall_gap(&self, target: Cell, centre: Vec2, w: Cell, wall: Vec2) -> f32 {
        let shape = self.layer.shape();
        let mut gap = f32::INFINITY;
        for d in Direction::ALL {
            let n = target.step(d);
            if shape.is_neighbour(target, d) && shape.steps(n, w) == 1 {
                let half = (self.grid.plane_agent_center(n, self.diameter) - centre) * 0.5;
                let t = ((wall - centre).dot(half) / half.length_squared()).clamp(0.0, 1.0);
                gap = gap.min(wall.distance(centre + half * t));
            }
        }
        gap * HEX_WALL_MARGIN
    }

    /// On hexagons, `step` without the part of it that heads for the centres of the
    /// blocked neighbours of the unit's tile: a move along the walls. `None` on squares
    /// and off the map.
    fn along_hex_walls(&self, from: Vec2, step: Vec2) -> Option<Vec2> {
        let (grid, layer) = (self.grid, self.layer);
        let shape = layer.shape();
        if shape.is_square() {
            return None;
        }
        let cell = grid.plane_agent_cell(from, self.diameter)?;
        let mut along = step;
        for d in Direction::ALL {
            if shape.is_neighbour(cell, d) && layer.is_blocked(cell.step(d)) {
                let wall = grid.plane_agent_center(cell.step(d), self.diameter);
                let toward = (wall - from).normalize_or_zero();
                along -= toward * along.dot(toward).max(0.0);
            }
        }
        Some(along)
    }

    /// One small move with sliding: the full step, else (on hexagons) the step along
    /// the walls, else its x part, else its y part (each
    /// only when it is at least a fifth of the step), else a step of the same length
    /// toward the centre of the unit's anchor cell (which lines a unit up with a
    /// corridor it could not enter off-centre; on hexagons only when that is not
    /// against the step), else none.
    pub(super) fn slide(&self, from: Vec2, step: Vec2) -> Vec2 {
        let length = step.length();
        let useful = |part: f32| part.abs() >= 0.2 * length;
        let mut candidates = [None; 5];
        candidates[0] = Some(from + step);
        if let Some(along) = self.along_hex_walls(from, step)
            && useful(along.length())
        {
            candidates[1] = Some(from + along);
        }
        if useful(step.x) {
            candidates[2] = Some(from + Vec2::new(step.x, 0.0));
        }
        if useful(step.y) {
            candidates[3] = Some(from + Vec2::new(0.0, step.y));
        }
        if let Some(cell) = self.grid.plane_agent_cell(from, self.diameter)
            && !self.layer.is_blocked(cell)
        {
            let centre = self.grid.plane_agent_center(cell, self.diameter);
            let to_centre = centre - from;
            // On hexagons a unit stopped short of a wall would otherwise step back to
            // its centre and forward again, frame after frame.
            let back = !self.layer.shape().is_square() && to_centre.dot(step) < 0.0;
            if !back {
                candidates[4] = Some(from + to_centre.clamp_length_max(length));
            }
        }
        for candidate in candidates.into_iter().flatten() {
            if candidate != from && self.may_move(from, candidate) {
                return candidate;
            }
        }
        from
    }
}

/// Anchor cells of one diameter in world space, for finding where a straight move
/// crosses from one cell into the next.
#[derive(Clone, Copy)]
pub(super) struct Lattice {
    /// World position of the corner of anchor cell (0, 0) with the smallest coordinates.
    pub(super) corner: Vec2,
    pub(super) tile: Vec2,
}

impl Lattice {
    pub(super) fn new(grid: &NavGrid, diameter: u32) -> Self {
        let tile = grid.plane_tile_size();
        Self {
            corner: grid.plane_agent_center(Cell::new(0, 0), diameter) - tile * 0.5,
            tile,
        }
    }

    /// World distance from `at` along the unit vector `dir` to the next line between
    /// anchor cells strictly ahead (infinite when `dir` is zero or the tiles are
    /// degenerate). A point on a line counts as being in the cell ahead of it.
    pub(super) fn exit_distance(&self, at: Vec2, dir: Vec2) -> f32 {
        let u = (at - self.corner) / self.tile;
        let du = dir / self.tile;
        let axis = |u: f32, du: f32| {
            if du > 0.0 {
                (u.floor() + 1.0 - u) / du
            } else if du < 0.0 {
                (u - (u.ceil() - 1.0)) / -du
            } else {
                f32::INFINITY
            }
        };
        let d = axis(u.x, du.x).min(axis(u.y, du.y));
        if d.is_finite() { d } else { f32::INFINITY }
    }
}
