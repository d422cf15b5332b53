//! The one engine on hexagonal maps, against the independent oracle of `hex_support`
//! (offset-coordinate neighbour tables, sharing nothing with the crate): every layout,
//! random weights and obstacles, agents of radius 0 to 2, goal areas, nearest reachable
//! goals, whole and sliced searches, searches carried over edits and distance fields. A
//! failure prints the map.

mod hex_support;

use hex_support::{Rng, Tiles};
use proptest::prelude::*;
use tilepath::grid::{Cell, Connectivity, Cost, GridSize, STRAIGHT};
use tilepath::scenario::{BitGrid, CachedScenario, MapEdit, MovementProfile, ProfileId, Scenario};
use tilepath::search::{
    Algorithm, DistanceField, PathError, PathQuery, Pathfinder, Progress, validate_path,
};
use tilepath::shape::{GridShape, HexLayout};

/// The profile whose terrain ids are the tiles' weights.
const WEIGHED: ProfileId = ProfileId(1);

/// `tiles` as a cached map of hexagons: obstacles where the weight is 0, terrain id =
/// weight, weighed by profile [`WEIGHED`].
fn cached(tiles: &Tiles) -> CachedScenario {
    let size = GridSize::new(tiles.columns as u32, tiles.rows as u32);
    let mut bits = BitGrid::new(size, false);
    let mut terrain = Vec::new();
    for r in 0..tiles.rows {
        for c in 0..tiles.columns {
            let w = tiles.weight((c, r));
            bits.set(Cell::new(c, r), w == 0);
            terrain.push(w);
        }
    }
    let mut map = CachedScenario::from_bits_and_terrain(bits, terrain)
        .unwrap()
        .with_shape(GridShape::Hex(tiles.layout));
    let mut profile = MovementProfile::new();
    for w in 1..=9 {
        profile = profile.with_weight(w, w);
    }
    map.set_profile(WEIGHED, profile);
    map
}

/// The oracle's cost (half steps of weight) in fixed point.
fn fixed(half_steps: u64) -> Cost {
    half_steps * (STRAIGHT / 2)
}

/// The diameter of a hexagonal agent of `radius` steps.
fn diameter(radius: u32) -> u32 {
    (2 * radius).max(1)
}

fn cell((c, r): (i32, i32)) -> Cell {
    Cell::new(c, r)
}

/// Checks `got` against the oracle's `expected` cost for an agent of `radius`.
fn expect(
    map: &CachedScenario,
    tiles: &Tiles,
    query: &PathQuery,
    got: Result<(Cost, Vec<Cell>), PathError>,
    expected: Option<u64>,
    context: &str,
) {
    let radius = query.diameter / 2;
    match (got, expected) {
        (Ok((cost, path)), Some(half)) => {
            assert_eq!(cost, fixed(half), "{context}");
            let layer = map.layer_for(query.profile, query.diameter).unwrap();
            let last = *path.last().unwrap();
            validate_path(layer, &path, query.start, last, Connectivity::Octile)
                .unwrap_or_else(|e| panic!("{context}: {e} in {path:?}"));
            for &c in &path {
                assert!(
                    tiles.can_stand((c.x, c.y), radius),
                    "{context}: {c} on the path"
                );
            }
        }
        (Ok((_, path)), None) => panic!("{context}: found an impossible path {path:?}"),
        (Err(e), Some(_)) => panic!("{context}: {e}"),
        (Err(_), None) => {}
    }
}

