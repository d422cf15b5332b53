//! Suspended searches and distance fields carried over terrain edits, on squares and on
//! hexagons, end on the optimum of the map as it is then.
//!
//! Random maps with weighted terrain (one terrain the profile blocks); A* and Dijkstra
//! are started with a small budget, fields grown in slices, and between slices cells
//! change terrain or flip their obstacle bit. Every answer is checked against an
//! independent Dijkstra on the final map (`common`'s on squares, `hex_support`'s on
//! hexagons), and every carry-over is shown to happen: a search starts over only when the
//! edits made its query fail or changed its heuristic's scale, a field only when its goal
//! was blocked. A failure prints the map, terrain included.

mod common;
mod hex_support;

use common::{oracle_weighted_distances, random_grid, random_terrain, report};
use hex_support::Tiles;
use tilepath::grid::{Cell, Connectivity, Cost, GridSize, STRAIGHT};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{MapEdit, MovementProfile, ProfileId};
use tilepath::search::{DistanceField, Progress};
use tilepath::shape::{GridShape, HexLayout};

/// The profile of every query: terrain 0 weighs 1, 1 weighs 3, 2 weighs 7, 3 is blocked.
const PROFILE: ProfileId = ProfileId(1);

/// Slices after which no more edits are made, so that every search ends.
const EDITED_SLICES: u32 = 200;

/// The shapes the tests run on: squares and two hexagonal layouts of each kind.
const SHAPES: [GridShape; 5] = [
    GridShape::Square,
    GridShape::Hex(HexLayout::RowOdd),
    GridShape::Hex(HexLayout::ColumnEven),
    GridShape::Hex(HexLayout::Row),
    GridShape::Hex(HexLayout::ColumnOdd),
];

/// A random map of `shape` with obstacles and patches of the four terrains.
fn random_map(rng: &mut SplitMix64, shape: GridShape, seed: u64) -> CachedScenario {
    let size = GridSize::new(rng.range(8, 40) as u32, rng.range(6, 28) as u32);
    let bits = random_grid(size, rng.range(5, 25) as u32, seed);
    let terrain = random_terrain(size, 4, seed);
    let mut map = CachedScenario::from_bits_and_terrain(bits, terrain)
        .unwrap()
        .with_shape(shape);
    let profile = MovementProfile::new()
        .with_weight(1, 3)
        .with_weight(2, 7)
        .with_blocked(3);
    map.set_profile(PROFILE, profile);
    map
}

/// The weight of every cell for [`PROFILE`], row-major, 0 where it is blocked.
fn weights(map: &CachedScenario) -> Vec<u8> {
    let profile = map.profile(PROFILE).unwrap();
    let size = map.size();
    (0..size.area())
        .map(|i| {
            let c = size.cell(i);
            if map.obstacles().get_or(c, true) {
                return 0;
            }
            profile.weight(map.terrain(c)).unwrap_or(0)
        })
        .collect()
}

/// The map drawn for failure messages: `#` blocked, `.` weight 1, else the weight.
fn drawn(map: &CachedScenario) -> String {
    let size = map.size();
    let w = weights(map);
    let mut out = format!("\n{:?} {}x{}\n", map.shape(), size.width, size.height);
    for y in 0..size.height as usize {
        for x in 0..size.width as usize {
            out.push(match w[y * size.width as usize + x] {
                0 => '#',
                1 => '.',
                k => char::from(b'0' + k),
            });
        }
        out.push('\n');
    }
    out
}

/// The oracle: the optimal cost between `from` and every cell, row-major, for an agent
/// of `diameter` on the map as it is now; `None` where there is no way.
fn oracle(map: &CachedScenario, from: Cell, diameter: u32) -> Vec<Option<Cost>> {
    let size = map.size();
    let w = weights(map);
    match map.shape() {
        GridShape::Hex(layout) => {
            let tiles = Tiles {
                layout,
                columns: size.width as i32,
                rows: size.height as i32,
                weights: w,
            };
            let costs = tiles.costs_from((from.x, from.y), diameter / 2);
            (0..size.area())
                .map(|i| {
                    let c = size.cell(i);
                    costs.get(&(c.x, c.y)).map(|&half| half * (STRAIGHT / 2))
                })
                .collect()
        }
        _ => {
            let weight = |c: Cell| Some(w[size.index(c)]).filter(|&k| k > 0);
            oracle_weighted_distances(map, weight, from, diameter, Connectivity::Octile)
        }
    }
}

