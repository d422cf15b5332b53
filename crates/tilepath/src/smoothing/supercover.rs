//! Line of sight between cell centres by a conservative (supercover) line traversal.

use crate::grid::Cell;
use crate::scenario::{Layer, Weights};

/// True when an agent can move in a straight line from the centre of `a` to the centre
/// of `b`: every cell the segment touches is free in `layer`.
///
/// The exact rule: a cell is touched when its closed unit square and the closed
/// segment between the two centres share at least one point. So the segment's own
/// cells count, and where it passes exactly through a grid corner all four cells around
/// that corner count, including the two it only grazes: a line never squeezes
/// diagonally between two blocked cells, just as a diagonal step may not cut a corner.
/// A segment between centres never runs along a grid line (centres sit at half-cells),
/// so no other grazing case exists. Off-map cells are blocked, so an endpoint off the
/// map gives `false`; `a == b` asks whether `a` itself is free.
///
/// The walk uses integers only: in units of half a cell the segment crosses column
/// boundaries at parameters (2i + 1) / (2 |dx|) and row boundaries at
/// (2j + 1) / (2 |dy|); comparing the two cross-multiplied picks the next cell, and
/// equality is a corner. Complexity: O(|dx| + |dy|) cell tests, no allocation.
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::smoothing::line_of_sight;
///
/// let map = CachedScenario::from_ascii("
///     .....
///     .#...
///     .....
/// ").unwrap();
/// let layer = map.layer(1).unwrap();
/// // Passes above the pillar: it enters row 1 at x = 2.5, right of the pillar.
/// assert!(line_of_sight(layer, Cell::new(0, 0), Cell::new(4, 1)));
/// // Grazes the pillar's lower right corner exactly, which counts as touching it.
/// assert!(!line_of_sight(layer, Cell::new(0, 2), Cell::new(3, 1)));
/// ```
pub fn line_of_sight(layer: &Layer, a: Cell, b: Cell) -> bool {
    // Both ends are on the map once they are free, so every touched cell (inside their
    // bounding box) is too.
    !layer.is_blocked(a)
        && !layer.is_blocked(b)
        && touched_cells(a, b, |x, y| layer.is_free_xy(x as u32, y as u32))
}

/// The largest weight of the cells the segment between the centres of `a` and `b`
/// touches (the cells of [`line_of_sight`]), or `None` when one of them is blocked in
/// `layer`. An agent moving along the segment at `speed / weight` of the cell it is in
/// takes at most its length times this weight. O(|dx| + |dy|), no allocation.
pub fn line_max_weight(layer: &Layer, weights: &Weights<'_>, a: Cell, b: Cell) -> Option<u8> {
    if layer.is_blocked(a) || layer.is_blocked(b) {
        return None;
    }
    let size = layer.size();
    let mut max = 0;
    let clear = touched_cells(a, b, |x, y| {
        let free = layer.is_free_xy(x as u32, y as u32);
        if free {
            max = max.max(weights.at_index(size.index(Cell::new(x, y))));
        }
        free
    });
    clear.then_some(max)
}

