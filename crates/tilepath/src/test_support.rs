//! Helpers shared by the unit tests of the core modules.

use crate::grid::{Cell, GridSize};
use crate::scenario::generate::SplitMix64;
use crate::scenario::{BitGrid, CachedScenario, Layer};

/// A `width` x `height` map with about `percent` % walls, from a seed ([`SplitMix64`]).
pub(crate) fn random_map(width: u32, height: u32, percent: u64, seed: u64) -> CachedScenario {
    let mut rng = SplitMix64::new(seed);
    let mut bits = BitGrid::new(GridSize::new(width, height), false);
    for y in 0..height as i32 {
        for x in 0..width as i32 {
            bits.set(Cell::new(x, y), rng.next_u64() % 100 < percent);
        }
    }
    CachedScenario::from_bits(bits).unwrap()
}

/// The first cell free in `layer` at or after index `pick` (wrapping), if any.
pub(crate) fn free_cell(layer: &Layer, pick: u64) -> Option<Cell> {
    let size = layer.size();
    let n = size.area();
    (0..n)
        .map(|k| size.cell((pick as usize + k) % n))
        .find(|&c| !layer.is_blocked(c))
}
