#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod grid;
pub mod scenario;
pub mod search;
pub mod smoothing;
#[cfg(test)]
mod test_support;

/// The common imports: cells, the cached map, queries and the pathfinder.
pub mod prelude {
    pub use crate::grid::{Cell, Connectivity, Cost, Direction, GridSize};
    pub use crate::scenario::{CachedScenario, Scenario};
    pub use crate::search::{
        Algorithm, Limits, OpenList, PathError, PathQuery, PathStats, Pathfinder,
    };
}