/// Calls `visit` on every cell the segment between the centres of `a` and `b` touches,
/// in order from `a` to `b` (both included; at a corner the two grazed cells come before
/// the diagonal one), until `visit` returns false. Returns whether it never did.
fn touched_cells(a: Cell, b: Cell, mut visit: impl FnMut(i32, i32) -> bool) -> bool {
    let (nx, ny) = (
        u64::from((b.x - a.x).unsigned_abs()),
        u64::from((b.y - a.y).unsigned_abs()),
    );
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    // Next column crossing at (2i + 1) / (2 nx), next row crossing at (2j + 1) / (2 ny),
    // compared as (2i + 1) * ny against (2j + 1) * nx.
    let (mut to_column, mut to_row) = (ny, nx);
    let (mut x, mut y) = (a.x, a.y);
    if !visit(x, y) {
        return false;
    }
    while x != b.x || y != b.y {
        if to_column < to_row {
            x += sx;
            to_column += 2 * ny;
        } else if to_row < to_column {
            y += sy;
            to_row += 2 * nx;
        } else {
            if !visit(x + sx, y) || !visit(x, y + sy) {
                return false;
            }
            x += sx;
            y += sy;
            to_column += 2 * ny;
            to_row += 2 * nx;
        }
        if !visit(x, y) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::line_of_sight;
    use crate::grid::Cell;
    use crate::scenario::{CachedScenario, Layer, render};
    use crate::test_support::random_map;
    use proptest::prelude::*;

    fn map(text: &str) -> CachedScenario {
        CachedScenario::from_ascii(text).unwrap()
    }

    /// The rule by definition: the closed square of `cell` and the closed segment between
    /// the centres of `a` and `b` intersect. Separating-axis test in half-cell units.
    fn touches(a: Cell, b: Cell, cell: Cell) -> bool {
        let (ax, ay) = (2 * i64::from(a.x) + 1, 2 * i64::from(a.y) + 1);
        let (bx, by) = (2 * i64::from(b.x) + 1, 2 * i64::from(b.y) + 1);
        let (x0, y0) = (2 * i64::from(cell.x), 2 * i64::from(cell.y));
        let (x1, y1) = (x0 + 2, y0 + 2);
        if ax.max(bx) < x0 || ax.min(bx) > x1 || ay.max(by) < y0 || ay.min(by) > y1 {
            return false;
        }
        let side = |px: i64, py: i64| ((bx - ax) * (py - ay) - (by - ay) * (px - ax)).signum();
        let sides = [side(x0, y0), side(x1, y0), side(x0, y1), side(x1, y1)];
        !(sides.iter().all(|&s| s > 0) || sides.iter().all(|&s| s < 0))
    }

    /// Line of sight by brute force: every touched cell of the map's area (and around it) is free.
    fn brute_sight(layer: &Layer, a: Cell, b: Cell) -> bool {
        let size = layer.size();
        (-1..=size.height as i32).all(|y| {
            (-1..=size.width as i32).all(|x| {
                let c = Cell::new(x, y);
                !touches(a, b, c) || !layer.is_blocked(c)
            })
        })
    }

    #[test]
    fn line_of_sight_refuses_a_diagonal_gap_between_two_blocked_cells() {
        let m = map("
            .#
            #.
        ");
        let layer = m.layer(1).unwrap();
        assert!(!line_of_sight(layer, Cell::new(0, 0), Cell::new(1, 1)));
        assert!(!line_of_sight(layer, Cell::new(1, 1), Cell::new(0, 0)));
    }

    #[test]
    fn line_of_sight_through_a_corner_needs_both_grazed_cells_free() {
        // The segment from (0, 0) to (3, 1) passes exactly through the corner at (2, 1),
        // between cells (1, 1) and (2, 0).
        for (text, expected) in [
            ("....\n....", true),
            ("..#.\n....", false),
            ("....\n.#..", false),
        ] {
            let m = map(text);
            let layer = m.layer(1).unwrap();
            assert_eq!(
                line_of_sight(layer, Cell::new(0, 0), Cell::new(3, 1)),
                expected,
                "\n{text}"
            );
            assert_eq!(
                line_of_sight(layer, Cell::new(3, 1), Cell::new(0, 0)),
                expected
            );
        }
    }

    #[test]
    fn line_of_sight_ignores_cells_the_segment_misses() {
        // (0, 0) to (4, 1) crosses into row 1 at x = 2.5: it touches (2, 0) and (2, 1),
        // never (1, 1) or (3, 0).
        let m = map("
            ...#.
            .#...
        ");
        let layer = m.layer(1).unwrap();
        assert!(line_of_sight(layer, Cell::new(0, 0), Cell::new(4, 1)));
        let blocked = map("
            .....
            ..#..
        ");
        let layer = blocked.layer(1).unwrap();
        assert!(!line_of_sight(layer, Cell::new(0, 0), Cell::new(4, 1)));
    }

    #[test]
    fn line_of_sight_is_false_from_a_blocked_or_off_map_cell() {
        let m = map("
            .#.
            ...
        ");
        let layer = m.layer(1).unwrap();
        assert!(line_of_sight(layer, Cell::new(0, 0), Cell::new(0, 0)));
        assert!(!line_of_sight(layer, Cell::new(1, 0), Cell::new(1, 0)));
        assert!(!line_of_sight(layer, Cell::new(-1, 0), Cell::new(0, 1)));
        assert!(!line_of_sight(layer, Cell::new(0, 1), Cell::new(9, 1)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn line_of_sight_equals_the_closed_segment_definition(
            width in 1u32..=30,
            height in 1u32..=30,
            percent in 0u64..=45,
            seed in any::<u64>(),
            ends in proptest::collection::vec((0u32..30, 0u32..30, 0u32..30, 0u32..30), 20),
        ) {
            let m = random_map(width, height, percent, seed);
            for diameter in [1, 3] {
                let layer = m.layer(diameter).unwrap();
                for &(ax, ay, bx, by) in &ends {
                    let a = Cell::new((ax % width) as i32, (ay % height) as i32);
                    let b = Cell::new((bx % width) as i32, (by % height) as i32);
                    prop_assert_eq!(
                        line_of_sight(layer, a, b),
                        brute_sight(layer, a, b),
                        "{} -> {} diameter {}\n{}", a, b, diameter, render(&m, &[a, b])
                    );
                    prop_assert_eq!(line_of_sight(layer, a, b), line_of_sight(layer, b, a));
                }
            }
        }
    }
}
