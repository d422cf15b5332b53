//! bevy_ecs_tiled maps: Tiled custom properties become obstacles, terrain and collision layers.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_ecs_tiled::prelude::{
    TiledLayerId, TiledMap, TiledMapAsset, TiledMapReference, TiledTile, TiledTileId, TiledTilemap,
    TiledTilesetId, get_layer_from_map, get_tileset_from_map, grid_size_from_map, tiled,
    tilemap_type_from_map,
};
use bevy_ecs_tilemap::anchor::TilemapAnchor;
use bevy_ecs_tilemap::map::{TilemapTileSize, TilemapType};
use bevy_ecs_tilemap::tiles::{TilePos, TileStorage};

use crate::scenario::TerrainId;

use super::{BlocksPath, CollisionLayer, Terrain};
use crate::main_thread::MainThread;

/// The names of the Tiled custom properties the plugin reads, and the terrain names it
/// knows. A resource; the plugin inserts the default (feature `tiled`).
///
/// The plugin reads every map that bevy_ecs_tiled's `TiledPlugin` spawns (and spawns
/// again, after a hot reload or a `RespawnTiledMap`); with the default names:
///
/// - a tile layer whose bool property `collision` is `true` puts a
///   [`CollisionLayer::default()`] on each of its tilemaps (bevy_ecs_tiled spawns one per
///   layer and tileset), unless it has one already. A `CollisionLayer` you insert yourself
///   on other tilemaps works the same way;
/// - a tile whose Tiled tile (in its tileset, by Tiled tile id) has the bool property
///   `blocked` set to `true` gets [`BlocksPath`];
/// - a tile whose Tiled tile has a `terrain` property gets [`Terrain`]: an int property is
///   the [`TerrainId`] itself, a string property is a name looked up in
///   [`TiledProperties::terrain_names`];
/// - a Tiled object (on an object layer) whose properties say `blocked = true` blocks the
///   cells it covers, and one with a `terrain` property gives them that terrain (as for
///   tiles). A tile object also has the properties of its Tiled tile that it does not
///   override itself.
///
/// An object *covers* a tile of a collision layer of its map (a tilemap with the same
/// `TiledMapReference` and a [`CollisionLayer`]) when the tile's centre, where
/// bevy_ecs_tilemap draws it in the world, lies inside the object's outline or on it,
/// in world space, where bevy_ecs_tiled places the object (Tiled's y axis, which points
/// down, is turned up; layer offsets, the object's rotation and parents' transforms
/// count). The outline is the one bevy_ecs_tiled gives the object
/// (`TiledMapAsset::object_vertices`): rectangles, polygons and tile objects exactly, an
/// ellipse or a capsule as the polygon bevy_ecs_tiled draws it with (an ellipse: 20
/// vertices on the ellipse, so a centre just inside its edge can be left out). A point
/// object covers the tile whose cell holds it. Polylines and texts cover nothing (a
/// warning, if they block or have terrain). The plugin puts [`BlocksPath`] and
/// [`Terrain`] on the covered tile entities; where a collision layer has no tile, it
/// spawns a tile entity there (`TilePos`, `TilemapId` and a child of the tilemap, no
/// texture) into the layer's `TileStorage`. An object's terrain wins over its tile's,
/// and over the objects below it (a smaller world `z`: an earlier object layer, or an
/// earlier object in the layer). Objects are read when the map is spawned, and again when
/// one of its tilemaps becomes a collision layer (either may come first); an object
/// despawned or moved later leaves its cells as they are. The objects of a map without
/// a collision layer do nothing (one warning per map) until it has one. Objects are
/// checked against every tile of each collision layer: `O(objects x tiles)` once per map
/// spawn.
///
/// The Tiled tile id, not the `TileTextureIndex`, picks the tile: with an image-collection
/// tileset bevy_ecs_tiled numbers textures in an order that changes from run to run, so a
/// texture rule ([`CollisionLayer::from_texture_indices`]) cannot name its tiles.
///
/// A property of the wrong type, a terrain number outside `0..=255` or an unknown terrain
/// name is logged as a warning (a [`TiledPropertyError`]) and the property is ignored,
/// for tiles and objects alike.
///
/// Without bevy_ecs_tiled's `render` feature (a headless server) bevy_ecs_tiled spawns
/// tilemaps without bevy_ecs_tilemap's components; the plugin then adds the ones the
/// collision sync reads (`TileStorage`, `TilemapSize`, `TilemapGridSize`, `TilemapTileSize`,
/// `TilemapType`, `TilemapAnchor` and the tileset's offset as `Transform`), with the values
/// bevy_ecs_tiled gives them when it renders.
///
/// The properties are read when a map is spawned: change [`TiledProperties`] before that
/// (or respawn the map).
///
/// ```
/// use bevy_ecs_tiled::prelude::tiled::{Properties, PropertyValue};
/// use bevy_tilepath::tilemap::TiledProperties;
///
/// let names = TiledProperties::default().with_terrain_name("mud", 2);
/// let mut tile = Properties::new();
/// tile.insert("blocked".into(), PropertyValue::BoolValue(true));
/// tile.insert("terrain".into(), PropertyValue::StringValue("mud".into()));
/// assert_eq!(names.blocks(&tile), Ok(true));
/// assert_eq!(names.terrain(&tile), Ok(Some(2)));
///
/// tile.insert("terrain".into(), PropertyValue::IntValue(7));
/// assert_eq!(names.terrain(&tile), Ok(Some(7)));
/// tile.insert("terrain".into(), PropertyValue::StringValue("lava".into()));
/// assert!(names.terrain(&tile).is_err()); // not in the table: a warning, no terrain
/// ```
#[derive(Resource, Clone, Debug, PartialEq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct TiledProperties {
    /// The bool tile (and object) property that makes a tile (the cells under an
    /// object) an obstacle. Default: `"blocked"`.
    pub blocked: String,
    /// The tile (and object) property that gives a tile (the cells under an object) its
    /// terrain: an int (the [`TerrainId`]) or a string (a key of
    /// [`TiledProperties::terrain_names`]). Default: `"terrain"`.
    pub terrain: String,
    /// The bool layer property that makes a tile layer a [`CollisionLayer`]. Default:
    /// `"collision"`.
    pub collision_layer: String,
    /// Terrain names (string `terrain` properties) and their ids. Default: empty.
    pub terrain_names: HashMap<String, TerrainId>,
}

