//! Local answers to map edits: splicing a detour into a path that new walls cut, and
//! recognising opened cells that cannot shorten any path. Both keep answers exactly
//! optimal; whatever they cannot prove goes back to the queue for a full search. A
//! costlier detour found on the way is handed out as a provisional path, so that the unit
//! walks on while that search waits.
//!
//! # Why a splice of equal cost is optimal
//!
//! Let `P` be a path found on an earlier map, optimal then, with `R` the cost of what is
//! left of it from the unit's cell `s` to its end `g`. Walls added since only remove
//! cells and moves, so they never make a route cheaper; cells opened since are each
//! either shown unable to shorten any path ([`cannot_shorten`]) or checked against `R`
//! with the re-planner's lower bound (the distance through the opened cell: octile on
//! squares; on hexagons the king-move distance, which no hexagonal path beats, since
//! each step moves a tile at most one column and one row). So no
//! route from `s` to `g` on the current map costs less than `R`, and a valid path of cost
//! exactly `R` is optimal: the same cost a fresh search would find. A splice replaces the
//! stretch `a..=b` around the cut by an optimal local path from `a` to `b` and is kept
//! only when that costs exactly what the old stretch did.
//!
//! # Why some openings cannot shorten a path
//!
//! A route uses an opened cell `o` either by stepping on it (`p → o → q`) or by passing it
//! as the corner of a diagonal step (`p → q`); in both cases `p` and `q` lie in the 3 × 3
//! block around `o`. When no other cell of the block opened in the same change, and for
//! every pair `p`, `q` of free cells of the block the cheapest way from `p` to `q` inside
//! the block without `o` costs no more than with it, every use of `o` can be replaced
//! by a detour inside the block that uses no opened cell at all: any route through `o` is
//! matched by one at most as dear that does not need it. Such an opening cannot make a
//! path cheaper and is not checked against any path.

use bevy::prelude::*;

use crate::components::{FoundPath, NavGrid, PathRequest};
use crate::grid::{Cell, Cost, cost_to_f64};
use crate::scenario::{Layer, Weights, step_cost};
use crate::search::{Algorithm, Limits, PathQuery, Pathfinder};
use crate::smoothing;

/// Where a path is cut: the indices of its first and last bad cells (a cell is bad when
/// it is blocked, or when the step onto it is no longer allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cut {
    pub(crate) first: usize,
    pub(crate) last: usize,
}

/// The cut of `cells[from..]` on `layer`, or `None` when that stretch is still walkable.
pub(crate) fn cut(layer: &Layer, cells: &[Cell], from: usize) -> Option<Cut> {
    let mut found: Option<Cut> = None;
    for j in from..cells.len() {
        let bad = if j == from {
            layer.is_blocked(cells[j])
        } else {
            !layer.can_step(cells[j - 1], cells[j])
        };
        if bad {
            let first = found.map_or(j, |c| c.first);
            found = Some(Cut { first, last: j });
        }
    }
    found
}

/// Local searches for [`Repairer::splice`]: (cells kept on each side of the cut, most
/// expansions). A wider window finds an equally cheap detour more often; a search
/// costlier than the second would cost about what planning the path again does.
const WINDOWS: [(usize, u32); 2] = [(4, 400), (16, 2_000)];

/// Splices detours into cut paths, with its own pathfinder (kept between frames).
#[derive(Default)]
pub(crate) struct Repairer {
    pathfinder: Pathfinder,
    cells: Vec<Cell>,
    waypoints: Vec<Cell>,
    /// The path with the cheapest costlier detour of the current splice.
    detour_cells: Vec<Cell>,
}

/// A path repaired around a cut.
pub(crate) enum Spliced {
    /// The detour costs exactly what the old stretch did: the path is optimal.
    Exact(FoundPath),
    /// Only a costlier detour was found: the path is valid on the current map, and the
    /// request must still be planned again ([`FoundPath::provisional`]).
    Detour(FoundPath),
}

