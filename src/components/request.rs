//! What a unit asks for: [`PathRequest`] and its [`PathGoal`].

use std::borrow::Cow;

use bevy::prelude::*;

use crate::grid::{Cell, Connectivity};
use crate::search::{Algorithm, AvoidUnits, Limits, SearchOptions};

use super::goal::PathGoal;
use super::result::PathResult;

/// Asks the plugin for a path from the entity's current position to
/// [`PathRequest::goal`]. The answer appears in the entity's [`PathResult`] (added
/// automatically) and as a [`PathSolved`](super::PathSolved) message.
///
/// The start is the anchor cell ([`NavGrid::agent_cell`](super::NavGrid::agent_cell)) of the entity's world
/// position: its `Transform` composed with those of its `ChildOf` ancestors, computed
/// when the plugin runs (what `GlobalTransform` holds after this frame's propagation), so
/// units parented to moving entities start from the right cell and `TransformPlugin` is
/// not needed.
///
/// Inserting or changing the component queues a new search, unless the new value equals
/// the request already queued or answered (writing the same order every frame does not
/// re-plan). Requests are served oldest first within
/// [`crate::settings::FrameBudget::Time`]. To plan the same request again
/// (after teleporting a unit, say), insert [`Replanning`](super::Replanning).
///
/// Removing the component removes the plugin's components from the entity
/// ([`PathResult`], [`PathStatus`], [`Replanning`](super::Replanning), [`crate::steering::Arrived`]): a
/// steering unit stops where it stands.
///
/// # Goals that cannot be reached, blocked starts, shared goals
///
/// Three options, all **on** by default, keep units moving where a plain search fails:
///
/// - [`nearest_goal`](SearchOptions::nearest_goal): when the goal (or every cell of the goal area) is
///   blocked for the agent, lies in another connected component, or is off the map, the
///   path goes to the reachable cell nearest to it (octile distance, ties toward smaller
///   `y`, then smaller `x`), found from the map's connected components by rings around
///   the goal, without a search over the map. The answer is `Found` with
///   [`FoundPath::partial`](super::FoundPath::partial) set and [`FoundPath::requested`](super::FoundPath::requested) / [`FoundPath::reached`](super::FoundPath::reached)
///   naming both cells. Off: such requests fail with `GoalBlocked`, `Unreachable` or
///   [`PathFailure::GoalOffMap`](super::PathFailure::GoalOffMap).
/// - [`nearest_start`](SearchOptions::nearest_start): when the unit cannot stand on its own cell (a wall
///   was painted on it, a wide unit against the map edge, a terrain edit), the path
///   starts at the nearest cell it can stand on ([`FoundPath::start`](super::FoundPath::start) differs from
///   [`FoundPath::from`](super::FoundPath::from)); [`crate::steering::Steering`] walks it there first. Off: such
///   requests fail with `StartBlocked`.
/// - [`PathRequest::claim_goal`]: units sent to the same cell do not pile up. The goal
///   cell (the nearest reachable one, with `nearest_goal`) is *claimed*: a request queued
///   while another unit's claim covers it gets the nearest free cell around it instead
///   (rings from the goal, its footprint overlapping no other claimed footprint, standable
///   and reachable for it). Requests queued in the same frame share the cells nearest to
///   the goal (taken in order of the units' distance to it) and each unit gets the one on
///   its side of the goal: 40 units sent to one tile end on the 40 distinct cells
///   nearest to it, units from the east on its east side. The claim lasts until the request changes or is
///   removed; re-plans keep it ([`PathStatus::claimed_cell`]). Requests with a goal area
///   ([`SearchOptions::goal_radius`] > 0) claim nothing.
///
/// # Goal exchange
///
/// A steering unit held up near its claimed cell by a unit that stands on its own
/// claimed cell, nearer this unit's cell, exchanges claimed cells with it when that
/// shortens the pair's walk: it takes the standing unit's cell, and the standing unit
/// walks on to the cell it left. The units that arrived first move deeper, the latecomer
/// takes their place, and nobody settles short in front of a block of arrived units.
/// Two units may exchange cells when both claim their goals, with the same movement
/// profile and diameter, and either have the same goal or name the same
/// [`PathRequest::goal_group`]. Both plan again ([`Replanning`](super::Replanning));
/// [`PathStatus::claimed_cell`] names each one's new cell.
///
/// [`SearchOptions::goal_radius`] turns the goal into an area: the path ends at the first
/// (for the exact algorithms, the cheapest) cell within that many cells (Chebyshev) of
/// the goal, for attack-move and gathering orders.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::search::PathError;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
/// app.insert_resource(NavGrid::from_ascii("
///     ......
///     ...###
///     ...#.#
///     ...###
/// ", Vec2::ZERO, Vec2::ONE).unwrap());
/// // (4, 2) lies inside a closed box: the unit goes as near as it can.
/// let unit = app.world_mut().spawn((Transform::default(), PathRequest::new(Cell::new(4, 2)))).id();
/// let strict = app
///     .world_mut()
///     .spawn((Transform::default(), PathRequest::new(Cell::new(4, 2)).nearest_goal(false)))
///     .id();
/// app.update();
/// let path = app.world().get::<PathResult>(unit).unwrap().found().unwrap();
/// assert!(path.partial);
/// assert_eq!((path.requested, path.reached), (Cell::new(4, 2), Cell::new(4, 0)));
/// assert_eq!(
///     app.world().get::<PathResult>(strict).unwrap().failure(),
///     Some(&PathFailure::Search(PathError::Unreachable))
/// );
/// ```
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let request = PathRequest::new(Cell::new(10, 4))
///     .algorithm(Algorithm::Jps)
///     .diameter(2)
///     .profile("vehicle")
///     .smooth(true);
/// assert_eq!(request.goal, PathGoal::Cell(Cell::new(10, 4)));
/// assert_eq!(request.profile.as_deref(), Some("vehicle"));
/// let to_world = PathRequest::new(Vec2::new(120.0, -40.0));
/// assert_eq!(to_world.goal, PathGoal::World(Vec2::new(120.0, -40.0)));
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(PathResult, PathStatus)]
pub struct PathRequest {
    /// Where to go.
    pub goal: PathGoal,
    /// The algorithm; `None` uses [`crate::settings::RequestDefaults::algorithm`].
    pub algorithm: Option<Algorithm>,
    /// Agent footprint in cells: an agent of diameter `d` anchored at cell `c` covers the
    /// `d × d` cells `c - (d - 1) / 2 ..= c + d / 2` on each axis (odd diameters centred,
    /// even ones with the extra column and row on the +x / +y side; see
    /// [`NavGrid::agent_center`](super::NavGrid::agent_center)). Every cell of the footprint must be free at the start,
    /// the goal and along the path, and the map edge counts as a wall: a footprint that
    /// sticks out of the map is blocked (the search fails with `StartBlocked` or
    /// `GoalBlocked`, naming the cell and the diameter).
    pub diameter: u32,
    /// Search bounds; `None` uses [`crate::settings::RequestDefaults::limits`].
    pub limits: Option<Limits>,
    /// How the search moves and where it may end: octile or 4-connected moves,
    /// line-of-sight smoothing, the goal area, and the two fallbacks described
    /// [above](PathRequest#goals-that-cannot-be-reached-blocked-starts-shared-goals).
    /// Default: [`SearchOptions::NEAREST`] (octile, no smoothing, the goal cell, both
    /// fallbacks on); [`PathRequest::exact`] turns the fallbacks off.
    pub options: SearchOptions,
    /// The name of the unit's movement profile in [`MovementProfiles`](crate::profiles::MovementProfiles); `None` uses
    /// [`MovementProfiles::DEFAULT`](crate::profiles::MovementProfiles::DEFAULT). Resolved when the request is solved: a name the
    /// resource does not define fails with [`PathFailure::UnknownProfile`](super::PathFailure::UnknownProfile) (retried when
    /// the profiles change).
    pub profile: Option<Cow<'static, str>>,
    /// Claim the goal cell so that units sent to the same cell end on distinct cells
    /// around it (see [Goals](PathRequest#goals-that-cannot-be-reached-blocked-starts-shared-goals)).
    /// On by default; ignored when [`SearchOptions::goal_radius`] is not 0.
    pub claim_goal: bool,
    /// The units whose claimed goal cells this unit's may be exchanged with (see
    /// [Goal exchange](PathRequest#goal-exchange)): the requests that name the same
    /// group, profile and diameter. `None` (the default): only those sent to the same
    /// goal.
    pub goal_group: Option<u32>,
    /// Which other units the path goes around: their cells (from the [`UnitMap`] of
    /// the frame the request is solved in) cost
    /// [`CrowdSettings::unit_penalty`](crate::settings::CrowdSettings::unit_penalty)
    /// tiles more to enter, so the path avoids them where the way around is shorter and
    /// goes through them (asking them to make room) where it is not. The path is first
    /// planned on the map alone; the stretches that cross counted units are planned again
    /// around them (exactly, from a few cells before the first crossed unit to a few
    /// cells after the last). A unit that stalls against units plans again, around
    /// those standing in its way. [`AvoidUnits::Standing`] by default.
    ///
    /// [`UnitMap`]: super::UnitMap
    pub avoid_units: AvoidUnits,
}