impl Default for TiledProperties {
    fn default() -> Self {
        Self {
            blocked: "blocked".into(),
            terrain: "terrain".into(),
            collision_layer: "collision".into(),
            terrain_names: HashMap::default(),
        }
    }
}

impl TiledProperties {
    /// Adds (or replaces) the terrain name `name` with id `id`.
    pub fn with_terrain_name(mut self, name: impl Into<String>, id: TerrainId) -> Self {
        self.terrain_names.insert(name.into(), id);
        self
    }

    /// Whether a tile with these properties blocks: its [`TiledProperties::blocked`]
    /// property (`false` without one).
    pub fn blocks(&self, properties: &tiled::Properties) -> Result<bool, TiledPropertyError> {
        flag(properties, &self.blocked)
    }

    /// Whether a layer with these properties is a collision layer: its
    /// [`TiledProperties::collision_layer`] property (`false` without one).
    pub fn is_collision_layer(
        &self,
        properties: &tiled::Properties,
    ) -> Result<bool, TiledPropertyError> {
        flag(properties, &self.collision_layer)
    }

    /// The terrain a tile with these properties defines: its [`TiledProperties::terrain`]
    /// property, an id or a name of [`TiledProperties::terrain_names`] (`None` without one).
    pub fn terrain(
        &self,
        properties: &tiled::Properties,
    ) -> Result<Option<TerrainId>, TiledPropertyError> {
        match properties.get(&self.terrain) {
            None => Ok(None),
            Some(tiled::PropertyValue::IntValue(value)) => TerrainId::try_from(*value)
                .map(Some)
                .map_err(|_| TiledPropertyError::TerrainOutOfRange(*value)),
            Some(tiled::PropertyValue::StringValue(name)) => self
                .terrain_names
                .get(name)
                .copied()
                .map(Some)
                .ok_or_else(|| TiledPropertyError::UnknownTerrain(name.clone())),
            Some(other) => Err(TiledPropertyError::WrongType {
                property: self.terrain.clone(),
                expected: "int or string",
                found: type_name(other),
            }),
        }
    }
}

