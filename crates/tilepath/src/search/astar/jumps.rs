//! Interior jumps: JPS's pruning where weighted terrain is locally uniform.
//!
//! A* guided by a weighted layer's landmark table ([`Algorithm::Auto`](crate::search::Algorithm::Auto))
//! prunes and jumps where the terrain is locally uniform. A cell is *interior* when it
//! and its eight neighbours are free and weigh the same
//! ([`Layer::build_interior`](crate::scenario::Layer::build_interior), kept current under
//! edits). An interior node goes on only in the *natural* directions of the directions
//! it was reached by at its g: a straight arrival straight on, a diagonal one diagonally
//! and along its two straight parts. A straight move over interior cells jumps to the
//! first cell that is not interior, or to the goal, reading 64 cells per word along the
//! row or the transposed column. Every other node goes on in every legal direction.
//!
//! # Why it stays exact
//!
//! A move of length `l` between cells of weights `a` and `b` costs `l (a + b) / 2`, so
//! every move inside an interior cell's 3×3 block costs `w l`, `w` the block's weight.
//!
//! 1. *Exchange.* A straight step into an interior cell `m` followed by a diagonal step
//!    that shares its straight part costs the same as the diagonal step first and the
//!    straight step after: the other middle cell is in `m`'s block, free, of weight `w`,
//!    and both moves stay legal there. Every other pair of moves that turns at `m` costs
//!    strictly more than a path inside the block (NE then NW against N, N; N then E
//!    against NE; a reversal against nothing).
//! 2. *Canonical paths.* Exchanging repeatedly moves every diagonal step of an optimal
//!    path ahead of the straight steps before it, for as long as the middle cell is
//!    interior. So some optimal path turns, at every interior cell it enters, only in a
//!    natural direction of its arrival, and its straight runs over interior cells are
//!    exactly the jumps, which stop at the goal.
//! 3. *Every arrival.* A node keeps the mask of the directions it was reached by at its
//!    g. A closed interior node that gains one at the same g expands that direction's
//!    natural successors at once. With a consistent bound this happens only at the f
//!    being expanded (`f(x) <= f(n)` by consistency, `f(n) <= f(x)` because `n` closed
//!    first), so the successors' f is not below it and the expansion order stays valid.
//!
//! By induction along the canonical path, each of its nodes is reached at its g with
//! its arrival direction: the search returns an optimal cost. `tests/landmarks.rs`
//! compares every answer of `Auto` with a Dijkstra oracle on random weighted maps under
//! edits, and `tests/terrain.rs` on the generated countryside maps.

use super::super::costs::StepCosts;
use super::super::state::SearchState;
use super::open::{AStarState, Queue};
use crate::grid::{Cell, Cost, Direction};
use crate::scenario::{Stops, window};

/// The directions a node reached by the directions of `arrivals` (bit `k`:
/// `Direction::ALL[k]`) goes on in, under JPS's pruning where its 3×3 block is free and
/// of one weight: a straight arrival goes on straight; a diagonal one goes on
/// diagonally and along its two straight parts.
#[inline]
pub(super) fn natural(arrivals: u8) -> u8 {
    let mut out = arrivals;
    for k in [1usize, 3, 5, 7] {
        if arrivals & (1 << k) != 0 {
            let (a, b) = Direction::ALL[k].components();
            out |= (1 << a as u8) | (1 << b as u8);
        }
    }
    out
}

