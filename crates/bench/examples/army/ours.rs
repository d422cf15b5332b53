//! One case on our plugin: `MinimalPlugins` + `TilepathPlugin`, the `NavGrid` inserted
//! directly, one order to every unit, frames until every unit has an answer.

use std::time::Instant;

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    MovementProfiles, NavGrid, PathRequest, PathResult, ProfileId, TilepathPlugin, TilepathSettings,
};
use bevy_tilepath::stats::TilepathStats;

use crate::measure::{OrderClock, Outcome, check_path, ms};
use crate::scene::{Army, Scene};
use crate::{Case, Mode, task_pool};
use bevy_tilepath::prelude::GroupOrders;
use bevy_tilepath::settings::LandmarkTables;

/// Runs `case` (per-unit search, shared fields or shared approaches) and measures it.
pub fn run(scene: &Scene, army: &Army, case: &Case, frame_cap: u32) -> Outcome {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(task_pool(case.threads)),
        TilepathPlugin::default(),
    ));
    let defaults = TilepathSettings::default();
    app.insert_resource(TilepathSettings {
        max_threads: case.threads,
        // The tables are part of the setup, as northstar's graph is of its setup (the
        // default builds them in the background while the first orders run).
        landmark_tables: LandmarkTables::OnLoad,
        group_orders: match case.mode {
            Mode::PerUnit => GroupOrders::PerUnit,
            Mode::Approach => GroupOrders::SharedApproach,
            _ => defaults.group_orders,
        },
        ..defaults
    });
    if let (Some(name), Some(movement)) = (scene.profile_name, &scene.movement) {
        app.insert_resource(MovementProfiles::default().with(name, movement.clone()));
    }
    let units: Vec<Entity> = army
        .starts
        .iter()
        .map(|c| {
            app.world_mut()
                .spawn(Transform::from_xyz(c.x as f32, c.y as f32, 0.0))
                .id()
        })
        .collect();

    // The map: cached scenario, profiles registered, the units' layer built.
    let setup = Instant::now();
    app.insert_resource(NavGrid::new(scene.map(), Vec2::ZERO, Vec2::ONE));
    app.update();
    let profile = match scene.profile_name {
        Some(name) => app
            .world()
            .resource::<MovementProfiles>()
            .id(name)
            .expect("the profile was added"),
        None => ProfileId::DEFAULT,
    };
    let grid = app.world().resource::<NavGrid>();
    assert!(grid.scenario().layer_for(profile, 1).is_some());
    let setup_ms = ms(setup.elapsed());

    // The order.
    let clock = OrderClock::start();
    for (i, &unit) in units.iter().enumerate() {
        let goal = case.order.goal(army, i);
        let mut request = PathRequest::new(goal).claim_goal(case.order.claims());
        if let Some(name) = scene.profile_name {
            request = request.profile(name);
        }
        app.world_mut().entity_mut(unit).insert(request);
    }
    let mut times = Vec::new();
    let mut out = clock.outcome(setup_ms);
    let n = units.len() as u64;
    while out.frames < frame_cap {
        app.update();
        out.frames += 1;
        let stats = app.world().resource::<TilepathStats>();
        times.push(stats.solve_time);
        out.solve_ms += ms(stats.solve_time);
        out.field_answers += stats.field_answers as u64;
        out.search_bytes = out
            .search_bytes
            .max((stats.pathfinder_bytes + stats.field_bytes) as u64);
        if stats.total_solved + stats.total_failed >= n && stats.pending == 0 {
            out.done = true;
            break;
        }
    }
    clock.stop(&mut out, &times);

    let map = app.world().resource::<NavGrid>().scenario();
    let mut answered = 0;
    for &unit in &units {
        match app.world().get::<PathResult>(unit) {
            Some(PathResult::Found(path)) => {
                answered += 1;
                let (mut checked, _) =
                    check_path(map, profile, &path.cells, path.start, path.reached);
                checked.valid &= (checked.cost - f64::from(path.cost)).abs() < 1e-3;
                checked.cost = f64::from(path.cost);
                out.paths.push(checked);
            }
            Some(PathResult::Failed(_)) => {
                answered += 1;
                out.failed += 1;
            }
            _ => {}
        }
    }
    out.done &= answered == units.len();
    out
}
