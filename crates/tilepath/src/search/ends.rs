//! A query's ends on a layer: bounds, blocked starts and goals moved, reachability.

use super::query::{Algorithm, PathError, PathQuery};
use crate::grid::{Cell, GridSize};
use crate::scenario::{CellRect, Layer};

/// Checks the ends of `query` on `layer` and returns the query the algorithm runs:
/// the start moved to the nearest standable cell and the goal to the nearest
/// reachable one when the query allows it, and a goal area that only the best-first
/// engine supports turned into its nearest reachable cell for the other algorithms.
pub(crate) fn settle(layer: &Layer, query: &PathQuery) -> Result<PathQuery, PathError> {
    let size = layer.size();
    let mut q = *query;
    if !size.contains(q.start) {
        return Err(PathError::OutOfBounds { cell: q.start });
    }
    if !size.contains(q.goal) && !q.options.nearest_goal {
        return Err(PathError::OutOfBounds { cell: q.goal });
    }
    let start_blocked = PathError::StartBlocked {
        cell: q.start,
        diameter: q.diameter,
    };
    if layer.is_blocked(q.start) {
        if !q.options.nearest_start {
            return Err(start_blocked);
        }
        q.start = layer.nearest_free(q.start, |_| true).ok_or(start_blocked)?;
    }
    let label = layer.components().label(q.start);
    let reachable = |c: Cell| layer.components().label(c) == label;
    let area_reachable = if q.options.goal_radius == 0 {
        size.contains(q.goal) && reachable(q.goal)
    } else {
        goal_area(&q, size)
            .cells()
            .filter(|&c| q.in_goal_area_on(layer.shape(), c))
            .any(&reachable)
    };
    if !area_reachable {
        if q.options.nearest_goal {
            q.goal = layer
                .nearest_reachable(q.start, q.goal)
                .ok_or(PathError::Unreachable)?;
            q.options.goal_radius = 0;
        } else if q.options.goal_radius == 0 && layer.is_blocked(q.goal) {
            return Err(PathError::GoalBlocked {
                cell: q.goal,
                diameter: q.diameter,
            });
        } else {
            return Err(PathError::Unreachable);
        }
    }
    let engine_handles_area = matches!(
        q.algorithm,
        Algorithm::Auto
            | Algorithm::AStar
            | Algorithm::Jps
            | Algorithm::JpsPlus
            | Algorithm::Dijkstra
            | Algorithm::BestFirst
    );
    if q.options.goal_radius > 0 && !engine_handles_area {
        // A start inside the area has arrived; otherwise the area's free cell nearest its
        // centre stands for it.
        let goal = q.goal;
        q.goal = if q.in_goal_area_on(layer.shape(), q.start) {
            q.start
        } else {
            layer
                .nearest_free(goal, |c| {
                    layer.shape().steps(c, goal) <= q.options.goal_radius && reachable(c)
                })
                .ok_or(PathError::Unreachable)?
        };
        q.options.goal_radius = 0;
    }
    Ok(q)
}

/// The square around the goal area of `query` (the area itself on square grids),
/// clipped to the map.
fn goal_area(query: &PathQuery, size: GridSize) -> CellRect {
    let r = i64::from(query.options.goal_radius);
    CellRect::from_cell(query.goal).grow_clip(r, r, size)
}
