//! The ORCA half-plane of velocities that avoid one neighbour (van den Berg et al. 2011).

use super::agent::share;
use super::program::HalfPlane;
use super::{CrowdAgent, Vector};

/// The half-plane of velocities with which `agent` avoids `other` for `time_horizon`
/// seconds, taking its share of the avoidance.
///
/// The velocity obstacle of `other` is the truncated cone of relative velocities that
/// bring the discs together within the horizon: the disc of radius `(r + r') / τ`
/// around `(p' − p) / τ` and the two tangents from the origin to it. `u` is the
/// smallest change of the relative velocity `v − v'` that reaches its boundary; the
/// half-plane's boundary goes through `v + share · u` perpendicular to `u`, where the
/// share is the agent's responsibility share when the relative velocity is inside the
/// obstacle and 1 when it is outside (the boundary of the obstacle itself; this is
/// dodgy_2d's convention, RVO2 takes one half in both cases). When the discs already
/// overlap, the obstacle is the disc reached within one step `dt`, so the overlap is
/// resolved within a step. Coincident agents with equal velocities separate along the
/// x axis, the agent with the smaller `(key, index)` toward −x.
///
/// One departure from the paper: when the relative velocity points exactly along the line
/// between the centres and the truncating disc is nearest (one agent walking straight at
/// another, as on a row of cells), the nearest boundary point is straight ahead, so a
/// standing agent would be pushed ahead of the walker instead of stepping aside. There the
/// boundary point half-way to a tangent point is taken instead: on the side of the
/// agent's preferred velocity, the left one when that is straight ahead or behind.
pub(crate) fn half_plane(
    agent: &CrowdAgent,
    other: &CrowdAgent,
    agent_first: bool,
    time_horizon: f32,
    dt: f32,
) -> HalfPlane {
    let relative_position = other.position - agent.position;
    let relative_velocity = agent.velocity - other.velocity;
    let distance_squared = relative_position.length_squared();
    let combined_radius = agent.radius + other.radius;
    let combined_radius_squared = combined_radius * combined_radius;

    let normal;
    let projection;
    let inside;
    if distance_squared > combined_radius_squared {
        // Apart: project on the truncating disc or on a tangent (a leg of the cone).
        let centre = relative_position / time_horizon;
        let from_centre = relative_velocity - centre;
        let from_centre_squared = from_centre.length_squared();
        let along = from_centre.dot(relative_position);
        if along < 0.0 && along * along > combined_radius_squared * from_centre_squared {
            // Nearest to the truncating disc.
            let disc_radius = combined_radius / time_horizon;
            normal = if relative_position.cross(from_centre) == 0.0 {
                head_on_normal(
                    relative_position,
                    from_centre,
                    agent.preferred,
                    combined_radius,
                    distance_squared,
                )
            } else {
                from_centre.normalize_or_zero()
            };
            projection = normal * disc_radius + centre;
            inside = from_centre_squared < disc_radius * disc_radius;
        } else {
            // Nearest to a leg: the left one when the velocity is left of the axis.
            let leg = (distance_squared - combined_radius_squared).sqrt();
            let side = relative_position.cross(from_centre).signum();
            let tangent = (relative_position * leg * side
                + relative_position.perp() * combined_radius)
                / distance_squared;
            normal = tangent.perp();
            projection = tangent * relative_velocity.dot(tangent);
            inside = relative_velocity.cross(tangent) >= 0.0;
        }
    } else {
        // Overlapping: leave the disc the other agent's centre covers within one step.
        let centre = relative_position / dt;
        let disc_radius = combined_radius / dt;
        let from_centre = relative_velocity - centre;
        let recip = 1.0 / from_centre.length();
        normal = if recip.is_finite() && recip > 0.0 {
            from_centre * recip
        } else if agent_first {
            Vector::new(-1.0, 0.0)
        } else {
            Vector::new(1.0, 0.0)
        };
        projection = normal * disc_radius + centre;
        inside = true;
    }

    let u = projection - relative_velocity;
    let responsibility = if inside {
        share(agent.responsibility, other.responsibility)
    } else {
        1.0
    };
    HalfPlane {
        point: agent.velocity + u * responsibility,
        direction: -normal.perp(),
    }
}

/// The normal of the truncating disc half-way between the head-on point and a tangent
/// point, for a relative velocity collinear with the centres: the head-on normal turned
/// by half the angle whose cosine is `(r + r') / |p|`, toward the side of `preferred`
/// (counter-clockwise when `preferred` is collinear too).
fn head_on_normal(
    relative_position: Vector,
    from_centre: Vector,
    preferred: Vector,
    combined_radius: f32,
    distance_squared: f32,
) -> Vector {
    let ahead = from_centre.normalize_or_zero();
    let side = if ahead.cross(preferred) < 0.0 {
        -1.0
    } else {
        1.0
    };
    let distance = distance_squared.sqrt();
    let cos = combined_radius / distance;
    let sin = (distance_squared - combined_radius * combined_radius).sqrt() / distance;
    let tangent = ahead * cos + ahead.perp() * (sin * side);
    let normal = (ahead + tangent).normalize_or_zero();
    if normal == Vector::ZERO || ahead == Vector::ZERO {
        -relative_position.normalize_or_zero()
    } else {
        normal
    }
}
