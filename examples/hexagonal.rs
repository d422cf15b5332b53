//! A hexagonal wargame map: two armies of infantry (one tile) and armour (a tile and its
//! six neighbours) cross a river at its fords and bridges, over roads, plains, forest and
//! hills, and trade places every 30 seconds.
//!
//! - `cargo run --example hexagonal` draws a pointy-top map (`HexCoordSystem::RowOdd`);
//!   `-- --columns` a flat-top one (`ColumnEven`). A left click sends the blue army to
//!   the cursor.
//! - `-- --step` moves the units from tile to tile (`GridStepper`) instead of steering.
//! - `-- --screenshot PATH` saves a screenshot at frame 240 and exits.
//! - `-- --headless FRAMES` runs without a window for `FRAMES` frames and prints how many
//!   unit-frames a unit stood where its footprint may not (it must be 0) and how many
//!   units had arrived when each next order came; it exits with an error when a unit
//!   stood in a wall.
//!
//! Nothing here is specific to hexagons but the `TilemapType`: the plugin reads it from
//! the collision layer and lays the `NavGrid` out as `GridLayout::Hex`.

use bevy::image::ToExtents;
use bevy::prelude::*;
use bevy::render::render_resource::{TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use bevy_tilepath::scenario::TerrainId;

#[path = "support/headless.rs"]
mod headless;

use headless::{Tally, Walker};

const MAP: TilemapSize = TilemapSize { x: 30, y: 20 };
/// A regular hexagon: the flat sides 30 apart, the corners 34.6 apart.
const SHORT: f32 = 30.0;
const LONG: f32 = 34.64;
const ORDER_EVERY: f32 = 30.0;

const PLAINS: TerrainId = 0;
const ROAD: TerrainId = 1;
const FOREST: TerrainId = 2;
const HILLS: TerrainId = 3;
const RIVER: TerrainId = 4;

/// The settings of a run: the hexagonal layout, from the command line.
type Options = headless::Options<HexCoordSystem>;

/// A unit: its side, its profile's name and its diameter.
#[derive(Component, Clone, Copy)]
struct Unit {
    blue: bool,
    profile: &'static str,
    diameter: u32,
}

impl Walker for Unit {
    fn profile(&self) -> &'static str {
        self.profile
    }

    fn diameter(&self) -> u32 {
        self.diameter
    }
}

fn main() -> AppExit {
    let options = Options::from_args(
        HexCoordSystem::RowOdd,
        "--columns",
        HexCoordSystem::ColumnEven,
    );
    let mut app = headless::app(&options, "bevy_tilepath: hexagonal");
    if options.headless.is_none() {
        app.add_systems(Update, click_to_move);
    }
    app.add_plugins(TilepathPlugin::default())
        .insert_resource(profiles())
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (give_orders, headless::check_units::<HexCoordSystem, Unit>).chain(),
        );
    app.run()
}

fn is_row(system: HexCoordSystem) -> bool {
    matches!(
        system,
        HexCoordSystem::Row | HexCoordSystem::RowEven | HexCoordSystem::RowOdd
    )
}

/// bevy_ecs_tilemap's grid size of a regular hexagon of the layout.
fn grid_size(system: HexCoordSystem) -> TilemapGridSize {
    if is_row(system) {
        TilemapGridSize { x: SHORT, y: LONG }
    } else {
        TilemapGridSize { x: LONG, y: SHORT }
    }
}

/// Infantry walks everywhere but the river, slowly through forest and hills; armour is
/// fast on roads and plains, crawls up hills and stays out of forests.
fn profiles() -> MovementProfiles {
    let base = MovementProfile::new().with_blocked(RIVER);
    MovementProfiles::default()
        .with(
            "infantry",
            base.clone()
                .with_weight(PLAINS, 2)
                .with_weight(ROAD, 1)
                .with_weight(FOREST, 4)
                .with_weight(HILLS, 4),
        )
        .with(
            "armour",
            base.with_weight(PLAINS, 2)
                .with_weight(ROAD, 1)
                .with_weight(HILLS, 6)
                .with_blocked(FOREST),
        )
}

/// The terrain of tile `(x, y)`, and whether a village or a cliff blocks it.
fn tile_at(x: u32, y: u32) -> (TerrainId, bool) {
    let (x, y) = (x as i32, y as i32);
    let bend = [
        0, 0, 1, 1, 2, 2, 2, 1, 1, 0, 0, -1, -1, -2, -2, -2, -1, -1, 0, 0,
    ][y as usize];
    let river = x == 14 + bend;
    let crossing = y == 4 || y == 10 || y == 16;
    let road = y == 10 || (x == 5 && y >= 3) || (x == 24 && y <= 16) || y == 4 && x >= 5;
    let forest = (x - 8).pow(2) + (y - 15).pow(2) < 10 || (x - 21).pow(2) + (y - 6).pow(2) < 8;
    let hills = (x - 20).pow(2) + (y - 15).pow(2) < 6 || (x - 9).pow(2) + (y - 5).pow(2) < 5;
    let cliff = (x * 11 + y * 7) % 23 == 0 && !road && !river && x > 2 && x < 27;
    let terrain = match () {
        _ if river && !crossing => RIVER,
        _ if road || river => ROAD,
        _ if forest => FOREST,
        _ if hills => HILLS,
        _ => PLAINS,
    };
    (terrain, cliff)
}

fn color_of(terrain: TerrainId, cliff: bool) -> Color {
    match (terrain, cliff) {
        (_, true) => Color::srgb(0.33, 0.3, 0.28),
        (ROAD, _) => Color::srgb(0.72, 0.64, 0.48),
        (RIVER, _) => Color::srgb(0.22, 0.42, 0.75),
        (FOREST, _) => Color::srgb(0.16, 0.4, 0.2),
        (HILLS, _) => Color::srgb(0.58, 0.52, 0.3),
        _ => Color::srgb(0.42, 0.62, 0.34),
    }
}