/// True when a request's answer can be repaired in place: an exact algorithm without
/// limits, so that a splice of equal cost is exactly what a fresh search would answer.
pub(crate) fn repairable(request: &PathRequest, default: Algorithm, limits: Limits) -> bool {
    request.algorithm.unwrap_or(default).is_optimal()
        && request.limits.unwrap_or(limits) == Limits::UNLIMITED
}

impl Repairer {
    /// The path from `path.cells[at]` (the unit's cell) to the end of `path`, with the cut
    /// `cut` (all of it at or after `at`, the unit's cell free) replaced by the cheapest
    /// detour between the cells around it: [`Spliced::Exact`] when that detour costs
    /// exactly what the old stretch did, otherwise [`Spliced::Detour`] with the cheapest
    /// costlier one the local searches found, or `None` when they found none (either
    /// way the request must be planned again). The caller has made sure no opened cell
    /// can shorten the path (see the [module docs](self)). Spends at most `budget`
    /// expansions (taken off it).
    pub(crate) fn splice(
        &mut self,
        grid: &NavGrid,
        path: &FoundPath,
        request: &PathRequest,
        at: usize,
        cut: Cut,
        budget: &mut u32,
    ) -> Option<Spliced> {
        let map = grid.scenario();
        let diameter = request.diameter;
        let layer = map.layer_for(path.profile, diameter)?;
        let weights = map.weights(path.profile)?;
        let cells = &path.cells;
        let last = cells.len().checked_sub(1)?;
        if cut.first <= at || layer.is_blocked(cells[cut.last]) {
            return None; // the unit's cell or the end of the path is blocked
        }
        let mut expanded = 0;
        // The cost of the path in `detour_cells`, once a costlier detour was found.
        let mut detour: Option<Cost> = None;
        for (keep, cap) in WINDOWS {
            let cap = cap.min(*budget);
            if cap == 0 {
                break;
            }
            let a = (cut.first - 1).saturating_sub(keep).max(at);
            let b = (cut.last + keep).min(last);
            let old = weights.path_cost(&cells[a..=b])?;
            let query = PathQuery::new(cells[a], cells[b])
                .algorithm(Algorithm::Auto)
                .diameter(diameter)
                .profile(path.profile)
                .connectivity(request.options.connectivity)
                .limits(Limits {
                    max_expanded: cap,
                    time_budget: None,
                })
                .nearest_goal(false)
                .nearest_start(false);
            let found = self.pathfinder.find(map, &query);
            *budget = budget.saturating_sub(self.pathfinder.last_expanded().max(1));
            let Ok(stats) = found else {
                break;
            };
            expanded += stats.expanded;
            self.cells.clear();
            self.cells.extend_from_slice(&cells[at..a]);
            self.cells.extend_from_slice(self.pathfinder.path());
            self.cells.extend_from_slice(&cells[b + 1..]);
            if stats.cost == old {
                let exact = self.found(grid, path, request, layer, weights, expanded);
                return Some(Spliced::Exact(exact));
            }
            // The whole path's cost: windows of different widths compare by it.
            let total = weights.path_cost(&self.cells);
            if total.is_some_and(|t| detour.is_none_or(|d| t < d)) {
                detour = total;
                std::mem::swap(&mut self.cells, &mut self.detour_cells);
            }
        }
        detour?;
        std::mem::swap(&mut self.cells, &mut self.detour_cells);
        let mut found = self.found(grid, path, request, layer, weights, expanded);
        found.provisional = true;
        Some(Spliced::Detour(found))
    }

    /// The path `path.cells[at..]`, unchanged: the unit stands at `at` and only cells behind
    /// it were cut.
    pub(crate) fn rest(
        &mut self,
        grid: &NavGrid,
        path: &FoundPath,
        request: &PathRequest,
        at: usize,
    ) -> Option<FoundPath> {
        let map = grid.scenario();
        let layer = map.layer_for(path.profile, request.diameter)?;
        let weights = map.weights(path.profile)?;
        self.cells.clear();
        self.cells.extend_from_slice(path.cells.get(at..)?);
        Some(self.found(grid, path, request, layer, weights, 0))
    }

