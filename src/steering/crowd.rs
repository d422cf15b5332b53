//! The crowd's part of a steering frame: avoidance between units, deadlock breakers and
//! hard separation, on the core's [`crate::crowd`].

use bevy::prelude::*;
use smallvec::SmallVec;

use super::avoid::{Avoidance, CellSpace};
use super::exchange::{CALM_AFTER, EXCHANGE_AFTER, EXCHANGE_REACH, OFF_GOAL, exchange_gain};
use super::frame::{SteerBuffers, Units, per_agent, slide};
use super::lanes::Lanes;
use crate::components::NavGrid;
use crate::crowd::{AvoidanceSettings, CrowdAgent, OVERLAP_TOLERANCE, Vector};
use crate::grid::{Cell, GridSize};
use crate::scenario::{Layer, ProfileId};
use crate::settings::TilepathSettings;
use crate::shape::GridShape;

/// Reciprocal avoidance between the units that take part ([`Avoidance::Reciprocal`]):
/// each unit's wanted move becomes the one the crowd allows.
pub(super) fn avoid(
    units: &Units,
    grid: &NavGrid,
    settings: &TilepathSettings,
    b: &mut SteerBuffers,
    lanes: &mut Lanes,
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
    lanes.keep_right(
        grid,
        settings.max_threads,
        b,
        &avoidance,
        crowd.standing_responsibility,
    );
    give_way(b, lanes, space, &avoidance, crowd.standing_responsibility);
    velocities(grid, settings.max_threads, b, lanes, &avoidance, dt);
    for k in 0..b.agents.len() {
        let m = &mut b.movers[b.owners[k]];
        // A unit keeping to its lane makes no headway while it gives way: only its
        // standing still counts.
        let stuck = if lanes.active(k) {
            m.still
        } else {
            m.stalled.max(m.still)
        };
        m.wanted = if lanes.falls_back(k) {
            // Falling back out of an oncoming stream's way: straight, the whole file at
            // once (avoidance would let it go only as fast as the unit behind it goes).
            space.plane(b.agents[k].preferred) * dt
        } else if m.following && stuck >= PUSH_AFTER {
            // Stuck for a while: it follows its path, slowly, and leaves the rest to
            // separation.
            m.followed * PUSH_SPEED
        } else {
            space.plane(b.velocities[k]) * dt
        };
    }
}

/// Every agent's avoiding velocity into `b.velocities` (with the neighbours its lane scan
/// read, when it read them), on up to `max_threads` threads
/// (each agent reads only the others' positions at the start of the frame, so the result
/// does not depend on the thread count).
fn velocities(
    grid: &NavGrid,
    max_threads: usize,
    b: &mut SteerBuffers,
    lanes: &Lanes,
    avoidance: &AvoidanceSettings,
    dt: f32,
) {
    b.velocities.clear();
    b.velocities.resize(b.agents.len(), Vector::ZERO);
    let SteerBuffers {
        crowd,
        agents,
        owners,
        movers,
        velocities,
        scratches,
        ..
    } = b;
    let (crowd, agents, owners, movers) = (&*crowd, &agents[..], &owners[..], &movers[..]);
    let obstacles = grid.scenario().obstacles();
    let walls = crowd_sees_walls(grid);
    per_agent(max_threads, velocities, scratches, |first, out, scratch| {
        for (j, v) in out.iter_mut().enumerate() {
            let k = first + j;
            let layer = grid.scenario().layer_for(movers[owners[k]].profile, 1);
            let blocked = |c: Cell| {
                walls && layer.map_or_else(|| obstacles.get_or(c, true), |l| l.is_blocked(c))
            };
            // The lane scan read this agent's neighbours already (the positions have not
            // changed since): avoidance takes the nearest of them.
            *v = match lanes.neighbours(k, avoidance) {
                Some(near) => {
                    let near = near.iter().map(|&j| j as usize);
                    crowd.avoid_among(k, agents, near, blocked, avoidance, dt, scratch)
                }
                None => crowd.avoid(k, agents, blocked, avoidance, dt, scratch),
            };
        }
    });
}

/// The share of a unit with neither a request nor a footprint (its movement profile
/// unknown, so it may not be pushed into terrain it cannot enter): next to nothing, so
/// the others go around it.
const IMMOVABLE: f32 = 1e-4;

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

