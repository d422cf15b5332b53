//! Steering: walls appearing under walking units, units parented to other entities, even
//! diameters in world space, and the plugin in `FixedUpdate`.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::{
    Arrived, Cell, NavGrid, PathGoal, PathRequest, PathResult, Steering, TilepathPlugin,
};

#[cfg(feature = "tilemap")]
use crate::common::{Rng, SIZE, level, spawn_units};
use crate::common::{TILE, app, center_of, minimal_plugins, position, world_of};
#[cfg(feature = "tilemap")]
use bevy_tilepath::prelude::FrameBudget;
#[cfg(feature = "tilemap")]
use {
    crate::tilemaps::spawn_tilemap,
    bevy_tilepath::prelude::{BlocksPath, TilepathSettings},
};

/// An open grid of `width × height` cells, `TILE` apart, cell (0, 0) at the origin.
fn open_grid(width: usize, height: usize) -> NavGrid {
    let rows = vec![".".repeat(width); height].join("\n");
    NavGrid::from_ascii(&rows, Vec2::ZERO, Vec2::splat(TILE)).unwrap()
}

#[test]
#[cfg(feature = "tilemap")]
fn steering_units_never_stand_in_blocked_cells_while_walls_appear() {
    let mut app = app();
    // Counted in expansions, so that what arrives does not depend on the machine's load.
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(40_000),
        ..default()
    });
    let (_, tiles) = spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 200, 15, true, true);
    let mut built = 0;
    let mut arrived = 0;
    for frame in 0..400 {
        app.update();
        let grid = app.world().resource::<NavGrid>();
        let mut occupied = Vec::new();
        for unit in &units {
            let p = position(&app, unit.entity);
            let cell = grid
                .agent_cell(p, unit.diameter)
                .expect("units stay on the map");
            assert!(
                !grid.is_blocked(cell, unit.diameter),
                "frame {frame}: {unit:?} stands in blocked {cell}"
            );
            occupied.push(cell);
        }
        if frame % 40 == 20 {
            // Wall off cells on paths, away from every unit (so no unit is walled in).
            let mut rng = Rng(frame as u64);
            let mut walls = Vec::new();
            for unit in units.iter().step_by(4) {
                if let Some(PathResult::Found(path)) = app.world().get::<PathResult>(unit.entity) {
                    let c = path.cells[rng.below(path.cells.len())];
                    if occupied.iter().all(|o| o.chebyshev(c) > 2) {
                        walls.push(c);
                    }
                }
            }
            for c in walls {
                app.world_mut()
                    .entity_mut(tiles[c.y as usize * SIZE + c.x as usize])
                    .insert(BlocksPath);
                built += 1;
            }
        }
        arrived = units
            .iter()
            .filter(|u| app.world().get::<Arrived>(u.entity).is_some())
            .count();
    }
    println!(
        "walls built {built}, units arrived {arrived} of {}",
        units.len()
    );
    assert!(built > 20, "built {built}");
    // Units avoid each other and queue at the level's one-cell gaps, so fewer arrive
    // than ghosts would; enough do to show that the crowd walks.
    assert!(arrived >= 10, "arrived {arrived}");
    for unit in &units {
        if app.world().get::<Arrived>(unit.entity).is_some() {
            let p = position(&app, unit.entity);
            let grid = app.world().resource::<NavGrid>();
            // On its goal, or held back near it by units already standing there (and
            // pushed a little since).
            let at = grid.agent_cell(p, unit.diameter).unwrap();
            let near = 2 + unit.diameter;
            assert!(at.chebyshev(unit.goal) <= near, "{unit:?} arrived at {at}");
        }
    }
}

