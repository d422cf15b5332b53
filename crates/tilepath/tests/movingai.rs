//! MovingAI conformance: our optimal algorithms reproduce every stored optimal length.
//!
//! Runs over all scen files of `../shared/movingai` (or `$MOVINGAI_DIR`); the crate is
//! built with opt-level 3 even in the test profile (see Cargo.toml). JPS and JPS+ are
//! checked on every problem; the slower searches on an evenly spread sample of every file, to keep
//! CI within minutes. The runner checks them all:
//! `cargo run --release -p tilepath_bench --no-default-features --example movingai -- --algo astar --algo jps --algo jps-plus --algo dijkstra --check ../shared/movingai/scen/*.scen`.

mod common;

use common::benchmark;
use tilepath::prelude::*;
use tilepath::search::validate_path;

const TOLERANCE: f64 = 0.005;

/// Runs `algorithm` on every `step`-th problem of every file; returns (checked, failures).
fn conformance(algorithm: Algorithm, diameter: u32, step: usize) -> (usize, Vec<String>) {
    let Some(dir) = common::movingai_dir() else {
        return (0, Vec::new());
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut pf = Pathfinder::new();
    let mut reference = Pathfinder::new();
    for scen in benchmark::scen_files(&dir).unwrap() {
        let set = benchmark::load(&scen, &benchmark::default_maps_dir(&scen)).unwrap();
        let map = CachedScenario::from_bits(set.map.into_bits()).unwrap();
        let layer = map.layer(diameter).unwrap();
        for p in set.problems.iter().step_by(step) {
            checked += 1;
            let q = PathQuery::new(p.start, p.goal)
                .algorithm(algorithm)
                .diameter(diameter);
            let expected = if diameter == 1 {
                Some(p.optimal)
            } else {
                reference
                    .find(&map, &q.algorithm(Algorithm::Dijkstra))
                    .ok()
                    .map(|s| s.length)
            };
            let got = pf.find(&map, &q);
            let ok = match (&got, expected) {
                (Ok(s), Some(opt)) => {
                    (s.length - opt).abs() <= TOLERANCE
                        && validate_path(layer, pf.path(), p.start, p.goal, q.options.connectivity)
                            .is_ok()
                }
                (Err(_), None) => true,
                _ => false,
            };
            if !ok {
                failures.push(format!(
                    "{} {} -> {}: expected {expected:?}, got {got:?}",
                    scen.display(),
                    p.start,
                    p.goal
                ));
            }
        }
    }
    (checked, failures)
}

fn assert_conformant(algorithm: Algorithm, diameter: u32, step: usize) {
    let (checked, failures) = conformance(algorithm, diameter, step);
    assert!(
        failures.is_empty(),
        "{algorithm}: {} of {checked} problems wrong, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    eprintln!("{algorithm} d={diameter}: {checked} problems conform");
}

#[test]
fn astar_reproduces_stored_optimal_lengths_on_every_fifth_problem() {
    assert_conformant(Algorithm::AStar, 1, 5);
}

#[test]
fn jps_reproduces_every_stored_optimal_length() {
    assert_conformant(Algorithm::Jps, 1, 1);
}

#[test]
fn jps_plus_reproduces_every_stored_optimal_length() {
    assert_conformant(Algorithm::JpsPlus, 1, 1);
}

#[test]
fn dijkstra_reproduces_stored_optimal_lengths_on_a_sample() {
    assert_conformant(Algorithm::Dijkstra, 1, 23);
}

#[test]
fn astar_jps_and_jps_plus_equal_dijkstra_for_diameter_3_on_a_sample() {
    assert_conformant(Algorithm::AStar, 3, 29);
    assert_conformant(Algorithm::Jps, 3, 29);
    assert_conformant(Algorithm::JpsPlus, 3, 29);
}
