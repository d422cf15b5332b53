//! The steering system: every unit with a path moves along it, avoiding the others, then
//! publishes its progress.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::avoid::CellSpace;
use super::crowd::{avoid, separate};
use super::exchange::{ExchangeKey, OFF_GOAL, exchange};
use super::follow::{Slowness, Waypoints, follow, rejoin};
use super::frame::{Mover, SteerBuffers, Units, slide};
use super::lanes::Lanes;
use super::pose::{Poses, write_position};
use super::rest::{Part, REST_AFTER, Rest, Resting, STILL_MOVE};
use super::right_of_way::RightOfWay;
use super::walls::Lattice;
use super::{Arrived, SteeringProgress};
use crate::components::{NavGrid, PathProgress, PathResult, Replanning};
use crate::main_thread::MainThread;
use crate::profiles::MovementProfiles;
use crate::scenario::ProfileId;
use crate::settings::TilepathSettings;
use crate::stats::TilepathStats;

/// The units the frame reads ([`Rest`]), and the world positions of those (and their
/// parents' world transforms), from their `Transform` and those of their ancestors as of
/// now.
#[allow(clippy::too_many_arguments)]
fn collect_poses(
    set: &mut ParamSet<(Units, TransformHelper, Resting)>,
    rest: &mut Rest,
    poses: &mut Poses,
    grid: &NavGrid,
    settings: &TilepathSettings,
    space: CellSpace,
    dt: f32,
    cell_span: f32,
) {
    let placement = grid.placement();
    rest.sort(&set.p2(), space, placement, settings, dt, cell_span);
    if rest.children() > 0 {
        let helper = set.p1();
        for k in 0..rest.children() {
            if let Ok(global) = helper.compute_global_transform(rest.child(k)) {
                let at = placement.plane_of(global.translation().truncate());
                rest.place_child(k, at, space);
            }
        }
    }
    rest.finish();
    poses.begin();
    let units = set.p0();
    for &(entity, _) in &rest.taken {
        if let Ok((entity, _, _, _, transform, _, _, _, parent, _)) = units.get(entity) {
            poses.add(entity, transform.translation, parent);
        }
    }
    poses.finish(&set.p1(), placement);
}

/// Moves steering units along their paths (see [`Steering`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn steer_units(
    _main: MainThread,
    time: Option<Res<Time>>,
    grid: Option<Res<NavGrid>>,
    settings: Res<TilepathSettings>,
    profiles: Res<MovementProfiles>,
    mut commands: Commands,
    mut stats: ResMut<TilepathStats>,
    mut buffers: Local<(SteerBuffers, Lanes, RightOfWay, Rest)>,
    mut set: ParamSet<(Units, TransformHelper, Resting)>,
) {
    let (Some(time), Some(grid)) = (time, grid) else {
        return;
    };
    let dt = time.delta_secs();
    // A frame without time (the first one) moves nobody but still takes note of new paths.
    let moving = dt > 0.0 && dt.is_finite();
    let cell_span = grid.plane_tile_size().abs().min_element();
    if !(cell_span > 0.0 && cell_span.is_finite()) {
        return;
    }
    let (b, lanes, right_of_way, rest) = &mut *buffers;
    let space = CellSpace::new(&grid);
    let step = if moving { dt } else { 0.0 };
    collect_poses(
        &mut set,
        rest,
        &mut b.poses,
        &grid,
        &settings,
        space,
        step,
        cell_span,
    );
    stats.steered += b.poses.poses.len();
    let mut units = set.p0();
    plan_moves(
        &mut units,
        &grid,
        &profiles,
        &mut commands,
        b,
        rest,
        dt,
        moving,
    );
    if !moving {
        return;
    }
    right_of_way.apply(&mut units, &grid, b, dt);
    avoid(&units, &grid, &settings, b, lanes, space, dt);
    for m in &mut b.movers {
        m.end = slide(&grid, m, b.poses.poses[m.pose].at, m.wanted, cell_span);
    }
    separate(&units, &grid, &settings, b, space, cell_span);
    for &(a, other) in &b.exchanges {
        commands.queue(move |world: &mut World| exchange(world, a, other));
    }
    finish_moves(
        &mut units,
        &grid,
        &settings,
        &mut commands,
        b,
        dt,
        cell_span,
    );
}

