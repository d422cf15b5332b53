//! Uninformed searches: breadth-first, radius-bounded depth-first and iterative deepening.
//!
//! None of them uses path costs to choose what to expand next. They exist as teaching
//! references and baselines: BFS is the only one with a guarantee (fewest steps), DFS
//! answers "is there some path inside this square" with a small stack, and IDDFS
//! grows that square until the answer is yes. Square grids only (on hexagons
//! [`Pathfinder::resolve`](super::Pathfinder::resolve) runs A\* instead), so their loops
//! read square moves ([`Squares`]).

use std::collections::VecDeque;

use super::costs::UnitCosts;
use super::query::{PathError, PathQuery};
use super::state::SearchState;
use crate::grid::{Cell, Connectivity, Direction};
use crate::scenario::Layer;
use crate::shape::Squares;

/// Buffers of the uninformed searches besides the shared state, each allocated when
/// the search that needs it first runs and kept: the BFS queue and per-cell levels
/// (4 bytes per cell, BFS only), the DFS stack of (cell, next direction index).
#[derive(Debug, Default)]
pub(crate) struct UninformedState {
    queue: VecDeque<u32>,
    depth: Vec<u32>,
    stack: Vec<(u32, u8)>,
}

impl UninformedState {
    /// Bytes held (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.queue.capacity() * size_of::<u32>()
            + self.depth.capacity() * size_of::<u32>()
            + self.stack.capacity() * size_of::<(u32, u8)>()
    }
}

/// Breadth-first search: the path with the fewest steps (every allowed move counts one),
/// and among those the shortest octile length.
///
/// Cells are expanded level by level from a FIFO queue (`u.queue`); `u.depth` holds
/// each cell's level and the shared state its best octile cost over paths of that many
/// steps. A cell still waiting in the queue takes a cheaper parent from the level
/// before it, so a straight run is never replaced by an equally short zigzag.
///
/// Complexity: O(n) for the n cells fewer steps away than the goal, plus part of the
/// goal's level (each cell is queued once and looks at 8 neighbours). Memory: the
/// shared records (8 bytes per cell), levels (4 bytes per cell), the queue (4 bytes per
/// queued cell), all reused between queries.
///
/// When to use: unweighted questions ("how many moves away is it?"), a reference for
/// tests, or tiny maps. For shortest length use A* or JPS, which expand far fewer cells.
///
/// # Errors
///
/// [`PathError::LimitReached`] from the limits; [`PathError::NotFound`] when the
/// start's region is exhausted without reaching the goal.
pub(crate) fn bfs(
    s: &mut SearchState,
    u: &mut UninformedState,
    layer: &Layer,
    query: &PathQuery,
) -> Result<(), PathError> {
    let start_i = s.index(query.start);
    let goal_i = s.index(query.goal);
    let octile = query.options.connectivity == Connectivity::Octile;
    let area = s.size().area();
    if u.depth.len() < area {
        u.depth.resize(area, 0);
    }
    u.queue.clear();
    s.open(start_i, 0, Direction::East);
    u.depth[start_i as usize] = 0;
    u.queue.push_back(start_i);
    while let Some(i) = u.queue.pop_front() {
        if i == goal_i {
            return s.build_path(goal_i, UnitCosts);
        }
        s.close(i);
        s.tick()?;
        let c = s.cell(i);
        let g = s.g(i);
        let depth = u.depth[i as usize] + 1;
        let mut moves = layer.moves_on(Squares, c, octile);
        while moves != 0 {
            let d = Direction::ALL[moves.trailing_zeros() as usize];
            moves &= moves - 1;
            let ni = s.index(c.step(d));
            let ng = g + d.cost();
            if !s.is_seen(ni) {
                s.open(ni, ng, d.opposite());
                u.depth[ni as usize] = depth;
                u.queue.push_back(ni);
            } else if !s.is_closed(ni) && u.depth[ni as usize] == depth && ng < s.g(ni) {
                s.open(ni, ng, d.opposite());
            }
        }
    }
    Err(s.not_found())
}

/// Depth-first search bounded by [`PathQuery::radius`]: cells farther than the radius
/// (Chebyshev) from the start are never entered; `None` means the whole map.
///
/// Returns the first path it walks into, which is valid but usually longer than the
/// shortest; see `bounded_dfs` for the visiting order. A goal beyond the radius, or
/// one the walls separate from the start inside the radius square, gives
/// [`PathError::NotFound`].
///
/// Complexity: O(min(map area, (2r + 1)²)) time for radius r, each cell entered at
/// most once. Memory: the shared records (8 bytes per cell) and the stack (8 bytes per
/// cell of the deepest walk), reused between queries.
///
/// When to use: existence questions inside a small area around an agent ("can I get
/// there without leaving this room?"), where a cheap bounded answer beats an optimal path.
///
/// # Errors
///
/// [`PathError::LimitReached`] from the limits; [`PathError::NotFound`] as above.
pub(crate) fn dfs(
    s: &mut SearchState,
    u: &mut UninformedState,
    layer: &Layer,
    query: &PathQuery,
) -> Result<(), PathError> {
    bounded_dfs(s, u, layer, query, query.radius.unwrap_or(u32::MAX))
}