/// Steps from `c` along the straight direction `d` to the first cell that is not
/// interior (a stop bit of `bits`), or to `goal` when it comes first: at least 1. Reads
/// 64 cells per word, along the row or, for a vertical move, the transposed column.
#[inline]
fn run(bits: &Stops, c: Cell, d: Direction, goal: Cell) -> u32 {
    let (dx, dy) = d.delta();
    let (line, at, step, goal_at) = if dy == 0 {
        (
            bits.rows.row(c.y as u32),
            i64::from(c.x),
            i64::from(dx),
            (goal.y == c.y).then_some(i64::from(goal.x)),
        )
    } else {
        (
            bits.columns.row(c.x as u32),
            i64::from(c.y),
            i64::from(dy),
            (goal.x == c.x).then_some(i64::from(goal.y)),
        )
    };
    // Cells off the line read as stops, so both loops end.
    let stop = if step > 0 {
        let mut p = at + 1;
        loop {
            let w = window(line, p);
            if w != 0 {
                break p + i64::from(w.trailing_zeros());
            }
            p += 64;
        }
    } else {
        let mut p = at - 1;
        loop {
            // Bit 63 is cell `p`.
            let w = window(line, p - 63);
            if w != 0 {
                break p - i64::from(w.leading_zeros());
            }
            p -= 64;
        }
    };
    let mut steps = (stop - at) * step;
    if let Some(g) = goal_at {
        let to_goal = (g - at) * step;
        if to_goal > 0 && to_goal < steps {
            steps = to_goal;
        }
    }
    steps as u32
}

/// Generates the successors of the closed node `i` in the directions `dirs` (legal
/// moves), for an A* search guided by a table whose layer's interior bits are `bits`:
/// a straight move jumps over interior cells to the first cell that is not interior, or
/// the goal; a diagonal move takes one step. A node reached again at its g by a new
/// direction adds it to its arrivals; a closed interior node that does gets the new
/// directions' successors through `a.again`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn jump_from<Q: Queue>(
    s: &mut SearchState,
    a: &mut AStarState,
    bits: &Stops,
    i: u32,
    dirs: u8,
    goal: Cell,
    shortcut: bool,
    f: Cost,
    costs: &impl StepCosts,
    h: &impl Fn(Cell) -> Cost,
    offsets: [u32; 8],
) {
    let g = s.g(i);
    let c = s.cell(i);
    for mut part in [dirs & 0x55, dirs & 0xAA] {
        while part != 0 {
            let k = part.trailing_zeros() as usize;
            part &= part - 1;
            let d = Direction::ALL[k];
            let (mut n, mut ni) = (c.step(d), i.wrapping_add(offsets[k]));
            let mut ng = g + costs.step(i, ni, d);
            if !d.is_diagonal() && !bits.rows.get_or(n, true) {
                // `n` is interior: jump to the first cell that is not, or the goal.
                let steps = run(bits, c, d, goal);
                let unit = costs.step(ni, ni.wrapping_add(offsets[k]), d);
                ng += Cost::from(steps - 1) * unit;
                n = Cell::new(
                    c.x + d.delta().0 * steps as i32,
                    c.y + d.delta().1 * steps as i32,
                );
                ni = s.index(n);
            }
            let bit = 1u8 << k;
            if !s.is_seen(ni) {
                s.open(ni, ng, d.opposite());
                a.arrivals[ni as usize] = bit;
                let nh = h(n);
                if shortcut && ng + nh == f {
                    a.next.push(ni);
                } else {
                    Q::push(s, a, ni, ng + nh, nh);
                }
            } else if ng < s.g(ni) {
                // A closed node reached more cheaply is opened again (the pruned
                // successors depend on how a node was reached).
                let closed = s.is_closed(ni);
                s.open(ni, ng, d.opposite());
                a.arrivals[ni as usize] = bit;
                let nh = h(n);
                if closed {
                    Q::push(s, a, ni, ng + nh, nh);
                } else {
                    Q::lower(s, a, ni, ng + nh, nh);
                }
            } else if ng == s.g(ni) && a.arrivals[ni as usize] & bit == 0 {
                let was = a.arrivals[ni as usize];
                if was == 0 {
                    // The start: every direction was expanded.
                    continue;
                }
                a.arrivals[ni as usize] = was | bit;
                if s.is_closed(ni) && !bits.rows.get_or(n, true) {
                    let extra = natural(was | bit) & !natural(was);
                    if extra != 0 {
                        a.again.push((ni, extra));
                    }
                }
            }
        }
    }
}
