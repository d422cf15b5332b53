//! Differential property tests: every algorithm against a plain Dijkstra oracle on random grids.
//!
//! Grids are up to 200 cells long (in either direction) so that JPS's 64-cell word
//! scans cross word boundaries both ways, and at most 24 cells across so each case
//! stays fast. Every algorithm is complete with the default query (DFS's radius is the
//! whole map, IDDFS grows to it, best-first and evasion always reach a connected
//! goal), so a path that exists must be found. Failures print the map as ASCII.

mod common;

use common::{cost_of, oracle_cost, picture, random_grid};
use proptest::prelude::*;
use tilepath::grid::{Cell, Connectivity, GridSize};
use tilepath::prelude::*;
use tilepath::search::validate_path;

struct Case {
    bits: tilepath::scenario::BitGrid,
    start: Cell,
    goal: Cell,
    diameter: u32,
    connectivity: Connectivity,
}

/// Proptest prints the shrunk failing case with this: the grid as ASCII, S and G marked.
impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "start {} goal {} diameter {} {:?}{}",
            self.start,
            self.goal,
            self.diameter,
            self.connectivity,
            picture(&self.bits, &[self.start, self.goal])
        )
    }
}

fn cases() -> impl Strategy<Value = Case> {
    (
        2u32..=200,
        2u32..=24,
        any::<bool>(),
        0u32..=45,
        any::<u64>(),
        prop_oneof![Just(1u32), Just(3), Just(5)],
        prop_oneof![4 => Just(Connectivity::Octile), 1 => Just(Connectivity::Cardinal)],
        any::<(u16, u16, u16, u16)>(),
    )
        .prop_map(
            |(long, short, tall, percent, seed, diameter, connectivity, (a, b, c, d))| {
                let (w, h) = if tall { (short, long) } else { (long, short) };
                let size = GridSize::new(w, h);
                let mut bits = random_grid(size, percent, seed);
                let start = Cell::new(i32::from(a) % w as i32, i32::from(b) % h as i32);
                let goal = Cell::new(i32::from(c) % w as i32, i32::from(d) % h as i32);
                // Keep most cases solvable: clear the ends' footprints half of the time.
                if seed % 2 == 0 {
                    let r = (diameter / 2) as i32;
                    for end in [start, goal] {
                        for y in end.y - r..=end.y + r {
                            for x in end.x - r..=end.x + r {
                                bits.set(Cell::new(x, y), false);
                            }
                        }
                    }
                }
                Case {
                    bits,
                    start,
                    goal,
                    diameter,
                    connectivity,
                }
            },
        )
}

fn check(algorithm: Algorithm, case: &Case) -> Result<(), TestCaseError> {
    let map = CachedScenario::from_bits(case.bits.clone()).unwrap();
    let scenario = common::ascii(&picture(&case.bits, &[]));
    let oracle = oracle_cost(
        &scenario,
        case.start,
        case.goal,
        case.diameter,
        case.connectivity,
    );
    let query = PathQuery::new(case.start, case.goal)
        .algorithm(algorithm)
        .diameter(case.diameter)
        .connectivity(case.connectivity)
        .smooth(true);
    let mut pf = Pathfinder::new();
    let result = pf.find(&map, &query);
    let layer = map.layer(case.diameter).unwrap();
    let shown = || {
        format!(
            "{algorithm} d={} {:?} {} -> {}: oracle {oracle:?}, got {result:?}{}",
            case.diameter,
            case.connectivity,
            case.start,
            case.goal,
            picture(&case.bits, pf.path())
        )
    };
    match (oracle, result) {
        (None, Ok(_)) => prop_assert!(false, "found a path where none exists: {}", shown()),
        (None, Err(e)) => prop_assert!(
            matches!(
                e,
                PathError::StartBlocked { .. }
                    | PathError::GoalBlocked { .. }
                    | PathError::Unreachable
            ),
            "wrong failure: {}",
            shown()
        ),
        (Some(_), Err(_)) => prop_assert!(false, "missed an existing path: {}", shown()),
        (Some(best), Ok(stats)) => {
            let valid = validate_path(layer, pf.path(), case.start, case.goal, case.connectivity);
            prop_assert!(valid.is_ok(), "invalid path ({valid:?}): {}", shown());
            prop_assert_eq!(
                stats.cost,
                cost_of(pf.path()),
                "reported cost differs: {}",
                shown()
            );
            if algorithm.is_optimal() {
                prop_assert_eq!(stats.cost, best, "not optimal: {}", shown());
            } else {
                prop_assert!(stats.cost >= best, "beats the optimum: {}", shown());
            }
            prop_assert!(
                stats.smoothed_length <= stats.length + 1e-9,
                "smoothing lengthened: {}",
                shown()
            );
            let w = pf.waypoints();
            prop_assert_eq!(w.first(), Some(&case.start));
            prop_assert_eq!(w.last(), Some(&case.goal));
            for s in w.windows(2) {
                prop_assert!(
                    tilepath::smoothing::line_of_sight(layer, s[0], s[1]),
                    "smoothed segment {} -> {} not visible: {}",
                    s[0],
                    s[1],
                    shown()
                );
            }
        }
    }
    Ok(())
}

macro_rules! differential {
    ($name:ident, $algo:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            #[test]
            fn $name(case in cases()) {
                check($algo, &case)?;
            }
        }
    };
}

