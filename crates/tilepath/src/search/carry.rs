//! Carrying a growing search over map edits: the three passes that a suspended A* and a distance field share.
//!
//! A search that grows from a root (A*'s start, a field's goal) labels cells with a cost
//! and the direction of the neighbour that cost came from (its parent); some labels are
//! final (closed, settled), the others wait in an open list. After cells of the map were
//! blocked or freed, or given another terrain (their weight changed), [`carry_over`]
//! brings those labels to what the same search would know on the new map, without
//! starting over. The passes read the grid's shape through the layer's legal moves and
//! the step costs, so they are the same on squares and on hexagons.
//!
//! 1. *Broken ways.* Near an edit, a label whose cell is now blocked, whose move from
//!    its parent is no longer legal (a corner closed), or whose cost is no longer its
//!    parent's cost plus the step between them on the new map (the step got dearer or
//!    cheaper, or the parent lost its label or was reached more cheaply since) lost its
//!    way; so did every cell whose chain of parents runs through it. They are forgotten
//!    (unlabelled, out of the open list), found by following the directions backwards,
//!    O(their count).
//! 2. *Re-seeding.* Each forgotten free cell takes the best cost its final neighbours
//!    offer on the new map, as their expansion would have given it, and is opened.
//! 3. *New moves.* Freed cells, freed corners and cheaper steps add moves that final
//!    cells never made: every final cell near an edit offers its moves on the new map
//!    again, and a neighbour reached more cheaply is opened, final before or not. The
//!    search must allow a final cell to open again from then on.
//!
//! "Near" is [`MapChange::moves_area`] of each edited cell: the cells whose freedom may
//! change and their neighbours. A step's cost reads the weights of its two ends only, so
//! it changes only for moves to or from an edited cell, both ends of which lie there.
//!
//! Exactness, on either shape: a label far from every edit kept its legal move and its
//! step cost, and pass 1 checked those near the edits, so afterwards every label's cost
//! is the cost of its chain of parents on the new map, a way there; and every final cell
//! has offered every move it has on the new map (far from the edits its moves and their
//! costs are the ones it offered when it was expanded; near them pass 3 offered them
//! again; a neighbour that lost its label took the best offer again in pass 2). That is
//! what the exactness of Dijkstra and of A* with a consistent heuristic rests on, once
//! final cells may open again; the heuristic must be the one the search started with.
//! O(e (d + 3)²) for e edited cells and diameter d, plus the forgotten cells, plus
//! O(log n) per cell opened. The work is done at once, so it stops when more than
//! [`MAX_FORGOTTEN`] labels would be forgotten (a wall near the root can cut the way of
//! most of them): the search is then better started over, in slices.

use crate::grid::{Cell, Cost, Direction};
use crate::scenario::{Layer, MapChange};

/// The most labels one carry-over forgets before giving up (about a millisecond of
/// work, done outside any frame budget).
pub(crate) const MAX_FORGOTTEN: usize = 16_384;

/// The labels of a growing search, by cell id (`GridSize::index`), as [`carry_over`]
/// reads and changes them.
pub(crate) trait Labels {
    /// The direction from cell `i` toward the neighbour its cost came from, or `None`
    /// when `i` has no label or is the root.
    fn way(&self, i: u32) -> Option<Direction>;
    /// The cost of cell `i` when it is final (closed, settled).
    fn final_cost(&self, i: u32) -> Option<Cost>;
    /// The cost of cell `i` when it has a label, final or open.
    fn cost(&self, i: u32) -> Option<Cost>;
    /// Drops the label of cell `i` and takes it out of the open list.
    fn forget(&mut self, i: u32);
    /// Labels cell `i` with `cost`, found by way of the neighbour toward `way`, and puts
    /// it in the open list (or lowers its key there), final or not before.
    fn offer(&mut self, i: u32, cost: Cost, way: Direction);
}

/// Runs the three passes of the module docs over `labels` for the cells of `edited`
/// (blocked, freed or given another terrain since the labels were made), on `layer` as
/// it is now. `step(from, to, d)` is the cost of the move from cell id `from` to its
/// neighbour `to` in direction `d` on the map as it is now; `octile` allows diagonal
/// moves; `forgotten` is scratch. Returns false,
/// with the labels half carried over (start the search over), when more than
/// [`MAX_FORGOTTEN`] labels lost their way.
#[must_use]
pub(crate) fn carry_over<L: Labels>(
    labels: &mut L,
    layer: &Layer,
    octile: bool,
    step: impl Fn(u32, u32, Direction) -> Cost,
    edited: impl Iterator<Item = Cell> + Clone,
    forgotten: &mut Vec<u32>,
) -> bool {
    let size = layer.size();
    let id = |c: Cell| size.index(c) as u32;
    let areas = || {
        edited
            .clone()
            .map(move |cell| MapChange::moves_area(layer.shape(), cell, layer.diameter(), size))
    };
    // 1. Broken ways (a blocked cell, an illegal or repriced move from the parent), and
    // everything found through them.
    forgotten.clear();
    for area in areas() {
        for c in area.cells() {
            let i = id(c);
            let Some(way) = labels.way(i) else {
                continue;
            };
            if layer.is_blocked(c)
                || layer.legal_moves(c, octile) & (1 << way as u8) == 0
                || !costs_its_parents(labels, &step, i, id(c.step(way)), way)
            {
                labels.forget(i);
                forgotten.push(i);
            }
            if forgotten.len() > MAX_FORGOTTEN {
                return false;
            }
        }
    }
    let mut k = 0;
    while k < forgotten.len() {
        let c = size.cell(forgotten[k] as usize);
        k += 1;
        for d in Direction::ALL {
            let n = c.step(d);
            if size.contains(n) && labels.way(id(n)) == Some(d.opposite()) {
                labels.forget(id(n));
                forgotten.push(id(n));
            }
        }
        if forgotten.len() > MAX_FORGOTTEN {
            return false;
        }
    }
    // 2. Re-seeding from the final labels that remain.
    for &i in forgotten.iter() {
        let c = size.cell(i as usize);
        if layer.is_blocked(c) {
            continue;
        }
        let mut best: Option<(Cost, Direction)> = None;
        for d in Direction::in_mask(layer.legal_moves(c, octile)) {
            let n = id(c.step(d));
            if let Some(g) = labels.final_cost(n) {
                let g = g + step(n, i, d.opposite());
                if best.is_none_or(|(b, _)| g < b) {
                    best = Some((g, d));
                }
            }
        }
        if let Some((g, way)) = best {
            labels.offer(i, g, way);
        }
    }
    // 3. New moves, and cheaper steps, of final labels.
    for area in areas() {
        for c in area.cells() {
            let i = id(c);
            let Some(g) = labels.final_cost(i).filter(|_| !layer.is_blocked(c)) else {
                continue;
            };
            for d in Direction::in_mask(layer.legal_moves(c, octile)) {
                let n = id(c.step(d));
                let ng = g + step(i, n, d);
                if labels.cost(n).is_none_or(|old| ng < old) {
                    labels.offer(n, ng, d.opposite());
                }
            }
        }
    }
    true
}

/// True when the label of cell `i` costs exactly its parent `p`'s label plus the step
/// from `p` to `i` (in direction `way.opposite()`) as the map is now.
#[inline]
fn costs_its_parents<L: Labels>(
    labels: &L,
    step: &impl Fn(u32, u32, Direction) -> Cost,
    i: u32,
    p: u32,
    way: Direction,
) -> bool {
    let through = labels.cost(p).map(|g| g + step(p, i, way.opposite()));
    through.is_some() && through == labels.cost(i)
}
