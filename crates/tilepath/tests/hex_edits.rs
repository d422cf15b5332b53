//! Hexagonal searches and fields carried over edits end as fresh ones would on the edited
//! map. Random maps of every layout; tiles are blocked, freed and given other terrain
//! between the slices of a search (or the growth steps of a field), and the answer is
//! checked against the independent offset oracle of `hex_support` on the map as it is
//! then. A failure prints the map.

mod hex_support;

use hex_support::{Rng, Tiles};
use proptest::prelude::*;
use tilepath::hex::{
    HexAlgorithm, HexField, HexLayout, HexPathError, HexPathfinder, HexQuery, HexStep,
};

/// Slices after which no more edits are made, so that every search ends.
const EDITED_SLICES: u32 = 60;

/// A blocked, plain, rough or very rough tile.
fn weight(rng: &mut Rng) -> u8 {
    [0, 0, 1, 1, 1, 2, 3, 9][(rng.next() % 8) as usize]
}

/// What carrying over did across a run of searches.
#[derive(Default, Debug)]
struct Tally {
    /// Searches that met at least one edit.
    edited: u32,
    /// Of those, searches that ended carried over (not started over since the last edit).
    carried: u32,
}

/// Runs searches on `tiles` with edits between their slices; each answer is checked
/// against the oracle on the tiles as they are when it ends.
fn check_searches(tiles: &mut Tiles, seed: u64, tally: &mut Tally) {
    let mut map = tiles.map();
    let mut rng = Rng(seed | 1);
    let mut finder = HexPathfinder::new();
    for k in 0..6u64 {
        let (from, to) = (rng.tile(tiles), rng.tile(tiles));
        let radius = (k % 3) as u32;
        let algorithm = [
            HexAlgorithm::AStar,
            HexAlgorithm::Dijkstra,
            HexAlgorithm::BreadthFirst,
        ][(rng.next() % 3) as usize];
        let nearest_goal = algorithm != HexAlgorithm::BreadthFirst && rng.next().is_multiple_of(4);
        let query = HexQuery {
            radius,
            algorithm,
            nearest_goal,
            ..HexQuery::new(
                tiles.layout.hex(from.0, from.1),
                tiles.layout.hex(to.0, to.1),
            )
        };
        if finder.start(&map, &query).is_err() {
            continue;
        }
        let mut slices = 0;
        let mut edited = false;
        let outcome = loop {
            match finder.resume(&map, 1 + rng.next() % 6) {
                Ok(HexStep::Suspended) => {}
                Ok(HexStep::Found) => break Ok((finder.path().to_vec(), finder.cost())),
                Err(e) => break Err(e),
            }
            slices += 1;
            if slices < EDITED_SLICES && rng.next().is_multiple_of(3) {
                for _ in 0..1 + rng.next() % 3 {
                    let (t, w) = (rng.tile(tiles), weight(&mut rng));
                    tiles.set(&mut map, t, w);
                }
                edited = true;
            }
        };
        let context = format!(
            "{:?} {algorithm:?} radius {radius} nearest {nearest_goal} {from:?} -> {to:?}, \
             carried {} restarts {}\n{}",
            tiles.layout,
            finder.carried_over(),
            finder.edit_restarts(),
            tiles.ascii()
        );
        if edited {
            tally.edited += 1;
            tally.carried += u32::from(finder.carried_over());
        }
        let unit = algorithm == HexAlgorithm::BreadthFirst;
        let start_ok = tiles.can_stand(from, radius);
        let goal_ok = tiles.can_stand(to, radius);
        match outcome {
            Ok((path, cost)) => {
                assert_eq!(path.first(), Some(&query.start), "{context}");
                let mut sum = 0;
                for w in path.windows(2) {
                    assert_eq!(w[0].distance(w[1]), 1, "{context}");
                    let t = tiles.layout.position(w[1]);
                    assert!(tiles.can_stand(t, radius), "{context}: {t:?} on the path");
                    let (a, b) = (map.weight(w[0]).unwrap(), map.weight(w[1]).unwrap());
                    sum += if unit { 2 } else { u64::from(a) + u64::from(b) };
                }
                assert_eq!(sum, cost, "{context}: the path's cost");
                if nearest_goal {
                    let got = (path.last().unwrap().distance(query.goal), cost);
                    assert_eq!(Some(got), tiles.nearest(from, to, radius), "{context}");
                } else {
                    assert_eq!(path.last(), Some(&query.goal), "{context}");
                    assert_eq!(
                        Some(cost),
                        tiles.oracle(from, to, radius, unit),
                        "{context}"
                    );
                }
            }
            Err(HexPathError::StartBlocked { .. }) => assert!(!start_ok, "{context}"),
            Err(HexPathError::GoalBlocked { .. }) => assert!(!goal_ok, "{context}"),
            Err(HexPathError::NotFound) => {
                assert!(!nearest_goal, "{context}");
                assert_eq!(tiles.oracle(from, to, radius, unit), None, "{context}");
            }
            Err(e) => panic!("{context}: {e}"),
        }
    }
}

