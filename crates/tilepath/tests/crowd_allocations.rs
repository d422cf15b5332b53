//! The crowd allocates nothing once warm: `index`, `avoid` and `separate_with_walls` of
//! later steps of the same crowd, once its buffers have grown to it, counted by a global
//! allocator.
//!
//! This binary holds a single test so that no other test's allocations are counted.

mod crowd_support;

use crowd_support::{Map, Sim, crowd};
use tilepath::crowd::AvoidanceSettings;
use tilepath::scenario::generate::SplitMix64;

#[path = "../examples/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

#[test]
fn a_warm_crowd_step_allocates_nothing() {
    let mut rng = SplitMix64::new(11);
    let map = Map::walled(28, 6, &mut rng);
    let (mut agents, goals) = crowd(&map, 60, &mut rng);
    let settings = AvoidanceSettings::default();
    let mut sim = Sim::default();
    // Buffers grow to the most pairs and walls any step has needed so far.
    for _ in 0..100 {
        sim.step(&map, &mut agents, &goals, &settings, 0.05, 8);
    }
    let before = allocations();
    for _ in 0..5 {
        sim.step(&map, &mut agents, &goals, &settings, 0.05, 8);
    }
    assert_eq!(allocations() - before, 0, "a warm step allocated");
}
