//! Folding the collision layers' tiles into the [`NavGrid`], incrementally, every frame.

use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_ecs_tilemap::anchor::TilemapAnchor;
use bevy_ecs_tilemap::map::{
    TilemapGridSize, TilemapId, TilemapSize, TilemapTileSize, TilemapType,
};
use bevy_ecs_tilemap::tiles::{TilePos, TileStorage, TileTextureIndex};

use bevy::transform::helper::TransformHelper;

use crate::components::{GridSource, NavGrid, RefusedLayers};
use crate::grid::GridSize;
use crate::scenario::CachedScenario;

use super::layers::LayerSync;
use super::shape::{Coverage, Projection, fit, layout_of};
use super::{BlocksPath, CollisionLayer, CollisionLayerError, Terrain, TilePosExt};
use crate::main_thread::MainThread;

/// The components of a collision layer the sync reads.
#[derive(QueryData)]
pub(crate) struct LayerData {
    pub(super) entity: Entity,
    pub(super) rule: Ref<'static, CollisionLayer>,
    pub(super) storage: Ref<'static, TileStorage>,
    pub(super) size: Option<&'static TilemapSize>,
    pub(super) grid_size: Option<&'static TilemapGridSize>,
    pub(super) tile_size: Option<&'static TilemapTileSize>,
    pub(super) anchor: Option<&'static TilemapAnchor>,
    pub(super) map_type: Option<&'static TilemapType>,
    pub(super) error: Option<&'static CollisionLayerError>,
}

/// Removal events the sync listens to.
#[derive(SystemParam)]
pub(crate) struct TileRemovals<'w, 's> {
    markers: RemovedComponents<'w, 's, BlocksPath>,
    terrain: RemovedComponents<'w, 's, Terrain>,
    positions: RemovedComponents<'w, 's, TilePos>,
    textures: RemovedComponents<'w, 's, TileTextureIndex>,
}

/// What the sync reads of a tile: position, texture, marker, terrain, owning tilemap.
pub(super) type TileData = (
    &'static TilePos,
    Option<&'static TileTextureIndex>,
    Has<BlocksPath>,
    Option<&'static Terrain>,
    Option<&'static TilemapId>,
);

/// Tiles whose blocking state or terrain may have changed.
pub(super) type ChangedTiles = Or<(
    Changed<TilePos>,
    Changed<TileTextureIndex>,
    Added<BlocksPath>,
    Changed<Terrain>,
    Changed<TilemapId>,
)>;

/// The map type of the primary layer: the lowest entity index among the collision
/// layers that have tiles.
pub(super) fn primary_type(layers: &Query<LayerData>) -> Option<TilemapType> {
    layers
        .iter()
        .filter(|l| l.storage.size.x > 0 && l.storage.size.y > 0)
        .min_by_key(|l| (l.entity.index_u32(), l.entity.to_bits()))
        .map(|l| map_type(&l))
}

/// The map type of `layer` (square without a `TilemapType`).
pub(super) fn map_type(layer: &LayerDataItem) -> TilemapType {
    layer.map_type.copied().unwrap_or_default()
}

/// How `layer` is placed in the world.
pub(super) fn projection<'a>(layer: &'a LayerDataItem) -> Projection<'a> {
    Projection {
        map_type: map_type(layer),
        map_size: layer.size.copied().unwrap_or(layer.storage.size),
        grid_size: layer.grid_size,
        tile_size: layer.tile_size,
        anchor: layer.anchor,
    }
}

/// The layer that owns `tile` at `pos`: the one its `TilemapId` names, or (without a
/// `TilemapId`) any collision layer whose storage holds it there.
pub(super) fn owner(
    layers: &Query<LayerData>,
    tile: Entity,
    pos: &TilePos,
    id: Option<&TilemapId>,
) -> Option<Entity> {
    let holds = |l: &LayerDataItem| l.storage.checked_get(pos) == Some(tile);
    match id {
        Some(id) => layers.get(id.0).ok().filter(holds).map(|l| l.entity),
        None => layers.iter().find(holds).map(|l| l.entity),
    }
}

