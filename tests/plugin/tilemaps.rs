//! Tilemap plumbing of the plugin tests (feature `tilemap`).

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::{BlocksPath, CollisionLayer};

use crate::common::TILE;

/// Spawns a tilemap with one tile per cell (`BlocksPath` and texture 1 on walls); returns
/// the map entity and the tiles, row-major.
pub fn spawn_tilemap(world: &mut World, walls: &[Vec<bool>]) -> (Entity, Vec<Entity>) {
    let size = TilemapSize {
        x: walls[0].len() as u32,
        y: walls.len() as u32,
    };
    let map = world.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    let mut tiles = Vec::new();
    for (y, row) in walls.iter().enumerate() {
        for (x, &wall) in row.iter().enumerate() {
            let pos = TilePos {
                x: x as u32,
                y: y as u32,
            };
            let mut tile = world.spawn((pos, TileTextureIndex(wall as u32), TilemapId(map)));
            if wall {
                tile.insert(BlocksPath);
            }
            storage.set(&pos, tile.id());
            tiles.push(tile.id());
        }
    }
    world.entity_mut(map).insert((
        storage,
        size,
        TilemapGridSize { x: TILE, y: TILE },
        TilemapTileSize { x: TILE, y: TILE },
        Transform::default(),
        TilemapAnchor::None,
        CollisionLayer::default(),
    ));
    (map, tiles)
}