/// The diameter of an agent `wide` cells across: 1 or 2 (a radius of 1 on hexagons).
fn diameter(wide: bool) -> u32 {
    1 + u32::from(wide)
}

/// A random edit: a cell's terrain changed (half of them) or its obstacle flipped.
fn edit(map: &mut CachedScenario, rng: &mut SplitMix64) -> bool {
    let size = map.size();
    let cell = Cell::new(
        rng.range(0, size.width as i32 - 1),
        rng.range(0, size.height as i32 - 1),
    );
    if rng.chance(1, 2) {
        map.set_terrain(cell, rng.range(0, 3) as u8);
        true
    } else {
        map.set_obstacle(cell, !map.obstacles().get_or(cell, true));
        false
    }
}

/// How a search counts costs: the smallest weight and whether all are one.
fn scale(map: &CachedScenario) -> (u8, bool) {
    let w = map.weights(PROFILE).unwrap();
    (w.min(), w.uniform().is_some())
}

#[test]
fn sliced_searches_carried_over_terrain_edits_cost_the_oracles_optimum() {
    let mut rng = SplitMix64::new(0x7e77a1);
    // Per shape kind (squares, hexagons): searches that met edits, searches carried over
    // all of them, the terrain edits those met.
    let (mut searches, mut carried, mut terrain_met) = ([0u32; 2], [0u32; 2], [0u64; 2]);
    let mut restarts = 0;
    for seed in 0..2_000u64 {
        let shape = SHAPES[seed as usize % SHAPES.len()];
        let mut map = random_map(&mut rng, shape, seed);
        let size = map.size();
        let mut cell = || {
            Cell::new(
                rng.range(0, size.width as i32 - 1),
                rng.range(0, size.height as i32 - 1),
            )
        };
        let (from, to) = (cell(), cell());
        let algorithm = [Algorithm::AStar, Algorithm::Dijkstra][(seed / 5 % 2) as usize];
        let wide = rng.chance(1, 4);
        let query = PathQuery::new(from, to)
            .algorithm(algorithm)
            .profile(PROFILE)
            .diameter(diameter(wide))
            .nearest_start(false)
            .nearest_goal(false);
        let budget = rng.range(1, 20) as u32;
        let mut pf = Pathfinder::new();
        let mut progress = pf.start(&map, &query, budget);
        let (mut slices, mut terrain_edits) = (0, 0u64);
        while let Ok(Progress::Suspended { .. }) = progress {
            slices += 1;
            let (before, restarts_before) = (scale(&map), pf.edit_restarts());
            if slices <= EDITED_SLICES {
                for _ in 0..rng.below(4) {
                    terrain_edits += u64::from(edit(&mut map, &mut rng));
                }
            }
            progress = pf.resume(&map, budget);
            // A start over must be explained: the query fails on the map as it is now,
            // or the heuristic's scale changed.
            if pf.edit_restarts() > restarts_before {
                let fails = oracle(&map, from, diameter(wide))
                    .get(size.index(to))
                    .is_none_or(Option::is_none);
                assert!(
                    fails || scale(&map) != before,
                    "seed {seed}: {query:?} started over after slice {slices}{}",
                    drawn(&map)
                );
            }
        }
        let got = progress.map(|p| match p {
            Progress::Done(stats) => stats.cost,
            Progress::Suspended { .. } => unreachable!(),
        });
        let expected = oracle(&map, from, diameter(wide))[size.index(to)];
        assert_eq!(
            got.as_ref().ok().copied(),
            expected,
            "seed {seed}: {query:?} after {slices} slices: {got:?}{}",
            drawn(&map)
        );
        if slices > 0 {
            let kind = usize::from(!shape.is_square());
            searches[kind] += 1;
            if pf.edit_restarts() == 0 && pf.carried_over() {
                carried[kind] += 1;
                terrain_met[kind] += terrain_edits;
            }
            restarts += pf.edit_restarts();
        }
    }
    report(&format!(
        "carry-over, terrain: sliced searches that met edits (squares, hexagons) {searches:?}, \
         carried over all of them {carried:?} (meeting {terrain_met:?} terrain edits), \
         {restarts} restarts"
    ));
    for kind in 0..2 {
        assert!(
            carried[kind] * 10 > searches[kind] * 7 && terrain_met[kind] > 500,
            "{carried:?} of {searches:?} searches carried over, {terrain_met:?} terrain edits"
        );
    }
}

