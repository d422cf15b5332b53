//! One registered movement profile on a cached map: its own obstacle bits when it blocks terrain, its layers, its weight bounds.

use std::sync::OnceLock;

use crate::grid::{Cell, GridSize};
use crate::scenario::bitgrid::BitGrid;
use crate::scenario::clearance;
use crate::scenario::layer::{Layer, MAX_DIAMETER};
use crate::scenario::profile::{MovementProfile, TerrainId};
use crate::scenario::rect::CellRect;
use crate::scenario::weights::Weights;
use crate::shape::GridShape;

/// Obstacles of a profile that blocks some terrain: the map's obstacles plus every cell
/// of a blocked terrain, and their true clearance.
#[derive(Clone, Debug)]
pub(super) struct ProfileBits {
    pub(super) blocked: BitGrid,
    pub(super) clearance: Vec<u8>,
}

impl ProfileBits {
    fn build(
        shape: GridShape,
        profile: &MovementProfile,
        base: &BitGrid,
        terrain: &[TerrainId],
    ) -> Self {
        let mut blocked = base.clone();
        if !terrain.is_empty() {
            let size = base.size();
            for (i, &t) in terrain.iter().enumerate() {
                if profile.is_blocked(t) {
                    blocked.set(size.cell(i), true);
                }
            }
        } else if profile.is_blocked(0) {
            blocked = BitGrid::new(base.size(), true);
        }
        let clearance = clearance::compute_for(shape, &blocked);
        Self { blocked, clearance }
    }

    /// Re-reads the cells of `area` from the map's obstacles and terrain, then updates
    /// the clearance they affect.
    pub(super) fn update(
        &mut self,
        shape: GridShape,
        profile: &MovementProfile,
        base: &BitGrid,
        terrain: &[TerrainId],
        area: CellRect,
    ) -> u64 {
        let size = base.size();
        for cell in area.cells() {
            let t = terrain.get(size.index(cell)).copied().unwrap_or(0);
            let now = base.get_or(cell, true) || profile.is_blocked(t);
            self.blocked.set(cell, now);
        }
        area.cell_count()
            + clearance::update_for(shape, &self.blocked, &mut self.clearance, area).cell_count()
    }
}

/// A registered profile: the table, its own obstacle bits (only when it blocks some
/// terrain, built with its first layer), its layers by diameter, and the smallest and
/// uniform weight over the terrain present on the map.
#[derive(Debug)]
pub(super) struct ProfileSlot {
    pub(super) profile: MovementProfile,
    pub(super) own: OnceLock<ProfileBits>,
    pub(super) layers: Vec<OnceLock<Layer>>,
    pub(super) min_weight: u8,
    pub(super) uniform: Option<u8>,
}

impl Clone for ProfileSlot {
    fn clone(&self) -> Self {
        Self {
            profile: self.profile.clone(),
            own: clone_once(&self.own),
            layers: self.layers.iter().map(clone_once).collect(),
            min_weight: self.min_weight,
            uniform: self.uniform,
        }
    }
}

fn clone_once<T: Clone>(cell: &OnceLock<T>) -> OnceLock<T> {
    match cell.get() {
        Some(v) => OnceLock::from(v.clone()),
        None => OnceLock::new(),
    }
}

impl ProfileSlot {
    pub(super) fn new(profile: MovementProfile, counts: &[u64; 256]) -> Self {
        let mut slot = Self {
            profile,
            own: OnceLock::new(),
            layers: (0..MAX_DIAMETER).map(|_| OnceLock::new()).collect(),
            min_weight: 1,
            uniform: None,
        };
        slot.refresh_weights(counts);
        slot
    }

    /// The obstacle bits and clearance layers of this profile are built from: the map's
    /// own, or (when the profile blocks terrain) the profile's, built on first call.
    pub(super) fn bits<'a>(
        &'a self,
        shape: GridShape,
        base: &'a BitGrid,
        clearance: &'a [u8],
        terrain: &[TerrainId],
    ) -> (&'a BitGrid, &'a [u8]) {
        if self.profile.blocks_any() {
            let own = self
                .own
                .get_or_init(|| ProfileBits::build(shape, &self.profile, base, terrain));
            (&own.blocked, &own.clearance)
        } else {
            (base, clearance)
        }
    }

    /// Smallest and uniform weight over the terrain ids present (count > 0) and passable.
    pub(super) fn refresh_weights(&mut self, counts: &[u64; 256]) {
        let mut present = counts
            .iter()
            .zip(self.profile.weights())
            .filter(|&(&n, &w)| n > 0 && w > 0)
            .map(|(_, &w)| w);
        let first = present.next();
        let (mut min, mut max) = (first.unwrap_or(1), first.unwrap_or(1));
        for w in present {
            min = min.min(w);
            max = max.max(w);
        }
        self.min_weight = min;
        self.uniform = (min == max).then_some(min);
    }

    /// Updates this profile after the obstacles or terrain of `area` changed: its own
    /// bits and clearance (when built), then every built layer over the cells whose
    /// footprint meets `area`. `changed` is scratch for the layers' flipped cells.
    pub(super) fn update(
        &mut self,
        shape: GridShape,
        base: &BitGrid,
        clearance: &[u8],
        terrain: &[TerrainId],
        area: CellRect,
        changed: &mut Vec<Cell>,
    ) -> u64 {
        let size = base.size();
        let mut work = 0;
        let clearance = match self.own.get_mut() {
            Some(own) => {
                work += own.update(shape, &self.profile, base, terrain, area);
                &own.clearance[..]
            }
            None => clearance,
        };
        let weights = Weights::new(
            size,
            terrain,
            self.profile.weights(),
            self.min_weight,
            self.uniform,
        );
        for layer in self.layers.iter_mut().filter_map(OnceLock::get_mut) {
            let affected = super::MapChange::affected_area(shape, area, layer.diameter(), size);
            work += layer.update(clearance, weights, affected, changed);
        }
        work
    }

    /// Keeps the built landmark tables feasible after the terrain of `cells` changed
    /// (a lowered weight makes moves cheaper; see [`Landmarks`](crate::scenario::Landmarks)).
    pub(super) fn reweigh(&mut self, size: GridSize, terrain: &[TerrainId], cells: &[Cell]) -> u64 {
        let weights = Weights::new(
            size,
            terrain,
            self.profile.weights(),
            self.min_weight,
            self.uniform,
        );
        self.layers
            .iter_mut()
            .filter_map(OnceLock::get_mut)
            .map(|layer| {
                layer.refresh_interior(weights, cells) + layer.repair_landmarks(weights, &[], cells)
            })
            .sum()
    }
}