/// Keeps the [`NavGrid`] equal to the union of all square collision layers, and marks
/// the others with [`CollisionLayerError`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn sync_collision_layers(
    _main: MainThread,
    mut commands: Commands,
    grid: Option<ResMut<NavGrid>>,
    layers: Query<LayerData>,
    transforms: TransformHelper,
    tiles: Query<TileData>,
    changed_tiles: Query<Entity, (With<TilePos>, ChangedTiles)>,
    mut removals: TileRemovals,
    mut sync: Local<LayerSync>,
    mut refused: ResMut<RefusedLayers>,
) {
    let sync = &mut *sync;
    if grid
        .as_ref()
        .is_some_and(|g| g.source() == GridSource::Manual)
    {
        if !sync.warned_manual && !layers.is_empty() {
            warn!("a NavGrid was inserted by hand: CollisionLayer tilemaps are ignored");
            sync.warned_manual = true;
        }
        // Start from scratch (every layer re-read) if the hand-made grid goes away.
        sync.reset();
        return;
    }

    // The primary layer's map type (the lowest entity index among all collision
    // layers): it decides the kind of map and the grid's layout.
    let primary_type = primary_type(&layers);
    let layout = primary_type.map(layout_of);

    // Layers that disappeared (despawned, lost CollisionLayer or TileStorage, or became
    // unusable).
    sync.gone.clear();
    sync.gone.extend(sync.layers.keys().filter(|e| {
        !layers
            .get(**e)
            .is_ok_and(|l| fit(map_type(&l), primary_type).is_ok())
    }));
    let gone = std::mem::take(&mut sync.gone);
    for &layer in &gone {
        sync.layers.remove(&layer);
        sync.forget_layer_tiles(layer);
    }
    let mut reorder = !gone.is_empty();
    sync.gone = gone;

    // New and changed layers.
    sync.rescan.clear();
    refused.0 = 0;
    for layer in &layers {
        let coverage = Coverage::new(map_type(&layer), layer.storage.size);
        let size = coverage.bounds();
        if size.area() == 0 {
            continue;
        }
        match fit(map_type(&layer), primary_type) {
            Err(error) => {
                refused.0 += 1;
                if layer.error != Some(&error) {
                    warn!("collision layer {} is left out: {error}", layer.entity);
                    commands.entity(layer.entity).insert(error);
                }
                continue;
            }
            Ok(()) if layer.error.is_some() => {
                commands
                    .entity(layer.entity)
                    .remove::<CollisionLayerError>();
            }
            Ok(()) => {}
        }
        let z = transforms
            .compute_global_transform(layer.entity)
            .map_or(0.0, |g| g.translation().z);
        let known = sync.layers.contains_key(&layer.entity);
        let info = sync.layers.entry(layer.entity).or_default();
        reorder |= !known || info.z.total_cmp(&z).is_ne();
        info.z = z;
        let moved = info.coverage != coverage;
        if moved {
            info.coverage = coverage;
            info.size = size;
            info.terrain = Vec::new();
        }
        if !known || moved || layer.rule.is_changed() || layer.storage.is_changed() {
            sync.rescan.push(layer.entity);
        }
    }
    if reorder && sync.reorder() {
        sync.terrain_all = true;
    }
    let Some(primary) = sync
        .layers
        .keys()
        .min_by_key(|e| (e.index_u32(), e.to_bits()))
        .copied()
    else {
        if grid.is_some() {
            commands.remove_resource::<NavGrid>();
        }
        sync.reset();
        return;
    };

    let size = sync.layers.values().fold(GridSize::default(), |a, b| {
        GridSize::new(a.width.max(b.size.width), a.height.max(b.size.height))
    });
    let mut coverages = std::mem::take(&mut sync.next_coverages);
    coverages.clear();
    coverages.extend(sync.layers.values().map(|info| info.coverage));
    coverages.sort_unstable();
    coverages.dedup();
    let reshaped = coverages != sync.coverages || layout != sync.layout;
    if reshaped {
        std::mem::swap(&mut coverages, &mut sync.coverages);
        sync.layout = layout;
    }
    sync.next_coverages = coverages;
    let resized = size != sync.size || reshaped;
    if resized {
        sync.resize(size);
    }

    sync.rescan.sort_unstable();
    let rescan = std::mem::take(&mut sync.rescan);
    for &entity in &rescan {
        let Ok(layer) = layers.get(entity) else {
            continue;
        };
        sync.forget_layer_tiles(entity);
        if let Some(info) = sync.layers.get_mut(&entity) {
            info.terrain = Vec::new();
        }
        let coverage = Coverage::new(map_type(&layer), layer.storage.size);
        let width = layer.storage.size.x as usize;
        for (i, slot) in layer.storage.iter().enumerate() {
            let Some(tile) = *slot else {
                continue;
            };
            let Ok((_, texture, marker, terrain, _)) = tiles.get(tile) else {
                continue;
            };
            let cell = coverage.cell((i % width) as u32, (i / width) as u32);
            let texture = texture.map(|t| t.0);
            if layer.rule.blocks(marker, texture) {
                sync.set_tile(tile, Some((entity, cell)));
            }
            if let Some(id) = layer.rule.terrain(terrain.copied(), texture) {
                sync.set_tile_terrain(tile, Some((entity, cell, id)));
            }
        }
    }
    sync.rescan = rescan;

    // Tiles that changed, lost their marker, terrain or texture, or were despawned.
    sync.tiles.clear();
    sync.tiles.extend(changed_tiles.iter());
    sync.tiles.extend(removals.markers.read());
    sync.tiles.extend(removals.terrain.read());
    sync.tiles.extend(removals.textures.read());
    sync.tiles.extend(removals.positions.read());
    let changed = std::mem::take(&mut sync.tiles);
    for &tile in &changed {
        let now = tiles
            .get(tile)
            .ok()
            .and_then(|(pos, texture, marker, terrain, id)| {
                let layer = owner(&layers, tile, pos, id)?;
                if !sync.layers.contains_key(&layer) {
                    return None;
                }
                let item = layers.get(layer).ok()?;
                let rule = item.rule;
                let texture = texture.map(|t| t.0);
                Some((
                    layer,
                    pos.to_cell_in(map_type(&item)),
                    rule.blocks(marker, texture),
                    rule.terrain(terrain.copied(), texture),
                ))
            });
        sync.set_tile(
            tile,
            now.filter(|n| n.2).map(|(layer, cell, ..)| (layer, cell)),
        );
        sync.set_tile_terrain(
            tile,
            now.and_then(|(layer, cell, _, terrain)| Some((layer, cell, terrain?))),
        );
    }
    sync.tiles = changed;

    let Ok(primary) = layers.get(primary) else {
        return;
    };
    let global = transforms
        .compute_global_transform(primary.entity)
        .unwrap_or_default();
    let placement = projection(&primary).placement(global);
    match grid {
        Some(mut grid) if !resized => {
            if !sync.touched.is_empty() || !sync.terrain_touched.is_empty() || sync.terrain_all {
                let edits = sync.take_edits();
                if grid
                    .bypass_change_detection()
                    .apply_map_edits(edits)
                    .is_some()
                {
                    grid.set_changed();
                }
            }
            if !grid.placement().same_bits(&placement) {
                grid.place(placement);
            }
        }
        grid => {
            sync.touched.clear();
            sync.terrain_touched.clear();
            sync.terrain_all = false;
            let bits = sync.obstacle_bits();
            let holes = sync.hole_bits();
            let built = match sync.terrain_grid() {
                Some(terrain) => CachedScenario::from_bits_and_terrain(bits, terrain),
                None => CachedScenario::from_bits(bits),
            };
            let scenario = match built {
                Ok(scenario) => scenario,
                Err(e) => {
                    error!("cannot build the navigation grid from the collision layers: {e}");
                    return;
                }
            };
            match grid {
                Some(mut grid) => {
                    grid.set_scenario(scenario);
                    grid.place(placement);
                    grid.set_outside(holes);
                }
                None => {
                    let mut grid = NavGrid::from_tilemaps(scenario, placement);
                    grid.set_outside(holes);
                    commands.insert_resource(grid);
                }
            }
        }
    }
}
