//! A 1-bit-per-cell grid stored as rows of 64-bit words, padded with set bits.

use super::MapError;
use crate::grid::{Cell, GridSize};
use crate::shape::{Shape, Squares};

/// A bit per cell, row by row; bit `x` of a row lives in word `x / 64` at bit `x % 64`
/// (least significant first). Padding bits past the row end are kept set, so a scan
/// for a set bit (a blocked cell) always stops at the right edge of the map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitGrid {
    size: GridSize,
    words_per_row: usize,
    words: Vec<u64>,
}

impl BitGrid {
    /// A grid of the given size with every bit equal to `value`. O(width × height).
    ///
    /// For a size that comes from input, use [`BitGrid::try_new`].
    ///
    /// # Panics
    ///
    /// When `size` is not [supported](GridSize::is_supported): a side above
    /// [`MAX_SIDE`](crate::grid::MAX_SIDE) or more than
    /// [`MAX_CELLS`](crate::grid::MAX_CELLS) cells. The check runs before allocating.
    pub fn new(size: GridSize, value: bool) -> Self {
        assert!(
            size.is_supported(),
            "BitGrid::new: {}x{} is above the supported map size",
            size.width,
            size.height
        );
        let words_per_row = (size.width as usize).div_ceil(64).max(1);
        let fill = if value { u64::MAX } else { 0 };
        let mut grid = Self {
            size,
            words_per_row,
            words: vec![fill; words_per_row * size.height as usize],
        };
        grid.set_padding();
        grid
    }

    /// A grid of the given size with every bit equal to `value`, or an error for a size
    /// the crate does not support (nothing is allocated then). An empty size is allowed.
    ///
    /// # Errors
    ///
    /// [`MapError::TooLarge`] when a side is above [`MAX_SIDE`](crate::grid::MAX_SIDE)
    /// or the cell count above [`MAX_CELLS`](crate::grid::MAX_CELLS).
    pub fn try_new(size: GridSize, value: bool) -> Result<Self, MapError> {
        if size.is_supported() {
            Ok(Self::new(size, value))
        } else {
            Err(MapError::TooLarge {
                width: u64::from(size.width),
                height: u64::from(size.height),
            })
        }
    }

    fn set_padding(&mut self) {
        let used = self.size.width as usize % 64;
        let full = self.size.width as usize / 64;
        for y in 0..self.size.height as usize {
            let row = &mut self.words[y * self.words_per_row..(y + 1) * self.words_per_row];
            if used != 0 {
                row[full] |= u64::MAX << used;
            }
            for w in row.iter_mut().skip(full + usize::from(used != 0)) {
                *w = u64::MAX;
            }
        }
    }

    /// Size in cells.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Words per row (at least one).
    #[inline]
    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// The words of row `y`; `y` must be on the grid (panics otherwise), so this stays
    /// crate-internal: the search calls it only for rows it has checked.
    #[inline]
    pub(crate) fn row(&self, y: u32) -> &[u64] {
        let start = y as usize * self.words_per_row;
        &self.words[start..start + self.words_per_row]
    }

    /// The bit of cell `(x, y)`; cells off the grid read as set (blocked), like the
    /// padding. Despite its historical name this checks bounds (two compares), so any
    /// `x` and `y` are safe; for signed cells use [`BitGrid::get_or`].
    #[inline]
    pub fn get_unchecked_cell(&self, x: u32, y: u32) -> bool {
        x >= self.size.width || y >= self.size.height || self.bit_unchecked(x, y)
    }

    /// The bit of the on-grid cell `(x, y)`, without a bounds check: an `x` past the row
    /// reads padding or the next row, a `y` past the grid panics. Crate-internal, for
    /// loops that have checked their bounds.
    #[inline]
    pub(crate) fn bit_unchecked(&self, x: u32, y: u32) -> bool {
        debug_assert!(x < self.size.width && y < self.size.height);
        let w = self.words[y as usize * self.words_per_row + (x as usize >> 6)];
        (w >> (x & 63)) & 1 == 1
    }

