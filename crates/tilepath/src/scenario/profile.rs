//! Terrain ids and movement profiles: what each terrain costs, or forbids, for a kind of unit.

use std::fmt;

use crate::grid::{Cost, Direction};

/// The terrain of one cell, 0..=255. What a terrain means is up to the game: a
/// [`MovementProfile`] gives each id a weight or blocks it. Maps without terrain have
/// id 0 everywhere.
pub type TerrainId = u8;

/// Names a [`MovementProfile`] registered on a
/// [`CachedScenario`](crate::scenario::CachedScenario) with
/// [`set_profile`](crate::scenario::CachedScenario::set_profile).
/// [`ProfileId::DEFAULT`] always exists.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProfileId(pub u8);

impl ProfileId {
    /// The profile every map starts with: every terrain weighs 1 and none is blocked,
    /// so only obstacles stop an agent (the behaviour of a map without terrain). It can
    /// be replaced like any other.
    pub const DEFAULT: ProfileId = ProfileId(0);
}

impl fmt::Display for ProfileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "profile {}", self.0)
    }
}

/// How one kind of unit reads terrain: a weight 1..=255 per [`TerrainId`], or blocked.
///
/// The cost model, exact and checkable by anyone:
///
/// - A step from cell `a` to its neighbour `b` costs its length (1 straight, √2
///   diagonal) × `(w(a) + w(b)) / 2`, in the fixed point of
///   [`STRAIGHT`](crate::grid::STRAIGHT) and [`DIAGONAL`](crate::grid::DIAGONAL)
///   (both even, so the halving is exact): a path costs the same in both directions.
/// - A cell whose terrain is blocked is an obstacle for the profile, exactly like an
///   obstacle bit: an agent of diameter `d` stands on a cell only when its whole
///   footprint is free of both, and a diagonal step needs both straight cells it passes
///   between to be standable (no corner cutting).
/// - The weights used are those of the cells the agent's anchor steps through, not the
///   rest of its footprint.
/// - With every weight 1 (the default) costs are plain octile lengths: the results of
///   a map without terrain.
///
/// ```
/// use tilepath::scenario::MovementProfile;
///
/// const ROAD: u8 = 1;
/// const FOREST: u8 = 2;
/// const WATER: u8 = 3;
/// let infantry = MovementProfile::new().with_weight(FOREST, 3).with_blocked(WATER);
/// assert_eq!(infantry.weight(FOREST), Some(3));
/// assert_eq!(infantry.weight(ROAD), Some(1));
/// assert_eq!(infantry.weight(WATER), None);
/// ```
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(
    feature = "bevy_reflect",
    reflect(opaque, Clone, PartialEq, Hash, Debug)
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MovementProfile {
    /// Weight per terrain id; 0 means blocked.
    weights: [u8; 256],
}

impl Default for MovementProfile {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for MovementProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for (id, &w) in self.weights.iter().enumerate() {
            if w != 1 {
                match w {
                    0 => map.entry(&id, &"blocked"),
                    w => map.entry(&id, &w),
                };
            }
        }
        map.finish()
    }
}

impl MovementProfile {
    /// Every terrain weighs 1, none is blocked.
    pub const fn new() -> Self {
        Self { weights: [1; 256] }
    }

    /// Sets the weight of `terrain`; a weight of 0 counts as 1 (use
    /// [`MovementProfile::with_blocked`] to forbid a terrain).
    pub const fn with_weight(mut self, terrain: TerrainId, weight: u8) -> Self {
        self.weights[terrain as usize] = if weight == 0 { 1 } else { weight };
        self
    }

    /// Forbids `terrain`: its cells are obstacles for this profile.
    pub const fn with_blocked(mut self, terrain: TerrainId) -> Self {
        self.weights[terrain as usize] = 0;
        self
    }

    /// The weight of `terrain` (1..=255), or `None` when it is blocked.
    pub const fn weight(&self, terrain: TerrainId) -> Option<u8> {
        match self.weights[terrain as usize] {
            0 => None,
            w => Some(w),
        }
    }

    /// True when `terrain` is blocked.
    #[inline]
    pub const fn is_blocked(&self, terrain: TerrainId) -> bool {
        self.weights[terrain as usize] == 0
    }

    /// True when some terrain id is blocked.
    pub fn blocks_any(&self) -> bool {
        self.weights.contains(&0)
    }

    /// The raw table: weight per terrain id, 0 for blocked.
    #[inline]
    pub const fn weights(&self) -> &[u8; 256] {
        &self.weights
    }

    /// The largest weight of the profile (1 when every terrain is blocked).
    pub fn max_weight(&self) -> u8 {
        self.weights.iter().copied().max().unwrap_or(1).max(1)
    }
}

/// Fixed-point cost of one step in direction `d` from a cell of weight `wa` to one of
/// weight `wb`: `d.cost() × (wa + wb) / 2`, exact because step costs are even.
#[inline]
pub const fn step_cost(d: Direction, wa: u8, wb: u8) -> Cost {
    (d.cost() / 2) * (wa as Cost + wb as Cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{DIAGONAL, STRAIGHT};

    #[test]
    fn weights_default_to_one_and_zero_counts_as_one() {
        let p = MovementProfile::new()
            .with_weight(4, 0)
            .with_weight(5, 255)
            .with_blocked(6);
        assert_eq!(p.weight(0), Some(1));
        assert_eq!(p.weight(4), Some(1));
        assert_eq!(p.weight(5), Some(255));
        assert_eq!(p.weight(6), None);
        assert!(p.blocks_any() && !MovementProfile::new().blocks_any());
        assert_eq!(p.max_weight(), 255);
        assert_eq!(format!("{p:?}"), "{5: 255, 6: \"blocked\"}");
    }

    #[test]
    fn step_costs_are_symmetric_and_exact() {
        assert_eq!(step_cost(Direction::East, 1, 1), STRAIGHT);
        assert_eq!(step_cost(Direction::NorthEast, 1, 1), DIAGONAL);
        assert_eq!(step_cost(Direction::East, 1, 2) * 2, 3 * STRAIGHT);
        assert_eq!(
            step_cost(Direction::West, 2, 1),
            step_cost(Direction::East, 1, 2)
        );
        assert_eq!(step_cost(Direction::SouthWest, 255, 255), 255 * DIAGONAL);
    }
}
