//! Weighted conformance on generated countryside maps: every algorithm against the plain weighted Dijkstra oracle.
//!
//! Maps are [`countryside`] terrain (256 × 256 and 512 × 512: fields, roads, forest, swamp, water,
//! walls) read through two terrain specs registered as two profiles of one map. For
//! diameters 1 and 3, from random starts to random goals:
//!
//! - A*, Dijkstra, JPS and Auto report exactly the oracle's optimal fixed-point cost
//!   (and "unreachable" exactly where the oracle reaches nothing);
//! - BFS, DFS, IDDFS, best-first and evasion return paths the oracle accepts, whose
//!   reported `cost` is the cost the oracle recomputes from the cells (never below the
//!   optimum);
//! - every path also passes `validate_path` on the query's layer.
//!
//! A profile whose passable terrain all weighs the same gives exactly the results of
//! the same map without terrain (paths, lengths, expansions, smoothing), its cost
//! scaled by the weight. The oracle is `oracle_weighted_distances` of `tests/common`
//! (a plain Dijkstra over a naively tested footprint, weights read from the spec), the
//! reported costs are recomputed by `weighted_cost_of`. The counts are printed (`cargo test --test terrain -- --nocapture`);
//! a failure prints the map around the path.

mod common;

use std::collections::BTreeMap;