#[test]
fn units_parented_to_moving_entities_start_from_their_world_cell() {
    let mut app = app();
    app.insert_resource(open_grid(16, 8));
    let carrier = app
        .world_mut()
        .spawn(Transform::from_xyz(2.0 * TILE, 0.0, 0.0))
        .id();
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_xyz(TILE, TILE, 1.0),
            ChildOf(carrier),
            PathRequest::new(Cell::new(12, 1)),
        ))
        .id();
    app.update();
    let first = |app: &App| {
        let result = app.world().get::<PathResult>(unit).unwrap();
        result.found().unwrap().cells[0]
    };
    assert_eq!(first(&app), Cell::new(3, 1));

    // The carrier moves this frame (no transform propagation ran since): the re-plan
    // starts from where the unit is now.
    for _ in 0..3 {
        app.world_mut()
            .get_mut::<Transform>(carrier)
            .unwrap()
            .translation
            .y += TILE;
        app.world_mut()
            .entity_mut(unit)
            .insert(bevy_tilepath::components::Replanning);
        app.update();
    }
    assert_eq!(first(&app), Cell::new(3, 4));
}

#[test]
fn a_steering_unit_under_a_translated_scaled_parent_walks_to_its_goal_in_world_space() {
    let mut app = app();
    app.add_plugins(TransformPlugin);
    app.insert_resource(open_grid(16, 8));
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(40.0, -24.0, 0.0).with_scale(Vec3::splat(2.0)))
        .id();
    // World (40 + 2 * -12, -24 + 2 * 20) = (16, 16): cell (1, 1).
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_xyz(-12.0, 20.0, 1.0),
            ChildOf(parent),
            PathRequest::new(Cell::new(9, 5)),
            Steering::with_speed(96.0),
        ))
        .id();
    for _ in 0..200 {
        app.update();
    }
    let result = app.world().get::<PathResult>(unit).unwrap();
    assert_eq!(result.found().unwrap().cells[0], Cell::new(1, 1));
    assert!(app.world().get::<Arrived>(unit).is_some(), "never arrived");
    let global = app
        .world()
        .get::<GlobalTransform>(unit)
        .unwrap()
        .translation();
    let goal = world_of(Cell::new(9, 5));
    assert!(
        global.truncate().distance(goal) < 1e-2,
        "{global} vs {goal}"
    );
    let local = app.world().get::<Transform>(unit).unwrap().translation;
    assert!(
        local
            .truncate()
            .distance((goal - Vec2::new(40.0, -24.0)) / 2.0)
            < 1e-2
    );
    assert_eq!(local.z, 1.0, "steering keeps z");
}

#[test]
fn a_two_cell_unit_walks_waypoints_at_its_footprint_centre() {
    let mut app = app();
    app.insert_resource(open_grid(12, 8));
    let start = Cell::new(1, 1);
    let goal = Cell::new(8, 5);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(start, 2).extend(1.0)),
            PathRequest::new(goal).diameter(2).smooth(false),
            Steering::with_speed(96.0),
        ))
        .id();
    // A world goal anywhere inside the 2x2 footprint's central tile names the same anchor.
    let world_goal = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(start, 2).extend(1.0)),
            PathRequest::new(center_of(goal, 2) + Vec2::new(-7.0, 7.0))
                .diameter(2)
                .claim_goal(false),
        ))
        .id();
    app.update();
    let path = app
        .world()
        .get::<PathResult>(unit)
        .unwrap()
        .found()
        .unwrap()
        .clone();
    assert_eq!(path.cells.first(), Some(&start));
    assert_eq!(path.cells.last(), Some(&goal));
    for (cell, waypoint) in path.cells.iter().zip(&path.waypoints) {
        assert_eq!(*waypoint, world_of(*cell) + Vec2::splat(TILE / 2.0));
    }
    let other = app
        .world()
        .get::<PathResult>(world_goal)
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(other.cells.last(), Some(&goal));
    assert!(matches!(
        app.world().get::<PathRequest>(world_goal).unwrap().goal,
        PathGoal::World(_)
    ));
    for _ in 0..200 {
        app.update();
    }
    assert!(app.world().get::<Arrived>(unit).is_some());
    assert!(position(&app, unit).distance(center_of(goal, 2)) < 1e-3);
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(grid.agent_cell(position(&app, unit), 2), Some(goal));
}

/// Counts the runs of `FixedUpdate`.
#[derive(Resource, Default)]
struct FixedRuns(u32);