/// Seconds without getting half a tile closer to its goal after which a walking unit in
/// its goal area (within [`SETTLE_WITHIN`] tiles and its diameter of the goal) that
/// touches a standing unit whose own goal is as near its goal (one that arrived there,
/// most often) settles and counts as arrived:
/// it is in a block of units that reached their goals before it, jostling without getting
/// through (its own goal lies beyond them, and they have no room to make way).
const SETTLE_AFTER: f32 = 3.0;

/// Tiles from its goal (beyond its diameter) within which a unit may settle.
const SETTLE_WITHIN: f32 = 8.0;

/// Two units touch when the gap between their discs is less than this many tiles.
const TOUCHING: f32 = 0.1;

/// The fraction of its speed at which a unit pushes through (slow enough for separation
/// to keep the crowd apart within its tolerance).
const PUSH_SPEED: f32 = 0.5;

/// Breaks the deadlocks of reciprocal avoidance: two walking units that press against
/// each other (at a corridor's mouth, say) each leave the other no room, and both stand
/// still. A walking unit that has made no headway for [`GIVE_WAY_AFTER`] seconds while
/// touching a walking unit of higher priority (the smaller entity) backs away from it at
/// half its speed, taking the standing units' share of the avoidance, until it makes
/// headway again; the other then has room to pass.
fn give_way(
    b: &mut SteerBuffers,
    lanes: &Lanes,
    space: CellSpace,
    avoidance: &AvoidanceSettings,
    standing: f32,
) {
    for k in 0..b.agents.len() {
        let m = b.movers[b.owners[k]];
        let in_goal_area = m.to_goal <= SETTLE_WITHIN + m.diameter as f32;
        let settling = m.following && m.slow >= SETTLE_AFTER && in_goal_area;
        let held_up = m.following && m.stalled.max(m.still) >= GIVE_WAY_AFTER && !lanes.active(k);
        // Exchanging goals: walking in its goal area without getting closer, or standing
        // where the crowd pushed it, off its goal.
        let off_goal = !m.following
            && m.still >= CALM_AFTER
            && (b.agents[k].position - space.point(m.goal)).length() > OFF_GOAL;
        let exchanging = m.exchange.is_some()
            && !m.exchanging
            && ((m.following && m.slow >= EXCHANGE_AFTER && in_goal_area) || off_goal);
        if !settling && !held_up && !exchanging {
            continue;
        }
        // One pass over the neighbours it touches: the walking ones of higher priority
        // it backs away from, whether it touches any unit, or a standing one, and the
        // standing unit of its group it would best exchange goals with.
        let me = b.agents[k];
        let mine = space.point(m.goal);
        let (mut away, mut touching, mut touching_standing) = (Vector::ZERO, false, false);
        let mut partner: Option<(f32, usize)> = None;
        let mut walkers_near = false;
        for j in b.crowd.neighbours(k, &b.agents, avoidance, &mut b.scratch) {
            let (other, them) = (b.agents[j], b.movers[b.owners[j]]);
            let gap = (other.position - me.position).length() - other.radius - me.radius;
            if gap >= TOUCHING.max(EXCHANGE_REACH) {
                continue;
            }
            let stands = !them.following && them.pushable && !them.giving_way;
            walkers_near |= them.following;
            if exchanging
                && stands
                && !them.exchanging
                && them.exchange == m.exchange
                && let Some(saved) =
                    exchange_gain(me.position, mine, other.position, space.point(them.goal))
                && partner.is_none_or(|(best, _)| saved > best)
            {
                partner = Some((saved, j));
            }
            if gap >= TOUCHING {
                continue;
            }
            touching = true;
            // A block of units that reached goals near its own (units waiting for right
            // of way stand only for a moment, and units standing elsewhere are in its way,
            // not at its goal).
            let theirs = space.point(them.goal);
            let near_goal =
                (theirs - mine).length() <= SETTLE_WITHIN + (m.diameter + them.diameter) as f32;
            touching_standing |= stands && near_goal;
            if held_up && other.key < me.key && them.following {
                away += (me.position - other.position).normalize_or_zero();
            }
        }
        if let Some((_, j)) = partner {
            // It takes the standing unit's cell, which walks on to its own.
            let (a, other) = (b.owners[k], b.owners[j]);
            b.movers[a].exchanging = true;
            b.movers[other].exchanging = true;
            let entity = |i: usize| b.poses.poses[b.movers[i].pose].entity;
            b.exchanges.push((entity(a), entity(other)));
            continue;
        }
        // Off its goal with nobody to exchange with: a member of a goal group walks
        // back to its cell once no unit walks near it (it would walk into their way).
        let member = m.exchange.is_some_and(|key| key.in_group());
        b.movers[b.owners[k]].walk_back = off_goal && member && !walkers_near;
        b.movers[b.owners[k]].walled_in =
            (settling && touching_standing) || (held_up && m.still >= GIVE_UP_AFTER && touching);
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
        let position = if moved { m.end } else { pose.at };
        b.agents.push(CrowdAgent {
            position: space.point(position),
            velocity: space.vector(velocity),
            preferred: space.vector(m.wanted / dt),
            radius: crowd_radius(m.diameter, space.size(), space.shape()),
            max_speed: space.speed(m.max_step.max(m.wanted.length()) / dt),
            responsibility: if m.following {
                1.0
            } else if m.pushable && !m.fixed {
                standing
            } else {
                IMMOVABLE
            },
            key: pose.entity.to_bits(),
        });
        b.owners.push(i);
    }
}

