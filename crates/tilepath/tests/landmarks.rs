//! Landmark tables under edits: feasible after every batch, and Auto exact on weighted maps.
//!
//! Random weighted maps get random batches of obstacle and terrain edits (cells blocked
//! and freed, weights raised and lowered). After each batch, for every layer whose
//! table is built:
//!
//! - the table is feasible: for every legal move `x → y` (checked with `validate_path`,
//!   not the layer's move table), `T(y) <= T(x) + cost(x, y)` for each landmark, with a
//!   missing value counting as infinite (so a cell a landmark reaches gives a value to
//!   every cell it moves to);
//! - Auto's cost equals the plain weighted Dijkstra oracle's on random queries.
//!
//! A failure prints the map (`#` obstacle, digits terrain ids).

mod common;

use tilepath::grid::{Cell, Connectivity, Cost, Direction, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{
    LANDMARKS, Landmarks, Layer, MapEdit, MovementProfile, ProfileId, step_cost,
};
use tilepath::search::{Progress, validate_path};

const WEIGHTS: [u8; 4] = [1, 3, 2, 7];
const PROFILE: ProfileId = ProfileId(1);

fn profile() -> MovementProfile {
    let mut p = MovementProfile::new();
    for (id, &w) in WEIGHTS.iter().enumerate() {
        p = p.with_weight(id as u8, w);
    }
    p
}

fn picture(map: &CachedScenario) -> String {
    let size = map.size();
    let mut text = String::new();
    for y in 0..size.height as i32 {
        for x in 0..size.width as i32 {
            let c = Cell::new(x, y);
            text.push(if map.is_obstacle(c) {
                '#'
            } else {
                char::from(b'0' + map.terrain(c))
            });
        }
        text.push('\n');
    }
    text
}

/// The first move `x → y` whose values break feasibility, described.
fn infeasible(map: &CachedScenario, layer: &Layer, table: &Landmarks) -> Option<String> {
    let size = map.size();
    let weight = |c: Cell| WEIGHTS[map.terrain(c) as usize];
    for i in 0..size.area() {
        let x = size.cell(i);
        if layer.is_blocked(x) {
            continue;
        }
        for d in Direction::ALL {
            let (dx, dy) = d.delta();
            let y = Cell::new(x.x + dx, x.y + dy);
            if validate_path(layer, &[x, y], x, y, Connectivity::Octile).is_err() {
                continue;
            }
            let step = step_cost(d, weight(x), weight(y));
            let (tx, ty) = (table.row(i), table.row(size.index(y)));
            for l in 0..LANDMARKS.min(table.cells().len()) {
                let finite = |v: u32| (v != u32::MAX).then_some(Cost::from(v));
                let ok = match (finite(tx[l]), finite(ty[l])) {
                    (Some(a), Some(b)) => b <= a + step,
                    (Some(_), None) => false,
                    (None, _) => true,
                };
                if !ok {
                    return Some(format!(
                        "landmark {l} at {:?}: {x:?} = {} and {y:?} = {}, move costs {step}",
                        table.cells()[l],
                        tx[l],
                        ty[l]
                    ));
                }
            }
        }
    }
    None
}

/// The first cell whose interior bit (see `Layer::build_interior`) is wrong, described.
fn wrong_interior(map: &CachedScenario, layer: &Layer) -> Option<String> {
    let bits = layer.interior()?;
    let size = map.size();
    let weight = |c: Cell| WEIGHTS[map.terrain(c) as usize];
    for i in 0..size.area() {
        let c = size.cell(i);
        let block: Vec<Cell> = (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| Cell::new(c.x + dx, c.y + dy)))
            .collect();
        let interior = block
            .iter()
            .all(|&n| size.contains(n) && !layer.is_blocked(n) && weight(n) == weight(c));
        let columns_agree =
            bits.columns.get_or(Cell::new(c.y, c.x), true) == bits.rows.get_or(c, true);
        if bits.rows.get_or(c, true) == interior || !columns_agree {
            return Some(format!("{c:?}: bit {} but interior {interior}", !interior));
        }
    }
    None
}

