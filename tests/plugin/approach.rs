//! Shared approaches: the units of a group order that end on their own cells read the long
//! way off one field and search only the last stretch, within the documented bound.

use std::collections::HashSet;

use bevy_tilepath::prelude::{NavGrid, PathRequest, PathResult, TilepathStats};
use bevy_tilepath::scenario::ProfileId;
use bevy_tilepath::tilepath::grid::{Cell, Connectivity};

use crate::fields::{claimed_and_formation, twins};

/// Claimed cells and formation slots with `shared_approach` on, on the weighted level
/// (half the units move as infantry, whose forest costs more; the others keep their
/// own exact search on the uniform layer):
/// every unit reaches the cell its exact twin (same order, shared fields off) reaches,
/// the cells are distinct, every path is valid, no cheaper than the unit's own optimum
/// and no dearer than the bound of the setting's docs (twice the cost between its cell
/// and the field's goal, which lies within the order's block: at most the octile
/// distance across the block times the dearest weight), and the last stretches expand
/// fewer cells than the units' own searches: a quarter for the claimed cells, which lie
/// close around the field's goal; merely fewer for the slots, whose 16 × 16 block is a
/// quarter of this 64 × 64 map (on a larger map more of the way is the field's).
#[test]
fn group_orders_share_one_field_for_the_long_way_within_the_bound() {
    let goal = Cell::new(40, 20);
    let (claimed, formation) = claimed_and_formation(goal);
    // The claimed cells lie around `goal`; the slots in the block (12..28, 38..54).
    let spans = [16.0_f32, 16.0 * std::f32::consts::SQRT_2];
    for (members, span, gain) in [(&claimed, spans[0], 4), (&formation, spans[1], 1)] {
        let (with, units, without, same) = twins(members, |s| s.shared_approach = true);
        let stats = with.world().resource::<TilepathStats>().clone();
        assert_eq!(stats.pending, 0);
        let mut ends = HashSet::new();
        let (mut weighted, mut approached) = (0, 0);
        let (mut shared_expanded, mut own_expanded) = (0u64, 0u64);
        let (mut cost, mut optimum) = (0.0, 0.0);
        for (&a, &b) in units.iter().zip(&same) {
            let ra = with.world().get::<PathResult>(a).unwrap();
            let rb = without.world().get::<PathResult>(b).unwrap();
            let (PathResult::Found(pa), PathResult::Found(pb)) = (ra, rb) else {
                assert_eq!(ra, rb);
                continue;
            };
            assert_eq!(
                pa.reached, pb.reached,
                "the same cell with or without fields"
            );
            assert!(ends.insert(pa.reached), "distinct cells");
            let grid = with.world().resource::<NavGrid>();
            let diameter = with.world().get::<PathRequest>(a).unwrap().diameter;
            let layer = grid.scenario().layer_for(pa.profile, diameter).unwrap();
            assert_eq!(
                bevy_tilepath::search::validate_path(
                    layer,
                    &pa.cells,
                    pa.start,
                    pa.reached,
                    Connectivity::Octile
                ),
                Ok(())
            );
            let bound = 2.0 * 3.0 * span;
            assert!(
                pa.cost >= pb.cost - 1e-3 && pa.cost <= pb.cost + bound,
                "{a}: {} against its own optimum {}",
                pa.cost,
                pb.cost
            );
            assert!(
                pa.cost == pb.cost || pa.approached,
                "only approaches may cost more"
            );
            if pa.profile == ProfileId::DEFAULT {
                // A uniform layer: the unit's own JPS, exact.
                assert!(!pa.approached && pa.cost == pb.cost);
                continue;
            }
            weighted += 1;
            approached += usize::from(pa.approached);
            shared_expanded += u64::from(pa.expanded);
            own_expanded += u64::from(pb.expanded);
            cost += pa.cost;
            optimum += pb.cost;
        }
        println!(
            "    shared approach: {} units, {weighted} on the weighted profile, {approached} \
             approached, mean cost / own optimum {:.4}, last stretches {shared_expanded} \
             expansions against {own_expanded}",
            ends.len(),
            cost / optimum
        );
        assert!(ends.len() > 40, "{} found", ends.len());
        assert!(
            approached * 4 > weighted * 3,
            "{approached} of {weighted} approached"
        );
        assert!(stats.total_field_answers as usize >= approached);
        assert!(
            shared_expanded * gain < own_expanded,
            "last stretches {shared_expanded} against own searches {own_expanded}"
        );
    }
}
