//! Matrix rows of bad tilemaps (feature `tilemap`): maps despawned, replaced or resized
//! mid-solve, zero tile size, zero and negative scale, parented maps and a 0x0 map.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::{Cell, NavGrid, PathFailure, PathRequest, TilepathSettings};

use super::{Expect, Row, Scene, TILE, walls};
use crate::tilemaps::spawn_tilemap;
use bevy_tilepath::prelude::FrameBudget;

/// The standard map as a tilemap; returns its entity.
fn tilemap(scene: &mut Scene) -> Entity {
    spawn_tilemap(scene.app.world_mut(), &walls()).0
}

/// The one collision-layer tilemap of the scene.
fn the_map(scene: &mut Scene) -> Entity {
    let mut q = scene
        .app
        .world_mut()
        .query_filtered::<Entity, With<TileStorage>>();
    q.single(scene.app.world()).expect("one tilemap")
}

/// A one-cell unit on (2, 12) going to (16, 14).
fn subject(scene: &mut Scene) -> Entity {
    scene.unit(Cell::new(2, 12), 1, PathRequest::new(Cell::new(16, 14)))
}

/// The standard tilemap and a unit on (1, 1) whose search to (21, 1) is sliced over
/// several frames (the expansion budget is small).
fn slow_unit(scene: &mut Scene) -> Entity {
    tilemap(scene);
    scene
        .app
        .world_mut()
        .resource_mut::<TilepathSettings>()
        .budget = FrameBudget::Expansions(4);
    scene.unit(Cell::new(1, 1), 1, PathRequest::new(Cell::new(21, 1)))
}

fn unlimited(scene: &mut Scene) {
    let mut settings = scene.app.world_mut().resource_mut::<TilepathSettings>();
    settings.budget = crate::common::unlimited().budget;
}

/// Despawns the tilemap and its tiles.
fn despawn_map(scene: &mut Scene) {
    let map = the_map(scene);
    let tiles: Vec<Entity> = scene
        .app
        .world()
        .get::<TileStorage>(map)
        .unwrap()
        .iter()
        .flatten()
        .copied()
        .collect();
    for tile in tiles {
        scene.app.world_mut().entity_mut(tile).despawn();
    }
    scene.app.world_mut().entity_mut(map).despawn();
}

fn off_map(f: &PathFailure) -> bool {
    matches!(f, PathFailure::StartOffMap { .. })
}

fn transformed(scene: &mut Scene, transform: Transform) -> Entity {
    let map = tilemap(scene);
    scene.app.world_mut().entity_mut(map).insert(transform);
    subject(scene)
}

fn unscaled(scene: &mut Scene) {
    let map = the_map(scene);
    scene
        .app
        .world_mut()
        .entity_mut(map)
        .insert(Transform::default());
}

pub fn rows() -> Vec<Row> {
    vec![
        Row::new(
            "tilemap despawned mid-solve",
            slow_unit,
            Expect::Fails(PathFailure::NoMap),
        )
        .during(|s, _| {
            despawn_map(s);
            unlimited(s);
        })
        .repair(|s| {
            tilemap(s);
        }),
        Row::new("tilemap replaced mid-solve", slow_unit, Expect::Found).during(|s, _| {
            despawn_map(s);
            let mut walls = walls();
            walls[12][12] = true;
            walls[1][15] = true;
            spawn_tilemap(s.app.world_mut(), &walls);
            unlimited(s);
        }),
        Row::new("tilemap resized mid-solve", slow_unit, Expect::Found).during(|s, _| {
            despawn_map(s);
            let mut grown = vec![vec![false; 40]; 30];
            for (y, row) in walls().iter().enumerate() {
                grown[y][..row.len()].copy_from_slice(row);
            }
            spawn_tilemap(s.app.world_mut(), &grown);
            unlimited(s);
        }),
        Row::new(
            "zero tile and grid size",
            |s| {
                let map = tilemap(s);
                s.app.world_mut().entity_mut(map).insert((
                    TilemapGridSize { x: 0.0, y: 0.0 },
                    TilemapTileSize { x: 0.0, y: 0.0 },
                ));
                subject(s)
            },
            Expect::FailsWith("StartOffMap", off_map),
        )
        .repair(|s| {
            let map = the_map(s);
            s.app.world_mut().entity_mut(map).insert((
                TilemapGridSize { x: TILE, y: TILE },
                TilemapTileSize { x: TILE, y: TILE },
            ));
        }),
        Row::new(
            "zero scale",
            |s| transformed(s, Transform::from_scale(Vec3::ZERO)),
            Expect::FailsWith("StartOffMap", off_map),
        )
        .repair(unscaled),
        Row::new(
            "negative x scale (a mirrored map)",
            |s| {
                s.tile = Vec2::new(-TILE, TILE);
                transformed(s, Transform::from_scale(Vec3::new(-1.0, 1.0, 1.0)))
            },
            Expect::Found,
        ),
        Row::new(
            "NaN scale",
            |s| transformed(s, Transform::from_scale(Vec3::NAN)),
            Expect::Holds("fails StartOffMap, the map stays still", |s, unit| {
                assert!(matches!(s.result(unit).failure(), Some(f) if off_map(f)));
                let generation = |s: &Scene| s.app.world().resource::<NavGrid>().generation();
                let before = generation(s);
                s.frames(5);
                assert_eq!(
                    generation(s),
                    before,
                    "a NaN placement is re-applied every frame"
                );
            }),
        )
        .repair(unscaled),
        Row::new(
            "tilemap under a translated parent",
            |s| {
                s.origin = Vec2::new(100.0, 52.0);
                let map = tilemap(s);
                let parent = s.spawn(Transform::from_xyz(120.0, 40.0, 0.0));
                s.app
                    .world_mut()
                    .entity_mut(map)
                    .insert((ChildOf(parent), Transform::from_xyz(-20.0, 12.0, 0.0)));
                subject(s)
            },
            Expect::Found,
        ),
        Row::new(
            "0x0 tilemap",
            |s| {
                let size = TilemapSize { x: 0, y: 0 };
                s.spawn((
                    TileStorage::empty(size),
                    size,
                    TilemapGridSize { x: TILE, y: TILE },
                    Transform::default(),
                    bevy_tilepath::prelude::CollisionLayer::default(),
                ));
                subject(s)
            },
            Expect::Fails(PathFailure::NoMap),
        )
        .repair(|s| {
            tilemap(s);
        }),
    ]
}
