//! The `tiled` feature, headless: a hand-written .tmx loaded by bevy_ecs_tiled becomes the
//! `NavGrid` its custom properties describe, and paths go around its blocked tiles.
#![cfg(feature = "tiled")]

use std::time::{Duration, Instant};

use bevy::app::{SubApp, TaskPoolOptions, TaskPoolPlugin};
use bevy::asset::AssetPlugin;
use bevy::image::{CompressedImageFormats, ImageLoader, ImagePlugin};
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy_ecs_tiled::prelude::{
    RespawnTiledMap, TiledFilter, TiledMap, TiledPlugin, TiledPluginConfig, tiled,
};
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::*;

/// The map, under `tests/assets` (the asset root of these tests).
const MAP: &str = "tiled/walled_yard.tmx";

/// What the map's collision layer says, drawn as in Tiled (top row first, so the top row
/// is cell row 5): `#` blocked, `m` mud (terrain 2, by name), `r` road (terrain 3, an int
/// property), `.` free with terrain 0. The sign in the top row (`blocked="yes"`, a
/// string) and the lava at the bottom (an unknown terrain name) are ignored with a
/// warning; the decoration layer's walls (no `collision` property) do not block.
const EXPECTED: &str = "
    ........
    .######.
    .mmrrm#.
    .rrrrr#.
    #######.
    ........
";

/// Terrain ids of the letters of [`EXPECTED`].
fn terrain_of(c: char) -> TerrainId {
    match c {
        'm' => 2,
        'r' => 3,
        _ => 0,
    }
}

/// [`EXPECTED`] as `(cell, letter)`, row 5 first.
fn expected_cells() -> Vec<(Cell, char)> {
    cells_of(EXPECTED)
}

/// A drawing like [`EXPECTED`] as `(cell, letter)`, top row first.
fn cells_of(picture: &str) -> Vec<(Cell, char)> {
    let rows: Vec<&str> = picture
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let height = rows.len() as i32;
    let mut cells = Vec::new();
    for (row, line) in rows.iter().enumerate() {
        for (x, c) in line.chars().enumerate() {
            cells.push((Cell::new(x as i32, height - 1 - row as i32), c));
        }
    }
    cells
}

/// A headless app with bevy_ecs_tiled and the plugin.
///
/// bevy_ecs_tiled's `TiledPlugin` adds bevy_ecs_tilemap's `TilemapPlugin`, whose `build`
/// calls `app.sub_app_mut(RenderApp)` when bevy_ecs_tilemap's `render` feature is on (it
/// is, in test builds: the RTS example renders). That panics without a render sub-app, and
/// bevy's `RenderPlugin` creates none without a GPU backend (`WgpuSettings { backends:
/// None, .. }` skips its `ExtractPlugin`). So an empty `RenderApp` sub-app stands in while
/// `TiledPlugin` builds, and is removed before anything runs: the renderers' `finish`
/// steps (never called here: the test calls `update`, not `run`) and the render systems
/// find no sub-app and skip their work. The asset side is real: `AssetPlugin` reads the
/// map from `tests/assets`, and `ImagePlugin` only pre-registers the image loader (bevy's
/// render `TexturePlugin` registers it once it knows the GPU's compressed formats), so the
/// test registers one without compressed formats, or the tile images (the map's
/// dependencies) would never load.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(4),
        }),
        AssetPlugin {
            file_path: "tests/assets".into(),
            ..default()
        },
        ImagePlugin::default(),
    ));
    app.register_asset_loader(ImageLoader::new(CompressedImageFormats::empty()));
    app.insert_sub_app(RenderApp, SubApp::new());
    app.add_plugins(TiledPlugin(TiledPluginConfig {
        tiled_types_export_file: None,
        tiled_types_filter: TiledFilter::None,
    }));
    app.remove_sub_app(RenderApp);
    app.add_plugins(TilepathPlugin::default());
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Time(Duration::MAX),
        ..default()
    });
    app.insert_resource(TiledProperties::default().with_terrain_name("mud", 2));
    app
}

