//! Preprocessed JPS (JPS+): A* over jump points whose jumps are read from the layer's jump table.
//!
//! The same search as online JPS (the parent module: pruning, forced neighbours, no
//! corner cutting, exactness), but every jump is one read of the layer's
//! [`JumpTable`] instead of a scan: a node's eight jumps sit in 16 bytes. What the
//! table cannot know is the goal, so each jump is made target-aware on the spot:
//!
//! - straight: when the goal lies ahead on the line within the jump's reach (up to
//!   its jump point, or up to the wall), the goal is the successor;
//! - diagonal: when the goal lies in the quadrant ahead and the row or column through
//!   it is crossed within the jump's reach, the walk stops at the crossing cell (from
//!   there a straight jump reaches the goal if anything does; if a wall is in the way
//!   the walk goes on along the diagonal from it).
//!
//! Otherwise a straight jump that ends on a jump point gives that point as the
//! successor, and one that ends at a wall gives nothing. A diagonal is walked from one
//! diagonal jump point to the next, one table read per hop, and each one is expanded on
//! the spot (its two straight jumps relaxed) instead of going through the open list:
//! the intermediate diagonal nodes of "Improving Jump Point Search" (Harabor and
//! Grastien, ICAPS 2014) never reach the heap. A successor whose f equals the f being
//! expanded is expanded next without going through the heap, as in online JPS and A*.
//!
//! The open list is a heap without per-node positions (the `open` module's `LazyHeap`):
//! a node given a lower cost is pushed again and its old entry is skipped when popped,
//! which saves the scattered position writes of the indexed heap.
//!
//! Complexity: O(n log n) for n jump points, O(1) per jump. Memory: the shared records
//! (8 bytes per cell) and 16 bytes per open-list entry, plus the table, 16 bytes per
//! cell, which belongs to the layer and is shared by every pathfinder.
//!
//! When to use: uniform octile layers that are searched many times between edits. The
//! table takes O(area) to build once; edits keep it exact incrementally (see
//! [`JumpTable`]). Against online JPS it saves the scans, which are most of the time on
//! open maps; on mazes and random obstacles, where jumps are a few cells long, both do
//! about the same work.

use super::JpsState;
use crate::grid::{Cell, Cost, DIAGONAL, Direction, STRAIGHT, octile_cost};
use crate::scenario::{JumpTable, Layer};
use crate::search::costs::{Step, UnitCosts};
use crate::search::query::{PathError, PathQuery};
use crate::search::state::SearchState;

/// Directions worth jumping in from a node reached by a move in direction `a` (row
/// `a`; row 8 is the start), for each set of legal moves from it (bit `d` set when the
/// node's jump table entry in direction `d` is not `Wall(0)`): the natural direction
/// and the forced ones, restricted to the legal moves.
///
/// The legal moves are all the pruning needs. After a straight move `a` the cell one
/// step back is free (the move came through it), so the side cell `s` is free while the
/// cell beside it one step back is blocked exactly when the straight move to `s` is
/// legal and the diagonal move between `s` and back is not.
static SUCCESSORS: [[u8; 256]; 9] = successors_table();

const fn bit(direction: usize) -> u8 {
    1 << (direction % 8)
}

const fn successors_table() -> [[u8; 256]; 9] {
    let mut table = [[0u8; 256]; 9];
    let mut legal = 0;
    while legal < 256 {
        table[8][legal] = legal as u8;
        let mut a = 0;
        while a < 8 {
            let set = if a & 1 == 1 {
                bit(a) | bit(a + 7) | bit(a + 1)
            } else {
                // (side, diagonal between side and move, diagonal between side and back)
                let sides = [(a + 6, a + 7, a + 5), (a + 2, a + 1, a + 3)];
                let mut set = bit(a);
                let mut k = 0;
                while k < 2 {
                    let (side, ahead, back) = sides[k];
                    if legal as u8 & bit(side) != 0 && legal as u8 & bit(back) == 0 {
                        set |= bit(side) | bit(ahead);
                    }
                    k += 1;
                }
                set
            };
            table[a][legal] = set & legal as u8;
            a += 1;
        }
        legal += 1;
    }
    table
}

/// The legal moves from a cell as a bit set over direction indices: its jumps that are
/// not `Wall(0)`.
#[inline(always)]
fn legal_moves(jumps: &[i16; 8]) -> u8 {
    let mut legal = 0;
    for (d, &k) in jumps.iter().enumerate() {
        legal |= u8::from(k != 0) << d;
    }
    legal
}

/// Id offsets of one step per direction, and the search's fixed inputs.
struct Ctx<'a> {
    table: &'a JumpTable,
    goal: Cell,
    offsets: [u32; 8],
}