/// Takes note of new results and works out each unit's move along its path.
#[allow(clippy::too_many_arguments)]
fn plan_moves(
    units: &mut Units,
    grid: &NavGrid,
    profiles: &MovementProfiles,
    commands: &mut Commands,
    b: &mut SteerBuffers,
    rest: &Rest,
    dt: f32,
    moving: bool,
) {
    b.movers.clear();
    b.exchanges.clear();
    for (i, pose) in b.poses.poses.iter().enumerate() {
        let Ok((entity, steering, result, size, _, mut progress, arrived, replanning, _, status)) =
            units.get_mut(pose.entity)
        else {
            continue;
        };
        let steering = &steering.sanitized();
        let pos = pose.at;
        if !pos.is_finite() {
            continue;
        }
        let diameter = size.diameter();
        let mut mover = Mover {
            pose: i,
            diameter,
            // Without a path (yet), the walls of the profile it asks for.
            profile: size.profile(profiles).unwrap_or(ProfileId::DEFAULT),
            escape: grid.plane_agent_cell(pos, diameter).unwrap_or_default(),
            following: false,
            pushable: size.known(),
            avoidance: steering.avoidance,
            wanted: Vec2::ZERO,
            followed: Vec2::ZERO,
            next: progress.next,
            stalled: progress.stalled,
            still: progress.still,
            slow: progress.slow(),
            walled_in: false,
            goal: Vec2::NAN,
            to_goal: 0.0,
            at_goal: false,
            max_step: 0.0,
            slow_here: 1.0,
            giving_way: false,
            returning: false,
            exchange: None,
            exchanging: replanning,
            walk_back: false,
            fixed: rest.part(pose.entity) == Some(Part::Obstacle),
            end: pos,
        };
        let found = result.as_ref().and_then(|r| r.found());
        if let Some(path) = found {
            mover.profile = path.profile;
            if let (Some(request), Some(status)) = (size.request, status) {
                mover.exchange = ExchangeKey::of(request, status, path.profile);
            }
        }
        // The cell it stands in slows it under the profile of its path, or of the one it
        // asks for.
        let slowness = Slowness {
            grid,
            weights: grid.scenario().weights(mover.profile),
            diameter,
        };
        mover.slow_here = slowness.at(pos);
        mover.max_step = steering.speed.max(0.0) * dt / mover.slow_here;
        let mut arrived = arrived;
        match result.as_ref().map(|r| (&**r, r.is_changed())) {
            Some((PathResult::Found(path), changed)) => {
                mover.escape = path.cells.first().copied().unwrap_or(mover.escape);
                if let Some(&goal) = path.waypoints.last() {
                    mover.goal = grid.placement().plane_of(goal);
                }
                if changed {
                    let here = grid.plane_agent_cell(pos, diameter);
                    let layer = grid.scenario().layer_for(path.profile, diameter);
                    progress.restart(rejoin(path, here, layer, grid, diameter));
                    mover.next = progress.next;
                    if arrived {
                        commands.entity(entity).remove::<Arrived>();
                        arrived = false;
                    }
                }
                if !arrived && !path.waypoints.is_empty() && moving {
                    let lattice = Lattice::new(grid, diameter);
                    let waypoints = Waypoints {
                        world: &path.waypoints,
                        placement: grid.placement(),
                    };
                    let (along, at_goal) = follow(
                        waypoints,
                        &mut mover.next,
                        pos,
                        steering,
                        dt,
                        &lattice,
                        &slowness,
                    );
                    mover.following = true;
                    mover.to_goal =
                        waypoints.last().distance(pos) / grid.plane_tile_size().abs().min_element();
                    mover.at_goal = at_goal;
                    // Holding still after turning back and forth: it wants no move.
                    if !progress.holding() {
                        mover.followed = along - pos;
                        mover.wanted = mover.followed;
                    }
                }
            }
            Some((_, true)) => {
                progress.restart(1);
                // A new order (`Pending`) or a failure: the unit is no longer where its
                // order took it.
                if arrived {
                    commands.entity(entity).remove::<Arrived>();
                }
            }
            _ => {}
        }
        b.movers.push(mover);
    }
}

/// Seconds without headway on the last leg after which a unit near its goal counts as
/// arrived (units standing on and around its goal hold it back).
const HELD_BACK_AFTER: f32 = 0.5;

