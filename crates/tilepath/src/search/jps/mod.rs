//! Jump point search without corner cutting, with block-based (64 cells per word) jumps.
//!
//! JPS is A* over a pruned set of nodes. From a node it "jumps" in a direction without
//! putting the cells it passes on the open list, and stops only at a *jump point*: a
//! cell where an optimal path may have to turn, at the goal, or at nothing (a wall,
//! which ends the jump). Every optimal path can be rewritten as a *canonical* one
//! (diagonal steps before straight steps between turns), and JPS searches exactly the
//! turning points of canonical paths, so it returns a shortest path while expanding a
//! small fraction of the cells A* would.
//!
//! The pruning and forced-neighbour rules are the ones for octile moves where a
//! diagonal step needs both orthogonal cells free (no corner cutting), as in the 2014
//! revision of JPS by Harabor and Grastien:
//!
//! - a diagonal move keeps going diagonally and also tries its two straight parts; it
//!   has no forced neighbours, and stops where one of those straight jumps finds a
//!   jump point (or at the goal);
//! - a straight move stops at a free cell `c` whose side cell is free while the side
//!   cell one step back is blocked; from there it also tries that side and the
//!   diagonal between the side and the move.
//!
//! Straight jumps read 64 cells at once: horizontal ones from the map's row-major
//! blocked bits, vertical ones from the transposed bits, together with the two
//! neighbouring lines; the first wall or forced cell is one `trailing_zeros` (or
//! `leading_zeros` going backwards) of a few word operations. Two refinements keep the
//! open list small: a diagonal jump point is expanded the moment a diagonal walk finds
//! it (its straight jumps were just made; once a slice's budget is spent it goes to the
//! open list instead, so a sliced search never expands more than its budget), and a new
//! jump point whose f equals the f being expanded is expanded next without going
//! through the heap.
//!
//! Complexity: worst case like A*, O(n log n) for n jump points plus O(length / 64) word
//! reads per straight jump. Where straight runs are long (rooms, open ground) it expands
//! a small fraction of A*'s nodes; on one-cell-wide mazes and random clutter, where
//! almost every cell is a jump point, it gains least (the measurements are in
//! `crates/tilepath/BENCHMARKS.md`). Memory: the shared records and heap of A* (12 bytes per cell) plus the jump
//! points waiting to bypass the heap; nothing else per cell.
//!
//! When to use: shortest paths on uniform-cost octile grids, especially large or open
//! ones; the result costs exactly what A* and Dijkstra find. It needs the 8-connected
//! model: [`crate::grid::Connectivity::Cardinal`] queries are answered by A* instead
//! (the dispatch in the pathfinder does that).

mod open;
pub(crate) mod plus;
mod scan;
#[cfg(test)]
mod tests;

use super::costs::{Step, UnitCosts};
use super::query::{PathError, PathQuery};
use super::state::SearchState;
use crate::grid::{Cell, Cost, Direction};
use crate::scenario::Layer;
use scan::{Grid, line_cost, toward};

/// JPS buffers besides the shared state: jump points whose f equals the f being
/// expanded, expanded next without going through the heap, and the open list of JPS+.
/// Grow with use, kept.
///
/// Diagonal jump points are expanded the moment a diagonal walk finds them; such a
/// node is seen, not closed and not in the heap, which is how [`claim`] and [`relax`]
/// recognise it (the heap checks membership in O(1)), so no per-cell flag is kept.
/// Nodes waiting in `next` look the same, but their cost is already optimal, so neither
/// function ever finds a lower one for them.
#[derive(Debug, Default)]
pub(crate) struct JpsState {
    next: Vec<u32>,
    /// The open list of JPS+ (online JPS uses the shared indexed heap, whose
    /// membership test [`claim`] needs).
    open: open::LazyHeap,
}

impl JpsState {
    /// Bytes held (capacity).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.next.capacity() * size_of::<u32>() + self.open.memory_bytes()
    }
}

/// Runs JPS from `query.start` to `query.goal` (both free, distinct), or goes on with a
/// search suspended by its slice (`resume`; same query and map). On success `s.path`
/// holds every cell of a shortest octile path.
///
/// # Errors
///
/// [`PathError::LimitReached`] from the limits; [`PathError::NotFound`] when the
/// start's region is exhausted without reaching the goal.
pub(crate) fn search(
    s: &mut SearchState,
    j: &mut JpsState,
    layer: &Layer,
    query: &PathQuery,
    resume: bool,
) -> Result<Step, PathError> {
    let grid = Grid::new(layer, query.goal);
    let goal_i = s.index(query.goal);
    if !resume {
        s.reserve_heap();
        j.next.clear();
        let start_i = s.index(query.start);
        s.open(start_i, 0, Direction::East);
        let h0 = grid.h(query.start);
        s.heap().push(start_i, h0, h0);
    }
    loop {
        if s.slice_spent() {
            return Ok(Step::Suspended);
        }
        let Some(i) = j.next.pop().or_else(|| s.heap().pop()) else {
            break;
        };
        if i == goal_i {
            return s.build_path(goal_i, UnitCosts).map(|()| Step::Found);
        }
        s.close(i);
        s.tick()?;
        expand(s, j, &grid, i)?;
    }
    Err(s.not_found())
}

