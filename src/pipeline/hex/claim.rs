//! Claimed goal tiles on hexagonal maps: units sent to one tile end on distinct tiles around it.

use bevy::ecs::entity::EntityHashMap;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::components::HexGrid;
use crate::grid::Cell;
use crate::hex::{Hex, HexMap};

/// Rings searched around a goal for a free tile before the goal is left unclaimed.
const MAX_RING: u32 = 32;

/// The claimed tiles: each claiming unit's tile and radius, and which unit's footprint
/// covers each hexagon.
#[derive(Default)]
pub(super) struct HexClaims {
    by_unit: EntityHashMap<(Cell, u32)>,
    covered: HashMap<Hex, Entity>,
}

impl HexClaims {
    /// The tile `unit` holds, if any.
    pub(super) fn of(&self, unit: Entity) -> Option<Cell> {
        self.by_unit.get(&unit).map(|&(cell, _)| cell)
    }

    /// Gives up `unit`'s claim.
    pub(super) fn release(&mut self, grid: &HexGrid, unit: Entity) {
        if let Some((cell, radius)) = self.by_unit.remove(&unit) {
            for hex in grid.hex(cell).within(radius) {
                if self.covered.get(&hex) == Some(&unit) {
                    self.covered.remove(&hex);
                }
            }
        }
    }

    /// Gives up the claims of units that `keep` rejects.
    pub(super) fn retain(&mut self, grid: &HexGrid, mut keep: impl FnMut(Entity) -> bool) {
        let gone: Vec<Entity> = self.by_unit.keys().copied().filter(|&e| !keep(e)).collect();
        for unit in gone {
            self.release(grid, unit);
        }
    }

    /// Claims for `unit` (of footprint `radius`) the tile nearest `goal` (fewest steps,
    /// then smallest `r`, then `q`, in axial coordinates) that it can stand on and whose
    /// footprint overlaps no other unit's claim; its previous claim is given up first.
    /// `None` (nothing claimed) when no such tile lies within 32 steps.
    ///
    /// Complexity: `O(k² · r²)` for the `k` rings looked at.
    pub(super) fn claim(
        &mut self,
        grid: &HexGrid,
        map: &HexMap,
        unit: Entity,
        goal: Cell,
        radius: u32,
    ) -> Option<Cell> {
        self.release(grid, unit);
        let free = |hex: Hex| {
            map.can_stand(hex, radius)
                && hex
                    .within(radius)
                    .all(|h| self.covered.get(&h).is_none_or(|&e| e == unit))
        };
        let hex = grid
            .hex(goal)
            .within(MAX_RING)
            .find(|&h| grid.cell(h).is_some() && free(h))?;
        let cell = grid.cell(hex)?;
        for h in hex.within(radius) {
            self.covered.insert(h, unit);
        }
        self.by_unit.insert(unit, (cell, radius));
        Some(cell)
    }

    /// True when `unit`'s claimed tile is still one it can stand on.
    pub(super) fn holds(&self, grid: &HexGrid, map: &HexMap, unit: Entity) -> bool {
        self.by_unit
            .get(&unit)
            .is_some_and(|&(cell, radius)| map.can_stand(grid.hex(cell), radius))
    }
}
