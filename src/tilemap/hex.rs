//! Folding hexagonal collision layers into the [`HexGrid`], whenever a layer or tile changes.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;
use bevy_ecs_tilemap::map::{HexCoordSystem, TilemapType};
use bevy_ecs_tilemap::tiles::TilePos;

use crate::components::{HexGrid, RefusedLayers};
use crate::grid::Cell;
use crate::hex::HexLayout;
use crate::profiles::MovementProfiles;
use crate::scenario::TerrainId;

use super::CollisionLayerError;
use super::shape::{Fit, fit};
use super::sync::{
    ChangedTiles, LayerData, LayerDataItem, TileData, TileRemovals, map_type, primary_type,
    projection,
};
use crate::main_thread::MainThread;

/// The core's layout of a bevy_ecs_tilemap hexagonal coordinate system.
pub(crate) fn hex_layout(system: HexCoordSystem) -> HexLayout {
    match system {
        HexCoordSystem::Row => HexLayout::Row,
        HexCoordSystem::RowEven => HexLayout::RowEven,
        HexCoordSystem::RowOdd => HexLayout::RowOdd,
        HexCoordSystem::Column => HexLayout::Column,
        HexCoordSystem::ColumnEven => HexLayout::ColumnEven,
        HexCoordSystem::ColumnOdd => HexLayout::ColumnOdd,
    }
}

/// What the hexagonal sync remembers between frames.
#[derive(Default)]
pub(crate) struct HexSync {
    /// The layers read last time, with their world `z`, sorted.
    layers: Vec<(Entity, f32)>,
}

/// Keeps the [`HexGrid`] equal to the hexagonal collision layers when the primary layer
/// is hexagonal (and removes it when it no longer is). Obstacles are OR-ed over the
/// layers, terrain comes from the topmost layer that defines one, and tiles no layer
/// covers block, as on square maps. Any change of a layer or of one of its tiles reads
/// every hexagonal layer again and applies the difference to the grid as one edit.
///
/// Complexity: `O(tiles)` on a frame with a change, `O(layers)` otherwise.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sync_hex_layers(
    _main: MainThread,
    mut commands: Commands,
    grid: Option<ResMut<HexGrid>>,
    layers: Query<LayerData>,
    transforms: TransformHelper,
    tiles: Query<TileData>,
    changed_tiles: Query<(), (With<TilePos>, ChangedTiles)>,
    mut removals: TileRemovals,
    profiles: Res<MovementProfiles>,
    mut refused: ResMut<RefusedLayers>,
    mut sync: Local<HexSync>,
) {
    let removed = removals.any();
    if grid.as_ref().is_some_and(|g| !g.from_tilemaps) {
        return;
    }
    let primary = primary_type(&layers);
    let Some(TilemapType::Hexagon(system)) = primary else {
        if grid.is_some() {
            commands.remove_resource::<HexGrid>();
        }
        sync.layers.clear();
        return;
    };
    let mut hex_layers: Vec<(LayerDataItem, f32)> = layers
        .iter()
        .filter(|l| fit(map_type(l), primary) == Ok(Fit::Hex))
        .filter(|l| l.storage.size.x > 0 && l.storage.size.y > 0)
        .map(|l| {
            let z = transforms
                .compute_global_transform(l.entity)
                .map_or(0.0, |g| g.translation().z);
            (l, z)
        })
        .collect();
    for (layer, _) in &hex_layers {
        if layer.error.is_some() {
            commands
                .entity(layer.entity)
                .remove::<CollisionLayerError>();
        }
    }
    // Bottom to top: terrain of later layers wins.
    hex_layers.sort_by(|(a, za), (b, zb)| {
        za.total_cmp(zb).then(
            (a.entity.index_u32(), a.entity.to_bits())
                .cmp(&(b.entity.index_u32(), b.entity.to_bits())),
        )
    });
    refused.0 = layers.iter().count() - hex_layers.len();
    let listed: Vec<(Entity, f32)> = hex_layers.iter().map(|(l, z)| (l.entity, *z)).collect();
    let layers_changed = listed != sync.layers
        || hex_layers
            .iter()
            .any(|(l, _)| l.rule.is_changed() || l.storage.is_changed());
    sync.layers = listed;

    // Placement and size from the primary layer (the lowest entity index).
    let Some((primary_layer, _)) = hex_layers
        .iter()
        .min_by_key(|(l, _)| (l.entity.index_u32(), l.entity.to_bits()))
    else {
        return;
    };
    let global = transforms
        .compute_global_transform(primary_layer.entity)
        .unwrap_or_default();
    let placement = projection(primary_layer).placement(global);
    let layout = hex_layout(system);
    let columns = hex_layers
        .iter()
        .map(|(l, _)| l.storage.size.x)
        .max()
        .unwrap_or(0);
    let rows = hex_layers
        .iter()
        .map(|(l, _)| l.storage.size.y)
        .max()
        .unwrap_or(0);

    let fresh = grid
        .as_ref()
        .is_none_or(|g| g.layout() != layout || g.columns() != columns || g.rows() != rows);
    if !fresh && !layers_changed && !removed && changed_tiles.is_empty() {
        if let Some(mut grid) = grid {
            let g = grid.bypass_change_detection();
            let generation = g.generation();
            g.place(placement.origin, placement.tile_size);
            if g.generation() != generation {
                grid.set_changed();
            }
        }
        return;
    }

    // Read every tile: blocked and terrain per cell, row-major.
    let area = columns as usize * rows as usize;
    let mut blocked = vec![true; area];
    let mut covered = vec![false; area];
    let mut terrain: Vec<TerrainId> = vec![0; area];
    for (layer, _) in &hex_layers {
        let width = layer.storage.size.x as usize;
        for (i, slot) in layer.storage.iter().enumerate() {
            let (x, y) = (i % width, i / width);
            let cell = y * columns as usize + x;
            if !covered[cell] {
                covered[cell] = true;
                blocked[cell] = false;
            }
            let Some(tile) = *slot else {
                continue;
            };
            let Ok((_, texture, marker, own_terrain, _)) = tiles.get(tile) else {
                continue;
            };
            let texture = texture.map(|t| t.0);
            if layer.rule.blocks(marker, texture) {
                blocked[cell] = true;
            }
            if let Some(id) = layer.rule.terrain(own_terrain.copied(), texture) {
                terrain[cell] = id;
            }
        }
    }
    let edits = (0..area).map(|i| {
        let cell = Cell::new((i % columns as usize) as i32, (i / columns as usize) as i32);
        (cell, blocked[i], terrain[i])
    });

    match grid {
        Some(mut grid) if !fresh => {
            let g = grid.bypass_change_detection();
            let generation = g.generation();
            g.apply(edits);
            g.place(placement.origin, placement.tile_size);
            if g.generation() != generation {
                grid.set_changed();
            }
        }
        _ => {
            let mut new =
                match HexGrid::new(layout, columns, rows, placement.origin, placement.tile_size) {
                    Ok(grid) => grid,
                    Err(e) => {
                        error!("cannot build the hexagonal grid from the collision layers: {e}");
                        return;
                    }
                };
            new.from_tilemaps = true;
            new.apply(edits);
            new.register_profiles(&profiles);
            commands.insert_resource(new);
        }
    }
}
