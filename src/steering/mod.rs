//! Steering: units walk their found paths at the speed the terrain allows, with arrival
//! slow-down and separation, never stepping into a cell blocked for their diameter and
//! movement profile.

mod crowd;
mod follow;
mod grid_step;
mod occupancy;
mod pose;
mod sidestep;
mod system;
mod walls;

use bevy::prelude::*;

use crate::components::PathProgress;

pub(crate) use grid_step::step_on_grid;
pub use grid_step::{GridStepProgress, GridStepper};
pub use occupancy::Occupancy;
pub(crate) use system::{publish_progress, steer_units};

/// Moves the entity along its [`PathResult`](crate::components::PathResult) waypoints.
///
/// All distances are in world units, `speed` in world units per second.
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
/// The unit slows down inside `arrival_radius` of its goal, and is pushed away from other
/// steering units closer than `separation_radius` (the push grows to
/// `separation_strength × speed` at zero distance, and never exceeds three quarters of
/// the unit's step along its path, so a crowd slows a unit down but cannot stop it; the
/// whole move is capped at the speed of the cell the unit stands in, so a crowd cannot
/// push a unit through mud at road speed either).
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
/// Units whose result is `Pending` (a new or changed request) or `Failed` keep still, as
/// do units whose `speed` is NaN, infinite or not positive (a NaN or infinite
/// `separation_strength`, `separation_radius` or `arrival_radius` counts as 0). On
/// reaching the last waypoint (or, in a crowd, its cell when others hold it back) the
/// unit gets the [`Arrived`] marker and stops; the marker goes as soon as its
/// [`PathResult`](crate::components::PathResult) changes (a new order makes it `Pending`, a new path or a failure
/// replaces it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(SteeringProgress, PathProgress)]
pub struct Steering {
    /// Top speed, world units per second.
    pub speed: f32,
    /// Distance from the goal at which the unit starts to slow down.
    pub arrival_radius: f32,
    /// Other units closer than this push the unit away.
    pub separation_radius: f32,
    /// Strength of the push, as a fraction of `speed` at zero distance.
    pub separation_strength: f32,
    /// Seconds without getting closer to the next waypoint before the unit asks for a
    /// new path; zero, negative or infinite never asks.
    pub replan_after: f32,
}

impl Default for Steering {
    fn default() -> Self {
        Self {
            speed: 64.0,
            arrival_radius: 8.0,
            separation_radius: 8.0,
            separation_strength: 0.5,
            replan_after: 1.0,
        }
    }
}

impl Steering {
    /// The numbers steering uses: a NaN or infinite `speed`, `separation_strength`,
    /// `separation_radius` or `arrival_radius` counts as 0 (an infinite step cannot be
    /// checked against walls, and `0 × ∞` would make the unit's position NaN).
    fn sanitized(&self) -> Self {
        let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
        Self {
            speed: finite(self.speed),
            arrival_radius: finite(self.arrival_radius),
            separation_radius: finite(self.separation_radius),
            separation_strength: finite(self.separation_strength),
            replan_after: self.replan_after,
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
}

impl Default for SteeringProgress {
    fn default() -> Self {
        Self {
            next: 0,
            closest: f32::INFINITY,
            stalled: 0.0,
        }
    }
}

impl SteeringProgress {
    /// Index of the waypoint the unit is heading for.
    pub fn next_waypoint(&self) -> usize {
        self.next
    }

    /// Seconds the unit has spent without getting closer to its next waypoint.
    pub fn stalled_secs(&self) -> f32 {
        self.stalled
    }

    /// Starts following a new path at waypoint `next`.
    pub(super) fn restart(&mut self, next: usize) {
        *self = Self {
            next,
            ..Self::default()
        };
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