/// Updates `app` until `done` holds; loading runs on other threads, so this waits for it.
/// The ten-minute bound is no speed check (the files are a few hundred bytes): it turns a
/// load that never ends into a failure instead of a hung CI run.
fn update_until(app: &mut App, what: &str, done: impl Fn(&World) -> bool) {
    let start = Instant::now();
    while !done(app.world()) {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "timed out waiting for {what}"
        );
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The one collision layer, if there is exactly one.
fn collision_layer(world: &World) -> Option<Entity> {
    let mut layers = world.try_query_filtered::<Entity, With<CollisionLayer>>()?;
    layers.single(world).ok()
}

/// Respawns the map (`RespawnTiledMap`) and waits until a new collision layer and the
/// grid are there: bevy_ecs_tiled despawns the layers and spawns new ones, which get
/// their `CollisionLayer` and their tiles' properties again.
fn respawn(app: &mut App) {
    let old_layer = collision_layer(app.world()).expect("one collision layer");
    let map = app
        .world_mut()
        .query_filtered::<Entity, With<TiledMap>>()
        .single(app.world())
        .expect("one map");
    app.world_mut().entity_mut(map).insert(RespawnTiledMap);
    update_until(app, "the respawn", |world| {
        collision_layer(world).is_some_and(|l| l != old_layer)
            && world.contains_resource::<NavGrid>()
    });
}

/// Spawns the map and waits until the plugin has built the grid from it.
/// The path a unit standing on `start` gets when it asks for `goal` (panics without one).
fn path_between(app: &mut App, start: Cell, goal: Cell) -> FoundPath {
    let at = app.world().resource::<NavGrid>().cell_to_world(start);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            PathRequest::new(goal),
        ))
        .id();
    update_until(app, "the path", |world| {
        world
            .get::<PathResult>(unit)
            .is_some_and(|r| !r.is_pending())
    });
    let result = app.world().get::<PathResult>(unit).expect("a result");
    result
        .found()
        .cloned()
        .unwrap_or_else(|| panic!("no path: {result:?}"))
}

fn loaded_app() -> App {
    load(MAP)
}

/// Spawns the map `path` and waits until the plugin has built the grid from it.
fn load(path: &'static str) -> App {
    let mut app = app();
    let handle = app.world().resource::<AssetServer>().load(path);
    app.world_mut().spawn(TiledMap(handle));
    update_until(&mut app, "the NavGrid", |world| {
        world.get_resource::<NavGrid>().is_some()
    });
    app
}

/// The blocked cells and terrains of the grid, as `(cell, letter)` like [`expected_cells`].
fn grid_cells(grid: &NavGrid) -> Vec<(Cell, char)> {
    grid_cells_like(grid, EXPECTED)
}

/// The blocked cells and terrains of the grid on the cells of `picture`, as
/// `(cell, letter)` like [`cells_of`].
fn grid_cells_like(grid: &NavGrid, picture: &str) -> Vec<(Cell, char)> {
    cells_of(picture)
        .into_iter()
        .map(|(cell, _)| {
            let letter = if grid.is_blocked(cell, 1) {
                '#'
            } else {
                match grid.terrain(cell) {
                    0 => '.',
                    2 => 'm',
                    3 => 'r',
                    _ => '?',
                }
            };
            (cell, letter)
        })
        .collect()
}

#[test]
fn the_drawing_matches_the_tmx_read_with_the_tiled_crate() {
    // The expectation, read from the .tmx without bevy: the `collision` layer's tiles, by
    // Tiled tile id.
    let map = tiled::Loader::new()
        .load_tmx_map(format!("tests/assets/{MAP}"))
        .expect("the test map loads");
    let ground = map
        .layers()
        .find(|l| l.properties.get("collision") == Some(&tiled::PropertyValue::BoolValue(true)))
        .and_then(|l| l.as_tile_layer())
        .expect("a collision layer");
    let mut drawn = String::new();
    for row in 0..map.height as i32 {
        for x in 0..map.width as i32 {
            let tile = ground.get_tile(x, row).and_then(|t| t.get_tile());
            let props = tile.map(|t| t.properties.clone()).unwrap_or_default();
            let letter = match (props.get("blocked"), props.get("terrain")) {
                (Some(tiled::PropertyValue::BoolValue(true)), _) => '#',
                (_, Some(tiled::PropertyValue::StringValue(name))) if name == "mud" => 'm',
                (_, Some(tiled::PropertyValue::IntValue(3))) => 'r',
                _ => '.',
            };
            drawn.push(letter);
        }
        drawn.push('\n');
    }
    let expected: String = EXPECTED
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(drawn, expected);
}

