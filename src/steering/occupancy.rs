//! Which unit holds each cell: the reservations of grid-stepping units.

use bevy::prelude::*;

use crate::grid::{Cell, GridSize};
use crate::shape::GridShape;

/// The cells held by [`GridStepper`](super::GridStepper) units: each unit holds the
/// footprint of the cell it stands on (a square of its diameter, see
/// [`footprint`](crate::scenario::footprint); on hexagons the tiles within `d / 2` steps,
/// see [`GridShape::covers`]), and a cell has at most one holder.
///
/// The plugin keeps it, in its `Steer` set; read it after
/// [`TilepathSystems::Steer`](crate::plugin::TilepathSystems::Steer) (to show who blocks
/// a cell, or to keep your own units off held cells). Memory: 8 bytes per map cell,
/// allocated when the first grid stepper moves.
#[derive(Resource, Debug, Default, Reflect)]
#[reflect(Resource, Debug, Default)]
pub struct Occupancy {
    #[reflect(ignore)]
    size: GridSize,
    #[reflect(ignore)]
    shape: GridShape,
    #[reflect(ignore)]
    holders: Vec<Option<Entity>>,
    /// Indices of the cells held since the last clear (some may have been released).
    #[reflect(ignore)]
    held: Vec<u32>,
}

impl Occupancy {
    /// The unit holding `cell`, if any (`None` off the map).
    pub fn holder(&self, cell: Cell) -> Option<Entity> {
        self.index(cell).and_then(|i| self.holders[i])
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        (cell.x >= 0
            && cell.y >= 0
            && (cell.x as u32) < self.size.width
            && (cell.y as u32) < self.size.height)
            .then(|| cell.y as usize * self.size.width as usize + cell.x as usize)
    }

    /// The on-map cells of the footprint of `anchor`, at most the map's.
    fn footprint(&self, anchor: Cell, diameter: u32) -> impl Iterator<Item = Cell> + use<> {
        let shape = self.shape;
        shape
            .footprint(anchor, diameter)
            .clip(self.size)
            .cells()
            .filter(move |&c| shape.covers(anchor, diameter, c))
    }

    /// Releases every cell; sized for a map of `size` and `shape` (keeps its buffers).
    pub(super) fn clear(&mut self, size: GridSize, shape: GridShape) {
        self.shape = shape;
        if size != self.size {
            self.size = size;
            self.holders.clear();
            self.holders
                .resize(size.width as usize * size.height as usize, None);
            self.held.clear();
            return;
        }
        for &i in &self.held {
            self.holders[i as usize] = None;
        }
        self.held.clear();
    }

    /// True when no unit but `unit` holds a cell of the footprint of `anchor` (cells off
    /// the map count as free: the map's own walls keep units off them).
    pub(super) fn is_free_for(&self, anchor: Cell, diameter: u32, unit: Entity) -> bool {
        self.blocker(anchor, diameter, unit).is_none()
    }

    /// The first unit other than `unit` holding a cell of the footprint of `anchor`.
    /// O(min(diameter², map cells)), as are [`Occupancy::hold`] and
    /// [`Occupancy::release`]: only the footprint's cells on the map are visited.
    pub(super) fn blocker(&self, anchor: Cell, diameter: u32, unit: Entity) -> Option<Entity> {
        self.blocker_of(self.footprint(anchor, diameter), unit)
    }

    /// `unit` holds the free cells of the footprint of `anchor` (cells held by another
    /// unit stay theirs).
    pub(super) fn hold(&mut self, anchor: Cell, diameter: u32, unit: Entity) {
        self.hold_cells(self.footprint(anchor, diameter), unit);
    }

    /// `unit` gives up the cells of the footprint of `anchor` it holds.
    pub(super) fn release(&mut self, anchor: Cell, diameter: u32, unit: Entity) {
        self.release_cells(self.footprint(anchor, diameter), unit);
    }

    /// The first unit other than `unit` holding one of `cells`.
    pub(super) fn blocker_of(
        &self,
        mut cells: impl Iterator<Item = Cell>,
        unit: Entity,
    ) -> Option<Entity> {
        cells.find_map(|c| self.holder(c).filter(|&h| h != unit))
    }

    /// `unit` holds those of `cells` that no unit holds.
    pub(super) fn hold_cells(&mut self, cells: impl Iterator<Item = Cell>, unit: Entity) {
        for c in cells {
            if let Some(i) = self.index(c)
                && self.holders[i].is_none()
            {
                self.holders[i] = Some(unit);
                self.held.push(i as u32);
            }
        }
    }

    /// `unit` gives up those of `cells` it holds.
    pub(super) fn release_cells(&mut self, cells: impl Iterator<Item = Cell>, unit: Entity) {
        for c in cells {
            if let Some(i) = self.index(c)
                && self.holders[i] == Some(unit)
            {
                self.holders[i] = None;
                // `held` keeps the index; clearing a free cell again is harmless.
            }
        }
    }
}
