//! The steering systems: every unit with a path moves along it, then publishes its progress.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::crowd::SpatialHash;
use super::follow::{Slowness, follow};
use super::pose::{Poses, write_position};
use super::walls::{Lattice, Walls};
use super::{Arrived, Steering, SteeringProgress};
use crate::components::{NavGrid, PathProgress, PathRequest, PathResult, Replanning};

/// What steering reads and writes of a unit.
type Units<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Steering,
        Option<Ref<'static, PathResult>>,
        Option<&'static PathRequest>,
        &'static mut Transform,
        &'static mut SteeringProgress,
        Has<Arrived>,
        Has<Replanning>,
        Option<&'static ChildOf>,
    ),
>;

/// Buffers of the steering system, reused every frame.
#[derive(Default)]
pub(crate) struct SteerBuffers {
    hash: SpatialHash,
    poses: Poses,
}

/// World positions of every steering unit (and its parent's world transform), from its
/// `Transform` and those of its ancestors as of now.
fn collect_poses(set: &mut ParamSet<(Units, TransformHelper)>, poses: &mut Poses) {
    poses.begin();
    for (entity, _, _, _, transform, _, _, _, parent) in set.p0().iter() {
        poses.add(entity, transform.translation, parent);
    }
    poses.finish(&set.p1());
}

/// Moves steering units along their paths (see [`Steering`]).
pub(crate) fn steer_units(
    time: Option<Res<Time>>,
    grid: Option<Res<NavGrid>>,
    mut commands: Commands,
    mut buffers: Local<SteerBuffers>,
    mut set: ParamSet<(Units, TransformHelper)>,
) {
    let (Some(time), Some(grid)) = (time, grid) else {
        return;
    };
    let dt = time.delta_secs();
    // A frame without time (the first one) moves nobody but still takes note of new paths.
    let moving = dt > 0.0 && dt.is_finite();
    let buffers = &mut *buffers;
    collect_poses(&mut set, &mut buffers.poses);
    let mut units = set.p0();
    let radius = units
        .iter()
        .map(|(_, s, ..)| s.separation_radius)
        .filter(|r| r.is_finite())
        .fold(0.0f32, f32::max);
    let SteerBuffers { hash, poses, .. } = buffers;
    hash.rebuild(
        radius,
        poses
            .poses
            .iter()
            .filter(|pose| pose.world.is_finite())
            .map(|pose| (pose.entity, pose.world)),
    );
    let cell_span = grid.tile_size().abs().min_element();
    if !(cell_span > 0.0 && cell_span.is_finite()) {
        return;
    }

    for pose in poses.poses.iter() {
        let Ok((
            entity,
            steering,
            result,
            request,
            mut transform,
            mut progress,
            arrived,
            replanning,
            _,
        )) = units.get_mut(pose.entity)
        else {
            continue;
        };
        let steering = &steering.sanitized();
        let pos = pose.world;
        let Some(result) = result else {
            continue;
        };
        if !pos.is_finite() {
            continue;
        }
        let mut arrived = arrived;
        let diameter = request.map_or(1, |r| r.diameter);
        let PathResult::Found(path) = &*result else {
            if result.is_changed() {
                progress.restart(1);
                // A new order (`Pending`) or a failure: the unit is no longer where its
                // order took it.
                if arrived {
                    commands.entity(entity).remove::<Arrived>();
                }
            }
            continue;
        };
        if result.is_changed() {
            // A unit that does not stand on the path's first cell (its own cell was
            // blocked, so the path starts at the nearest free one) walks there first.
            let first = if grid.agent_cell(pos, diameter) == path.cells.first().copied() {
                1
            } else {
                0
            };
            progress.restart(first);
            if arrived {
                commands.entity(entity).remove::<Arrived>();
                arrived = false;
            }
        }
        if arrived || path.waypoints.is_empty() || !moving {
            continue;
        }
        let Some(layer) = grid.scenario().layer_for(path.profile, diameter) else {
            continue;
        };
        let slowness = Slowness {
            grid: &grid,
            weights: grid.scenario().weights(path.profile),
            diameter,
        };
        let lattice = Lattice::new(&grid, diameter);

        let mut next = progress.next;
        let (along, at_goal) = follow(
            &path.waypoints,
            &mut next,
            pos,
            steering,
            dt,
            &lattice,
            &slowness,
        );
        let mut push = Vec2::ZERO;
        let r = steering.separation_radius;
        if r > 0.0 && steering.separation_strength != 0.0 {
            hash.for_each_near(pos, |other, q| {
                if other == entity {
                    return;
                }
                let away = pos - q;
                let d = away.length();
                if d >= r {
                    return;
                }
                let dir = if d > 1e-6 {
                    away / d
                } else if entity < other {
                    Vec2::X
                } else {
                    Vec2::NEG_X
                };
                push += dir * (1.0 - d / r);
            });
        }
        // The top step in the cell the unit stands in.
        let slow_here = slowness.at(pos);
        let max_step = steering.speed.max(0.0) * dt / slow_here;
        let forward = along - pos;
        let push = (push.clamp_length_max(1.0) * steering.separation_strength * max_step)
            .clamp_length_max(0.75 * forward.length());
        let wanted = (forward + push).clamp_length_max(forward.length().max(max_step));

        let substeps = (wanted.length() / (0.45 * cell_span))
            .ceil()
            .clamp(1.0, 64.0) as u32;
        let step = wanted / substeps as f32;
        let walls = Walls {
            grid: &grid,
            layer,
            lattice,
            diameter,
            escape: path.cells.first().copied().unwrap_or_default(),
        };
        let mut p = pos;
        for _ in 0..substeps {
            p = walls.slide(p, step);
        }
        if p != pos {
            write_position(&mut transform, pose.parent.as_ref(), p);
        }
        let target = path.waypoints[next.min(path.waypoints.len() - 1)];
        let tolerance = 0.01 * cell_span / slow_here;
        if progress.stuck(
            next,
            p.distance(target),
            tolerance,
            dt,
            steering.replan_after,
        ) && request.is_some()
            && !replanning
        {
            commands.entity(entity).insert(Replanning);
        }
        // Arrived: on the goal, or in the goal cell on the last leg and held back by the
        // crowd (separation from units already standing there).
        let goal = path.waypoints[path.waypoints.len() - 1];
        let last_leg = progress.next + 1 >= path.waypoints.len();
        let crowded = last_leg
            && p.distance(pos) < 0.1 * max_step
            && grid.agent_cell(p, diameter) == grid.agent_cell(goal, diameter);
        if (at_goal && p.distance(goal) <= 1e-3 * cell_span) || crowded {
            commands.entity(entity).insert(Arrived);
        }
    }
}

/// Publishes where each steering unit is along its path as its [`PathProgress`] (for the
/// re-planner, and for anyone else who reads it), when it changed.
pub(crate) fn publish_progress(
    mut units: Query<(&SteeringProgress, &mut PathProgress), Changed<SteeringProgress>>,
) {
    for (steering, mut progress) in &mut units {
        progress.set_if_neq(PathProgress {
            next_waypoint: steering.next,
        });
    }
}