/// Jumps from node `i` in every direction its arrival direction leaves open.
fn expand(s: &mut SearchState, j: &mut JpsState, grid: &Grid, i: u32) -> Result<(), PathError> {
    let c = s.cell(i);
    let g = s.g(i);
    let arrival = (g > 0).then(|| s.to_parent(i).opposite());
    let f = g + grid.h(c);
    let mut dirs = grid.directions(c, arrival);
    while dirs != 0 {
        let dir = Direction::ALL[dirs.trailing_zeros() as usize];
        dirs &= dirs - 1;
        let (dx, dy) = dir.delta();
        if dir.is_diagonal() {
            walk_diagonal(s, j, grid, i, f, dx, dy)?;
        } else if let Some(n) = grid.jump_straight(c, dx, dy) {
            relax(s, j, grid, n, g + line_cost(c, n), c, f);
        }
    }
    Ok(())
}

/// Walks diagonally from node `i`. Each cell from which a straight jump finds a jump
/// point is a diagonal jump point: it is recorded with its cost and parent and
/// expanded at once (the straight jump points it found are relaxed, the walk goes on
/// from it). The walk ends at a wall, at the goal, or at a jump point that already has
/// a cost as low (its own expansion covers the rest of the diagonal). When the slice
/// is spent ([`SearchState::slice_spent`]) the next diagonal jump point is offered to
/// the open list instead and the walk ends: it is expanded from there with the same
/// diagonal arrival, hence the same successors, so a slice never expands more nodes
/// than its budget. Unsliced searches (budget `u32::MAX`) never take that branch.
fn walk_diagonal(
    s: &mut SearchState,
    j: &mut JpsState,
    grid: &Grid,
    i: u32,
    f: Cost,
    dx: i32,
    dy: i32,
) -> Result<(), PathError> {
    let mut c = s.cell(i);
    let mut g = s.g(i);
    let mut n = c;
    loop {
        if !grid.diagonal_step_free(n.x, n.y, dx, dy) {
            return Ok(());
        }
        n = Cell::new(n.x + dx, n.y + dy);
        if n == grid.goal {
            relax(s, j, grid, n, g + line_cost(c, n), c, f);
            return Ok(());
        }
        let across = grid.jump_straight(n, dx, 0);
        let along = grid.jump_straight(n, 0, dy);
        if across.is_none() && along.is_none() {
            continue;
        }
        let ni = s.index(n);
        let ng = g + line_cost(c, n);
        if s.slice_spent() {
            // No expansion left in this slice: the jump point waits in the open list
            // and its expansion, with this diagonal arrival, goes on from it.
            relax(s, j, grid, n, ng, c, f);
            return Ok(());
        }
        if !claim(s, grid, ni, ng, toward(n, c)) {
            return Ok(());
        }
        s.tick()?;
        for p in [across, along].into_iter().flatten() {
            relax(s, j, grid, p, ng + line_cost(n, p), n, f);
        }
        (c, g) = (n, ng);
    }
}

/// Records the diagonal jump point `ni` reached with cost `g` from the direction
/// `to_parent`; true when the caller should expand it now. A node in the heap only gets
/// its key lowered (it is expanded when popped); closed nodes and nodes with a cost as
/// low are left alone; a node expanded on the spot before is expanded again.
#[inline]
fn claim(s: &mut SearchState, grid: &Grid, ni: u32, g: Cost, to_parent: Direction) -> bool {
    if !s.is_seen(ni) {
        s.open(ni, g, to_parent);
        return true;
    }
    if s.is_closed(ni) || g >= s.g(ni) {
        return false;
    }
    s.open(ni, g, to_parent);
    if !s.heap().contains(ni) {
        return true;
    }
    let h = grid.h(s.cell(ni));
    s.heap().decrease_key(ni, g + h, h);
    false
}

/// Offers the jump point `p` with cost `g`, reached from the cell `from`, to the open
/// list while expanding a node whose f is `f_now`.
///
/// A new node with f equal to `f_now` goes to `j.next` instead of the heap: with a
/// consistent heuristic, f never decreases along the expansion order, so such a node is
/// as good as the heap's minimum, its cost is already optimal and it never needs a
/// decrease-key. A seen node given a lower cost gets its key lowered, or is put back in
/// the heap if it had been expanded on the spot (the heap's decrease-key inserts it).
#[inline]
fn relax(
    s: &mut SearchState,
    j: &mut JpsState,
    grid: &Grid,
    p: Cell,
    g: Cost,
    from: Cell,
    f_now: Cost,
) {
    let pi = s.index(p);
    if s.is_closed(pi) {
        return;
    }
    let h = grid.h(p);
    if !s.is_seen(pi) {
        s.open(pi, g, toward(p, from));
        if g + h == f_now {
            j.next.push(pi);
        } else {
            s.heap().push(pi, g + h, h);
        }
    } else if g < s.g(pi) {
        s.open(pi, g, toward(p, from));
        s.heap().decrease_key(pi, g + h, h);
    }
}
