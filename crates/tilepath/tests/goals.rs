//! Goal areas, nearest reachable goals and nearest standable starts against the plain oracle.
//!
//! Random grids up to 90 cells long; for each case the oracle is the plain Dijkstra of
//! `common` run to every cell of the area (or every cell of the map for the nearest
//! goal), so nothing of the pathfinder's component or ring logic is reused.

mod common;

use common::{oracle_cost, picture, random_grid};
use tilepath::grid::{Cell, Connectivity, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::{BitGrid, CellRect};
use tilepath::search::validate_path;

/// Optimal cost from `start` to each on-map cell of `cells`, best first by (cost, y, x).
fn best_of(
    bits: &BitGrid,
    start: Cell,
    cells: impl Iterator<Item = Cell>,
    diameter: u32,
) -> Option<(tilepath::grid::Cost, Cell)> {
    let scenario = common::ascii(&picture(bits, &[]));
    cells
        .filter_map(|c| {
            oracle_cost(&scenario, start, c, diameter, Connectivity::Octile).map(|cost| (cost, c))
        })
        .min_by_key(|&(cost, c)| (cost, c.y, c.x))
}

fn octile(a: Cell, b: Cell) -> tilepath::grid::Cost {
    Connectivity::Octile.heuristic(a, b)
}

#[test]
fn goal_areas_nearest_goals_and_nearest_starts_match_the_oracle() {
    let mut counts = [0usize; 4];
    for seed in 0..160u64 {
        let size = GridSize::new(8 + (seed as u32 * 7) % 80, 6 + (seed as u32 * 3) % 14);
        let bits = random_grid(size, 20 + (seed % 4) as u32 * 8, seed);
        let map = CachedScenario::from_bits(bits.clone()).unwrap();
        let (w, h) = (size.width as i32, size.height as i32);
        let start = Cell::new((seed as i32 * 5) % w, (seed as i32 * 3) % h);
        let goal = Cell::new(
            w - 1 - (seed as i32 * 11) % w,
            h - 1 - (seed as i32 * 7) % h,
        );
        let diameter = [1, 1, 2, 3][seed as usize % 4];
        let radius = (seed % 4) as u32;
        let layer = map.layer(diameter).unwrap();
        let area = CellRect::from_cell(goal).grow_clip(radius.into(), radius.into(), size);
        let shown = |what: &str, got: &dyn std::fmt::Debug| {
            format!(
                "seed {seed} d {diameter} r {radius} {start} -> {goal}: {what} {got:?}{}",
                picture(&bits, &[start, goal])
            )
        };
        let mut pf = Pathfinder::new();
        for algorithm in [
            Algorithm::Auto,
            Algorithm::AStar,
            Algorithm::Dijkstra,
            Algorithm::Bfs,
            Algorithm::Evasion,
        ] {
            let q = PathQuery::new(start, goal)
                .algorithm(algorithm)
                .diameter(diameter)
                .goal_radius(radius)
                .nearest_start(true)
                .nearest_goal(true);
            let got = pf.find(&map, &q);
            // The start the oracle expects: the standable cell nearest to `start`.
            let from = CellRect::of_size(size)
                .cells()
                .filter(|&c| !layer.is_blocked(c))
                .min_by_key(|&c| (octile(c, start), c.y, c.x));
            let Some(from) = from else {
                assert!(got.is_err(), "{}", shown("nothing standable, got", &got));
                continue;
            };
            let stats = got.unwrap_or_else(|e| panic!("{}", shown("failed", &e)));
            assert_eq!(stats.start, from, "{}", shown("start", &stats));
            let path = pf.path();
            assert_eq!(path.first(), Some(&from));
            assert_eq!(path.last(), Some(&stats.reached));
            assert!(validate_path(layer, path, from, stats.reached, Connectivity::Octile).is_ok());
            let in_area = best_of(&bits, from, area.cells(), diameter);
            match in_area {
                Some((cost, _)) => {
                    assert!(
                        stats.reached.chebyshev(goal) <= radius,
                        "{}",
                        shown("left the area", &stats)
                    );
                    if algorithm.is_optimal() {
                        assert_eq!(stats.cost, cost, "{}", shown("not optimal", &stats));
                    }
                    counts[if radius == 0 { 0 } else { 1 }] += 1;
                }
                None => {
                    // Nearest reachable by octile distance to the goal (ties by y, x).
                    let reachable = best_of(&bits, from, std::iter::once(from), diameter).is_some();
                    assert!(reachable);
                    let scenario = common::ascii(&picture(&bits, &[]));
                    let nearest = CellRect::of_size(size)
                        .cells()
                        .filter(|&c| {
                            oracle_cost(&scenario, from, c, diameter, Connectivity::Octile)
                                .is_some()
                        })
                        .min_by_key(|&c| (octile(c, goal), c.y, c.x))
                        .unwrap();
                    assert_eq!(stats.reached, nearest, "{}", shown("nearest goal", &stats));
                    if algorithm.is_optimal() {
                        let cost =
                            oracle_cost(&scenario, from, nearest, diameter, Connectivity::Octile);
                        assert_eq!(Some(stats.cost), cost, "{}", shown("not optimal", &stats));
                    }
                    counts[2] += 1;
                }
            }
            if from != start {
                counts[3] += 1;
            }
        }
    }
    println!(
        "goal cells {}, goal areas {}, nearest reachable goals {}, moved starts {}",
        counts[0], counts[1], counts[2], counts[3]
    );
    assert!(
        counts.iter().all(|&n| n > 20),
        "every kind of case occurs: {counts:?}"
    );
}

#[test]
fn without_the_options_blocked_ends_and_unreachable_areas_are_errors() {
    let map = CachedScenario::from_ascii(
        "
        ..#...
        ..#.#.
        ..#...
        ",
    )
    .unwrap();
    let mut pf = Pathfinder::new();
    let q = |s: (i32, i32), g: (i32, i32)| PathQuery::new(Cell::from(s), Cell::from(g));
    assert_eq!(
        pf.find(&map, &q((2, 0), (0, 0))),
        Err(PathError::StartBlocked {
            cell: Cell::new(2, 0),
            diameter: 1
        })
    );
    assert_eq!(
        pf.find(&map, &q((0, 0), (4, 1))),
        Err(PathError::GoalBlocked {
            cell: Cell::new(4, 1),
            diameter: 1
        })
    );
    assert_eq!(
        pf.find(&map, &q((0, 0), (4, 1)).goal_radius(1)),
        Err(PathError::Unreachable)
    );
    // Inside the ring around the pillar: the area of radius 1 around the pillar is reachable.
    let stats = pf.find(&map, &q((3, 0), (4, 1)).goal_radius(1)).unwrap();
    assert_eq!((stats.reached, stats.cost), (Cell::new(3, 0), 0));
    // The nearest reachable cell to the pillar from the left half: (1, 1), by octile distance.
    let stats = pf
        .find(&map, &q((0, 0), (4, 1)).nearest_goal(true))
        .unwrap();
    assert_eq!(stats.reached, Cell::new(1, 1));
    // Off the map with nearest_goal: the nearest reachable cell.
    let stats = pf
        .find(&map, &q((0, 0), (-5, 2)).nearest_goal(true))
        .unwrap();
    assert_eq!(stats.reached, Cell::new(0, 2));
    assert_eq!(
        pf.find(&map, &q((0, 0), (-5, 2))),
        Err(PathError::OutOfBounds {
            cell: Cell::new(-5, 2)
        })
    );
}

/// True for the jump point searches (and `Auto`, which runs one on these maps): sliced,
/// a diagonal walk cut by the budget leaves its next jump point on the open list instead
/// of expanding it on the spot, so the sliced search may expand other nodes and break
/// ties between paths of equal cost otherwise than the whole one.
fn jumps(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::Auto | Algorithm::Jps | Algorithm::JpsPlus
    )
}