    /// The 3x3 block of bits around the on-grid cell `(x, y)` as 9 bits: bit `3 * (dy + 1) + (dx + 1)`
    /// holds `(x + dx, y + dy)`; cells off the grid read as set. Three word reads, no per-cell
    /// bounds checks.
    #[inline]
    pub(crate) fn neighbourhood(&self, x: u32, y: u32) -> u16 {
        let above = if y == 0 { 7 } else { self.three_bits(x, y - 1) };
        let below = if y + 1 >= self.size.height {
            7
        } else {
            self.three_bits(x, y + 1)
        };
        above | (self.three_bits(x, y) << 3) | (below << 6)
    }

    /// The moves allowed from the on-grid `cell` of a grid of blocked cells, as a bit mask
    /// over [`Direction::ALL`] indices: a step onto a free cell, and (octile only) a
    /// diagonal only when both straight cells it passes between are free. One 3x3 bit
    /// read and a table lookup.
    #[inline]
    pub(crate) fn legal_moves(&self, cell: Cell, octile: bool) -> u8 {
        debug_assert!(self.size.contains(cell));
        self.moves(Squares, cell, octile)
    }

    /// The moves allowed from the on-grid `cell` of a grid of `shape` (see
    /// [`GridShape`](crate::shape::GridShape)): one 3x3 bit read and a table lookup.
    #[inline]
    pub(crate) fn moves(&self, shape: impl Shape, cell: Cell, octile: bool) -> u8 {
        debug_assert!(self.size.contains(cell));
        let around = self.neighbourhood(cell.x as u32, cell.y as u32);
        shape.legal(around, cell, octile)
    }

    /// Bits of cells `x - 1`, `x`, `x + 1` of on-grid row `y` (off-grid cells set).
    #[inline(always)]
    fn three_bits(&self, x: u32, y: u32) -> u16 {
        let row = y as usize * self.words_per_row;
        let word = |w: usize| {
            if w < self.words_per_row {
                self.words[row + w]
            } else {
                u64::MAX
            }
        };
        let bits = if x == 0 {
            (word(0) << 1) | 1
        } else {
            let b = x as usize - 1;
            let (w, o) = (b >> 6, b & 63);
            if o <= 61 {
                word(w) >> o
            } else {
                (word(w) >> o) | (word(w + 1) << (64 - o))
            }
        };
        (bits & 7) as u16
    }

    /// The bit of `cell`, or `outside` for a cell off the grid.
    #[inline]
    pub fn get_or(&self, cell: Cell, outside: bool) -> bool {
        if self.size.contains(cell) {
            self.bit_unchecked(cell.x as u32, cell.y as u32)
        } else {
            outside
        }
    }

    /// Sets the bit of an on-grid cell; off-grid cells are ignored.
    #[inline]
    pub fn set(&mut self, cell: Cell, value: bool) {
        if !self.size.contains(cell) {
            return;
        }
        let i = cell.y as usize * self.words_per_row + (cell.x as usize >> 6);
        let mask = 1u64 << (cell.x & 63);
        if value {
            self.words[i] |= mask;
        } else {
            self.words[i] &= !mask;
        }
    }

    /// Number of set bits on the grid (padding excluded).
    pub fn count_ones(&self) -> usize {
        let mut n = 0;
        for y in 0..self.size.height {
            for x in 0..self.size.width {
                n += usize::from(self.bit_unchecked(x, y));
            }
        }
        n
    }

    /// Bytes used by the bits.
    pub fn memory_bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// The transposed grid (columns become rows), for fast vertical scans.
    pub fn transposed(&self) -> BitGrid {
        let mut t = BitGrid::new(GridSize::new(self.size.height, self.size.width), false);
        for y in 0..self.size.height {
            for x in 0..self.size.width {
                if self.bit_unchecked(x, y) {
                    t.set(Cell::new(y as i32, x as i32), true);
                }
            }
        }
        t
    }
}

