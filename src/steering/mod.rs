//! Steering: units walk their found paths at the speed the terrain allows, avoiding each
//! other, or step from cell to cell, never into a cell blocked for their diameter and
//! movement profile.

mod avoid;
mod crowd;
mod follow;
mod frame;
mod grid_step;
mod lanes;
mod occupancy;
mod passage;
mod pose;
mod sidestep;
mod size;
mod stepper;
mod system;
mod unit_map;
mod walls;

use bevy::prelude::*;

use crate::components::PathProgress;

pub use avoid::Avoidance;
pub(crate) use grid_step::step_on_grid;
pub use occupancy::Occupancy;
pub use stepper::{GridStepProgress, GridStepper};
pub(crate) use system::{publish_progress, steer_units};
pub(crate) use unit_map::{mark_units, units_to_mark};

/// Moves the entity along its [`PathResult`](crate::components::PathResult) waypoints.
///
/// All distances are in steering-plane units, `speed` in plane units per second. On
/// square maps the plane is the world. On isometric maps
/// ([`GridLayout::Isometric`](crate::components::GridLayout::Isometric)) units steer in the square
/// grid the diamonds are drawn from, where a tile is as long as a diamond's edge in the
/// world ([`NavGrid::plane_tile_size`](crate::components::NavGrid::plane_tile_size)):
/// walls are cell edges there, and a unit covers a step along either grid axis in the
/// same time (on screen, it moves faster left and right than up and down, as isometric
/// games do). Positions are read from and written to the world through
/// [`NavGrid::world_to_plane`](crate::components::NavGrid::world_to_plane).
///
/// `speed` is the top speed, on terrain of weight 1. A unit moves at `speed / w`, where
/// `w` is the weight its movement profile (the one its path was planned with, see
/// [`crate::components::FoundPath::profile`]) gives the terrain of the cell its centre
/// is in (its anchor cell, [`NavGrid::agent_cell`](crate::components::NavGrid::agent_cell); a cell whose terrain the profile
/// blocks counts as weight 1). The speed changes exactly where the unit crosses into
/// another cell, also within a frame, so walking a step from cell `a` to cell `b` takes
/// `length × (w(a) + w(b)) / 2 / speed`: the cost the search minimised
/// ([`crate::components::FoundPath::cost`] cells take `cost × tile / speed` seconds on
/// a straight path of square tiles).
///
/// The unit's
/// position is its world position (its `Transform` composed with those of its `ChildOf`
/// ancestors, computed when steering runs); moves are written back to its local
/// `Transform`, so a unit parented to a moving entity walks in world space. The unit's
/// centre is its agent centre ([`NavGrid::agent_center`](crate::components::NavGrid::agent_center)): for even diameters, a cell
/// corner.
///
/// The unit slows down inside `arrival_radius` of its goal. Other steering units are
/// disc-shaped obstacles of diameter [`PathRequest::diameter`](crate::components::PathRequest::diameter)
/// tiles (a unit without a request: its [`Footprint`](crate::components::Footprint)'s,
/// else 1): with [`Avoidance::Reciprocal`] (the default) each unit takes, every frame, the
/// velocity nearest to the one its path asks for that avoids the units near it for
/// [`CrowdSettings::time_horizon`](crate::settings::CrowdSettings::time_horizon) seconds, each doing its share (optimal reciprocal
/// collision avoidance, [`crate::crowd`]); units standing still (arrived, or without a
/// path) take the larger share ([`CrowdSettings::standing_responsibility`](crate::settings::CrowdSettings::standing_responsibility)), so they step
/// aside for moving ones and stay where they were pushed. A unit with neither a
/// [`PathRequest`](crate::components::PathRequest) nor a `Footprint` has no movement
/// profile the plugin knows, so the crowd never moves it: the others avoid it like a post. After the moves, units that
/// still overlap are pushed apart ([`CrowdSettings::separation_passes`](crate::settings::CrowdSettings::separation_passes)),
/// and a unit whose move would still leave it overlapping another by more than
/// [`OVERLAP_TOLERANCE`](crate::crowd::OVERLAP_TOLERANCE) tiles (and more than at the
/// start of the frame) does not move that frame ([`Crowd::hold_back`](crate::crowd::Crowd::hold_back)):
/// units that did not overlap never come to. Deadlocks are
/// broken in two steps: a walking unit that has made no headway for 0.15 s while
/// touching a walking unit of higher priority (the smaller entity) backs away from it,
/// which lets the other pass (two units at a corridor's mouth go in one after the other);
/// a walking unit that has barely moved for 0.75 s (new paths included) stops avoiding and follows its path
/// at half its speed, and only separation keeps it and the units in its way apart (standing units then take
/// the larger share of the push). A walking unit counts as [`Arrived`] short of its goal when the
/// crowd holds it for good: it has barely moved for 2 s while touching another unit, or, within
/// 8 tiles (and its diameter) of its goal, it has not got half a tile closer to it for 3 s while
/// touching a standing unit (the units that arrived before it fill its goal area). Counter-flow forms lanes: a walking unit more than six
/// tiles from its goal with an oncoming one (also that far from its goal) within four
/// tiles ahead keeps right; in the left half of the free width around it (a corridor's
/// left half) it moves over slowly, and when an oncoming unit stands right in front of it
/// (or the unit going its way right in front of it falls back) it falls back, back and to
/// its right, without avoiding, so two groups filling a corridor pass each other in two
/// streams. Everything is
/// computed in entity order from the positions at the start of the frame, in `f32`, so
/// steering is deterministic (lockstep: see
/// [`FrameBudget::Expansions`](crate::settings::FrameBudget::Expansions)). The whole move
/// is capped at the speed of the cell the unit stands in, so a crowd cannot push a unit
/// through mud at road speed either.
///
/// Walls: the unit's whole footprint, a square of [`PathRequest::diameter`](crate::components::PathRequest::diameter) tiles
/// centred on it, stays out of cells blocked for its diameter and movement profile, not
/// only its centre: a move never makes the footprint overlap a blocked cell it did not
/// already overlap (nor crosses the corner between two blocked anchor cells). A blocked
/// move slides along the free axis, or steps toward the centre of the unit's cell (which
/// lines it up with a corridor as wide as it is), or stays. A unit whose footprint
/// already overlaps a wall (one painted next to it) can only move out of it. A unit
/// whose own cell is blocked for it (a wall painted on it) gets a path from the nearest
/// cell it can stand on ([`crate::components::FoundPath::start`]): it walks straight
/// there first, through blocked cells only while they bring it nearer, then follows the
/// path.
///
/// While a re-plan is pending ([`Replanning`](crate::components::Replanning)) the unit keeps walking its old path, or
/// the provisional detour the plugin spliced around a new wall that cut it
/// ([`FoundPath::provisional`](crate::components::FoundPath::provisional)). If a new wall
/// crosses the path it follows, the unit walks up to the last free cell before it and
/// waits there (it never enters the blocked cell) until the new path arrives. A unit
/// that gets no closer to its next waypoint for `replan_after` seconds (pushed behind a
/// wall corner, say) gets the [`Replanning`](crate::components::Replanning) marker, so the plugin plans the same request
/// again from where it stands; the plugin never touches the [`PathRequest`](crate::components::PathRequest) itself.
/// Units whose result is `Pending` (a new or changed request) or `Failed` keep still
/// (but for the crowd's pushes), as do units whose `speed` is NaN, infinite or not
/// positive (a NaN or infinite `arrival_radius` counts as 0). On
/// reaching the last waypoint (or, in a crowd, its cell when others hold it back, or any
/// place within one tile plus its diameter of it where it has made no headway for half a
/// second, or anywhere it has made no headway for two seconds while touching a standing
/// unit) the
/// unit gets the [`Arrived`] marker and stops; the marker goes as soon as its
/// [`PathResult`](crate::components::PathResult) changes (a new order makes it `Pending`, a new path or a failure
/// replaces it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(SteeringProgress, PathProgress)]
pub struct Steering {
    /// Top speed, steering-plane units per second (world units on square maps).
    pub speed: f32,
    /// Distance from the goal at which the unit starts to slow down.
    pub arrival_radius: f32,
    /// Seconds without getting closer to the next waypoint before the unit asks for a
    /// new path; zero, negative or infinite never asks.
    pub replan_after: f32,
    /// How the unit treats other steering units. [`Avoidance::Reciprocal`] by default.
    pub avoidance: Avoidance,
}

