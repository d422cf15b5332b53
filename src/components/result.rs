//! What a unit gets: [`PathResult`], [`FoundPath`], [`PathFailure`], tickets and messages.

use std::fmt;

use bevy::prelude::*;

use crate::grid::Cell;
use crate::scenario::ProfileId;
use crate::search::PathError;

use super::goal::PathGoal;

/// A path the plugin found.
///
/// Where it goes: [`FoundPath::reached`] is its last cell. It equals
/// [`FoundPath::requested`] (the request's goal as a cell) unless the request had a goal
/// area (the path ends inside it), the goal was claimed by another unit (the path ends on
/// the nearest free cell around it, see [`PathRequest::claim_goal`](super::PathRequest::claim_goal)), or the goal could
/// not be reached ([`FoundPath::partial`]: the path ends on the reachable cell nearest to
/// it, see [`PathRequest::nearest_goal`](super::PathRequest::nearest_goal)).
///
/// Where it starts: [`FoundPath::start`] is its first cell, the unit's own anchor cell
/// [`FoundPath::from`] unless the unit could not stand there (see
/// [`PathRequest::nearest_start`](super::PathRequest::nearest_start)); a steering unit then walks from its cell to `start`
/// first.
#[derive(Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Debug, Default, PartialEq)]
pub struct FoundPath {
    /// Every cell from the start to the goal, consecutive cells one king move apart.
    pub cells: Vec<Cell>,
    /// The unit's anchor cell when the path was planned.
    pub from: Cell,
    /// The first cell of the path: `from`, or the nearest cell the unit can stand on when
    /// `from` is blocked for it.
    pub start: Cell,
    /// The goal the request asked for, as an anchor cell (for a [`PathGoal::World`] goal,
    /// the anchor cell of an agent centred there; it may lie off the map).
    pub requested: Cell,
    /// The last cell of the path: `requested`, a cell of the goal area, the cell claimed
    /// for the unit, or the reachable cell nearest to `requested`.
    pub reached: Cell,
    /// True when the requested goal (or goal area) could not be reached by the unit (it
    /// is blocked for it, lies in another connected component or off the map) and the
    /// path ends on the reachable cell nearest to it instead.
    pub partial: bool,
    /// World positions (cell centres) to walk through: the smoothed waypoints when the
    /// request asked for smoothing, otherwise the centre of every cell of the path.
    pub waypoints: Vec<Vec2>,
    /// Octile length of the cell path in cells (straight step 1, diagonal √2), whatever
    /// the terrain.
    pub length: f32,
    /// Cost of the cell path under its movement profile, in cells: each step costs its
    /// length × the mean weight of the two cells (see
    /// [`MovementProfile`](crate::scenario::MovementProfile)). Equals `length` where every weight is 1;
    /// with [`crate::steering::Steering`] it is the walking time in seconds × the unit's
    /// speed in cells per second.
    pub cost: f32,
    /// The movement profile the path was planned with.
    pub profile: ProfileId,
    /// [`NavGrid::generation`](super::NavGrid::generation) the path was planned on.
    pub generation: u64,
    /// Nodes the search expanded.
    pub expanded: u32,
    /// True when the long way was read off a shared field toward a nearby goal and only
    /// the last stretch was searched ([`GroupOrders::SharedApproach`]): the path
    /// may cost a little more than the unit's own optimum (see there). False for every
    /// exact answer.
    ///
    /// [`GroupOrders::SharedApproach`]: crate::settings::GroupOrders::SharedApproach
    pub approached: bool,
    /// True for a detour spliced around a new wall that cut the path when no detour of
    /// the old stretch's cost was found nearby: valid on the current map but possibly
    /// dearer than the optimum. It is given while the request is planned again (the unit
    /// carries [`Replanning`]), so that the unit walks on instead of waiting at the wall;
    /// the new answer replaces it. False for every answer of the solver.
    pub provisional: bool,
}

impl FoundPath {
    /// True when the path does not start on the unit's own cell ([`FoundPath::from`] was
    /// blocked for it): the unit first walks out to [`FoundPath::start`].
    pub fn start_moved(&self) -> bool {
        self.start != self.from
    }
}