use tilepath::grid::{Cell, Cost, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::generate::{SplitMix64, countryside};
use tilepath::scenario::movingai_terrain::{TerrainMap, TerrainSpec, terrain_char};
use tilepath::scenario::{CellRect, FnScenario, ProfileId};
use tilepath::search::validate_path;

/// The two profiles: (name, spec).
const PROFILES: [(&str, &str); 2] = [
    ("infantry", ".=2,R=1,F=4,S=7,W=x"),
    ("hover", ".=2,R=2,F=x,S=3,W=1"),
];
/// The maps: (side, seed).
const MAPS: [(u32, u64); 3] = [(256, 11), (256, 12), (512, 14)];
const STARTS: usize = 6;
const GOALS: usize = 12;

/// The weight of `cell` under `spec`, read from its map character (`None`: blocked).
fn weight_of(terrain: &TerrainMap, spec: &TerrainSpec, cell: Cell) -> Option<u8> {
    terrain
        .get(cell)
        .and_then(terrain_char)
        .and_then(|ch| spec.weight(ch))
}

/// The terrain around `path` (or its ends) as map characters, the path drawn as `*`
/// from `A` to `B`, at most 120 × 60 cells.
fn picture(terrain: &TerrainMap, path: &[Cell], start: Cell, goal: Cell) -> String {
    let mut area = CellRect::from_cell(start);
    area.include(goal);
    for &c in path {
        area.include(c);
    }
    let size = terrain.size();
    let x0 = (area.min.x - 2).max(0).min(start.x.max(0));
    let y0 = (area.min.y - 2).max(0).min(start.y.max(0));
    let x1 = (area.max.x + 2).min(size.width as i32).min(x0 + 120);
    let y1 = (area.max.y + 2).min(size.height as i32).min(y0 + 60);
    let mut out = format!("\nmap cells x {x0}..{x1}, y {y0}..{y1}:\n");
    for y in y0..y1 {
        for x in x0..x1 {
            let c = Cell::new(x, y);
            let ch = if c == start {
                'A'
            } else if c == goal {
                'B'
            } else if path.contains(&c) {
                '*'
            } else {
                terrain.get(c).and_then(terrain_char).unwrap_or('?')
            };
            out.push(ch);
        }
        out.push('\n');
    }
    out
}

#[derive(Default)]
struct Counts {
    found: usize,
    unreachable: usize,
}

/// One query's verdict, or the failure text.
fn check(
    map: &CachedScenario,
    pf: &mut Pathfinder,
    weight: impl Fn(Cell) -> Option<u8>,
    query: &PathQuery,
    expected: Option<Cost>,
) -> Result<bool, String> {
    let layer = map
        .layer_for(query.profile, query.diameter)
        .expect("a registered profile and a valid diameter");
    let (s, g) = (query.start, query.goal);
    match (pf.find(map, query), expected) {
        (Ok(stats), Some(optimum)) => {
            validate_path(layer, pf.path(), s, g, query.options.connectivity)
                .map_err(|e| format!("invalid path: {e}"))?;
            let recomputed = common::weighted_cost_of(pf.path(), weight);
            if recomputed != Some(stats.cost) {
                return Err(format!(
                    "reported cost {} but the oracle costs the path {recomputed:?}",
                    stats.cost
                ));
            }
            if query.algorithm.is_optimal() && stats.cost != optimum {
                return Err(format!("cost {} but the optimum is {optimum}", stats.cost));
            }
            if stats.cost < optimum {
                return Err(format!("cost {} below the optimum {optimum}", stats.cost));
            }
            Ok(true)
        }
        (Err(PathError::Unreachable), None) => Ok(false),
        (got, expected) => Err(format!("got {got:?}, the oracle says {expected:?}")),
    }
}

#[test]
fn every_algorithm_agrees_with_the_weighted_oracle_on_countryside_maps() {
    let specs: Vec<(ProfileId, &str, TerrainSpec)> = PROFILES
        .iter()
        .enumerate()
        .map(|(k, (name, spec))| (ProfileId(k as u8 + 1), *name, spec.parse().unwrap()))
        .collect();
    let mut counts: BTreeMap<(&str, &str, u32), Counts> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut pf = Pathfinder::new();
    for (side, seed) in MAPS {
        let terrain = countryside(GridSize::new(side, side), seed);
        let mut map = terrain.clone().into_scenario().unwrap();
        for (id, _, spec) in &specs {
            map.set_profile(*id, spec.profile());
        }
        let mut rng = SplitMix64::new(seed);
        for (profile, name, spec) in &specs {
            let weight = |c: Cell| weight_of(&terrain, spec, c);
            let size = terrain.size();
            let no_obstacles = FnScenario::new(size, |_| false);
            for diameter in [1, 3] {
                // Ends where the core says the agent fits: the oracle, which tests the
                // footprint itself, must then agree on every answer.
                let layer = map.layer_for(*profile, diameter).unwrap();
                let standable: Vec<Cell> = CellRect::of_size(size)
                    .cells()
                    .filter(|&c| !layer.is_blocked(c))
                    .collect();
                for _ in 0..STARTS {
                    let start = standable[rng.below(standable.len() as u32) as usize];
                    let dist = common::oracle_weighted_distances(
                        &no_obstacles,
                        weight,
                        start,
                        diameter,
                        Connectivity::Octile,
                    );
                    for _ in 0..GOALS {
                        let goal = standable[rng.below(standable.len() as u32) as usize];
                        let expected = dist[size.index(goal)];
                        for algorithm in Algorithm::ALL {
                            let q = PathQuery::new(start, goal)
                                .algorithm(algorithm)
                                .profile(*profile)
                                .diameter(diameter);
                            let c = counts
                                .entry((algorithm.name(), name, diameter))
                                .or_default();
                            match check(&map, &mut pf, weight, &q, expected) {
                                Ok(true) => c.found += 1,
                                Ok(false) => c.unreachable += 1,
                                Err(e) => failures.push(format!(
                                    "map {side} seed {seed} {name} d={diameter} {algorithm} {start} -> {goal}: {e}{}",
                                    picture(&terrain, pf.path(), start, goal)
                                )),
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("algorithm  profile   d  paths  unreachable");
    let mut total = 0;
    for ((algorithm, name, d), c) in &counts {
        eprintln!(
            "{algorithm:<10} {name:<9} {d}  {:>5}  {:>5}",
            c.found, c.unreachable
        );
        total += c.found + c.unreachable;
    }
    eprintln!(
        "{total} weighted cases checked on {} countryside maps ({:?} as (side, seed))",
        MAPS.len(),
        MAPS
    );
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n")
    );
    for ((algorithm, _, _), c) in &counts {
        assert!(
            c.found >= GOALS,
            "{algorithm}: too few paths found to mean anything"
        );
    }
}

#[test]
fn uniform_weights_give_exactly_the_unweighted_results() {
    let terrain = countryside(GridSize::new(256, 256), 13);
    let mut checked = 0;
    for weight in [1, 3] {
        let spec: TerrainSpec = format!(".={weight},R={weight},F={weight},S={weight},W=x")
            .parse()
            .unwrap();
        let profile = ProfileId(1);
        let mut weighted = terrain.clone().into_scenario().unwrap();
        weighted.set_profile(profile, spec.profile());
        let plain = CachedScenario::from_bits(terrain.blocked_bits(&spec.profile())).unwrap();
        assert_eq!(
            weighted.weights(profile).unwrap().uniform(),
            Some(weight),
            "the layer must count as uniform"
        );
        let mut rng = SplitMix64::new(u64::from(weight));
        let (mut a, mut b) = (Pathfinder::new(), Pathfinder::new());
        for diameter in [1, 3] {
            let layer = plain.layer(diameter).unwrap();
            let free: Vec<Cell> = CellRect::of_size(plain.size())
                .cells()
                .filter(|&c| !layer.is_blocked(c))
                .collect();
            for k in 0..12 {
                let start = free[rng.below(free.len() as u32) as usize];
                let goal = free[rng.below(free.len() as u32) as usize];
                for algorithm in Algorithm::ALL {
                    let q = PathQuery::new(start, goal)
                        .algorithm(algorithm)
                        .diameter(diameter)
                        .smooth(k % 2 == 0);
                    let unweighted = b.find(&plain, &q);
                    let got = a.find(&weighted, &q.profile(profile));
                    let scaled = unweighted.map(|s| PathStats {
                        cost: s.cost * Cost::from(weight),
                        ..s
                    });
                    let same =
                        got == scaled && a.path() == b.path() && a.waypoints() == b.waypoints();
                    assert!(
                        same,
                        "weight {weight} d={diameter} {algorithm} {start} -> {goal}: {got:?} against {scaled:?}{}",
                        picture(&terrain, a.path(), start, goal)
                    );
                    checked += 1;
                }
            }
        }
    }
    eprintln!("{checked} uniform-weight queries equal the unweighted ones (weights 1 and 3)");
}
