//! Folding the collision layers' tiles into the [`NavGrid`], incrementally, every frame.

use bevy::ecs::entity::EntityHashMap;
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
use crate::grid::{Cell, GridSize};
use crate::scenario::{BitGrid, CachedScenario, MapEdit, TerrainId};

use super::{BlocksPath, CollisionLayer, CollisionLayerError, Terrain, TilePosExt};

/// The components of a collision layer the sync reads.
#[derive(QueryData)]
pub(crate) struct LayerData {
    entity: Entity,
    rule: Ref<'static, CollisionLayer>,
    storage: Ref<'static, TileStorage>,
    size: Option<&'static TilemapSize>,
    grid_size: Option<&'static TilemapGridSize>,
    tile_size: Option<&'static TilemapTileSize>,
    anchor: Option<&'static TilemapAnchor>,
    map_type: Option<&'static TilemapType>,
    error: Option<&'static CollisionLayerError>,
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
type TileData = (
    &'static TilePos,
    Option<&'static TileTextureIndex>,
    Has<BlocksPath>,
    Option<&'static Terrain>,
    Option<&'static TilemapId>,
);

/// Tiles whose blocking state or terrain may have changed.
type ChangedTiles = Or<(
    Changed<TilePos>,
    Changed<TileTextureIndex>,
    Added<BlocksPath>,
    Changed<Terrain>,
    Changed<TilemapId>,
)>;

/// A cell of a layer's terrain array where no tile defines terrain.
const NO_TERRAIN: u16 = u16::MAX;

/// What the sync knows of one collision layer.
#[derive(Default)]
struct LayerInfo {
    size: GridSize,
    /// World `z` of the tilemap: higher layers give the terrain.
    z: f32,
    /// Terrain per cell of the layer (row-major over `size`), [`NO_TERRAIN`] where its
    /// tile defines none; empty until a tile of the layer defines terrain.
    terrain: Vec<u16>,
}

impl LayerInfo {
    fn terrain_at(&self, cell: Cell) -> Option<TerrainId> {
        if !self.size.contains(cell) {
            return None;
        }
        let t = *self.terrain.get(self.size.index(cell))?;
        (t != NO_TERRAIN).then_some(t as TerrainId)
    }

    fn set_terrain(&mut self, cell: Cell, terrain: Option<TerrainId>) {
        if !self.size.contains(cell) || (terrain.is_none() && self.terrain.is_empty()) {
            return;
        }
        if self.terrain.is_empty() {
            self.terrain = vec![NO_TERRAIN; self.size.area()];
        }
        self.terrain[self.size.index(cell)] = terrain.map_or(NO_TERRAIN, u16::from);
    }
}

/// What the sync knows between frames.
#[derive(Default)]
pub(crate) struct LayerSync {
    /// Known collision layers.
    layers: EntityHashMap<LayerInfo>,
    /// Known layers, topmost first (largest `z`, then highest entity index).
    order: Vec<Entity>,
    /// Every blocking tile: its layer and cell.
    blocking: EntityHashMap<(Entity, Cell)>,
    /// Every tile that defines terrain: its layer, cell and terrain.
    terrain_tiles: EntityHashMap<(Entity, Cell, TerrainId)>,
    /// Number of blocking tiles per cell (row-major over `size`).
    counts: Vec<u32>,
    size: GridSize,
    /// Cells whose count changed since the last flush.
    touched: Vec<Cell>,
    /// Cells whose terrain may have changed since the last flush.
    terrain_touched: Vec<Cell>,
    /// The terrain of every cell must be read again (the layers' order changed).
    terrain_all: bool,
    rescan: Vec<Entity>,
    tiles: Vec<Entity>,
    gone: Vec<Entity>,
    warned_manual: bool,
}

impl LayerSync {
    fn bump(&mut self, cell: Cell, up: bool) {
        if self.size.contains(cell) {
            let count = &mut self.counts[self.size.index(cell)];
            *count = if up {
                count.saturating_add(1)
            } else {
                count.saturating_sub(1)
            };
            self.touched.push(cell);
        }
    }

