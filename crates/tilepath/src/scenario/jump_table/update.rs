//! Incremental jump-table updates: only the entries a flipped cell can change are recomputed.

use super::{DELTAS, EAST, JumpTable, NORTH, SOUTH, WEST};
use crate::grid::Cell;
use crate::scenario::bitgrid::BitGrid;

/// The diagonals (direction indices) whose jump points read a straight direction's entries.
const DIAGONALS_READING: [[usize; 2]; 8] = {
    let mut t = [[0; 2]; 8];
    t[EAST] = [1, 7];
    t[SOUTH] = [1, 3];
    t[WEST] = [3, 5];
    t[NORTH] = [5, 7];
    t
};

/// The cell-freedom test of `bits` (off-map cells blocked).
fn free(bits: &BitGrid) -> impl Fn(i32, i32) -> bool + '_ {
    |x, y| !bits.get_unchecked_cell(x as u32, y as u32)
}

impl JumpTable {
    /// Makes the table exact again after the cells in `changed` flipped between blocked
    /// and free in `bits` (the grid the table was built from, already edited). Listing
    /// a cell that did not flip costs time but does no harm; a flipped cell left out
    /// leaves the table wrong. A map's layers call this on every edit.
    ///
    /// What a flip at `(x, y)` can change, and what is recomputed:
    ///
    /// - Straight entries: whether a cell stops a straight jump depends on it and on its
    ///   two side cells and the side cells one step back. So the east and west entries
    ///   of rows `y - 1 ..= y + 1` and the north and south entries of columns
    ///   `x - 1 ..= x + 1` are recomputed, from `x` (or `y`) backwards against the jump,
    ///   and each sweep stops at the first entry that comes out unchanged past the flip:
    ///   every earlier entry only extends it. That is the segment between the flip and
    ///   the previous jump point or wall, at most one line each.
    /// - Diagonal entries: a diagonal jump point is a cell whose straight jump along a
    ///   component of the diagonal stops on a jump point, and a diagonal step needs three
    ///   free cells. So a diagonal walk backwards starts from each cell before a cell whose
    ///   straight entry changed sign (jump point found or not), and from the 3 × 3 cells
    ///   around each flip; it stops at the first unchanged entry.
    ///
    /// The result equals a table built from scratch (the tests compare whole tables
    /// after thousands of random edits). Cost: proportional to the entries that change
    /// plus one line segment each way per flip; on maps with walls every few dozen cells
    /// that is a few hundred entries, but on an open area one new obstacle can create
    /// jump points that change the diagonal entries of a large part of the map.
    /// Allocates one list of walk starts per call. Returns the entries it recomputed: a
    /// measure of its cost that does not depend on the machine.
    ///
    /// # Panics
    ///
    /// When `bits` is not the size of the table.
    pub fn update(&mut self, bits: &BitGrid, changed: &[Cell]) -> u64 {
        assert_eq!(
            bits.size(),
            self.size,
            "JumpTable::update: bits of another size"
        );
        let mut seeds: Vec<(i32, i32, usize)> = Vec::new();
        let mut work = 0;
        for &c in changed {
            for off in -1..=1 {
                for d in [EAST, WEST] {
                    work += self.sweep(bits, c.x, c.y + off, d, &mut seeds);
                }
                for d in [SOUTH, NORTH] {
                    work += self.sweep(bits, c.x + off, c.y, d, &mut seeds);
                }
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    for d in [1, 3, 5, 7] {
                        seeds.push((c.x + dx, c.y + dy, d));
                    }
                }
            }
        }
        for (x, y, d) in seeds {
            work += self.walk_back(bits, x, y, d);
        }
        work
    }

    /// Recomputes the straight entries in direction `d` from `(x, y)` backwards (against
    /// `d`) until one comes out unchanged after the first; records the diagonal walks
    /// to start where an entry changed sign. Returns the entries recomputed.
    fn sweep(
        &mut self,
        bits: &BitGrid,
        x: i32,
        y: i32,
        d: usize,
        seeds: &mut Vec<(i32, i32, usize)>,
    ) -> u64 {
        let (dx, dy) = DELTAS[d];
        let (mut x, mut y) = (x, y);
        let mut first = true;
        let mut work = 0;
        while self.contains(x, y) {
            let old = self.refresh(free(bits), x, y, d);
            work += 1;
            let new = self.entries[self.index(x, y)][d];
            if old == new && !first {
                return work;
            }
            if (old > 0) != (new > 0) {
                for diagonal in DIAGONALS_READING[d] {
                    let (ddx, ddy) = DELTAS[diagonal];
                    seeds.push((x - ddx, y - ddy, diagonal));
                }
            }
            first = false;
            x -= dx;
            y -= dy;
        }
        work
    }

    /// Recomputes the diagonal entries in direction `d` from `(x, y)` backwards until
    /// one comes out unchanged (off-map starts do nothing). Returns the entries
    /// recomputed.
    fn walk_back(&mut self, bits: &BitGrid, x: i32, y: i32, d: usize) -> u64 {
        let (dx, dy) = DELTAS[d];
        let (mut x, mut y) = (x, y);
        let mut work = 0;
        while self.contains(x, y) {
            let old = self.refresh(free(bits), x, y, d);
            work += 1;
            if old == self.entries[self.index(x, y)][d] {
                return work;
            }
            x -= dx;
            y -= dy;
        }
        work
    }
}
