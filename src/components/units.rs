//! Where the units stand, as the planner reads it: the [`UnitMap`] resource.

use bevy::prelude::*;

use crate::search::{Congestion, UnitCells};

/// The cells held by steering and grid-stepping units as the `Solve` set starts (where
/// the last frame's steering left them): standing units (arrived, or without a
/// [`PathRequest`](super::PathRequest)) and moving ones (with an order, even one given
/// this frame), each over its footprint. Requests read it when they are solved,
/// through [`PathRequest::avoid_units`](super::PathRequest::avoid_units).
///
/// It is rebuilt every frame in O(units × diameter²) and never reviews a path: a unit
/// that stops or starts changes what later searches see, not the paths already given,
/// so no wave of re-plans follows when a group arrives. A unit that a standing one
/// blocks stalls, plans again and then goes around it.
///
/// It also keeps where units have crawled lately ([`UnitMap::congestion`], see
/// [`CongestionSettings`](crate::settings::CongestionSettings)), updated at the same
/// time in O(units × diameter² + cells congested). Memory: 3 bytes per map cell.
#[derive(Resource, Debug, Default)]
pub struct UnitMap {
    cells: UnitCells,
    congestion: Congestion,
}

impl UnitMap {
    /// The units' cells ([`UnitCells::kind`] tells what holds a cell).
    pub fn cells(&self) -> &UnitCells {
        &self.cells
    }

    /// How congested each cell has been lately (empty while congestion is off).
    pub fn congestion(&self) -> &Congestion {
        &self.congestion
    }

    /// The records to rebuild (the steering systems mark units into them).
    pub(crate) fn parts_mut(&mut self) -> (&mut UnitCells, &mut Congestion) {
        (&mut self.cells, &mut self.congestion)
    }
}
