//! Line-of-sight smoothing: string pulling of cell paths into straight-segment waypoints.

mod supercover;

pub use supercover::line_of_sight;

use crate::grid::Cell;
use crate::scenario::Layer;

/// Writes the smoothed waypoints of `path` into `out` (cleared first): `path[0]`, then
/// repeatedly a later path cell visible ([`line_of_sight`]) from the last waypoint, up
/// to the last cell. An empty path gives no waypoints, a single cell gives itself.
///
/// Guarantees, for a valid cell path (king moves over cells free in `layer`, no corner
/// cutting): every segment between consecutive waypoints passes [`line_of_sight`];
/// the waypoints are path cells in path order, so the polyline is never longer than
/// the path (each segment is at most the length of the path stretch it replaces);
/// and each chosen waypoint is locally furthest: the path cell right after it is not
/// visible from the previous waypoint.
///
/// Search for the next waypoint: visibility is not monotone along a path (a cell can
/// be hidden behind a pillar while a later one is visible again), so a plain binary
/// search over the whole path is unsound. From waypoint `i` the search gallops,
/// testing `i + 2`, `i + 4`, `i + 8`, … (clamped to the last cell) while they are
/// visible, then bisects between the last visible and the first hidden probe, keeping
/// one end visible and the other hidden. The result is visible with a hidden successor.
/// A cell that becomes visible again beyond the first hidden probe is not looked for;
/// finding the truly furthest visible cell would take a line test against every later
/// cell, O(n²) tests per path.
///
/// Complexity: for a stretch of d path cells between two waypoints, O(log d) line
/// tests of O(d) cells each, so O(n log n) cell tests for a path of n cells. Nothing
/// is allocated beyond the growth of `out`'s capacity.
///
/// ```
/// use tilepath::grid::path_length;
/// use tilepath::prelude::*;
/// use tilepath::smoothing::smooth;
///
/// let map = CachedScenario::from_ascii("
///     .......
///     ..###..
///     .......
/// ").unwrap();
/// // Under the block, from the middle of the left edge to the middle of the right one.
/// let path: Vec<Cell> = [(0, 1), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 1)]
///     .into_iter()
///     .map(Cell::from)
///     .collect();
/// let mut waypoints = Vec::new();
/// smooth(map.layer(1).unwrap(), &path, &mut waypoints);
/// let expected: Vec<Cell> = [(0, 1), (2, 2), (5, 2), (6, 1)].into_iter().map(Cell::from).collect();
/// assert_eq!(waypoints, expected);
/// assert!(path_length(&waypoints) < path_length(&path));
/// ```
pub fn smooth(layer: &Layer, path: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    let Some(&first) = path.first() else {
        return;
    };
    out.push(first);
    let mut i = 0;
    while i + 1 < path.len() {
        i = next_waypoint(layer, path, i);
        out.push(path[i]);
    }
}

/// A later index of `path` visible from `path[from]` whose successor is hidden (or the
/// last index), by galloping then bisecting; `from + 1` is taken as visible, which holds
/// for every step of a valid path.
fn next_waypoint(layer: &Layer, path: &[Cell], from: usize) -> usize {
    let last = path.len() - 1;
    let origin = path[from];
    let sees = |j: usize| line_of_sight(layer, origin, path[j]);
    let mut visible = from + 1;
    let mut stride = 2;
    let mut hidden = loop {
        if visible == last {
            return last;
        }
        let probe = from.saturating_add(stride).min(last);
        if !sees(probe) {
            break probe;
        }
        visible = probe;
        stride = stride.saturating_mul(2);
    };
    while hidden - visible > 1 {
        let mid = visible + (hidden - visible) / 2;
        if sees(mid) {
            visible = mid;
        } else {
            hidden = mid;
        }
    }
    visible
}

#[cfg(test)]
mod tests {
    use super::{line_of_sight, smooth};
    use crate::grid::{Cell, Connectivity, GridSize, path_length};
    use crate::scenario::{CachedScenario, Layer, render};
    use crate::search::{Algorithm, PathQuery, Pathfinder};
    use crate::test_support::{free_cell, random_map};
    use proptest::prelude::*;

    fn cells(list: &[(i32, i32)]) -> Vec<Cell> {
        list.iter().map(|&c| Cell::from(c)).collect()
    }

    fn smoothed(layer: &Layer, path: &[Cell]) -> Vec<Cell> {
        let mut out = Vec::new();
        smooth(layer, path, &mut out);
        out
    }

    #[test]
    fn smoothing_a_straight_path_leaves_its_two_ends() {
        let open = CachedScenario::new(GridSize::new(10, 10)).unwrap();
        let layer = open.layer(1).unwrap();
        let row: Vec<Cell> = (0..10).map(|x| Cell::new(x, 4)).collect();
        assert_eq!(smoothed(layer, &row), cells(&[(0, 4), (9, 4)]));
        let diagonal: Vec<Cell> = (0..10).map(|i| Cell::new(i, 9 - i)).collect();
        assert_eq!(smoothed(layer, &diagonal), cells(&[(0, 9), (9, 0)]));
    }