differential!(
    astar_costs_equal_the_oracle_and_paths_are_valid,
    Algorithm::AStar
);
differential!(
    jps_costs_equal_the_oracle_and_paths_are_valid,
    Algorithm::Jps
);
differential!(
    dijkstra_costs_equal_the_oracle_and_paths_are_valid,
    Algorithm::Dijkstra
);
differential!(
    bfs_always_finds_a_valid_path_when_one_exists,
    Algorithm::Bfs
);
differential!(
    dfs_over_the_whole_map_finds_a_valid_path_when_one_exists,
    Algorithm::Dfs
);
differential!(iddfs_finds_a_valid_path_when_one_exists, Algorithm::Iddfs);
differential!(
    best_first_finds_a_valid_path_when_one_exists,
    Algorithm::BestFirst
);
differential!(
    evasion_finds_a_valid_path_when_one_exists,
    Algorithm::Evasion
);

#[test]
fn a_reused_pathfinder_answers_like_a_fresh_one() {
    let bits = random_grid(GridSize::new(60, 40), 25, 11);
    let map = CachedScenario::from_bits(bits).unwrap();
    let mut reused = Pathfinder::new();
    let mut answered = 0;
    for i in 0..200 {
        let q = PathQuery::new(
            Cell::new(i % 60, (i * 7) % 40),
            Cell::new((i * 13) % 60, (i * 3) % 40),
        )
        .algorithm(Algorithm::ALL[i as usize % Algorithm::ALL.len()]);
        let a = reused.find(&map, &q);
        let mut fresh = Pathfinder::new();
        let b = fresh.find(&map, &q);
        assert_eq!(a, b, "query {q:?}");
        assert_eq!(reused.path(), fresh.path());
        answered += usize::from(a.is_ok());
    }
    assert!(
        answered > 50,
        "too few solvable queries to mean anything: {answered}"
    );
}

#[test]
fn a_pathfinder_moved_between_maps_of_different_sizes_answers_like_a_fresh_one() {
    // The per-cell record layout depends on the map size; switching maps must neither
    // revive cells of the other map nor lose a parent.
    let maps: Vec<CachedScenario> = [(300, 7, 1), (9, 5, 2), (64, 64, 3), (2, 200, 4)]
        .into_iter()
        .map(|(w, h, seed)| {
            CachedScenario::from_bits(random_grid(GridSize::new(w, h), 20, seed)).unwrap()
        })
        .collect();
    let mut reused = Pathfinder::new();
    let mut answered = 0;
    for i in 0..160i32 {
        let map = &maps[i as usize % maps.len()];
        let size = map.size();
        let (w, h) = (size.width as i32, size.height as i32);
        let q = PathQuery::new(
            Cell::new((i * 7) % w, (i * 3) % h),
            Cell::new(w - 1 - (i * 5) % w, h - 1 - (i * 11) % h),
        )
        .algorithm(Algorithm::ALL[(i as usize / maps.len()) % Algorithm::ALL.len()]);
        let a = reused.find(map, &q);
        let mut fresh = Pathfinder::new();
        assert_eq!(a, fresh.find(map, &q), "query {q:?}");
        assert_eq!(reused.path(), fresh.path());
        assert_eq!(reused.explored().count(), fresh.explored().count());
        answered += usize::from(a.is_ok());
    }
    assert!(answered > 40, "too few solvable queries: {answered}");
}

#[test]
fn limits_stop_a_search_with_a_typed_error() {
    let map = CachedScenario::new(GridSize::new(100, 100)).unwrap();
    let q = PathQuery::new(Cell::new(0, 0), Cell::new(99, 99))
        .algorithm(Algorithm::Dijkstra)
        .limits(Limits {
            max_expanded: 10,
            time_budget: None,
        });
    let mut pf = Pathfinder::new();
    assert_eq!(
        pf.find(&map, &q),
        Err(PathError::LimitReached {
            limit: tilepath::search::Limit::Expanded,
            expanded: 10
        })
    );
    assert!(pf.path().is_empty());
    let q = q.limits(Limits {
        max_expanded: u32::MAX,
        time_budget: Some(std::time::Duration::ZERO),
    });
    assert!(matches!(
        pf.find(&map, &q),
        Err(PathError::LimitReached {
            limit: tilepath::search::Limit::Time,
            ..
        })
    ));
}

#[test]
fn bad_queries_get_typed_errors() {
    let map = CachedScenario::from_ascii("...\n.#.\n...").unwrap();
    let mut pf = Pathfinder::new();
    let q = |s: Cell, g: Cell| PathQuery::new(s, g);
    assert_eq!(
        pf.find(&map, &q(Cell::new(-1, 0), Cell::new(0, 0))),
        Err(PathError::OutOfBounds {
            cell: Cell::new(-1, 0)
        })
    );
    assert_eq!(
        pf.find(&map, &q(Cell::new(1, 1), Cell::new(0, 0))),
        Err(PathError::StartBlocked {
            cell: Cell::new(1, 1),
            diameter: 1
        })
    );
    assert_eq!(
        pf.find(&map, &q(Cell::new(0, 0), Cell::new(1, 1))),
        Err(PathError::GoalBlocked {
            cell: Cell::new(1, 1),
            diameter: 1
        })
    );
    assert_eq!(
        pf.find(&map, &q(Cell::new(0, 0), Cell::new(2, 2)).diameter(0)),
        Err(PathError::InvalidDiameter { diameter: 0 })
    );
    assert_eq!(
        pf.find(&map, &q(Cell::new(0, 0), Cell::new(2, 2)).diameter(3)),
        Err(PathError::StartBlocked {
            cell: Cell::new(0, 0),
            diameter: 3
        })
    );
    let split = CachedScenario::from_ascii(".#.\n.#.\n.#.").unwrap();
    assert_eq!(
        pf.find(&split, &q(Cell::new(0, 0), Cell::new(2, 2))),
        Err(PathError::Unreachable)
    );
    assert_eq!(
        pf.last_expanded(),
        0,
        "unreachable is answered without a search"
    );
}
