//! One scenario on our plugin: `MinimalPlugins` + `TilepathPlugin`, the `NavGrid` inserted
//! directly, units with `Steering` or a `GridStepper` given their orders (in leg
//! scenarios, each next goal once `Arrived` or the request failed), frames of a fixed
//! simulated step.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::{
    Arrived, Cell, CongestionSettings, FrameBudget, GridStepper, NavGrid, PathRequest, PathResult,
    Steering, TilepathPlugin, TilepathSettings, TilepathSystems,
};

use crate::legs::Legs;
use crate::metrics::{Outcome, Tracker, ideal, leg_limit, legs_ideal};
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

/// Spawns `unit` standing on its start, moved by `mover`; parked units get a request
/// to their own cell at once (so they stand `Arrived`), the others none yet.
fn spawn_unit(world: &mut World, grid: &NavGrid, unit: &Unit, mover: Mover) -> Entity {
    let at = grid.agent_center(unit.start, unit.diameter);
    let mut entity = world.spawn(Transform::from_xyz(at.x, at.y, 0.0));
    match mover {
        Mover::Steering => entity.insert(steering(unit.diameter)),
        Mover::Stepper => entity.insert(GridStepper {
            ticks_per_step: STEP_TICKS,
            ..default()
        }),
    };
    if unit.parked {
        entity.insert(PathRequest::new(unit.start).diameter(unit.diameter));
    }
    entity.id()
}

/// The order of a unit: the default request to its goal (goal claims on), its diameter,
/// and the goal group of its move order, if it has one.
fn order(unit: &Unit) -> PathRequest {
    let request = PathRequest::new(unit.goal).diameter(unit.diameter);
    match unit.group {
        Some(group) => request.goal_group(group),
        None => request,
    }
}

/// When the `Steer` set began this frame, and how long it took.
#[derive(Resource, Default)]
struct SteerClock {
    opened: Option<Instant>,
    last: Duration,
}

/// How our units move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// `Steering`: continuous motion, crowd avoidance.
    Steering,
    /// `GridStepper`: a cell per step, cells held.
    Stepper,
}

/// A stepper's ticks per step: one cell per [`STEP_TICKS`] frames of 1/60 s is the
/// steering units' top speed, 4 tiles/s.
pub const STEP_TICKS: u32 = 15;

/// The app of a run: `MinimalPlugins` + `TilepathPlugin`, no frame budget, the clock of
/// the `Steer` set.
fn app(limits: &Limits) -> App {
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
        congestion: if limits.congestion {
            CongestionSettings::default()
        } else {
            CongestionSettings::OFF
        },
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
    app
}

/// One frame's view of the units: positions (tiles), anchor cells, `Arrived`, and
/// whether the current request failed.
struct Frame {
    pos: Vec<Vec2>,
    cells: Vec<Option<Cell>>,
    arrived: Vec<bool>,
    failed: Vec<bool>,
}

fn read(app: &mut App, scenario: &Scenario, units: &[Entity]) -> Frame {
    let mut state = app
        .world_mut()
        .query::<(&Transform, Has<Arrived>, Option<&PathResult>)>();
    let grid = app.world().resource::<NavGrid>();
    let mut f = Frame {
        pos: Vec::new(),
        cells: Vec::new(),
        arrived: Vec::new(),
        failed: Vec::new(),
    };
    for (unit, &e) in scenario.units.iter().zip(units) {
        let (t, done, result) = state.get(app.world(), e).expect("a unit");
        let p = t.translation.truncate();
        f.pos.push(p / TILE);
        f.cells.push(grid.agent_cell(p, unit.diameter));
        f.arrived.push(done);
        f.failed.push(matches!(result, Some(PathResult::Failed(_))));
    }
    f
}

/// Leg scenarios: ends the leg of every unit that arrived or whose request failed, and
/// gives it its next goal.
fn next_legs(app: &mut App, units: &[Entity], legs: &mut Legs, f: &Frame, now: f64) {
    for (i, &e) in units.iter().enumerate() {
        if legs.done(i) || !(f.arrived[i] || f.failed[i]) {
            continue;
        }
        if let Some(goal) = legs.end(i, now, !f.arrived[i]) {
            app.world_mut()
                .entity_mut(e)
                .remove::<Arrived>()
                .insert(PathRequest::new(goal));
        }
    }
}

/// Runs `scenario` on our plugin within `limits`, the units moved by `mover`.
pub fn run(scenario: &Scenario, limits: &Limits, mover: Mover) -> Outcome {
    let wall = Instant::now();
    let mut app = app(limits);
    let grid = NavGrid::new(scenario.map(), Vec2::ZERO, Vec2::splat(TILE));
    let units: Vec<Entity> = scenario
        .units
        .iter()
        .map(|u| spawn_unit(app.world_mut(), &grid, u, mover))
        .collect();
    app.insert_resource(grid);
    app.update();

    for (unit, &entity) in scenario.units.iter().zip(&units) {
        if !unit.parked {
            app.world_mut().entity_mut(entity).insert(order(unit));
        }
    }
    let leg_run = !scenario.legs.is_empty();
    let mut legs = Legs::new(scenario.legs.clone());
    let start = read(&mut app, scenario, &units);
    let mut tracker = Tracker::new(scenario, &start.pos, DT);
    let speed = f64::from(speed() / TILE);

    // The first frame solves every order: the ideal time is that of the cells reached.
    app.update();
    if leg_run {
        tracker.out.ideal_s = legs_ideal(scenario, speed);
        tracker.out.limit_s = leg_limit(scenario, limits);
    } else {
        let trips = reached(&mut app, scenario, &units);
        tracker.out.ideal_s = ideal(&scenario.map(), &trips, speed, scenario.gap);
        tracker.out.limit_s = limits.limit(tracker.out.ideal_s);
    }
    let ms = |app: &App| app.world().resource::<SteerClock>().last.as_secs_f64() * 1e3;
    loop {
        let f = read(&mut app, scenario, &units);
        let now = tracker.out.ran_s + DT;
        if leg_run {
            next_legs(&mut app, &units, &mut legs, &f, now);
        }
        let goals: Vec<Option<Cell>> = (0..units.len())
            .map(|i| {
                let unit = &scenario.units[i];
                match leg_run {
                    true => legs.current(i),
                    false => (!unit.parked && !f.arrived[i]).then_some(unit.goal),
                }
            })
            .collect();
        let arrived: Vec<bool> = match leg_run {
            true => (0..units.len()).map(|i| legs.done(i)).collect(),
            false => f.arrived.clone(),
        };
        let over = tracker.frame(&f.pos, &f.cells, &goals, &arrived, ms(&app));
        if over || tracker.out.ran_s >= tracker.out.limit_s - 1e-9 {
            break;
        }
        app.update();
    }
    let f = read(&mut app, scenario, &units);
    let arrived = f.arrived;
    if !leg_run {
        tracker.settled(&f.pos, &arrived, &goals(&app, scenario, &units));
    }
    if scenario.timed_s.is_some() {
        tracker.stuck_units();
    }
    tracker.out.legs = legs.finished;
    tracker.out.abandoned = legs.abandoned;
    tracker.out.longest_leg_s = legs.longest_s;
    let frames = (1.0 / DT).round() as usize;
    let trace: Vec<Vec<Vec2>> = (0..frames)
        .map(|_| {
            app.update();
            read(&mut app, scenario, &units).pos
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
