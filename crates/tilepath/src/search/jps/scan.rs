//! Word-parallel jumps of JPS: 64 blocked bits per read along rows and transposed columns.

use crate::grid::{Cell, Cost, DIAGONAL, Direction, STRAIGHT, octile_cost};
use crate::scenario::{BitGrid, Layer, window};

/// Goal position meaning "the goal is not on this line".
const NO_GOAL: i64 = i64::MIN;

/// A line being jumped along (`mid`) and the lines on either side of it.
#[derive(Clone, Copy)]
struct Lines<'a> {
    before: &'a [u64],
    mid: &'a [u64],
    after: &'a [u64],
}

impl Lines<'_> {
    /// Scans toward higher positions from `from` (exclusive). Returns the first jump
    /// point: the goal position `goal` if it comes first, else the first free cell with a
    /// forced neighbour; `None` when a blocked cell comes first.
    #[inline(always)]
    fn forward(self, from: i64, goal: i64) -> Option<i64> {
        let mut p = from;
        loop {
            let m = window(self.mid, p);
            let a = window(self.before, p);
            let b = window(self.after, p);
            let stop = (m | (!a & (a << 1)) | (!b & (b << 1))) & !1;
            if stop != 0 {
                let k = stop.trailing_zeros();
                let at = p + i64::from(k);
                if goal > from && goal <= at {
                    return Some(goal);
                }
                return ((m >> k) & 1 == 0).then_some(at);
            }
            p += 63;
        }
    }

    /// Like [`Lines::forward`], toward lower positions.
    #[inline(always)]
    fn backward(self, from: i64, goal: i64) -> Option<i64> {
        let mut p = from;
        loop {
            let m = window(self.mid, p - 63);
            let a = window(self.before, p - 63);
            let b = window(self.after, p - 63);
            let stop = (m | (!a & (a >> 1)) | (!b & (b >> 1))) & !(1 << 63);
            if stop != 0 {
                let k = stop.leading_zeros();
                let at = p - i64::from(k);
                if goal != NO_GOAL && goal < from && goal >= at {
                    return Some(goal);
                }
                return ((m >> (63 - k)) & 1 == 0).then_some(at);
            }
            p -= 63;
        }
    }
}

/// The blocked bits of one layer, seen by the jumps.
pub(super) struct Grid<'a> {
    rows: &'a BitGrid,
    columns: &'a BitGrid,
    width: i32,
    height: i32,
    pub(super) goal: Cell,
}

impl<'a> Grid<'a> {
    pub(super) fn new(layer: &'a Layer, goal: Cell) -> Self {
        let size = layer.size();
        Self {
            rows: layer.bits(),
            columns: layer.column_bits(),
            width: size.width as i32,
            height: size.height as i32,
            goal,
        }
    }

    #[inline(always)]
    fn free(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.width as u32
            && (y as u32) < self.height as u32
            && !self.rows.get_unchecked_cell(x as u32, y as u32)
    }

    /// Line `i` of `grid` (which has `count` lines), or no words (all blocked) off the grid.
    #[inline(always)]
    fn line(grid: &'a BitGrid, i: i32, count: i32) -> &'a [u64] {
        if (i as u32) < count as u32 {
            grid.row(i as u32)
        } else {
            &[]
        }
    }

    #[inline(always)]
    fn row_lines(&self, y: i32) -> Lines<'a> {
        Lines {
            before: Self::line(self.rows, y - 1, self.height),
            mid: Self::line(self.rows, y, self.height),
            after: Self::line(self.rows, y + 1, self.height),
        }
    }

    #[inline(always)]
    fn column_lines(&self, x: i32) -> Lines<'a> {
        Lines {
            before: Self::line(self.columns, x - 1, self.width),
            mid: Self::line(self.columns, x, self.width),
            after: Self::line(self.columns, x + 1, self.width),
        }
    }

    /// Jumps from the free cell `from` in the straight direction `(dx, dy)`.
    #[inline(always)]
    pub(super) fn jump_straight(&self, from: Cell, dx: i32, dy: i32) -> Option<Cell> {
        if dy == 0 {
            let goal = if self.goal.y == from.y {
                i64::from(self.goal.x)
            } else {
                NO_GOAL
            };
            let lines = self.row_lines(from.y);
            let x = if dx > 0 {
                lines.forward(i64::from(from.x), goal)
            } else {
                lines.backward(i64::from(from.x), goal)
            };
            x.map(|x| Cell::new(x as i32, from.y))
        } else {
            let goal = if self.goal.x == from.x {
                i64::from(self.goal.y)
            } else {
                NO_GOAL
            };
            let lines = self.column_lines(from.x);
            let y = if dy > 0 {
                lines.forward(i64::from(from.y), goal)
            } else {
                lines.backward(i64::from(from.y), goal)
            };
            y.map(|y| Cell::new(from.x, y as i32))
        }
    }

    /// True when the diagonal step from `(x, y)` by `(dx, dy)` lands on a free cell
    /// without cutting a corner.
    #[inline(always)]
    pub(super) fn diagonal_step_free(&self, x: i32, y: i32, dx: i32, dy: i32) -> bool {
        self.free(x + dx, y) && self.free(x, y + dy) && self.free(x + dx, y + dy)
    }

    /// Octile distance to the goal.
    #[inline]
    pub(super) fn h(&self, c: Cell) -> Cost {
        octile_cost(
            Cost::from((c.x - self.goal.x).unsigned_abs()),
            Cost::from((c.y - self.goal.y).unsigned_abs()),
        )
    }

    /// Directions to jump from `c`, as a bit set over [`Direction`] discriminants, given
    /// the direction of the move that reached it (`None` for the start: every direction).
    pub(super) fn directions(&self, c: Cell, arrival: Option<Direction>) -> u8 {
        let Some(d) = arrival else {
            return u8::MAX;
        };
        let (dx, dy) = d.delta();
        let bit = |d: Direction| 1u8 << (d as u8);
        if d.is_diagonal() {
            return bit(d) | bit(d.rotate(-1)) | bit(d.rotate(1));
        }
        let mut set = bit(d);
        for turn in [-2, 2] {
            let side = d.rotate(turn);
            let (sx, sy) = side.delta();
            if self.free(c.x + sx, c.y + sy) && !self.free(c.x - dx + sx, c.y - dy + sy) {
                set |= bit(side) | bit(d.rotate(turn / 2));
            }
        }
        set
    }
}

/// Cost of the straight or diagonal line between two jump points.
#[inline]
pub(super) fn line_cost(a: Cell, b: Cell) -> Cost {
    let n = Cost::from(a.chebyshev(b));
    if a.x != b.x && a.y != b.y {
        n * DIAGONAL
    } else {
        n * STRAIGHT
    }
}

/// The direction from `a` toward `b`, two distinct cells on one straight or diagonal line.
#[inline]
pub(super) fn toward(a: Cell, b: Cell) -> Direction {
    Direction::from_delta((b.x - a.x).signum(), (b.y - a.y).signum()).unwrap_or(Direction::East)
}
