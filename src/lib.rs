#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub use tilepath;
/// The core's modules, re-exported so `bevy_tilepath::grid::Cell` and
/// `tilepath::grid::Cell` name the same type.
pub use tilepath::{grid, scenario, search, smoothing};

pub mod components;
#[cfg(feature = "debug")]
pub mod debug;
pub mod plugin;
pub mod profiles;
pub mod stats;
pub mod steering;
mod systems;
#[cfg(feature = "tilemap")]
pub mod tilemap;

/// The common imports.
pub mod prelude {
    pub use crate::grid::{Cell, Connectivity, Cost, Direction, GridSize};
    pub use crate::scenario::{
        CachedScenario, MapEdit, MovementProfile, ProfileId, Scenario, TerrainId,
    };
    pub use crate::search::{Algorithm, Limits, PathError, PathQuery, PathStats, Pathfinder};

    pub use crate::components::{
        FoundPath, NavGrid, NavGridChanged, PathFailure, PathGoal, PathRequest, PathResult,
        PathSolved, PathTicket, Replanning,
    };
    #[cfg(feature = "debug")]
    pub use crate::debug::{TilepathDebugCounts, TilepathDebugPlugin, TilepathGizmos};
    pub use crate::plugin::{TilepathPlugin, TilepathSettings, TilepathSystems};
    pub use crate::profiles::MovementProfiles;
    pub use crate::stats::TilepathStats;
    pub use crate::steering::{Arrived, Steering, SteeringProgress};
    #[cfg(feature = "tilemap")]
    pub use crate::tilemap::{
        BlocksPath, CellExt, CollisionLayer, CollisionLayerError, Terrain, TilePosExt,
    };
}
