//! The footprint rule: which cells an agent of a given diameter occupies.

use super::rect::CellRect;
use crate::grid::{Cell, GridSize};

/// The square of cells an agent of `diameter` occupies when standing at `cell`: from
/// `cell - (diameter - 1) / 2` to `cell + diameter / 2` on both axes, inclusive.
///
/// A `diameter` of 0 is treated as 1. Coordinates saturate at the `i32` range, so a
/// huge diameter gives a square that no supported map contains. O(1).
///
/// ```
/// use tilepath::grid::Cell;
/// use tilepath::scenario::footprint;
/// let two = footprint(Cell::new(5, 5), 2);
/// assert_eq!((two.min, two.max), (Cell::new(5, 5), Cell::new(7, 7)));
/// let three = footprint(Cell::new(5, 5), 3);
/// assert_eq!((three.min, three.max), (Cell::new(4, 4), Cell::new(7, 7)));
/// ```
pub fn footprint(cell: Cell, diameter: u32) -> CellRect {
    let (before, after) = reach(diameter);
    let lo = |v: i32| clamp(i64::from(v) - before);
    let hi = |v: i32| clamp(i64::from(v) + after + 1);
    CellRect {
        min: Cell::new(lo(cell.x), lo(cell.y)),
        max: Cell::new(hi(cell.x), hi(cell.y)),
    }
}

/// The cells of [`footprint`]`(cell, diameter)` on a map of `size`: what marking,
/// holding or checking a unit's cells should walk. O(1); iterating it visits at most
/// `size.area()` cells, whatever the diameter.
///
/// ```
/// use tilepath::grid::{Cell, GridSize};
/// use tilepath::scenario::footprint_on;
/// let all = footprint_on(Cell::new(3, 3), u32::MAX, GridSize::new(8, 4));
/// assert_eq!(all.cells().count(), 32);
/// ```
pub fn footprint_on(cell: Cell, diameter: u32, size: GridSize) -> CellRect {
    footprint(cell, diameter).clip(size)
}

/// How far a footprint of `diameter` reaches from its anchor: `((d - 1) / 2, d / 2)`
/// cells toward −x/−y and toward +x/+y; a diameter of 0 is treated as 1.
pub(crate) fn reach(diameter: u32) -> (i64, i64) {
    let d = i64::from(diameter.max(1));
    ((d - 1) / 2, d / 2)
}

fn clamp(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_footprint_is_a_d_by_d_square_holding_its_anchor() {
        for d in 1..=64u32 {
            let c = Cell::new(100, -7);
            let f = footprint(c, d);
            assert_eq!(f.cell_count(), u64::from(d) * u64::from(d), "d {d}");
            assert!(f.contains(c));
            // The anchor is the centre (odd) or the cell just before it (even).
            assert_eq!((f.min.x + f.max.x - 1) - 2 * c.x, i32::from(d % 2 == 0));
        }
        assert_eq!(footprint(Cell::new(3, 3), 0), footprint(Cell::new(3, 3), 1));
        let huge = footprint(Cell::new(0, 0), u32::MAX);
        assert_eq!(huge.max, Cell::new(i32::MAX, i32::MAX));
    }

    #[test]
    fn a_footprint_on_a_map_is_its_cells_on_the_map() {
        let size = GridSize::new(6, 5);
        for d in [1, 2, 3, 4, 7, 12, 100_000, u32::MAX] {
            for anchor in [
                Cell::new(0, 0),
                Cell::new(5, 4),
                Cell::new(2, 3),
                Cell::new(-3, 9),
            ] {
                let on = footprint_on(anchor, d, size);
                assert!(on.cell_count() <= 30, "d {d} at {anchor:?}");
                let whole = footprint(anchor, d);
                let expect = (0..5)
                    .flat_map(|y| (0..6).map(move |x| Cell::new(x, y)))
                    .filter(|&c| whole.contains(c))
                    .count();
                assert_eq!(on.cells().count(), expect, "d {d} at {anchor:?}");
                assert!(on.cells().all(|c| whole.contains(c) && size.contains(c)));
            }
        }
    }
}
