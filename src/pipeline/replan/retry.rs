//! Which failed requests an edit can change: they alone are retried.

use bevy::prelude::*;

use super::context::Context;
use crate::components::{NavGrid, PathFailure, PathRequest, PathStatus};
use crate::pipeline::resolve::{Place, resolve, world_position};
use crate::scenario::CellRect;
use crate::search::PathError;

/// True when the changes can change the answer `failure`: a new map, resize or
/// move for every failure that depends on the map (only these can bring an off-map start
/// or goal onto the map, or a missing map back); a change of the movement profiles for
/// those and unknown profiles; and, when `edited` (obstacles or terrain changed since
/// the failure was last looked at), for a blocked start, a blocked goal or an
/// unreachable goal only when the search would now answer differently (see
/// [`predicted_failure`]).
pub(super) fn retry(
    failure: &PathFailure,
    entity: Entity,
    place: Place,
    request: &PathRequest,
    ticket: &PathStatus,
    cx: &Context<'_, '_, '_>,
    edited: bool,
) -> bool {
    match failure {
        PathFailure::NoMap
        | PathFailure::MapRefused
        | PathFailure::StartOffMap { .. }
        | PathFailure::GoalOffMap { .. } => cx.whole_map,
        PathFailure::UnknownProfile | PathFailure::Search(PathError::UnknownProfile { .. }) => {
            cx.whole_map || cx.profiles_changed
        }
        other if !other.depends_on_map() => false,
        _ if cx.whole_map || cx.profiles_changed => true,
        _ if !edited => false,
        PathFailure::Search(error) => {
            let Some(grid) = cx.grid else {
                return true;
            };
            predicted_failure(grid, entity, place, request, ticket, cx) != Some(*error)
        }
        _ => true,
    }
}

/// The failure a search for `request` would answer on the current map before searching
/// (a blocked start or goal, an unreachable goal), `None` when it would search (or fail
/// for another reason, which a retry reports).
fn predicted_failure(
    grid: &NavGrid,
    entity: Entity,
    place: Place,
    request: &PathRequest,
    ticket: &PathStatus,
    cx: &Context<'_, '_, '_>,
) -> Option<PathError> {
    let position = world_position(cx.transforms, entity, Some(place));
    let resolved = resolve(grid, request, ticket.claimed_cell(), position, cx.profiles).ok()?;
    let layer = resolved.layer?;
    let diameter = request.diameter;
    if !grid.size().contains(resolved.requested) {
        return None;
    }
    if layer.is_blocked(resolved.start) {
        if request.options.nearest_start {
            return None; // no cell to stand on: the search reports it
        }
        return Some(PathError::StartBlocked {
            cell: resolved.start,
            diameter,
        });
    }
    let (goal, r) = (resolved.goal, i64::from(resolved.goal_radius));
    let area = CellRect::from_cell(goal).grow_clip(r, r, grid.size());
    let reachable = area
        .cells()
        .filter(|&c| layer.shape().steps(c, goal) <= resolved.goal_radius)
        .any(|c| layer.components().label(c) == resolved.label);
    if request.options.nearest_goal || reachable {
        return None;
    }
    if resolved.goal_radius == 0 && layer.is_blocked(goal) {
        return Some(PathError::GoalBlocked {
            cell: goal,
            diameter,
        });
    }
    Some(PathError::Unreachable)
}
