//! JPS and JPS+ against Dijkstra: random grids, word boundaries, map edges, wide agents, cut jumps.

use crate::grid::{Cell, Connectivity, GridSize};
use crate::scenario::generate::SplitMix64;
use crate::scenario::window;
use crate::scenario::{BitGrid, CachedScenario, JumpTable, render};
use crate::search::{Algorithm, PathQuery, PathStats, Pathfinder, validate_path};
use crate::test_support::random_map;
use proptest::prelude::*;

/// Checks `path` against the movement rules for the layer of `diameter`.
fn check_path(map: &CachedScenario, diameter: u32, path: &[Cell], start: Cell, goal: Cell) {
    let layer = map.layer(diameter).unwrap();
    let valid = validate_path(layer, path, start, goal, Connectivity::Octile);
    assert_eq!(valid, Ok(()), "{}", render(map, path));
}

/// Runs JPS, JPS+ and Dijkstra on one query; asserts equal outcomes and valid paths.
/// Returns the JPS answer.
fn compare(pf: &mut Pathfinder, map: &CachedScenario, query: PathQuery) -> Option<PathStats> {
    let reference = pf.find(map, &query.algorithm(Algorithm::Dijkstra));
    let expected = render(map, pf.path());
    let mut answers = [Algorithm::Jps, Algorithm::JpsPlus].map(|algorithm| {
        let found = pf.find(map, &query.algorithm(algorithm));
        let drawing = format!(
            "{algorithm}:\n{}Dijkstra:\n{expected}",
            render(map, pf.path())
        );
        match (reference, found) {
            (Ok(r), Ok(j)) => {
                assert_eq!(
                    j.cost, r.cost,
                    "{algorithm} cost differs from Dijkstra for {query:?}\n{drawing}"
                );
                check_path(map, query.diameter, pf.path(), query.start, query.goal);
                Some(j)
            }
            (r, j) => {
                assert_eq!(j, r, "{algorithm} outcome differs for {query:?}\n{drawing}");
                None
            }
        }
    });
    answers[0].take()
}