#[test]
fn distance_fields_carried_over_terrain_edits_hold_the_oracles_distances() {
    let mut rng = SplitMix64::new(0xf1e1d7e2);
    let (mut fields, mut carried, mut checked) = (0u32, 0u32, 0u64);
    for seed in 0..250u64 {
        let shape = SHAPES[seed as usize % SHAPES.len()];
        let mut map = random_map(&mut rng, shape, seed);
        let size = map.size();
        let goal = Cell::new(
            rng.range(0, size.width as i32 - 1),
            rng.range(0, size.height as i32 - 1),
        );
        let wide = rng.chance(1, 3);
        let Ok(mut field) = DistanceField::new(&map, goal, PROFILE, diameter(wide)) else {
            continue;
        };
        fields += 1;
        for round in 0..6 {
            field.grow(&map, rng.range(0, 150) as u32);
            for _ in 0..rng.range(1, 6) {
                edit(&mut map, &mut rng);
            }
            let layer = map.layer_for(PROFILE, diameter(wide)).unwrap();
            // Only a blocked goal (or a huge cut, impossible on maps this small) stops it.
            let goal_blocked = layer.is_blocked(goal);
            assert_eq!(
                field.carry_over(&map),
                !goal_blocked,
                "seed {seed} round {round}{}",
                drawn(&map)
            );
            if goal_blocked {
                break;
            }
            carried += 1;
            if round == 5 {
                while !field.grow(&map, 1_000) {}
            } else {
                field.grow(&map, rng.range(0, 150) as u32);
            }
            let best = oracle(&map, goal, diameter(wide));
            for (i, &best) in best.iter().enumerate() {
                let c = size.cell(i);
                match field.distance(c) {
                    Some(d) => {
                        checked += 1;
                        assert_eq!(
                            Some(d),
                            best,
                            "seed {seed} round {round}: {c} toward {goal}{}",
                            drawn(&map)
                        );
                    }
                    None if field.is_complete() => {
                        assert_eq!(best, None, "seed {seed}: {c} unsettled{}", drawn(&map));
                    }
                    None => {}
                }
            }
        }
    }
    report(&format!(
        "carry-over, terrain: {fields} fields carried over {carried} rounds of edits, \
         {checked} distances checked"
    ));
    assert!(
        carried > fields * 3,
        "{carried} carry-overs in {fields} fields"
    );
}

/// A map of `shape`, 30 × 9 and open, all of terrain 1 (weight 3) but `cheap` cells of
/// terrain 0 (weight 1).
fn open_map(shape: GridShape, cheap: &[Cell]) -> CachedScenario {
    let size = GridSize::new(30, 9);
    let mut terrain = vec![1; size.area()];
    for &c in cheap {
        terrain[size.index(c)] = 0;
    }
    let bits = tilepath::scenario::BitGrid::new(size, false);
    let mut map = CachedScenario::from_bits_and_terrain(bits, terrain)
        .unwrap()
        .with_shape(shape);
    let profile = MovementProfile::new().with_weight(1, 3).with_weight(2, 7);
    map.set_profile(PROFILE, profile);
    map
}