/// Asserts that a sliced search answered as the whole one: the same answer for the
/// other algorithms; for the jump point searches the same cost, length and ends.
fn same_answer(
    got: &Result<PathStats, PathError>,
    expected: &Result<PathStats, PathError>,
    algorithm: Algorithm,
    context: &str,
) {
    match (got, expected) {
        (Ok(g), Ok(e)) if jumps(algorithm) => assert_eq!(
            (g.cost, g.length, g.start, g.reached),
            (e.cost, e.length, e.start, e.reached),
            "{context}"
        ),
        _ => assert_eq!(got, expected, "{context}"),
    }
}

#[test]
fn sliced_searches_end_like_whole_ones() {
    use tilepath::search::Progress;
    let mut sliced_runs = 0;
    for seed in 0..30u64 {
        let size = GridSize::new(120, 40 + seed as u32 % 30);
        let bits = random_grid(size, 25, seed);
        let mut map = CachedScenario::from_bits(bits.clone()).unwrap();
        let start = Cell::new(1, 1);
        let goal = Cell::new(118, size.height as i32 - 2);
        for algorithm in [
            Algorithm::Auto,
            Algorithm::AStar,
            Algorithm::Jps,
            Algorithm::JpsPlus,
            Algorithm::Dijkstra,
            Algorithm::BestFirst,
            Algorithm::Bfs,
        ] {
            let q = PathQuery::new(start, goal)
                .algorithm(algorithm)
                .nearest_start(true)
                .nearest_goal(true);
            let mut whole = Pathfinder::new();
            let expected = whole.find(&map, &q);
            let mut pf = Pathfinder::new();
            let budget = 1 + (seed as u32 % 7) * 13;
            let mut progress = pf.start(&map, &q, budget);
            let mut slices = 1;
            let mut before = 0;
            // Every node expanded counts as one: a suspended slice spent exactly its
            // budget.
            while let Ok(Progress::Suspended { expanded }) = progress {
                assert!(pf.is_suspended());
                assert_eq!(
                    expanded,
                    before + budget,
                    "slice {slices} of {budget} went from {before} to {expanded}"
                );
                before = expanded;
                progress = pf.resume(&map, budget);
                slices += 1;
            }
            let got = progress.map(|p| match p {
                Progress::Done(stats) => stats,
                Progress::Suspended { .. } => unreachable!(),
            });
            let context = format!("seed {seed} {algorithm}{}", picture(&bits, &[start, goal]));
            same_answer(&got, &expected, algorithm, &context);
            if !jumps(algorithm) {
                assert_eq!(pf.path(), whole.path());
            } else if let Ok(stats) = got {
                let layer = map.layer(1).unwrap();
                let valid = validate_path(
                    layer,
                    pf.path(),
                    stats.start,
                    stats.reached,
                    Connectivity::Octile,
                );
                assert_eq!(valid, Ok(()), "{context}");
            }
            assert!(!pf.is_suspended());
            sliced_runs += usize::from(slices > 2);
        }
        // An edit between slices restarts the search on the new map.
        let q = PathQuery::new(start, goal)
            .nearest_start(true)
            .nearest_goal(true);
        let mut pf = Pathfinder::new();
        if let Ok(Progress::Suspended { .. }) = pf.start(&map, &q, 5) {
            map.set_obstacle(
                Cell::new(60, 10),
                !map.obstacles().get_or(Cell::new(60, 10), true),
            );
            let mut progress = pf.resume(&map, 5);
            while let Ok(Progress::Suspended { .. }) = progress {
                progress = pf.resume(&map, 5);
            }
            let Ok(Progress::Done(stats)) = progress else {
                panic!("{progress:?}")
            };
            let expected = Pathfinder::new().find(&map, &q);
            same_answer(&Ok(stats), &expected, q.algorithm, "after an edit");
            let valid = validate_path(
                map.layer(1).unwrap(),
                pf.path(),
                stats.start,
                stats.reached,
                Connectivity::Octile,
            );
            assert_eq!(valid, Ok(()));
        }
    }
    assert!(
        sliced_runs > 50,
        "most searches took several slices: {sliced_runs}"
    );
    assert_eq!(
        Pathfinder::new().resume(&CachedScenario::new(GridSize::new(2, 2)).unwrap(), 9),
        Err(PathError::NothingToResume)
    );
}

