//! One scenario on bevy_northstar 0.7 with its collision avoidance: a grid with
//! `enable_collision` and `avoidance_distance(4)` (its `collision_testing` example's),
//! every unit `Blocking`, moved cell by cell to each `NextPos` at our units' top speed.
//!
//! Driven as its examples drive it: a unit given a `NextPos` takes that cell at once (its
//! `AgentPos`, so the cell is held in northstar's blocking map) and walks there in a
//! straight line at the top speed; on reaching it the `NextPos` is removed and northstar
//! hands out the next one. Distance left over in the frame a cell is reached is carried
//! into the next step, so a free unit moves at exactly the top speed. A unit whose search
//! or re-route failed (`PathfindingFailed`, `RerouteFailed`) asks again for the same goal
//! after [`RETRY_SECS`], as the example asks again (there, for a new random goal; in the
//! leg scenarios, ported from those examples, it abandons the goal and takes its next). The
//! per-frame caps on searches and avoidance are lifted to the number of units (the
//! defaults, 128, would stagger the larger crowds).

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_northstar::prelude::{
    AgentPos, Blocking, Nav, NextPos, NorthstarPlugin, NorthstarPluginSettings,
    OrdinalNeighborhood, Pathfind, PathfindingFailed, PathingSet, RerouteFailed,
};
use bevy_tilepath::prelude::Cell;
use tilepath_bench::northstar;

use crate::legs::Legs;
use crate::metrics::{Outcome, Tracker, ideal, leg_limit, legs_ideal};
use crate::scenarios::Scenario;
use crate::{DT, Limits, task_pool};

/// Seconds a unit whose search failed waits before it asks again.
pub const RETRY_SECS: f32 = 0.5;
/// How far ahead on its path a unit looks for others (`avoidance_distance`, cells).
pub const AVOIDANCE_DISTANCE: u32 = 4;

/// Where a unit is between cells (tiles), the distance carried over from the last
/// frame, the time it has waited since a failure, and its goal.
#[derive(Component)]
struct Body {
    pos: Vec2,
    spare: f32,
    waited: f32,
    goal: UVec3,
}

/// Top speed, tiles per second.
#[derive(Resource)]
struct Speed(f32);

/// When this frame's `PathingSet` began, and how long it and the mover took.
#[derive(Resource, Default)]
struct Clock {
    opened: Option<Instant>,
    last: Duration,
}

/// Walks every unit that has a `NextPos` toward it (see the module's notes).
fn advance(
    time: Res<Time>,
    speed: Res<Speed>,
    mut commands: Commands,
    mut units: Query<(Entity, &mut AgentPos, Option<&NextPos>, &mut Body)>,
) {
    let step = speed.0 * time.delta_secs();
    for (entity, mut at, next, mut body) in &mut units {
        let Some(next) = next else {
            body.spare = 0.0;
            continue;
        };
        if at.0 != next.0 {
            at.0 = next.0;
        }
        let target = Vec2::new(next.0.x as f32, next.0.y as f32);
        let reach = step + body.spare;
        let d = body.pos.distance(target);
        if d <= reach {
            body.pos = target;
            body.spare = (reach - d).min(step);
            commands.entity(entity).remove::<NextPos>();
        } else {
            let dir = (target - body.pos) / d;
            body.pos += dir * reach;
            body.spare = 0.0;
        }
    }
}

/// Units whose search or re-route failed.
type Failed = Or<(With<PathfindingFailed>, With<RerouteFailed>)>;

/// Leg scenarios: a failed unit abandons its goal (the runner gives it the next one), as
/// the examples do, instead of asking again.
#[derive(Resource)]
struct Abandon(bool);

/// Asks again, after [`RETRY_SECS`], for the goal of a unit whose search failed.
fn retry(
    time: Res<Time>,
    abandon: Res<Abandon>,
    mut commands: Commands,
    mut failed: Query<(Entity, &mut Body), Failed>,
) {
    if abandon.0 {
        return;
    }
    for (entity, mut body) in &mut failed {
        body.waited += time.delta_secs();
        if body.waited >= RETRY_SECS {
            body.waited = 0.0;
            commands
                .entity(entity)
                .insert(Pathfind::new(body.goal))
                .remove::<(PathfindingFailed, RerouteFailed)>();
        }
    }
}

/// One frame's view of the units: positions (tiles), cells, whether each stands on its
/// goal with no step left, and whether its search failed.
struct Frame {
    pos: Vec<Vec2>,
    cells: Vec<Option<Cell>>,
    arrived: Vec<bool>,
    failed: Vec<bool>,
}

fn read(app: &mut App, units: &[Entity]) -> Frame {
    let mut state = app.world_mut().query::<(
        &Body,
        &AgentPos,
        Has<NextPos>,
        Has<PathfindingFailed>,
        Has<RerouteFailed>,
    )>();
    let mut f = Frame {
        pos: Vec::new(),
        cells: Vec::new(),
        arrived: Vec::new(),
        failed: Vec::new(),
    };
    for &e in units {
        let (body, at, stepping, failed, rerouted) = state.get(app.world(), e).expect("a unit");
        f.pos.push(body.pos);
        let c = body.pos.round();
        f.cells.push(Some(Cell::new(c.x as i32, c.y as i32)));
        f.arrived.push(at.0 == body.goal && !stepping);
        f.failed.push(failed || rerouted);
    }
    f
}