    /// The answer for the cells in `self.cells`.
    fn found(
        &mut self,
        grid: &NavGrid,
        path: &FoundPath,
        request: &PathRequest,
        layer: &Layer,
        weights: Weights<'_>,
        expanded: u32,
    ) -> FoundPath {
        let cost = weights.path_cost(&self.cells).unwrap_or(Cost::MAX);
        let waypoints = if request.options.smooth {
            smoothing::smooth_weighted(layer, weights, &self.cells, &mut self.waypoints);
            &self.waypoints
        } else {
            &self.cells
        };
        FoundPath {
            cells: self.cells.clone(),
            from: self.cells[0],
            start: self.cells[0],
            requested: path.requested,
            reached: path.reached,
            partial: path.partial,
            waypoints: waypoints
                .iter()
                .map(|&c| grid.agent_center(c, request.diameter))
                .collect(),
            length: grid.scenario().shape().path_length(&self.cells) as f32,
            cost: cost_to_f64(cost) as f32,
            profile: path.profile,
            generation: grid.generation(),
            expanded,
            approached: path.approached,
            provisional: false,
        }
    }
}

/// True when the free cell `cell` of `layer`, opened by the latest change, cannot shorten
/// any path (see the [module docs](self)): no other cell of its 3 × 3 block satisfies
/// `opened`, and between any two free cells of the block the cheapest way inside the
/// block costs the same without `cell` as with it. `octile` allows diagonal steps.
/// Never on hexagonal layers.
pub(crate) fn cannot_shorten(
    layer: &Layer,
    weights: Weights<'_>,
    cell: Cell,
    octile: bool,
    opened: impl Fn(Cell) -> bool,
) -> bool {
    if !layer.shape().is_square() {
        // The argument is about 3 × 3 square blocks: on hexagons every opening is
        // checked against the paths, which is exact, only more work.
        return false;
    }
    let at = |k: usize| Cell::new(cell.x + (k % 3) as i32 - 1, cell.y + (k / 3) as i32 - 1);
    let mut free = [false; 9];
    let mut weight = [1u8; 9];
    for k in 0..9 {
        let c = at(k);
        free[k] = !layer.is_blocked(c);
        weight[k] = weights.at(c).unwrap_or(1).max(1);
        if k != 4 && free[k] && opened(c) {
            return false;
        }
    }
    if !free[4] {
        return true; // not free for this layer: nothing opened here
    }
    let with = block_distances(&free, &weight, octile);
    let mut without_free = free;
    without_free[4] = false;
    let without = block_distances(&without_free, &weight, octile);
    (0..9).filter(|&p| p != 4 && free[p]).all(|p| {
        (0..9)
            .filter(|&q| q != 4 && free[q])
            .all(|q| without[p][q] <= with[p][q])
    })
}