/// Runs JPS+ from `query.start` to `query.goal` (both free, distinct) on `layer` with its
/// jump `table`, or goes on with a search suspended by its slice (`resume`; same query,
/// map and table). On success `s.path` holds every cell of a shortest octile path.
///
/// # Errors
///
/// [`PathError::LimitReached`] from the limits; [`PathError::NotFound`] when the
/// start's region is exhausted without reaching the goal.
pub(crate) fn search(
    s: &mut SearchState,
    j: &mut JpsState,
    layer: &Layer,
    table: &JumpTable,
    query: &PathQuery,
    resume: bool,
) -> Result<Step, PathError> {
    debug_assert_eq!(table.size(), layer.size());
    let ctx = Ctx {
        table,
        goal: query.goal,
        offsets: s.step_offsets(),
    };
    let goal_i = s.index(query.goal);
    if !resume {
        j.next.clear();
        j.open.clear();
        let start_i = s.index(query.start);
        s.open(start_i, 0, Direction::East);
        let h0 = h(query.start, query.goal);
        j.open.push(start_i, h0, h0);
    }
    loop {
        if s.slice_spent() {
            return Ok(Step::Suspended);
        }
        let i = match j.next.pop() {
            Some(i) => i,
            None => {
                let Some((key, i)) = j.open.pop() else { break };
                // An entry pushed before the node got a lower cost: skipped. A node's
                // entries have distinct keys (it is pushed again only with a lower one),
                // and only the one equal to its f is live.
                if s.is_closed(i) || key != s.g(i) + h(s.cell(i), ctx.goal) {
                    continue;
                }
                // The heap's new top is likely expanded after this node: start loading
                // its record and jumps now, to overlap with this expansion.
                if let Some(top) = j.open.peek() {
                    std::hint::black_box((s.is_seen(top), ctx.table.entries(top)[0]));
                }
                i
            }
        };
        if i == goal_i {
            return s.build_path(goal_i, UnitCosts).map(|()| Step::Found);
        }
        s.close(i);
        s.tick()?;
        expand(s, j, &ctx, i)?;
    }
    Err(s.not_found())
}

/// Octile distance between two cells.
#[inline(always)]
fn h(c: Cell, goal: Cell) -> Cost {
    octile_cost(
        Cost::from((c.x - goal.x).unsigned_abs()),
        Cost::from((c.y - goal.y).unsigned_abs()),
    )
}

/// Steps of the jump from `c` in direction `d` whose table entry is `k`, made
/// target-aware: to the goal (straight) or to the goal's row or column (diagonal) when
/// that lies ahead within the jump's reach, else to the table's jump point; `None` when
/// the jump ends at a wall. O(1).
#[inline(always)]
fn jump_steps(c: Cell, goal: Cell, d: usize, k: i32) -> Option<i32> {
    let (dx, dy) = Direction::ALL[d].delta();
    let (gx, gy) = (goal.x - c.x, goal.y - c.y);
    let to_goal = if d & 1 == 0 {
        if (dx != 0 && gy == 0 && gx.signum() == dx) || (dy != 0 && gx == 0 && gy.signum() == dy) {
            gx.abs() + gy.abs()
        } else {
            0
        }
    } else if gx.signum() == dx && gy.signum() == dy {
        gx.abs().min(gy.abs())
    } else {
        0
    };
    if to_goal > 0 && to_goal <= k.abs() {
        Some(to_goal)
    } else if k > 0 {
        Some(k)
    } else {
        None
    }
}

/// Expands node `i`: one table read per straight direction left by pruning, and a walk
/// along each diagonal one (see [`walk_diagonal`]).
#[inline]
fn expand(s: &mut SearchState, j: &mut JpsState, ctx: &Ctx, i: u32) -> Result<(), PathError> {
    let c = s.cell(i);
    let g = s.g(i);
    let f = g + h(c, ctx.goal);
    let arrival = if g == 0 {
        8
    } else {
        s.to_parent(i).opposite() as usize
    };
    let jumps = ctx.table.entries(i);
    let dirs = SUCCESSORS[arrival][usize::from(legal_moves(jumps))];
    relax_straight(s, j, ctx, i, c, g, jumps, dirs & STRAIGHT_DIRS, f);
    let mut diagonals = dirs & !STRAIGHT_DIRS;
    while diagonals != 0 {
        let d = diagonals.trailing_zeros() as usize;
        diagonals &= diagonals - 1;
        walk_diagonal(s, j, ctx, i, c, g, d, f)?;
    }
    Ok(())
}

/// The straight directions as a bit set over direction indices.
const STRAIGHT_DIRS: u8 = 0b0101_0101;

/// Relaxes the straight jumps in `dirs` from node `i` (cell `c`, cost `g`, entries
/// `jumps`) while expanding a node whose f is `f_now`. First every successor's id,
/// reading its record so that the cache misses of up to four successors overlap; then
/// the relaxations, which find them in cache.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn relax_straight(
    s: &mut SearchState,
    j: &mut JpsState,
    ctx: &Ctx,
    i: u32,
    c: Cell,
    g: Cost,
    jumps: &[i16; 8],
    mut dirs: u8,
    f_now: Cost,
) {
    let mut found = [(0u32, 0usize, 0i32); 4];
    let mut n = 0;
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let Some(steps) = jump_steps(c, ctx.goal, d, i32::from(jumps[d])) else {
            continue;
        };
        let pi = i.wrapping_add(ctx.offsets[d].wrapping_mul(steps as u32));
        std::hint::black_box(s.is_seen(pi));
        found[n] = (pi, d, steps);
        n += 1;
    }
    for &(pi, d, steps) in &found[..n] {
        let (dx, dy) = Direction::ALL[d].delta();
        let p = Cell::new(c.x + dx * steps, c.y + dy * steps);
        let to_parent = Direction::ALL[(d + 4) % 8];
        relax(
            s,
            j,
            ctx,
            p,
            pi,
            g + STRAIGHT * steps as Cost,
            to_parent,
            f_now,
        );
    }
}

