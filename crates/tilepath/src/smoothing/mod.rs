//! Line-of-sight smoothing: string pulling of cell paths into straight-segment waypoints.

mod supercover;

pub use supercover::{line_max_weight, line_of_sight};

use crate::grid::{Cell, Cost, STRAIGHT};
use crate::scenario::{Layer, Weights};

/// Writes the smoothed waypoints of `path` into `out` (cleared first): `path[0]`, then
/// repeatedly a later path cell visible ([`line_of_sight`]) from the last waypoint, up
/// to the last cell. An empty path gives no waypoints, a single cell gives itself.
///
/// Guarantees, for a valid cell path (king moves over cells free in `layer`, no corner
/// cutting): every segment between consecutive waypoints passes [`line_of_sight`];
/// the waypoints are path cells in path order, so the polyline is never longer than
/// the path (each segment is at most the length of the path stretch it replaces);
/// and each chosen waypoint is locally furthest: the path cell right after it is not
/// visible from the previous waypoint.
///
/// Search for the next waypoint: visibility is not monotone along a path (a cell can
/// be hidden behind a pillar while a later one is visible again), so a plain binary
/// search over the whole path is unsound. From waypoint `i` the search gallops,
/// testing `i + 2`, `i + 4`, `i + 8`, … (clamped to the last cell) while they are
/// visible, then bisects between the last visible and the first hidden probe, keeping
/// one end visible and the other hidden. The result is visible with a hidden successor.
/// A cell that becomes visible again beyond the first hidden probe is not looked for;
/// finding the truly furthest visible cell would take a line test against every later
/// cell, O(n²) tests per path.
///
/// Complexity: for a stretch of d path cells between two waypoints, O(log d) line
/// tests of O(d) cells each, so O(n log n) cell tests for a path of n cells. Nothing
/// is allocated beyond the growth of `out`'s capacity.
///
/// ```
/// use tilepath::grid::path_length;
/// use tilepath::prelude::*;
/// use tilepath::smoothing::smooth;
///
/// let map = CachedScenario::from_ascii("
///     .......
///     ..###..
///     .......
/// ").unwrap();
/// // Under the block, from the middle of the left edge to the middle of the right one.
/// let path: Vec<Cell> = [(0, 1), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 1)]
///     .into_iter()
///     .map(Cell::from)
///     .collect();
/// let mut waypoints = Vec::new();
/// smooth(map.layer(1).unwrap(), &path, &mut waypoints);
/// let expected: Vec<Cell> = [(0, 1), (2, 2), (5, 2), (6, 1)].into_iter().map(Cell::from).collect();
/// assert_eq!(waypoints, expected);
/// assert!(path_length(&waypoints) < path_length(&path));
/// ```
pub fn smooth(layer: &Layer, path: &[Cell], out: &mut Vec<Cell>) {
    walk(path, out, |from, j| {
        line_of_sight(layer, path[from], path[j])
    });
}

/// [`smooth`] for weighted terrain: a shortcut from waypoint `path[i]` to `path[j]` is
/// taken only when it has line of sight and its own weighted cost cannot exceed that of
/// the path stretch it replaces. Its cost is bounded by its length times the largest
/// weight it touches ([`line_max_weight`]), so the polyline never costs more (in travel
/// time at `speed / weight`) than the cell path. On a uniform layer this is [`smooth`].
///
/// Complexity: as [`smooth`], plus O(d) to cost each probed stretch of d cells.
pub fn smooth_weighted(layer: &Layer, weights: Weights<'_>, path: &[Cell], out: &mut Vec<Cell>) {
    if weights.uniform().is_some() {
        return smooth(layer, path, out);
    }
    walk(path, out, |from, j| {
        let (a, b) = (path[from], path[j]);
        let Some(max) = line_max_weight(layer, &weights, a, b) else {
            return false;
        };
        let (dx, dy) = (f64::from(b.x - a.x), f64::from(b.y - a.y));
        // Rounded up, so the bound is never below the segment's true cost.
        let bound = ((dx * dx + dy * dy).sqrt() * STRAIGHT as f64).ceil() as Cost * Cost::from(max);
        let stretch = weights.path_cost(&path[from..=j]).unwrap_or(0);
        bound <= stretch
    });
}

/// The waypoint walk shared by both smoothers: `path[0]`, then repeatedly the next
/// waypoint [`next_waypoint`] finds with `sees`, up to the last cell.
fn walk(path: &[Cell], out: &mut Vec<Cell>, sees: impl Fn(usize, usize) -> bool) {
    out.clear();
    let Some(&first) = path.first() else {
        return;
    };
    out.push(first);
    let mut i = 0;
    while i + 1 < path.len() {
        i = next_waypoint(path, i, &sees);
        out.push(path[i]);
    }
}

/// A later index of `path` that `sees(from, index)` accepts and whose successor it
/// refuses (or the last index), by galloping then bisecting; `from + 1` is taken as
/// accepted, which holds for every step of a valid path (it is the path's own step).
fn next_waypoint(path: &[Cell], from: usize, sees: &impl Fn(usize, usize) -> bool) -> usize {
    let last = path.len() - 1;
    let sees = |j: usize| sees(from, j);
    let mut visible = from + 1;
    let mut stride = 2;
    let mut hidden = loop {
        if visible == last {
            return last;
        }
        let probe = from.saturating_add(stride).min(last);
        if !sees(probe) {
            break probe;
        }
        visible = probe;
        stride = stride.saturating_mul(2);
    };
    while hidden - visible > 1 {
        let mid = visible + (hidden - visible) / 2;
        if sees(mid) {
            visible = mid;
        } else {
            hidden = mid;
        }
    }
    visible
}

#[cfg(test)]
mod tests;
