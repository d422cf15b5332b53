#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod components;
pub mod debug;
pub mod grid;
pub mod plugin;
pub mod scenario;
pub mod search;
pub mod smoothing;
pub mod stats;
pub mod steering;
mod systems;
#[cfg(test)]
mod test_support;
pub mod tilemap;

/// The common imports.
pub mod prelude {
    pub use crate::grid::{Cell, Connectivity, Cost, Direction, GridSize};
    pub use crate::scenario::{CachedScenario, Scenario};
    pub use crate::search::{Algorithm, Limits, PathError, PathQuery, PathStats, Pathfinder};

    pub use crate::components::{
        FoundPath, NavGrid, PathFailure, PathGoal, PathRequest, PathResult, PathSolved, PathTicket,
    };
    pub use crate::debug::{TilepathDebugPlugin, TilepathGizmos};
    pub use crate::plugin::{TilepathPlugin, TilepathSettings, TilepathSystems};
    pub use crate::stats::TilepathStats;
    pub use crate::steering::{Arrived, Steering, SteeringProgress};
    pub use crate::tilemap::{BlocksPath, CollisionLayer};
}
