//! Debug drawing (feature `debug`): on once added, a colour per unit, drawn headless.
#![cfg(feature = "debug")]

use std::any::TypeId;

use bevy::asset::AssetApp;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::gizmos::{GizmoAsset, GizmoHandles};
use bevy::prelude::*;
use bevy_tilepath::components::PathStatus;
use bevy_tilepath::debug::{PathColors, PathDebugColor, TilepathDebugCounts, TilepathGizmos};
use bevy_tilepath::prelude::{Cell, NavGrid, PathRequest, PathResult, TilepathDebugPlugin};

use crate::common::{app, insert_level_grid, spawn_units, world_of};

fn counts(app: &App) -> TilepathDebugCounts {
    *app.world().resource::<TilepathDebugCounts>()
}

/// The test app with the debug plugin and the parts of `GizmoPlugin` the gizmo group
/// needs (no renderer, no camera: `app.update()` leaves each frame's lines in a
/// `GizmoAsset`).
fn debug_app() -> App {
    let mut app = app();
    app.add_plugins(bevy::asset::AssetPlugin::default())
        .init_asset::<GizmoAsset>()
        .add_plugins(TilepathDebugPlugin);
    insert_level_grid(&mut app);
    app
}

/// The line strips of the last frame's drawing, with the colour of each.
fn strips(app: &App) -> Vec<(Vec<Vec2>, LinearRgba)> {
    let handles = app.world().resource::<GizmoHandles>().handles();
    let Some(Some(handle)) = handles.get(&TypeId::of::<TilepathGizmos>()) else {
        return Vec::new();
    };
    let asset = app.world().resource::<Assets<GizmoAsset>>().get(handle);
    let buffer = asset.expect("the drawing's gizmo asset").buffer();
    let mut strips = Vec::new();
    let mut start = 0;
    for (i, p) in buffer.strip_positions.iter().enumerate() {
        if p.is_nan() {
            let points = buffer.strip_positions[start..i]
                .iter()
                .map(|p| p.truncate());
            strips.push((points.collect(), buffer.strip_colors[start]));
            start = i + 1;
        }
    }
    strips
}

/// The colour each unit's path line was drawn in last frame (paths of two or more
/// waypoints), found by its waypoints among the strips.
fn path_colors(app: &mut App) -> Vec<(Entity, LinearRgba)> {
    let strips = strips(app);
    let mut units = app.world_mut().query::<(Entity, &PathResult)>();
    let mut colors: Vec<_> = units
        .iter(app.world())
        .filter_map(|(e, r)| Some((e, r.found()?)))
        .filter(|(_, path)| path.waypoints.len() >= 2)
        .map(|(e, path)| {
            let (_, color) = strips
                .iter()
                .find(|(points, _)| *points == path.waypoints)
                .unwrap_or_else(|| panic!("no line drawn for {e}'s path"));
            (e, *color)
        })
        .collect();
    colors.sort_by_key(|&(e, _)| e);
    colors
}

fn distance(a: LinearRgba, b: LinearRgba) -> f32 {
    (a.to_vec3() - b.to_vec3()).length()
}

