//! The 4-connected digital line evasion walks, computed per cell instead of stored.

use crate::grid::Cell;

/// The 4-connected digital line from `start` to the goal. Cell `k` (0 = start,
/// [`Line::len`] = goal) is the cell of the anti-diagonal `|x - x0| + |y - y0| = k`
/// nearest the ideal segment, so the line is computed in O(1) per cell and a cell's
/// position on it is found in O(1), without storing it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    start: Cell,
    sx: i32,
    sy: i32,
    dx: i64,
    dy: i64,
}

impl Line {
    pub(super) fn new(start: Cell, goal: Cell) -> Self {
        let sign = |d: i32| if d < 0 { -1 } else { 1 };
        Self {
            start,
            sx: sign(goal.x - start.x),
            sy: sign(goal.y - start.y),
            dx: i64::from(goal.x.abs_diff(start.x)),
            dy: i64::from(goal.y.abs_diff(start.y)),
        }
    }

    /// Index of the goal: the number of straight steps.
    #[inline]
    pub(super) fn len(&self) -> u32 {
        (self.dx + self.dy) as u32
    }

    /// Steps along x among the first `k`: `k * dx / len` rounded half up.
    #[inline]
    fn x_steps(&self, k: i64) -> i64 {
        let n = self.dx + self.dy;
        if n == 0 {
            0
        } else {
            (2 * k * self.dx + n) / (2 * n)
        }
    }

    /// Cell `k` of the line.
    #[inline]
    pub(super) fn cell(&self, k: u32) -> Cell {
        let k = i64::from(k);
        let i = self.x_steps(k);
        Cell::new(
            self.start.x + self.sx * i as i32,
            self.start.y + self.sy * (k - i) as i32,
        )
    }

    /// Position of `c` on the line, if it is a line cell.
    #[inline]
    pub(super) fn index_of(&self, c: Cell) -> Option<u32> {
        let i = i64::from((c.x - self.start.x) * self.sx);
        let j = i64::from((c.y - self.start.y) * self.sy);
        if i < 0 || j < 0 || i > self.dx || j > self.dy {
            return None;
        }
        (self.x_steps(i + j) == i).then_some((i + j) as u32)
    }
}
