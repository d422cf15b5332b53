//! Steering on hexagonal maps: units walk from hexagon centre to centre along their paths.

use bevy::ecs::system::ParamSet;
use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use crate::components::{HexGrid, PathProgress, PathResult};

use super::pose::write_world;
use super::{Arrived, Steering, SteeringProgress};
use crate::main_thread::MainThread;

/// The components hexagonal steering reads and writes on a unit.
type Walkers<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Steering,
        Ref<'static, PathResult>,
        &'static mut SteeringProgress,
        &'static mut PathProgress,
        Has<Arrived>,
        Option<&'static ChildOf>,
    ),
>;

/// Moves units with [`Steering`] along their paths on the [`HexGrid`]: at
/// `speed / weight` world units per second, the weight being what the tile under the
/// unit costs its path's profile (1 on open ground). A path's waypoints are hexagon
/// centres, and a straight line between two of them crosses only the hexagons of the
/// path, so a unit never enters a tile its path does not hold. A new path starts at its
/// first waypoint, the centre of the unit's own tile. The unit gets [`Arrived`] within
/// `arrival_radius` of the last waypoint, and walks on to its centre.
///
/// Units do not avoid each other on hexagonal maps (avoidance, side steps and stuck
/// detection are the square grid's).
pub(crate) fn steer_on_hexes(
    _main: MainThread,
    grid: Option<Res<HexGrid>>,
    time: Res<Time>,
    mut walkers: Walkers,
    mut positions: ParamSet<(TransformHelper, Query<&mut Transform>)>,
    mut commands: Commands,
) {
    let Some(grid) = grid else {
        return;
    };
    let dt = time.delta_secs();
    for (entity, steering, result, mut progress, mut path_progress, arrived, parent) in &mut walkers
    {
        let PathResult::Found(path) = &*result else {
            continue;
        };
        if result.is_changed() {
            progress.restart(0);
        }
        let helper = positions.p0();
        let Ok(global) = helper.compute_global_transform(entity) else {
            continue;
        };
        let parent_global = parent.and_then(|p| helper.compute_global_transform(p.0).ok());
        let mut at = global.translation().truncate();
        let start = at;
        let weight = grid
            .world_to_tile(at)
            .and_then(|tile| grid.weight(path.profile, tile))
            .unwrap_or(1)
            .max(1);
        let speed = if steering.speed.is_finite() {
            steering.speed.max(0.0)
        } else {
            0.0
        };
        let mut left = speed * dt / f32::from(weight);
        let mut next = progress.next.min(path.waypoints.len().saturating_sub(1));
        while let Some(&target) = path.waypoints.get(next) {
            let distance = at.distance(target);
            if distance <= left {
                at = target;
                left -= distance;
                if next + 1 == path.waypoints.len() {
                    break;
                }
                next += 1;
            } else {
                at += (target - at) * (left / distance);
                break;
            }
        }
        progress.next = next;
        progress.velocity = if dt > 0.0 {
            (at - start) / dt
        } else {
            Vec2::ZERO
        };
        if path_progress.next_waypoint != next {
            path_progress.next_waypoint = next;
        }
        let last = path.waypoints.last().copied().unwrap_or(at);
        let here = next + 1 == path.waypoints.len()
            && at.distance(last) <= steering.arrival_radius.max(0.0);
        if here && !arrived {
            commands.entity(entity).try_insert(Arrived);
        } else if !here && arrived {
            commands.entity(entity).try_remove::<Arrived>();
        }
        if at != start
            && let Ok(mut transform) = positions.p1().get_mut(entity)
        {
            write_world(&mut transform, parent_global.as_ref(), at);
        }
    }
}
