//! Steering, headless: a unit pushed off its path plans again, a crowd slows a unit
//! but cannot stop it, and the plugin's counters add up.

use std::time::Duration;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::FrameBudget;
use bevy_tilepath::prelude::{
    Arrived, Cell, NavGrid, PathRequest, PathResult, Steering, TilepathPlugin, TilepathSettings,
};
use bevy_tilepath::stats::TilepathStats;

const TILE: f32 = 16.0;

/// A headless app with a hand-made grid and a fixed 16 ms frame.
fn app(rows: &str) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(4),
        }),
        TilepathPlugin::default(),
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )));
    app.insert_resource(NavGrid::from_ascii(rows, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    // No wall-clock budget: what the tests see does not depend on the machine's speed.
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Time(Duration::MAX),
        ..default()
    });
    app
}

fn world_of(app: &App, cell: Cell) -> Vec3 {
    app.world()
        .resource::<NavGrid>()
        .cell_to_world(cell)
        .extend(1.0)
}

fn cell_of(app: &App, unit: Entity) -> Cell {
    let p = app.world().get::<Transform>(unit).unwrap().translation;
    let grid = app.world().resource::<NavGrid>();
    grid.world_to_cell(p.truncate()).expect("on the map")
}

/// Runs `seconds` of 16 ms frames, checking that `unit` never stands in a wall.
fn run(app: &mut App, unit: Entity, seconds: f32) {
    for _ in 0..(seconds / 0.016) as usize {
        app.update();
        let cell = cell_of(app, unit);
        assert!(
            !app.world().resource::<NavGrid>().is_blocked(cell, 1),
            "unit in a wall at {cell}"
        );
    }
}

/// A wall across the map with a gap on the right. A unit walking along the top row is
/// moved below the wall, straight under its next waypoint: walking straight at it hits
/// the wall, so without a new path it would stand there for ever.
fn pushed_below_the_wall(replan_after: f32) -> (App, Entity) {
    let rows = ".........\n.........\n#######..\n.........\n.........";
    let mut app = app(rows);
    let start = world_of(&app, Cell::new(0, 0));
    let steering = Steering {
        replan_after,
        ..Steering::default()
    };
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start),
            PathRequest::new(Cell::new(3, 0)),
            steering,
        ))
        .id();
    app.update();
    assert!(
        app.world()
            .get::<PathResult>(unit)
            .unwrap()
            .found()
            .is_some()
    );
    let below = world_of(&app, Cell::new(1, 3));
    app.world_mut()
        .get_mut::<Transform>(unit)
        .unwrap()
        .translation = below;
    (app, unit)
}

#[test]
fn a_unit_pushed_behind_a_wall_plans_again_from_where_it_stands_and_arrives() {
    let (mut app, unit) = pushed_below_the_wall(1.0);
    run(&mut app, unit, 6.0);
    assert!(app.world().get::<Arrived>(unit).is_some(), "never arrived");
    assert_eq!(cell_of(&app, unit), Cell::new(3, 0));
    let path = app
        .world()
        .get::<PathResult>(unit)
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(
        path.cells.first(),
        Some(&Cell::new(1, 3)),
        "the new path starts where the unit was stuck"
    );
    assert_eq!(app.world().resource::<TilepathStats>().total_solved, 2);
}

#[test]
fn a_new_order_takes_arrived_away_while_its_answer_is_pending() {
    let mut app = app("........\n........");
    let start = world_of(&app, Cell::new(0, 0));
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start),
            PathRequest::new(Cell::new(3, 0)),
            Steering::with_speed(64.0),
        ))
        .id();
    run(&mut app, unit, 3.0);
    assert!(app.world().get::<Arrived>(unit).is_some(), "never arrived");
    // One expansion a frame: the next answer takes several frames.
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(1);
    app.world_mut()
        .entity_mut(unit)
        .insert(PathRequest::new(Cell::new(7, 1)));
    app.update();
    assert!(app.world().get::<PathResult>(unit).unwrap().is_pending());
    assert!(
        app.world().get::<Arrived>(unit).is_none(),
        "Arrived stayed while the new order waits for its answer"
    );
    run(&mut app, unit, 6.0);
    assert!(app.world().get::<Arrived>(unit).is_some(), "never arrived");
    assert_eq!(cell_of(&app, unit), Cell::new(7, 1));
}