/// Every algorithm, whole and sliced, on pairs of tiles of `tiles`.
fn check(tiles: &Tiles, seed: u64) {
    let map = cached(tiles);
    let mut finder = Pathfinder::new();
    let mut rng = Rng(seed | 1);
    for k in 0..10u32 {
        let (from, to) = (rng.tile(tiles), rng.tile(tiles));
        let radius = k % 3;
        let expected = if tiles.can_stand(from, radius) && tiles.can_stand(to, radius) {
            tiles.oracle(from, to, radius, false)
        } else {
            None
        };
        for algorithm in [
            Algorithm::Auto,
            Algorithm::AStar,
            Algorithm::Dijkstra,
            Algorithm::Jps,
            Algorithm::JpsPlus,
            Algorithm::Bfs,
            Algorithm::Iddfs,
        ] {
            let query = PathQuery::new(cell(from), cell(to))
                .profile(WEIGHED)
                .diameter(diameter(radius))
                .algorithm(algorithm)
                .nearest_start(false)
                .nearest_goal(false);
            let context = format!(
                "{:?} {algorithm:?} radius {radius} {from:?} -> {to:?}\n{}",
                tiles.layout,
                tiles.ascii()
            );
            let whole = finder
                .find(&map, &query)
                .map(|s| (s.cost, finder.path().to_vec()));
            expect(&map, tiles, &query, whole, expected, &context);
            // Sliced by 3 expansions.
            let mut step = finder.start(&map, &query, 3);
            while let Ok(Progress::Suspended { .. }) = step {
                step = finder.resume(&map, 3);
            }
            let sliced = step.map(|p| match p {
                Progress::Done(s) => (s.cost, finder.path().to_vec()),
                Progress::Suspended { .. } => unreachable!(),
            });
            expect(&map, tiles, &query, sliced, expected, &context);
        }
        // Goal areas: the cheapest way to any tile within 2 steps of the goal.
        if tiles.can_stand(from, radius) {
            let costs = tiles.costs_from(from, radius);
            let goal = tiles.layout.hex(to.0, to.1);
            let best = costs
                .iter()
                .filter(|(t, _)| tiles.layout.hex(t.0, t.1).distance(goal) <= 2)
                .map(|(_, &d)| d)
                .min();
            let query = PathQuery::new(cell(from), cell(to))
                .profile(WEIGHED)
                .diameter(diameter(radius))
                .goal_radius(2)
                .nearest_goal(false);
            let got = finder
                .find(&map, &query)
                .map(|s| (s.cost, finder.path().to_vec()));
            let context = format!(
                "{:?} goal area {from:?} -> {to:?}\n{}",
                tiles.layout,
                tiles.ascii()
            );
            expect(&map, tiles, &query, got, best, &context);
        }
    }
}

/// Nearest reachable goals: the search ends on a reachable tile as few steps from the
/// goal (on the map or off it) as the oracle's nearest, at the oracle's cost to that
/// tile; with no standable start it fails.
fn check_nearest(tiles: &Tiles, seed: u64) {
    let map = cached(tiles);
    let mut finder = Pathfinder::new();
    let mut rng = Rng(seed.rotate_left(23) | 1);
    let hex = |(c, r): (i32, i32)| tiles.layout.hex(c, r);
    for k in 0..10u32 {
        let from = rng.tile(tiles);
        let mut to = rng.tile(tiles);
        if k % 4 == 3 {
            // Beyond the map's right edge.
            to.0 += tiles.columns + 2;
        }
        let radius = k % 3;
        let nearest = tiles.nearest(from, to, radius);
        for algorithm in [
            Algorithm::Auto,
            Algorithm::AStar,
            Algorithm::Dijkstra,
            Algorithm::Bfs,
        ] {
            let query = PathQuery::new(cell(from), cell(to))
                .profile(WEIGHED)
                .diameter(diameter(radius))
                .algorithm(algorithm)
                .nearest_start(false)
                .nearest_goal(true);
            let context = format!(
                "{:?} {algorithm:?} nearest goal, radius {radius} {from:?} -> {to:?}\n{}",
                tiles.layout,
                tiles.ascii()
            );
            let got = finder
                .find(&map, &query)
                .map(|s| (s.reached, s.cost, finder.path().to_vec()));
            let Some((steps, _)) = nearest else {
                assert!(
                    matches!(got, Err(PathError::StartBlocked { .. })),
                    "{context}: {got:?}"
                );
                continue;
            };
            let (reached, cost, path) = got.unwrap_or_else(|e| panic!("{context}: {e}"));
            let at = (reached.x, reached.y);
            assert_eq!(
                hex(at).distance(hex(to)),
                steps,
                "{context}: reached {at:?}"
            );
            let expected = tiles.oracle(from, at, radius, false);
            expect(&map, tiles, &query, Ok((cost, path)), expected, &context);
        }
    }
}

