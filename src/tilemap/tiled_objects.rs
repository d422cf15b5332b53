//! Tiled objects with `blocked` or `terrain` properties act on the collision-layer tiles under them.

use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;
use bevy_ecs_tiled::prelude::geo::{self, BoundingRect, Intersects};
use bevy_ecs_tiled::prelude::{
    TiledMap, TiledMapAsset, TiledMapReference, TiledObject, TiledObjectId, tiled,
};
use bevy_ecs_tilemap::anchor::TilemapAnchor;
use bevy_ecs_tilemap::map::{
    TilemapGridSize, TilemapId, TilemapSize, TilemapTileSize, TilemapType,
};
use bevy_ecs_tilemap::tiles::{TilePos, TileStorage};

use crate::scenario::TerrainId;

use super::tiled::{TiledProperties, map_type};
use super::{BlocksPath, CollisionLayer, Terrain};
use crate::main_thread::MainThread;

/// A tile entity the plugin spawned into a collision layer where the layer had no tile
/// and a Tiled object blocks or has terrain. Despawned with its tilemap (its parent).
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct TiledObjectTile;

/// Where an object lies, in world space.
enum Shape {
    /// A point object: it covers the tile it is in.
    Point(Vec2),
    /// Any other object with an area: its outline, and the outline's bounding box.
    Area {
        outline: geo::Polygon<f32>,
        bounds: geo::Rect<f32>,
    },
}

impl Shape {
    /// The shape of `object` (world transform `global`) as bevy_ecs_tiled places it,
    /// or `None` when it has no area (polylines, texts) or no finite outline.
    fn of(asset: &TiledMapAsset, object: &TiledObject, global: &GlobalTransform) -> Option<Self> {
        match object {
            TiledObject::Point => {
                let at = global.translation().truncate();
                at.is_finite().then_some(Shape::Point(at))
            }
            TiledObject::Polyline { .. } | TiledObject::Text { .. } => None,
            _ => {
                let vertices = asset.object_vertices(object, global);
                if vertices.len() < 3
                    || vertices
                        .iter()
                        .any(|v| !v.x.is_finite() || !v.y.is_finite())
                {
                    return None;
                }
                let outline = geo::Polygon::new(geo::LineString::from(vertices), Vec::new());
                let bounds = outline.bounding_rect()?;
                Some(Shape::Area { outline, bounds })
            }
        }
    }
}

/// One object that blocks or has terrain.
struct ObjectRule {
    /// Its world `z` (bevy_ecs_tiled stacks layers, and objects within a layer, by `z`).
    z: f32,
    entity: Entity,
    shape: Shape,
    blocks: bool,
    terrain: Option<TerrainId>,
}

/// What places a collision layer's tiles in the world (as the collision sync does).
struct LayerGeometry {
    map_size: TilemapSize,
    grid_size: TilemapGridSize,
    tile_size: TilemapTileSize,
    map_type: TilemapType,
    anchor: TilemapAnchor,
    global: GlobalTransform,
}

impl LayerGeometry {
    /// The world position of the centre of the tile at `pos`.
    fn centre(&self, pos: TilePos) -> Vec2 {
        let local = pos.center_in_world(
            &self.map_size,
            &self.grid_size,
            &self.tile_size,
            &self.map_type,
            &self.anchor,
        );
        self.global.transform_point(local.extend(0.0)).truncate()
    }

    /// The tile position (within `bounds`) whose tile holds the world position `at`.
    fn tile_at(&self, at: Vec2, bounds: &TilemapSize) -> Option<TilePos> {
        let local = self
            .global
            .affine()
            .inverse()
            .transform_point3(at.extend(0.0))
            .truncate();
        if !local.is_finite() {
            return None;
        }
        TilePos::from_world_pos(
            &local,
            &self.map_size,
            &self.grid_size,
            &self.tile_size,
            &self.map_type,
            &self.anchor,
        )
        .filter(|pos| pos.within_map_bounds(bounds))
    }