#[test]
fn tile_properties_become_obstacles_terrain_and_a_collision_layer() {
    let mut app = loaded_app();
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(grid.size(), GridSize::new(8, 6));
    assert_eq!(
        grid_cells(grid),
        expected_cells(),
        "the grid differs from {EXPECTED}"
    );
    for (cell, letter) in expected_cells() {
        if letter != '#' {
            assert_eq!(
                grid.terrain(cell),
                terrain_of(letter),
                "terrain of {cell:?}"
            );
        }
    }

    // The ground layer's tilemap got its CollisionLayer from the layer property; the
    // decoration layer's did not.
    let layers = app
        .world_mut()
        .query_filtered::<(), With<CollisionLayer>>()
        .iter(app.world())
        .count();
    assert_eq!(layers, 1);
}

#[test]
fn a_path_goes_around_the_blocked_tiles() {
    let mut app = loaded_app();
    let goal = Cell::new(3, 2);
    let path = path_between(&mut app, Cell::new(0, 0), goal);
    assert_eq!(path.cells.first(), Some(&Cell::new(0, 0)));
    assert_eq!(path.cells.last(), Some(&goal));
    let blocked: Vec<Cell> = expected_cells()
        .into_iter()
        .filter(|&(_, c)| c == '#')
        .map(|(cell, _)| cell)
        .collect();
    for cell in &path.cells {
        assert!(
            !blocked.contains(cell),
            "the path crosses the wall at {cell:?}"
        );
    }
    // The yard is open only on its left, and the wall row below it only at x = 7: the
    // path goes right along the bottom, up the right column, left along the top row
    // (over the sign, which does not block) and down the left column.
    assert!(path.cells.iter().any(|c| c.x == 7), "{:?}", path.cells);
    assert!(path.cells.iter().any(|c| c.y == 5), "{:?}", path.cells);
}

#[test]
fn a_respawned_map_gives_the_same_grid() {
    let mut app = loaded_app();
    respawn(&mut app);
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(
        grid_cells(grid),
        expected_cells(),
        "the grid differs from {EXPECTED}"
    );
}

/// The objects map: a collision layer of floor tiles (with four holes and two road tiles)
/// under an object layer.
const OBJECTS_MAP: &str = "tiled/object_walls.tmx";

/// What [`OBJECTS_MAP`] makes of the grid, drawn like [`EXPECTED`] (Tiled's row `r` is
/// cell row `5 - r`; tile `(c, r)` has its centre at Tiled pixel `(16 c + 8, 16 r + 8)`).
/// Derived by hand from the object coordinates (the .tmx comments give the arithmetic):
///
/// - `wall`, a `blocked` rectangle x 32..48, y 0..64: column 2, rows 0 to 3;
/// - `rubble`, a `blocked` triangle (64, 32), (108, 32), (64, 76): (4, 2), (4, 3), (5, 2);
/// - `pond`, a `blocked` circle of radius 20 around (104, 40): (6, 2) and the four tiles
///   next to it, not the diagonal ones;
/// - `post`, a `blocked` point at (5, 70): (0, 4);
/// - `crate`, a tile object of the `blocked` wall tile, x 0..16, y 32..48: (0, 2);
/// - `mud` (terrain by name), x 96..128, y 64..96: columns 6, 7, rows 4, 5 (over a road
///   tile at (6, 4): the object wins);
/// - `road` (terrain 3, an int), x 0..48, y 80..96: columns 0 to 2, row 5; the road tile
///   at (4, 5) is the ground layer's own;
/// - `label` (no properties) and `sign` (a string `blocked`: a warning) change nothing.
///
/// The ground layer has no tile at (6, 1), (4, 2), (5, 2) and (7, 5): the objects there
/// act all the same.
const EXPECTED_OBJECTS: &str = "
    ..#.....
    ..#...#.
    #.#.####
    ..#.#.#.
    #.....mm
    rrr.r.mm
";

