//! Crowds in steering: units as agents of the core's avoidance (ORCA) and hard separation.

use bevy::prelude::*;

use crate::components::NavGrid;
use crate::crowd::Vector;

/// How a steering unit treats other steering units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub enum Avoidance {
    /// It walks through them and they through it (a ghost: no avoidance, no separation).
    Off,
    /// Reciprocal avoidance ([`crate::crowd`]) and hard separation: it steers around the
    /// units near it, which do their share, and no two such units overlap by more than
    /// [`OVERLAP_TOLERANCE`](crate::crowd::OVERLAP_TOLERANCE) tiles after a frame in the
    /// open. The default.
    #[default]
    Reciprocal,
}

/// Plane positions and tiles: the core's crowds live in cells (cell `(x, y)` covers
/// `[x, x + 1) × [y, y + 1)`), units in the steering plane.
#[derive(Clone, Copy)]
pub(super) struct CellSpace {
    /// Plane position of the corner of cell (0, 0) with the smallest coordinates.
    corner: Vec2,
    tile: Vec2,
    /// Size of the map, in cells.
    size: crate::grid::GridSize,
    /// The shape of its cells.
    shape: crate::shape::GridShape,
}

impl CellSpace {
    pub(super) fn new(grid: &NavGrid) -> Self {
        let tile = grid.plane_tile_size();
        Self {
            corner: grid.plane_agent_center(crate::grid::Cell::new(0, 0), 1) - tile * 0.5,
            tile,
            size: grid.size(),
            shape: grid.layout().shape(),
        }
    }

    /// Size of the map, in cells.
    pub(super) fn size(&self) -> crate::grid::GridSize {
        self.size
    }

    /// The shape of the map's cells.
    pub(super) fn shape(&self) -> crate::shape::GridShape {
        self.shape
    }

    /// A plane position in cells.
    pub(super) fn point(&self, p: Vec2) -> Vector {
        let u = (p - self.corner) / self.tile;
        Vector::new(u.x, u.y)
    }

    /// A plane displacement (or velocity) in cells.
    pub(super) fn vector(&self, v: Vec2) -> Vector {
        let u = v / self.tile;
        Vector::new(u.x, u.y)
    }

    /// A plane speed in cells (per the shorter side of a tile).
    pub(super) fn speed(&self, s: f32) -> f32 {
        s / self.tile.abs().min_element()
    }

    /// A displacement (or velocity) in cells, in the plane.
    pub(super) fn plane(&self, v: Vector) -> Vec2 {
        Vec2::new(v.x, v.y) * self.tile
    }
}
