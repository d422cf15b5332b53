//! bevy_tilepath: exact, allocation-free grid pathfinding for Bevy tile games.

pub mod grid;
pub mod scenario;
pub mod search;
pub mod smoothing;

/// The common imports.
pub mod prelude {
    pub use crate::grid::{Cell, Connectivity, Cost, Direction, GridSize};
    pub use crate::scenario::{CachedScenario, Scenario};
    pub use crate::search::{Algorithm, Limits, PathError, PathStats, Pathfinder, Query};
}
