//! Tilemap collision layers: bevy_ecs_tilemap tiles folded into the [`NavGrid`], incrementally.
//!
//! Put a [`CollisionLayer`] on a tilemap entity (one with a `TileStorage`). Which of its
//! tiles block is decided per tile:
//!
//! - a tile entity with the [`BlocksPath`] marker always blocks;
//! - otherwise the layer's texture rule decides from the tile's `TileTextureIndex`:
//!   [`CollisionLayer::from_texture_indices`] (a set of wall textures) or
//!   [`CollisionLayer::from_texture_predicate`] (any `fn(u32) -> bool`).
//!   [`CollisionLayer::default`] has no texture rule: only markers block.
//!
//! A cell is an obstacle when any collision layer blocks it. Cell `(x, y)` is
//! `TilePos { x, y }` ([`TilePosExt::to_cell`], [`CellExt::to_tile_pos`]); the grid is as
//! large as the largest layer and is placed in the world like the layer with the lowest
//! entity index, normally the first spawned (its world transform: its `Transform`
//! composed with those of its `ChildOf` ancestors, translation and scale; its
//! `TilemapAnchor`, `TilemapGridSize`, or `TilemapTileSize` when there is no grid
//! size). Rotation of the tilemap is not supported. A tilemap under a moving parent moves
//! the grid, which re-plans every path.
//!
//! Only square tilemaps are supported: a collision layer whose `TilemapType` is
//! hexagonal or isometric is left out of the grid (no [`NavGrid`] is built from it), gets
//! a [`CollisionLayerError::UnsupportedMapType`] component and a logged warning. The
//! component goes when the layer becomes square again.
//!
//! Edits are incremental: adding or removing `BlocksPath`, changing a tile's texture or
//! position, spawning or despawning tiles only touches the cells concerned (through
//! [`crate::scenario::CachedScenario::apply`]). Adding a layer, changing its
//! `CollisionLayer` or its `TileStorage` re-reads that layer. When a tilemap is despawned
//! its cells are free again; when the last one goes, the [`NavGrid`] is removed and
//! requests fail with [`crate::components::PathFailure::NoMap`].
//!
//! A [`NavGrid`] inserted by the user ([`NavGrid::new`]) is left alone: collision layers
//! are ignored while it exists.

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

use crate::components::{GridSource, NavGrid};
use crate::grid::{Cell, GridSize};
use crate::scenario::{BitGrid, CachedScenario};

/// Marks a tilemap as solid for pathfinding. See the [module docs](self) for which of its
/// tiles block.
///
/// ```
/// use bevy_tilepath::prelude::*;
///
/// // Only tiles carrying `BlocksPath` block.
/// let markers = CollisionLayer::default();
/// // Textures 3 and 7 are walls (and `BlocksPath` tiles still block).
/// let walls = CollisionLayer::from_texture_indices([3, 7]);
/// assert!(walls.blocks(false, Some(7)));
/// // Every texture from 16 on is water.
/// let water = CollisionLayer::from_texture_predicate(|index| index >= 16);
/// assert!(water.blocks(false, Some(20)));
/// assert!(!water.blocks(false, Some(2)));
/// assert!(markers.blocks(true, None));
/// ```
#[derive(Component, Clone, Debug, Default, Reflect)]
#[reflect(Component, Default, Debug)]
pub struct CollisionLayer {
    blocking_textures: Vec<u32>,
    #[reflect(ignore, clone)]
    predicate: Option<fn(u32) -> bool>,
}

impl CollisionLayer {
    /// Tiles whose `TileTextureIndex` is one of `indices` block (as do [`BlocksPath`] tiles).
    pub fn from_texture_indices(indices: impl IntoIterator<Item = u32>) -> Self {
        let mut blocking_textures: Vec<u32> = indices.into_iter().collect();
        blocking_textures.sort_unstable();
        blocking_textures.dedup();
        Self {
            blocking_textures,
            predicate: None,
        }
    }

    /// Tiles whose `TileTextureIndex` satisfies `predicate` block (as do [`BlocksPath`] tiles).
    pub fn from_texture_predicate(predicate: fn(u32) -> bool) -> Self {
        Self {
            blocking_textures: Vec::new(),
            predicate: Some(predicate),
        }
    }

    /// True when a tile blocks: it has the [`BlocksPath`] marker (`marker`), or its texture
    /// index matches this layer's rule.
    pub fn blocks(&self, marker: bool, texture: Option<u32>) -> bool {
        marker
            || texture.is_some_and(|t| {
                self.blocking_textures.binary_search(&t).is_ok()
                    || self.predicate.is_some_and(|p| p(t))
            })
    }
}

/// Why a [`CollisionLayer`] tilemap is left out of the [`NavGrid`]; the plugin puts it on
/// the tilemap entity (and logs a warning) and removes it when the layer is usable again.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub enum CollisionLayerError {
    /// The tilemap is hexagonal or isometric: the grid only models square tiles (reading
    /// such a map as a square grid would give wrong neighbours and positions).
    UnsupportedMapType(TilemapType),
}

impl std::fmt::Display for CollisionLayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CollisionLayerError::UnsupportedMapType(map_type) => write!(
                f,
                "tilemap type {map_type:?} is not supported for pathfinding (only square tilemaps are)"
            ),
        }
    }
}

impl std::error::Error for CollisionLayerError {}

