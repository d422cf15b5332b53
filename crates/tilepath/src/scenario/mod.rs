//! Scenarios: which cells an agent of a given diameter may stand on.

mod ascii;
mod bitgrid;
mod cached;
pub mod clearance;
mod components;
pub mod generate;
pub mod movingai;

pub use ascii::{AsciiScenario, is_obstacle_char, render};
pub use bitgrid::BitGrid;
pub use cached::{CachedScenario, Layer, MAX_DIAMETER, MapChange};
pub use clearance::{CLEARANCE_CAP, CellRect};
pub use components::Components;

use crate::grid::{Cell, GridSize};
use std::fmt;

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

/// Why a map could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    /// The map has no cells.
    Empty,
    /// The map is wider or taller than the crate supports (more than 2³² cells).
    TooLarge {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// A row of a text map has a different length from the first row.
    RaggedRow {
        /// Zero-based row index.
        row: usize,
        /// Length of the first row.
        expected: usize,
        /// Length of this row.
        found: usize,
    },
    /// A MovingAI file header is malformed.
    BadHeader {
        /// One-based line number.
        line: usize,
        /// What was wrong.
        reason: &'static str,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::Empty => write!(f, "the map has no cells"),
            MapError::TooLarge { width, height } => {
                write!(f, "a {width}x{height} map is too large")
            }
            MapError::RaggedRow {
                row,
                expected,
                found,
            } => {
                write!(f, "row {row} has {found} cells, expected {expected}")
            }
            MapError::BadHeader { line, reason } => write!(f, "line {line}: {reason}"),
        }
    }
}

impl std::error::Error for MapError {}
