//! Expansion budgets hold per frame: what a frame pays (search and field expansions,
//! paths read off fields, map upkeep) stays within the budget, beyond it only by the
//! documented reading of one answer's path off a field (see `FrameBudget`).

use std::collections::HashSet;

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    Algorithm, Cell, FrameBudget, GroupOrders, NavGrid, PathRequest, PathResult, TilepathSettings,
};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, TILE, app, bits_of, world_of};
use crate::fields::{claimed_and_formation, field_app, spawn};

/// Side of the test map.
const SIDE: usize = 96;

/// Open ground with about 4 % scattered walls: long diagonals, each crossed by many
/// diagonal jump points, so a JPS diagonal walk meets many before it ends.
fn open_ground() -> (NavGrid, Vec<Cell>) {
    let mut rng = Rng(46);
    let walls: Vec<Vec<bool>> = (0..SIDE)
        .map(|_| (0..SIDE).map(|_| rng.below(100) < 4).collect())
        .collect();
    let map = CachedScenario::from_bits(bits_of(&walls)).unwrap();
    let free: Vec<Cell> = (0..SIDE * SIDE)
        .map(|i| Cell::new((i % SIDE) as i32, (i / SIDE) as i32))
        .filter(|&c| !map.layer(1).unwrap().is_blocked(c))
        .collect();
    (NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)), free)
}

/// Runs 48 units on the open ground, each with its own goal and `algorithm`, at
/// `budget` expansions a frame until every one is answered, asserting every frame's
/// bound; returns the frames taken.
fn own_goals(algorithm: Algorithm, budget: u32) -> u32 {
    let (grid, free) = open_ground();
    let mut app = app();
    app.insert_resource(grid);
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(budget);
    let mut rng = Rng(u64::from(budget));
    let units: Vec<Entity> = (0..48)
        .map(|_| {
            let start = free[rng.below(free.len())];
            let request = PathRequest::new(free[rng.below(free.len())]).algorithm(algorithm);
            let at = Transform::from_translation(world_of(start).extend(0.0));
            app.world_mut().spawn((at, request)).id()
        })
        .collect();
    check_frames(&mut app, &units, budget, &format!("{algorithm}")).0
}

/// Runs the group orders of the shared approach tests (claimed cells and formation
/// slots on the weighted level, where fields serve) with `GroupOrders::SharedApproach`
/// at `budget` expansions a frame, asserting every frame's bound; returns the frames
/// taken and the field answers.
fn shared_approaches(budget: u32) -> (u32, u64) {
    let (claimed, formation) = claimed_and_formation(Cell::new(40, 20));
    let mut app = field_app(true);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.budget = FrameBudget::Expansions(budget);
        settings.group_orders = GroupOrders::SharedApproach;
    }
    let mut units = spawn(&mut app, &claimed);
    units.extend(spawn(&mut app, &formation));
    check_frames(&mut app, &units, budget, "shared approaches")
}

/// Updates `app` until `units` are all answered, asserting that every frame pays at
/// most `budget`, plus the reading of the longest path answered in the frame when a
/// field answered; returns the frames taken and the field answers.
fn check_frames(app: &mut App, units: &[Entity], budget: u32, what: &str) -> (u32, u64) {
    let mut answered = HashSet::new();
    for frame in 1..=20_000 {
        app.update();
        // The longest path answered this frame: the most a field answer's reading may
        // add beyond the budget (one expansion per 4 cells, plus one).
        let mut reading = 0;
        for &unit in units {
            if let Some(PathResult::Found(path)) = app.world().get::<PathResult>(unit)
                && answered.insert(unit)
            {
                reading = reading.max(path.cells.len() as u64 / 4 + 1);
            }
        }
        let stats = app.world().resource::<TilepathStats>();
        let paid = stats.expanded + stats.field_charged + stats.upkeep_charged;
        let allowed = u64::from(budget) + if stats.field_answers > 0 { reading } else { 0 };
        assert_eq!(
            stats.whole, 0,
            "{what} at {budget}: no edits, no whole search"
        );
        assert!(
            paid <= allowed,
            "{what} at {budget}: frame {frame} paid {paid} (expanded {}, fields {}, \
             upkeep {}) of {budget}, allowed {allowed}",
            stats.expanded,
            stats.field_charged,
            stats.upkeep_charged
        );
        if stats.pending == 0 {
            let fields = stats.total_field_answers;
            assert_eq!(answered.len(), units.len(), "every unit found a path");
            return (frame, fields);
        }
    }
    panic!("{what} at {budget}: not every unit answered");
}

#[test]
fn every_frame_pays_at_most_its_expansion_budget_with_jps_and_shared_approaches() {
    for budget in [1, 16, 300] {
        for algorithm in [Algorithm::Jps, Algorithm::JpsPlus, Algorithm::Auto] {
            let frames = own_goals(algorithm, budget);
            // The budget bound: 48 searches take several frames.
            assert!(frames > 1, "{algorithm} at {budget}: {frames} frames");
        }
        let (frames, field_answers) = shared_approaches(budget);
        println!(
            "    shared approaches at {budget}: {frames} frames, {field_answers} field answers"
        );
        assert!(frames > 1, "shared at {budget}: {frames} frames");
        // At 1 a frame's expansion goes to the oldest request's own search before any
        // field grows; above, fields serve the groups.
        assert!(
            budget == 1 || field_answers > 0,
            "shared at {budget}: no field answer"
        );
    }
}
