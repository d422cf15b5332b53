//! Isometric maps: two squads (infantry one cell wide, tanks two) cross a river on an
//! isometric tilemap, over roads, grass and forest, around rocks.
//!
//! - `cargo run --example isometric` draws a diamond map; `-- --staggered` a staggered one.
//!   A left click sends both squads to the cursor; every 30 seconds they get a new order.
//! - `-- --step` moves the units from tile to tile (`GridStepper`) instead of steering.
//! - `-- --screenshot PATH` saves a screenshot at frame 240 and exits.
//! - `-- --headless FRAMES` runs without a window for `FRAMES` frames and prints how many
//!   units ever stood in a wall or on terrain their profile forbids (it must be 0) and
//!   how many units had arrived when each next order came; it exits with an error when
//!   a unit stood in a wall.
//!
//! Nothing here is specific to isometric maps but the `TilemapType`: the plugin reads the
//! map type from the collision layer, steers units in the square grid the diamonds are
//! drawn from, and draws its gizmos as diamonds.

use bevy::image::ToExtents;
use bevy::prelude::*;
use bevy::render::render_resource::{TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use bevy_tilepath::scenario::TerrainId;

#[path = "support/headless.rs"]
mod headless;

use headless::{Tally, Walker};

const MAP: TilemapSize = TilemapSize { x: 28, y: 28 };
const GRID: TilemapGridSize = TilemapGridSize { x: 48.0, y: 24.0 };
const ORDER_EVERY: f32 = 30.0;

const GRASS: TerrainId = 0;
const ROAD: TerrainId = 1;
const FOREST: TerrainId = 2;
const WATER: TerrainId = 3;

/// The settings of a run: the isometric map type, from the command line.
type Options = headless::Options<TilemapType>;

/// A unit of a squad: its profile's name and its diameter.
#[derive(Component, Clone, Copy)]
struct Squad {
    profile: &'static str,
    diameter: u32,
}

impl Walker for Squad {
    fn profile(&self) -> &'static str {
        self.profile
    }

    fn diameter(&self) -> u32 {
        self.diameter
    }
}

fn main() -> AppExit {
    let options = Options::from_args(
        TilemapType::Isometric(IsoCoordSystem::Diamond),
        "--staggered",
        TilemapType::Isometric(IsoCoordSystem::Staggered),
    );
    let mut app = headless::app(&options, "bevy_tilepath: isometric");
    if options.headless.is_none() {
        app.add_systems(Update, click_to_move);
    }
    app.add_plugins(TilepathPlugin::default())
        .insert_resource(profiles())
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (give_orders, headless::check_units::<TilemapType, Squad>).chain(),
        );
    app.run()
}

/// Infantry walks grass and forest; tanks are fast on roads, slow on grass, and stay out
/// of forests. Nobody swims.
fn profiles() -> MovementProfiles {
    let base = MovementProfile::new()
        .with_weight(ROAD, 1)
        .with_blocked(WATER);
    MovementProfiles::default()
        .with(
            "infantry",
            base.clone().with_weight(GRASS, 1).with_weight(FOREST, 2),
        )
        .with("tank", base.with_weight(GRASS, 2).with_blocked(FOREST))
}

/// The terrain of tile `(x, y)`, and whether a rock blocks it.
fn tile_at(x: u32, y: u32) -> (TerrainId, bool) {
    let (x, y) = (x as i32, y as i32);
    let river = (x + y / 3 - 14).abs() <= 1;
    let road = (6..=7).contains(&y)
        || (20..=21).contains(&y)
        || ((5..=6).contains(&x) && y >= 6)
        || ((21..=22).contains(&x) && y <= 21);
    let forest =
        ((x - 8).pow(2) + (y - 16).pow(2) < 12) || ((x - 19).pow(2) + (y - 10).pow(2) < 10);
    let camp = x <= 12 && y <= 13;
    let rock = (x * 7 + y * 13) % 29 == 0 && !road && !river && !camp;
    let terrain = match () {
        _ if road => ROAD,
        _ if river => WATER,
        _ if forest => FOREST,
        _ => GRASS,
    };
    (terrain, rock)
}

fn color_of(terrain: TerrainId, rock: bool) -> Color {
    match (terrain, rock) {
        (_, true) => Color::srgb(0.35, 0.32, 0.3),
        (ROAD, _) => Color::srgb(0.72, 0.64, 0.48),
        (WATER, _) => Color::srgb(0.22, 0.42, 0.75),
        (FOREST, _) => Color::srgb(0.16, 0.4, 0.2),
        _ => Color::srgb(0.42, 0.62, 0.34),
    }
}

/// A white diamond as wide and high as a tile, for `TileColor` to tint.
fn diamond_image() -> Image {
    let (w, h) = (GRID.x as u32, GRID.y as u32);
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let dx = (x as f32 + 0.5 - w as f32 / 2.0).abs() / (w as f32 / 2.0);
            let dy = (y as f32 + 0.5 - h as f32 / 2.0).abs() / (h as f32 / 2.0);
            let inside = dx + dy <= 0.97;
            data.extend_from_slice(&[255, 255, 255, if inside { 255 } else { 0 }]);
        }
    }
    Image::new(
        UVec2::new(w, h).to_extents(),
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        default(),
    )
}