/// `TilePos` → [`Cell`] (`TilePos { x, y }` is cell `(x, y)`).
///
/// `Cell` lives in the core crate and `TilePos` in bevy_ecs_tilemap, so the orphan rule
/// forbids `impl From<TilePos> for Cell` in this crate; this extension trait (in the
/// prelude) is the closest equivalent.
///
/// ```
/// use bevy_ecs_tilemap::tiles::TilePos;
/// use bevy_tilepath::prelude::*;
///
/// assert_eq!(TilePos::new(3, 4).to_cell(), Cell::new(3, 4));
/// assert_eq!(Cell::new(3, 4).to_tile_pos(), Some(TilePos::new(3, 4)));
/// assert_eq!(Cell::new(-1, 4).to_tile_pos(), None);
/// ```
pub trait TilePosExt {
    /// The cell of this tile position (coordinates beyond `i32::MAX` saturate; no map is
    /// that large).
    fn to_cell(self) -> Cell;
}

impl TilePosExt for TilePos {
    fn to_cell(self) -> Cell {
        let coordinate = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
        Cell::new(coordinate(self.x), coordinate(self.y))
    }
}

/// [`Cell`] → `TilePos`, the fallible way back of [`TilePosExt`] (a `TryFrom` impl is
/// forbidden by the orphan rule for the same reason).
pub trait CellExt {
    /// The tile position of this cell, or `None` when a coordinate is negative.
    fn to_tile_pos(self) -> Option<TilePos>;
}

impl CellExt for Cell {
    fn to_tile_pos(self) -> Option<TilePos> {
        Some(TilePos::new(
            u32::try_from(self.x).ok()?,
            u32::try_from(self.y).ok()?,
        ))
    }
}

/// Marks a tile entity of a [`CollisionLayer`] tilemap as an obstacle.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct BlocksPath;

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
    positions: RemovedComponents<'w, 's, TilePos>,
    textures: RemovedComponents<'w, 's, TileTextureIndex>,
}

/// What the sync reads of a tile: position, texture, marker, owning tilemap.
type TileData = (
    &'static TilePos,
    Option<&'static TileTextureIndex>,
    Has<BlocksPath>,
    Option<&'static TilemapId>,
);

/// Tiles whose blocking state may have changed.
type ChangedTiles = Or<(
    Changed<TilePos>,
    Changed<TileTextureIndex>,
    Added<BlocksPath>,
    Changed<TilemapId>,
)>;

/// What the sync knows between frames.
#[derive(Default)]
pub(crate) struct LayerSync {
    /// Known collision layers and their sizes.
    layers: EntityHashMap<GridSize>,
    /// Every blocking tile: its layer and cell.
    blocking: EntityHashMap<(Entity, Cell)>,
    /// Number of blocking tiles per cell (row-major over `size`).
    counts: Vec<u32>,
    size: GridSize,
    /// Cells whose count changed since the last flush.
    touched: Vec<Cell>,
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

    /// Forgets every blocking tile of `layer`.
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

    fn reset(&mut self) {
        self.layers.clear();
        self.blocking.clear();
        self.counts.clear();
        self.touched.clear();
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
    sync.gone = gone;

    // New and changed layers.
    sync.rescan.clear();
    for layer in &layers {
        let size = GridSize::new(layer.storage.size.x, layer.storage.size.y);
        if size.area() == 0 {
            continue;
        }
        match check(&layer) {
            Err(error) => {
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
        let known = sync.layers.insert(layer.entity, size);
        if known.is_none() || layer.rule.is_changed() || layer.storage.is_changed() {
            sync.rescan.push(layer.entity);
        }
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
        GridSize::new(a.width.max(b.width), a.height.max(b.height))
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
        let width = layer.storage.size.x as usize;
        for (i, slot) in layer.storage.iter().enumerate() {
            let Some(tile) = *slot else {
                continue;
            };
            let Ok((_, texture, marker, _)) = tiles.get(tile) else {
                continue;
            };
            if layer.rule.blocks(marker, texture.map(|t| t.0)) {
                let cell = Cell::new((i % width) as i32, (i / width) as i32);
                sync.set_tile(tile, Some((entity, cell)));
            }
        }
    }
    sync.rescan = rescan;

    // Tiles that changed, lost their marker or texture, or were despawned.
    sync.tiles.clear();
    sync.tiles.extend(changed_tiles.iter());
    sync.tiles.extend(removals.markers.read());
    sync.tiles.extend(removals.textures.read());
    sync.tiles.extend(removals.positions.read());
    let changed = std::mem::take(&mut sync.tiles);
    for &tile in &changed {
        let now = tiles.get(tile).ok().and_then(|(pos, texture, marker, id)| {
            let layer = owner(&layers, tile, pos, id)?;
            if !sync.layers.contains_key(&layer) {
                return None;
            }
            let rule = layers.get(layer).ok()?.rule;
            rule.blocks(marker, texture.map(|t| t.0))
                .then_some((layer, pos.to_cell()))
        });
        sync.set_tile(tile, now);
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
            if !sync.touched.is_empty() {
                let counts = &sync.counts;
                let edits = sync.touched.iter().map(|&c| (c, counts[size.index(c)] > 0));
                if grid.bypass_change_detection().apply_edits(edits).is_some() {
                    grid.set_changed();
                }
                sync.touched.clear();
            }
            if grid.origin() != origin || grid.tile_size() != tile_size {
                grid.set_placement(origin, tile_size);
            }
        }
        grid => {
            sync.touched.clear();
            let scenario = match CachedScenario::from_bits(sync.obstacle_bits()) {
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