#[test]
fn the_debug_plugin_draws_headless_as_soon_as_it_is_added() {
    let mut app = debug_app();
    spawn_units(&mut app, 20, 16, false, false);
    app.update();
    let found = {
        let mut results = app.world_mut().query::<&PathResult>();
        results
            .iter(app.world())
            .filter(|r| r.found().is_some_and(|p| !p.waypoints.is_empty()))
            .count()
    };
    assert!(found > 5);
    let grid = app.world().resource::<NavGrid>();
    let obstacles = grid.scenario().obstacles();
    let size = grid.size();
    let walls = (0..size.height as i32)
        .flat_map(|y| (0..size.width as i32).map(move |x| Cell::new(x, y)))
        .filter(|&c| obstacles.get_or(c, true))
        .count();
    // Nothing enabled by hand: the default group draws paths and obstacles.
    let drawn = counts(&app);
    assert_eq!(drawn.paths, found, "{drawn:?}");
    assert_eq!(drawn.obstacle_cells, walls, "{drawn:?}");
    assert_eq!(drawn.clearance_cells, 0, "clearance is off by default");
    assert_eq!(drawn.waypoints, 0, "waypoint dots are off by default");
    assert!(
        strips(&app).len() >= found + walls,
        "the lines reach the gizmo asset"
    );

    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    let (config, options) = store.config_mut::<TilepathGizmos>();
    assert!(
        config.enabled,
        "debug drawing is on once the plugin is added"
    );
    options.clearance = true;
    options.clearance_diameter = 3;
    options.waypoints = true;
    app.update();
    let drawn = counts(&app);
    assert_eq!(drawn.paths, found, "{drawn:?}");
    assert_eq!(drawn.obstacle_cells, walls);
    assert!(drawn.clearance_cells > 0, "{drawn:?}");
    let waypoints: usize = {
        let mut results = app.world_mut().query::<&PathResult>();
        let paths = results.iter(app.world()).filter_map(PathResult::found);
        paths.map(|p| p.waypoints.len()).sum()
    };
    assert_eq!(drawn.waypoints, waypoints);

    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    store.config_mut::<TilepathGizmos>().0.enabled = false;
    app.update();
    assert_eq!(
        counts(&app),
        TilepathDebugCounts::default(),
        "nothing drawn when off"
    );
    assert!(strips(&app).is_empty(), "no lines when off");
}

#[test]
fn a_group_inserted_before_the_plugin_is_kept() {
    let mut app = app();
    app.add_plugins(bevy::asset::AssetPlugin::default())
        .init_asset::<GizmoAsset>()
        .insert_gizmo_config(
            TilepathGizmos {
                obstacles: false,
                ..default()
            },
            GizmoConfig {
                enabled: false,
                ..default()
            },
        )
        .add_plugins(TilepathDebugPlugin);
    insert_level_grid(&mut app);
    spawn_units(&mut app, 8, 3, false, false);
    app.update();
    assert_eq!(counts(&app), TilepathDebugCounts::default());
    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    store.config_mut::<TilepathGizmos>().0.enabled = true;
    app.update();
    let drawn = counts(&app);
    assert!(drawn.paths > 0, "{drawn:?}");
    assert_eq!(drawn.obstacle_cells, 0, "the app's options are kept");
}

#[test]
fn each_unit_has_its_own_colour_the_same_in_every_frame() {
    let mut app = debug_app();
    spawn_units(&mut app, 20, 16, false, false);
    app.update();
    let first = path_colors(&mut app);
    assert!(first.len() > 5, "{first:?}");
    // Distinct colours, and far apart on the colour wheel for units spawned one after
    // another.
    let mut neighbours = 0;
    for (i, &(a, color_a)) in first.iter().enumerate() {
        let expected = LinearRgba::from(PathColors::PerUnit.color_of(a));
        assert!(distance(color_a, expected) < 1e-5, "{a}: {color_a:?}");
        for &(b, color_b) in &first[i + 1..] {
            assert_ne!(color_a, color_b, "{a} and {b} share a colour");
            if a.index_u32().abs_diff(b.index_u32()) == 1 {
                assert!(distance(color_a, color_b) > 0.5, "{a} {b}");
                neighbours += 1;
            }
        }
    }
    assert!(neighbours > 0, "{first:?}");

    // The same colours in later frames, and after other units leave.
    app.update();
    assert_eq!(path_colors(&mut app), first);
    for &(e, _) in first.iter().step_by(2) {
        app.world_mut().despawn(e);
    }
    app.update();
    let kept: Vec<_> = first.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(path_colors(&mut app), kept);
}

#[test]
fn a_single_colour_and_a_unit_override_are_honoured() {
    let mut app = debug_app();
    spawn_units(&mut app, 20, 16, false, false);
    app.update();
    let blue = Color::srgb(0.1, 0.3, 0.9);
    let white = Color::WHITE;
    let marked = path_colors(&mut app)[0].0;
    app.world_mut()
        .entity_mut(marked)
        .insert(PathDebugColor(white));
    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    store.config_mut::<TilepathGizmos>().1.path_colors = PathColors::Single(blue);
    app.update();
    let colors = path_colors(&mut app);
    assert!(colors.len() > 5, "{colors:?}");
    assert!(colors.iter().any(|&(e, _)| e == marked), "{colors:?}");
    for (e, color) in colors {
        let expected = if e == marked { white } else { blue };
        assert_eq!(color, LinearRgba::from(expected), "{e}");
    }

    // Back to a colour per unit: the override stays, the others differ again.
    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    store.config_mut::<TilepathGizmos>().1.path_colors = PathColors::PerUnit;
    app.update();
    let colors = path_colors(&mut app);
    let marked_color = colors.iter().find(|&&(e, _)| e == marked).unwrap().1;
    assert_eq!(marked_color, LinearRgba::from(white));
    assert!(colors.iter().all(|&(e, c)| e == marked || c != blue.into()));
}

