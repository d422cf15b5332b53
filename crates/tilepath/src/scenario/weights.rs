//! The step costs one movement profile gives one map: a read-only view for the searches.

use super::profile::{TerrainId, step_cost};
use crate::grid::{Cell, Cost, DIAGONAL, Direction, GridSize, STRAIGHT};
use crate::shape::GridShape;

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
    /// The shape of the map's grid, and the length of a step between diagonal
    /// neighbours on it.
    shape: GridShape,
    diagonal: Cost,
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
            shape: GridShape::Square,
            diagonal: DIAGONAL,
        }
    }

    /// The same weights on a grid of `shape`, whose steps have the shape's lengths.
    pub(crate) fn on(mut self, shape: GridShape) -> Self {
        self.shape = shape;
        self.diagonal = shape.step_length(Direction::NorthEast);
        self
    }

    /// The shape of the grid the weights are on.
    #[inline]
    pub fn shape(&self) -> GridShape {
        self.shape
    }

    /// True when every step costs its length alone (uniform weights on a square grid):
    /// the searches' fast path.
    #[inline]
    pub(crate) fn unit_steps(&self) -> bool {
        self.uniform.is_some() && self.shape.is_square()
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
        let length = if d.is_diagonal() {
            self.diagonal
        } else {
            STRAIGHT
        };
        (length / 2) * (Cost::from(self.at_index(from)) + Cost::from(self.at_index(to)))
    }

    /// Weighted cost of a cell path, or `None` when a step is not a move to a neighbour
    /// or leaves the map. Blocked terrain is not checked (see
    /// [`validate_path`](crate::search::validate_path)). O(len).
    pub fn path_cost(&self, path: &[Cell]) -> Option<Cost> {
        path.windows(2).try_fold(0, |sum: Cost, w| {
            let d =
                Direction::from_delta(w[1].x.checked_sub(w[0].x)?, w[1].y.checked_sub(w[0].y)?)?;
            if !self.size.contains(w[0])
                || !self.size.contains(w[1])
                || !self.shape.is_neighbour(w[0], d)
            {
                return None;
            }
            Some(sum + self.step(self.size.index(w[0]), self.size.index(w[1]), d))
        })
    }

    /// [`Weights::path_cost`] and [`path_length`](crate::grid::path_length) of `path`,
    /// the same values. On a uniform map a step costs what its direction says, so no
    /// weight is read and each step of a valid path is a few instructions: O(len),
    /// without the per-step lookups and square roots of the two general functions
    /// (which answer for a path with a step that is not a king move or leaves the map).
    pub(crate) fn path_cost_and_length(&self, path: &[Cell]) -> (Option<Cost>, f64) {
        let Some(w) = self.uniform.filter(|_| self.shape.is_square()) else {
            return (self.path_cost(path), self.shape.path_length(path));
        };
        let on_map = path.len() < 2 || path.iter().all(|&c| self.size.contains(c));
        let mut king_moves = true;
        let mut diagonals: Cost = 0;
        let length = path
            .windows(2)
            .map(|s| {
                let (dx, dy) = (s[1].x - s[0].x, s[1].y - s[0].y);
                king_moves &=
                    dx.unsigned_abs() <= 1 && dy.unsigned_abs() <= 1 && (dx, dy) != (0, 0);
                let diagonal = dx != 0 && dy != 0;
                diagonals += Cost::from(diagonal);
                // sqrt(dx² + dy²) of a king move, exactly as `path_length` computes it.
                if diagonal {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                }
            })
            // A fold from +0.0: the float `sum` of no steps is -0.0.
            .fold(0.0, |a, b| a + b);
        if !(on_map && king_moves) {
            return (self.path_cost(path), crate::grid::path_length(path));
        }
        let steps = path.len().saturating_sub(1) as Cost;
        let cost = (steps - diagonals) * step_cost(Direction::East, w, w)
            + diagonals * step_cost(Direction::NorthEast, w, w);
        (Some(cost), length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{DIAGONAL, STRAIGHT, path_length};

    #[test]
    fn cost_and_length_in_one_pass_equal_the_general_functions() {
        let size = GridSize::new(8, 6);
        let table = [3u8; 256];
        let uniform = Weights::new(size, &[], &table, 3, Some(3));
        let general = Weights::new(size, &[], &table, 3, None);
        let c = Cell::new;
        let paths: [&[Cell]; 7] = [
            &[],
            &[c(2, 2)],
            &[
                c(0, 0),
                c(1, 1),
                c(2, 1),
                c(3, 2),
                c(3, 3),
                c(2, 4),
                c(1, 5),
            ],
            &[c(7, 5), c(6, 4), c(6, 3), c(5, 3)],
            // Not a king move, a repeated cell, off the map.
            &[c(0, 0), c(2, 0)],
            &[c(1, 1), c(1, 1)],
            &[c(7, 0), c(8, 0)],
        ];
        for path in paths {
            let (cost, length) = uniform.path_cost_and_length(path);
            assert_eq!(cost, general.path_cost(path), "{path:?}");
            assert_eq!(length.to_bits(), path_length(path).to_bits(), "{path:?}");
            assert_eq!(general.path_cost_and_length(path).0, cost);
        }
        assert_eq!(
            uniform.path_cost_and_length(paths[3]).0,
            Some(3 * (DIAGONAL + 2 * STRAIGHT))
        );
    }
}
