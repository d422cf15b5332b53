//! Steering: units walk their found paths at the speed the terrain allows, avoiding each
//! other, or step from cell to cell, never into a cell blocked for their diameter and
//! movement profile.

mod avoid;
mod crowd;
mod exchange;
mod follow;
mod frame;
mod give_way;
mod grid_step;
mod lanes;
mod occupancy;
mod passage;
mod pose;
mod progress;
mod rest;
mod right_of_way;
mod sidestep;
mod size;
mod step_out;
mod step_quiet;
mod stepper;
mod system;
mod unit_map;
mod walls;

use bevy::prelude::*;

use crate::components::PathProgress;

pub use avoid::Avoidance;
pub(crate) use grid_step::step_on_grid;
pub use occupancy::Occupancy;
pub use progress::SteeringProgress;
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
/// touching a standing unit whose goal is as near its own (the units that arrived before it fill its goal area). Counter-flow forms lanes: a walking unit more than six
/// tiles from its goal with an oncoming one (also that far from its goal) within four
/// tiles ahead keeps right; in the left half of the free width around it (a corridor's
/// left half) it moves over slowly, and when an oncoming unit stands right in front of it
/// (or the unit going its way right in front of it falls back) it falls back, back and to
/// its right, without avoiding, so two groups filling a corridor pass each other in two
/// streams. Narrow passages have a right of way: of two units that would meet head-on
/// where their paths run through a one-lane stretch (no cell beside it a unit of the
/// wider one's diameter can stand on), the one less deep in the stretch gives way (ties
/// to the larger entity). It walks to the nearest cell off the other's next 16 cells (a
/// side pocket, or back out of the stretch), waits there until the other has gone by
/// (4 s at most), walks back to where it left its path and follows it again; the other
/// waits while its next two cells meet the way to that refuge. Everything is
/// computed in entity order from the positions at the start of the frame, in `f32`, so
/// steering is deterministic (lockstep: see
/// [`FrameBudget::Expansions`](crate::settings::FrameBudget::Expansions)). The whole move
/// is capped at the speed of the cell the unit stands in, so a crowd cannot push a unit
/// through mud at road speed either.
///
/// Units at rest cost nothing. A unit without a path to follow that has stood still for
/// 2 s rests: steering reads none of it while no unit that may move is within reach (a
/// few tiles, plus the widest unit and the longest step of the frame). It wakes when
/// such a unit comes near, or when its result, its `Steering` or its `Transform`
/// changes; a child entity never rests. An army that has arrived costs one pass over
/// its units a frame. [`TilepathStats::steered`](crate::stats::TilepathStats::steered)
/// counts the units a frame read.
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
    /// new path; zero, negative or infinite never asks (the progress rule,
    /// [`StallSettings`](crate::settings::StallSettings), may still).
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
