//! Right of way in narrow passages: the one-lane stretches of a unit's path, and which of
//! two units that meet in one goes on.

use bevy::prelude::*;

use crate::grid::{Cell, Direction};
use crate::scenario::Layer;

/// How many cells of a path the passage rules look at, ahead or behind.
pub(crate) const LOOKAHEAD: usize = 16;

/// True when `cell` of a path (between `prev` and `next`, the path's cells before and
/// after it, when there are) is one lane wide on `layer` (the unit's diameter and
/// profile): no cell next to it but those two can be stepped to, so no unit can stand
/// beside it while another passes. O(8).
pub(crate) fn is_one_lane(
    layer: &Layer,
    prev: Option<Cell>,
    cell: Cell,
    next: Option<Cell>,
) -> bool {
    if layer.is_blocked(cell) {
        return false;
    }
    Direction::ALL.into_iter().all(|d| {
        let (dx, dy) = d.delta();
        let n = Cell::new(cell.x + dx, cell.y + dy);
        Some(n) == prev || Some(n) == next || !layer.can_step(cell, n)
    })
}

/// How deep into a one-lane stretch a unit on `cells[at]` of its path is: the number of
/// one-lane cells among the path's cells up to and including `cells[at]`, counted back
/// from there and stopping at the first cell that is not (at most [`LOOKAHEAD`]).
pub(crate) fn depth(layer: &Layer, cells: &[Cell], at: usize) -> usize {
    let at = at.min(cells.len().saturating_sub(1));
    (0..=at)
        .rev()
        .take(LOOKAHEAD)
        .take_while(|&i| lane_at(layer, cells, i))
        .count()
}

/// True when the path's cell `i` is one lane wide (see [`is_one_lane`]).
pub(crate) fn lane_at(layer: &Layer, cells: &[Cell], i: usize) -> bool {
    let prev = i.checked_sub(1).and_then(|p| cells.get(p)).copied();
    cells
        .get(i)
        .is_some_and(|&c| is_one_lane(layer, prev, c, cells.get(i + 1).copied()))
}

/// The one-lane stretch a unit is about to enter: when `cells[next]` is one lane wide
/// and the unit's own cell is not (or it stands off its path), the indices of the
/// stretch's cells from `next` on (at most [`LOOKAHEAD`]); empty otherwise.
pub(crate) fn entering(layer: &Layer, cells: &[Cell], next: usize) -> std::ops::Range<usize> {
    let inside = next
        .checked_sub(1)
        .is_some_and(|here| lane_at(layer, cells, here));
    if inside || !lane_at(layer, cells, next) {
        return next..next;
    }
    let len = (next..cells.len().min(next + LOOKAHEAD))
        .take_while(|&i| lane_at(layer, cells, i))
        .count();
    next..next + len
}

/// Which of two units that meet head-on in a one-lane stretch goes on: the one further
/// into it (by [`depth`]), ties to the smaller entity. True when `me` gives way to
/// `other`. The same two units always get the same answer, whoever asks.
pub(crate) fn gives_way(me: (usize, Entity), other: (usize, Entity)) -> bool {
    (me.0, std::cmp::Reverse(me.1)) < (other.0, std::cmp::Reverse(other.1))
}