/// Grows fields on `tiles` with edits between growth steps, carried over (or reset when
/// that fails). Every distance the field gives, at any moment, is the oracle's on the
/// tiles of that moment, and the complete field knows every reachable tile.
fn check_fields(tiles: &mut Tiles, seed: u64, tally: &mut Tally) {
    let mut map = tiles.map();
    let mut rng = Rng(seed.rotate_left(17) | 1);
    let mut field = HexField::new();
    for k in 0..3u64 {
        let goal = rng.tile(tiles);
        let radius = (k % 2) as u32;
        let hex = tiles.layout.hex(goal.0, goal.1);
        if field.reset(&map, hex, radius).is_err() {
            continue;
        }
        let mut steps = 0;
        let mut carried = false;
        loop {
            let grown = field.grow(&map, 1 + rng.next() % 8);
            let exact = tiles.costs_from(goal, radius);
            let context = format!(
                "{:?} field to {goal:?} radius {radius}, step {steps}\n{}",
                tiles.layout,
                tiles.ascii()
            );
            for c in 0..tiles.columns {
                for r in 0..tiles.rows {
                    let Some(d) = field.distance(tiles.layout.hex(c, r)) else {
                        continue;
                    };
                    assert_eq!(Some(&d), exact.get(&(c, r)), "{context}: tile {c},{r}");
                    let way: Vec<_> = field.descend(tiles.layout.hex(c, r)).take(4096).collect();
                    assert_eq!(way.last(), Some(&hex), "{context}: way down from {c},{r}");
                }
            }
            if grown == 0 {
                assert!(field.is_complete(), "{context}");
                for (&(c, r), &d) in &exact {
                    let got = field.distance(tiles.layout.hex(c, r));
                    assert_eq!(got, Some(d), "{context}: complete, tile {c},{r}");
                }
                break;
            }
            steps += 1;
            if steps < EDITED_SLICES && rng.next().is_multiple_of(3) {
                let (t, w) = (rng.tile(tiles), weight(&mut rng));
                tiles.set(&mut map, t, w);
                if field.carry_over(&map) {
                    carried = true;
                } else if field.reset(&map, hex, radius).is_err() {
                    break;
                }
            }
        }
        tally.edited += 1;
        tally.carried += u32::from(carried);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn carried_hex_searches_end_as_fresh_ones(seed in any::<u64>()) {
        for layout in HexLayout::ALL {
            let mut tiles = Tiles::random(layout, seed);
            check_searches(&mut tiles, seed, &mut Tally::default());
        }
    }

    #[test]
    fn carried_hex_fields_stay_exact(seed in any::<u64>()) {
        for layout in HexLayout::ALL {
            let mut tiles = Tiles::random(layout, seed);
            check_fields(&mut tiles, seed, &mut Tally::default());
        }
    }
}

/// The searches and fields above mostly carry over rather than start over: with this
/// seeded run, most edited searches end carried over.
#[test]
fn most_edited_searches_and_fields_carry_over() {
    let (mut searches, mut fields) = (Tally::default(), Tally::default());
    for seed in 0..40u64 {
        for layout in HexLayout::ALL {
            let seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ layout as u64;
            check_searches(&mut Tiles::random(layout, seed), seed, &mut searches);
            check_fields(&mut Tiles::random(layout, seed), seed, &mut fields);
        }
    }
    println!("searches {searches:?}, fields {fields:?}");
    assert!(searches.edited > 100, "{searches:?}");
    assert!(2 * searches.carried > searches.edited, "{searches:?}");
    assert!(2 * fields.carried > fields.edited, "{fields:?}");
}
