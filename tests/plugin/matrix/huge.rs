//! Matrix rows of units far wider than the map: huge diameters on steering and
//! grid-stepping units, by request or by [`Footprint`] alone. Each frame must end (the
//! unit's cells are worked out on the map, not over its whole footprint).

use bevy::prelude::*;
use bevy_tilepath::prelude::{Cell, Footprint, GridStepper, PathFailure, PathRequest, Steering};
use bevy_tilepath::search::PathError;

use super::{Expect, Row, Scene, TILE};

const GOAL: Cell = Cell::new(16, 14);

/// Frames a footprint-only unit runs after the row settles.
const FRAMES: usize = 20;

fn invalid(diameter: u32) -> Expect {
    Expect::Fails(PathFailure::Search(PathError::InvalidDiameter { diameter }))
}

fn steering() -> Steering {
    Steering::with_speed(20.0 * TILE)
}

/// A unit of `diameter` on (8, 13) asking for a path to [`GOAL`], with `mover`, beside a
/// steering unit walking across the map (so that the crowd meets the huge unit).
fn requested(scene: &mut Scene, diameter: u32, mover: impl Bundle) -> Entity {
    scene.grid();
    let walker = scene.unit(Cell::new(1, 14), 1, PathRequest::new(Cell::new(9, 14)));
    scene.app.world_mut().entity_mut(walker).insert(steering());
    let at = scene.center(Cell::new(8, 13), 1);
    let unit = scene.at(at, PathRequest::new(GOAL).diameter(diameter));
    scene.app.world_mut().entity_mut(unit).insert(mover);
    unit
}

/// A unit with a [`Footprint`] of `diameter` and no request on (8, 13), with `mover`.
fn footprint_only(scene: &mut Scene, diameter: u32, mover: impl Bundle) -> Entity {
    scene.grid();
    let at = scene.center(Cell::new(8, 13), 1).extend(1.0);
    scene.spawn((
        Transform::from_translation(at),
        Footprint::new(diameter),
        mover,
    ))
}

/// Runs [`FRAMES`] more frames; the footprint-only unit stays put (it has no order).
fn stands(scene: &mut Scene, unit: Entity) {
    let before = crate::common::position(&scene.app, unit);
    scene.frames(FRAMES);
    assert_eq!(crate::common::position(&scene.app, unit), before);
}

pub fn rows() -> Vec<Row> {
    vec![
        Row::new(
            "Steering, diameter u32::MAX",
            |s| requested(s, u32::MAX, steering()),
            invalid(u32::MAX),
        ),
        Row::new(
            "Steering, diameter 100,000",
            |s| requested(s, 100_000, steering()),
            invalid(100_000),
        ),
        Row::new(
            "GridStepper, diameter u32::MAX",
            |s| requested(s, u32::MAX, GridStepper::default()),
            invalid(u32::MAX),
        ),
        Row::new(
            "GridStepper, diameter 100,000",
            |s| requested(s, 100_000, GridStepper::default()),
            invalid(100_000),
        ),
        Row::new(
            "Steering with Footprint u32::MAX, no request",
            |s| footprint_only(s, u32::MAX, steering()),
            Expect::Holds("frames end, it stands", stands),
        ),
        Row::new(
            "Steering with Footprint 100,000, no request",
            |s| footprint_only(s, 100_000, steering()),
            Expect::Holds("frames end, it stands", stands),
        ),
        Row::new(
            "GridStepper with Footprint u32::MAX, no request",
            |s| footprint_only(s, u32::MAX, GridStepper::default()),
            Expect::Holds("frames end, it stands", stands),
        ),
        Row::new(
            "GridStepper with Footprint 100,000, no request",
            |s| footprint_only(s, 100_000, GridStepper::default()),
            Expect::Holds("frames end, it stands", stands),
        ),
    ]
}