    /// Records whether `tile` blocks, and where.
    fn set_tile(&mut self, tile: Entity, now: Option<(Entity, Cell)>) {
        let before = match now {
            Some(v) => self.blocking.insert(tile, v),
            None => self.blocking.remove(&tile),
        };
        if before == now {
            return;
        }
        if let Some((_, cell)) = before {
            self.bump(cell, false);
        }
        if let Some((_, cell)) = now {
            self.bump(cell, true);
        }
    }

    /// Records which terrain `tile` defines, and where.
    fn set_tile_terrain(&mut self, tile: Entity, now: Option<(Entity, Cell, TerrainId)>) {
        let before = match now {
            Some(v) => self.terrain_tiles.insert(tile, v),
            None => self.terrain_tiles.remove(&tile),
        };
        if before == now {
            return;
        }
        if let Some((layer, cell, _)) = before {
            if let Some(info) = self.layers.get_mut(&layer) {
                info.set_terrain(cell, None);
            }
            self.terrain_touched.push(cell);
        }
        if let Some((layer, cell, terrain)) = now {
            if let Some(info) = self.layers.get_mut(&layer) {
                info.set_terrain(cell, Some(terrain));
            }
            self.terrain_touched.push(cell);
        }
    }

    /// Forgets every blocking and terrain tile of `layer`.
    fn forget_layer_tiles(&mut self, layer: Entity) {
        self.tiles.clear();
        self.tiles.extend(
            self.blocking
                .iter()
                .filter(|(_, (l, _))| *l == layer)
                .map(|(tile, _)| *tile),
        );
        let tiles = std::mem::take(&mut self.tiles);
        for &tile in &tiles {
            self.set_tile(tile, None);
        }
        self.tiles = tiles;
        self.tiles.clear();
        self.tiles.extend(
            self.terrain_tiles
                .iter()
                .filter(|(_, (l, ..))| *l == layer)
                .map(|(tile, _)| *tile),
        );
        let tiles = std::mem::take(&mut self.tiles);
        for &tile in &tiles {
            self.set_tile_terrain(tile, None);
        }
        self.tiles = tiles;
    }

    /// The terrain of `cell`: that of the topmost layer defining one there, else 0.
    fn terrain(&self, cell: Cell) -> TerrainId {
        self.order
            .iter()
            .filter_map(|layer| self.layers.get(layer))
            .find_map(|info| info.terrain_at(cell))
            .unwrap_or(0)
    }

    /// Sorts the layers topmost first; true when two layers that both define terrain
    /// changed places.
    fn reorder(&mut self) -> bool {
        let before: Vec<Entity> = self
            .order
            .iter()
            .copied()
            .filter(|l| self.layers.get(l).is_some_and(|i| !i.terrain.is_empty()))
            .collect();
        self.order.clear();
        self.order.extend(self.layers.keys().copied());
        let layers = &self.layers;
        self.order.sort_unstable_by(|a, b| {
            let (za, zb) = (layers[a].z, layers[b].z);
            zb.total_cmp(&za)
                .then((b.index_u32(), b.to_bits()).cmp(&(a.index_u32(), a.to_bits())))
        });
        let after = self.order.iter().filter(|l| before.contains(l)).copied();
        !after.eq(before.iter().copied())
    }

    /// Recomputes the counts for a new size from the blocking tiles.
    fn resize(&mut self, size: GridSize) {
        self.size = size;
        self.counts.clear();
        self.counts.resize(size.area(), 0);
        for (_, cell) in self.blocking.values() {
            if size.contains(*cell) {
                self.counts[size.index(*cell)] += 1;
            }
        }
        self.touched.clear();
    }

    fn obstacle_bits(&self) -> BitGrid {
        let mut bits = BitGrid::new(self.size, false);
        for (i, &count) in self.counts.iter().enumerate() {
            if count > 0 {
                bits.set(self.size.cell(i), true);
            }
        }
        bits
    }

    /// The terrain of every cell, row-major, or `None` when no tile defines any.
    fn terrain_grid(&self) -> Option<Vec<TerrainId>> {
        if self.terrain_tiles.is_empty() {
            return None;
        }
        Some(
            (0..self.size.area())
                .map(|i| self.terrain(self.size.cell(i)))
                .collect(),
        )
    }