/// Runs one map; returns the batches whose table was checked.
fn check(seed: u64, diameter: u32) -> u32 {
    let size = GridSize::new(28, 20);
    let mut rng = SplitMix64::new(seed);
    let bits = common::random_grid(size, 18, seed);
    let ids = common::random_terrain(size, WEIGHTS.len() as u8, seed ^ 0x7e77);
    let mut map = CachedScenario::from_bits_and_terrain(bits, ids).unwrap();
    map.set_profile(PROFILE, profile());
    let mut pf = Pathfinder::new();
    let mut checked = 0;
    let free = |map: &CachedScenario, rng: &mut SplitMix64| loop {
        let c = Cell::new(rng.range(0, 27), rng.range(0, 19));
        if !map.is_blocked(c, diameter) {
            return c;
        }
    };
    let weights = map.weights(PROFILE).unwrap();
    map.layer_for(PROFILE, diameter)
        .unwrap()
        .build_interior(weights);
    for batch in 0..40 {
        let layer = map.layer_for(PROFILE, diameter).unwrap();
        if let Some(wrong) = wrong_interior(&map, layer) {
            panic!(
                "seed {seed}, diameter {diameter}, batch {batch}: interior {wrong}\n{}",
                picture(&map)
            );
        }
        if let Some(table) = layer.landmarks() {
            if let Some(broken) = infeasible(&map, layer, table) {
                panic!(
                    "seed {seed}, diameter {diameter}, batch {batch}: {broken}\n{}",
                    picture(&map)
                );
            }
            checked += 1;
        }
        let mut searched = false;
        for _ in 0..6 {
            let (start, goal) = (free(&map, &mut rng), free(&map, &mut rng));
            let query = PathQuery::new(start, goal)
                .diameter(diameter)
                .profile(PROFILE)
                .algorithm(Algorithm::Auto);
            let weight = |c: Cell| Some(WEIGHTS[map.terrain(c) as usize]);
            let oracle = common::oracle_weighted_cost(
                &map,
                weight,
                start,
                goal,
                diameter,
                Connectivity::Octile,
            );
            let found = pf.find(&map, &query).ok().map(|s| s.cost);
            searched |= found.is_some() && start != goal;
            assert_eq!(
                found,
                oracle,
                "seed {seed}, diameter {diameter}, batch {batch}, {start:?} → {goal:?}\n{}",
                picture(&map)
            );
        }
        assert!(
            !searched
                || map
                    .layer_for(PROFILE, diameter)
                    .unwrap()
                    .landmarks()
                    .is_some(),
            "Auto built no landmark table: seed {seed} d {diameter} batch {batch}"
        );
        let edits: Vec<MapEdit> = (0..1 + rng.below(12))
            .map(|_| {
                let c = Cell::new(rng.range(0, 27), rng.range(0, 19));
                match rng.below(3) {
                    0 => MapEdit::Obstacle(c, true),
                    1 => MapEdit::Obstacle(c, false),
                    _ => MapEdit::Terrain(c, rng.below(WEIGHTS.len() as u32) as u8),
                }
            })
            .collect();
        map.apply_edits(edits);
    }
    checked
}

#[test]
fn landmark_tables_stay_feasible_and_auto_exact_under_edits() {
    let mut checked = 0;
    for seed in 0..40 {
        for diameter in [1, 2] {
            checked += check(seed, diameter);
        }
    }
    println!("{checked} tables checked after edits");
    assert!(checked > 2_000, "only {checked} tables checked");
}

/// Runs Auto from `start` to `goal` on `map` (profile [`PROFILE`], diameter 1) and
/// checks that it answers for the query as asked: the same ends, a valid path, the
/// oracle's cost. Returns the pathfinder (holding the path), the query and the answer.
fn auto_as_asked(
    map: &CachedScenario,
    start: Cell,
    goal: Cell,
) -> (Pathfinder, PathQuery, PathStats) {
    let weight = |c: Cell| Some(WEIGHTS[map.terrain(c) as usize]);
    let layer = map.layer_for(PROFILE, 1).unwrap();
    let query = PathQuery::new(start, goal)
        .profile(PROFILE)
        .algorithm(Algorithm::Auto);
    let oracle = common::oracle_weighted_cost(map, weight, start, goal, 1, Connectivity::Octile);
    let mut pf = Pathfinder::new();
    let whole = pf.find(map, &query).unwrap();
    assert_eq!(Some(whole.cost), oracle, "{start:?} → {goal:?}");
    validate_path(layer, pf.path(), start, goal, Connectivity::Octile).unwrap();
    assert_eq!((whole.start, whole.reached), (start, goal));
    (pf, query, whole)
}

