//! Evasion's wall followers: one hand on the obstacle, edge by edge around its contour.

use super::line::Line;
use crate::grid::Cell;
use crate::scenario::Layer;
use crate::search::state::SearchState;

/// The four straight steps, clockwise on screen (y grows downwards): east, south, west, north.
pub(super) const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

#[inline]
pub(super) fn offset(c: Cell, dir: usize) -> Cell {
    let (dx, dy) = STEPS[dir];
    Cell::new(c.x + dx, c.y + dy)
}

/// Which hand a follower keeps on the wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hand {
    Left,
    Right,
}

impl Hand {
    /// Quarter turns clockwise from the wall direction to the heading.
    #[inline]
    fn turn(self) -> usize {
        match self {
            Hand::Left => 1,
            Hand::Right => 3,
        }
    }
}

/// What one follower step ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Still following the wall.
    Moved,
    /// Stands on line cell `k`, beyond the collision.
    Rejoined(u32),
    /// Back on its first wall edge: the contour never meets the line again.
    Closed,
}

/// A wall follower. Its state is a wall edge: the free cell it stands on and the
/// direction of the blocked neighbour its hand touches. Following edges (rather than
/// cells) makes the walk a permutation of wall edges, so it returns to its first edge
/// after exactly one lap of the contour.
#[derive(Clone, Copy, Debug)]
pub(super) struct Follower {
    hand: Hand,
    cell: Cell,
    wall: usize,
    origin: (Cell, usize),
    /// Cells entered so far.
    pub(super) moved: u64,
    /// Wall edges visited so far.
    pub(super) edges: u64,
    /// Rejoined, or stopped because it cannot beat the other side.
    pub(super) done: bool,
}

impl Follower {
    pub(super) fn new(hand: Hand, cell: Cell, wall: usize) -> Self {
        Self {
            hand,
            cell,
            wall,
            origin: (cell, wall),
            moved: 0,
            edges: 0,
            done: false,
        }
    }

    /// Moves to the next wall edge: turn away from a wall ahead, go straight along a
    /// wall, or wrap round the wall's corner (two cells). Entered cells are appended to
    /// `out` and stamped seen.
    pub(super) fn step(
        &mut self,
        s: &mut SearchState,
        layer: &Layer,
        line: &Line,
        after: u32,
        out: &mut Vec<Cell>,
    ) -> Step {
        self.edges += 1;
        let turn = self.hand.turn();
        let heading = (self.wall + turn) & 3;
        let front = offset(self.cell, heading);
        if layer.is_blocked(front) {
            self.wall = heading;
        } else {
            if let Some(k) = self.enter(front, s, line, after, out) {
                return Step::Rejoined(k);
            }
            let corner = offset(front, self.wall);
            if !layer.is_blocked(corner) {
                if let Some(k) = self.enter(corner, s, line, after, out) {
                    return Step::Rejoined(k);
                }
                self.wall = (self.wall + 4 - turn) & 3;
            }
        }
        if (self.cell, self.wall) == self.origin {
            Step::Closed
        } else {
            Step::Moved
        }
    }

    #[inline]
    fn enter(
        &mut self,
        c: Cell,
        s: &mut SearchState,
        line: &Line,
        after: u32,
        out: &mut Vec<Cell>,
    ) -> Option<u32> {
        self.cell = c;
        self.moved += 1;
        out.push(c);
        let i = s.index(c);
        if !s.is_seen(i) {
            s.touch(i);
        }
        line.index_of(c).filter(|&k| k > after)
    }
}