/// A Tiled custom property the plugin cannot use; it is ignored, with a logged warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TiledPropertyError {
    /// The property has a type the plugin does not read (a string `blocked`, say).
    WrongType {
        /// The property's name.
        property: String,
        /// The type(s) the plugin reads.
        expected: &'static str,
        /// The property's type in Tiled.
        found: &'static str,
    },
    /// An int terrain property outside the range of [`TerrainId`] (`0..=255`).
    TerrainOutOfRange(i32),
    /// A string terrain property that [`TiledProperties::terrain_names`] does not list.
    UnknownTerrain(String),
}

impl std::fmt::Display for TiledPropertyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TiledPropertyError::WrongType {
                property,
                expected,
                found,
            } => write!(
                f,
                "property `{property}` is a {found}, expected a {expected}: ignored"
            ),
            TiledPropertyError::TerrainOutOfRange(value) => write!(
                f,
                "terrain {value} is not a terrain id (0 to {}): ignored",
                TerrainId::MAX
            ),
            TiledPropertyError::UnknownTerrain(name) => write!(
                f,
                "terrain name `{name}` is not in TiledProperties::terrain_names: ignored"
            ),
        }
    }
}

impl std::error::Error for TiledPropertyError {}

/// The bool property `name` (`false` when absent).
fn flag(properties: &tiled::Properties, name: &str) -> Result<bool, TiledPropertyError> {
    match properties.get(name) {
        None => Ok(false),
        Some(tiled::PropertyValue::BoolValue(value)) => Ok(*value),
        Some(other) => Err(TiledPropertyError::WrongType {
            property: name.to_owned(),
            expected: "bool",
            found: type_name(other),
        }),
    }
}

/// The Tiled name of a property's type.
fn type_name(value: &tiled::PropertyValue) -> &'static str {
    match value {
        tiled::PropertyValue::BoolValue(_) => "bool",
        tiled::PropertyValue::FloatValue(_) => "float",
        tiled::PropertyValue::IntValue(_) => "int",
        tiled::PropertyValue::ColorValue(_) => "color",
        tiled::PropertyValue::StringValue(_) => "string",
        tiled::PropertyValue::FileValue(_) => "file",
        tiled::PropertyValue::ObjectValue(_) => "object",
        tiled::PropertyValue::ListValue(_) => "list",
        tiled::PropertyValue::ClassValue { .. } => "class",
    }
}

/// What one Tiled tile says: blocks, terrain.
type TileRule = (bool, Option<TerrainId>);

/// Reads the rule of Tiled tile `id` of `tileset`, logging the properties it cannot use.
fn tile_rule(settings: &TiledProperties, tileset: &tiled::Tileset, id: tiled::TileId) -> TileRule {
    let Some(tile) = tileset.get_tile(id) else {
        return (false, None);
    };
    let warn_about = |error: TiledPropertyError| {
        warn!("Tiled tile {id} of tileset `{}`: {error}", tileset.name);
    };
    let blocks = settings.blocks(&tile.properties).unwrap_or_else(|error| {
        warn_about(error);
        false
    });
    let terrain = settings.terrain(&tile.properties).unwrap_or_else(|error| {
        warn_about(error);
        None
    });
    (blocks, terrain)
}

/// The map type bevy_ecs_tiled gives `map`, or `None` for the orientations it cannot
/// load (its helper panics on those).
pub(super) fn map_type(map: &tiled::Map) -> Option<TilemapType> {
    match map.orientation {
        tiled::Orientation::Staggered | tiled::Orientation::Oblique => None,
        _ => Some(tilemap_type_from_map(map)),
    }
}