/// Compares JPS with Dijkstra on `pairs` random start/goal pairs of free cells.
fn compare_random_queries(map: &CachedScenario, diameter: u32, seed: u64, pairs: usize) {
    let layer = map.layer(diameter).unwrap();
    let size = map.size();
    let free: Vec<Cell> = (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| !layer.is_blocked(c))
        .collect();
    if free.is_empty() {
        return;
    }
    let mut pf = Pathfinder::new();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..pairs {
        let rng = rng.next_u64();
        let a = free[(rng % free.len() as u64) as usize];
        let b = free[((rng >> 32) % free.len() as u64) as usize];
        compare(&mut pf, map, PathQuery::new(a, b).diameter(diameter));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn jps_cost_equals_dijkstra_on_random_grids(
        width in 1u32..=40,
        height in 1u32..=40,
        percent in 0u64..=45,
        seed in any::<u64>(),
    ) {
        let map = random_map(width, height, percent, seed);
        for diameter in [1, 3] {
            compare_random_queries(&map, diameter, seed, 8);
        }
    }

    #[test]
    fn jps_cost_equals_dijkstra_on_wide_and_tall_grids(
        long in 60u32..=200,
        short in 1u32..=6,
        percent in 0u64..=35,
        seed in any::<u64>(),
    ) {
        for (width, height) in [(long, short), (short, long)] {
            let map = random_map(width, height, percent, seed);
            for diameter in [1, 3] {
                compare_random_queries(&map, diameter, seed, 4);
            }
        }
    }
}

fn jps(map: &CachedScenario, start: (i32, i32), goal: (i32, i32)) -> (PathStats, Vec<Cell>) {
    let mut pf = Pathfinder::new();
    let q = PathQuery::new(start.into(), goal.into()).algorithm(Algorithm::Jps);
    let stats = compare(&mut pf, map, q).expect("a path exists");
    pf.find(map, &q).unwrap();
    (stats, pf.path().to_vec())
}

#[test]
fn corridor_is_walked_straight_through() {
    let map = CachedScenario::from_ascii(
        "
        ##########
        ..........
        ##########
        ",
    )
    .unwrap();
    let (stats, path) = jps(&map, (0, 1), (9, 1));
    assert_eq!(stats.length, 9.0);
    assert_eq!(path.len(), 10);
    assert!(path.iter().all(|c| c.y == 1));
}

#[test]
fn diagonal_squeeze_between_two_walls_is_not_cut() {
    let map = CachedScenario::from_ascii(
        "
        ......
        ..#...
        ...#..
        ......
        ",
    )
    .unwrap();
    let (stats, path) = jps(&map, (2, 2), (3, 1));
    assert!(
        !path
            .windows(2)
            .any(|w| w[0] == Cell::new(2, 2) && w[1] == Cell::new(3, 1))
    );
    assert_eq!(stats.length, 6.0);
}

#[test]
fn goal_in_the_middle_of_a_straight_jump_is_found() {
    let map = CachedScenario::new(GridSize::new(12, 12)).unwrap();
    let (stats, _) = jps(&map, (0, 4), (7, 4));
    assert_eq!(stats.length, 7.0);
    let (stats, _) = jps(&map, (9, 11), (9, 2));
    assert_eq!(stats.length, 9.0);
    let (stats, _) = jps(&map, (11, 0), (3, 0));
    assert_eq!(stats.length, 8.0);
    let (stats, _) = jps(&map, (5, 1), (5, 10));
    assert_eq!(stats.length, 9.0);
}

#[test]
fn goal_on_a_diagonal_jump_is_found() {
    let map = CachedScenario::new(GridSize::new(10, 10)).unwrap();
    let (stats, path) = jps(&map, (1, 8), (6, 3));
    assert!((stats.length - 5.0 * std::f64::consts::SQRT_2).abs() < 1e-6);
    assert_eq!(path.len(), 6);
    let (stats, _) = jps(&map, (0, 0), (7, 3));
    assert!((stats.length - (3.0 * std::f64::consts::SQRT_2 + 4.0)).abs() < 1e-6);
}

#[test]
fn open_map_search_touches_only_a_few_jump_points() {
    let map = CachedScenario::new(GridSize::new(100, 100)).unwrap();
    let mut pf = Pathfinder::new();
    let q = PathQuery::new(Cell::new(0, 0), Cell::new(99, 60)).algorithm(Algorithm::Jps);
    let stats = pf.find(&map, &q).unwrap();
    assert!((stats.length - (60.0 * std::f64::consts::SQRT_2 + 39.0)).abs() < 1e-6);
    assert!(stats.expanded <= 3, "expanded {}", stats.expanded);
    assert!(pf.explored().count() < 20);
    assert!(pf.explored().any(|c| c == Cell::new(99, 60)));
}

/// Walls with gaps at and around the 64-bit word boundaries, so straight jumps meet
/// forced neighbours and the map edge at x = 63, 64, 65 (and 127, 128, 129).
fn boundary_map(width: u32, transpose: bool) -> CachedScenario {
    let mut bits = BitGrid::new(GridSize::new(width, 5), false);
    for x in [62, 64, 127, 129] {
        bits.set(Cell::new(x, 0), true);
    }
    for x in [63, 65, 128] {
        bits.set(Cell::new(x, 4), true);
    }
    for x in [66, 130] {
        bits.set(Cell::new(x, 2), true);
    }
    if transpose {
        bits = bits.transposed();
    }
    CachedScenario::from_bits(bits).unwrap()
}

#[test]
fn jumps_across_word_boundaries_and_map_edges_stay_exact() {
    let mut pf = Pathfinder::new();
    for width in [62, 63, 64, 65, 66, 67, 127, 128, 129, 130, 131, 200, 300] {
        for transpose in [false, true] {
            let map = boundary_map(width, transpose);
            let size = map.size();
            let last = Cell::new(size.width as i32 - 1, size.height as i32 - 1);
            for y in 0..5 {
                for (a, b) in [
                    (Cell::new(0, y), Cell::new(last.x, 4 - y)),
                    (Cell::new(last.x, y), Cell::new(0, y)),
                    (Cell::new(63, y), Cell::new(last.x, 0)),
                    (Cell::new(last.x, y), Cell::new(64, 1)),
                ] {
                    let (a, b) = if transpose {
                        (Cell::new(a.y, a.x), Cell::new(b.y, b.x))
                    } else {
                        (a, b)
                    };
                    if size.contains(a) && size.contains(b) {
                        compare(&mut pf, &map, PathQuery::new(a, b));
                    }
                }
            }
        }
    }
}

#[test]
fn wide_map_path_runs_end_to_end() {
    let map = CachedScenario::new(GridSize::new(300, 3)).unwrap();
    let (stats, path) = jps(&map, (0, 0), (299, 2));
    assert!((stats.length - (297.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-6);
    assert_eq!(path.len(), 300);
}

#[test]
fn wide_agents_use_only_gaps_they_fit_through() {
    let map = CachedScenario::from_ascii(
        "
        ..............
        ..............
        ..............
        ####.####...##
        ..............
        ..............
        ..............
        ",
    )
    .unwrap();
    let mut pf = Pathfinder::new();
    let q = PathQuery::new(Cell::new(4, 1), Cell::new(4, 5));
    assert_eq!(compare(&mut pf, &map, q).unwrap().length, 4.0);
    let wide = compare(&mut pf, &map, q.diameter(3)).unwrap();
    assert!(wide.length > 8.0);
    pf.find(&map, &q.diameter(3).algorithm(Algorithm::Jps))
        .unwrap();
    assert!(pf.path().contains(&Cell::new(10, 3)));
}

#[test]
fn windows_read_off_line_cells_as_blocked() {
    let line = [0u64, 0xF0];
    assert_eq!(window(&line, 0), 0);
    assert_eq!(window(&line, 60), 0xF << 8);
    assert_eq!(window(&line, -3), 0b111);
    assert_eq!(window(&line, 128), !0);
    assert_eq!(window(&line, 100), !0 << 28);
    assert_eq!(window(&[], 5), !0);
}

#[test]
fn jumps_cut_into_short_pieces_stay_exact() {
    // Tables whose jumps are cut every 1 to 5 steps: every piece's end is a waypoint
    // the search continues from, so costs must not change.
    let mut rng = SplitMix64::new(3);
    for cap in 1..=5 {
        for (w, h, percent) in [(30, 20, 10), (70, 9, 0), (9, 70, 20)] {
            let map = random_map(w, h, percent, rng.next_u64());
            for diameter in [1, 2] {
                let layer = map.layer(diameter).unwrap();
                layer.use_jump_table(JumpTable::build_capped(layer.bits(), cap));
                compare_random_queries(&map, diameter, rng.next_u64(), 30);
            }
        }
    }
}

#[test]
fn jps_plus_expands_no_more_than_online_jps_on_an_open_map() {
    let map = CachedScenario::new(GridSize::new(100, 100)).unwrap();
    let mut pf = Pathfinder::new();
    let q = PathQuery::new(Cell::new(0, 0), Cell::new(99, 60)).algorithm(Algorithm::JpsPlus);
    let stats = pf.find(&map, &q).unwrap();
    assert!((stats.length - (60.0 * std::f64::consts::SQRT_2 + 39.0)).abs() < 1e-6);
    assert!(stats.expanded <= 3, "expanded {}", stats.expanded);
}

/// Sliced JPS and JPS+: a slice expands at most its budget, and answers what an unsliced search answers.
mod slices {
    use crate::grid::Cell;
    use crate::scenario::CachedScenario;
    use crate::scenario::generate::SplitMix64;
    use crate::search::{Algorithm, PathQuery, Pathfinder, Progress};
    use crate::test_support::{free_cell, random_map};

    /// Open ground with scattered walls: long diagonals, each crossed by many diagonal
    /// jump points (one beside every wall it passes).
    fn open_map(seed: u64) -> CachedScenario {
        let map = random_map(96, 96, 4, seed);
        map.build_jump_tables();
        map
    }

    /// Runs `query` in slices of `budget`, asserting that no slice expands more than the
    /// budget (the overrun constant of [`Pathfinder::start`] is 0); returns the answer's
    /// cost and the number of slices.
    fn sliced_cost(
        pf: &mut Pathfinder,
        map: &CachedScenario,
        query: &PathQuery,
        budget: u32,
    ) -> (u64, u32) {
        let mut before = 0;
        let mut progress = pf.start(map, query, budget);
        let mut slices = 1;
        loop {
            let spent = pf.last_expanded() - before;
            assert!(
                spent <= budget,
                "{:?} slice {slices} of budget {budget} expanded {spent} for {query:?}",
                query.algorithm
            );
            match progress {
                Ok(Progress::Suspended { expanded }) => {
                    assert_eq!(expanded, pf.last_expanded());
                    before = expanded;
                }
                Ok(Progress::Done(stats)) => {
                    assert_eq!(stats.expanded, pf.last_expanded());
                    return (stats.cost, slices);
                }
                Err(e) => panic!("{query:?} in slices of {budget}: {e:?}"),
            }
            progress = pf.resume(map, budget);
            slices += 1;
        }
    }

    #[test]
    fn jps_and_jps_plus_slices_expand_at_most_their_budget_and_stay_exact() {
        let mut pf = Pathfinder::new();
        let mut rng = SplitMix64::new(46);
        let mut multi_slice = 0;
        for seed in 0..4 {
            let map = open_map(seed);
            let layer = map.layer(1).unwrap();
            for _ in 0..6 {
                let pick = rng.next_u64();
                let (Some(a), Some(b)) = (
                    free_cell(layer, pick % 9216),
                    free_cell(layer, (pick >> 32) % 9216),
                ) else {
                    continue;
                };
                if a == b {
                    continue;
                }
                for algorithm in [Algorithm::Jps, Algorithm::JpsPlus, Algorithm::Auto] {
                    let query = PathQuery::new(a, b).algorithm(algorithm);
                    let whole = pf.find(&map, &query).expect("open map: reachable");
                    for budget in [1, 2, 16, 300] {
                        let (cost, slices) = sliced_cost(&mut pf, &map, &query, budget);
                        assert_eq!(cost, whole.cost, "{query:?} in slices of {budget}");
                        multi_slice += u32::from(slices > 1);
                    }
                }
            }
        }
        // The bound was put to work: most of these searches took more than one slice.
        assert!(multi_slice > 100, "{multi_slice} sliced searches");
    }

    #[test]
    fn a_single_long_diagonal_walk_is_cut_at_the_budget() {
        // One diagonal from corner to corner past a wall beside every fourth cell: each
        // of those cells is a diagonal jump point met by the start's first walk.
        let mut map = CachedScenario::new(crate::grid::GridSize::new(64, 64)).unwrap();
        for k in (4..60).step_by(4) {
            map.set_obstacle(Cell::new(k + 1, k - 1), true);
        }
        map.build_jump_tables();
        let mut pf = Pathfinder::new();
        for algorithm in [Algorithm::Jps, Algorithm::JpsPlus] {
            let query = PathQuery::new(Cell::new(0, 0), Cell::new(63, 63)).algorithm(algorithm);
            let whole = pf.find(&map, &query).unwrap();
            assert!(
                whole.expanded > 8,
                "{algorithm}: {} expanded",
                whole.expanded
            );
            for budget in [1, 2, 3] {
                let (cost, slices) = sliced_cost(&mut pf, &map, &query, budget);
                assert_eq!(cost, whole.cost, "{algorithm} in slices of {budget}");
                assert!(slices > 1, "{algorithm}: {slices} slices of {budget}");
            }
        }
    }
}
