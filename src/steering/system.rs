//! The steering system: every unit with a path moves along it, avoiding the others, then
//! publishes its progress.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::avoid::{Avoidance, CellSpace};
use super::follow::{Slowness, follow};
use super::pose::{Poses, write_position};
use super::walls::{Lattice, Walls};
use super::{Arrived, Steering, SteeringProgress};
use crate::components::{NavGrid, PathProgress, PathRequest, PathResult, Replanning};
use crate::crowd::{AvoidScratch, Crowd, CrowdAgent, Vector};
use crate::grid::Cell;
use crate::scenario::ProfileId;
use crate::settings::TilepathSettings;

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

/// A steering unit this frame: what it wants and where it ends up.
#[derive(Clone, Copy)]
struct Mover {
    /// Index of its pose.
    pose: usize,
    diameter: u32,
    /// The profile whose layer keeps it out of walls.
    profile: ProfileId,
    /// The cell it walks toward when it stands where it cannot stand.
    escape: Cell,
    /// It follows a path (not arrived, not waiting for one).
    following: bool,
    avoidance: Avoidance,
    /// Its move this frame, world units: first what path following wants, then what
    /// avoidance allows.
    wanted: Vec2,
    /// What path following alone wanted.
    followed: Vec2,
    /// The waypoint path following heads for after its move, and whether that move
    /// ends on the goal.
    next: usize,
    at_goal: bool,
    /// Seconds it has made no headway toward its next waypoint.
    stalled: f32,
    /// Seconds it has barely moved, whatever its paths.
    still: f32,
    /// It has barely moved for [`GIVE_UP_AFTER`] seconds and touches another unit.
    walled_in: bool,
    /// Its top step this frame in the cell it stands in (world units), and that cell's
    /// slowness.
    max_step: f32,
    slow_here: f32,
    /// Where it ends the frame.
    end: Vec2,
}

/// Buffers of the steering system, reused every frame.
#[derive(Default)]
pub(crate) struct SteerBuffers {
    poses: Poses,
    movers: Vec<Mover>,
    crowd: Crowd,
    scratch: AvoidScratch,
    agents: Vec<CrowdAgent>,
    /// For each agent, its mover.
    owners: Vec<usize>,
    corrections: Vec<Vector>,
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
    settings: Res<TilepathSettings>,
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
    let cell_span = grid.tile_size().abs().min_element();
    if !(cell_span > 0.0 && cell_span.is_finite()) {
        return;
    }
    let b = &mut *buffers;
    collect_poses(&mut set, &mut b.poses);
    let mut units = set.p0();
    plan_moves(&mut units, &grid, &mut commands, b, dt, moving);
    if !moving {
        return;
    }
    let space = CellSpace::new(&grid);
    avoid(&units, &grid, &settings, b, space, dt);
    for m in &mut b.movers {
        m.end = slide(&grid, m, b.poses.poses[m.pose].world, m.wanted, cell_span);
    }
    separate(&units, &grid, &settings, b, space, cell_span);
    finish_moves(&mut units, &grid, &mut commands, b, dt, cell_span);
}