impl Default for PathRequest {
    fn default() -> Self {
        Self::new(Cell::default())
    }
}

impl PathRequest {
    /// A request to `goal` (a [`Cell`] or a world [`Vec2`]) for a one-cell agent, with
    /// the default algorithm, limits and movement profile, octile moves, no smoothing.
    pub fn new(goal: impl Into<PathGoal>) -> Self {
        Self {
            goal: goal.into(),
            algorithm: None,
            diameter: 1,
            limits: None,
            options: SearchOptions::NEAREST,
            profile: None,
            claim_goal: true,
            goal_group: None,
            avoid_units: AvoidUnits::Standing,
        }
    }

    /// Sets which other units the path goes around ([`PathRequest::avoid_units`]).
    pub fn avoid_units(mut self, avoid: AvoidUnits) -> Self {
        self.avoid_units = avoid;
        self
    }

    /// Sets the options ([`PathRequest::options`]).
    pub fn options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets the goal area's radius in cells ([`SearchOptions::goal_radius`]).
    pub fn goal_radius(mut self, radius: u32) -> Self {
        self.options.goal_radius = radius;
        self
    }

    /// Plans to the nearest reachable cell when the goal cannot be reached (on by
    /// default, [`SearchOptions::nearest_goal`]).
    pub fn nearest_goal(mut self, on: bool) -> Self {
        self.options.nearest_goal = on;
        self
    }

