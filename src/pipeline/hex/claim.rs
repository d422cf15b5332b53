//! Claimed goal tiles on hexagonal maps: units sent to one tile end on distinct tiles around it.

use bevy::ecs::entity::EntityHashMap;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::components::HexGrid;
use crate::grid::Cell;
use crate::hex::{Hex, HexMap};

/// Rings searched around a goal for a free tile before the goal is left unclaimed.
const MAX_RING: i32 = 32;

/// The claimed tiles: each claiming unit's tile and radius, and which unit's footprint
/// covers each hexagon.
#[derive(Default)]
pub(super) struct HexClaims {
    by_unit: EntityHashMap<(Cell, u32)>,
    covered: HashMap<Hex, Entity>,
}

/// The hexagons within `radius` steps of `centre`, ring by ring; within a ring by `r`,
/// then `q`.
fn disc(centre: Hex, radius: i32) -> impl Iterator<Item = Hex> {
    (0..=radius).flat_map(move |k| ring(centre, k))
}

/// The hexagons exactly `k` steps from `centre`, by `r`, then `q`.
fn ring(centre: Hex, k: i32) -> impl Iterator<Item = Hex> {
    (-k..=k).flat_map(move |dr| {
        (-k..=k)
            .filter(move |&dq| dq.abs().max(dr.abs()).max((dq + dr).abs()) == k)
            .map(move |dq| Hex::new(centre.q + dq, centre.r + dr))
    })
}

impl HexClaims {
    /// The tile `unit` holds, if any.
    pub(super) fn of(&self, unit: Entity) -> Option<Cell> {
        self.by_unit.get(&unit).map(|&(cell, _)| cell)
    }

    /// Gives up `unit`'s claim.
    pub(super) fn release(&mut self, grid: &HexGrid, unit: Entity) {
        if let Some((cell, radius)) = self.by_unit.remove(&unit) {
            for hex in disc(grid.hex(cell), radius as i32) {
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
        let r = i32::try_from(radius).ok()?;
        let free = |hex: Hex| {
            map.can_stand(hex, radius)
                && disc(hex, r).all(|h| self.covered.get(&h).is_none_or(|&e| e == unit))
        };
        let hex = disc(grid.hex(goal), MAX_RING).find(|&h| grid.cell(h).is_some() && free(h))?;
        let cell = grid.cell(hex)?;
        for h in disc(hex, r) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_hold_exactly_the_hexagons_at_their_distance() {
        let centre = Hex::new(3, -2);
        for k in 0..5 {
            let hexes: Vec<Hex> = ring(centre, k).collect();
            assert_eq!(hexes.len(), if k == 0 { 1 } else { 6 * k as usize });
            assert!(hexes.iter().all(|h| h.distance(centre) == k as u32));
        }
        assert_eq!(disc(centre, 2).count(), 19);
    }
}