/// The radius in cells the crowd gives a unit of `diameter` on a map of `size` and
/// `shape`: its [`GridShape::body_radius`], at most as wide as covers the whole map from
/// anywhere on it (its width plus height), so that the walls the crowd reads around a
/// unit are bounded by the map, not by the diameter. O(1).
fn crowd_radius(diameter: u32, size: GridSize, shape: GridShape) -> f32 {
    let cover = u64::from(size.width) + u64::from(size.height) + 1;
    shape.body_radius(diameter).min(cover as f64) as f32
}

/// Hard separation: units that still overlap after their moves are pushed apart
/// (through the same wall rule as their moves), and the moves of units that still
/// overlap after that are undone.
pub(super) fn separate(
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
    // Each unit out of the walls of its own layer, each profile's looked up once.
    let obstacles = grid.scenario().obstacles();
    let walls = crowd_sees_walls(grid);
    let (movers, owners) = (&b.movers, &b.owners);
    let mut layers: SmallVec<[(ProfileId, Option<&Layer>); 4]> = SmallVec::new();
    for &owner in owners {
        let profile = movers[owner].profile;
        if !layers.iter().any(|(p, _)| *p == profile) {
            layers.push((profile, grid.scenario().layer_for(profile, 1)));
        }
    }
    b.crowd.separate_with_walls(
        &b.agents,
        crowd.separation_passes,
        |k, c| {
            let profile = movers[owners[k]].profile;
            let layer = layers
                .iter()
                .find(|(p, _)| *p == profile)
                .and_then(|(_, layer)| *layer);
            walls && layer.map_or_else(|| obstacles.get_or(c, true), |l| l.is_blocked(c))
        },
        &mut b.corrections,
    );
    for k in 0..b.agents.len() {
        let correction = space.plane(b.corrections[k]);
        if correction == Vec2::ZERO {
            continue;
        }
        let m = b.movers[b.owners[k]];
        if !m.pushable || m.fixed {
            continue;
        }
        b.movers[b.owners[k]].end = slide(grid, &m, m.end, correction, cell_span);
    }
    hold_back(b, space);
}

/// Undoes the moves of the units that would end the frame overlapping by more than
/// [`OVERLAP_TOLERANCE`] (and more than they did at its start): they stay where they
/// were (see [`Crowd::hold_back`](crate::crowd::Crowd::hold_back)). `b.agents` are those
/// separation indexed.
fn hold_back(b: &mut SteerBuffers, space: CellSpace) {
    let SteerBuffers {
        crowd,
        agents,
        owners,
        movers,
        poses,
        starts,
        ends,
        held,
        ..
    } = b;
    starts.clear();
    ends.clear();
    for &owner in owners.iter() {
        let m = &movers[owner];
        starts.push(space.point(poses.poses[m.pose].at));
        ends.push(space.point(m.end));
    }
    held.clear();
    held.resize(agents.len(), false);
    if crowd.hold_back(agents, starts, ends, OVERLAP_TOLERANCE, held) == 0 {
        return;
    }
    for (k, _) in held.iter().enumerate().filter(|(_, h)| **h) {
        let m = &mut movers[owners[k]];
        m.end = poses.poses[m.pose].at;
    }
}

/// Whether the crowd's avoidance and separation read the map's walls: on square and
/// isometric maps, whose cells are the squares of the steering plane the crowd reasons
/// in. Hexagonal tiles are not, so there the crowd avoids units only, and the step rule
/// of each move ([`slide`]) keeps units off walls.
fn crowd_sees_walls(grid: &NavGrid) -> bool {
    grid.layout().shape().is_square()
}