#[test]
fn claimed_goal_cells_are_drawn_in_their_units_colours() {
    let mut app = debug_app();
    let open = NavGrid::from_ascii(
        &format!("{}\n", ".".repeat(12)).repeat(8),
        Vec2::ZERO,
        Vec2::splat(16.0),
    );
    app.insert_resource(open.unwrap());
    // Four units sent to one cell: each claims a cell of its own around it.
    let goal = Cell::new(9, 4);
    let units: Vec<Entity> = (0..4)
        .map(|y| {
            let start = world_of(Cell::new(1, 2 + y));
            let unit = (
                Transform::from_translation(start.extend(1.0)),
                PathRequest::new(goal),
            );
            app.world_mut().spawn(unit).id()
        })
        .collect();
    app.update();
    assert_eq!(counts(&app).claims, 4, "{:?}", counts(&app));
    let colors = path_colors(&mut app);
    let grid = app.world().resource::<NavGrid>();
    let strips = strips(&app);
    for unit in units {
        let claimed = app.world().get::<PathStatus>(unit).unwrap().claimed_cell();
        let claimed = claimed.expect("a claimed cell");
        let centre = grid.agent_center(claimed, 1);
        let color = colors.iter().find(|&&(e, _)| e == unit).unwrap().1;
        // A square's loop starts with its four corners; a circle has many more points.
        let square = strips.iter().find(|(points, c)| {
            let mid = points.iter().take(4).sum::<Vec2>() / 4.0;
            points.len() < 8 && mid.distance(centre) < 1e-3 && *c == color
        });
        assert!(
            square.is_some(),
            "no square in {unit}'s colour on {claimed:?}"
        );
    }
}

#[cfg(feature = "tilemap")]
#[test]
fn isometric_obstacles_are_drawn_as_their_tiles_diamonds_and_holes_not_at_all() {
    use crate::iso::{GRID, HEIGHT, LAYOUTS, WIDTH, drawn_at, is_wall, spawn_iso_map};
    use bevy_ecs_tilemap::tiles::TilePos;

    for system in LAYOUTS {
        let mut app = app();
        app.add_plugins(bevy::asset::AssetPlugin::default())
            .init_asset::<GizmoAsset>()
            .add_plugins(TilepathDebugPlugin);
        spawn_iso_map(app.world_mut(), system);
        app.update();
        app.update();
        let walls: Vec<TilePos> = (0..WIDTH)
            .flat_map(|x| (0..HEIGHT).map(move |y| TilePos::new(x, y)))
            .filter(|&t| is_wall(t))
            .collect();
        // A staggered map's grid has cells off the map; they are obstacles, not drawn.
        assert_eq!(counts(&app).obstacle_cells, walls.len(), "{system:?}");
        let strips = strips(&app);
        // The map is scaled 1.5: a diamond 90 % of a 96 × 48 tile.
        let (a, b) = (0.45 * GRID.x * 1.5, 0.45 * GRID.y * 1.5);
        let diamond = [
            Vec2::new(-a, 0.0),
            Vec2::new(0.0, -b),
            Vec2::new(a, 0.0),
            Vec2::new(0.0, b),
        ];
        for wall in walls {
            let centre = drawn_at(system, wall);
            let found = strips.iter().any(|(points, _)| {
                points.len() == 5
                    && points[0] == points[4]
                    && points[..4]
                        .iter()
                        .all(|p| diamond.iter().any(|d| (*p - centre - *d).length() < 1e-2))
            });
            assert!(
                found,
                "{system:?}: no diamond drawn on wall {wall:?} at {centre}"
            );
        }
    }
}