/// 64 bits of a line starting at cell `start`: bit `i` is cell `start + i`. Cells before
/// the line start or past its stored words read as set (1): the word-parallel scans of
/// JPS and of table-guided A\* along rows and transposed columns ([`BitGrid::row`]).
#[inline(always)]
pub(crate) fn window(line: &[u64], start: i64) -> u64 {
    if start >= 0 {
        let w = (start >> 6) as usize;
        let shift = (start & 63) as u32;
        let Some(&lo) = line.get(w) else {
            return !0;
        };
        if shift == 0 {
            return lo;
        }
        let hi = line.get(w + 1).copied().unwrap_or(!0);
        (lo >> shift) | (hi << (64 - shift))
    } else if start > -64 {
        let missing = (-start) as u32;
        let first = line.first().copied().unwrap_or(!0);
        (first << missing) | ((1u64 << missing) - 1)
    } else {
        !0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbourhood_matches_cell_reads_everywhere_including_word_edges_and_borders() {
        for width in [1u32, 2, 63, 64, 65, 127, 130] {
            let size = GridSize::new(width, 3);
            let mut g = BitGrid::new(size, false);
            for i in 0..size.area() {
                if (i * 7 + i / 5) % 3 == 0 {
                    g.set(size.cell(i), true);
                }
            }
            for i in 0..size.area() {
                let c = size.cell(i);
                let n = g.neighbourhood(c.x as u32, c.y as u32);
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let bit = (n >> (3 * (dy + 1) + dx + 1)) & 1 == 1;
                        let expected = g.get_or(Cell::new(c.x + dx, c.y + dy), true);
                        assert_eq!(
                            bit, expected,
                            "width {width} cell {c:?} offset ({dx}, {dy})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn padding_bits_past_the_row_end_stay_set() {
        let g = BitGrid::new(GridSize::new(70, 2), false);
        assert_eq!(g.words_per_row(), 2);
        assert_eq!(g.row(1)[0], 0);
        assert_eq!(g.row(1)[1], u64::MAX << 6);
        assert_eq!(g.count_ones(), 0);
    }

    #[test]
    fn set_and_get_agree_and_off_grid_uses_the_outside_value() {
        let mut g = BitGrid::new(GridSize::new(65, 3), false);
        g.set(Cell::new(64, 2), true);
        assert!(g.get_or(Cell::new(64, 2), false));
        assert!(!g.get_or(Cell::new(63, 2), true));
        assert!(g.get_or(Cell::new(65, 2), true));
        assert!(!g.get_or(Cell::new(-1, 0), false));
        g.set(Cell::new(99, 99), true);
        assert_eq!(g.count_ones(), 1);
    }

    #[test]
    fn unsupported_sizes_are_an_error_before_any_allocation() {
        let huge = GridSize::new(4_000_000_000, 4_000_000_000);
        assert_eq!(
            BitGrid::try_new(huge, false),
            Err(MapError::TooLarge {
                width: 4_000_000_000,
                height: 4_000_000_000
            })
        );
        assert_eq!(
            BitGrid::try_new(GridSize::new(3, 2), true)
                .unwrap()
                .count_ones(),
            6
        );
        assert_eq!(
            BitGrid::try_new(GridSize::new(0, 5), false)
                .unwrap()
                .count_ones(),
            0
        );
    }

    #[test]
    #[should_panic(expected = "above the supported map size")]
    fn new_panics_on_an_unsupported_size_instead_of_allocating() {
        BitGrid::new(GridSize::new(u32::MAX, 2), false);
    }

    #[test]
    fn cell_reads_by_raw_coordinates_are_bounds_checked() {
        let mut g = BitGrid::new(GridSize::new(70, 2), false);
        g.set(Cell::new(69, 1), true);
        assert!(g.get_unchecked_cell(69, 1));
        assert!(!g.get_unchecked_cell(68, 1));
        for (x, y) in [(70, 0), (127, 0), (128, 0), (5, 2), (u32::MAX, u32::MAX)] {
            assert!(g.get_unchecked_cell(x, y), "({x}, {y})");
        }
    }

    #[test]
    fn transposing_swaps_rows_and_columns() {
        let mut g = BitGrid::new(GridSize::new(3, 100), false);
        g.set(Cell::new(2, 90), true);
        let t = g.transposed();
        assert_eq!(t.size(), GridSize::new(100, 3));
        assert!(t.get_or(Cell::new(90, 2), false));
        assert_eq!(t.count_ones(), 1);
    }
}
