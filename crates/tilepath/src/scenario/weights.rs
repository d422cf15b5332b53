//! The step costs one movement profile gives one map: a read-only view for the searches.

use super::profile::{TerrainId, step_cost};
use crate::grid::{Cell, Cost, Direction, GridSize};

/// Weights of one [`MovementProfile`](crate::scenario::MovementProfile) on one map:
/// the map's terrain ids read through the profile's table. Cheap to copy; borrowed from
/// [`CachedScenario::weights`](crate::scenario::CachedScenario::weights).
///
/// `uniform` and `min` cover the terrain ids present on the map and passable for the
/// profile, so a map whose passable cells all weigh the same is uniform even when the
/// profile weighs other terrains differently.
#[derive(Clone, Copy, Debug)]
pub struct Weights<'a> {
    size: GridSize,
    /// Terrain id per cell, row-major; empty when the map has no terrain (all id 0).
    terrain: &'a [TerrainId],
    /// Weight per terrain id, 0 for blocked.
    table: &'a [u8; 256],
    min: u8,
    uniform: Option<u8>,
}

impl<'a> Weights<'a> {
    pub(crate) fn new(
        size: GridSize,
        terrain: &'a [TerrainId],
        table: &'a [u8; 256],
        min: u8,
        uniform: Option<u8>,
    ) -> Self {
        debug_assert!(terrain.is_empty() || terrain.len() == size.area());
        Self {
            size,
            terrain,
            table,
            min: min.max(1),
            uniform,
        }
    }

    /// The weight every passable cell of the map has, when they all have the same one.
    #[inline]
    pub fn uniform(&self) -> Option<u8> {
        self.uniform
    }

    /// The smallest weight of a passable cell (1 when there is none): the factor of the
    /// admissible heuristic.
    #[inline]
    pub fn min(&self) -> u8 {
        self.min
    }

    /// The weight of the on-map cell with row-major index `i` (0 when its terrain is
    /// blocked for the profile).
    #[inline]
    pub fn at_index(&self, i: usize) -> u8 {
        match self.terrain.get(i) {
            Some(&t) => self.table[t as usize],
            None => self.table[0],
        }
    }

    /// The weight of `cell`, or `None` off the map.
    pub fn at(&self, cell: Cell) -> Option<u8> {
        self.size
            .contains(cell)
            .then(|| self.at_index(self.size.index(cell)))
    }

    /// Cost of one step in direction `d` from the cell with index `from` to the one with
    /// index `to` (see [`MovementProfile`](crate::scenario::MovementProfile)).
    #[inline]
    pub fn step(&self, from: usize, to: usize, d: Direction) -> Cost {
        step_cost(d, self.at_index(from), self.at_index(to))
    }

    /// Weighted cost of a cell path, or `None` when a step is not a king move or leaves
    /// the map. Blocked terrain is not checked (see
    /// [`validate_path`](crate::search::validate_path)). O(len).
    pub fn path_cost(&self, path: &[Cell]) -> Option<Cost> {
        path.windows(2).try_fold(0, |sum: Cost, w| {
            let d =
                Direction::from_delta(w[1].x.checked_sub(w[0].x)?, w[1].y.checked_sub(w[0].y)?)?;
            if !self.size.contains(w[0]) || !self.size.contains(w[1]) {
                return None;
            }
            Some(sum + self.step(self.size.index(w[0]), self.size.index(w[1]), d))
        })
    }
}
