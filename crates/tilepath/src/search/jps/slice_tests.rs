//! Sliced JPS and JPS+: a slice expands at most its budget, and answers what an unsliced search answers.

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
