//! Where a unit may not go: footprints on the anchor lattice, moves that slide along walls.

use bevy::prelude::*;

use crate::components::NavGrid;
use crate::grid::{Cell, Connectivity};
use crate::scenario::Layer;

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
            // A hexagonal footprint is the disc around its tile, which the layer keeps
            // clear wherever the tile is free.
            return true;
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

    /// One small move with sliding: the full step, else its x part, else its y part (each
    /// only when it is at least a fifth of the step), else a step of the same length
    /// toward the centre of the unit's anchor cell (which lines a unit up with a
    /// corridor it could not enter off-centre), else none.
    pub(super) fn slide(&self, from: Vec2, step: Vec2) -> Vec2 {
        let length = step.length();
        let useful = |part: f32| part.abs() >= 0.2 * length;
        let mut candidates = [None; 4];
        candidates[0] = Some(from + step);
        if useful(step.x) {
            candidates[1] = Some(from + Vec2::new(step.x, 0.0));
        }
        if useful(step.y) {
            candidates[2] = Some(from + Vec2::new(0.0, step.y));
        }
        if let Some(cell) = self.grid.plane_agent_cell(from, self.diameter)
            && !self.layer.is_blocked(cell)
        {
            let centre = self.grid.plane_agent_center(cell, self.diameter);
            let to_centre = centre - from;
            candidates[3] = Some(from + to_centre.clamp_length_max(length));
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
