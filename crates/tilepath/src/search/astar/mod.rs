//! A*, Dijkstra and greedy best-first: one best-first engine with three priorities.
//!
//! The engine is the zero-garbage binary-heap A* this crate grew from: the open list is
//! a heap with an index map (an [`IndexedHeap`](super::IndexedHeap), 4-ary here, with
//! decrease-key in place and no duplicates) or, for A* and Dijkstra, a monotone
//! [`RadixQueue`] with lazy deletion ([`OpenList`]); ties go toward lower h, then lower
//! node id, with either; every collection is reused between queries, and
//! [`crate::search::Limits`] caps the expansions. Guided by a weighted layer's
//! landmark table, A\* also jumps over locally uniform terrain ([`jumps`]).
//!
//! Complexity: O(n log n) for n expanded cells with the heap, O(n (log k + 64)) with
//! the radix queue (k the largest set of open cells of one key); each cell is expanded
//! at most once, the octile heuristic being consistent. Memory: the shared records (8
//! bytes per cell), and heap positions (4 bytes per cell) and entries (16 bytes per
//! open cell) or radix entries (16 bytes per push), reused.

use super::carry::{self, Labels};
use super::costs::{Step, StepCosts};
use super::landmark::Landmark;
use super::query::{OpenList, PathError, PathQuery};
use super::state::SearchState;
use crate::grid::{Cell, Connectivity, Cost, Direction};
use crate::scenario::Layer;
use crate::shape::{GridShape, Hexagons, Shape, Squares};
use jumps::{jump_from, natural};
use open::{Heap, Queue, Radix};

pub(crate) use open::AStarState;

mod jumps;
mod open;

/// Which priority the open list uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// f = g + h, ties toward lower h. Optimal; expands the fewest cells of the optimal ones.
    AStar,
    /// f = g. Optimal; expands every cell closer than the goal. Use as a reference.
    Dijkstra,
    /// f = h, ties toward lower g. Fast on open maps, paths can be far from shortest.
    Greedy,
}

#[inline]
fn priority(mode: Mode, g: Cost, h: Cost) -> (Cost, Cost) {
    match mode {
        Mode::AStar => (g + h, h),
        Mode::Dijkstra => (g, h),
        Mode::Greedy => (h, g),
    }
}

/// Runs the engine from `query.start` to `query.goal` (both free, distinct), or goes on
/// with a search suspended by its slice (`resume`; same query, map and costs), with the
/// step costs `costs` (unit costs on uniform layers, terrain weights otherwise; the
/// heuristic is the octile distance times the smallest weight, or the larger of that and
/// the `guide`'s landmark bound when there is one). On success `s.path` holds the cells.
///
/// In A* mode a successor whose f equals the f of the node being expanded skips the
/// heap and is expanded next (from `a.next`): with a consistent heuristic no open node
/// has a smaller f, so its g is already optimal and the expansion order stays valid.
/// On octile grids most successors qualify, which saves most heap operations.
///
/// The open list is the query's [`OpenList`], except in greedy mode, whose keys are not
/// monotone, which always runs on the heap. A resumed search must keep its query. The
/// layer's shape and the open list are decided here, once: the loop is compiled for
/// each ([`Shape`]).
///
/// # Errors
///
/// [`PathError::LimitReached`] from the limits; [`PathError::NotFound`] when the
/// start's region is exhausted without reaching the goal.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    s: &mut SearchState,
    a: &mut AStarState,
    layer: &Layer,
    query: &PathQuery,
    mode: Mode,
    costs: impl StepCosts,
    resume: bool,
    guide: Option<Landmark<'_>>,
) -> Result<Step, PathError> {
    match layer.shape() {
        GridShape::Square => search_in(Squares, s, a, layer, query, mode, costs, resume, guide),
        GridShape::Hex(layout) => {
            let shape = Hexagons(layout);
            search_in(shape, s, a, layer, query, mode, costs, resume, guide)
        }
    }
}

/// [`search`] on the grid shape `shape` (the layer's).
#[allow(clippy::too_many_arguments)]
fn search_in(
    shape: impl Shape,
    s: &mut SearchState,
    a: &mut AStarState,
    layer: &Layer,
    query: &PathQuery,
    mode: Mode,
    costs: impl StepCosts,
    resume: bool,
    guide: Option<Landmark<'_>>,
) -> Result<Step, PathError> {
    if query.open_list == OpenList::Radix && mode != Mode::Greedy {
        search_on::<Radix>(shape, s, a, layer, query, mode, costs, resume, guide)
    } else {
        search_on::<Heap>(shape, s, a, layer, query, mode, costs, resume, guide)
    }
}