#[test]
fn distance_fields_answer_like_each_units_own_optimal_search() {
    use tilepath::scenario::{MovementProfile, ProfileId};
    use tilepath::search::DistanceField;
    let mut checked = 0;
    for seed in 0..12u64 {
        let size = GridSize::new(90, 50);
        let bits = random_grid(size, 12, seed);
        let terrain = common::random_terrain(size, 3, seed);
        let mut map = CachedScenario::from_bits_and_terrain(bits.clone(), terrain).unwrap();
        let profile = ProfileId(1);
        map.set_profile(
            profile,
            MovementProfile::new().with_weight(1, 3).with_weight(2, 7),
        );
        let diameter = 1 + (seed % 3) as u32;
        let layer = map.layer_for(profile, diameter).unwrap();
        let Some(goal) = layer.nearest_free(Cell::new(45, 25), |_| true) else {
            continue;
        };
        let mut field = DistanceField::new(&map, goal, profile, diameter).unwrap();
        let mut slices = 0;
        while !field.grow(&map, 97) {
            slices += 1;
        }
        // Each slice settles 97 cells until the last.
        assert_eq!(
            slices,
            field.expanded().div_ceil(97).saturating_sub(1) as usize
        );
        let mut pf = Pathfinder::new();
        let mut path = Vec::new();
        for i in 0..60 {
            let from = Cell::new((i * 37) % 90, (i * 13) % 50);
            let q = PathQuery::new(from, goal)
                .diameter(diameter)
                .profile(profile);
            let own = pf.find(&map, &q).ok().map(|s| s.cost);
            let fielded = field.path_from(&map, from, &mut path);
            assert_eq!(
                fielded,
                own,
                "seed {seed} from {from}{}",
                picture(&bits, &[from, goal])
            );
            if fielded.is_some() {
                assert!(validate_path(layer, &path, from, goal, Connectivity::Octile).is_ok());
                checked += 1;
            }
        }
        let corner = Cell::new(0, 0);
        map.set_obstacle(corner, !map.obstacles().get_or(corner, true));
        assert!(!field.is_current(&map));
        assert_eq!(
            field.path_from(&map, goal, &mut path),
            None,
            "a stale field answers nothing"
        );
    }
    assert!(checked > 250, "{checked}");
    println!("{checked} field paths equal their own optimal searches");
}

