//! One scenario on our plugin: `MinimalPlugins` + `TilepathPlugin`, the `NavGrid` inserted
//! directly, units with `Steering` given their orders, frames of a fixed simulated step.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::{
    Arrived, Cell, FrameBudget, NavGrid, PathRequest, PathResult, Steering, TilepathPlugin,
    TilepathSettings, TilepathSystems,
};

use crate::metrics::{Outcome, Tracker, ideal};
use crate::scenarios::{Scenario, Unit};
use crate::{DT, Limits, TILE, task_pool};

/// Top speed of every unit, world units per second: `Steering::default()`'s, 4 tiles/s.
pub fn speed() -> f32 {
    steering(1).speed
}

/// The steering of a unit of `diameter` cells: the defaults a user gets, made for tiles
/// of 16 world units (top speed 4 tiles/s, slowing down within half a tile of the goal,
/// separation within half a tile). New `Steering` fields are set here.
fn steering(_diameter: u32) -> Steering {
    Steering::default()
}

/// Spawns `unit` standing on its start, with its steering; parked units get a request
/// to their own cell at once (so they stand `Arrived`), the others none yet.
fn spawn_unit(world: &mut World, grid: &NavGrid, unit: &Unit) -> Entity {
    let at = grid.agent_center(unit.start, unit.diameter);
    let mut entity = world.spawn((
        Transform::from_xyz(at.x, at.y, 0.0),
        steering(unit.diameter),
    ));
    if unit.parked {
        entity.insert(PathRequest::new(unit.start).diameter(unit.diameter));
    }
    entity.id()
}

/// The order of a unit: the default request to its goal (goal claims on), its diameter.
fn order(unit: &Unit) -> PathRequest {
    PathRequest::new(unit.goal).diameter(unit.diameter)
}

/// When the `Steer` set began this frame, and how long it took.
#[derive(Resource, Default)]
struct SteerClock {
    opened: Option<Instant>,
    last: Duration,
}

/// Runs `scenario` on our plugin within `limits`.
pub fn run(scenario: &Scenario, limits: &Limits) -> Outcome {
    let wall = Instant::now();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(task_pool(limits.threads)),
        TilepathPlugin::default(),
    ));
    // No wall-clock budget: every order is solved in the frame it is given, so the run
    // does not depend on the machine's speed.
    app.insert_resource(TilepathSettings {
        max_threads: limits.threads,
        budget: FrameBudget::Time(Duration::MAX),
        ..default()
    });
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        DT,
    )));
    app.init_resource::<SteerClock>();
    app.add_systems(
        Update,
        (
            (|mut c: ResMut<SteerClock>| c.opened = Some(Instant::now()))
                .after(TilepathSystems::Solve)
                .before(TilepathSystems::Steer),
            (|mut c: ResMut<SteerClock>| {
                c.last = c.opened.take().map_or(Duration::ZERO, |t| t.elapsed())
            })
            .after(TilepathSystems::Steer),
        ),
    );
    let grid = NavGrid::new(scenario.map(), Vec2::ZERO, Vec2::splat(TILE));
    let units: Vec<Entity> = scenario
        .units
        .iter()
        .map(|u| spawn_unit(app.world_mut(), &grid, u))
        .collect();
    app.insert_resource(grid);
    app.update();

    for (unit, &entity) in scenario.units.iter().zip(&units) {
        if !unit.parked {
            app.world_mut().entity_mut(entity).insert(order(unit));
        }
    }
    let mut state = app.world_mut().query::<(&Transform, Has<Arrived>)>();
    let mut read = |app: &App| {
        let (mut pos, mut arrived) = (Vec::new(), Vec::new());
        for &e in &units {
            let (t, done) = state.get(app.world(), e).expect("a unit");
            pos.push(t.translation.truncate() / TILE);
            arrived.push(done);
        }
        (pos, arrived)
    };
    let (start, _) = read(&app);
    let mut tracker = Tracker::new(scenario, &start, DT);
    let speed = f64::from(speed() / TILE);

    // The first frame solves every order: the ideal time is that of the cells reached.
    app.update();
    let trips = reached(&mut app, scenario, &units);
    let (pos, arrived) = read(&app);
    tracker.out.ideal_s = ideal(&scenario.map(), &trips, speed, scenario.gap);
    tracker.out.limit_s = limits.limit(tracker.out.ideal_s);
    let ms = |app: &App| app.world().resource::<SteerClock>().last.as_secs_f64() * 1e3;
    let mut done = tracker.frame(&pos, &arrived, ms(&app));
    while !done && tracker.out.ran_s < tracker.out.limit_s {
        app.update();
        let (pos, arrived) = read(&app);
        done = tracker.frame(&pos, &arrived, ms(&app));
    }
    let (pos, arrived) = read(&app);
    tracker.settled(&pos, &arrived, &goals(&app, scenario, &units));
    let frames = (1.0 / DT).round() as usize;
    let trace: Vec<Vec<Vec2>> = (0..frames)
        .map(|_| {
            app.update();
            read(&app).0
        })
        .collect();
    tracker.jitter(&arrived, speed, frames as f64 * DT, trace.into_iter());
    let mut out = tracker.finish();
    out.wall_s = wall.elapsed().as_secs_f64();
    out
}

/// Where each unit with an order and a path is going: the centre of the cell its path
/// reaches, tiles.
fn goals(app: &App, scenario: &Scenario, units: &[Entity]) -> Vec<Option<Vec2>> {
    let grid = app.world().resource::<NavGrid>();
    scenario
        .units
        .iter()
        .zip(units)
        .map(|(unit, &e)| match app.world().get::<PathResult>(e) {
            Some(PathResult::Found(path)) if !unit.parked => {
                Some(grid.agent_center(path.reached, unit.diameter) / TILE)
            }
            _ => None,
        })
        .collect()
}

/// Each unit with an order and a path: its start, the cell its path reaches and its diameter.
fn reached(app: &mut App, scenario: &Scenario, units: &[Entity]) -> Vec<(Cell, Cell, u32)> {
    scenario
        .units
        .iter()
        .zip(units)
        .filter(|(unit, _)| !unit.parked)
        .filter_map(|(unit, &e)| match app.world().get::<PathResult>(e) {
            Some(PathResult::Found(path)) => Some((unit.start, path.reached, unit.diameter)),
            _ => None,
        })
        .collect()
}
