//! ECS data of the plugin: the [`NavGrid`] map resource, path requests, results and messages.

mod footprint;
mod goal;
mod grid;
mod placement;
mod positions;
mod progress;
mod request;
mod result;
mod units;

pub use footprint::Footprint;
pub use goal::PathGoal;
#[cfg(feature = "tilemap")]
pub(crate) use grid::GridSource;
pub(crate) use grid::RefusedLayers;
pub use grid::{NavGrid, NavGridChanged};
pub(crate) use grid::{register_profiles_on_insert, sync_profiles};
pub use placement::GridLayout;
pub(crate) use placement::Placement;
pub use progress::PathProgress;
pub use request::{PathRequest, PathStatus, QueueLane};
pub use result::{FoundPath, PathFailure, PathResult, PathSolved, Replanning};
pub use units::UnitMap;
