//! Smoothing on drawn walls and on paths found by the pathfinder over random grids.

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
