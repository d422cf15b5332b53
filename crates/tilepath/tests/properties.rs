//! Differential property tests: every algorithm against a plain Dijkstra oracle on random grids.
//!
//! Grids are up to 200 cells long (in either direction) so that JPS's 64-cell word
//! scans cross word boundaries both ways, and at most 24 cells across so each case
//! stays fast. Two cases in three carry terrain (4 kinds, weights 1..=255 with small
//! ones more often, sometimes one kind blocked, sometimes all equal so the layer is
//! uniform), searched with two registered profiles (the case's weights, then the same
//! weights rotated by one terrain); diameters 1 to 5, odd and even. Every algorithm is complete with the default query (DFS's radius is the
//! whole map, IDDFS grows to it, best-first and evasion always reach a connected
//! goal), so a path that exists must be found. Failures print the map as ASCII.
//!
//! 1,000 cases per algorithm, 10,000 a run (plus the saved regressions), each test
//! printing `properties <test>: N cases` past the output capture.

mod common;

use common::{cost_of, picture, random_grid};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use tilepath::grid::{Cell, Connectivity, GridSize, cost_to_f64};
use tilepath::prelude::*;
use tilepath::scenario::{MovementProfile, ProfileId};
use tilepath::search::validate_path;

/// Terrain kinds of the weighted cases (ids 0..KINDS).
const KINDS: u8 = 4;

#[derive(Clone)]
struct Case {
    bits: tilepath::scenario::BitGrid,
    start: Cell,
    goal: Cell,
    diameter: u32,
    connectivity: Connectivity,
    /// Terrain ids and the weight per id (0 = blocked), or `None` for a map without terrain.
    terrain: Option<(Vec<u8>, [u8; KINDS as usize])>,
}

impl Case {
    fn weight(&self, cell: Cell) -> Option<u8> {
        match &self.terrain {
            None => Some(1),
            Some((ids, weights)) => {
                let size = self.bits.size();
                match weights[ids[size.index(cell)] as usize] {
                    0 => None,
                    w => Some(w),
                }
            }
        }
    }

    fn profile(&self) -> MovementProfile {
        let mut profile = MovementProfile::new();
        if let Some((_, weights)) = &self.terrain {
            for (id, &w) in weights.iter().enumerate() {
                profile = match w {
                    0 => profile.with_blocked(id as u8),
                    w => profile.with_weight(id as u8, w),
                };
            }
        }
        profile
    }

    /// The terrain as digits (the terrain id), obstacles as `#`, start `S`, goal `G`.
    fn terrain_picture(&self) -> String {
        let Some((ids, weights)) = &self.terrain else {
            return String::new();
        };
        let size = self.bits.size();
        let mut text = format!("\nterrain weights by id {weights:?} (0 = blocked):\n");
        for y in 0..size.height as i32 {
            for x in 0..size.width as i32 {
                let c = Cell::new(x, y);
                text.push(if c == self.start {
                    'S'
                } else if c == self.goal {
                    'G'
                } else if self.bits.get_or(c, true) {
                    '#'
                } else {
                    char::from(b'0' + ids[size.index(c)])
                });
            }
            text.push('\n');
        }
        text
    }
}

/// Proptest prints the shrunk failing case with this: the grid as ASCII, S and G marked,
/// and the terrain ids when there are any.
impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "start {} goal {} diameter {} {:?}{}{}",
            self.start,
            self.goal,
            self.diameter,
            self.connectivity,
            picture(&self.bits, &[self.start, self.goal]),
            self.terrain_picture()
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
        prop_oneof![3 => Just(1u32), 1 => Just(2), 2 => Just(3), 1 => Just(4), 1 => Just(5)],
        prop_oneof![4 => Just(Connectivity::Octile), 1 => Just(Connectivity::Cardinal)],
        any::<(u16, u16, u16, u16)>(),
        prop_oneof![
            1 => Just(None),
            // Weights 1..=9, one terrain sometimes blocked; sometimes all equal (uniform).
            // Weights 1..=255, small ones more often (so detours pay off), 0 = blocked.
            2 => (
                prop::array::uniform4(prop_oneof![3 => 0u8..=9, 1 => 0u8..=255]),
                any::<bool>()
            )
                .prop_map(Some),
        ],
    )
        .prop_map(
            |(long, short, tall, percent, seed, diameter, connectivity, (a, b, c, d), weights)| {
                let (w, h) = if tall { (short, long) } else { (long, short) };
                let size = GridSize::new(w, h);
                let mut bits = random_grid(size, percent, seed);
                let start = Cell::new(i32::from(a) % w as i32, i32::from(b) % h as i32);
                let goal = Cell::new(i32::from(c) % w as i32, i32::from(d) % h as i32);
                // Keep most cases solvable: clear the ends' footprints half of the time.
                if seed % 2 == 0 {
                    let (lo, hi) = (((diameter - 1) / 2) as i32, (diameter / 2) as i32);
                    for end in [start, goal] {
                        for y in end.y - lo..=end.y + hi {
                            for x in end.x - lo..=end.x + hi {
                                bits.set(Cell::new(x, y), false);
                            }
                        }
                    }
                }
                let terrain = weights.map(|(mut weights, uniform)| {
                    if uniform {
                        weights = [weights[0].max(1); KINDS as usize];
                    } else if seed % 3 != 0 {
                        // Blocked terrain in one case of three only: open more of them.
                        for w in &mut weights {
                            *w = (*w).max(1);
                        }
                    }
                    (common::random_terrain(size, KINDS, seed ^ 0x5eed), weights)
                });
                Case {
                    bits,
                    start,
                    goal,
                    diameter,
                    connectivity,
                    terrain,
                }
            },
        )
}