/// [`search`] on the grid shape `shape` (the layer's) and the open list `Q`.
#[allow(clippy::too_many_arguments)]
fn search_on<Q: Queue>(
    shape: impl Shape,
    s: &mut SearchState,
    a: &mut AStarState,
    layer: &Layer,
    query: &PathQuery,
    mode: Mode,
    costs: impl StepCosts,
    resume: bool,
    guide: Option<Landmark<'_>>,
) -> Result<Step, PathError> {
    let goal = query.goal;
    let radius = i64::from(query.options.goal_radius);
    let start_i = s.index(query.start);
    let octile = query.options.connectivity == Connectivity::Octile;
    let shortcut = mode == Mode::AStar;
    let h = heuristic(shape, query, costs.heuristic_scale(), guide);
    let offsets = s.step_offsets();
    if !resume {
        Q::reset(s, a);
        a.next.clear();
        a.reopen = false;
        s.open(start_i, 0, Direction::East);
        let (k, t) = priority(mode, 0, h(query.start));
        Q::push(s, a, start_i, k, t);
    }
    let reopen = a.reopen;
    // Interior jumps: only A* guided by a layer's table, on octile moves.
    let interior = guide
        .as_ref()
        .and_then(|g| g.interior())
        .filter(|_| mode == Mode::AStar && octile && radius == 0 && !reopen);
    if interior.is_some() {
        let n = s.size().area();
        if a.arrivals.len() < n {
            a.arrivals.resize(n, 0);
        }
        if !resume {
            a.arrivals[start_i as usize] = 0;
        }
    }
    loop {
        if s.slice_spent() {
            return Ok(Step::Suspended);
        }
        // A node from `next` has the key of the node that sent it there.
        let i = match a.next.pop() {
            Some(i) => i,
            None => match Q::pop(s, a) {
                Some((i, key)) => {
                    a.key = key;
                    i
                }
                None => break,
            },
        };
        let c = s.cell(i);
        if let Some(g) = &guide {
            // The table rows and records the expansion reads (see `crate::prefetch`).
            g.prefetch_block(c);
            s.prefetch_block(i);
        }
        if i64::from(shape.steps(c, goal)) <= radius {
            return s.build_path(i, costs).map(|()| Step::Found);
        }
        s.close(i);
        s.tick()?;
        // In A* mode the key is f = g + h, read rather than computed again (the only
        // mode that reads it).
        let f = a.key;
        debug_assert!(!shortcut || f == s.g(i) + h(c));
        let moves = layer.moves_on(shape, c, octile);
        let Some(bits) = interior else {
            expand_all::<Q>(
                s, a, i, c, moves, reopen, mode, shortcut, f, &costs, &h, offsets,
            );
            continue;
        };
        // Jumping: `i`'s directions, then those of closed nodes that gained an
        // arrival direction at the same g (their new successors have f >= the f being
        // expanded, so the order stays valid).
        let first = match a.arrivals[i as usize] {
            m if m != 0 && !bits.rows.get_or(c, true) => natural(m) & moves,
            _ => moves,
        };
        a.again.push((i, first));
        while let Some((node, dirs)) = a.again.pop() {
            jump_from::<Q>(
                s, a, bits, node, dirs, goal, shortcut, f, &costs, &h, offsets,
            );
        }
    }
    Err(s.not_found())
}

/// Expands node `i` (at cell `c`) into each move of `moves` (its legal moves): plain
/// A*, Dijkstra or greedy.
#[allow(clippy::too_many_arguments)]
#[inline]
fn expand_all<Q: Queue>(
    s: &mut SearchState,
    a: &mut AStarState,
    i: u32,
    c: Cell,
    moves: u8,
    reopen: bool,
    mode: Mode,
    shortcut: bool,
    f: Cost,
    costs: &impl StepCosts,
    h: &impl Fn(Cell) -> Cost,
    offsets: [u32; 8],
) {
    let g = s.g(i);
    let relax = |n: Cell, ni: u32, d: Direction, s: &mut SearchState, a: &mut AStarState| {
        let closed = s.is_closed(ni);
        if closed && !reopen {
            return;
        }
        let ng = g + costs.step(i, ni, d);
        if closed {
            // Only after map edits (see `repair`): a cheaper way to a closed node.
            if ng < s.g(ni) {
                s.open(ni, ng, d.opposite());
                let (k, t) = priority(mode, ng, h(n));
                Q::push(s, a, ni, k, t);
            }
            return;
        }
        if !s.is_seen(ni) {
            s.open(ni, ng, d.opposite());
            let nh = h(n);
            if shortcut && ng + nh == f {
                a.next.push(ni);
            } else {
                let (k, t) = priority(mode, ng, nh);
                Q::push(s, a, ni, k, t);
            }
        } else if ng < s.g(ni) {
            // Only queued nodes get here: a node sent to `next` already has its optimal g.
            s.open(ni, ng, d.opposite());
            let (k, t) = priority(mode, ng, h(n));
            Q::lower(s, a, ni, k, t);
        }
    };
    // Straight moves first, then diagonals (even then odd direction indices).
    for mut part in [moves & 0x55, moves & 0xAA] {
        while part != 0 {
            let k = part.trailing_zeros() as usize;
            part &= part - 1;
            let d = Direction::ALL[k];
            relax(c.step(d), i.wrapping_add(offsets[k]), d, s, a);
        }
    }
}

