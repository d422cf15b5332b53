//! What a unit gets: [`PathResult`], [`FoundPath`], [`PathFailure`], tickets and messages.

use std::fmt;

use bevy::prelude::*;

use crate::grid::Cell;
use crate::scenario::ProfileId;
use crate::search::PathError;

use super::*;

/// A path the plugin found.
///
/// Where it goes: [`FoundPath::reached`] is its last cell. It equals
/// [`FoundPath::requested`] (the request's goal as a cell) unless the request had a goal
/// area (the path ends inside it), the goal was claimed by another unit (the path ends on
/// the nearest free cell around it, see [`PathRequest::claim_goal`]), or the goal could
/// not be reached ([`FoundPath::partial`]: the path ends on the reachable cell nearest to
/// it, see [`PathRequest::nearest_goal`]).
///
/// Where it starts: [`FoundPath::start`] is its first cell, the unit's own anchor cell
/// [`FoundPath::from`] unless the unit could not stand there (see
/// [`PathRequest::nearest_start`]); a steering unit then walks from its cell to `start`
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
    /// [`NavGrid::generation`] the path was planned on.
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
    /// There is no [`NavGrid`]: no collision layer was spawned yet, the last one was
    /// despawned, or no grid was inserted. Retried automatically when a grid appears.
    NoMap,
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
    /// The request names a movement profile ([`PathRequest::profile`]) that
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

/// The answer to an entity's [`PathRequest`].
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

/// Marker: the entity's [`PathRequest`] is queued to be planned again while its
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

/// Queue bookkeeping the plugin keeps next to each [`PathRequest`]: when it was queued,
/// its place in the queue (lower = served first), whether it waits there, and the request
/// the current or coming answer is for.
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct PathTicket {
    queued_frame: u64,
    order: u64,
    queued: bool,
    request: Option<PathRequest>,
    slot: Option<Cell>,
    /// Times map edits set back the work on this request since it was queued (see
    /// [`TilepathSettings`](crate::settings::TilepathSettings)'s progress guarantee).
    setbacks: u8,
}

impl PathTicket {
    /// The first [`PathTicket::order`] of the improvement lane: re-plans queued only
    /// because a newly opened (or cheaper) cell may shorten a path that is still valid.
    /// They wait behind every request that needs an answer (new, changed, retried or
    /// cut), which keeps units that have no path to follow moving first.
    pub const IMPROVEMENT: u64 = 1 << 63;

    /// The first [`PathTicket::order`] of the deferred lane: re-plans of paths that a new
    /// wall cut farther ahead of their unit than
    /// [`ReplanSettings::defer_cuts_beyond`](crate::settings::ReplanSettings::defer_cuts_beyond)
    /// cells. The unit walks on meanwhile; the request waits behind every request that
    /// needs an answer now and ahead of the improvements, and becomes urgent as soon as
    /// its unit comes that near to the cut (or a nearer cut appears).
    pub const DEFERRED: u64 = 1 << 62;

    /// Puts the ticket in the queue at `order` for `request`. A re-plan of the same
    /// request keeps its claimed slot; a new request has none until one is assigned.
    pub(crate) fn enqueue(&mut self, queued_frame: u64, order: u64, request: PathRequest) {
        let slot = if self.request.as_ref() == Some(&request) {
            self.slot
        } else {
            None
        };
        *self = Self {
            queued_frame,
            order,
            queued: true,
            request: Some(request),
            slot,
            setbacks: 0,
        };
    }

    /// Records that map edits undid work done on the request (a suspended search or its
    /// shared field started over or lost what it had gained, a shared approach's descent
    /// was cut).
    pub(crate) fn set_back(&mut self) {
        self.setbacks = self.setbacks.saturating_add(1);
    }

    /// Times map edits set back the work on the request since it was queued.
    pub(crate) fn setbacks(&self) -> u8 {
        self.setbacks
    }

    /// Records the goal cell claimed for the request (see [`PathRequest::claim_goal`]).
    pub(crate) fn set_slot(&mut self, slot: Option<Cell>) {
        self.slot = slot;
    }

    /// The goal cell the plugin claimed for the request ([`PathRequest::claim_goal`]):
    /// the cell its path ends on. `None` before the request is queued, when it claims
    /// nothing, or when no cell could be claimed (the path then ends as if it claimed
    /// nothing).
    pub fn slot(&self) -> Option<Cell> {
        self.slot
    }

    /// Takes the ticket out of the queue (its request was answered).
    pub(crate) fn answered(&mut self) {
        self.queued = false;
    }

    /// Records that the answer was repaired in place in `frame` (see
    /// [`crate::stats::TilepathStats::repaired`]): as if queued and answered that frame.
    pub(crate) fn repaired(&mut self, frame: u64) {
        self.queued_frame = frame;
        self.queued = false;
    }

    /// The plugin frame (count of runs of the plugin's schedule) in which the request was
    /// last queued, or its path last repaired in place (a repair answers in the frame of
    /// the edit).
    pub fn queued_frame(&self) -> u64 {
        self.queued_frame
    }

    /// Position in the queue: requests are served in increasing order.
    pub fn order(&self) -> u64 {
        self.order
    }

    /// True when the request was last queued in the improvement lane (see
    /// [`PathTicket::IMPROVEMENT`]).
    pub fn is_improvement(&self) -> bool {
        self.order >= Self::IMPROVEMENT
    }

    /// True when the request was last queued in the deferred lane (see
    /// [`PathTicket::DEFERRED`]).
    pub fn is_deferred(&self) -> bool {
        (Self::DEFERRED..Self::IMPROVEMENT).contains(&self.order)
    }

    /// True while the request waits in the queue.
    pub fn is_queued(&self) -> bool {
        self.queued
    }

    /// True when the request still waits in the queue under `order`: a queue entry or a
    /// suspended search with another order is stale (the request was queued again, or
    /// answered, since).
    pub(crate) fn waits_as(&self, order: u64) -> bool {
        self.queued && self.order == order
    }

    /// The request last queued: the one the current (or coming) [`PathResult`] answers.
    pub fn request(&self) -> Option<&PathRequest> {
        self.request.as_ref()
    }
}

/// Sent once for every request the plugin answered, in the order they were served.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct PathSolved {
    /// The requesting entity.
    pub entity: Entity,
    /// `Ok(length in cells)` when a path was found, or why not.
    pub outcome: Result<f32, PathFailure>,
}
