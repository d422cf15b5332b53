//! Suspended searches carried over map edits end with a fresh search's cost on the edited map.
//!
//! Random grids up to 90 cells wide, with and without terrain weights; a search is
//! started with a small budget and the map is edited (cells blocked and freed, now and
//! then a terrain change) between its slices. When it ends, its answer is checked
//! against a fresh search on the map as it is then, and its path against the map and
//! the independent cost model of `common`.

mod common;

use common::{picture, random_grid, random_terrain, report, weighted_cost_of};
use tilepath::grid::{Cell, Connectivity, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{MovementProfile, ProfileId};
use tilepath::search::{DistanceField, Progress, validate_path};

/// Slices after which no more edits are made, so that every search ends.
const EDITED_SLICES: u32 = 400;

/// One case: a map, a query and a seed for its edits.
struct Case {
    size: GridSize,
    weighted: bool,
    query: PathQuery,
    budget: u32,
}

fn case(rng: &mut SplitMix64) -> Case {
    let size = GridSize::new(rng.range(12, 90) as u32, rng.range(8, 40) as u32);
    let cell = |rng: &mut SplitMix64| {
        Cell::new(
            rng.range(0, size.width as i32 - 1),
            rng.range(0, size.height as i32 - 1),
        )
    };
    let algorithm = match rng.below(8) {
        0 => Algorithm::Dijkstra,
        1 => Algorithm::Auto,
        2 => Algorithm::Jps,
        _ => Algorithm::AStar,
    };
    let mut query = PathQuery::new(cell(rng), cell(rng))
        .algorithm(algorithm)
        .diameter(1 + u32::from(rng.chance(1, 4)) + u32::from(rng.chance(1, 8)))
        .nearest_start(rng.chance(1, 2))
        .nearest_goal(rng.chance(1, 2));
    if rng.chance(1, 6) {
        query = query.connectivity(Connectivity::Cardinal);
    }
    if rng.chance(1, 6) {
        query = query.goal_radius(rng.range(1, 3) as u32);
    }
    let weighted = rng.chance(1, 3);
    if weighted {
        query = query.profile(ProfileId(1));
    }
    Case {
        size,
        weighted,
        query,
        budget: rng.range(1, 40) as u32,
    }
}

/// The answer as compared: the cost and the cell reached, or the failure.
fn outcome(result: &Result<PathStats, PathError>) -> Result<(u64, Cell), String> {
    match result {
        Ok(stats) => Ok((stats.cost, stats.start)),
        // `NotFound` and limits carry expansion counts, which differ between runs.
        Err(e) => Err(format!("{e:?}").split(' ').next().unwrap_or("").to_owned()),
    }
}

#[test]
fn searches_carried_over_edits_answer_like_fresh_searches() {
    let mut rng = SplitMix64::new(0x0ca7_7e55);
    let (mut cases, mut carried, mut restarts, mut edits_made) = (0u32, 0u32, 0u32, 0u64);
    for seed in 0..1_500u64 {
        let c = case(&mut rng);
        let bits = random_grid(c.size, rng.range(5, 30) as u32, seed);
        let mut map = if c.weighted {
            let terrain = random_terrain(c.size, 4, seed);
            let mut map = CachedScenario::from_bits_and_terrain(bits.clone(), terrain).unwrap();
            let profile = MovementProfile::new()
                .with_weight(1, 3)
                .with_weight(2, 7)
                .with_blocked(3);
            map.set_profile(ProfileId(1), profile);
            map
        } else {
            CachedScenario::from_bits(bits.clone()).unwrap()
        };
        let mut pf = Pathfinder::new();
        let mut progress = pf.start(&map, &c.query, c.budget);
        let mut slices = 0;
        let mut was_carried = false;
        while let Ok(Progress::Suspended { .. }) = progress {
            slices += 1;
            if slices <= EDITED_SLICES {
                for _ in 0..rng.below(4) {
                    let cell = Cell::new(
                        rng.range(0, c.size.width as i32 - 1),
                        rng.range(0, c.size.height as i32 - 1),
                    );
                    if c.weighted && rng.chance(1, 40) {
                        map.set_terrain(cell, rng.range(0, 3) as u8);
                    } else {
                        map.set_obstacle(cell, !map.obstacles().get_or(cell, true));
                    }
                    edits_made += 1;
                }
            }
            progress = pf.resume(&map, c.budget);
            was_carried |= pf.carried_over();
        }
        let got = progress.map(|p| match p {
            Progress::Done(stats) => stats,
            Progress::Suspended { .. } => unreachable!(),
        });
        let expected = Pathfinder::new().find(&map, &c.query);
        let drawn = picture(map.obstacles(), pf.path());
        assert_eq!(
            outcome(&got),
            outcome(&expected),
            "seed {seed}: {:?} after {slices} slices{drawn}",
            c.query
        );
        if let Ok(stats) = got {
            let layer = map.layer_for(c.query.profile, c.query.diameter).unwrap();
            let path = pf.path();
            assert_eq!(
                validate_path(
                    layer,
                    path,
                    stats.start,
                    stats.reached,
                    c.query.options.connectivity
                ),
                Ok(()),
                "seed {seed}{drawn}"
            );
            if c.query.options.goal_radius == 0 {
                assert_eq!(
                    Ok(stats.reached),
                    expected.map(|e| e.reached),
                    "seed {seed}"
                );
            }
            let profile = map.profile(c.query.profile).unwrap();
            let weight = |cell: Cell| profile.weight(map.terrain(cell));
            assert_eq!(
                weighted_cost_of(path, weight),
                Some(stats.cost),
                "seed {seed}{drawn}"
            );
        }
        cases += 1;
        carried += u32::from(was_carried);
        restarts += pf.edit_restarts();
    }
    report(&format!(
        "carry-over: {cases} sliced searches under {edits_made} edits, {carried} carried over edits, \
         {restarts} started over"
    ));
    assert!(
        carried > cases / 4,
        "{carried} of {cases} searches were carried over"
    );
}

#[test]
fn a_search_longer_than_its_slices_ends_on_a_map_edited_before_every_slice() {
    // A long search, one cell edited before each slice: A* keeps its work and ends.
    let size = GridSize::new(200, 200);
    let mut map = CachedScenario::from_bits(random_grid(size, 20, 7)).unwrap();
    let query = PathQuery::new(Cell::new(0, 0), Cell::new(199, 199))
        .nearest_start(true)
        .nearest_goal(true);
    let mut pf = Pathfinder::new();
    let mut progress = pf.start(&map, &query, 50);
    let mut rng = SplitMix64::new(3);
    let mut slices = 0;
    while let Ok(Progress::Suspended { .. }) = progress {
        let cell = Cell::new(rng.range(0, 199), rng.range(0, 199));
        map.set_obstacle(cell, !map.obstacles().get_or(cell, true));
        progress = pf.resume(&map, 50);
        slices += 1;
        assert!(slices < 100_000, "the search never ends");
    }
    let Ok(Progress::Done(stats)) = progress else {
        panic!("{progress:?}")
    };
    assert_eq!(
        stats.cost,
        Pathfinder::new().find(&map, &query).unwrap().cost
    );
    // Auto ran JPS at first; the first edit started it over, the second as A*, which
    // then carried the later edits but for the few that changed its ends or its path.
    let restarts = pf.edit_restarts();
    report(&format!(
        "carry-over: a 200x200 search edited before each of its {slices} slices started over {restarts} times"
    ));
    assert!(
        slices > 20 && restarts * 10 < slices,
        "{restarts} restarts in {slices} slices"
    );
}

#[test]
fn distance_fields_carried_over_edits_keep_exact_distances() {
    let mut rng = SplitMix64::new(0xf1e1d);
    let (mut cases, mut carried, mut checked) = (0u32, 0u32, 0u64);
    for seed in 0..300u64 {
        let size = GridSize::new(rng.range(8, 70) as u32, rng.range(6, 30) as u32);
        let bits = random_grid(size, rng.range(5, 30) as u32, seed);
        let weighted = rng.chance(1, 2);
        let (mut map, profile) = if weighted {
            let terrain = random_terrain(size, 3, seed);
            let mut map = CachedScenario::from_bits_and_terrain(bits, terrain).unwrap();
            map.set_profile(
                ProfileId(1),
                MovementProfile::new().with_weight(1, 4).with_weight(2, 9),
            );
            (map, ProfileId(1))
        } else {
            (CachedScenario::from_bits(bits).unwrap(), ProfileId::DEFAULT)
        };
        let diameter = 1 + u32::from(rng.chance(1, 3));
        let goal = Cell::new(
            rng.range(0, size.width as i32 - 1),
            rng.range(0, size.height as i32 - 1),
        );
        let Ok(mut field) = DistanceField::new(&map, goal, profile, diameter) else {
            continue;
        };
        cases += 1;
        for round in 0..6 {
            field.grow(&map, rng.range(0, 200) as u32);
            for _ in 0..rng.range(1, 6) {
                let cell = Cell::new(
                    rng.range(0, size.width as i32 - 1),
                    rng.range(0, size.height as i32 - 1),
                );
                map.set_obstacle(cell, !map.obstacles().get_or(cell, true));
            }
            if !field.carry_over(&map) {
                break;
            }
            carried += 1;
            // Grow some more (or to the end in the last round), then check every cell
            // whose distance the field calls final against the oracle.
            if round == 5 {
                while !field.grow(&map, 1_000) {}
            } else {
                field.grow(&map, rng.range(0, 200) as u32);
            }
            let scenario = common::ascii(&picture(map.obstacles(), &[]));
            let weights = map.profile(profile).unwrap().clone();
            let terrain = |c: Cell| weights.weight(map.terrain(c));
            let oracle = common::oracle_weighted_distances(
                &scenario,
                terrain,
                goal,
                diameter,
                Connectivity::Octile,
            );
            let mut path = Vec::new();
            for (i, &best) in oracle.iter().enumerate() {
                let c = size.cell(i);
                let Some(d) = field.distance(c) else {
                    if field.is_complete() {
                        assert_eq!(best, None, "seed {seed}: {c} unsettled in a complete field");
                    }
                    continue;
                };
                checked += 1;
                let drawn = || picture(map.obstacles(), &[goal, c]);
                assert_eq!(Some(d), best, "seed {seed} round {round}: {c}{}", drawn());
                assert_eq!(field.path_from(&map, c, &mut path), Some(d));
                let layer = map.layer_for(profile, diameter).unwrap();
                assert_eq!(
                    validate_path(layer, &path, c, goal, Connectivity::Octile),
                    Ok(()),
                    "seed {seed}{}",
                    drawn()
                );
                assert_eq!(weighted_cost_of(&path, terrain), Some(d), "seed {seed}");
            }
        }
    }
    report(&format!(
        "carry-over: {cases} distance fields carried over {carried} rounds of edits, {checked} distances checked"
    ));
    assert!(carried > cases, "{carried} carry-overs in {cases} fields");
}

/// A wall next to the root of a large field or search cuts the way of most of its cells:
/// repairing that at once would cost a frame, so the carry-over gives up (the field says
/// so, the search starts over), and the answers are still exact.
#[test]
fn edits_that_cut_most_of_a_field_or_a_search_start_it_over() {
    let size = GridSize::new(200, 200);
    let open = CachedScenario::from_bits(random_grid(size, 0, 1)).unwrap();
    // An L of 13 cells along the east and south sides of the centre.
    let wall: Vec<Cell> = (97..=103)
        .map(|y| Cell::new(101, y))
        .chain((97..=100).chain(102..=103).map(|x| Cell::new(x, 101)))
        .collect();
    let centre = Cell::new(100, 100);

    // A whole field toward the centre: a wall beside its goal cuts about half of it.
    let mut map = open.clone();
    let mut field = DistanceField::new(&map, centre, ProfileId::DEFAULT, 1).unwrap();
    while !field.grow(&map, 4_096) {}
    for &c in &wall {
        map.set_obstacle(c, true);
    }
    assert!(!field.carry_over(&map), "carried over 20,000 broken ways");
    let mut fresh = DistanceField::new(&map, centre, ProfileId::DEFAULT, 1).unwrap();
    while !fresh.grow(&map, 4_096) {}
    let mut pf = Pathfinder::new();
    for c in [Cell::new(199, 100), Cell::new(150, 120), Cell::new(0, 0)] {
        let own = pf.find(&map, &PathQuery::new(c, centre)).unwrap().cost;
        assert_eq!(fresh.distance(c), Some(own), "{c}");
    }

    // A* from the centre, suspended after most of the map: the same wall starts it over.
    let mut map = open.clone();
    let query = PathQuery::new(centre, Cell::new(199, 0)).algorithm(Algorithm::Dijkstra);
    let mut pf = Pathfinder::new();
    assert!(matches!(
        pf.start(&map, &query, 36_000),
        Ok(Progress::Suspended { .. })
    ));
    for &c in &wall {
        map.set_obstacle(c, true);
    }
    let mut progress = pf.resume(&map, u32::MAX);
    assert!(!pf.carried_over() && pf.edit_restarts() == 1);
    while let Ok(Progress::Suspended { .. }) = progress {
        progress = pf.resume(&map, u32::MAX);
    }
    let Ok(Progress::Done(stats)) = progress else {
        panic!("{progress:?}")
    };
    assert_eq!(
        stats.cost,
        Pathfinder::new().find(&map, &query).unwrap().cost
    );
}