    /// Plans from the nearest standable cell when the unit's own cell is blocked for it
    /// (on by default, [`SearchOptions::nearest_start`]).
    pub fn nearest_start(mut self, on: bool) -> Self {
        self.options.nearest_start = on;
        self
    }

    /// Claims the goal cell, so that units sharing a goal end on distinct cells (on by
    /// default, [`PathRequest::claim_goal`]).
    pub fn claim_goal(mut self, on: bool) -> Self {
        self.claim_goal = on;
        self
    }

    /// Puts the request in a group whose units may exchange their claimed goal cells
    /// ([`PathRequest::goal_group`]): the members of one move order, say.
    pub fn goal_group(mut self, group: u32) -> Self {
        self.goal_group = Some(group);
        self
    }

    /// Turns [`SearchOptions::nearest_goal`], [`SearchOptions::nearest_start`] and
    /// [`PathRequest::claim_goal`] off: the path goes from the unit's own cell to exactly
    /// the goal, or the request fails (`StartBlocked`, `GoalBlocked`, `Unreachable`,
    /// `GoalOffMap`).
    pub fn exact(self) -> Self {
        self.nearest_goal(false)
            .nearest_start(false)
            .claim_goal(false)
    }

    /// Sets the movement profile by its name in [`MovementProfiles`](crate::profiles::MovementProfiles).
    pub fn profile(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.profile = Some(name.into());
        self
    }

    /// Sets the algorithm.
    pub fn algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = Some(algorithm);
        self
    }

    /// Sets the agent diameter in cells.
    pub fn diameter(mut self, diameter: u32) -> Self {
        self.diameter = diameter;
        self
    }

    /// Sets the search limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// Turns line-of-sight smoothing on or off.
    pub fn smooth(mut self, smooth: bool) -> Self {
        self.options.smooth = smooth;
        self
    }

    /// Sets the connectivity.
    pub fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.options.connectivity = connectivity;
        self
    }
}

