//! The common imports: `use bevy_tilepath::prelude::*;`.

pub use crate::components::{
    Footprint, FoundPath, GridLayout, HexGrid, NavGrid, NavGridChanged, PathFailure, PathGoal,
    PathProgress, PathRequest, PathResult, PathSolved, PathStatus, QueueLane, Replanning, UnitMap,
};
#[cfg(feature = "debug")]
pub use crate::debug::{
    PathColors, PathDebugColor, TilepathDebugCounts, TilepathDebugPlugin, TilepathGizmos,
};
pub use crate::grid::{Cell, Connectivity, Cost, Direction, GridSize};
pub use crate::plugin::{TilepathPlugin, TilepathSystems};
pub use crate::profiles::MovementProfiles;
pub use crate::scenario::{
    CachedScenario, MapEdit, MovementProfile, ProfileId, Scenario, TerrainId,
};
pub use crate::search::{
    Algorithm, AvoidUnits, Limits, PathError, PathQuery, PathStats, Pathfinder,
};
pub use crate::settings::{
    CrowdSettings, FieldSettings, FrameBudget, GroupOrders, LandmarkTables, ReplanSettings,
    RequestDefaults, TilepathSettings,
};
pub use crate::stats::TilepathStats;
pub use crate::steering::{
    Arrived, Avoidance, GridStepProgress, GridStepper, Occupancy, Steering, SteeringProgress,
};
#[cfg(feature = "tiled")]
pub use crate::tilemap::TiledProperties;
#[cfg(feature = "tilemap")]
pub use crate::tilemap::{
    BlocksPath, CellExt, CollisionLayer, CollisionLayerError, Terrain, TilePosExt,
};