/// The heuristic of `query`: the octile (or Manhattan) distance to the nearest cell of
/// the goal area (the goal itself for radius 0) times `scale`, a distance to a set and
/// so consistent; with a landmark `guide` (only ever given for radius 0), the larger of
/// that and the landmark bound, consistent too.
fn heuristic<'g>(
    shape: impl Shape + 'g,
    query: &PathQuery,
    scale: Cost,
    guide: Option<Landmark<'g>>,
) -> impl Fn(Cell) -> Cost + 'g {
    let goal = query.goal;
    let radius = query.options.goal_radius;
    let conn = query.options.connectivity;
    move |c: Cell| {
        if radius == 0 {
            let octile = shape.distance(conn, c, goal) * scale;
            return guide.map_or(octile, |l| octile.max(l.h(c)));
        }
        shape.distance_to_area(conn, c, goal, radius) * scale
    }
}

/// Carries a search suspended on an earlier map over the edits of `edited` (cells whose
/// obstacle bit or terrain changed since), so that resuming it on `layer` answers
/// exactly as a fresh search would, in cost: the three passes of
/// [`carry`](super::carry) over the seen nodes (broken or repriced ways forgotten,
/// forgotten nodes re-seeded from closed ones, closed nodes near the edits relaxed
/// again), after which a closed node reached more cheaply is opened again (`reopen`),
/// which A* with a consistent heuristic allows. `costs` are the step costs of the map as
/// it is now, and must be of the same kind (unit or weighted) and have the same
/// [`StepCosts::heuristic_scale`] as those the search started with: the open nodes keep
/// the keys that heuristic gave them. The caller still checks the path it returns
/// against the map.
///
/// Needs the heap open list (keys may drop below the last one popped, which the radix
/// queue cannot take) and no landmark guide. O(e (d + 3)²) for e edited cells and
/// diameter d, plus the forgotten nodes, plus O(log n) per node opened. Returns false
/// (start the search over) when the edits cut the way of more than
/// [`carry::MAX_FORGOTTEN`] nodes.
#[must_use]
pub(crate) fn repair(
    s: &mut SearchState,
    a: &mut AStarState,
    layer: &Layer,
    query: &PathQuery,
    mode: Mode,
    costs: impl StepCosts,
    edited: impl Iterator<Item = Cell> + Clone,
) -> bool {
    debug_assert!(mode != Mode::Greedy && query.open_list != OpenList::Radix);
    let h = heuristic(layer.shape(), query, costs.heuristic_scale(), None);
    // Nodes waiting in `next` had the smallest f; keys may now drop below it, so every
    // open node goes through the heap.
    while let Some(i) = a.next.pop() {
        let (k, t) = priority(mode, s.g(i), h(s.cell(i)));
        Heap::push(s, a, i, k, t);
    }
    a.reopen = true;
    let octile = query.options.connectivity == Connectivity::Octile;
    let mut seen = Seen { s, mode, h };
    let step = |from, to, d| costs.step(from, to, d);
    carry::carry_over(&mut seen, layer, octile, step, edited, &mut a.forgotten)
}

/// A suspended search's nodes as [`carry::carry_over`] sees them: the start has no way,
/// closed nodes are final, opened nodes go into the heap with their A* priority.
struct Seen<'s, H> {
    s: &'s mut SearchState,
    mode: Mode,
    h: H,
}

impl<H: Fn(Cell) -> Cost> Labels for Seen<'_, H> {
    fn way(&self, i: u32) -> Option<Direction> {
        (self.s.is_seen(i) && self.s.g(i) != 0).then(|| self.s.to_parent(i))
    }

    fn final_cost(&self, i: u32) -> Option<Cost> {
        self.s.is_closed(i).then(|| self.s.g(i))
    }

    fn cost(&self, i: u32) -> Option<Cost> {
        self.s.is_seen(i).then(|| self.s.g(i))
    }

    fn forget(&mut self, i: u32) {
        self.s.heap().remove(i);
        self.s.forget(i);
    }

    fn offer(&mut self, i: u32, cost: Cost, way: Direction) {
        self.s.open(i, cost, way);
        let (key, tie) = priority(self.mode, cost, (self.h)(self.s.cell(i)));
        self.s.heap().decrease_key(i, key, tie);
    }
}