/// Takes note of new results and works out each unit's move along its path.
fn plan_moves(
    units: &mut Units,
    grid: &NavGrid,
    commands: &mut Commands,
    b: &mut SteerBuffers,
    dt: f32,
    moving: bool,
) {
    b.movers.clear();
    for (i, pose) in b.poses.poses.iter().enumerate() {
        let Ok((entity, steering, result, request, _, mut progress, arrived, _, _)) =
            units.get_mut(pose.entity)
        else {
            continue;
        };
        let steering = &steering.sanitized();
        let pos = pose.world;
        if !pos.is_finite() {
            continue;
        }
        let diameter = request.map_or(1, |r| r.diameter);
        let mut mover = Mover {
            pose: i,
            diameter,
            profile: ProfileId::DEFAULT,
            escape: grid.agent_cell(pos, diameter).unwrap_or_default(),
            following: false,
            avoidance: steering.avoidance,
            wanted: Vec2::ZERO,
            followed: Vec2::ZERO,
            next: progress.next,
            stalled: progress.stalled,
            still: progress.still,
            walled_in: false,
            at_goal: false,
            max_step: 0.0,
            slow_here: 1.0,
            end: pos,
        };
        let mut arrived = arrived;
        match result.as_ref().map(|r| (&**r, r.is_changed())) {
            Some((PathResult::Found(path), changed)) => {
                mover.profile = path.profile;
                mover.escape = path.cells.first().copied().unwrap_or(mover.escape);
                if changed {
                    // A unit that does not stand on the path's first cell (its own cell
                    // was blocked, so the path starts at the nearest free one) walks
                    // there first.
                    let on_first = grid.agent_cell(pos, diameter) == path.cells.first().copied();
                    progress.restart(if on_first { 1 } else { 0 });
                    mover.next = progress.next;
                    if arrived {
                        commands.entity(entity).remove::<Arrived>();
                        arrived = false;
                    }
                }
                let slowness = Slowness {
                    grid,
                    weights: grid.scenario().weights(path.profile),
                    diameter,
                };
                mover.slow_here = slowness.at(pos);
                mover.max_step = steering.speed.max(0.0) * dt / mover.slow_here;
                if !arrived && !path.waypoints.is_empty() && moving {
                    let lattice = Lattice::new(grid, diameter);
                    let (along, at_goal) = follow(
                        &path.waypoints,
                        &mut mover.next,
                        pos,
                        steering,
                        dt,
                        &lattice,
                        &slowness,
                    );
                    mover.following = true;
                    mover.at_goal = at_goal;
                    mover.followed = along - pos;
                    mover.wanted = mover.followed;
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
        if !mover.following {
            let slowness = Slowness {
                grid,
                weights: grid.scenario().weights(mover.profile),
                diameter,
            };
            mover.slow_here = slowness.at(pos);
            mover.max_step = steering.speed.max(0.0) * dt / mover.slow_here;
        }
        b.movers.push(mover);
    }
}

/// Reciprocal avoidance between the units that take part ([`Avoidance::Reciprocal`]):
/// each unit's wanted move becomes the one the crowd allows.
fn avoid(
    units: &Units,
    grid: &NavGrid,
    settings: &TilepathSettings,
    b: &mut SteerBuffers,
    space: CellSpace,
    dt: f32,
) {
    let crowd = &settings.crowd;
    fill_agents(units, b, space, crowd.standing_responsibility, dt, false);
    if b.agents.len() < 2 {
        return;
    }
    let avoidance = crowd.avoidance();
    b.crowd.index(&b.agents, &avoidance);
    give_way(b, &avoidance, crowd.standing_responsibility);
    let obstacles = grid.scenario().obstacles();
    for k in 0..b.agents.len() {
        let m = &b.movers[b.owners[k]];
        if m.following && m.stalled.max(m.still) >= PUSH_AFTER {
            // Stuck for a while: it follows its path, slowly, and leaves the rest to
            // separation.
            let m = &mut b.movers[b.owners[k]];
            m.wanted = m.followed * PUSH_SPEED;
            continue;
        }
        let layer = grid.scenario().layer_for(m.profile, 1);
        let blocked =
            |c: Cell| layer.map_or_else(|| obstacles.get_or(c, true), |l| l.is_blocked(c));
        let v = b
            .crowd
            .avoid(k, &b.agents, blocked, &avoidance, dt, &mut b.scratch);
        let m = &mut b.movers[b.owners[k]];
        m.wanted = space.world(v) * dt;
    }
}

/// Seconds without headway after which a walking unit that touches a walking unit of
/// higher priority (the smaller entity) gives way to it.
const GIVE_WAY_AFTER: f32 = 0.15;

/// Seconds without headway after which a walking unit stops avoiding and follows its
/// path, pushing through (separation still keeps it and the others apart, and standing
/// units take the larger share of the push): no arrangement of units and walls holds a
/// unit for good.
const PUSH_AFTER: f32 = 0.75;

/// Seconds of barely moving (across new paths) after which a walking unit that touches
/// another unit gives up and counts as arrived: the crowd around it walls it in, and
/// pushing would go on forever.
const GIVE_UP_AFTER: f32 = 2.0;

/// The fraction of its speed at which a unit pushes through (slow enough for separation
/// to keep the crowd apart within its tolerance).
const PUSH_SPEED: f32 = 0.5;

/// Seconds without headway on the last leg after which a unit near its goal counts as
/// arrived (units standing on and around its goal hold it back).
const HELD_BACK_AFTER: f32 = 0.5;

/// Breaks the deadlocks of reciprocal avoidance: two walking units that press against
/// each other (at a corridor's mouth, say) each leave the other no room, and both stand
/// still. A walking unit that has made no headway for [`GIVE_WAY_AFTER`] seconds while
/// touching a walking unit of higher priority (the smaller entity) backs away from it at
/// half its speed, taking the standing units' share of the avoidance, until it makes
/// headway again; the other then has room to pass.
fn give_way(b: &mut SteerBuffers, avoidance: &crate::crowd::AvoidanceSettings, standing: f32) {
    for k in 0..b.agents.len() {
        let m = b.movers[b.owners[k]];
        if !m.following || m.stalled.max(m.still) < GIVE_WAY_AFTER {
            continue;
        }
        let me = b.agents[k];
        let mut away = Vector::ZERO;
        for j in b.crowd.neighbours(k, &b.agents, avoidance, &mut b.scratch) {
            let other = b.agents[j];
            let gap = (other.position - me.position).length() - other.radius - me.radius;
            if other.key < me.key && b.movers[b.owners[j]].following && gap < 0.1 {
                away += (me.position - other.position).normalize_or_zero();
            }
        }
        if m.still >= GIVE_UP_AFTER {
            let touching = b
                .crowd
                .neighbours(k, &b.agents, avoidance, &mut b.scratch)
                .any(|j| {
                    let other = b.agents[j];
                    (other.position - me.position).length() - other.radius - me.radius < 0.1
                });
            b.movers[b.owners[k]].walled_in = touching;
        }
        if away != Vector::ZERO {
            let agent = &mut b.agents[k];
            agent.preferred = away.normalize_or_zero() * (0.5 * agent.max_speed);
            agent.responsibility = standing;
        }
    }
}

/// The agents of the crowd: the units with [`Avoidance::Reciprocal`], at their positions
/// (`moved`: where their moves took them), in cells.
fn fill_agents(
    units: &Units,
    b: &mut SteerBuffers,
    space: CellSpace,
    standing: f32,
    dt: f32,
    moved: bool,
) {
    b.agents.clear();
    b.owners.clear();
    for (i, m) in b.movers.iter().enumerate() {
        if m.avoidance != Avoidance::Reciprocal {
            continue;
        }
        let pose = &b.poses.poses[m.pose];
        let velocity = units
            .get(pose.entity)
            .map_or(Vec2::ZERO, |(_, _, _, _, _, progress, ..)| {
                progress.velocity
            });
        let position = if moved { m.end } else { pose.world };
        b.agents.push(CrowdAgent {
            position: space.point(position),
            velocity: space.vector(velocity),
            preferred: space.vector(m.wanted / dt),
            radius: m.diameter.max(1) as f32 * 0.5,
            max_speed: space.speed(m.max_step.max(m.wanted.length()) / dt),
            responsibility: if m.following { 1.0 } else { standing },
            key: pose.entity.to_bits(),
        });
        b.owners.push(i);
    }
}

/// The end of a move of `step` from `from` for unit `m`, in pieces of less than half a
/// tile, each sliding along the walls of the unit's layer.
fn slide(grid: &NavGrid, m: &Mover, from: Vec2, step: Vec2, cell_span: f32) -> Vec2 {
    let Some(layer) = grid.scenario().layer_for(m.profile, m.diameter) else {
        return from;
    };
    if !(step.is_finite() && step != Vec2::ZERO) {
        return from;
    }
    let pieces = (step.length() / (0.45 * cell_span)).ceil().clamp(1.0, 64.0) as u32;
    let piece = step / pieces as f32;
    let walls = Walls {
        grid,
        layer,
        lattice: Lattice::new(grid, m.diameter),
        diameter: m.diameter,
        escape: m.escape,
    };
    let mut p = from;
    for _ in 0..pieces {
        p = walls.slide(p, piece);
    }
    p
}

/// Hard separation: units that still overlap after their moves are pushed apart
/// (through the same wall rule as their moves).
fn separate(
    units: &Units,
    grid: &NavGrid,
    settings: &TilepathSettings,
    b: &mut SteerBuffers,
    space: CellSpace,
    cell_span: f32,
) {
    let crowd = &settings.crowd;
    if crowd.separation_passes == 0 {
        return;
    }
    fill_agents(units, b, space, crowd.standing_responsibility, 1.0, true);
    if b.agents.len() < 2 {
        return;
    }
    b.crowd.index(&b.agents, &crowd.avoidance());
    b.corrections.clear();
    b.corrections.resize(b.agents.len(), Vector::ZERO);
    let obstacles = grid.scenario().obstacles();
    b.crowd.separate_with_walls(
        &b.agents,
        crowd.separation_passes,
        |c| obstacles.get_or(c, true),
        &mut b.corrections,
    );
    for k in 0..b.agents.len() {
        let correction = space.world(b.corrections[k]);
        if correction == Vec2::ZERO {
            continue;
        }
        let m = b.movers[b.owners[k]];
        b.movers[b.owners[k]].end = slide(grid, &m, m.end, correction, cell_span);
    }
}

/// Writes the moves back and takes note of progress, stalls and arrivals.
fn finish_moves(
    units: &mut Units,
    grid: &NavGrid,
    commands: &mut Commands,
    b: &SteerBuffers,
    dt: f32,
    cell_span: f32,
) {
    for m in &b.movers {
        let pose = &b.poses.poses[m.pose];
        let Ok((entity, steering, result, request, mut transform, mut progress, _, replanning, _)) =
            units.get_mut(pose.entity)
        else {
            continue;
        };
        let (pos, p) = (pose.world, m.end);
        if p != pos {
            write_position(&mut transform, pose.parent.as_ref(), p);
        }
        let velocity = (p - pos) / dt;
        if progress.velocity != velocity {
            progress.velocity = velocity;
        }
        let still = if m.following && p.distance(pos) < 0.05 * m.max_step {
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
        if !m.following {
            continue;
        }
        // Path following's waypoint counts when the unit went where following took it
        // (avoidance may have turned it away before it got there).
        let next = if (p - pos - m.followed).length() <= 0.1 * cell_span {
            m.next
        } else {
            progress.next
        };
        let target = path.waypoints[next.min(path.waypoints.len() - 1)];
        let tolerance = 0.01 * cell_span / m.slow_here;
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
        // Arrived: on the goal, or held back by the crowd (units already standing there):
        // in the goal cell on the last leg, stalled within a tile and a diameter of the
        // goal, or stalled for long against standing units (its group arrived around it).
        let goal = path.waypoints[path.waypoints.len() - 1];
        let last_leg = progress.next + 1 >= path.waypoints.len();
        let in_goal_cell = p.distance(pos) < 0.1 * m.max_step
            && grid.agent_cell(p, m.diameter) == grid.agent_cell(goal, m.diameter);
        let held_back = progress.stalled_secs() >= HELD_BACK_AFTER
            && p.distance(goal) <= (1.0 + m.diameter as f32) * cell_span;
        let crowded = (last_leg && in_goal_cell) || held_back || m.walled_in;
        if (m.at_goal && p.distance(goal) <= 1e-3 * cell_span) || crowded {
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
