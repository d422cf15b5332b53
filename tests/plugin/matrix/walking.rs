//! Matrix rows of steering units given bad input: requests removed while walking, walls
//! painted on them or on their goal, starts against the map edge, bad steering numbers.

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    Arrived, Cell, NavGrid, PathFailure, PathRequest, PathResult, Steering,
};
use bevy_tilepath::search::PathError;

use super::{Expect, Row, Scene, TILE};

/// Frames a walk across the standard map takes at most (20 cells per second).
const WALK: usize = 240;

fn steering() -> Steering {
    Steering::with_speed(20.0 * TILE)
}

/// A steering unit of `diameter` on `start` going to `goal` on the standard grid.
fn walker(scene: &mut Scene, start: Cell, goal: Cell, diameter: u32, steer: Steering) -> Entity {
    scene.grid();
    let unit = scene.unit(start, diameter, PathRequest::new(goal));
    scene.app.world_mut().entity_mut(unit).insert(steer);
    unit
}

fn position(scene: &Scene, unit: Entity) -> Vec2 {
    crate::common::position(&scene.app, unit)
}

/// The unit's anchor cell now, for its request's diameter.
fn cell_of(scene: &Scene, unit: Entity) -> Option<Cell> {
    let diameter = scene.app.world().get::<PathRequest>(unit).unwrap().diameter;
    let grid = scene.app.world().resource::<NavGrid>();
    grid.agent_cell(position(scene, unit), diameter)
}

/// Walks up to [`WALK`] frames; asserts the unit arrives on `goal` with its whole
/// footprint out of walls at every frame.
fn arrives(scene: &mut Scene, unit: Entity, goal: Cell) {
    let diameter = scene.app.world().get::<PathRequest>(unit).unwrap().diameter;
    let mut was_clear = false;
    for _ in 0..WALK {
        scene.app.update();
        let p = position(scene, unit);
        assert!(p.is_finite(), "{unit} at {p}");
        let grid = scene.app.world().resource::<NavGrid>();
        let clear = grid
            .agent_cell(p, diameter)
            .is_some_and(|c| !grid.is_blocked(c, diameter));
        assert!(clear || !was_clear, "{unit} walked into a wall at {p}");
        was_clear |= clear;
        if scene.app.world().get::<Arrived>(unit).is_some() {
            assert_eq!(cell_of(scene, unit), Some(goal), "{unit} arrived elsewhere");
            return;
        }
    }
    panic!(
        "{unit} did not arrive at {goal}: at {:?}, {:?}",
        cell_of(scene, unit),
        scene.result(unit)
    );
}

/// Walks `frames` frames; asserts the unit stays where it is and stays finite.
fn stays(scene: &mut Scene, unit: Entity, frames: usize) {
    let before = position(scene, unit);
    scene.frames(frames);
    assert!(before.is_finite());
    assert_eq!(position(scene, unit), before, "{unit} moved");
}

fn set_speed(scene: &mut Scene, unit: Entity, speed: f32) {
    scene
        .app
        .world_mut()
        .get_mut::<Steering>(unit)
        .unwrap()
        .speed = speed;
}

pub fn rows() -> Vec<Row> {
    vec![
        Row::new(
            "PathRequest removed while walking",
            |s| walker(s, Cell::new(2, 12), Cell::new(22, 12), 1, steering()),
            Expect::Holds("stops where it is, components gone", |s, unit| {
                assert!(s.app.world().get::<PathResult>(unit).is_none());
                stays(s, unit, 20);
            }),
        )
        .during(|s, unit| {
            s.frames(10);
            s.app.world_mut().entity_mut(unit).remove::<PathRequest>();
        }),
        Row::new(
            "wall painted on a standing unit",
            |s| walker(s, Cell::new(15, 14), Cell::new(15, 14), 1, steering()),
            Expect::Holds("walks out, arrives on the nearest free cell", |s, unit| {
                assert!(s.app.world().get::<Arrived>(unit).is_some());
                let mut grid = s.app.world_mut().resource_mut::<NavGrid>();
                grid.apply_edits([(Cell::new(15, 14), true)]);
                s.frames(2);
                let path = s.valid_path(unit);
                assert!(path.start_moved() && path.partial, "{path:?}");
                arrives(s, unit, path.reached);
            }),
        ),
        Row::new(
            "wall painted on a walking unit",
            |s| walker(s, Cell::new(2, 12), Cell::new(22, 12), 1, steering()),
            Expect::Holds("walks out and arrives", |s, unit| {
                arrives(s, unit, Cell::new(22, 12));
            }),
        )
        .during(|s, unit| {
            s.frames(5);
            let cell = cell_of(s, unit).unwrap();
            let mut grid = s.app.world_mut().resource_mut::<NavGrid>();
            grid.apply_edits([(cell, true)]);
        }),
        Row::new(
            "goal walled in while walking",
            |s| walker(s, Cell::new(2, 12), Cell::new(15, 12), 1, steering()),
            Expect::Holds("arrives next to the wall", |s, unit| {
                let path = s.valid_path(unit);
                assert!(path.partial, "{path:?}");
                arrives(s, unit, path.reached);
            }),
        )
        .during(|s, _| {
            let mut grid = s.app.world_mut().resource_mut::<NavGrid>();
            grid.apply_edits([(Cell::new(15, 12), true)]);
        }),
        Row::new(
            "3-wide unit spawned against the map edge",
            |s| walker(s, Cell::new(0, 6), Cell::new(8, 6), 3, steering()),
            Expect::Holds("walks in from the edge and arrives", |s, unit| {
                let path = s.valid_path(unit);
                assert!(path.start_moved(), "{path:?}");
                arrives(s, unit, Cell::new(8, 6));
            }),
        ),
        Row::new(
            "3-wide unit against the map edge, exact",
            |s| {
                s.grid();
                s.unit(
                    Cell::new(0, 6),
                    3,
                    PathRequest::new(Cell::new(8, 6)).exact(),
                )
            },
            Expect::Fails(PathFailure::Search(PathError::StartBlocked {
                cell: Cell::new(0, 6),
                diameter: 3,
            })),
        ),
        Row::new(
            "NaN steering speed",
            |s| walker(s, Cell::new(2, 12), Cell::new(8, 12), 1, steering()),
            Expect::Holds("stays put and finite", |s, unit| {
                set_speed(s, unit, f32::NAN);
                stays(s, unit, 20);
            }),
        ),
        Row::new(
            "infinite steering speed",
            |s| walker(s, Cell::new(2, 12), Cell::new(8, 12), 1, steering()),
            Expect::Holds("stays put and finite", |s, unit| {
                set_speed(s, unit, f32::INFINITY);
                stays(s, unit, 20);
            }),
        ),
        Row::new(
            "negative steering speed",
            |s| walker(s, Cell::new(2, 12), Cell::new(8, 12), 1, steering()),
            Expect::Holds("stays put and finite", |s, unit| {
                set_speed(s, unit, -100.0);
                stays(s, unit, 20);
            }),
        ),
        Row::new(
            "infinite arrival radius",
            |s| {
                let steer = Steering {
                    arrival_radius: f32::INFINITY,
                    ..steering()
                };
                walker(s, Cell::new(2, 12), Cell::new(8, 12), 1, steer)
            },
            Expect::Holds("arrives", |s, unit| arrives(s, unit, Cell::new(8, 12))),
        ),
    ]
}