/// A white hexagon filling a tile of the layout, for `TileColor` to tint.
fn hexagon_image(system: HexCoordSystem) -> Image {
    let grid = grid_size(system);
    let (w, h) = (grid.x.round() as u32, grid.y.round() as u32);
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let dx = (x as f32 + 0.5 - w as f32 / 2.0).abs();
            let dy = (y as f32 + 0.5 - h as f32 / 2.0).abs();
            // Pointy top: corners at the top and bottom; flat top: at the sides.
            let (across, along, a, b) = if is_row(system) {
                (dx, dy, w as f32, h as f32)
            } else {
                (dy, dx, h as f32, w as f32)
            };
            let inside = across <= a / 2.0 - 0.8 && along <= b / 2.0 - across * b / (2.0 * a) - 0.8;
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
        let (terrain, cliff) = tile_at(x, y);
        let position = TilePos { x, y };
        let mut tile = commands.spawn((
            TileBundle {
                position,
                tilemap_id: TilemapId(map),
                color: TileColor(color_of(terrain, cliff)),
                ..default()
            },
            Terrain(terrain),
        ));
        tile.insert_if(BlocksPath, || cliff);
        storage.set(&position, tile.id());
    }
    let grid = grid_size(options.map);
    let tile_size = TilemapTileSize::new(grid.x, grid.y);
    let map_type = TilemapType::Hexagon(options.map);
    match images {
        Some(mut images) if options.headless.is_none() => {
            commands.entity(map).insert((
                TilemapBundle {
                    size: MAP,
                    storage,
                    grid_size: grid,
                    tile_size,
                    map_type,
                    texture: TilemapTexture::Single(images.add(hexagon_image(options.map))),
                    anchor: TilemapAnchor::Center,
                    ..default()
                },
                CollisionLayer::default(),
            ));
            commands.spawn(Camera2d);
        }
        _ => {
            commands.entity(map).insert((
                storage,
                MAP,
                grid,
                tile_size,
                Transform::default(),
                map_type,
                TilemapAnchor::Center,
                CollisionLayer::default(),
            ));
        }
    }

    // Blue on the west bank, red on the east.
    for i in 0..24u32 {
        let blue = i < 12;
        let k = i % 12;
        let armour = k >= 8;
        let (x, y) = if armour {
            (1, [2, 5, 13, 16][(k - 8) as usize])
        } else {
            (4 + k % 4, 6 + k / 4 * 2)
        };
        let x = if blue { x } else { MAP.x - 1 - x };
        let unit = Unit {
            blue,
            profile: if armour { "armour" } else { "infantry" },
            diameter: if armour { 3 } else { 1 },
        };
        let size = if armour { 30.0 } else { 12.0 };
        let color = match (blue, armour) {
            (true, false) => Color::srgb(0.55, 0.75, 1.0),
            (true, true) => Color::srgb(0.2, 0.35, 0.95),
            (false, false) => Color::srgb(1.0, 0.6, 0.55),
            (false, true) => Color::srgb(0.85, 0.15, 0.15),
        };
        let at = world_of(&options, x, y);
        let mut spawned = commands.spawn((
            Sprite::from_color(color, Vec2::new(size, size * 0.7)),
            Transform::from_translation(at.extend(2.0)),
            unit,
        ));
        let speed = if armour { 90.0 } else { 60.0 };
        headless::add_mover(&mut spawned, &options, speed, SHORT);
    }
}

/// Where tile `(x, y)`'s centre is drawn.
fn world_of(options: &Options, x: u32, y: u32) -> Vec2 {
    let grid = grid_size(options.map);
    TilePos::new(x, y).center_in_world(
        &MAP,
        &grid,
        &TilemapTileSize::new(grid.x, grid.y),
        &TilemapType::Hexagon(options.map),
        &TilemapAnchor::Center,
    )
}

/// Sends one army to `goal`: each unit claims its own tile around it.
fn order(commands: &mut Commands, units: &Query<(Entity, &Unit)>, blue: bool, goal: Vec2) {
    for (entity, unit) in units.iter().filter(|(_, u)| u.blue == blue) {
        commands.entity(entity).insert(
            PathRequest::new(goal)
                .claim_goal(true)
                .profile(unit.profile)
                .diameter(unit.diameter)
                .nearest_goal(true),
        );
    }
}

/// Every `ORDER_EVERY` seconds, the two armies go to each other's side of the river.
fn give_orders(
    mut commands: Commands,
    time: Res<Time>,
    options: Res<Options>,
    mut tally: ResMut<Tally>,
    units: Query<(Entity, &Unit)>,
) {
    if let Some(due) = tally.order_due(time.elapsed_secs(), ORDER_EVERY) {
        let (west, east) = if due % 2 == 1 {
            ((25, 4), (4, 16))
        } else {
            ((3, 10), (26, 10))
        };
        order(
            &mut commands,
            &units,
            true,
            world_of(&options, west.0, west.1),
        );
        order(
            &mut commands,
            &units,
            false,
            world_of(&options, east.0, east.1),
        );
    }
}

/// A left click sends the blue army to the cursor.
fn click_to_move(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    units: Query<(Entity, &Unit)>,
) {
    let (camera, camera_transform) = *camera;
    if buttons.just_pressed(MouseButton::Left)
        && let Some(cursor) = window.cursor_position()
        && let Ok(goal) = camera.viewport_to_world_2d(camera_transform, cursor)
    {
        order(&mut commands, &units, true, goal);
    }
}