/// Resumes `pf` until its search ends; its cost.
fn finish(pf: &mut Pathfinder, map: &CachedScenario, budget: u32) -> Option<Cost> {
    let mut progress = pf.resume(map, budget);
    while let Ok(Progress::Suspended { .. }) = progress {
        progress = pf.resume(map, budget);
    }
    match progress {
        Ok(Progress::Done(stats)) => Some(stats.cost),
        _ => None,
    }
}

/// An exact A* query across the 30-wide test map, from (1, 4) to (28, 4).
fn across() -> PathQuery {
    PathQuery::new(Cell::new(1, 4), Cell::new(28, 4))
        .algorithm(Algorithm::AStar)
        .profile(PROFILE)
        .nearest_start(false)
        .nearest_goal(false)
}

#[test]
fn a_terrain_edit_is_carried_over_unless_it_changes_the_heuristics_scale() {
    let query = across();
    // A cheap lane along row 0: the way round it is cheaper than straight across.
    let lane: Vec<Cell> = (0..30).map(|x| Cell::new(x, 0)).collect();
    let paint = |map: &mut CachedScenario, cells: &[Cell], terrain: u8| {
        map.apply_edits(cells.iter().map(|&c| MapEdit::Terrain(c, terrain)));
    };
    for shape in SHAPES {
        // The cheapest terrain is on the map from the start (one cell in a corner):
        // dearer steps on the straight way, then the cheap lane, are carried over.
        let mut map = open_map(shape, &[Cell::new(0, 8)]);
        let mut pf = Pathfinder::new();
        let started = pf.start(&map, &query, 5);
        assert!(
            matches!(started, Ok(Progress::Suspended { .. })),
            "{shape:?}"
        );
        paint(
            &mut map,
            &[Cell::new(3, 4), Cell::new(3, 3), Cell::new(3, 5)],
            2,
        );
        assert!(matches!(
            pf.resume(&map, 20),
            Ok(Progress::Suspended { .. })
        ));
        paint(&mut map, &lane, 0);
        let cost = finish(&mut pf, &map, 5);
        let context = format!("{shape:?}{}", drawn(&map));
        assert_eq!(
            cost,
            oracle(&map, query.start, 1)[map.size().index(query.goal)],
            "{context}"
        );
        assert!(pf.carried_over() && pf.edit_restarts() == 0, "{context}");

        // All of terrain 1 at the start: the lane lowers the smallest weight, and with
        // it the heuristic's scale; the search starts over, and is still exact.
        let mut map = open_map(shape, &[]);
        let mut pf = Pathfinder::new();
        let started = pf.start(&map, &query, 5);
        assert!(
            matches!(started, Ok(Progress::Suspended { .. })),
            "{shape:?}"
        );
        paint(&mut map, &lane, 0);
        let cost = finish(&mut pf, &map, 5);
        let context = format!("{shape:?}{}", drawn(&map));
        assert_eq!(
            cost,
            oracle(&map, query.start, 1)[map.size().index(query.goal)],
            "{context}"
        );
        assert_eq!(pf.edit_restarts(), 1, "{context}");
    }
}

/// On a map whose cells all weigh 3 the carried path is checked against the cost the
/// search gave it: a count of steps on squares (the unit-cost engine), weights already
/// on hexagons.
#[test]
fn a_search_on_a_uniformly_dear_map_is_carried_over_a_wall() {
    let query = across();
    for shape in SHAPES {
        let mut map = open_map(shape, &[]);
        let mut pf = Pathfinder::new();
        let started = pf.start(&map, &query, 5);
        assert!(
            matches!(started, Ok(Progress::Suspended { .. })),
            "{shape:?}"
        );
        map.set_obstacle(Cell::new(15, 4), true);
        let cost = finish(&mut pf, &map, 5);
        let context = format!("{shape:?}{}", drawn(&map));
        assert_eq!(
            cost,
            oracle(&map, query.start, 1)[map.size().index(query.goal)],
            "{context}"
        );
        assert!(pf.carried_over() && pf.edit_restarts() == 0, "{context}");
    }
}