#[test]
fn without_patience_a_unit_pushed_behind_a_wall_stays_stuck() {
    let (mut app, unit) = pushed_below_the_wall(0.0);
    // Neither its own patience nor the progress rule asks for a new path.
    app.world_mut()
        .resource_mut::<TilepathSettings>()
        .stall
        .after = 0.0;
    run(&mut app, unit, 6.0);
    assert!(app.world().get::<Arrived>(unit).is_none());
    assert_eq!(cell_of(&app, unit), Cell::new(1, 3));
    assert_eq!(app.world().resource::<TilepathStats>().total_solved, 1);
}

#[test]
fn a_walking_unit_pushes_idle_units_along_a_one_cell_corridor_to_its_goal() {
    let mut app = app("..............................");
    // Units that arrived on their cells stand in a one-cell corridor: they cannot step
    // aside, only be pushed along ahead of the walker.
    let idle: Vec<Entity> = (8..12)
        .map(|x| {
            let p = world_of(&app, Cell::new(x, 0));
            app.world_mut()
                .spawn((
                    Transform::from_translation(p),
                    PathRequest::new(Cell::new(x, 0)),
                    Steering::default(),
                ))
                .id()
        })
        .collect();
    let walker = Steering {
        replan_after: 0.0,
        ..Steering::default()
    };
    let start = world_of(&app, Cell::new(0, 0));
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start),
            PathRequest::new(Cell::new(19, 0)),
            walker,
        ))
        .id();
    // 19 cells at 64 units/s take under 5 s unhindered; give the crowd some slack.
    run(&mut app, unit, 20.0);
    assert!(
        app.world().get::<Arrived>(unit).is_some(),
        "stopped at {}",
        cell_of(&app, unit)
    );
    assert_eq!(cell_of(&app, unit), Cell::new(19, 0));
    // The idle units were pushed past the goal, one tile apart.
    let mut xs: Vec<i32> = idle.iter().map(|&e| cell_of(&app, e).x).collect();
    xs.sort_unstable();
    assert_eq!(xs, [20, 21, 22, 23], "idle units at {xs:?}");
}

#[test]
fn stats_count_answers_failures_pending_requests_and_replans() {
    let mut app = app("..........\n..........\n..........");
    app.insert_resource(TilepathSettings {
        max_requests_per_frame: 2,
        ..default()
    });
    let origin = world_of(&app, Cell::new(0, 0));
    for goal in [
        Cell::new(9, 0),
        Cell::new(9, 2),
        Cell::new(20, 0),
        Cell::new(5, 1),
    ] {
        // Exact goals: the off-map and the walled goals fail (and are counted as such).
        app.world_mut().spawn((
            Transform::from_translation(origin),
            PathRequest::new(goal).exact(),
        ));
    }
    app.update();
    let stats = app.world().resource::<TilepathStats>().clone();
    assert_eq!((stats.solved, stats.failed, stats.pending), (2, 0, 2));
    assert!(stats.expanded >= 2);
    app.update();
    let stats = app.world().resource::<TilepathStats>().clone();
    assert_eq!((stats.solved, stats.failed, stats.pending), (1, 1, 0));
    assert_eq!((stats.total_solved, stats.total_failed), (3, 1));

    // Blocking cell (5, 1) re-plans exactly what `TilepathStats::replanned` promises:
    // found paths the edit crosses, and failures the edit may fix. Only the path that
    // ends on (5, 1) crosses it (the paths to (9, 0) and (9, 2) pass at least a cell
    // away); the goal (20, 0) is off the 10-wide map, which no obstacle edit can fix. So: 1.
    let edit = [(Cell::new(5, 1), true)];
    app.world_mut().resource_mut::<NavGrid>().apply_edits(edit);
    app.update();
    let stats = app.world().resource::<TilepathStats>().clone();
    assert_eq!(stats.replanned, 1, "{stats:?}");
    assert_eq!(stats.total_replanned, 1);
    assert_eq!((stats.solved, stats.failed), (0, 1), "(5, 1) is now a wall");
    app.update();
    assert_eq!(app.world().resource::<TilepathStats>().pending, 0);

    // Moving the grid changes every cell's world position: the two found paths and both
    // failures (the off-map goal and the blocked one) are re-planned. So: 4.
    app.world_mut()
        .resource_mut::<NavGrid>()
        .set_placement(Vec2::new(1.0, 0.0), Vec2::splat(TILE));
    app.update();
    let stats = app.world().resource::<TilepathStats>().clone();
    assert_eq!(stats.replanned, 4, "{stats:?}");
    assert_eq!(stats.total_replanned, 5);
}