/// Cheapest costs between the cells of a 3 × 3 block (index `x + 3y`), moving only over
/// its `free` cells, diagonals only between two free straight cells.
fn block_distances(free: &[bool; 9], weight: &[u8; 9], octile: bool) -> [[Cost; 9]; 9] {
    const FAR: Cost = Cost::MAX / 4;
    let mut d = [[FAR; 9]; 9];
    for i in 0..9 {
        d[i][i] = 0;
        for j in 0..9 {
            let (xi, yi, xj, yj) = (i % 3, i / 3, j % 3, j / 3);
            let (dx, dy) = (xj as i32 - xi as i32, yj as i32 - yi as i32);
            let Some(direction) = crate::grid::Direction::from_delta(dx, dy) else {
                continue;
            };
            if !free[i] || !free[j] {
                continue;
            }
            if direction.is_diagonal() && (!octile || !free[xj + 3 * yi] || !free[xi + 3 * yj]) {
                continue;
            }
            d[i][j] = step_cost(direction, weight[i], weight[j]);
        }
    }
    for k in 0..9 {
        for i in 0..9 {
            for j in 0..9 {
                let through = d[i][k] + d[k][j];
                if through < d[i][j] {
                    d[i][j] = through;
                }
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::CachedScenario;

    fn map(text: &str) -> CachedScenario {
        CachedScenario::from_ascii(text).unwrap()
    }

    #[test]
    fn an_opening_inside_a_wall_or_on_its_straight_edge_cannot_shorten_a_path() {
        // The middle cell of the top edge of a block, then a cell deep inside it.
        let m = map("......\n.####.\n.####.\n.####.\n......");
        let layer = m.layer(1).unwrap();
        let w = m.weights(crate::scenario::ProfileId::DEFAULT).unwrap();
        let mut opened = m.clone();
        opened.apply_edits([crate::scenario::MapEdit::Obstacle(Cell::new(2, 1), false)]);
        let l = opened.layer(1).unwrap();
        assert!(cannot_shorten(l, w, Cell::new(2, 1), true, |_| false));
        let mut deep = m.clone();
        deep.apply_edits([crate::scenario::MapEdit::Obstacle(Cell::new(2, 2), false)]);
        assert!(cannot_shorten(
            deep.layer(1).unwrap(),
            w,
            Cell::new(2, 2),
            true,
            |_| false
        ));
        // Still blocked on the layer: nothing opened.
        assert!(cannot_shorten(layer, w, Cell::new(2, 2), true, |_| false));
    }

    #[test]
    fn an_opening_through_a_thin_wall_or_at_a_corner_may_shorten_a_path() {
        let m = map("...\n###\n...");
        let mut door = m.clone();
        door.apply_edits([crate::scenario::MapEdit::Obstacle(Cell::new(1, 1), false)]);
        let w = m.weights(crate::scenario::ProfileId::DEFAULT).unwrap();
        assert!(!cannot_shorten(
            door.layer(1).unwrap(),
            w,
            Cell::new(1, 1),
            true,
            |_| false
        ));
        // The corner of a block: it lets a diagonal step pass.
        let m = map("....\n.##.\n.##.\n....");
        let mut corner = m.clone();
        corner.apply_edits([crate::scenario::MapEdit::Obstacle(Cell::new(1, 1), false)]);
        let l = corner.layer(1).unwrap();
        assert!(!cannot_shorten(l, w, Cell::new(1, 1), true, |_| false));
        // Cardinal moves only: a corner cell of a block saves nothing.
        assert!(cannot_shorten(l, w, Cell::new(1, 1), false, |_| false));
        // Another opened cell next to it: not decided locally.
        let m = map("......\n.####.\n.####.\n.####.\n......");
        let mut two = m.clone();
        two.apply_edits([crate::scenario::MapEdit::Obstacle(Cell::new(2, 1), false)]);
        let l = two.layer(1).unwrap();
        assert!(!cannot_shorten(l, w, Cell::new(2, 1), true, |c| c == Cell::new(1, 0)));
    }

    #[test]
    fn cuts_are_found_only_at_or_after_the_given_index() {
        let m = map(".....\n.....\n.....");
        let cells: Vec<Cell> = (0..5).map(|x| Cell::new(x, 1)).collect();
        let mut walled = m.clone();
        walled.apply_edits([crate::scenario::MapEdit::Obstacle(Cell::new(1, 1), true)]);
        let layer = walled.layer(1).unwrap();
        assert_eq!(cut(layer, &cells, 0), Some(Cut { first: 1, last: 2 }));
        assert_eq!(cut(layer, &cells, 2), None);
        // A diagonal step past a new wall corner is cut too.
        let diagonal = [Cell::new(0, 0), Cell::new(1, 1), Cell::new(2, 2)];
        let mut corner = m.clone();
        corner.apply_edits([crate::scenario::MapEdit::Obstacle(Cell::new(1, 0), true)]);
        let layer = corner.layer(1).unwrap();
        assert_eq!(cut(layer, &diagonal, 0), Some(Cut { first: 1, last: 1 }));
    }
}
