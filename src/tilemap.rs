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
//! # Terrain
//!
//! Each cell also gets a [`TerrainId`] that [`MovementProfiles`] turn into step costs
//! (roads, mud, water...). A tile of a collision layer defines the terrain of its cell
//! when it has a [`Terrain`] component, or else when the layer's terrain rule maps its
//! `TileTextureIndex` to one: [`CollisionLayer::with_terrain_textures`] (a table) or
//! [`CollisionLayer::with_terrain_predicate`] (any `fn(u32) -> Option<TerrainId>`).
//! Tiles that define none (no component, no rule, a texture the rule leaves out) leave
//! the cell to the layers below.
//!
//! Several layers combine by one rule: **obstacles are OR-ed over all layers, and the
//! terrain of a cell comes from the topmost layer that defines one there** (terrain 0
//! where none does). The topmost layer is the one drawn on top: the largest world `z`
//! of the tilemap's transform; between equal `z`, the layer with the higher entity
//! index (normally spawned later). So a wall layer (`CollisionLayer::from_texture_indices`
//! without terrain) can lie over a ground layer that only defines terrain (a
//! `CollisionLayer::default()` with a terrain rule and no blocking tiles): walls block,
//! the ground's roads, forests and rivers cost. A decoration layer that defines terrain
//! for some tiles (a bridge over a river, say) overrides the ground below on those cells
//! only, when it lies above it.
//!
//! [`MovementProfiles`]: crate::profiles::MovementProfiles
//!
//! # Edits
//!
//! Edits are incremental: adding or removing `BlocksPath` or [`Terrain`], changing a
//! tile's texture or position, spawning or despawning tiles only touches the cells
//! concerned (through [`crate::scenario::CachedScenario::apply_edits`], obstacle and
//! terrain edits of a frame in one call), and is announced in
//! [`crate::components::NavGridChanged`] (`cells` for obstacles, `terrain` for terrain
//! ids). Paths are re-planned when a changed obstacle lies within their agent's footprint
//! or a changed terrain within the footprint plus one cell (see
//! [`NavGrid::apply_map_edits`]). Adding a layer, changing its `CollisionLayer` or its
//! `TileStorage` re-reads that layer; changing the `z` order of layers that define
//! terrain re-reads the terrain of every cell. When a tilemap is despawned
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
use crate::scenario::{BitGrid, CachedScenario, MapEdit, TerrainId};

/// Marks a tilemap as solid for pathfinding, and says which terrain its tiles are. See
/// the [module docs](self) for which of its tiles block and how terrain is read and
/// combined over layers.
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
///
/// // A ground layer: nothing blocks; texture 0 is grass (terrain 1), 1 is road (2).
/// let ground = CollisionLayer::default().with_terrain_textures([(0, 1), (1, 2)]);
/// assert_eq!(ground.terrain(None, Some(1)), Some(2));
/// assert_eq!(ground.terrain(None, Some(9)), None); // left to the layers below
/// // A `Terrain` component on the tile wins over the table.
/// assert_eq!(ground.terrain(Some(Terrain(5)), Some(1)), Some(5));
/// ```
#[derive(Component, Clone, Debug, Default, Reflect)]
#[reflect(Component, Default, Debug)]
pub struct CollisionLayer {
    blocking_textures: Vec<u32>,
    #[reflect(ignore, clone)]
    predicate: Option<fn(u32) -> bool>,
    /// Terrain per texture index, sorted by texture.
    terrain_textures: Vec<(u32, TerrainId)>,
    #[reflect(ignore, clone)]
    terrain_predicate: Option<fn(u32) -> Option<TerrainId>>,
}

impl CollisionLayer {
    /// Tiles whose `TileTextureIndex` is one of `indices` block (as do [`BlocksPath`] tiles).
    pub fn from_texture_indices(indices: impl IntoIterator<Item = u32>) -> Self {
        let mut blocking_textures: Vec<u32> = indices.into_iter().collect();
        blocking_textures.sort_unstable();
        blocking_textures.dedup();
        Self {
            blocking_textures,
            ..Self::default()
        }
    }

    /// Tiles whose `TileTextureIndex` satisfies `predicate` block (as do [`BlocksPath`] tiles).
    pub fn from_texture_predicate(predicate: fn(u32) -> bool) -> Self {
        Self {
            predicate: Some(predicate),
            ..Self::default()
        }
    }

    /// Tiles whose `TileTextureIndex` is listed in `table` as `(texture, terrain)` have
    /// that terrain (unless they carry a [`Terrain`] component). A texture listed twice
    /// keeps its last terrain. Replaces an earlier terrain rule.
    pub fn with_terrain_textures(
        mut self,
        table: impl IntoIterator<Item = (u32, TerrainId)>,
    ) -> Self {
        let mut entries: Vec<(usize, u32, TerrainId)> = table
            .into_iter()
            .enumerate()
            .map(|(i, (texture, terrain))| (i, texture, terrain))
            .collect();
        // Last entry per texture wins.
        entries.sort_unstable_by_key(|&(i, texture, _)| (texture, std::cmp::Reverse(i)));
        entries.dedup_by_key(|&mut (_, texture, _)| texture);
        self.terrain_textures = entries.into_iter().map(|(_, t, id)| (t, id)).collect();
        self.terrain_predicate = None;
        self
    }

    /// Tiles get the terrain `rule` gives their `TileTextureIndex` (`None`: the tile
    /// defines no terrain), unless they carry a [`Terrain`] component. Replaces an
    /// earlier terrain rule.
    pub fn with_terrain_predicate(mut self, rule: fn(u32) -> Option<TerrainId>) -> Self {
        self.terrain_textures.clear();
        self.terrain_predicate = Some(rule);
        self
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

    /// The terrain a tile defines: its [`Terrain`] component (`component`), else what
    /// the layer's terrain rule gives its texture index, else `None` (the layers below
    /// decide).
    pub fn terrain(&self, component: Option<Terrain>, texture: Option<u32>) -> Option<TerrainId> {
        if let Some(Terrain(id)) = component {
            return Some(id);
        }
        let texture = texture?;
        match self.terrain_predicate {
            Some(rule) => rule(texture),
            None => self
                .terrain_textures
                .binary_search_by_key(&texture, |&(t, _)| t)
                .ok()
                .map(|i| self.terrain_textures[i].1),
        }
    }
}

/// The terrain of one tile of a [`CollisionLayer`] tilemap (a [`TerrainId`] that
/// [`crate::profiles::MovementProfiles`] give a weight or block). It overrides the
/// layer's texture rule for this tile; see the [module docs](self) for how layers
/// combine. Adding, changing or removing it updates the cell incrementally.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct Terrain(pub TerrainId);

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