fn setup(mut commands: Commands, options: Res<Options>, images: Option<ResMut<Assets<Image>>>) {
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(MAP);
    for (x, y) in (0..MAP.x).flat_map(|x| (0..MAP.y).map(move |y| (x, y))) {
        let (terrain, rock) = tile_at(x, y);
        let position = TilePos { x, y };
        let mut tile = commands.spawn((
            TileBundle {
                position,
                tilemap_id: TilemapId(map),
                color: TileColor(color_of(terrain, rock)),
                ..default()
            },
            Terrain(terrain),
        ));
        tile.insert_if(BlocksPath, || rock);
        storage.set(&position, tile.id());
    }
    let tile_size = TilemapTileSize::new(GRID.x, GRID.y);
    match images {
        Some(mut images) if options.headless.is_none() => {
            commands.entity(map).insert((
                TilemapBundle {
                    size: MAP,
                    storage,
                    grid_size: GRID,
                    tile_size,
                    map_type: options.map,
                    texture: TilemapTexture::Single(images.add(diamond_image())),
                    anchor: TilemapAnchor::Center,
                    ..default()
                },
                CollisionLayer::default(),
            ));
            // A staggered map is a band twice as wide as the diamond one.
            let wide = options.map == TilemapType::Isometric(IsoCoordSystem::Staggered);
            commands.spawn((
                Camera2d,
                Projection::Orthographic(OrthographicProjection {
                    scale: if wide { 1.6 } else { 1.0 },
                    ..OrthographicProjection::default_2d()
                }),
            ));
        }
        _ => {
            commands.entity(map).insert((
                storage,
                MAP,
                GRID,
                tile_size,
                Transform::default(),
                options.map,
                TilemapAnchor::Center,
                CollisionLayer::default(),
            ));
        }
    }

    // Two squads on the west bank.
    let world_of = |x: u32, y: u32| {
        TilePos::new(x, y).center_in_world(
            &MAP,
            &GRID,
            &tile_size,
            &options.map,
            &TilemapAnchor::Center,
        )
    };
    for i in 0..16u32 {
        let tank = i >= 12;
        let (x, y) = if tank {
            (1 + 3 * (i - 12), 2)
        } else {
            (1 + i % 4, 9 + i / 4)
        };
        let squad = if tank {
            Squad {
                profile: "tank",
                diameter: 2,
            }
        } else {
            Squad {
                profile: "infantry",
                diameter: 1,
            }
        };
        let size = if tank { 26.0 } else { 12.0 };
        let color = if tank {
            Color::srgb(0.85, 0.3, 0.25)
        } else {
            Color::srgb(0.95, 0.85, 0.3)
        };
        let mut spawned = commands.spawn((
            Sprite::from_color(color, Vec2::new(size, size * 0.6)),
            Transform::from_translation(world_of(x, y).extend(2.0)),
            Footprint::new(squad.diameter).profile(squad.profile),
            squad,
        ));
        // Speeds are in the steering plane, where a tile is a diamond's edge long.
        let tile = (Vec2::new(GRID.x, GRID.y) * 0.5).length();
        let speed = if tank { 70.0 } else { 45.0 };
        headless::add_mover(&mut spawned, &options, speed, tile);
    }
}

/// The order targets, east and west of the river, in turn.
fn target(map_type: TilemapType, order: usize) -> Vec2 {
    let (x, y) = [(24, 20), (3, 12), (20, 4), (6, 22)][order % 4];
    TilePos::new(x, y).center_in_world(
        &MAP,
        &GRID,
        &TilemapTileSize::new(GRID.x, GRID.y),
        &map_type,
        &TilemapAnchor::Center,
    )
}

fn order(commands: &mut Commands, units: &Query<(Entity, &Squad)>, goal: Vec2) {
    for (entity, squad) in units {
        commands.entity(entity).insert(
            PathRequest::new(goal)
                .profile(squad.profile)
                .diameter(squad.diameter)
                .nearest_goal(true)
                .claim_goal(true),
        );
    }
}

/// Every `ORDER_EVERY` seconds, both squads go to the next target.
fn give_orders(
    mut commands: Commands,
    time: Res<Time>,
    options: Res<Options>,
    mut tally: ResMut<Tally>,
    units: Query<(Entity, &Squad)>,
) {
    if let Some(due) = tally.order_due(time.elapsed_secs(), ORDER_EVERY) {
        order(&mut commands, &units, target(options.map, due - 1));
    }
}

/// A left click sends both squads to the cursor.
fn click_to_move(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    units: Query<(Entity, &Squad)>,
) {
    let (camera, camera_transform) = *camera;
    if buttons.just_pressed(MouseButton::Left)
        && let Some(cursor) = window.cursor_position()
        && let Ok(goal) = camera.viewport_to_world_2d(camera_transform, cursor)
    {
        order(&mut commands, &units, goal);
    }
}