/// Leg scenarios: ends the leg of every unit on its goal or whose search failed (it
/// abandons the goal), and sends it to its next goal.
fn next_legs(app: &mut App, units: &[Entity], legs: &mut Legs, f: &Frame, now: f64) {
    for (i, &e) in units.iter().enumerate() {
        if legs.done(i) || !(f.arrived[i] || f.failed[i]) {
            continue;
        }
        if let Some(goal) = legs.end(i, now, !f.arrived[i]) {
            let goal = northstar::position(goal);
            let mut entity = app.world_mut().entity_mut(e);
            entity.get_mut::<Body>().expect("a unit").goal = goal;
            entity
                .insert(Pathfind::new(goal))
                .remove::<(PathfindingFailed, RerouteFailed)>();
        }
    }
}

/// The app of a run: northstar's plugin with its caps lifted, our mover and retries.
fn app(limits: &Limits, n: usize, speed: f32, leg_run: bool) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(task_pool(limits.threads)),
        NorthstarPlugin::<OrdinalNeighborhood>::default(),
    ));
    app.insert_resource(NorthstarPluginSettings {
        max_pathfinding_agents_per_frame: n,
        max_collision_avoidance_agents_per_frame: n,
        ..default()
    });
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        DT,
    )));
    app.insert_resource(Speed(speed));
    app.insert_resource(Abandon(leg_run));
    app.init_resource::<Clock>();
    app.add_systems(
        Update,
        (
            (|mut c: ResMut<Clock>| c.opened = Some(Instant::now())).before(retry),
            retry.before(PathingSet),
            advance.after(PathingSet),
            (|mut c: ResMut<Clock>| {
                c.last = c.opened.take().map_or(Duration::ZERO, |t| t.elapsed())
            })
            .after(advance),
        ),
    );
    app
}

/// Runs `scenario` on northstar within `limits`, at `speed` tiles per second.
pub fn run(scenario: &Scenario, limits: &Limits, speed: f32) -> Outcome {
    let wall = Instant::now();
    let leg_run = !scenario.legs.is_empty();
    let mut app = app(limits, scenario.units.len(), speed, leg_run);
    let size = scenario.bits.size();
    let grid = northstar::colliding_grid(size.width, size.height, AVOIDANCE_DISTANCE, |x, y| {
        if scenario.bits.get_unchecked_cell(x, y) {
            Nav::Impassable
        } else {
            Nav::Passable(1)
        }
    });
    app.world_mut().spawn(grid);
    let units: Vec<Entity> = scenario
        .units
        .iter()
        .map(|u| {
            let body = Body {
                pos: Vec2::new(u.start.x as f32, u.start.y as f32),
                spare: 0.0,
                waited: 0.0,
                goal: northstar::position(u.ns_goal),
            };
            let at = AgentPos(northstar::position(u.start));
            app.world_mut().spawn((at, Blocking, body)).id()
        })
        .collect();
    app.update();

    for (unit, &entity) in scenario.units.iter().zip(&units) {
        if !unit.parked {
            let goal = northstar::position(unit.ns_goal);
            app.world_mut()
                .entity_mut(entity)
                .insert(Pathfind::new(goal));
        }
    }
    let mut legs = Legs::new(scenario.legs.clone());
    let start = read(&mut app, &units);
    let mut tracker = Tracker::new(scenario, &start.pos, DT);
    if leg_run {
        tracker.out.ideal_s = legs_ideal(scenario, f64::from(speed));
        tracker.out.limit_s = leg_limit(scenario, limits);
    } else {
        let trips: Vec<_> = scenario
            .units
            .iter()
            .filter(|u| !u.parked)
            .map(|u| (u.start, u.ns_goal, 1))
            .collect();
        tracker.out.ideal_s = ideal(&scenario.map(), &trips, f64::from(speed), scenario.gap);
        tracker.out.limit_s = limits.limit(tracker.out.ideal_s);
    }
    let ms = |app: &App| app.world().resource::<Clock>().last.as_secs_f64() * 1e3;
    while tracker.out.ran_s < tracker.out.limit_s - 1e-9 {
        app.update();
        let f = read(&mut app, &units);
        if leg_run {
            next_legs(&mut app, &units, &mut legs, &f, tracker.out.ran_s + DT);
        }
        let goals: Vec<Option<Cell>> = (0..units.len())
            .map(|i| {
                let unit = &scenario.units[i];
                match leg_run {
                    true => legs.current(i),
                    false => (!unit.parked && !f.arrived[i]).then_some(unit.ns_goal),
                }
            })
            .collect();
        let arrived: Vec<bool> = match leg_run {
            true => (0..units.len()).map(|i| legs.done(i)).collect(),
            false => f.arrived.clone(),
        };
        if tracker.frame(&f.pos, &f.cells, &goals, &arrived, ms(&app)) {
            break;
        }
    }
    let arrived = read(&mut app, &units).arrived;
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
            read(&mut app, &units).pos
        })
        .collect();
    tracker.jitter(
        &arrived,
        f64::from(speed),
        frames as f64 * DT,
        trace.into_iter(),
    );
    let mut out = tracker.finish();
    out.wall_s = wall.elapsed().as_secs_f64();
    out
}
