//! ECS data of the plugin: the [`NavGrid`] map resource, path requests, results and messages.

mod grid;
mod progress;
mod request;
mod result;

#[cfg(feature = "tilemap")]
pub(crate) use grid::GridSource;
pub use grid::{NavGrid, NavGridChanged};
pub use progress::PathProgress;
pub use request::{PathGoal, PathRequest};
pub use result::{FoundPath, PathFailure, PathResult, PathSolved, PathTicket, Replanning};
