//! Scenarios: which cells an agent of a given diameter may stand on.
//!
//! # Footprints
//!
//! An agent of diameter `d` standing at (anchored on) cell `c` occupies the `d × d`
//! square of cells from `c - (d - 1) / 2` to `c + d / 2` on each axis (integer
//! division). An odd diameter is centred on `c`; an even one has its extra column and
//! row on the +x and +y side, so its centre lies half a cell toward +x and +y from the
//! centre of `c`:
//!
//! ```text
//!   d = 1        d = 2        d = 3        d = 4       x grows to the right,
//!  . . . .      . . . .      o o o .      o o o o      y grows downwards (map rows)
//!  . c . .      . c o .      o c o .      o c o o
//!  . . . .      . o o .      o o o .      o o o o
//!  . . . .      . . . .      . . . .      o o o o
//! ```
//!
//! (`c` is the anchor cell, `o` the rest of the footprint.) Off-map cells count as
//! obstacles, so an agent fits at `c` only when its whole footprint is on the map and
//! free. In world space the footprint's centre is the centre of `c` for an odd
//! diameter, and the centre of `c` plus half a cell on x and on y for an even one.
//!
//! [`CachedScenario`] answers this in O(1) per cell from a true-clearance map (see
//! [`clearance`]) and stores one [`Layer`] of blocked bits per diameter, with, once
//! asked for, the layer's [`JumpTable`] for preprocessed jump point search.
//!
//! # Terrain
//!
//! Each cell may also carry a [`TerrainId`]; a [`MovementProfile`] gives every terrain
//! a weight 1..=255 or blocks it, and step costs follow the weights (see
//! [`MovementProfile`] for the exact model). Layers are kept per (profile, diameter).

mod ascii;
mod bitgrid;
mod cached;
pub mod clearance;
mod components;
mod error;
mod footprint;
pub mod generate;
mod jump_table;
mod landmarks;
mod layer;
mod lines;
pub mod movingai;
pub mod movingai_terrain;
mod nearest;
mod profile;
mod rect;
mod weights;

pub use ascii::{AsciiScenario, is_obstacle_char, render};
pub use bitgrid::BitGrid;
pub(crate) use bitgrid::window;
pub use cached::{
    CachedScenario, EDIT_LOG_CAP, LandmarkBuild, LoggedEdit, MapChange, MapEdit, StaleBuild,
};
pub use clearance::CLEARANCE_CAP;
pub use components::Components;
pub use error::{MapError, checked_size};
pub use footprint::{footprint, footprint_on};
pub use jump_table::{Jump, JumpTable, MAX_JUMP};
pub use landmarks::{LANDMARKS, Landmarks};
pub use layer::Stops;
pub use layer::{Layer, MAX_DIAMETER};
pub use profile::{MovementProfile, ProfileId, TerrainId, step_cost};
pub use rect::CellRect;
pub use weights::Weights;

use crate::grid::{Cell, GridSize};

/// A source of obstacles. Implement [`Scenario::is_obstacle`] for a virtual map (a
/// function of the cell, a file, a game's own storage); [`CachedScenario`] caches any
/// scenario as bits plus clearance so the questions below become one lookup.
pub trait Scenario {
    /// Map size in cells.
    fn size(&self) -> GridSize;

    /// True when the single cell is an obstacle; must be true for off-map cells.
    fn is_obstacle(&self, cell: Cell) -> bool;

    /// True when an agent of `diameter` cells cannot stand on `cell`: some cell of its
    /// [`footprint`] (the square from `cell - (diameter - 1) / 2` to
    /// `cell + diameter / 2`) is an obstacle or off the map. A diameter of 0 counts as 1.
    ///
    /// The default checks the whole square, O(min(diameter², map area)), and answers
    /// `true` without a scan when the square leaves the map; caches answer in O(1).
    fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        let square = footprint(cell, diameter);
        !CellRect::of_size(self.size()).contains_rect(square)
            || square.cells().any(|c| self.is_obstacle(c))
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