/// Checks the grid of `app` against [`EXPECTED_OBJECTS`], terrain ids included.
fn assert_object_grid(app: &App) {
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(grid.size(), GridSize::new(8, 6));
    assert_eq!(
        grid_cells_like(grid, EXPECTED_OBJECTS),
        cells_of(EXPECTED_OBJECTS),
        "the grid differs from {EXPECTED_OBJECTS}"
    );
    for (cell, letter) in cells_of(EXPECTED_OBJECTS) {
        if letter != '#' {
            assert_eq!(
                grid.terrain(cell),
                terrain_of(letter),
                "terrain of {cell:?}"
            );
        }
    }
}

#[test]
fn objects_block_and_give_terrain_to_the_cells_they_cover() {
    let mut app = load(OBJECTS_MAP);
    assert_object_grid(&app);

    // Where the ground layer had no tile, the plugin spawned one into its storage.
    let storage = app
        .world_mut()
        .query_filtered::<&bevy_ecs_tilemap::tiles::TileStorage, With<CollisionLayer>>()
        .single(app.world())
        .expect("one collision layer");
    for (x, y) in [(6, 4), (4, 3), (5, 3), (7, 0)] {
        let pos = bevy_ecs_tilemap::tiles::TilePos::new(x, y);
        assert!(storage.get(&pos).is_some(), "no tile at {pos:?}");
    }
}

#[test]
fn a_path_goes_around_the_object_walls() {
    let mut app = load(OBJECTS_MAP);
    // Tiled tile (0, 0) to (3, 0): the `wall` rectangle (column 2, rows 0 to 3) is in
    // between, so the path goes down to row 4 or 5 (cell row 1 or 0) to pass it.
    let goal = Cell::new(3, 5);
    let path = path_between(&mut app, Cell::new(0, 5), goal);
    assert_eq!(path.cells.first(), Some(&Cell::new(0, 5)));
    assert_eq!(path.cells.last(), Some(&goal));
    for &(cell, letter) in &cells_of(EXPECTED_OBJECTS) {
        assert!(
            letter != '#' || !path.cells.contains(&cell),
            "the path crosses the object wall at {cell:?}: {:?}",
            path.cells
        );
    }
    assert!(
        path.cells.iter().any(|c| c.x == 2 && c.y <= 1),
        "the path does not pass below the wall: {:?}",
        path.cells
    );
}

#[test]
fn objects_act_once_their_map_gets_a_collision_layer() {
    // No layer property names a collision layer: the objects are spawned first, and
    // wait (with a warning) until a CollisionLayer is inserted by hand.
    let mut app = app();
    app.world_mut()
        .resource_mut::<TiledProperties>()
        .collision_layer = "none".into();
    let handle = app.world().resource::<AssetServer>().load(OBJECTS_MAP);
    app.world_mut().spawn(TiledMap(handle));
    let ground = |world: &mut World| {
        world
            .query_filtered::<Entity, (
                With<bevy_ecs_tiled::prelude::TiledTilemap>,
                With<bevy_ecs_tilemap::tiles::TileStorage>,
            )>()
            .single(world)
            .ok()
    };
    update_until(&mut app, "the objects and the tilemap", |world| {
        world
            .try_query::<&bevy_ecs_tiled::prelude::TiledObject>()
            .is_some_and(|mut q| q.iter(world).count() == 9)
            && world
                .try_query_filtered::<(), (
                    With<bevy_ecs_tiled::prelude::TiledTilemap>,
                    With<bevy_ecs_tilemap::tiles::TileStorage>,
                )>()
                .is_some_and(|mut q| q.iter(world).count() == 1)
    });
    for _ in 0..3 {
        app.update();
    }
    assert!(!app.world().contains_resource::<NavGrid>());

    let tilemap = ground(app.world_mut()).expect("the ground tilemap");
    app.world_mut()
        .entity_mut(tilemap)
        .insert(CollisionLayer::default());
    update_until(&mut app, "the NavGrid", |world| {
        world.get_resource::<NavGrid>().is_some()
    });
    assert_object_grid(&app);
}

#[test]
fn a_respawned_object_map_gives_the_same_grid() {
    let mut app = load(OBJECTS_MAP);
    // The objects (and the tiles the plugin spawned for them) go too, and the new
    // objects act on the new collision layer.
    respawn(&mut app);
    assert_object_grid(&app);
}