/// Auto on a weighted layer searches from the end on dearer terrain (a swamp goal, a
/// road start) and answers for the query as asked: the same ends, a valid path, the
/// oracle's cost, whole or in slices. The first slice shows which end it grew from.
#[test]
fn auto_grows_from_the_dear_end_and_answers_the_query_as_asked() {
    let size = GridSize::new(24, 9);
    // A road (id 0, weight 1) along row 4 through fields (id 2, weight 2), a swamp
    // (id 3, weight 7) in the top right corner.
    let ids: Vec<u8> = (0..size.area())
        .map(|i| {
            let c = size.cell(i);
            match (c.x, c.y) {
                (_, 4) => 0,
                (x, y) if x >= 18 && y <= 2 => 3,
                _ => 2,
            }
        })
        .collect();
    let mut map =
        CachedScenario::from_bits_and_terrain(tilepath::scenario::BitGrid::new(size, false), ids)
            .unwrap();
    map.set_profile(PROFILE, profile());
    let road = Cell::new(1, 4);
    let swamp = Cell::new(21, 1);
    for (start, goal, grows_from) in [(road, swamp, swamp), (swamp, road, swamp)] {
        let (mut pf, query, whole) = auto_as_asked(&map, start, goal);
        let whole_path = pf.path().to_vec();

        let Ok(Progress::Suspended { .. }) = pf.start(&map, &query, 1) else {
            panic!("one expansion does not reach {goal:?}");
        };
        // One expansion sees the dear end and the cells its moves (and straight jumps
        // over the swamp's interior) reach: all nearer it than the other end.
        let seen: Vec<Cell> = pf.explored().collect();
        let other = if grows_from == start { goal } else { start };
        assert!(
            seen.contains(&grows_from)
                && seen
                    .iter()
                    .all(|c| c.chebyshev(grows_from) < c.chebyshev(other)),
            "{start:?} → {goal:?}: the first slice saw {seen:?}, not cells near {grows_from:?}"
        );
        let sliced = loop {
            match pf.resume(&map, 7).unwrap() {
                Progress::Done(stats) => break stats,
                Progress::Suspended { .. } => {}
            }
        };
        assert_eq!(sliced.cost, whole.cost);
        assert_eq!(pf.path(), whole_path, "slices change nothing");
    }
}

/// With both ends on the same terrain, Auto searches toward the end nearer a landmark
/// (where its bound is tighter) and answers for the query as asked, either way round.
#[test]
fn auto_searches_toward_the_end_nearer_a_landmark() {
    let size = GridSize::new(24, 9);
    // A road (id 0, weight 1) along row 4 through fields (id 2, weight 2).
    let ids: Vec<u8> = (0..size.area())
        .map(|i| if size.cell(i).y == 4 { 0 } else { 2 })
        .collect();
    let mut map =
        CachedScenario::from_bits_and_terrain(tilepath::scenario::BitGrid::new(size, false), ids)
            .unwrap();
    map.set_profile(PROFILE, profile());
    let weight = |c: Cell| Some(WEIGHTS[map.terrain(c) as usize]);
    let layer = map.layer_for(PROFILE, 1).unwrap();
    let table = layer
        .build_landmarks(map.weights(PROFILE).unwrap())
        .unwrap();
    // The first landmark, in a corner, and a field cell far from it and from the others.
    let landmark = table.cells()[0];
    let far = [Cell::new(12, 1), Cell::new(12, 7)]
        .into_iter()
        .max_by_key(|c| c.chebyshev(landmark))
        .unwrap();
    assert_eq!(weight(landmark), weight(far), "{}", picture(&map));
    assert!(table.nearest(size.index(far)) > table.nearest(size.index(landmark)));
    for (start, goal) in [(landmark, far), (far, landmark)] {
        let (mut pf, query, _) = auto_as_asked(&map, start, goal);
        let Ok(Progress::Suspended { .. }) = pf.start(&map, &query, 1) else {
            panic!("one expansion does not reach {goal:?}");
        };
        let seen: Vec<Cell> = pf.explored().collect();
        assert!(
            seen.contains(&far) && !seen.contains(&landmark),
            "{start:?} → {goal:?}: the first slice saw {seen:?}, not the search from {far:?}"
        );
    }
}
