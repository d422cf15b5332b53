//! Scenarios: which cells an agent of a given diameter may stand on.

mod ascii;
mod bitgrid;
mod cached;
pub mod clearance;
mod components;
mod error;
pub mod generate;
mod lines;
pub mod movingai;

pub use ascii::{AsciiScenario, is_obstacle_char, render};
pub use bitgrid::BitGrid;
pub use cached::{CachedScenario, Layer, MAX_DIAMETER, MapChange};
pub use clearance::{CLEARANCE_CAP, CellRect};
pub use components::Components;
pub use error::{MapError, checked_size};

use crate::grid::{Cell, GridSize};

/// A source of obstacles. Implement [`Scenario::is_obstacle`] for a virtual map (a
/// function of the cell, a file, a game's own storage); [`CachedScenario`] caches any
/// scenario as bits plus clearance so the questions below become one lookup.
pub trait Scenario {
    /// Map size in cells.
    fn size(&self) -> GridSize;

    /// True when the single cell is an obstacle; must be true for off-map cells.
    fn is_obstacle(&self, cell: Cell) -> bool;

    /// True when an agent of `diameter` cells cannot stand on `cell`: some cell within
    /// Chebyshev radius `diameter / 2` of it is an obstacle or off the map.
    ///
    /// The default checks the whole square, O(diameter²); caches answer in O(1).
    fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        let r = (diameter / 2) as i32;
        (cell.y - r..=cell.y + r)
            .any(|y| (cell.x - r..=cell.x + r).any(|x| self.is_obstacle(Cell::new(x, y))))
    }
}

/// A virtual scenario answered by a closure, e.g. procedural terrain.
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::scenario::FnScenario;
///
/// let stripes = FnScenario::new(GridSize::new(8, 8), |c: Cell| c.x % 4 == 3 && c.y != 0);
/// let map = CachedScenario::from_scenario(&stripes).unwrap();
/// assert!(map.is_obstacle(Cell::new(3, 5)));
/// assert!(map.connected(Cell::new(0, 7), Cell::new(6, 7), 1));
/// ```
pub struct FnScenario<F> {
    size: GridSize,
    obstacle: F,
}

impl<F: Fn(Cell) -> bool> FnScenario<F> {
    /// Wraps `obstacle`, called only for on-map cells.
    pub fn new(size: GridSize, obstacle: F) -> Self {
        Self { size, obstacle }
    }
}

impl<F: Fn(Cell) -> bool> Scenario for FnScenario<F> {
    fn size(&self) -> GridSize {
        self.size
    }

    fn is_obstacle(&self, cell: Cell) -> bool {
        !self.size.contains(cell) || (self.obstacle)(cell)
    }
}