impl Default for Steering {
    fn default() -> Self {
        Self {
            speed: 64.0,
            arrival_radius: 8.0,
            replan_after: 1.0,
            avoidance: Avoidance::Reciprocal,
        }
    }
}

impl Steering {
    /// The numbers steering uses: a NaN or infinite `speed` or `arrival_radius` counts
    /// as 0 (an infinite step cannot be checked against walls, and `0 × ∞` would make the
    /// unit's position NaN).
    fn sanitized(&self) -> Self {
        let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
        Self {
            speed: finite(self.speed),
            arrival_radius: finite(self.arrival_radius),
            ..*self
        }
    }

    /// Default steering with the given top speed (world units per second).
    pub fn with_speed(speed: f32) -> Self {
        Self {
            speed,
            ..Self::default()
        }
    }
}

/// Marker: the unit reached the end of its current path.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct Arrived;

/// How a steering unit follows its path: the waypoint it heads for and how long it has
/// made no headway (added with [`Steering`]). Steering keeps the unit's [`PathProgress`],
/// which the re-planner reads, equal to [`SteeringProgress::next_waypoint`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct SteeringProgress {
    next: usize,
    closest: f32,
    stalled: f32,
    /// Its velocity of the last frame, steering-plane units per second.
    velocity: Vec2,
    /// Seconds it has barely moved (kept across new paths, unlike `stalled`).
    still: f32,
    /// The goal it walks to, its least distance to it (tiles) when it last got
    /// [`HEADWAY`] tiles closer, and the seconds since (kept across new paths to the same
    /// goal).
    goal: Vec2,
    nearest: f32,
    slow: f32,
    /// The progress rule (see [`StallSettings`](crate::settings::StallSettings)).
    stall: Stall,
}