/// A field toward a goal holds the oracle's cost of every tile, before and after edits
/// carried over; a search suspended before the edits resumes to the new optimum.
fn check_edits(tiles: &mut Tiles, seed: u64) {
    let mut map = cached(tiles);
    let mut rng = Rng(seed | 1);
    let (goal, from) = (rng.tile(tiles), rng.tile(tiles));
    if !tiles.can_stand(goal, 0) || !tiles.can_stand(from, 0) {
        return;
    }
    let mut field = DistanceField::new(&map, cell(goal), WEIGHED, 1).unwrap();
    field.grow(&map, u32::MAX);
    let mut finder = Pathfinder::new();
    let query = PathQuery::new(cell(from), cell(goal))
        .profile(WEIGHED)
        .algorithm(Algorithm::AStar)
        .nearest_start(false)
        .nearest_goal(false);
    let started = finder.start(&map, &query, 4);
    for round in 0..3 {
        // A few tiles change weight or become walls or floor (never the two ends).
        let mut edits = Vec::new();
        for _ in 0..3 {
            let t = rng.tile(tiles);
            if t == goal || t == from {
                continue;
            }
            let w = [0u8, 1, 3, 9][(rng.next() % 4) as usize];
            tiles.weights[(t.1 * tiles.columns + t.0) as usize] = w;
            edits.push(MapEdit::Obstacle(cell(t), w == 0));
            if w > 0 {
                edits.push(MapEdit::Terrain(cell(t), w));
            }
        }
        map.apply_edits(edits);
        let context = format!(
            "{:?} round {round} goal {goal:?}\n{}",
            tiles.layout,
            tiles.ascii()
        );
        let costs = tiles.costs_from(goal, 0);
        // Edits carry the field over, but for a blocked goal (never edited here).
        if !field.carry_over(&map) {
            field = DistanceField::new(&map, cell(goal), WEIGHED, 1).unwrap();
        }
        field.grow(&map, u32::MAX);
        for r in 0..tiles.rows {
            for c in 0..tiles.columns {
                let expected = costs.get(&(c, r)).map(|&d| fixed(d));
                assert_eq!(
                    field.distance(Cell::new(c, r)),
                    expected,
                    "{context}: field at ({c}, {r})"
                );
            }
        }
    }
    if let Ok(Progress::Suspended { .. }) = started {
        let mut step = finder.resume(&map, 4);
        while let Ok(Progress::Suspended { .. }) = step {
            step = finder.resume(&map, 4);
        }
        let got = step.map(|p| match p {
            Progress::Done(s) => (s.cost, finder.path().to_vec()),
            Progress::Suspended { .. } => unreachable!(),
        });
        let context = format!(
            "{:?} resumed {from:?} -> {goal:?}\n{}",
            tiles.layout,
            tiles.ascii()
        );
        expect(
            &map,
            tiles,
            &query,
            got,
            tiles.oracle(from, goal, 0, false),
            &context,
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn hexagonal_searches_cost_what_the_oracle_says(layout in 0..6usize, seed in any::<u64>()) {
        check(&Tiles::random(HexLayout::ALL[layout], seed), seed);
    }

    #[test]
    fn hexagonal_nearest_goals_are_the_oracles_nearest(layout in 0..6usize, seed in any::<u64>()) {
        check_nearest(&Tiles::random(HexLayout::ALL[layout], seed), seed);
    }

    #[test]
    fn hexagonal_edits_carry_fields_and_searches_to_the_new_optimum(
        layout in 0..6usize,
        seed in any::<u64>(),
    ) {
        check_edits(&mut Tiles::random(HexLayout::ALL[layout], seed), seed);
    }
}

#[test]
fn a_wide_hexagonal_agent_fits_where_its_whole_disc_is_free() {
    for layout in HexLayout::ALL {
        for seed in 1..40u64 {
            let tiles = Tiles::random(layout, seed);
            let map = cached(&tiles);
            for r in 0..tiles.rows {
                for c in 0..tiles.columns {
                    for radius in 0..3u32 {
                        assert_eq!(
                            !map.is_blocked(Cell::new(c, r), diameter(radius)),
                            tiles.can_stand((c, r), radius),
                            "{layout:?} ({c}, {r}) radius {radius}\n{}",
                            tiles.ascii()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn hexagonal_a_star_expands_a_fraction_of_dijkstra_on_an_open_map() {
    let tiles = Tiles {
        layout: HexLayout::RowOdd,
        columns: 40,
        rows: 30,
        weights: vec![1; 1200],
    };
    let map = cached(&tiles);
    let mut finder = Pathfinder::new();
    let query = PathQuery::new(Cell::new(2, 3), Cell::new(37, 25)).profile(WEIGHED);
    let astar = finder
        .find(&map, &query.algorithm(Algorithm::AStar))
        .unwrap();
    let dijkstra = finder
        .find(&map, &query.algorithm(Algorithm::Dijkstra))
        .unwrap();
    assert_eq!(astar.cost, dijkstra.cost);
    assert_eq!(
        astar.cost,
        fixed(tiles.oracle((2, 3), (37, 25), 0, false).unwrap())
    );
    assert!(
        astar.expanded * 4 < dijkstra.expanded,
        "A* {} vs Dijkstra {}",
        astar.expanded,
        dijkstra.expanded
    );
}