/// Where a [`PathRequest`] stands in the plugin's queue, kept next to it by the plugin:
/// whether it waits for an answer, since which frame, in which [`QueueLane`] and with
/// which [`number`](PathStatus::number), the goal cell claimed for it, and the request
/// the current or coming [`PathResult`] answers. Read-only for users.
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct PathStatus {
    queued_frame: u64,
    order: u64,
    queued: bool,
    request: Option<PathRequest>,
    claimed_cell: Option<Cell>,
    /// Times map edits set back the work on this request since it was queued (see
    /// [`TilepathSettings`](crate::settings::TilepathSettings)'s progress guarantee).
    setbacks: u8,
}

impl PathStatus {
    /// Puts the ticket in the queue at `order` for `request`. A re-plan of the same
    /// request keeps its claimed cell; a new request has none until one is claimed.
    pub(crate) fn enqueue(&mut self, queued_frame: u64, order: u64, request: PathRequest) {
        let claimed_cell = if self.request.as_ref() == Some(&request) {
            self.claimed_cell
        } else {
            None
        };
        *self = Self {
            queued_frame,
            order,
            queued: true,
            request: Some(request),
            claimed_cell,
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
    pub(crate) fn set_claimed_cell(&mut self, cell: Option<Cell>) {
        self.claimed_cell = cell;
    }

    /// The goal cell the plugin claimed for the request ([`PathRequest::claim_goal`]):
    /// the cell its path ends on. `None` before the request is queued, when it claims
    /// nothing, or when no cell could be claimed (the path then ends as if it claimed
    /// nothing).
    pub fn claimed_cell(&self) -> Option<Cell> {
        self.claimed_cell
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

    /// Position in the queue: requests are served in increasing order (the lane in the
    /// top bits, then the number).
    pub(crate) fn order(&self) -> u64 {
        self.order
    }

    /// The lane the request was last queued in.
    pub fn lane(&self) -> QueueLane {
        QueueLane::of_order(self.order)
    }

    /// The number the request drew when it was last queued in its [`lane`](Self::lane):
    /// each lane hands out increasing numbers (0 before the first queueing), and within a
    /// lane lower numbers are served first.
    pub fn number(&self) -> u64 {
        self.order - self.lane().first_order()
    }

    /// True when the request was last queued in the improvement lane.
    pub(crate) fn is_improvement(&self) -> bool {
        self.lane() == QueueLane::Improvement
    }

    /// True when the request was last queued in the deferred lane.
    pub(crate) fn is_deferred(&self) -> bool {
        self.lane() == QueueLane::Deferred
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

/// The three lanes of the plugin's queue, served in this order; within a lane, oldest
/// first ([`PathStatus::number`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Debug, PartialEq, Hash)]
pub enum QueueLane {
    /// Requests that need an answer: new, changed, retried, or whose path a new wall cut
    /// near their unit.
    #[default]
    Urgent,
    /// Re-plans of paths that a new wall cut farther ahead of their unit than
    /// [`ReplanSettings::defer_cuts_beyond`](crate::settings::ReplanSettings::defer_cuts_beyond)
    /// cells. The unit walks on meanwhile; the request becomes urgent as soon as its unit
    /// comes that near to the cut (or a nearer cut appears).
    Deferred,
    /// Re-plans queued only because a newly opened (or cheaper) cell may shorten a path
    /// that is still valid. They wait behind every request that needs an answer, which
    /// keeps units that have no path to follow moving first.
    Improvement,
}

impl QueueLane {
    /// The lanes in service order.
    pub(crate) const ALL: [QueueLane; 3] = [Self::Urgent, Self::Deferred, Self::Improvement];

    /// The first queue order of the lane: a lane's orders are its first order plus the
    /// number each request draws, so lanes sort after one another.
    pub(crate) const fn first_order(self) -> u64 {
        match self {
            Self::Urgent => 0,
            Self::Deferred => 1 << 62,
            Self::Improvement => 1 << 63,
        }
    }

    /// The lane a queue order belongs to.
    pub(crate) fn of_order(order: u64) -> Self {
        Self::ALL
            .into_iter()
            .rev()
            .find(|lane| order >= lane.first_order())
            .unwrap_or(Self::Urgent)
    }
}