/// What the progress rule keeps of a steering unit: its remaining path length (tiles),
/// the least of it since it last got a tile further, the seconds since, and the turns it
/// took back and forth along its path.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
struct Stall {
    remaining: f32,
    best: f32,
    secs: f32,
    /// The goal (plane position) the counts are for.
    goal: Vec2,
    /// Path length (tiles) from waypoint `suffix_at` to the end, kept while `next` only
    /// grows (`usize::MAX`: not known).
    suffix: f32,
    suffix_at: usize,
    /// The remaining length where the unit last turned, and which way it goes along
    /// its path since (1 on, -1 back, 0 not known yet).
    turned_at: f32,
    trend: i8,
    /// Seconds since it last turned, and seconds it still holds still.
    since_turn: f32,
    hold: f32,
}

impl Default for Stall {
    fn default() -> Self {
        Self {
            remaining: f32::INFINITY,
            best: f32::INFINITY,
            secs: 0.0,
            goal: Vec2::NAN,
            suffix: 0.0,
            suffix_at: usize::MAX,
            turned_at: f32::INFINITY,
            trend: 0,
            since_turn: f32::INFINITY,
            hold: 0.0,
        }
    }
}

/// Tiles a unit must go back (or on, after going back) along its path to count as
/// turning (jostling in a crowd moves it less).
const TURN: f32 = 0.25;

/// Two turns within this many seconds make a unit hold still.
const TURNS_WITHIN: f32 = 1.0;

/// Tiles closer to its goal that a unit must get to count as making headway (see
/// [`SteeringProgress::headway`]): units jostled in a crowd move, but not this far.
const HEADWAY: f32 = 0.5;

impl Default for SteeringProgress {
    fn default() -> Self {
        Self {
            next: 0,
            closest: f32::INFINITY,
            stalled: 0.0,
            velocity: Vec2::ZERO,
            still: 0.0,
            goal: Vec2::NAN,
            nearest: f32::INFINITY,
            slow: 0.0,
            stall: Stall::default(),
        }
    }
}

impl SteeringProgress {
    /// Index of the waypoint the unit is heading for.
    pub fn next_waypoint(&self) -> usize {
        self.next
    }