/// Iterative-deepening DFS over the radius: runs `bounded_dfs` with radius
/// r₀ = Chebyshev distance from start to goal (no path fits in a smaller square), then
/// doubles the radius after each failed round, capped at the radius that covers the
/// whole map. [`PathQuery::radius`] is ignored.
///
/// Doubling (rather than adding one) keeps the total work within a constant factor
/// of the last round: a round's work is bounded by its square's area, which grows
/// about 4x per round, so the earlier rounds' bounds add up to about a third of the
/// last one's; adding one per round would repeat the work O(r) times. The price is
/// that the last square can be up to twice as wide as needed, which lets the DFS
/// path wander further.
/// The whole-map round explores the start's whole component, which the pathfinder
/// has checked contains the goal, so only a limit can stop the search without a path.
///
/// Complexity: O(min(map area, (4 r)²)) where r is the smallest radius whose square
/// connects start and goal; memory as [`dfs`]. Each round restarts the stamps in O(1).
///
/// When to use: when a path is expected close by but the searched area must stay
/// small and bounded by [`crate::search::Limits`]; otherwise BFS or A* answer faster.
///
/// # Errors
///
/// [`PathError::LimitReached`] from the limits; [`PathError::NotFound`] only when the
/// whole-map round misses the goal, which means no path exists.
pub(crate) fn iddfs(
    s: &mut SearchState,
    u: &mut UninformedState,
    layer: &Layer,
    query: &PathQuery,
) -> Result<(), PathError> {
    let size = s.size();
    let (w, h) = (size.width as i32, size.height as i32);
    let start = query.start;
    let whole_map = start
        .x
        .max(w - 1 - start.x)
        .max(start.y)
        .max(h - 1 - start.y) as u32;
    let mut radius = start.chebyshev(query.goal).max(1);
    loop {
        match bounded_dfs(s, u, layer, query, radius) {
            Err(PathError::NotFound { .. }) if radius < whole_map => {
                radius = radius.saturating_mul(2).min(whole_map);
                s.restart_round();
            }
            outcome => return outcome,
        }
    }
}

/// The visiting order of the DFS from `c`: the `k`-th direction (0..8) by angle to the
/// goal. First the direction nearest the goal vector (sector boundaries at 22.5°, using
/// tan 22.5° ≈ 12/29), then its two neighbours, nearer side first, and so on; last the
/// opposite direction.
#[inline]
fn toward_goal(c: Cell, goal: Cell, k: u8) -> Direction {
    const OFFSETS: [i32; 8] = [0, 1, -1, 2, -2, 3, -3, 4];
    let (dx, dy) = (goal.x - c.x, goal.y - c.y);
    let (ax, ay) = (i64::from(dx.unsigned_abs()), i64::from(dy.unsigned_abs()));
    let ux = if ax * 29 <= ay * 12 { 0 } else { dx.signum() };
    let uy = if ay * 29 <= ax * 12 { 0 } else { dy.signum() };
    let ideal = Direction::from_delta(ux, uy).unwrap_or(Direction::East);
    let (ix, iy) = ideal.delta();
    // Clockwise (positive rotation, with y growing downwards) when the goal lies
    // clockwise of the ideal direction: positive cross product.
    let cross = i64::from(ix) * i64::from(dy) - i64::from(iy) * i64::from(dx);
    let side = if cross < 0 { -1 } else { 1 };
    ideal.rotate(OFFSETS[usize::from(k)] * side)
}

/// The DFS engine: an explicit stack of (cell, next direction index) in `u.stack`,
/// never recursion. Each cell is entered at most once (stamped on entry, closed when
/// its directions are exhausted), so the stack always holds the current simple path
/// from the start, and the parents recorded on entry reproduce it.
///
/// Directions are tried in `toward_goal` order, recomputed from the cell when the
/// search resumes it, so on an open map the DFS walks a straight digital line to the
/// goal, and next to obstacles it takes the free direction nearest the goal's bearing.
fn bounded_dfs(
    s: &mut SearchState,
    u: &mut UninformedState,
    layer: &Layer,
    query: &PathQuery,
    radius: u32,
) -> Result<(), PathError> {
    let (start, goal) = (query.start, query.goal);
    if start.chebyshev(goal) > radius {
        return Err(s.not_found());
    }
    let octile = query.options.connectivity == Connectivity::Octile;
    let start_i = s.index(start);
    let goal_i = s.index(goal);
    u.stack.clear();
    s.tick()?;
    s.open(start_i, 0, Direction::East);
    u.stack.push((start_i, 0));
    while let Some(&(i, first)) = u.stack.last() {
        let c = s.cell(i);
        let moves = layer.moves_on(Squares, c, octile);
        let mut k = first;
        let mut next = None;
        let mut step = Direction::East;
        while k < 8 {
            let d = toward_goal(c, goal, k);
            k += 1;
            if moves & (1 << d as u8) == 0 {
                continue;
            }
            let n = c.step(d);
            let ni = s.index(n);
            if n.chebyshev(start) <= radius && !s.is_seen(ni) {
                next = Some(ni);
                step = d;
                break;
            }
        }
        let top = u.stack.len() - 1;
        u.stack[top].1 = k;
        match next {
            Some(ni) => {
                s.open(ni, s.g(i) + step.cost(), step.opposite());
                if ni == goal_i {
                    return s.build_path(goal_i, UnitCosts);
                }
                s.tick()?;
                u.stack.push((ni, 0));
            }
            None => {
                s.close(i);
                u.stack.pop();
            }
        }
    }
    Err(s.not_found())
}

#[cfg(test)]
mod tests;