    #[test]
    fn smoothing_an_empty_or_single_cell_path_copies_it() {
        let open = CachedScenario::new(GridSize::new(3, 3)).unwrap();
        let layer = open.layer(1).unwrap();
        assert!(smoothed(layer, &[]).is_empty());
        assert_eq!(smoothed(layer, &cells(&[(1, 1)])), cells(&[(1, 1)]));
    }

    #[test]
    fn smoothing_keeps_the_corners_around_an_l_shaped_wall() {
        let m = CachedScenario::from_ascii(
            "
            .........
            .#.......
            .#.......
            .#####...
            .........
            ",
        )
        .unwrap();
        let layer = m.layer(1).unwrap();
        // From inside the L, out over its top and down its outer side.
        let path = cells(&[
            (2, 1),
            (2, 0),
            (1, 0),
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 4),
            (2, 4),
        ]);
        let out = smoothed(layer, &path);
        assert_eq!(
            out,
            cells(&[(2, 1), (2, 0), (0, 0), (0, 4), (2, 4)]),
            "\n{}",
            render(&m, &out)
        );
    }

    #[test]
    fn smoothing_cuts_across_open_ground_but_not_through_a_pillar() {
        let m = CachedScenario::from_ascii(
            "
            ......
            ......
            ..#...
            ......
            ",
        )
        .unwrap();
        let layer = m.layer(1).unwrap();
        // Right along row 1, then down-right: (0, 1) to (5, 3) would cross the pillar.
        let path = cells(&[(0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 3)]);
        let out = smoothed(layer, &path);
        assert!(!line_of_sight(layer, Cell::new(0, 1), Cell::new(5, 3)));
        assert_eq!(
            out,
            cells(&[(0, 1), (3, 1), (5, 3)]),
            "\n{}",
            render(&m, &out)
        );
    }

    /// Asserts the guarantees of [`smooth`] for `out` smoothed from `path`.
    fn check_smoothing(m: &CachedScenario, layer: &Layer, path: &[Cell], out: &[Cell]) {
        let drawing = || format!("path\n{}waypoints\n{}", render(m, path), render(m, out));
        assert_eq!(out.first(), path.first(), "{}", drawing());
        assert_eq!(out.last(), path.last(), "{}", drawing());
        assert!(
            path_length(out) <= path_length(path) + 1e-9,
            "smoothing lengthened the path\n{}",
            drawing()
        );
        // Waypoints are path cells in order; each segment is visible, each end locally furthest.
        let mut at = 0;
        for w in out.windows(2) {
            assert!(
                line_of_sight(layer, w[0], w[1]),
                "{} -> {} blocked\n{}",
                w[0],
                w[1],
                drawing()
            );
            let next = at + 1 + path[at + 1..].iter().position(|&c| c == w[1]).unwrap();
            if next + 1 < path.len() {
                assert!(
                    !line_of_sight(layer, w[0], path[next + 1]),
                    "{} could see past {}\n{}",
                    w[0],
                    w[1],
                    drawing()
                );
            }
            at = next;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn smoothing_never_lengthens_and_stays_in_sight_on_random_grids(
            width in 1u32..=30,
            height in 1u32..=30,
            percent in 0u64..=45,
            seed in any::<u64>(),
            picks in proptest::collection::vec((any::<u64>(), any::<u64>()), 3),
        ) {
            let m = random_map(width, height, percent, seed);
            let mut pf = Pathfinder::new();
            for diameter in [1, 3] {
                let layer = m.layer(diameter).unwrap();
                for &(a, b) in &picks {
                    let (Some(start), Some(goal)) = (free_cell(layer, a), free_cell(layer, b)) else {
                        continue;
                    };
                    for algorithm in [Algorithm::AStar, Algorithm::Dfs] {
                        for conn in [Connectivity::Octile, Connectivity::Cardinal] {
                            let q = PathQuery::new(start, goal)
                                .diameter(diameter)
                                .algorithm(algorithm)
                                .connectivity(conn)
                                .smooth(true);
                            let Ok(stats) = pf.find(&m, &q) else {
                                continue;
                            };
                            let path = pf.path().to_vec();
                            let out = smoothed(layer, &path);
                            check_smoothing(&m, layer, &path, &out);
                            prop_assert_eq!(pf.waypoints(), &out[..]);
                            // `length` comes from fixed-point costs: √2 is off by < 3e-9.
                            prop_assert!(stats.smoothed_length <= stats.length * (1.0 + 1e-8));
                        }
                    }
                }
            }
        }
    }
}