/// Why the plugin could not give an entity a path.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Debug, PartialEq)]
pub enum PathFailure {
    /// There is no [`NavGrid`](super::NavGrid): no collision layer was spawned yet, the last one was
    /// despawned, or no grid was inserted. Retried automatically when a grid appears.
    NoMap,
    /// There is no [`NavGrid`](super::NavGrid) because every collision layer was refused:
    /// each such tilemap carries a `CollisionLayerError` component saying why (a layer
    /// drawn unlike the primary layer). Retried automatically when a grid appears.
    MapRefused,
    /// The requesting entity (or one of its `ChildOf` ancestors) has no [`Transform`], so
    /// it has no start cell.
    NoTransform,
    /// The entity's world position is NaN or infinite.
    InvalidPosition,
    /// A [`PathGoal::World`] goal is NaN or infinite.
    InvalidGoal,
    /// The entity stands outside the map.
    StartOffMap {
        /// The entity's world position.
        position: Vec2,
    },
    /// The goal lies outside the map.
    GoalOffMap {
        /// The requested goal.
        goal: PathGoal,
    },
    /// The request names a movement profile ([`PathRequest::profile`](super::PathRequest::profile)) that
    /// [`MovementProfiles`](crate::profiles::MovementProfiles) does not define. Retried automatically when the profiles
    /// change.
    UnknownProfile,
    /// The search itself failed: blocked start or goal (an obstacle, or a terrain the
    /// profile blocks, in the footprint), unreachable goal, unsupported diameter, or a
    /// limit stopped it.
    Search(PathError),
}

impl PathFailure {
    /// True when a change of the map or of the movement profiles can turn this failure
    /// into a path. The plugin then retries the request automatically (marked
    /// [`Replanning`]): after any edit (obstacles, terrain, profiles) for blocked or
    /// unreachable goals; after a change of [`MovementProfiles`](crate::profiles::MovementProfiles) (or a new map) for an
    /// unknown profile; and only after a new map, resize or move of the grid for a
    /// missing map and off-map starts and goals (edits cannot fix those).
    pub fn depends_on_map(&self) -> bool {
        matches!(
            self,
            PathFailure::NoMap
                | PathFailure::MapRefused
                | PathFailure::StartOffMap { .. }
                | PathFailure::GoalOffMap { .. }
                | PathFailure::UnknownProfile
                | PathFailure::Search(
                    PathError::StartBlocked { .. }
                        | PathError::GoalBlocked { .. }
                        | PathError::Unreachable
                        | PathError::UnknownProfile { .. }
                )
        )
    }
}

impl fmt::Display for PathFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathFailure::NoMap => write!(f, "there is no navigation grid"),
            PathFailure::MapRefused => write!(
                f,
                "there is no navigation grid: every collision layer was refused \
                 (see their CollisionLayerError)"
            ),
            PathFailure::NoTransform => write!(f, "the entity has no Transform"),
            PathFailure::InvalidPosition => write!(f, "the entity's position is not finite"),
            PathFailure::InvalidGoal => write!(f, "the goal position is not finite"),
            PathFailure::StartOffMap { position } => {
                write!(f, "the entity at {position} is off the map")
            }
            PathFailure::GoalOffMap { goal } => write!(f, "the goal {goal:?} is off the map"),
            PathFailure::UnknownProfile => {
                write!(
                    f,
                    "the request names a movement profile that does not exist"
                )
            }
            PathFailure::Search(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PathFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PathFailure::Search(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PathError> for PathFailure {
    fn from(e: PathError) -> Self {
        PathFailure::Search(e)
    }
}

/// The answer to an entity's [`PathRequest`](super::PathRequest).
///
/// `Pending` means there is no answer to the current request yet (it is new or was
/// changed). Re-planning the same request (after a map edit crossed the path, a stall of
/// a steering unit, or an inserted [`Replanning`]) keeps the previous answer here, so a
/// unit keeps walking its old path, and marks the entity with [`Replanning`] until the
/// new answer replaces it.
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub enum PathResult {
    /// Queued, no answer to the current request yet.
    #[default]
    Pending,
    /// A path was found.
    Found(FoundPath),
    /// No path; the reason is typed.
    Failed(PathFailure),
}

impl PathResult {
    /// True while the request waits in the queue.
    pub fn is_pending(&self) -> bool {
        matches!(self, PathResult::Pending)
    }

    /// The path, when one was found.
    pub fn found(&self) -> Option<&FoundPath> {
        match self {
            PathResult::Found(p) => Some(p),
            _ => None,
        }
    }

    /// The failure, when the request failed.
    pub fn failure(&self) -> Option<&PathFailure> {
        match self {
            PathResult::Failed(f) => Some(f),
            _ => None,
        }
    }
}

/// Marker: the entity's [`PathRequest`](super::PathRequest) is queued to be planned again while its
/// [`PathResult`] still holds the previous answer (a `Found` path stays walkable), or a
/// provisional detour around a new wall that cut it ([`FoundPath::provisional`]).
///
/// The plugin inserts it when a map edit crosses a found path (or may fix a failure) and
/// when a steering unit stalls; it removes it when the new answer arrives. Insert it
/// yourself to plan the same request again from where the unit stands now (a changed
/// request needs no marker: it is queued anyway, and its result becomes `Pending`).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[component(storage = "SparseSet")]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct Replanning;

/// Sent once for every request the plugin answered, in the order they were served.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct PathSolved {
    /// The requesting entity.
    pub entity: Entity,
    /// `Ok(length in cells)` when a path was found, or why not.
    pub outcome: Result<f32, PathFailure>,
}