    /// The map edits of the cells touched since the last flush (all cells' terrain when
    /// the layer order changed); forgets them.
    fn take_edits(&mut self) -> Vec<MapEdit> {
        let size = self.size;
        let mut edits: Vec<MapEdit> = self
            .touched
            .drain(..)
            .map(|c| MapEdit::Obstacle(c, self.counts[size.index(c)] > 0))
            .collect();
        if std::mem::take(&mut self.terrain_all) {
            self.terrain_touched.clear();
            edits.extend((0..size.area()).map(|i| {
                let c = size.cell(i);
                MapEdit::Terrain(c, self.terrain(c))
            }));
        } else {
            edits.extend(
                self.terrain_touched
                    .iter()
                    .filter(|c| size.contains(**c))
                    .map(|&c| MapEdit::Terrain(c, self.terrain(c))),
            );
            self.terrain_touched.clear();
        }
        edits
    }

    fn reset(&mut self) {
        self.layers.clear();
        self.order.clear();
        self.blocking.clear();
        self.terrain_tiles.clear();
        self.counts.clear();
        self.touched.clear();
        self.terrain_touched.clear();
        self.terrain_all = false;
        self.size = GridSize::default();
    }
}

/// Whether the grid can model `layer`.
fn check(layer: &LayerDataItem) -> Result<(), CollisionLayerError> {
    match layer.map_type.copied().unwrap_or_default() {
        TilemapType::Square => Ok(()),
        other => Err(CollisionLayerError::UnsupportedMapType(other)),
    }
}

/// World placement (centre of cell (0, 0), distance between cell centres) of a layer
/// whose world transform is `global`.
fn placement(layer: &LayerDataItem, global: GlobalTransform) -> (Vec2, Vec2) {
    let map_size = layer.size.copied().unwrap_or(layer.storage.size);
    let map_size = TilemapSize::new(map_size.x.max(1), map_size.y.max(1));
    let tile_size = layer
        .tile_size
        .copied()
        .unwrap_or(TilemapTileSize::new(1.0, 1.0));
    let grid_size = layer.grid_size.copied().unwrap_or_else(|| tile_size.into());
    let anchor = layer.anchor.copied().unwrap_or_default();
    let local = TilePos::new(0, 0).center_in_world(
        &map_size,
        &grid_size,
        &tile_size,
        &TilemapType::Square,
        &anchor,
    );
    let scale = global.scale().truncate();
    (
        global.transform_point(local.extend(0.0)).truncate(),
        scale * Vec2::from(grid_size),
    )
}

/// The layer that owns `tile` at `pos`: the one its `TilemapId` names, or (without a
/// `TilemapId`) any collision layer whose storage holds it there.
fn owner(
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

    // Layers that disappeared (despawned, lost CollisionLayer or TileStorage, or became
    // unusable).
    sync.gone.clear();
    sync.gone.extend(
        sync.layers
            .keys()
            .filter(|e| !layers.get(**e).is_ok_and(|l| check(&l).is_ok())),
    );
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
        let size = GridSize::new(layer.storage.size.x, layer.storage.size.y);
        if size.area() == 0 {
            continue;
        }
        match check(&layer) {
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
        if info.size != size {
            info.size = size;
            info.terrain = Vec::new();
        }
        if !known || layer.rule.is_changed() || layer.storage.is_changed() {
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
    let resized = size != sync.size;
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
        let width = layer.storage.size.x as usize;
        for (i, slot) in layer.storage.iter().enumerate() {
            let Some(tile) = *slot else {
                continue;
            };
            let Ok((_, texture, marker, terrain, _)) = tiles.get(tile) else {
                continue;
            };
            let cell = Cell::new((i % width) as i32, (i / width) as i32);
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
                let rule = layers.get(layer).ok()?.rule;
                let texture = texture.map(|t| t.0);
                Some((
                    layer,
                    pos.to_cell(),
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
    let (origin, tile_size) = placement(&primary, global);
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
            if grid.origin() != origin || grid.tile_size() != tile_size {
                grid.set_placement(origin, tile_size);
            }
        }
        grid => {
            sync.touched.clear();
            sync.terrain_touched.clear();
            sync.terrain_all = false;
            let bits = sync.obstacle_bits();
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
                    grid.set_placement(origin, tile_size);
                }
                None => {
                    commands.insert_resource(NavGrid::from_tilemaps(scenario, origin, tile_size));
                }
            }
        }
    }
}
