//! What the avoidance knows of one unit ([`CrowdAgent`]) and its tuning ([`AvoidanceSettings`]).

use super::Vector;

/// One unit of a crowd, as the avoidance sees it this step. Lengths are in cells,
/// velocities in cells per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdAgent {
    /// The centre of the unit's disc, in cells.
    pub position: Vector,
    /// Its velocity of the last step, in cells per second.
    pub velocity: Vector,
    /// The velocity it wants (toward its path), in cells per second.
    pub preferred: Vector,
    /// The radius of its disc, in cells.
    pub radius: f32,
    /// Its top speed in cells per second (already slowed by terrain).
    pub max_speed: f32,
    /// Its share of the avoidance against another agent is `own / (own + other)`: 1 for
    /// moving units; give standing units (arrived, idle) a larger one so that they step
    /// aside for moving ones. Zero or negative counts as 1 against another zero.
    pub responsibility: f32,
    /// Stable tie-break key (the plugin passes `Entity::to_bits`): equal distances and
    /// coincident agents are resolved by it, never by a random number.
    pub key: u64,
}

impl CrowdAgent {
    /// An agent standing at `position` with `radius` and `max_speed`, no velocity,
    /// responsibility 1.
    pub const fn new(position: Vector, radius: f32, max_speed: f32, key: u64) -> Self {
        Self {
            position,
            velocity: Vector::ZERO,
            preferred: Vector::ZERO,
            radius,
            max_speed,
            responsibility: 1.0,
            key,
        }
    }

    /// True when every number of the agent is finite, its radius and top speed are not
    /// negative; other agents are left out of the avoidance.
    pub(crate) fn is_valid(&self) -> bool {
        self.position.is_finite()
            && self.velocity.is_finite()
            && self.preferred.is_finite()
            && self.radius.is_finite()
            && self.radius >= 0.0
            && self.max_speed.is_finite()
            && self.max_speed >= 0.0
            && self.responsibility.is_finite()
    }
}

/// This agent's share of the avoidance between two agents of responsibilities `own`
/// and `other`: `own / (own + other)`, one half when that is not a number in `[0, 1]`.
#[inline]
pub(crate) fn share(own: f32, other: f32) -> f32 {
    let share = own / (own + other);
    if (0.0..=1.0).contains(&share) {
        share
    } else {
        0.5
    }
}

/// Tuning of the avoidance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvoidanceSettings {
    /// How far ahead, in seconds, agents avoid each other: a velocity is allowed when
    /// it collides with no neighbour within this time (both keeping their velocities).
    /// Longer horizons avoid earlier and more cautiously. Default: 1.0.
    pub time_horizon: f32,
    /// How far ahead, in seconds, agents keep off blocked cells. Default: 0.5.
    pub wall_horizon: f32,
    /// Agents whose discs are less than this far apart (the gap between the discs, in cells)
    /// are neighbours. Default: 3.0.
    pub neighbour_distance: f32,
    /// At most this many neighbours, the nearest, are avoided by each agent. Default: 10.
    pub max_neighbours: usize,
}

impl Default for AvoidanceSettings {
    fn default() -> Self {
        Self {
            time_horizon: 1.0,
            wall_horizon: 0.5,
            neighbour_distance: 3.0,
            max_neighbours: 10,
        }
    }
}

impl AvoidanceSettings {
    /// True when the horizons are positive and finite and the neighbour distance is
    /// finite and not negative.
    pub(crate) fn is_valid(&self) -> bool {
        self.time_horizon.is_finite()
            && self.time_horizon > 0.0
            && self.wall_horizon.is_finite()
            && self.wall_horizon > 0.0
            && self.neighbour_distance.is_finite()
            && self.neighbour_distance >= 0.0
    }
}