/// Checks the case with its profile and with a second profile on the same map (its
/// weights rotated by one terrain), so every case covers two profiles.
fn check(algorithm: Algorithm, case: &Case) -> Result<(), TestCaseError> {
    check_one(algorithm, case)?;
    if let Some((ids, weights)) = &case.terrain {
        let mut rotated = *weights;
        rotated.rotate_left(1);
        let mut second = case.clone();
        second.terrain = Some((ids.clone(), rotated));
        check_one(algorithm, &second)?;
    }
    Ok(())
}

fn check_one(algorithm: Algorithm, case: &Case) -> Result<(), TestCaseError> {
    let mut map = match &case.terrain {
        None => CachedScenario::from_bits(case.bits.clone()).unwrap(),
        Some((ids, _)) => {
            CachedScenario::from_bits_and_terrain(case.bits.clone(), ids.clone()).unwrap()
        }
    };
    let profile = ProfileId(1);
    map.set_profile(profile, case.profile());
    let scenario = common::ascii(&picture(&case.bits, &[]));
    let oracle = common::oracle_weighted_cost(
        &scenario,
        |c| case.weight(c),
        case.start,
        case.goal,
        case.diameter,
        case.connectivity,
    );
    let query = PathQuery::new(case.start, case.goal)
        .algorithm(algorithm)
        .diameter(case.diameter)
        .profile(profile)
        .connectivity(case.connectivity)
        .smooth(true);
    let mut pf = Pathfinder::new();
    let result = pf.find(&map, &query);
    // Every open list pops in the same order: same expansions, same path.
    for open_list in OpenList::ALL {
        let mut other = Pathfinder::new();
        let again = other.find(&map, &query.open_list(open_list));
        prop_assert_eq!(again, result, "{} on {:?}", algorithm, open_list);
        prop_assert_eq!(other.path(), pf.path(), "{} on {:?}", algorithm, open_list);
    }
    let layer = map.layer_for(profile, case.diameter).unwrap();
    let weights = map.weights(profile).unwrap();
    let shown = || {
        format!(
            "{algorithm} d={} {:?} {} -> {}: oracle {oracle:?}, got {result:?}{}{}",
            case.diameter,
            case.connectivity,
            case.start,
            case.goal,
            picture(&case.bits, pf.path()),
            case.terrain_picture()
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
            let recomputed = common::weighted_cost_of(pf.path(), |c| case.weight(c))
                .expect("a valid path crosses passable cells only");
            prop_assert_eq!(stats.cost, recomputed, "reported cost differs: {}", shown());
            if case.terrain.is_none() {
                prop_assert_eq!(stats.cost, cost_of(pf.path()));
            }
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
            // Travel time of the waypoint polyline at speed / weight, bounded above by each
            // segment's length times the largest weight it touches: never above the path's.
            let mut travel = 0.0;
            for s in w.windows(2) {
                prop_assert!(
                    tilepath::smoothing::line_of_sight(layer, s[0], s[1]),
                    "smoothed segment {} -> {} not visible: {}",
                    s[0],
                    s[1],
                    shown()
                );
                let max = tilepath::smoothing::line_max_weight(layer, &weights, s[0], s[1]);
                let (dx, dy) = (f64::from(s[1].x - s[0].x), f64::from(s[1].y - s[0].y));
                let steps = (dx.abs().max(dy.abs()) - 1.0).max(0.0);
                // A single step keeps its exact cost; a shortcut costs at most length × max.
                travel += if steps == 0.0 {
                    cost_to_f64(common::weighted_cost_of(s, |c| case.weight(c)).unwrap_or(u64::MAX))
                } else {
                    (dx * dx + dy * dy).sqrt() * f64::from(max.unwrap_or(u8::MAX))
                };
            }
            // Costs count a diagonal step as DIAGONAL / STRAIGHT = 94,642 / 66,922, which is
            // √2 less 2.3e-10 relative, so an exact shortcut of a long weighted diagonal may
            // measure that much above the path's integer cost: allow 1e-9 relative.
            let bound = cost_to_f64(stats.cost);
            prop_assert!(
                travel <= bound + bound * 1e-9 + 1e-6,
                "smoothing raised the weighted cost ({travel} > {}): {}",
                cost_to_f64(stats.cost),
                shown()
            );
        }
    }
    Ok(())
}

/// Cases per algorithm: 10 algorithms x 1,000 = 10,000 differential cases a run.
const CASES: u32 = 1_000;

/// Runs `CASES` random cases (or `TILEPATH_PROPERTY_CASES`), after the saved
/// regressions, of `algorithm` through [`check`] as `proptest!` would, and prints
/// `properties <name>: N cases`.
fn differential(name: &'static str, algorithm: Algorithm) {
    let count = std::env::var("TILEPATH_PROPERTY_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES);
    let mut config = ProptestConfig::with_cases(count);
    config.source_file = Some(file!());
    config.test_name = Some(name);
    let mut runner = TestRunner::new(config);
    let tried = std::cell::Cell::new(0u64);
    let result = runner.run(&cases(), |case| {
        tried.set(tried.get() + 1);
        check(algorithm, &case)
    });
    common::report(&format!("properties {name}: {} cases", tried.get()));
    if let Err(e) = result {
        panic!("{e}\n{runner}");
    }
}

macro_rules! differential {
    ($name:ident, $algo:expr) => {
        #[test]
        fn $name() {
            differential(stringify!($name), $algo);
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
    jps_plus_costs_equal_the_oracle_and_paths_are_valid,
    Algorithm::JpsPlus
);
differential!(
    auto_costs_equal_the_oracle_and_paths_are_valid,
    Algorithm::Auto
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
