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
//! A cell is an obstacle when any collision layer blocks it, or when no layer's map
//! covers it. Cell `(x, y)` is `TilePos { x, y }` ([`TilePosExt::to_cell`],
//! [`CellExt::to_tile_pos`]), except on staggered maps (below); the grid is as large as
//! the largest layer and is placed in the world like the layer with the lowest entity
//! index, normally the first spawned, its *primary* layer (its world transform: its
//! `Transform` composed with those of its `ChildOf` ancestors, translation and scale;
//! its `TilemapAnchor`, `TilemapGridSize`, or `TilemapTileSize` when there is no grid
//! size). Rotation of the tilemap is not supported. A tilemap under a moving parent
//! moves the grid, which re-plans every path.
//!
//! # Map types
//!
//! | `TilemapType` | cell of `TilePos { x, y }` | [`GridLayout`] |
//! |---|---|---|
//! | `Square` | `(x, y)` | [`GridLayout::Square`] |
//! | `Isometric(Diamond)` | `(x, y)` | [`GridLayout::Isometric`] |
//! | `Isometric(Staggered)` | `(x, x + y)` | [`GridLayout::Isometric`] |
//! | `Hexagon(system)` | `(x, y)` | [`GridLayout::Hex`](crate::components::GridLayout::Hex), one [`HexLayout`](crate::shape::HexLayout) per system |
//!
//! On isometric maps a cell is the diamond bevy_ecs_tilemap draws the tile in
//! (`TilePos::center_in_world`, `TilePos::from_world_pos` agree with
//! [`NavGrid::cell_to_world`] and [`NavGrid::world_to_cell`]), and its 8 neighbours are
//! the tiles bevy_ecs_tilemap's `diamond_offset` and `staggered_offset` name. A staggered
//! map of `w × h` tiles is a band of diamond cells, `(x, x .. x + h)` for each column
//! `x`: the grid is `w` by `w + h - 1` cells, and the cells outside the band are
//! obstacles ([`TilePosExt::to_cell_in`] and [`CellExt::to_tile_pos_in`] convert).
//! Units steer in the square grid the diamonds are drawn from (see
//! [`Steering`](crate::steering::Steering)).
//!
//! On hexagonal maps cell `(x, y)` is the tile `TilePos { x, y }`, its six neighbours
//! are the tiles bevy_ecs_tilemap's `HexNeighbors` name, and world positions are where
//! it draws the tiles. What runs on which shape: [Grid shapes](crate#grid-shapes).
//!
//! The map has one kind and layout, its primary layer's: a square layer beside an
//! isometric primary (or the other way round), a square or isometric layer beside a
//! hexagonal one, or a hexagonal layer in another coordinate system, is left out with
//! [`CollisionLayerError::LayoutMismatch`]. A left-out layer is not part of the grid (no
//! [`NavGrid`] is built from it alone), gets the [`CollisionLayerError`] component and a
//! logged warning; the component goes when the layer is usable again. When every layer
//! is refused, requests fail with [`crate::components::PathFailure::MapRefused`].
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
//! [`GridLayout`]: crate::components::GridLayout
//! [`GridLayout::Square`]: crate::components::GridLayout::Square
//! [`GridLayout::Isometric`]: crate::components::GridLayout::Isometric
//! [`NavGrid::cell_to_world`]: crate::components::NavGrid::cell_to_world
//! [`NavGrid::world_to_cell`]: crate::components::NavGrid::world_to_cell
//! [`NavGrid`]: crate::components::NavGrid
//! [`NavGrid::apply_map_edits`]: crate::components::NavGrid::apply_map_edits
//! [`NavGrid::new`]: crate::components::NavGrid::new
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
//!
//! # Tiled maps
//!
//! With the `tiled` feature, maps loaded by bevy_ecs_tiled need no code: Tiled custom
//! properties of layers, tiles and objects become collision layers, [`BlocksPath`] and
//! [`Terrain`] (see `TiledProperties`).

use bevy::prelude::*;
use bevy_ecs_tilemap::map::{IsoCoordSystem, TilemapType};
use bevy_ecs_tilemap::tiles::TilePos;

use crate::grid::Cell;
use crate::scenario::TerrainId;

mod layers;
mod shape;
mod sync;
#[cfg(feature = "tiled")]
mod tiled;
#[cfg(feature = "tiled")]
mod tiled_objects;

pub(crate) use sync::sync_collision_layers;
#[cfg(feature = "tiled")]
pub(crate) use tiled::apply_tiled_properties;
#[cfg(feature = "tiled")]
pub use tiled::{TiledProperties, TiledPropertyError};
#[cfg(feature = "tiled")]
pub(crate) use tiled_objects::apply_tiled_objects;

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

