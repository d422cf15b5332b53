//! The names a game writes: `use bevy_tilepath::prelude::*;`.
//!
//! The plugin and its system sets, its settings, requests and their answers, the map,
//! movement profiles, the unit components and the tilemap markers. Everything else stays
//! at its module path: queue state and progress ([`components`](crate::components)),
//! statistics ([`stats`](crate::stats)), steering internals ([`steering`](crate::steering)),
//! debug styling (`debug`) and the core's search API
//! ([`search`](crate::search), [`scenario`](crate::scenario), [`grid`](crate::grid)).
//! Names behind a feature (`tilemap`, `debug`, `tiled`) are here only with that feature.

pub use crate::components::{
    Footprint, FoundPath, GridLayout, NavGrid, NavGridChanged, PathFailure, PathGoal, PathRequest,
    PathResult, PathSolved,
};
#[cfg(feature = "debug")]
pub use crate::debug::TilepathDebugPlugin;
pub use crate::grid::Cell;
pub use crate::plugin::{TilepathPlugin, TilepathSystems};
pub use crate::profiles::MovementProfiles;
pub use crate::scenario::{MapEdit, MovementProfile, ProfileId, TerrainId};
pub use crate::search::Algorithm;
pub use crate::settings::{
    CongestionSettings, CrowdSettings, FieldSettings, FrameBudget, GroupOrders, ReplanSettings,
    RequestDefaults, StallSettings, TilepathSettings,
};
pub use crate::steering::{Arrived, GridStepper, Steering};
#[cfg(feature = "tiled")]
pub use crate::tilemap::TiledProperties;
#[cfg(feature = "tilemap")]
pub use crate::tilemap::{BlocksPath, CellExt, CollisionLayer, Terrain, TilePosExt};