#[test]
fn in_fixed_update_the_plugin_plans_and_steers_by_the_fixed_step() {
    let mut app = App::new();
    app.add_plugins((
        minimal_plugins(),
        TilepathPlugin::default().in_schedule(FixedUpdate),
    ));
    app.insert_resource(crate::common::unlimited());
    // 10 ms frames, 50 ms fixed steps: one step every fifth frame.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        10,
    )));
    app.insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(50)));
    app.init_resource::<FixedRuns>();
    app.add_systems(FixedUpdate, |mut runs: ResMut<FixedRuns>| runs.0 += 1);
    app.insert_resource(open_grid(40, 3));
    let steering = Steering {
        speed: 32.0,
        arrival_radius: 0.0,
        ..Steering::default()
    };
    let start = world_of(Cell::new(0, 1));
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start.extend(0.0)),
            PathRequest::new(Cell::new(39, 1)),
            steering,
        ))
        .id();
    app.update();
    assert_eq!(app.world().resource::<FixedRuns>().0, 0);
    assert!(
        app.world().get::<PathResult>(unit).unwrap().is_pending(),
        "nothing runs in Update"
    );
    let mut first_run = None;
    for frame in 1..=60 {
        app.update();
        let runs = app.world().resource::<FixedRuns>().0;
        if runs > 0 && first_run.is_none() {
            first_run = Some(frame);
            assert!(
                app.world()
                    .get::<PathResult>(unit)
                    .unwrap()
                    .found()
                    .is_some()
            );
        }
    }
    let runs = app.world().resource::<FixedRuns>().0;
    assert!((11..=13).contains(&runs), "{runs} fixed steps in 0.6 s");
    // The first step only takes note of the new path (its time is the first fixed step,
    // so the unit moves then too); every step moves 32 * 0.05 = 1.6 units.
    let moved = position(&app, unit).x - start.x;
    assert!(
        (moved - 1.6 * runs as f32).abs() < 1e-3,
        "moved {moved} in {runs} fixed steps"
    );
}

#[test]
fn a_unit_whose_old_path_is_cut_walks_up_to_the_wall_and_waits_for_its_new_path() {
    let mut app = app();
    app.insert_resource(open_grid(20, 3));
    // No re-plan on map edits: the unit keeps its old path until it stalls at the wall.
    app.world_mut()
        .resource_mut::<bevy_tilepath::prelude::TilepathSettings>()
        .replan
        .on_change = false;
    let steering = Steering {
        speed: 64.0,
        replan_after: 0.5,
        ..Steering::default()
    };
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(world_of(Cell::new(0, 1)).extend(0.0)),
            PathRequest::new(Cell::new(19, 1)),
            steering,
        ))
        .id();
    for _ in 0..10 {
        app.update();
    }
    let wall = Cell::new(8, 1);
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(wall, true)]);
    let (mut waited_at_wall, mut new_path_frame) = (0, None);
    for frame in 0..500 {
        app.update();
        let grid = app.world().resource::<NavGrid>();
        let cell = grid.agent_cell(position(&app, unit), 1).unwrap();
        assert_ne!(cell, wall, "frame {frame}: the unit entered the new wall");
        let path = app
            .world()
            .get::<PathResult>(unit)
            .unwrap()
            .found()
            .unwrap();
        if path.generation == 0 {
            assert!(cell.x < wall.x, "frame {frame}: past the wall at {cell}");
            waited_at_wall += usize::from(cell == Cell::new(7, 1));
        } else if new_path_frame.is_none() {
            new_path_frame = Some(frame);
            assert!(!path.cells.contains(&wall));
        }
    }
    // 0.5 s of stalling at 16 ms frames before the unit asks for a new path.
    assert!(
        waited_at_wall >= 25,
        "waited {waited_at_wall} frames at the wall"
    );
    assert!(new_path_frame.is_some(), "never re-planned");
    assert!(app.world().get::<Arrived>(unit).is_some());
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(
        grid.agent_cell(position(&app, unit), 1),
        Some(Cell::new(19, 1))
    );
}
