//! A small army on a generated map: every path of ours is valid and exactly optimal, with
//! and without shared fields, for both orders; northstar's answers are all collected.

use bevy_tilepath::tilepath::grid::GridSize;
use bevy_tilepath::tilepath::scenario::generate;

use crate::report::References;
use crate::scene::{Army, Scene};
use crate::{Case, Mode, Order, northstar, ours};

#[test]
fn a_small_army_gets_valid_optimal_paths_and_northstar_answers_all() {
    let mut bits = generate::rooms(GridSize::new(64, 64), 3);
    generate::keep_largest_region(&mut bits);
    let scene = Scene::from_bits("rooms64", bits);
    let map = scene.map();
    let army = Army::new(&scene, &map, 120);
    let mut references = References::default();
    for order in Order::ALL {
        for mode in Mode::ALL {
            let case = Case {
                map: scene.name.clone(),
                units: 120,
                order,
                threads: 1,
                mode,
            };
            // Ours under its 2 ms time budget: the progress guarantee answers every unit
            // within 120 × (4,096 / 256 + 1) frames at any speed; the cap is above that.
            let outcome = match mode {
                Mode::Northstar => northstar::run(&scene, &army, &case, 2_000),
                _ => ours::run(&scene, &army, &case, 10_000),
            };
            let row = references.row(&scene, &map, case, outcome);
            assert!(row.outcome.done, "{}", row.summary());
            assert_eq!(row.outcome.paths.len() + row.outcome.failed, 120);
            if mode.exact() {
                assert_eq!(row.outcome.failed, 0, "{}", row.summary());
                assert_eq!((row.mismatches, row.invalid), (0, 0), "{}", row.summary());
                assert!((row.ratio() - 1.0).abs() < 1e-6, "{}", row.summary());
            } else if mode == Mode::Approach {
                // Valid paths, never below the optimum, a little above it at most.
                assert_eq!(row.outcome.failed, 0, "{}", row.summary());
                assert_eq!(row.invalid, 0, "{}", row.summary());
                let ratio = row.ratio();
                assert!((1.0 - 1e-6..1.1).contains(&ratio), "{}", row.summary());
            } else {
                // HPA* paths are never shorter than the optimum.
                assert!(row.ratio() >= 1.0 - 1e-6, "{}", row.summary());
            }
            if order == Order::Gather && mode == Mode::Fields {
                // One shared goal: every path is read off the field.
                assert!(row.outcome.field_answers >= 100, "{}", row.summary());
            }
            if order == Order::Move && mode != Mode::Northstar {
                // Claimed goals: 120 distinct cells.
                let mut ends: Vec<_> = row.outcome.paths.iter().map(|p| p.reached).collect();
                ends.sort_unstable_by_key(|c| (c.y, c.x));
                ends.dedup();
                assert_eq!(ends.len(), 120);
            }
        }
    }
}
