//! Nearest standable and nearest reachable cells, by rings around a target, for blocked goals and starts.

use super::layer::Layer;
use super::rect::CellRect;
use crate::grid::{Cell, Connectivity, Cost, STRAIGHT};

impl Layer {
    /// The cell nearest to `target` (octile distance, or hexagonal steps on hexagons;
    /// ties toward smaller `y`, then smaller `x`) on which the agent can stand and that `accept` takes. `target` may
    /// be blocked or off the map.
    ///
    /// Scans square rings of growing Chebyshev radius around `target`, clipped to the
    /// map, and stops once no farther ring can hold a nearer cell (a cell at radius `r`
    /// is at least `r` steps away, on either shape). Cost: O(r²) cells for an answer at radius
    /// `r`, so O(width × height) only when the nearest acceptable cell is far away or
    /// there is none. Allocates nothing.
    ///
    /// ```
    /// use tilepath::prelude::*;
    ///
    /// let map = CachedScenario::from_ascii("
    ///     ......
    ///     .####.
    ///     .####.
    ///     ......
    /// ").unwrap();
    /// let layer = map.layer(1).unwrap();
    /// assert_eq!(layer.nearest_free(Cell::new(2, 1), |_| true), Some(Cell::new(2, 0)));
    /// assert_eq!(layer.nearest_free(Cell::new(9, 1), |_| true), Some(Cell::new(5, 1)));
    /// ```
    pub fn nearest_free(&self, target: Cell, accept: impl Fn(Cell) -> bool) -> Option<Cell> {
        let map = CellRect::of_size(self.size());
        if map.is_empty() {
            return None;
        }
        let distance = |c: Cell| self.shape().distance(Connectivity::Octile, c, target);
        // The largest radius that still reaches a map cell.
        let reach = |lo: i32, hi: i32, v: i32| {
            (i64::from(v) - i64::from(lo))
                .abs()
                .max((i64::from(hi) - 1 - i64::from(v)).abs())
        };
        let max_radius =
            reach(map.min.x, map.max.x, target.x).max(reach(map.min.y, map.max.y, target.y));
        // The smallest radius that reaches a map cell (0 when `target` is on the map).
        let gap = |lo: i32, hi: i32, v: i32| {
            (i64::from(lo) - i64::from(v))
                .max(i64::from(v) - (i64::from(hi) - 1))
                .max(0)
        };
        let mut r = gap(map.min.x, map.max.x, target.x).max(gap(map.min.y, map.max.y, target.y));
        let mut best: Option<(Cost, i32, i32)> = None;
        while r <= max_radius {
            if best.is_some_and(|(d, _, _)| (r as Cost) * STRAIGHT > d) {
                break;
            }
            self.ring(target, r, map, |c| {
                if !self.is_blocked(c) && accept(c) {
                    let key = (distance(c), c.y, c.x);
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
            });
            r += 1;
        }
        best.map(|(_, y, x)| Cell::new(x, y))
    }

    /// The cell nearest to `target` (as [`Layer::nearest_free`]) that an agent standing
    /// on `from` can reach: same component. `None` when `from` is blocked.
    pub fn nearest_reachable(&self, from: Cell, target: Cell) -> Option<Cell> {
        let label = self.components().label(from);
        if label == 0 {
            return None;
        }
        self.nearest_free(target, |c| self.components().label(c) == label)
    }

    /// Calls `visit` on the on-map cells at Chebyshev distance exactly `r` from `centre`.
    fn ring(&self, centre: Cell, r: i64, map: CellRect, mut visit: impl FnMut(Cell)) {
        let (cx, cy) = (i64::from(centre.x), i64::from(centre.y));
        let inside_x = |x: i64| x >= i64::from(map.min.x) && x < i64::from(map.max.x);
        let inside_y = |y: i64| y >= i64::from(map.min.y) && y < i64::from(map.max.y);
        let clip_x =
            |lo: i64, hi: i64| lo.max(i64::from(map.min.x))..=hi.min(i64::from(map.max.x) - 1);
        let clip_y =
            |lo: i64, hi: i64| lo.max(i64::from(map.min.y))..=hi.min(i64::from(map.max.y) - 1);
        if r == 0 {
            if inside_x(cx) && inside_y(cy) {
                visit(centre);
            }
            return;
        }
        for y in [cy - r, cy + r] {
            if inside_y(y) {
                for x in clip_x(cx - r, cx + r) {
                    visit(Cell::new(x as i32, y as i32));
                }
            }
        }
        for x in [cx - r, cx + r] {
            if inside_x(x) {
                for y in clip_y(cy - r + 1, cy + r - 1) {
                    visit(Cell::new(x as i32, y as i32));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::{Cell, Connectivity};
    use crate::scenario::{CachedScenario, CellRect, render};
    use crate::test_support::random_map;

    /// Every cell of the map, best by (octile distance, y, x).
    fn brute(
        layer: &crate::scenario::Layer,
        target: Cell,
        accept: impl Fn(Cell) -> bool,
    ) -> Option<Cell> {
        CellRect::of_size(layer.size())
            .cells()
            .filter(|&c| !layer.is_blocked(c) && accept(c))
            .min_by_key(|&c| (Connectivity::Octile.heuristic(c, target), c.y, c.x))
    }

    #[test]
    fn ring_scans_equal_a_scan_of_the_whole_map() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let map = random_map(23 + seed as u32 % 50, 17, 45, seed);
            for d in [1, 2, 3] {
                let layer = map.layer(d).unwrap();
                for (i, target) in [(-3, -2), (5, 5), (30, 8), (80, 40), (0, 16), (11, 3)]
                    .into_iter()
                    .map(Cell::from)
                    .enumerate()
                {
                    let from = Cell::new((seed as i32 * 7 + i as i32) % 20, (i as i32 * 5) % 17);
                    let shown = || {
                        format!(
                            "seed {seed} d {d} target {target} from {from}\n{}",
                            render(&map, &[target, from])
                        )
                    };
                    assert_eq!(
                        layer.nearest_free(target, |_| true),
                        brute(layer, target, |_| true),
                        "{}",
                        shown()
                    );
                    let label = layer.components().label(from);
                    let expected = (label != 0)
                        .then(|| brute(layer, target, |c| layer.components().label(c) == label))
                        .flatten();
                    assert_eq!(
                        layer.nearest_reachable(from, target),
                        expected,
                        "{}",
                        shown()
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 40 * 3 * 6);
    }

    #[test]
    fn a_fully_blocked_map_has_no_nearest_cell() {
        let map = CachedScenario::from_ascii("###\n###").unwrap();
        let layer = map.layer(1).unwrap();
        assert_eq!(layer.nearest_free(Cell::new(1, 1), |_| true), None);
        assert_eq!(
            layer.nearest_reachable(Cell::new(1, 1), Cell::new(0, 0)),
            None
        );
        let far = CachedScenario::from_ascii("#.").unwrap();
        let layer = far.layer(1).unwrap();
        assert_eq!(
            layer.nearest_free(Cell::new(i32::MIN, i32::MAX), |_| true),
            Some(Cell::new(1, 0))
        );
    }
}