    /// The tile positions (within `bounds`) that `shape` covers.
    fn covered(&self, shape: &Shape, bounds: &TilemapSize, out: &mut Vec<TilePos>) {
        out.clear();
        match shape {
            Shape::Point(at) => out.extend(self.tile_at(*at, bounds)),
            Shape::Area {
                outline,
                bounds: rect,
            } => {
                for y in 0..bounds.y {
                    for x in 0..bounds.x {
                        let pos = TilePos::new(x, y);
                        let c = self.centre(pos);
                        let (min, max) = (rect.min(), rect.max());
                        if c.x < min.x || c.x > max.x || c.y < min.y || c.y > max.y {
                            continue;
                        }
                        if outline.intersects(&geo::Coord { x: c.x, y: c.y }) {
                            out.push(pos);
                        }
                    }
                }
            }
        }
    }
}

/// The objects of `map` by Tiled object id, group layers included.
fn objects_by_id(map: &tiled::Map) -> HashMap<u32, tiled::Object<'_>> {
    fn collect<'a>(
        layers: impl Iterator<Item = tiled::Layer<'a>>,
        out: &mut HashMap<u32, tiled::Object<'a>>,
    ) {
        for layer in layers {
            match layer.layer_type() {
                tiled::LayerType::Objects(objects) => {
                    out.extend(objects.objects().map(|o| (o.id(), o)));
                }
                tiled::LayerType::Group(group) => collect(group.layers(), out),
                _ => {}
            }
        }
    }
    let mut out = HashMap::default();
    collect(map.layers(), &mut out);
    out
}