    /// The unit's velocity over the last frame, steering-plane units per second (world
    /// units on square maps; what avoidance expects it to keep).
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }

    /// Seconds the unit has spent without getting closer to its next waypoint.
    pub fn stalled_secs(&self) -> f32 {
        self.stalled
    }

    /// Seconds the unit, while it had an order, has not got at least one tile further
    /// along its path (its remaining path length has not dropped by a tile), however it
    /// moved meanwhile; 0 once it arrives. Kept across new paths to the same goal (a
    /// longer new path counts as no progress until the unit is a tile below the least
    /// remaining length it had reached). The
    /// unit is stalled when this reaches
    /// [`StallSettings::after`](crate::settings::StallSettings::after).
    pub fn stalled_for(&self) -> f32 {
        self.stall.secs
    }

    /// The length of the rest of its path from where it stands, tiles (infinite before
    /// it has followed a path).
    pub fn remaining_tiles(&self) -> f32 {
        self.stall.remaining
    }

    /// True while the unit holds still after turning back and forth (see
    /// [`StallSettings::hold`](crate::settings::StallSettings::hold)).
    pub(super) fn holding(&self) -> bool {
        self.stall.hold > 0.0
    }

    /// Starts following a new path at waypoint `next`.
    pub(super) fn restart(&mut self, next: usize) {
        self.next = next;
        self.closest = f32::INFINITY;
        self.stalled = 0.0;
        // Progress on a new path to the same goal is measured against the least
        // remaining length of any path to it so far: the stalled seconds go on.
        self.stall = Stall {
            best: self.stall.best,
            secs: self.stall.secs,
            goal: self.stall.goal,
            hold: self.stall.hold,
            ..Stall::default()
        };
    }

    /// The unit has no order left (arrived): nothing stalls it.
    pub(super) fn settled(&mut self) {
        if self.stall != Stall::default() {
            self.stall = Stall::default();
        }
    }

    /// Records the unit's remaining path length `remaining` (tiles) after a frame of
    /// `dt` seconds. Returns true when it has just been stalled for another `after`
    /// seconds (time to ask for a new path); `after` and `hold` as in
    /// [`StallSettings`](crate::settings::StallSettings) (`None`: off). O(1).
    pub(super) fn progress(
        &mut self,
        goal: Vec2,
        remaining: f32,
        dt: f32,
        after: Option<f32>,
        hold: Option<f32>,
    ) -> bool {
        let s = &mut self.stall;
        if goal != s.goal {
            (s.goal, s.best, s.secs) = (goal, f32::INFINITY, 0.0);
        }
        s.remaining = remaining;
        s.hold = (s.hold - dt).max(0.0);
        s.since_turn += dt;
        let turned = match s.trend {
            1 | 0 if remaining > s.turned_at + TURN => {
                let was = s.trend;
                (s.trend, s.turned_at) = (-1, remaining);
                was != 0
            }
            -1 if remaining < s.turned_at - TURN => {
                (s.trend, s.turned_at) = (1, remaining);
                true
            }
            -1 => {
                s.turned_at = s.turned_at.max(remaining);
                false
            }
            _ => {
                s.turned_at = s.turned_at.min(remaining);
                false
            }
        };
        if turned {
            if s.since_turn <= TURNS_WITHIN
                && let Some(hold) = hold
            {
                s.hold = hold;
            }
            s.since_turn = 0.0;
        }
        if !s.best.is_finite() {
            // The first frame toward a new goal: its path's length is the baseline.
            s.best = remaining;
        } else if remaining <= s.best - 1.0 {
            s.best = remaining;
            s.secs = 0.0;
            return false;
        }
        s.secs += dt;
        after.is_some_and(|after| (s.secs / after).floor() > ((s.secs - dt) / after).floor())
    }

    /// The path length (tiles of `span` plane units) from waypoint `next` to the end of
    /// `path`: amortised O(1) while `next` only grows, O(path) after a new path.
    pub(in crate::steering) fn suffix(
        &mut self,
        path: follow::Waypoints<'_>,
        next: usize,
        span: f32,
    ) -> f32 {
        let s = &mut self.stall;
        let last = path.len() - 1;
        let next = next.min(last);
        if s.suffix_at > next {
            s.suffix = (next..last)
                .map(|i| path.at(i).distance(path.at(i + 1)))
                .sum::<f32>()
                / span;
        } else {
            s.suffix -= (s.suffix_at..next)
                .map(|i| path.at(i).distance(path.at(i + 1)))
                .sum::<f32>()
                / span;
            s.suffix = s.suffix.max(0.0);
        }
        s.suffix_at = next;
        s.suffix
    }

    /// Seconds since the unit last got [`HEADWAY`] tiles closer to its goal.
    pub(super) fn slow(&self) -> f32 {
        self.slow
    }

    /// Records the unit's distance to `goal` (tiles) after a frame of `dt` seconds, for
    /// [`slow`](Self::slow) (from 0 on a new goal).
    pub(super) fn headway(&mut self, goal: Vec2, distance: f32, dt: f32) {
        if goal != self.goal || distance < self.nearest - HEADWAY {
            self.goal = goal;
            self.nearest = distance;
            self.slow = 0.0;
        } else {
            self.slow += dt;
        }
    }

    /// Records the waypoint now headed for and the distance to it after a frame of `dt`
    /// seconds; true when the unit has now been stuck for `patience` seconds (the count
    /// starts again).
    pub(super) fn stuck(
        &mut self,
        next: usize,
        distance: f32,
        tolerance: f32,
        dt: f32,
        patience: f32,
    ) -> bool {
        if next != self.next || distance < self.closest - tolerance {
            self.next = next;
            self.closest = distance;
            self.stalled = 0.0;
            return false;
        }
        self.stalled += dt;
        if patience > 0.0 && patience.is_finite() && self.stalled >= patience {
            self.closest = f32::INFINITY;
            self.stalled = 0.0;
            return true;
        }
        false
    }
}
