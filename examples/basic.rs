//! The smallest bevy_tilepath program: left click on the tilemap and the unit walks there.
//!
//! Run it with `cargo run --example basic`. With `TILEPATH_SCREENSHOT=PATH` set, it saves
//! a screenshot to `PATH` at frame 90, while the unit walks its first order, and exits.

use bevy::diagnostic::FrameCount;
use bevy::image::ToExtents;
use bevy::prelude::*;
use bevy::render::render_resource::{TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;

#[path = "support/screenshot.rs"]
mod screenshot;

const MAP: TilemapSize = TilemapSize { x: 32, y: 20 };
const CHECKER: TileColor = TileColor(Color::srgb(0.42, 0.61, 0.37));
const WALL: TileColor = TileColor(Color::srgb(0.3, 0.25, 0.25));

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                resolution: (640, 400).into(),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((TilemapPlugin, TilepathPlugin::default()))
        .add_plugins(TilepathDebugPlugin) // draws the unit's path and the walls
        .add_systems(Startup, setup)
        .add_systems(Update, (click_to_move, screenshot))
        .run();
}

fn setup(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    // Tile (x, y) is centred on (16 x, 16 y): the camera looks at the map's centre.
    commands.spawn((Camera2d, Transform::from_xyz(248.0, 152.0, 0.0)));

    // Every tile is a white square tinted by its `TileColor`; walls carry `BlocksPath`.
    let white = Image::new_fill(
        UVec2::splat(16).to_extents(),
        TextureDimension::D2,
        &[255; 4],
        TextureFormat::Rgba8UnormSrgb,
        default(),
    );
    let tilemap_id = TilemapId(commands.spawn_empty().id());
    let floor = TileBundle {
        tilemap_id,
        color: TileColor(Color::srgb(0.45, 0.65, 0.4)),
        ..default()
    };
    let mut storage = TileStorage::empty(MAP);
    for (x, y) in (0..MAP.x).flat_map(|x| (0..MAP.y).map(move |y| (x, y))) {
        let position = TilePos { x, y };
        let wall = (x == 10 && y < 14) || (x == 21 && y > 5) || (y == 9 && (14..19).contains(&x));
        let mut tile = commands.spawn(TileBundle { position, ..floor });
        tile.insert_if(CHECKER, || (x + y) % 2 == 0);
        tile.insert_if((BlocksPath, WALL), || wall);
        storage.set(&position, tile.id());
    }
    commands.entity(tilemap_id.0).insert((
        TilemapBundle {
            size: MAP,
            storage,
            texture: TilemapTexture::Single(images.add(white)),
            tile_size: TilemapTileSize::new(16.0, 16.0),
            grid_size: TilemapGridSize::new(16.0, 16.0),
            ..default()
        },
        CollisionLayer::default(),
    ));
    // The unit, on tile (3, 4), first sent to tile (28, 16).
    commands.spawn((
        Sprite::from_color(Color::srgb(0.2, 0.5, 1.0), Vec2::splat(12.0)),
        Transform::from_xyz(48.0, 64.0, 1.0),
        Steering::with_speed(96.0),
        PathRequest::new(Vec2::new(448.0, 256.0)),
    ));
}

/// A left click sends the unit to the cursor.
fn click_to_move(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut request: Single<&mut PathRequest>,
) {
    let (camera, camera_transform) = *camera;
    if buttons.just_pressed(MouseButton::Left)
        && let Some(cursor) = window.cursor_position()
        && let Ok(goal) = camera.viewport_to_world_2d(camera_transform, cursor)
    {
        **request = PathRequest::new(goal);
    }
}

/// With `TILEPATH_SCREENSHOT=PATH` set, saves a screenshot at frame 90 and exits.
fn screenshot(mut commands: Commands, frame: Res<FrameCount>) {
    if frame.0 == 90
        && let Some(path) = std::env::var_os("TILEPATH_SCREENSHOT")
    {
        screenshot::save_screenshot_and_exit(&mut commands, path.into());
    }
}