/// What an object says: blocks, terrain. Its own properties, and for a tile object those
/// of its Tiled tile that the object does not override (Tiled's own inheritance). Logs
/// the properties it cannot use when `warn` holds.
fn object_rule(
    settings: &TiledProperties,
    object: &tiled::Object,
    warn: bool,
) -> (bool, Option<TerrainId>) {
    let mut properties = object
        .get_tile()
        .and_then(|t| t.get_tile())
        .map(|t| t.properties.clone())
        .unwrap_or_default();
    properties.extend(
        object
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    let warn_about = |error: super::TiledPropertyError| {
        if warn {
            warn!("Tiled object {} `{}`: {error}", object.id(), object.name);
        }
    };
    let blocks = settings.blocks(&properties).unwrap_or_else(|error| {
        warn_about(error);
        false
    });
    let terrain = settings.terrain(&properties).unwrap_or_else(|error| {
        warn_about(error);
        None
    });
    (blocks, terrain)
}

/// The collision layers' components this system reads and writes.
type ObjectLayer = (
    Entity,
    &'static TiledMapReference,
    Ref<'static, CollisionLayer>,
    &'static mut TileStorage,
    Option<&'static TilemapSize>,
    Option<&'static TilemapGridSize>,
    Option<&'static TilemapTileSize>,
    Option<&'static TilemapType>,
    Option<&'static TilemapAnchor>,
);

/// Applies the `blocked` and `terrain` properties of Tiled objects to the tiles of their
/// map's collision layers whose centre the object's shape covers: [`BlocksPath`] and
/// [`Terrain`], on a tile spawned for it where the layer has none. Runs for a map when
/// objects are spawned in it (all its collision layers), or for a tilemap of a map when
/// it becomes a collision layer (that layer): either can come first. Runs after
/// [`super::apply_tiled_properties`], so an object's terrain wins over its tile's.
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_tiled_objects(
    _main: MainThread,
    mut commands: Commands,
    settings: Res<TiledProperties>,
    assets: Option<Res<Assets<TiledMapAsset>>>,
    new_objects: Query<(Entity, &TiledMapReference), Added<TiledObject>>,
    objects: Query<(Entity, &TiledObject, &TiledObjectId, &TiledMapReference)>,
    mut layers: Query<ObjectLayer>,
    roots: Query<&TiledMap>,
    transforms: TransformHelper,
    mut warned: Local<HashSet<Entity>>,
) {
    let Some(assets) = assets else {
        return;
    };
    // Maps with new objects: every collision layer gets all their objects again.
    let object_maps: HashSet<Entity> = new_objects.iter().map(|(_, m)| m.0).collect();
    // Tilemaps that became collision layers of a Tiled map (or got their storage): they
    // get all the objects of their map.
    let mut new_layers = HashSet::new();
    let mut maps: Vec<Entity> = object_maps.iter().copied().collect();
    for layer in &mut layers {
        if layer.2.is_added() || layer.3.is_added() {
            new_layers.insert(layer.0);
            maps.push(layer.1.0);
        }
    }
    if maps.is_empty() {
        return;
    }
    maps.sort_unstable();
    maps.dedup();
    warned.retain(|map| roots.contains(*map));
    let fresh: HashSet<Entity> = new_objects.iter().map(|(e, _)| e).collect();

    let mut blocking = Vec::new();
    let mut terrains: HashMap<Entity, TerrainId> = HashMap::default();
    let mut covered = Vec::new();
    for map in maps {
        let Some(asset) = roots.get(map).ok().and_then(|root| assets.get(&root.0)) else {
            continue;
        };
        // bevy_ecs_tiled's object outlines panic on the orientations it cannot load.
        if map_type(&asset.map).is_none() {
            continue;
        }

        // The objects that block or have terrain, bottom first.
        let mut index = None;
        let mut rules = Vec::new();
        for (entity, object, id, map_ref) in &objects {
            if map_ref.0 != map {
                continue;
            }
            let index = index.get_or_insert_with(|| objects_by_id(&asset.map));
            let Some(data) = index.get(&id.0) else {
                continue;
            };
            let warn = fresh.contains(&entity);
            let (blocks, terrain) = object_rule(&settings, data, warn);
            if !blocks && terrain.is_none() {
                continue;
            }
            let Ok(global) = transforms.compute_global_transform(entity) else {
                continue;
            };
            let Some(shape) = Shape::of(asset, object, &global) else {
                if warn {
                    warn!(
                        "Tiled object {} `{}` has no area (a polyline or a text): its \
                         properties are ignored",
                        id.0, data.name
                    );
                }
                continue;
            };
            rules.push(ObjectRule {
                z: global.translation().z,
                entity,
                shape,
                blocks,
                terrain,
            });
        }
        if rules.is_empty() {
            continue;
        }
        rules.sort_by(|a, b| a.z.total_cmp(&b.z).then(a.entity.cmp(&b.entity)));

        let layers_of_map: Vec<Entity> = layers
            .iter()
            .filter(|layer| layer.1.0 == map)
            .map(|layer| layer.0)
            .collect();
        if layers_of_map.is_empty() {
            if warned.insert(map) {
                warn!(
                    "Tiled map {map}: {} objects block or have terrain, but the map has no \
                     collision layer; they act once one of its tilemaps gets a CollisionLayer",
                    rules.len()
                );
            }
            continue;
        }

        let all = object_maps.contains(&map);
        for target in layers_of_map {
            if !all && !new_layers.contains(&target) {
                continue;
            }
            let Ok(global) = transforms.compute_global_transform(target) else {
                continue;
            };
            let Ok((layer, _, _, mut storage, size, grid_size, tile_size, kind, anchor)) =
                layers.get_mut(target)
            else {
                continue;
            };
            let tile_size = tile_size.copied().unwrap_or(TilemapTileSize::new(1.0, 1.0));
            let geometry = LayerGeometry {
                map_size: size.copied().unwrap_or(storage.size),
                grid_size: grid_size.copied().unwrap_or_else(|| tile_size.into()),
                tile_size,
                map_type: kind.copied().unwrap_or_default(),
                anchor: anchor.copied().unwrap_or_default(),
                global,
            };
            let bounds = storage.size;
            for rule in &rules {
                geometry.covered(&rule.shape, &bounds, &mut covered);
                for &pos in &covered {
                    let tile = match storage.checked_get(&pos) {
                        Some(tile) => tile,
                        None => {
                            let tile = commands
                                .spawn((pos, TilemapId(layer), ChildOf(layer), TiledObjectTile))
                                .id();
                            storage.checked_set(&pos, tile);
                            tile
                        }
                    };
                    if rule.blocks {
                        blocking.push((tile, BlocksPath));
                    }
                    if let Some(terrain) = rule.terrain {
                        terrains.insert(tile, terrain);
                    }
                }
            }
        }
    }
    if !blocking.is_empty() {
        commands.try_insert_batch(blocking);
    }
    if !terrains.is_empty() {
        commands.try_insert_batch(
            terrains
                .into_iter()
                .map(|(tile, id)| (tile, Terrain(id)))
                .collect::<Vec<_>>(),
        );
    }
}
