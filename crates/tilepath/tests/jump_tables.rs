//! JPS+ jump tables under edits: thousands of random tile edits through `CachedScenario::apply`.
//!
//! After every edit the table each built layer keeps equals a table built from scratch
//! for the edited layer (whole tables compared), and every few edits JPS+ answers
//! queries with the optimal cost of the plain Dijkstra oracle of `tests/common`.
//! Maps are 150 cells wide so that rows cross 64-bit words; diameters 1 to 3. Failures
//! print the map as ASCII.

mod common;

use common::{oracle_cost, picture, random_grid, stale_jump_table};
use tilepath::grid::{Cell, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{JumpTable, ProfileId};
use tilepath::search::{Progress, validate_path};

const DIAMETERS: [u32; 3] = [1, 2, 3];

/// Asserts the table of every layer of `DIAMETERS` equals a fresh build.
fn assert_tables_fresh(map: &CachedScenario, what: &str) {
    for d in DIAMETERS {
        let layer = map.layer(d).unwrap();
        assert!(layer.jump_table().is_some(), "built tables stay built");
        if let Some(stale) = stale_jump_table(layer) {
            panic!("{what}, d={d}: {stale}");
        }
    }
}

/// JPS+ against the oracle on `n` random pairs of cells.
fn assert_searches_exact(map: &CachedScenario, rng: &mut SplitMix64, n: usize, what: &str) {
    let size = map.size();
    let mut pf = Pathfinder::new();
    for _ in 0..n {
        let d = DIAMETERS[rng.below(3) as usize];
        let mut pick = || {
            Cell::new(
                rng.range(0, size.width as i32 - 1),
                rng.range(0, size.height as i32 - 1),
            )
        };
        let (start, goal) = (pick(), pick());
        let q = PathQuery::new(start, goal)
            .algorithm(Algorithm::JpsPlus)
            .diameter(d);
        let got = pf.find(map, &q).ok().map(|s| s.cost);
        let expected = oracle_cost(map, start, goal, d, Connectivity::Octile);
        assert_eq!(
            got,
            expected,
            "{what}: JPS+ d={d} {start} -> {goal}{}",
            picture(map.obstacles(), pf.path())
        );
        if got.is_some() {
            let layer = map.layer(d).unwrap();
            assert_eq!(
                validate_path(layer, pf.path(), start, goal, Connectivity::Octile),
                Ok(())
            );
        }
    }
}

#[test]
fn thousands_of_random_edits_keep_every_table_fresh_and_searches_exact() {
    for (seed, percent) in [(1u64, 12u32), (2, 25), (3, 4)] {
        let size = GridSize::new(150, 40);
        let mut map = CachedScenario::from_bits(random_grid(size, percent, seed)).unwrap();
        for d in DIAMETERS {
            map.build_jump_table(ProfileId::DEFAULT, d).unwrap();
        }
        let mut rng = SplitMix64::new(seed);
        for edit in 0..1_200 {
            let c = Cell::new(rng.range(0, 149), rng.range(0, 39));
            // Block with the map's density, clear otherwise: the density stays put.
            let blocked = rng.chance(percent.max(15), 100);
            map.apply([(c, blocked)]);
            let what = format!("seed {seed} edit {edit} ({c} blocked={blocked})");
            assert_tables_fresh(&map, &what);
            if edit % 40 == 0 {
                assert_searches_exact(&map, &mut rng, 6, &what);
            }
        }
    }
}

#[test]
fn edits_on_open_ground_and_scattered_batches_keep_every_table_fresh() {
    // On open ground one flip moves jump points along whole rows and columns, so the
    // diagonal walks of many starts meet and overlap; batches of far-apart flips make
    // the fronts of several flips cross.
    let size = GridSize::new(140, 90);
    let mut map = CachedScenario::from_bits(random_grid(size, 1, 5)).unwrap();
    for d in DIAMETERS {
        map.build_jump_table(ProfileId::DEFAULT, d).unwrap();
    }
    let mut rng = SplitMix64::new(5);
    for round in 0..250 {
        let edits: Vec<(Cell, bool)> = (0..1 + rng.below(4))
            .map(|_| {
                (
                    Cell::new(rng.range(0, 139), rng.range(0, 89)),
                    rng.chance(1, 2),
                )
            })
            .collect();
        map.apply(edits.iter().copied());
        assert_tables_fresh(&map, &format!("open ground, round {round} edits {edits:?}"));
    }
    assert_searches_exact(&map, &mut rng, 30, "open ground");
}

#[test]
fn an_update_listing_cells_twice_or_unflipped_stays_exact() {
    let size = GridSize::new(100, 70);
    let mut bits = random_grid(size, 3, 8);
    let mut table = JumpTable::new(&bits);
    let mut rng = SplitMix64::new(8);
    for round in 0..200 {
        let mut pick = || Cell::new(rng.range(0, 99), rng.range(0, 69));
        let (a, b, idle) = (pick(), pick(), pick());
        for c in [a, b] {
            bits.set(c, !bits.get_or(c, true));
        }
        table.update(&bits, &[a, idle, b, a]);
        assert!(
            table == JumpTable::new(&bits),
            "round {round}: flipped {a} and {b}, listed {idle} too"
        );
    }
}

#[test]
fn batches_of_nearby_edits_keep_every_table_fresh() {
    let size = GridSize::new(130, 50);
    let mut map = CachedScenario::from_bits(random_grid(size, 15, 9)).unwrap();
    for d in DIAMETERS {
        map.build_jump_table(ProfileId::DEFAULT, d).unwrap();
    }
    let mut rng = SplitMix64::new(9);
    for round in 0..300 {
        let (x0, y0) = (rng.range(0, 120), rng.range(0, 40));
        let edits: Vec<(Cell, bool)> = (0..1 + rng.below(8))
            .map(|_| {
                let c = Cell::new(x0 + rng.range(0, 9), y0 + rng.range(0, 9));
                (c, rng.chance(2, 3))
            })
            .collect();
        map.apply(edits.iter().copied());
        assert_tables_fresh(&map, &format!("round {round} edits {edits:?}"));
    }
    assert_searches_exact(&map, &mut rng, 40, "after the batches");
}

#[test]
fn auto_uses_jps_plus_once_the_table_is_built_with_the_same_costs() {
    let size = GridSize::new(120, 60);
    let map = CachedScenario::from_bits(random_grid(size, 20, 4)).unwrap();
    let mut pf = Pathfinder::new();
    let queries: Vec<PathQuery> = (0..30)
        .map(|i| PathQuery::new(Cell::new(i, i % 60), Cell::new(119 - i, (i * 7) % 60)))
        .collect();
    let before: Vec<_> = queries.iter().map(|q| pf.find(&map, q)).collect();
    assert!(
        map.layer(1).unwrap().jump_table().is_none(),
        "Auto builds no table"
    );
    map.build_jump_tables();
    let mut answered = 0;
    for (q, jps) in queries.iter().zip(before) {
        let auto = pf.find(&map, q);
        let auto_path = pf.path().to_vec();
        let plus = pf.find(&map, &q.algorithm(Algorithm::JpsPlus));
        assert_eq!(auto, plus, "{q:?}");
        assert_eq!(auto_path, pf.path(), "Auto runs JPS+ exactly");
        assert_eq!(
            auto.as_ref().map(|s| s.cost).ok(),
            jps.map(|s| s.cost).ok(),
            "{q:?}"
        );
        answered += usize::from(auto.is_ok());
    }
    assert!(answered > 10, "too few solvable queries: {answered}");
}

#[test]
fn a_sliced_auto_search_keeps_its_algorithm_when_a_table_is_built_between_slices() {
    let size = GridSize::new(140, 70);
    let map = CachedScenario::from_bits(random_grid(size, 25, 5)).unwrap();
    let q = PathQuery::new(Cell::new(0, 0), Cell::new(139, 69))
        .nearest_start(true)
        .nearest_goal(true);
    // The same slices of online JPS on a map that never gets a table (a sliced JPS
    // search expands other nodes than a whole one, see `Pathfinder::start`).
    let plain = CachedScenario::from_bits(random_grid(size, 25, 5)).unwrap();
    let in_slices = |map: &CachedScenario, build: bool| {
        let mut pf = Pathfinder::new();
        let mut progress = pf.start(map, &q, 3);
        if build {
            map.build_jump_tables();
        }
        while let Ok(Progress::Suspended { .. }) = progress {
            progress = pf.resume(map, 3);
        }
        let Ok(Progress::Done(stats)) = progress else {
            panic!("{progress:?}")
        };
        stats
    };
    let expected = in_slices(&plain, false);
    assert_eq!(
        expected.cost,
        Pathfinder::new().find(&plain, &q).unwrap().cost
    );
    assert_eq!(
        in_slices(&map, true),
        expected,
        "the search that started as JPS ends as JPS"
    );
}