/// Writes the moves back and takes note of progress, stalls and arrivals.
#[allow(clippy::too_many_arguments)]
fn finish_moves(
    units: &mut Units,
    grid: &NavGrid,
    settings: &TilepathSettings,
    commands: &mut Commands,
    b: &SteerBuffers,
    dt: f32,
    cell_span: f32,
) {
    for m in &b.movers {
        let pose = &b.poses.poses[m.pose];
        let Ok((
            entity,
            steering,
            result,
            size,
            mut transform,
            mut progress,
            arrived,
            replanning,
            ..,
        )) = units.get_mut(pose.entity)
        else {
            continue;
        };
        let (pos, p) = (pose.at, m.end);
        if m.fixed {
            continue;
        }
        // Standing still without a path to follow, toward rest.
        let resting = if m.following || p.distance(pos) > STILL_MOVE * cell_span {
            0.0
        } else {
            (progress.resting + dt).min(REST_AFTER)
        };
        if progress.resting != resting {
            progress.resting = resting;
        }
        if arrived {
            progress.settled();
            // A member of a goal group pushed off the cell it arrived on walks back once
            // the crowd has left it alone.
            if progress.on_goal && m.walk_back && !m.exchanging {
                progress.walk_back();
                commands.entity(entity).remove::<Arrived>();
            }
        }
        if p != pos {
            write_position(&mut transform, pose.parent.as_ref(), grid.placement(), p);
        }
        let velocity = (p - pos) / dt;
        if progress.velocity != velocity {
            progress.velocity = velocity;
        }
        let counts = (m.following && !m.giving_way) || arrived;
        let still = if counts && p.distance(pos) < 0.05 * m.max_step {
            progress.still + dt
        } else {
            0.0
        };
        if progress.still != still {
            progress.still = still;
        }
        let Some(path) = result.as_ref().and_then(|r| r.found()) else {
            continue;
        };
        if !m.following && !m.giving_way {
            continue;
        }
        // Path following's waypoint counts when the unit went where following took it
        // (avoidance may have turned it away before it got there; giving way, or waiting
        // for a unit that does, it did not follow).
        let next = if !m.giving_way && (p - pos - m.followed).length() <= 0.1 * cell_span {
            m.next
        } else {
            progress.next
        };
        let waypoints = Waypoints {
            world: &path.waypoints,
            placement: grid.placement(),
        };
        let target = waypoints.at(next.min(waypoints.len() - 1));
        // The progress rule: the rest of its path from where it stands.
        let remaining =
            progress.suffix(waypoints, next, cell_span) + p.distance(target) / cell_span;
        let stalled = progress.progress(
            waypoints.last(),
            remaining,
            dt,
            settings.stall.after(),
            settings.stall.hold().filter(|_| !m.giving_way),
        );
        if m.giving_way {
            // Giving way gets it no further along its path: the progress rule counts
            // it, but only a unit stuck on its way back asks for a new path.
            if stalled && m.returning && size.request.is_some() && !replanning {
                commands.entity(entity).insert(Replanning);
            }
            continue;
        }
        let tolerance = 0.01 * cell_span / m.slow_here;
        let stuck = progress.stuck(
            next,
            p.distance(target),
            tolerance,
            dt,
            steering.replan_after,
        );
        if (stuck || stalled) && size.request.is_some() && !replanning {
            commands.entity(entity).insert(Replanning);
        }
        // Arrived: on the goal, or held back by the crowd (units already standing there):
        // in the goal cell on the last leg, stalled within a tile and a diameter of the
        // goal, or stalled for long against standing units (its group arrived around it).
        let goal = waypoints.last();
        progress.headway(goal, p.distance(goal) / cell_span, dt);
        let last_leg = progress.next + 1 >= path.waypoints.len();
        let in_goal_cell = p.distance(pos) < 0.1 * m.max_step
            && grid.plane_agent_cell(p, m.diameter) == grid.plane_agent_cell(goal, m.diameter);
        // (Members of a goal group get nearer first: the crowd in their way is their
        // own group's, which makes way by exchanging.)
        let held_back_within = match m.exchange {
            Some(key) if key.in_group() => OFF_GOAL,
            _ => 1.0 + m.diameter as f32,
        };
        let held_back = progress.stalled_secs() >= HELD_BACK_AFTER
            && p.distance(goal) <= held_back_within * cell_span;
        let crowded = (last_leg && in_goal_cell) || held_back || m.walled_in;
        if (m.at_goal && p.distance(goal) <= 1e-3 * cell_span) || crowded {
            progress.on_goal = p.distance(goal) <= OFF_GOAL * cell_span;
            commands.entity(entity).insert(Arrived);
        }
    }
}

/// Publishes where each steering unit is along its path as its [`PathProgress`] (for the
/// re-planner, and for anyone else who reads it), when it changed.
pub(crate) fn publish_progress(
    _main: MainThread,
    mut units: Query<(&SteeringProgress, &mut PathProgress), Changed<SteeringProgress>>,
) {
    for (steering, mut progress) in &mut units {
        progress.set_if_neq(PathProgress {
            next_waypoint: steering.next,
        });
    }
}
