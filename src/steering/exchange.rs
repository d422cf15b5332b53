//! Goal exchange: a unit held up near its claimed cell by an arrived unit of its group
//! that stands nearer that cell takes the arrived unit's cell, and the arrived unit walks
//! on (see [`PathRequest`](crate::components::PathRequest#goal-exchange)).

use bevy::prelude::*;

use crate::components::{PathGoal, PathRequest, PathStatus, Replanning};
use crate::crowd::Vector;
use crate::scenario::ProfileId;

/// Seconds without getting half a tile closer to its goal after which a walking unit in
/// its goal area may exchange goals with a standing unit within [`EXCHANGE_REACH`].
pub(super) const EXCHANGE_AFTER: f32 = 0.4;

/// Tiles from its goal beyond which a standing unit stands off it (the crowd pushed it
/// there, or it settled short): it may exchange goals too.
pub(super) const OFF_GOAL: f32 = 1.0;

/// Seconds a standing unit off its goal must have stood still (the crowd no longer
/// pushing it) before it exchanges goals or walks back to its own.
pub(super) const CALM_AFTER: f32 = 1.0;

/// Tiles between two units' discs within which they may exchange goals.
pub(super) const EXCHANGE_REACH: f32 = 1.5;

/// Tiles the standing unit must stand nearer the walker's cell than the walker.
const EXCHANGE_AHEAD: f32 = 0.5;

/// Tiles an exchange may lengthen the pair's walks by (the standing unit's to the
/// walker's cell plus the walker's to the standing unit's cell, against the walker's to
/// its own).
const EXCHANGE_DETOUR: f32 = 0.5;

/// What two units must share to exchange their claimed cells: the cells were claimed for
/// the same profile and diameter, and for the same goal or goal group, so either unit
/// fits either cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ExchangeKey {
    profile: ProfileId,
    diameter: u32,
    by: Kin,
}

/// What makes units kin for an exchange.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kin {
    /// They were sent to the same goal.
    Goal(PathGoal),
    /// Their requests name the same [`PathRequest::goal_group`].
    Group(u32),
}

impl ExchangeKey {
    /// The key of a unit whose current request (`request`, its ticket `status`, planned
    /// with `profile`) has a claimed cell and is answered: `None` when it claims nothing
    /// (claims off, a goal area, no cell claimed) or waits for an answer.
    pub(super) fn of(
        request: &PathRequest,
        status: &PathStatus,
        profile: ProfileId,
    ) -> Option<Self> {
        let claims = request.claim_goal && request.options.goal_radius == 0;
        let answered = !status.is_queued() && status.request() == Some(request);
        (claims && answered && status.claimed_cell().is_some()).then_some(Self {
            profile,
            diameter: request.diameter,
            by: match request.goal_group {
                Some(group) => Kin::Group(group),
                None => Kin::Goal(request.goal),
            },
        })
    }

    /// The unit's request names a goal group: a member of a move order, whose cell is
    /// its place in the order's formation. Such a unit gets within [`OFF_GOAL`] of its
    /// cell before the crowd counts as holding it back, and walks back to its cell when
    /// pushed off it.
    pub(super) fn in_group(&self) -> bool {
        matches!(self.by, Kin::Group(_))
    }
}

/// Whether a unit at `me` bound for `mine` and a standing unit at `other` on `theirs`
/// (all in tiles) should exchange goals, and by how much the exchange shortens the
/// pair's walks (the larger, the better). They exchange when the standing unit blocks
/// the other's way (it stands nearer `mine` by [`EXCHANGE_AHEAD`], and the exchange adds
/// at most [`EXCHANGE_DETOUR`] to the walk: it then walks on ahead, and the other stops
/// where it stood), or when the exchange shortens the pair's walks by more than
/// [`EXCHANGE_DETOUR`].
pub(super) fn exchange_gain(
    me: Vector,
    mine: Vector,
    other: Vector,
    theirs: Vector,
) -> Option<f32> {
    let walk = (mine - me).length();
    let ahead = (mine - other).length();
    let after = ahead + (theirs - me).length();
    let before = walk + (theirs - other).length();
    let blocks = ahead + EXCHANGE_AHEAD < walk && after <= walk + EXCHANGE_DETOUR;
    let shorter = after + EXCHANGE_DETOUR < before;
    (blocks || shorter).then_some(before - after)
}

/// Exchanges the claimed cells of `a` and `b` and has both plan again. Nothing happens
/// when either is gone or has no claimed cell any more (its request changed since).
pub(super) fn exchange(world: &mut World, a: Entity, b: Entity) {
    let cell = |e: Entity| {
        world
            .get::<PathStatus>(e)
            .and_then(PathStatus::claimed_cell)
    };
    let (Some(to_a), Some(to_b)) = (cell(b), cell(a)) else {
        return;
    };
    for (e, cell) in [(a, to_a), (b, to_b)] {
        if let Ok(mut unit) = world.get_entity_mut(e) {
            if let Some(mut status) = unit.get_mut::<PathStatus>() {
                status.set_claimed_cell(Some(cell));
            }
            unit.insert(Replanning);
        }
    }
}