/// Walks the diagonal `d` from node `i` (cell `c`, cost `g`) from one diagonal jump
/// point to the next, one table read per hop, while expanding a node whose f is
/// `f_now`. Each diagonal jump point (or the cell where the diagonal crosses the
/// goal's row or column) is recorded with its cost and parent and expanded on the
/// spot: its two straight jumps are relaxed and the walk goes on from it, so it never
/// goes through the open list. The walk ends at a wall, at the goal, or at a node that
/// already has a cost as low (its own expansion covers the rest of the diagonal).
/// When the slice is spent ([`SearchState::slice_spent`]) the next such node is offered
/// to the open list instead and the walk ends: it is expanded from there with the same
/// diagonal arrival, hence the same successors, so a slice never expands more nodes
/// than its budget. Unsliced searches (budget `u32::MAX`) never take that branch.
/// O(1) per hop.
#[allow(clippy::too_many_arguments)]
fn walk_diagonal(
    s: &mut SearchState,
    j: &mut JpsState,
    ctx: &Ctx,
    i: u32,
    c: Cell,
    g: Cost,
    d: usize,
    f_now: Cost,
) -> Result<(), PathError> {
    let (dx, dy) = Direction::ALL[d].delta();
    let to_parent = Direction::ALL[(d + 4) % 8];
    let components = bit(d + 7) | bit(d + 1);
    let (mut ni, mut n, mut ng) = (i, c, g);
    loop {
        let k = i32::from(ctx.table.entries(ni)[d]);
        let Some(steps) = jump_steps(n, ctx.goal, d, k) else {
            return Ok(());
        };
        ni = ni.wrapping_add(ctx.offsets[d].wrapping_mul(steps as u32));
        n = Cell::new(n.x + dx * steps, n.y + dy * steps);
        ng += DIAGONAL * steps as Cost;
        if n == ctx.goal {
            relax(s, j, ctx, n, ni, ng, to_parent, f_now);
            return Ok(());
        }
        if s.slice_spent() {
            // No expansion left in this slice: the jump point waits in the open list
            // and its expansion, with this diagonal arrival, goes on from it.
            relax(s, j, ctx, n, ni, ng, to_parent, f_now);
            return Ok(());
        }
        if !claim(s, ni, ng, to_parent) {
            return Ok(());
        }
        s.tick()?;
        let jumps = ctx.table.entries(ni);
        relax_straight(s, j, ctx, ni, n, ng, jumps, components, f_now);
    }
}

/// Records the diagonal jump point `ni` reached with cost `g` from the direction
/// `to_parent`; true when the caller should expand it now. Closed nodes and nodes with
/// a cost as low are left alone. Any other node is expanded now with its new cost, also
/// one expanded on the spot before or one in the heap (its entry goes stale and is
/// skipped when popped). Nodes waiting in `j.next` never get a lower cost, so they are
/// never met here with one.
#[inline]
fn claim(s: &mut SearchState, ni: u32, g: Cost, to_parent: Direction) -> bool {
    if s.is_seen(ni) && (s.is_closed(ni) || g >= s.g(ni)) {
        return false;
    }
    s.open(ni, g, to_parent);
    true
}

/// Offers the jump point `p` (id `pi`) with cost `g`, its parent toward `to_parent`, while
/// expanding a node whose f is `f_now`: a new node with that f goes to `j.next` (its
/// cost is already optimal), other new nodes to the heap, and a seen node given a lower
/// cost is pushed again with its new key (its older entry goes stale; nodes in
/// `j.next` never get a lower cost).
#[allow(clippy::too_many_arguments)]
#[inline]
fn relax(
    s: &mut SearchState,
    j: &mut JpsState,
    ctx: &Ctx,
    p: Cell,
    pi: u32,
    g: Cost,
    to_parent: Direction,
    f_now: Cost,
) {
    if s.is_closed(pi) {
        return;
    }
    let hp = h(p, ctx.goal);
    if !s.is_seen(pi) {
        s.open(pi, g, to_parent);
        if g + hp == f_now {
            // Expanded soon: start loading its jumps now.
            std::hint::black_box(ctx.table.entries(pi)[0]);
            j.next.push(pi);
        } else {
            j.open.push(pi, g + hp, hp);
        }
    } else if g < s.g(pi) {
        s.open(pi, g, to_parent);
        j.open.push(pi, g + hp, hp);
    }
}
