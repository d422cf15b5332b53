//! Shared approaches: the units of a group order that end on their own cells read the long
//! way off one field and search only the last stretch, within the documented bound.

use std::collections::HashSet;

use bevy_tilepath::prelude::{FrameBudget, GroupOrders, NavGrid, PathRequest, PathResult};
use bevy_tilepath::scenario::ProfileId;
use bevy_tilepath::stats::TilepathStats;
use bevy_tilepath::tilepath::grid::{Cell, Connectivity};

use crate::fields::{claimed_and_formation, twins};

/// Claimed cells and formation slots with `GroupOrders::SharedApproach`, on the weighted level
/// (half the units move as infantry, whose forest costs more; the others keep their
/// own exact search on the uniform layer):
/// every unit reaches the cell its exact twin (same order, shared fields off) reaches,
/// the cells are distinct, every path is valid, no cheaper than the unit's own optimum
/// and no dearer than the bound of the setting's docs (twice the cost between its cell
/// and the field's goal, which lies within the order's block: at most the octile
/// distance across the block times the dearest weight), and the last stretches expand
/// fewer cells than the units' own searches (which, on the weighted layer, have its
/// landmark bound too): half for the claimed cells, which lie close around the field's
/// goal; merely fewer for the slots, whose 16 × 16 block is a
/// quarter of this 64 × 64 map (on a larger map more of the way is the field's).
#[test]
fn group_orders_share_one_field_for_the_long_way_within_the_bound() {
    let goal = Cell::new(40, 20);
    let (claimed, formation) = claimed_and_formation(goal);
    // The claimed cells lie around `goal`; the slots in the block (12..28, 38..54).
    let spans = [16.0_f32, 16.0 * std::f32::consts::SQRT_2];
    for (members, span, gain) in [(&claimed, spans[0], 2), (&formation, spans[1], 1)] {
        let (with, units, without, same) =
            twins(members, |s| s.group_orders = GroupOrders::SharedApproach);
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

/// The same group orders with `GroupOrders::SharedApproach`, answered whole (no budget) and
/// sliced (a zero time budget: one slice a frame, whatever the machine's speed, so that
/// last stretches are suspended and resumed across frames; plain A\*, whose last
/// stretches are longer than one slice, where `Auto`'s landmark bound makes most of them
/// fit in one): every unit gets the same
/// path, and some approaches were answered by a resumed last stretch rather than in the
/// frame that read the field: in some frame more units get an approached path than the
/// frame answers from fields (a field answer is an approach in its frame, or a unit's
/// own search where the field does not reach it).
#[test]
fn a_shared_approach_sliced_across_frames_answers_what_a_whole_one_does() {
    use crate::fields::{field_app, spawn};
    use bevy_tilepath::prelude::TilepathSettings;
    use std::time::Duration;

    let (claimed, formation) = claimed_and_formation(Cell::new(40, 20));
    let (mut approached, mut resumed, mut suspended) = (0, 0, 0);
    for members in [&claimed, &formation] {
        let apps = [Duration::MAX, Duration::ZERO].map(|budget| {
            let mut app = field_app(true);
            let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
            settings.group_orders = GroupOrders::SharedApproach;
            settings.budget = FrameBudget::Time(budget);
            settings.defaults.algorithm = bevy_tilepath::prelude::Algorithm::AStar;
            let units = spawn(&mut app, members);
            (app, units)
        });
        let [(mut whole, whole_units), (mut sliced, sliced_units)] = apps;
        whole.update();
        whole.update();
        let (mut frames, mut suspended_frames) = (0, 0);
        let mut answered = HashSet::new();
        loop {
            sliced.update();
            frames += 1;
            let mut new_approaches = 0;
            for &unit in &sliced_units {
                if let Some(PathResult::Found(path)) = sliced.world().get::<PathResult>(unit)
                    && answered.insert(unit)
                {
                    new_approaches += usize::from(path.approached);
                }
            }
            let stats = sliced.world().resource::<TilepathStats>();
            resumed += new_approaches.saturating_sub(stats.field_answers);
            suspended_frames += usize::from(stats.suspended > 0);
            if stats.pending == 0 || frames == 20_000 {
                break;
            }
        }
        let stats = sliced.world().resource::<TilepathStats>();
        println!(
            "    sliced approach: {frames} frames, {suspended_frames} with a suspended search, \
             {} field answers, {resumed} approaches resumed so far",
            stats.total_field_answers
        );
        assert_eq!(stats.pending, 0, "all answered in {frames} frames");
        suspended += suspended_frames;
        for (&a, &b) in whole_units.iter().zip(&sliced_units) {
            let ra = whole.world().get::<PathResult>(a).unwrap();
            let rb = sliced.world().get::<PathResult>(b).unwrap();
            match (ra, rb) {
                (PathResult::Found(pa), PathResult::Found(pb)) => {
                    assert_eq!(pa.cells, pb.cells, "{a}: the same path whole and sliced");
                    assert_eq!(pa.cost, pb.cost);
                    assert_eq!(pa.approached, pb.approached);
                    approached += usize::from(pb.approached);
                }
                _ => assert_eq!(ra, rb),
            }
        }
    }
    assert!(approached > 20, "{approached} approached");
    assert!(suspended > 0, "no search was suspended");
    assert!(
        resumed > 0,
        "no approach was answered by a resumed last stretch"
    );
}

/// Sliced shared approaches (a zero time budget: one slice a frame at any speed) while
/// walls appear and open every frame: every unit is answered (the progress guarantee),
/// and every path is valid on the map of the frame it is answered in (a suspended last
/// stretch whose descent an edit cut is dropped and planned again, never answered with
/// the cut descent).
#[test]
fn sliced_shared_approaches_under_map_edits_answer_only_valid_paths() {
    use crate::common::SolvedLog;
    use crate::fields::{field_app, spawn};
    use bevy_tilepath::prelude::PathGoal;
    use bevy_tilepath::prelude::TilepathSettings;
    use std::time::Duration;

    let (_, formation) = claimed_and_formation(Cell::new(40, 20));
    let mut app = field_app(true);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.group_orders = GroupOrders::SharedApproach;
        settings.budget = FrameBudget::Time(Duration::ZERO);
    }
    let units = spawn(&mut app, &formation);
    let keep: HashSet<Cell> = formation
        .iter()
        .flat_map(|m| {
            let PathGoal::Cell(goal) = m.request.goal else {
                unreachable!("formation slots are cells")
            };
            [m.start, goal]
        })
        .collect();
    const WALLS_PER_FRAME: usize = 8;
    let mut rng = crate::common::Rng(7);
    let size = app.world().resource::<NavGrid>().size();
    let (mut checked, mut approached, mut walls) = (0, 0, Vec::new());
    let mut answered = HashSet::new();
    // Until every unit has been answered twice over (units re-planned after a cut count
    // again): the progress guarantee bounds the frames at any speed.
    let mut frame = 0;
    while answered.len() < units.len() || checked < 2 * units.len() {
        frame += 1;
        assert!(
            frame < 20_000,
            "{} of {} units answered in {frame} frames",
            answered.len(),
            units.len()
        );
        // New walls every frame (never on a unit's start or goal), the oldest opened.
        let mut edits = Vec::new();
        for _ in 0..WALLS_PER_FRAME {
            let c = Cell::new(
                rng.below(size.width as usize) as i32,
                rng.below(size.height as usize) as i32,
            );
            if !keep.contains(&c) {
                edits.push((c, true));
                walls.push(c);
            }
        }
        while walls.len() > 20 * WALLS_PER_FRAME {
            edits.push((walls.remove(0), false));
        }
        app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        app.world_mut().resource_mut::<SolvedLog>().0.clear();
        app.update();
        let log = std::mem::take(&mut app.world_mut().resource_mut::<SolvedLog>().0);
        let grid = app.world().resource::<NavGrid>();
        for (_, message) in log.iter().filter(|(_, m)| m.outcome.is_ok()) {
            let Some(PathResult::Found(path)) = app.world().get::<PathResult>(message.entity)
            else {
                continue;
            };
            let diameter = app
                .world()
                .get::<PathRequest>(message.entity)
                .unwrap()
                .diameter;
            let layer = grid.scenario().layer_for(path.profile, diameter).unwrap();
            let valid = bevy_tilepath::search::validate_path(
                layer,
                &path.cells,
                path.start,
                path.reached,
                Connectivity::Octile,
            );
            assert_eq!(valid, Ok(()), "frame {frame}: {:?}", message.entity);
            checked += 1;
            approached += usize::from(path.approached);
            answered.insert(message.entity);
        }
    }
    let stats = app.world().resource::<TilepathStats>();
    println!(
        "    sliced approaches under edits: {frame} frames, {checked} paths checked, \
         {approached} approached; pending {}, solved {}, field answers {}",
        stats.pending, stats.total_solved, stats.total_field_answers
    );
    assert!(approached > 0, "no approach answered under edits");
}
