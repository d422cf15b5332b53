//! Jump tables of preprocessed JPS (JPS+): per cell and direction, the steps to the next jump point or to the wall.
//!
//! Jump point search spends its time scanning rows, columns and diagonals for *jump
//! points* (see the `jps` search module for the rules without corner cutting). Those
//! scans depend only on the layer's blocked bits, not on the query, so a table can
//! answer each of them in O(1): for every free cell and each of the eight directions,
//! how many steps the jump goes and whether it ends on a jump point or at a wall. This
//! is the offline variant of Harabor and Grastien, "Improving Jump Point Search"
//! (ICAPS 2014), known as JPS+; the search that reads it is
//! [`Algorithm::JpsPlus`](crate::search::Algorithm::JpsPlus).
//!
//! # What an entry means
//!
//! From a free cell `c` in a direction `d` (moves without corner cutting: a diagonal
//! step needs both straight cells it passes between free):
//!
//! - straight `d`: [`Jump::To`]`(k)` when the `k`-th cell ahead is the first *forced*
//!   cell (a side cell of it is free while the side cell one step back is blocked) and
//!   every cell up to it is free; [`Jump::Wall`]`(k)` when `k` free cells come first and
//!   then a blocked cell or the map edge;
//! - diagonal `d`: [`Jump::To`]`(k)` when `k` legal diagonal steps lead to the first cell
//!   from which a straight jump along one of `d`'s two components reaches a jump point;
//!   [`Jump::Wall`]`(k)` when `k` legal steps come first and the next one is not legal.
//!
//! The goal is not in the table: the search stops a jump at the goal when the goal lies
//! on the line within the jump's reach. Blocked cells have every entry `Wall(0)`.
//!
//! Distances are stored as one `i16` per direction: `k > 0` is `To(k)`, `k <= 0` is
//! `Wall(-k)`. A jump longer than [`MAX_JUMP`] steps (maps wider than 32,767 cells) is
//! cut into pieces: its entry is `To(MAX_JUMP)`, a free cell on the way that the search
//! treats like a jump point (it only continues the jump from there), so every answer
//! stays exact.
//!
//! # Cost
//!
//! Memory: 16 bytes per cell (8 × `i16`, one cache-line quarter per cell, so one
//! expansion reads all eight of a cell's jumps at once). Building: O(width × height),
//! eight sweeps that each read a cell's neighbour entry once. Edits: see
//! [`JumpTable::update`], which recomputes only the entries that can change.

mod update;

#[cfg(test)]
mod tests;

use std::fmt;

use super::bitgrid::BitGrid;
use crate::grid::{Cell, Direction, GridSize};

/// The longest single jump stored; longer ones are cut into pieces of this length.
pub const MAX_JUMP: u32 = i16::MAX as u32;

/// Cell offsets of [`Direction::ALL`], by direction index.
const DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Direction indices of the straight moves along x (`+1`, `-1`) and y.
const EAST: usize = 0;
const SOUTH: usize = 2;
const WEST: usize = 4;
const NORTH: usize = 6;

/// A byte per cell with a blocked border one cell wide, so that a build reads any cell
/// next to the map without a bounds check.
struct Padded {
    width: usize,
    free: Vec<bool>,
}

impl Padded {
    fn new(bits: &BitGrid) -> Self {
        let size = bits.size();
        let width = size.width as usize + 2;
        let mut free = vec![false; width * (size.height as usize + 2)];
        for y in 0..size.height {
            let row = (y as usize + 1) * width + 1;
            for x in 0..size.width {
                free[row + x as usize] = !bits.bit_unchecked(x, y);
            }
        }
        Self { width, free }
    }

    /// True for a free on-map cell; `x` and `y` may be one past either edge.
    #[inline(always)]
    fn is_free(&self, x: i32, y: i32) -> bool {
        self.free[(y + 1) as usize * self.width + (x + 1) as usize]
    }
}

/// How far a jump goes from a cell in one direction; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jump {
    /// The jump stops after this many steps (at least 1) on a jump point, or on a free
    /// cell where a jump longer than [`MAX_JUMP`] is cut.
    To(u32),
    /// No jump point: this many free steps (possibly 0), then a blocked cell, the map
    /// edge or a corner that may not be cut.
    Wall(u32),
}

/// Preprocessed jumps of one layer: 8 distances per cell (see the module docs).
///
/// Built by [`Layer::build_jump_table`](crate::scenario::Layer::build_jump_table) (or
/// [`CachedScenario::build_jump_tables`](crate::scenario::CachedScenario::build_jump_tables))
/// and kept exact by the map's edits. Two tables compare equal when every entry does,
/// which is how the tests check an incrementally updated table against a fresh one.
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::scenario::Jump;
///
/// let map = CachedScenario::from_ascii("
///     ......
///     ..#...
///     ......
/// ").unwrap();
/// let table = map.layer(1).unwrap().build_jump_table();
/// // Going east along the bottom row, (3, 2) is forced: its north side (3, 1) is
/// // free while (2, 1) behind it is the wall.
/// assert_eq!(table.jump(Cell::new(0, 2), Direction::East), Jump::To(3));
/// // Going east along the top row meets no forced cell before the map edge.
/// assert_eq!(table.jump(Cell::new(3, 0), Direction::East), Jump::Wall(2));
/// // North-east from (1, 1) the step to (2, 0) would cut the wall's corner at (2, 1).
/// assert_eq!(table.jump(Cell::new(1, 1), Direction::NorthEast), Jump::Wall(0));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct JumpTable {
    size: GridSize,
    /// Longest stored jump (`MAX_JUMP`, smaller in tests of the cutting).
    cap: i16,
    /// Per cell, row-major: the signed distances by direction index.
    entries: Vec<[i16; 8]>,
}