/// Searches guided by a field toward a nearby landmark (claimed cells and formation
/// slots around a group's goal) cost exactly what the weighted oracle says, whether the
/// field is complete or still growing between the slices of the search, on uniform
/// layers (weight 1 and 3: the landmark's units are divided back) and weighted ones,
/// where an `Auto` search reads the field and the layer's landmark table together and
/// expands less than with the table alone.
#[test]
fn guided_searches_cost_what_the_oracle_says_and_expand_less() {
    use tilepath::scenario::{MovementProfile, ProfileId};
    use tilepath::search::{DistanceField, Progress};
    let (mut checked, mut guided_expanded, mut plain_expanded) = (0u32, 0u64, 0u64);
    let (mut both_expanded, mut table_expanded) = (0u64, 0u64);
    for seed in 0..18u64 {
        let size = GridSize::new(90, 50);
        let bits = random_grid(size, 10 + (seed % 4) as u32 * 5, seed);
        let kinds = if seed % 3 == 0 { 1 } else { 3 };
        let terrain = common::random_terrain(size, kinds, seed);
        let mut map = CachedScenario::from_bits_and_terrain(bits.clone(), terrain.clone()).unwrap();
        let profile = ProfileId(1);
        let spec = match seed % 3 {
            0 => MovementProfile::new().with_weight(0, 3),
            1 => MovementProfile::new().with_weight(1, 2).with_weight(2, 9),
            _ => MovementProfile::new().with_weight(1, 4).with_blocked(2),
        };
        map.set_profile(profile, spec.clone());
        let diameter = 1 + (seed % 3) as u32;
        let layer = map.layer_for(profile, diameter).unwrap();
        let Some(landmark) = layer.nearest_free(Cell::new(45, 25), |_| true) else {
            continue;
        };
        let mut field = DistanceField::new(&map, landmark, profile, diameter).unwrap();
        // Grown partly: a third of the cases complete, the others some way.
        let mut rng = tilepath::scenario::generate::SplitMix64::new(seed);
        let first = if seed % 3 == 2 {
            u32::MAX
        } else {
            50 + rng.below(1500)
        };
        field.grow(&map, first);
        let weight = |c: Cell| spec.weight(terrain[size.index(c)]);
        let scenario = common::ascii(&picture(&bits, &[]));
        let mut pf = Pathfinder::new();
        for i in 0..24 {
            let start = Cell::new(rng.below(90) as i32, rng.below(50) as i32);
            if layer.is_blocked(start) {
                continue;
            }
            let dist = common::oracle_weighted_distances(
                &scenario,
                weight,
                start,
                diameter,
                Connectivity::Octile,
            );
            for _ in 0..4 {
                // Near the landmark (most), or anywhere.
                let goal = if i % 6 == 5 {
                    Cell::new(rng.below(90) as i32, rng.below(50) as i32)
                } else {
                    Cell::new(
                        landmark.x + rng.below(13) as i32 - 6,
                        landmark.y + rng.below(13) as i32 - 6,
                    )
                };
                if !size.contains(goal) || layer.is_blocked(goal) {
                    continue;
                }
                let expected = dist[size.index(goal)];
                let q = PathQuery::new(start, goal)
                    .diameter(diameter)
                    .profile(profile)
                    .algorithm(if i % 2 == 0 {
                        Algorithm::Auto
                    } else {
                        Algorithm::AStar
                    });
                let plain = pf.find(&map, &q);
                let guided = pf.find_guided(&map, &q, &field);
                let show = || picture(&bits, &[start, goal, landmark]);
                assert_eq!(
                    guided.as_ref().ok().map(|s| s.cost),
                    expected,
                    "seed {seed} {start} -> {goal}, landmark {landmark}{}",
                    show()
                );
                if let Ok(stats) = &guided {
                    assert!(
                        validate_path(layer, pf.path(), start, goal, Connectivity::Octile).is_ok()
                    );
                    let (guided_n, plain_n) = (
                        u64::from(stats.expanded),
                        u64::from(plain.as_ref().unwrap().expanded),
                    );
                    guided_expanded += guided_n;
                    plain_expanded += plain_n;
                    if i % 2 == 0 && seed % 3 != 0 {
                        // `Auto` on a weighted layer: the field and the table together
                        // against the table alone.
                        both_expanded += guided_n;
                        table_expanded += plain_n;
                    }
                    checked += 1;
                }
                // Sliced, with the field growing between the slices: the same cost.
                let mut progress = pf.start_guided(&map, &q, &field, 7);
                let mut slices = 0;
                while let Ok(Progress::Suspended { .. }) = progress {
                    field.grow(&map, 31);
                    progress = pf.resume_guided(&map, &field, 7);
                    slices += 1;
                    assert!(slices < 100_000);
                }
                let sliced = progress.ok().map(|p| match p {
                    Progress::Done(stats) => stats.cost,
                    Progress::Suspended { .. } => unreachable!(),
                });
                assert_eq!(
                    sliced,
                    expected,
                    "sliced: seed {seed} {start} -> {goal}{}",
                    show()
                );
            }
        }
    }
    assert!(checked > 400, "{checked}");
    assert!(guided_expanded < plain_expanded);
    assert!(both_expanded < table_expanded);
    println!(
        "{checked} guided searches equal the oracle; expansions guided {guided_expanded}, \
         plain {plain_expanded}; weighted `Auto` with field and table {both_expanded}, \
         table alone {table_expanded}"
    );
}
