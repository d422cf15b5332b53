//! Rectangles of cells: edit bounding boxes, update regions and agent footprints.

use crate::grid::{Cell, GridSize};

/// A rectangle of cells, inclusive minimum, exclusive maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CellRect {
    /// Smallest cell inside.
    pub min: Cell,
    /// One past the largest cell inside, on both axes.
    pub max: Cell,
}

impl CellRect {
    /// The rectangle holding just `cell` (empty for `i32::MAX` coordinates, which no
    /// supported map has).
    pub fn from_cell(cell: Cell) -> Self {
        Self {
            min: cell,
            max: Cell::new(cell.x.saturating_add(1), cell.y.saturating_add(1)),
        }
    }

    /// The whole grid.
    pub fn of_size(size: GridSize) -> Self {
        Self {
            min: Cell::new(0, 0),
            max: Cell::new(clamp_i32(size.width.into()), clamp_i32(size.height.into())),
        }
    }

    /// Grows the rectangle to hold `cell`.
    pub fn include(&mut self, cell: Cell) {
        self.min.x = self.min.x.min(cell.x);
        self.min.y = self.min.y.min(cell.y);
        self.max.x = self.max.x.max(cell.x.saturating_add(1));
        self.max.y = self.max.y.max(cell.y.saturating_add(1));
    }

    /// The rectangle grown by `by` cells on every side (shrunk for a negative `by`),
    /// clipped to `size`. Saturates instead of overflowing.
    pub fn expand_clip(self, by: i32, size: GridSize) -> Self {
        self.grow_clip(by.into(), by.into(), size)
    }

    /// The rectangle grown by `before` cells toward −x and −y and by `after` cells
    /// toward +x and +y (negative values shrink), clipped to `size`. Computed in `i64`,
    /// so no value overflows. Used for the cells an edit affects under an asymmetric
    /// footprint (see [`crate::scenario::MapChange::affected`]).
    pub fn grow_clip(self, before: i64, after: i64, size: GridSize) -> Self {
        let lo = |v: i32| clamp_i32((i64::from(v) - before).max(0));
        let hi = |v: i32, end: u32| clamp_i32((i64::from(v) + after).min(i64::from(end)));
        Self {
            min: Cell::new(lo(self.min.x), lo(self.min.y)),
            max: Cell::new(hi(self.max.x, size.width), hi(self.max.y, size.height)),
        }
    }

    /// The cells of the rectangle that lie on a map of `size` (empty when none do). O(1);
    /// iterating the result visits at most `size.area()` cells, however large `self` is.
    pub fn clip(self, size: GridSize) -> Self {
        self.grow_clip(0, 0, size)
    }

    /// True when `cell` is inside.
    #[inline]
    pub fn contains(self, cell: Cell) -> bool {
        cell.x >= self.min.x && cell.y >= self.min.y && cell.x < self.max.x && cell.y < self.max.y
    }

    /// True when every cell of `other` is inside (an empty `other` always is).
    pub fn contains_rect(self, other: CellRect) -> bool {
        other.is_empty()
            || (other.min.x >= self.min.x
                && other.min.y >= self.min.y
                && other.max.x <= self.max.x
                && other.max.y <= self.max.y)
    }

    /// True when no cell is inside.
    pub fn is_empty(self) -> bool {
        self.max.x <= self.min.x || self.max.y <= self.min.y
    }

    /// Number of cells inside (0 when empty), in `u64` so it never overflows.
    pub fn cell_count(self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        let w = (i64::from(self.max.x) - i64::from(self.min.x)) as u64;
        let h = (i64::from(self.max.y) - i64::from(self.min.y)) as u64;
        w * h
    }

    /// The cells inside, row by row.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (self.min.y..self.max.y)
            .flat_map(move |y| (self.min.x..self.max.x).map(move |x| Cell::new(x, y)))
    }
}

/// `v` clamped into `i32`.
fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growing_is_asymmetric_clipped_and_never_overflows() {
        let size = GridSize::new(10, 8);
        let r = CellRect::from_cell(Cell::new(4, 4));
        let g = r.grow_clip(2, 1, size);
        assert_eq!((g.min, g.max), (Cell::new(2, 2), Cell::new(6, 6)));
        let all = r.grow_clip(i64::MAX / 4, i64::MAX / 4, size);
        assert_eq!(all, CellRect::of_size(size));
        assert_eq!(r.expand_clip(i32::MAX, size), CellRect::of_size(size));
        assert!(r.expand_clip(-1, size).is_empty());
        let edge = CellRect::from_cell(Cell::new(i32::MAX, 0));
        assert!(edge.is_empty());
    }

    #[test]
    fn clipping_keeps_the_cells_on_the_map() {
        let size = GridSize::new(10, 8);
        let huge = CellRect {
            min: Cell::new(i32::MIN, -3),
            max: Cell::new(i32::MAX, 5),
        };
        let c = huge.clip(size);
        assert_eq!((c.min, c.max), (Cell::new(0, 0), Cell::new(10, 5)));
        assert_eq!(c.cells().count(), 50);
        let off = CellRect {
            min: Cell::new(12, 2),
            max: Cell::new(20, 4),
        };
        assert!(off.clip(size).is_empty());
        assert_eq!(off.clip(size).cells().count(), 0);
        let left = CellRect {
            min: Cell::new(-9, -9),
            max: Cell::new(-2, -2),
        };
        assert!(left.clip(size).is_empty());
        assert_eq!(left.clip(size).cells().count(), 0);
    }

    #[test]
    fn containment_and_counts() {
        let outer = CellRect::of_size(GridSize::new(5, 5));
        assert!(outer.contains_rect(CellRect::from_cell(Cell::new(4, 4))));
        assert!(!outer.contains_rect(CellRect::from_cell(Cell::new(5, 4))));
        assert!(outer.contains_rect(CellRect::default()));
        assert_eq!(outer.cell_count(), 25);
        assert_eq!(outer.cells().count(), 25);
    }
}