impl fmt::Debug for JumpTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JumpTable")
            .field("size", &self.size)
            .field("cap", &self.cap)
            .field("bytes", &self.memory_bytes())
            .finish_non_exhaustive()
    }
}

impl JumpTable {
    /// The table of the cells whose blocked bits are `bits` (1 = blocked, as in a
    /// [`Layer`](crate::scenario::Layer)). O(width × height), 16 bytes per cell.
    ///
    /// Layers build their own ([`Layer::build_jump_table`](crate::scenario::Layer::build_jump_table));
    /// this is for grids kept outside a map, updated with [`JumpTable::update`].
    pub fn new(bits: &BitGrid) -> Self {
        Self::build_capped(bits, MAX_JUMP as i16)
    }

    /// [`JumpTable::new`] with jumps cut every `cap` steps (`cap >= 1`).
    pub(crate) fn build_capped(bits: &BitGrid, cap: i16) -> Self {
        debug_assert!(cap >= 1);
        let size = bits.size();
        let mut t = Self {
            size,
            cap,
            entries: vec![[0; 8]; size.area()],
        };
        let (w, h) = (size.width as i32, size.height as i32);
        let free = Padded::new(bits);
        let free = |x: i32, y: i32| free.is_free(x, y);
        // Each entry is computed after the entry of the next cell in its direction, and
        // a diagonal one after the straight entries of the cell it steps to: rows from
        // the bottom for the directions going down (and along rows), then from the top
        // for the ones going up. Two passes over the table.
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                t.refresh(free, x, y, EAST);
            }
            for x in 0..w {
                t.refresh(free, x, y, WEST);
                t.refresh(free, x, y, SOUTH);
                t.refresh(free, x, y, 1);
                t.refresh(free, x, y, 3);
            }
        }
        for y in 0..h {
            for x in 0..w {
                t.refresh(free, x, y, NORTH);
                t.refresh(free, x, y, 5);
                t.refresh(free, x, y, 7);
            }
        }
        t
    }

    /// Size of the map the table is for.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The jump from `cell` in `dir`; `Wall(0)` for blocked and off-map cells.
    pub fn jump(&self, cell: Cell, dir: Direction) -> Jump {
        let k = if self.size.contains(cell) {
            self.entries[self.size.index(cell)][dir as usize]
        } else {
            0
        };
        if k > 0 {
            Jump::To(k as u32)
        } else {
            Jump::Wall(u32::from(k.unsigned_abs()))
        }
    }

    /// The eight signed distances of the cell with row-major index `i`, by
    /// [`Direction`] index: `k > 0` stops after `k` steps, `k <= 0` meets a wall after
    /// `-k` free steps. The search's one read per expansion.
    #[inline(always)]
    pub(crate) fn entries(&self, i: u32) -> &[i16; 8] {
        &self.entries[i as usize]
    }

    /// Bytes held by the table (16 per cell).
    pub fn memory_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<[i16; 8]>()
    }

    #[inline(always)]
    fn index(&self, x: i32, y: i32) -> usize {
        y as usize * self.size.width as usize + x as usize
    }

    #[inline(always)]
    fn contains(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.size.width && (y as u32) < self.size.height
    }

    /// Recomputes the entry of the on-map cell `(x, y)` in direction `d` from the
    /// entry of the next cell in `d` (which must be current) and the cells around, free
    /// where `free` says so (off-map cells must read blocked); returns the old value.
    #[inline(always)]
    fn refresh(&mut self, free: impl Fn(i32, i32) -> bool, x: i32, y: i32, d: usize) -> i16 {
        let new = self.compute(free, x, y, d);
        let i = self.index(x, y);
        std::mem::replace(&mut self.entries[i][d], new)
    }

    /// The entry of the on-map cell `(x, y)` in direction `d`, from the next cell's.
    #[inline(always)]
    fn compute(&self, free: impl Fn(i32, i32) -> bool, x: i32, y: i32, d: usize) -> i16 {
        if !free(x, y) {
            return 0;
        }
        let (dx, dy) = DELTAS[d];
        let (nx, ny) = (x + dx, y + dy);
        if !free(nx, ny) {
            return 0;
        }
        let next = &self.entries[self.index(nx, ny)];
        if d & 1 == 0 {
            // The next cell is forced when a side cell is free and the one behind it is not.
            let forced = [(-dy, dx), (dy, -dx)]
                .into_iter()
                .any(|(sx, sy)| free(nx + sx, ny + sy) && !free(x + sx, y + sy));
            if forced {
                return 1;
            }
        } else {
            if !free(nx, y) || !free(x, ny) {
                return 0;
            }
            let along_x = if dx > 0 { EAST } else { WEST };
            let along_y = if dy > 0 { SOUTH } else { NORTH };
            if next[along_x] > 0 || next[along_y] > 0 {
                return 1;
            }
        }
        self.extend(next[d])
    }

    /// The entry of a cell one step before a cell whose entry is `next` (and which is
    /// neither a jump point nor blocked): one step longer, cut at the cap.
    #[inline]
    fn extend(&self, next: i16) -> i16 {
        if next > 0 {
            next.saturating_add(1).min(self.cap)
        } else if -i32::from(next) < i32::from(self.cap) {
            next - 1
        } else {
            self.cap
        }
    }
}
