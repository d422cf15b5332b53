//! Hexagonal maps against an independent oracle: a Dijkstra and a breadth-first search
//! written in offset coordinates with Red Blob Games' neighbour tables, which share
//! nothing with the crate's axial code. Every layout, random weights and obstacles, agents
//! of radius 0 to 2, whole and sliced searches, distance fields. A failure prints the map.

mod hex_support;

use hex_support::Tiles;
use proptest::prelude::*;
use tilepath::hex::{
    Hex, HexAlgorithm, HexField, HexLayout, HexMap, HexPathError, HexPathfinder, HexQuery, HexStep,
};

/// Checks every algorithm on `tiles` between pairs of tiles, whole and sliced.
fn check(tiles: &Tiles, seed: u64) {
    let map = tiles.map();
    let mut finder = HexPathfinder::new();
    let mut sliced = HexPathfinder::new();
    let mut field = HexField::new();
    let (columns, rows) = (tiles.columns as u64, tiles.rows as u64);
    for k in 0..12u64 {
        let x = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(k * 1_442_695_040_888_963_407);
        let from = ((x % columns) as i32, ((x >> 16) % rows) as i32);
        let to = (((x >> 32) % columns) as i32, ((x >> 48) % rows) as i32);
        let radius = (k % 3) as u32;
        for algorithm in [
            HexAlgorithm::AStar,
            HexAlgorithm::Dijkstra,
            HexAlgorithm::BreadthFirst,
        ] {
            let unit = algorithm == HexAlgorithm::BreadthFirst;
            let query = HexQuery {
                radius,
                algorithm,
                ..HexQuery::new(
                    tiles.layout.hex(from.0, from.1),
                    tiles.layout.hex(to.0, to.1),
                )
            };
            let context = format!(
                "{:?} {algorithm:?} radius {radius} {from:?} -> {to:?}\n{}",
                tiles.layout,
                tiles.ascii()
            );
            let expected = if !tiles.can_stand(from, radius) || !tiles.can_stand(to, radius) {
                None
            } else {
                tiles.oracle(from, to, radius, unit)
            };
            let got = finder.find(&map, &query).map(|p| p.to_vec());
            match (&got, expected) {
                (Ok(path), Some(cost)) => {
                    assert_eq!(finder.cost(), cost, "{context}");
                    let mut sum = 0;
                    for w in path.windows(2) {
                        assert_eq!(w[0].distance(w[1]), 1, "{context}");
                        let (a, b) = (map.weight(w[0]).unwrap(), map.weight(w[1]).unwrap());
                        sum += if unit { 2 } else { u64::from(a) + u64::from(b) };
                    }
                    for &h in path {
                        let t = tiles.layout.position(h);
                        assert!(tiles.can_stand(t, radius), "{context}: {t:?} on the path");
                    }
                    assert_eq!(sum, cost, "{context}");
                }
                (Err(HexPathError::NotFound), Some(_)) => panic!("{context}: not found"),
                (Ok(_), None) => panic!("{context}: found an impossible path"),
                (Err(_), None) => {}
                (Err(e), Some(_)) => panic!("{context}: {e}"),
            }
            // Nearest reachable goals: the nearest hexagon, at its cheapest.
            if algorithm == HexAlgorithm::AStar {
                let near = HexQuery {
                    nearest_goal: true,
                    ..query
                };
                let reached = finder
                    .find(&map, &near)
                    .ok()
                    .and_then(|p| p.last().copied());
                let got = reached.map(|h| (h.distance(query.goal), finder.cost()));
                assert_eq!(
                    got,
                    tiles.nearest(from, to, radius),
                    "{context}: nearest goal"
                );
            }
            // A field from the goal, grown 7 hexagons at a time, knows the same cost, and
            // its way down costs it.
            if algorithm == HexAlgorithm::Dijkstra && field.reset(&map, query.goal, radius).is_ok()
            {
                while field.grow(&map, 7) > 0 {}
                assert!(field.is_complete(), "{context}");
                assert_eq!(field.distance(query.start), expected, "{context}: field");
                let way: Vec<Hex> = field.descend(query.start).collect();
                let mut sum = 0;
                for w in way.windows(2) {
                    assert_eq!(w[0].distance(w[1]), 1, "{context}: field");
                    let t = tiles.layout.position(w[1]);
                    assert!(
                        tiles.can_stand(t, radius),
                        "{context}: {t:?} on the way down"
                    );
                    sum +=
                        u64::from(map.weight(w[0]).unwrap()) + u64::from(map.weight(w[1]).unwrap());
                }
                if expected.is_some() {
                    assert_eq!(way.last(), Some(&query.goal), "{context}: field");
                    assert_eq!(Some(sum), expected, "{context}: field's way down");
                } else {
                    assert!(way.is_empty(), "{context}: field");
                }
            }
            // The same search one expansion at a time.
            if sliced.start(&map, &query).is_ok() {
                let whole = loop {
                    match sliced.resume(&map, 1) {
                        Ok(HexStep::Suspended) => continue,
                        Ok(HexStep::Found) => break Some(sliced.cost()),
                        Err(_) => break None,
                    }
                };
                assert_eq!(whole, expected, "{context}: sliced");
                if whole.is_some() {
                    assert_eq!(sliced.expansions(), finder.expansions(), "{context}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn hex_searches_match_an_offset_oracle_on_every_layout(seed in any::<u64>()) {
        for layout in HexLayout::ALL {
            check(&Tiles::random(layout, seed), seed);
        }
    }
}

#[test]
fn a_star_expands_no_more_than_dijkstra_on_open_maps() {
    let tiles = Tiles {
        layout: HexLayout::RowOdd,
        columns: 40,
        rows: 30,
        weights: vec![1; 1200],
    };
    let map = tiles.map();
    let mut finder = HexPathfinder::new();
    let query = HexQuery::new(HexLayout::RowOdd.hex(2, 3), HexLayout::RowOdd.hex(37, 25));
    finder.find(&map, &query).unwrap();
    let astar = finder.expansions();
    let steps = finder.path().len() as u64 - 1;
    let dijkstra = HexQuery {
        algorithm: HexAlgorithm::Dijkstra,
        ..query
    };
    finder.find(&map, &dijkstra).unwrap();
    assert_eq!(finder.path().len() as u64 - 1, steps);
    assert!(
        astar * 4 < finder.expansions(),
        "{astar} vs {}",
        finder.expansions()
    );
}

#[test]
fn an_edit_is_carried_over_and_wide_agents_keep_clear() {
    let mut map = HexMap::from_ascii(
        HexLayout::Row,
        "
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........",
    )
    .unwrap();
    let mut finder = HexPathfinder::new();
    let query = HexQuery::new(Hex::new(0, 2), Hex::new(9, 2));
    finder.start(&map, &query).unwrap();
    assert_eq!(finder.resume(&map, 2), Ok(HexStep::Suspended));
    map.set_weights([(Hex::new(5, 2), 0)]);
    while finder.resume(&map, 2) == Ok(HexStep::Suspended) {}
    assert!(finder.carried_over());
    let carried = (finder.cost(), finder.path().to_vec());
    assert!(!carried.1.contains(&Hex::new(5, 2)));
    let mut fresh = HexPathfinder::new();
    fresh.find(&map, &query).unwrap();
    assert_eq!(carried.0, fresh.cost());
    assert_eq!(finder.resume(&map, 2), Err(HexPathError::NothingToResume));
    // A radius-1 agent needs its six neighbours free: not on the map's edge.
    let wide = HexQuery { radius: 1, ..query };
    assert_eq!(
        finder.find(&map, &wide),
        Err(HexPathError::StartBlocked {
            hex: Hex::new(0, 2)
        })
    );
    let wide = HexQuery {
        start: Hex::new(1, 2),
        goal: Hex::new(8, 2),
        ..wide
    };
    let path = finder.find(&map, &wide).unwrap().to_vec();
    assert!(path.iter().all(|&h| h.distance(Hex::new(5, 2)) > 1));
    assert!(
        path.iter()
            .all(|&h| (1..=8).contains(&h.q) && (1..=5).contains(&h.r))
    );
    // Three rows between the edge and the blocked hexagon are too narrow for it.
    map.set_weights([(Hex::new(5, 4), 0)]);
    assert_eq!(finder.find(&map, &wide), Err(HexPathError::NotFound));
}