/// The tilemaps bevy_ecs_tiled spawned since the last run.
type NewTilemap = (
    Entity,
    &'static TiledTilesetId,
    &'static TiledMapReference,
    Option<&'static ChildOf>,
    Option<&'static Children>,
    Has<CollisionLayer>,
    Has<TileStorage>,
);

/// Applies the Tiled properties of the tilemaps (and their tiles) that bevy_ecs_tiled
/// spawned since the last run: [`CollisionLayer`] on collision layers, [`BlocksPath`] and
/// [`Terrain`] on tiles; and gives headless tilemaps the components the sync reads.
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_tiled_properties(
    _main: MainThread,
    mut commands: Commands,
    settings: Res<TiledProperties>,
    assets: Option<Res<Assets<TiledMapAsset>>>,
    tilemaps: Query<NewTilemap, Added<TiledTilemap>>,
    roots: Query<(&TiledMap, Option<&TilemapAnchor>)>,
    layer_ids: Query<&TiledLayerId>,
    tiles: Query<(&TiledTileId, &TilePos), With<TiledTile>>,
    mut rules: Local<HashMap<tiled::TileId, TileRule>>,
) {
    let Some(assets) = assets else {
        return;
    };
    let mut blocking = Vec::new();
    let mut terrains = Vec::new();
    for (tilemap, tileset_id, map_ref, parent, children, is_collision, has_storage) in &tilemaps {
        let Some((root, anchor)) = roots.get(map_ref.0).ok() else {
            continue;
        };
        let Some(asset) = assets.get(&root.0) else {
            warn!("Tiled tilemap {tilemap}: its map asset is not loaded; properties not read");
            continue;
        };
        let Some(tileset) = get_tileset_from_map(&asset.map, tileset_id.0) else {
            warn!(
                "Tiled tilemap {tilemap}: no tileset {}; properties not read",
                tileset_id.0
            );
            continue;
        };

        // The layer's collision property.
        let layer = parent
            .and_then(|p| layer_ids.get(p.parent()).ok())
            .and_then(|id| get_layer_from_map(&asset.map, id.0));
        if let Some(layer) = layer
            && !is_collision
        {
            match settings.is_collision_layer(&layer.properties) {
                Ok(true) => {
                    commands
                        .entity(tilemap)
                        .try_insert(CollisionLayer::default());
                }
                Ok(false) => {}
                Err(error) => warn!("Tiled layer `{}`: {error}", layer.name),
            }
        }

        // The tiles' properties, read once per Tiled tile.
        rules.clear();
        let tile_entities = children.map(|c| &c[..]).unwrap_or_default();
        let mut storage = (!has_storage).then(|| TileStorage::empty(asset.tilemap_size));
        for &tile in tile_entities {
            let Ok((id, pos)) = tiles.get(tile) else {
                continue;
            };
            let (blocks, terrain) = *rules
                .entry(id.0)
                .or_insert_with(|| tile_rule(&settings, tileset, id.0));
            if blocks {
                blocking.push((tile, BlocksPath));
            }
            if let Some(terrain) = terrain {
                terrains.push((tile, Terrain(terrain)));
            }
            if let Some(storage) = storage.as_mut() {
                storage.checked_set(pos, tile);
            }
        }

        // A headless tilemap (bevy_ecs_tiled without `render`): what `TilemapBundle` holds.
        if let Some(storage) = storage {
            let Some(map_type) = map_type(&asset.map) else {
                warn!("Tiled tilemap {tilemap}: the map's orientation is not supported");
                continue;
            };
            commands.entity(tilemap).try_insert((
                storage,
                asset.tilemap_size,
                grid_size_from_map(&asset.map),
                TilemapTileSize::new(tileset.tile_width as f32, tileset.tile_height as f32),
                map_type,
                anchor.copied().unwrap_or_default(),
                Transform::from_xyz(tileset.offset_x as f32, -tileset.offset_y as f32, 0.0),
            ));
        }
    }
    if !blocking.is_empty() {
        commands.try_insert_batch(blocking);
    }
    if !terrains.is_empty() {
        commands.try_insert_batch(terrains);
    }
}
