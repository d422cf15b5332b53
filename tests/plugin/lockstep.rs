//! Lockstep runs: under an expansion budget, units planned and steered in
//! `FixedUpdate` move bit-identically with one and two solver threads, on every layout.

use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::FrameBudget;
use bevy_tilepath::prelude::{
    Algorithm, Cell, GridLayout, GridStepper, NavGrid, PathRequest, Steering, TilepathPlugin,
    TilepathSettings,
};
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, level_grid, minimal_plugins, shapes};

/// One lockstep run: units with orders and map edits scripted by frame, planned and
/// steered in `FixedUpdate` under an expansion budget with `threads` solver threads.
/// Returns every unit's translation bits at every frame, and the number of frames in
/// which a search was suspended and of answers read off shared fields.
fn lockstep(layout: GridLayout, threads: usize, frames: u32) -> (Vec<Vec<[u32; 3]>>, u32, u64) {
    lockstep_of(layout, threads, frames, false)
}

/// [`lockstep`] with grid steppers instead of steering units when `steppers`.
pub(crate) fn lockstep_of(
    layout: GridLayout,
    threads: usize,
    frames: u32,
    steppers: bool,
) -> (Vec<Vec<[u32; 3]>>, u32, u64) {
    let mut app = App::new();
    app.add_plugins((
        minimal_plugins(),
        TilepathPlugin::default().in_schedule(FixedUpdate),
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        20,
    )));
    app.insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(20)));
    let grid = level_grid(layout);
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(1_500),
        max_threads: threads,
        ..default()
    });
    let mut rng = Rng(21);
    let map = level_grid(layout);
    app.insert_resource(grid);
    let free = |c: Cell, d: u32| !map.is_blocked(c, d);
    let mut units = Vec::new();
    for i in 0..90 {
        let diameter = if i % 6 == 5 { 2 } else { 1 };
        let start = loop {
            let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
            if free(c, diameter) {
                break c;
            }
        };
        let algorithm = [Algorithm::Auto, Algorithm::AStar, Algorithm::Dijkstra][i % 3];
        let mut unit = app.world_mut().spawn((
            Transform::from_translation(map.agent_center(start, diameter).extend(1.0)),
            // Claims would give every unit its own goal cell; group orders
            // share one here so that shared fields answer them.
            PathRequest::new(Cell::new(0, 0))
                .algorithm(algorithm)
                .diameter(diameter)
                .claim_goal(false),
        ));
        if steppers {
            unit.insert(GridStepper::default());
        } else {
            unit.insert(Steering {
                speed: 64.0,
                ..Steering::default()
            });
        }
        units.push(unit.id());
    }
    let mut trace = Vec::with_capacity(frames as usize);
    let (mut suspended_frames, mut field_answers) = (0, 0);
    for frame in 0..frames {
        if frame % 400 == 0 {
            // A group order (most units to one point) and a few own orders.
            let rally = loop {
                let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
                if free(c, 1) {
                    break c;
                }
            };
            for (i, &unit) in units.iter().enumerate() {
                let goal = if i % 4 == 3 {
                    Cell::new(rng.below(64) as i32, rng.below(64) as i32)
                } else {
                    rally
                };
                app.world_mut().get_mut::<PathRequest>(unit).unwrap().goal = goal.into();
            }
        }
        if frame % 30 == 7 {
            let edits: Vec<(Cell, bool)> = (0..4)
                .map(|_| {
                    let c = Cell::new(rng.below(64) as i32, rng.below(64) as i32);
                    (c, rng.below(2) == 0)
                })
                .collect();
            app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        }
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        suspended_frames += u32::from(stats.suspended > 0);
        field_answers += stats.field_answers as u64;
        trace.push(
            units
                .iter()
                .map(|&u| {
                    let t = app.world().get::<Transform>(u).unwrap().translation;
                    [t.x.to_bits(), t.y.to_bits(), t.z.to_bits()]
                })
                .collect(),
        );
    }
    (trace, suspended_frames, field_answers)
}

/// On every layout (squares for 2,000 frames, the others for 1,000 to keep the test
/// short).
#[test]
fn an_expansion_budget_gives_bit_identical_lockstep_runs_with_one_and_two_threads() {
    for layout in shapes() {
        let frames = if layout == GridLayout::Square {
            2_000
        } else {
            1_000
        };
        lockstep_runs_are_identical(layout, frames);
    }
}

fn lockstep_runs_are_identical(layout: GridLayout, frames: u32) {
    let (one, suspended, fields) = lockstep(layout, 1, frames);
    assert_eq!(
        ComputeTaskPool::get().thread_num(),
        2,
        "the test needs two compute threads"
    );
    let (two, suspended_two, fields_two) = lockstep(layout, 2, frames);
    for (frame, (a, b)) in one.iter().zip(&two).enumerate() {
        if let Some(unit) = (0..a.len()).find(|&u| a[u] != b[u]) {
            panic!(
                "{layout:?}: frame {frame}: unit {unit} at {:?} with one thread, {:?} with two",
                a[unit].map(f32::from_bits),
                b[unit].map(f32::from_bits)
            );
        }
    }
    assert_eq!(
        (suspended, fields),
        (suspended_two, fields_two),
        "{layout:?}"
    );
    assert!(suspended > 0, "{layout:?}: some searches were suspended");
    assert!(
        fields > 0,
        "{layout:?}: group orders were answered from shared fields"
    );
    let moved = one[0]
        .iter()
        .zip(&one[frames as usize - 1])
        .filter(|(a, b)| a != b)
        .count();
    println!(
        "{layout:?}: {suspended} frames with a suspended search, {fields} field answers, \
         {moved} units moved"
    );
    assert!(moved > 45, "{layout:?}: {moved} of 90 units moved");
}
