//! Matrix rows of bad loads: 10,000 requests in one frame under a small budget, a
//! request changed every frame, a thousand units on one cell sharing one goal.

use bevy::prelude::*;
use bevy_tilepath::components::PathStatus;
use bevy_tilepath::prelude::{Cell, FrameBudget, PathRequest, TilepathSettings};

use super::{Expect, Row, Scene, walls};
use crate::common::Rng;

/// Units of the 10,000-request row; they are tagged so the check finds them.
#[derive(Component)]
struct Flood;

/// Units of the 1,000-on-one-cell row.
#[derive(Component)]
struct Crowd;

/// Frames in a row the 10,000 requests may go without one more answered. The budget is
/// 2,000 expansions a frame, so the count does not depend on the machine; no search on
/// this 40 × 20 map takes more than its 800 cells, so a request is answered at least
/// every frame.
const STALL_FRAMES: usize = 2;

fn free_cells() -> Vec<Cell> {
    let walls = walls();
    let mut free = Vec::new();
    for (y, row) in walls.iter().enumerate() {
        for (x, &wall) in row.iter().enumerate() {
            let in_room = (18..=22).contains(&x) && (2..=6).contains(&y);
            if !wall && !in_room {
                free.push(Cell::new(x as i32, y as i32));
            }
        }
    }
    free
}

fn flood(scene: &mut Scene) -> Entity {
    scene.grid();
    scene.app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(2_000),
        ..default()
    });
    let free = free_cells();
    let mut rng = Rng(13);
    let mut first = None;
    for _ in 0..10_000 {
        let start = free[rng.below(free.len())];
        let goal = free[rng.below(free.len())];
        let unit = scene.unit(start, 1, PathRequest::new(goal));
        scene.app.world_mut().entity_mut(unit).insert(Flood);
        first.get_or_insert(unit);
    }
    first.unwrap()
}

/// Every flood unit answered with a valid path, the queue never stalling; prints how
/// many frames it took.
fn flood_answered(scene: &mut Scene, _: Entity) {
    let mut frames = 0;
    let (mut fewest, mut since) = (usize::MAX, 0);
    loop {
        let mut queued = scene
            .app
            .world_mut()
            .query_filtered::<&PathStatus, With<Flood>>();
        let waiting = queued
            .iter(scene.app.world())
            .filter(|t| t.is_queued())
            .count();
        if waiting == 0 {
            break;
        }
        if waiting < fewest {
            (fewest, since) = (waiting, 0);
        }
        assert!(
            since < STALL_FRAMES,
            "{waiting} still queued after {frames} more frames, none answered in the last {since}"
        );
        since += 1;
        scene.app.update();
        frames += 1;
    }
    let mut units = scene
        .app
        .world_mut()
        .query_filtered::<Entity, With<Flood>>();
    let units: Vec<Entity> = units.iter(scene.app.world()).collect();
    assert_eq!(units.len(), 10_000);
    for unit in units {
        scene.valid_path(unit);
    }
    println!("    (10,000 requests answered {frames} frames after the first 40)");
}

pub fn rows() -> Vec<Row> {
    vec![
        Row::new(
            "10,000 requests in one frame, 2,000 expansions a frame",
            flood,
            Expect::Holds("all answered with valid paths", flood_answered),
        ),
        Row::new(
            "goal changed every frame for 30 frames",
            |s| {
                s.grid();
                s.unit(Cell::new(2, 12), 1, PathRequest::new(Cell::new(16, 14)))
            },
            Expect::Found,
        )
        .during(|s, unit| {
            for i in 0..30 {
                let goal = Cell::new(12 + i % 10, 12 + i % 3);
                s.app
                    .world_mut()
                    .entity_mut(unit)
                    .insert(PathRequest::new(goal));
                s.app.update();
            }
        }),
        Row::new(
            "1,000 units on one cell sharing one goal",
            |s| {
                s.grid();
                let mut first = None;
                for _ in 0..1_000 {
                    let unit = s.unit(Cell::new(2, 12), 1, PathRequest::new(Cell::new(16, 14)));
                    s.app.world_mut().entity_mut(unit).insert(Crowd);
                    first.get_or_insert(unit);
                }
                first.unwrap()
            },
            Expect::Holds("every one a valid path", |s, _| {
                let mut q = s.app.world_mut().query_filtered::<Entity, With<Crowd>>();
                let units: Vec<Entity> = q.iter(s.app.world()).collect();
                assert_eq!(units.len(), 1_000);
                for unit in units {
                    s.valid_path(unit);
                }
            }),
        ),
    ]
}
