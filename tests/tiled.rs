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
    let rows: Vec<&str> = EXPECTED
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

/// Spawns the map and waits until the plugin has built the grid from it.
fn loaded_app() -> App {
    let mut app = app();
    let handle = app.world().resource::<AssetServer>().load(MAP);
    app.world_mut().spawn(TiledMap(handle));
    update_until(&mut app, "the NavGrid", |world| {
        world.get_resource::<NavGrid>().is_some()
    });
    app
}

/// The blocked cells and terrains of the grid, as `(cell, letter)` like [`expected_cells`].
fn grid_cells(grid: &NavGrid) -> Vec<(Cell, char)> {
    expected_cells()
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
    let grid = app.world().resource::<NavGrid>();
    let start = grid.cell_to_world(Cell::new(0, 0));
    let goal = Cell::new(3, 2);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start.extend(1.0)),
            PathRequest::new(goal),
        ))
        .id();
    update_until(&mut app, "the path", |world| {
        world
            .get::<PathResult>(unit)
            .is_some_and(|r| !r.is_pending())
    });

    let result = app.world().get::<PathResult>(unit).expect("a result");
    let path = result
        .found()
        .unwrap_or_else(|| panic!("no path: {result:?}"));
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
    let collision_layer = |app: &mut App| {
        app.world_mut()
            .query_filtered::<Entity, With<CollisionLayer>>()
            .single(app.world())
            .ok()
    };
    let old_layer = collision_layer(&mut app).expect("one collision layer");
    let map = app
        .world_mut()
        .query_filtered::<Entity, With<TiledMap>>()
        .single(app.world())
        .expect("one map");
    app.world_mut().entity_mut(map).insert(RespawnTiledMap);

    // bevy_ecs_tiled despawns the layers and spawns new ones; the new collision layer
    // gets its CollisionLayer and tiles their properties again.
    let start = Instant::now();
    loop {
        app.update();
        let layer = collision_layer(&mut app);
        if layer.is_some_and(|l| l != old_layer) && app.world().contains_resource::<NavGrid>() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "timed out waiting for the respawn"
        );
    }
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(
        grid_cells(grid),
        expected_cells(),
        "the grid differs from {EXPECTED}"
    );
}