/// Why a [`CollisionLayer`] tilemap is left out of the
/// [`NavGrid`](crate::components::NavGrid); the plugin puts it on
/// the tilemap entity (and logs a warning) and removes it when the layer is usable again.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub enum CollisionLayerError {
    /// The tilemap is drawn another way than the primary layer (see the [module
    /// docs](self)): square beside isometric, square or isometric beside hexagonal, or
    /// hexagonal in another coordinate system. The map takes its kind and layout from
    /// its primary layer and draws every tile that way.
    LayoutMismatch(TilemapType),
}

impl std::fmt::Display for CollisionLayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CollisionLayerError::LayoutMismatch(map_type) => write!(
                f,
                "tilemap type {map_type:?} is not drawn like the primary collision layer"
            ),
        }
    }
}

impl std::error::Error for CollisionLayerError {}

/// `TilePos` → [`Cell`]: `TilePos { x, y }` is cell `(x, y)` on square and isometric
/// diamond maps, and cell `(x, x + y)` on isometric staggered ones
/// ([`TilePosExt::to_cell_in`]), the diamond coordinates bevy_ecs_tilemap draws them at.
///
/// `Cell` lives in the core crate and `TilePos` in bevy_ecs_tilemap, so the orphan rule
/// forbids `impl From<TilePos> for Cell` in this crate; this extension trait (in the
/// prelude) is the closest equivalent.
///
/// ```
/// use bevy_ecs_tilemap::map::{IsoCoordSystem, TilemapType};
/// use bevy_ecs_tilemap::tiles::TilePos;
/// use bevy_tilepath::prelude::*;
///
/// assert_eq!(TilePos::new(3, 4).to_cell(), Cell::new(3, 4));
/// assert_eq!(Cell::new(3, 4).to_tile_pos(), Some(TilePos::new(3, 4)));
/// assert_eq!(Cell::new(-1, 4).to_tile_pos(), None);
///
/// let staggered = TilemapType::Isometric(IsoCoordSystem::Staggered);
/// assert_eq!(TilePos::new(3, 4).to_cell_in(staggered), Cell::new(3, 7));
/// assert_eq!(Cell::new(3, 7).to_tile_pos_in(staggered), Some(TilePos::new(3, 4)));
/// assert_eq!(Cell::new(3, 2).to_tile_pos_in(staggered), None);
/// ```
pub trait TilePosExt {
    /// The cell of this tile position on a square or diamond map (coordinates beyond
    /// `i32::MAX` saturate; no map is that large).
    fn to_cell(self) -> Cell;

    /// The cell of this tile position on a map of `map_type`: [`TilePosExt::to_cell`],
    /// except on staggered isometric maps. On hexagonal maps it is
    /// [`TilePosExt::to_cell`].
    fn to_cell_in(self, map_type: TilemapType) -> Cell;
}

impl TilePosExt for TilePos {
    fn to_cell(self) -> Cell {
        let coordinate = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
        Cell::new(coordinate(self.x), coordinate(self.y))
    }

    fn to_cell_in(self, map_type: TilemapType) -> Cell {
        let cell = self.to_cell();
        if map_type == TilemapType::Isometric(IsoCoordSystem::Staggered) {
            Cell::new(cell.x, cell.x.saturating_add(cell.y))
        } else {
            cell
        }
    }
}

/// [`Cell`] → `TilePos`, the fallible way back of [`TilePosExt`] (a `TryFrom` impl is
/// forbidden by the orphan rule for the same reason).
pub trait CellExt {
    /// The tile position of this cell on a square or diamond map, or `None` when a
    /// coordinate is negative.
    fn to_tile_pos(self) -> Option<TilePos>;

    /// The tile position of this cell on a map of `map_type`, or `None` when no tile
    /// position has this cell (the way back of [`TilePosExt::to_cell_in`]; whether the
    /// map is large enough to hold it is left to the caller).
    fn to_tile_pos_in(self, map_type: TilemapType) -> Option<TilePos>;
}

impl CellExt for Cell {
    fn to_tile_pos(self) -> Option<TilePos> {
        Some(TilePos::new(
            u32::try_from(self.x).ok()?,
            u32::try_from(self.y).ok()?,
        ))
    }

    fn to_tile_pos_in(self, map_type: TilemapType) -> Option<TilePos> {
        if map_type == TilemapType::Isometric(IsoCoordSystem::Staggered) {
            Cell::new(self.x, self.y.checked_sub(self.x)?).to_tile_pos()
        } else {
            self.to_tile_pos()
        }
    }
}

/// Marks a tile entity of a [`CollisionLayer`] tilemap as an obstacle.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct BlocksPath;
