//! The crowd allocates nothing once warm: `index`, `avoid`, `separate_with_walls` and
//! `hold_back` of later steps of the same crowd, once its buffers have grown to it,
//! counted by a global allocator.
//!
//! This binary holds a single test so that no other test's allocations are counted.

mod crowd_support;

use crowd_support::{Map, Sim, crowd};
use tilepath::crowd::{AvoidanceSettings, CrowdAgent, OVERLAP_TOLERANCE, Vector};
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
    let (mut from, mut to, mut held) = (Vec::new(), Vec::new(), Vec::new());
    // A step, then its moves held back where they would deepen an overlap.
    let mut step = |agents: &mut [CrowdAgent]| {
        from.clear();
        from.extend(agents.iter().map(|a| a.position));
        sim.step(&map, agents, &goals, &settings, 0.05, 8);
        to.clear();
        to.extend(agents.iter().map(|a| a.position));
        held.clear();
        held.resize(agents.len(), false);
        sim.crowd.index(agents, &settings);
        sim.crowd
            .hold_back(agents, &from, &to, OVERLAP_TOLERANCE, &mut held);
        for ((agent, &start), &h) in agents.iter_mut().zip(&from).zip(&held) {
            if h {
                agent.position = start;
                agent.velocity = Vector::ZERO;
            }
        }
    };
    // Buffers grow to the most pairs and walls any step has needed so far.
    for _ in 0..100 {
        step(&mut agents);
    }
    let before = allocations();
    for _ in 0..5 {
        step(&mut agents);
    }
    assert_eq!(allocations() - before, 0, "a warm step allocated");
}
