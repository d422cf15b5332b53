//! Debug drawing (feature `debug`): off by default, draws headless when enabled.
#![cfg(feature = "debug")]

use bevy::asset::AssetApp;
use bevy::gizmos::GizmoAsset;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_tilepath::prelude::{TilepathDebugCounts, TilepathDebugPlugin, TilepathGizmos};

use crate::common::{app, insert_level_grid, spawn_units};
use bevy_tilepath::prelude::FrameBudget;

fn counts(app: &App) -> TilepathDebugCounts {
    *app.world().resource::<TilepathDebugCounts>()
}

#[test]
fn the_debug_plugin_is_off_by_default_and_draws_headless_when_enabled() {
    // The parts of `GizmoPlugin` the gizmo group needs, without a renderer or camera.
    let mut app = app();
    app.add_plugins(bevy::asset::AssetPlugin::default())
        .init_asset::<GizmoAsset>()
        .add_plugins(TilepathDebugPlugin);
    insert_level_grid(&mut app);
    // Every request is answered in the first frame, however busy the machine is.
    app.world_mut()
        .resource_mut::<bevy_tilepath::prelude::TilepathSettings>()
        .budget = FrameBudget::Time(std::time::Duration::MAX);
    spawn_units(&mut app, 20, 16, false, false);
    app.update();
    let found = {
        let mut results = app
            .world_mut()
            .query::<&bevy_tilepath::prelude::PathResult>();
        results
            .iter(app.world())
            .filter(|r| r.found().is_some_and(|p| !p.waypoints.is_empty()))
            .count()
    };
    assert!(found > 5);
    assert_eq!(
        counts(&app),
        TilepathDebugCounts::default(),
        "nothing drawn when off"
    );

    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    let (config, options) = store.config_mut::<TilepathGizmos>();
    assert!(!config.enabled, "debug drawing is off by default");
    config.enabled = true;
    options.clearance = true;
    options.clearance_diameter = 3;
    // Only the schedule that draws: turning gizmo lines into meshes needs a renderer.
    app.world_mut().run_schedule(Update);
    let drawn = counts(&app);
    assert_eq!(drawn.paths, found, "{drawn:?}");
    let grid = app.world().resource::<bevy_tilepath::prelude::NavGrid>();
    let obstacles = grid.scenario().obstacles();
    let size = grid.size();
    let walls = (0..size.height as i32)
        .flat_map(|y| (0..size.width as i32).map(move |x| bevy_tilepath::prelude::Cell::new(x, y)))
        .filter(|&c| obstacles.get_or(c, true))
        .count();
    assert_eq!(drawn.obstacle_cells, walls);
    assert!(drawn.clearance_cells > 0, "{drawn:?}");

    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    store.config_mut::<TilepathGizmos>().0.enabled = false;
    app.world_mut().run_schedule(Update);
    assert_eq!(
        counts(&app),
        TilepathDebugCounts::default(),
        "nothing drawn when off"
    );
}
