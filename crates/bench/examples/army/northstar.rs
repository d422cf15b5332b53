//! One case on bevy_northstar 0.7: `MinimalPlugins` + `NorthstarPlugin` with its defaults
//! (HPA* refined paths, 16-cell chunks, 128 agents per frame), an octile grid that forbids
//! corner cutting (`filter::NoCornerCutting`: a diagonal step needs both orthogonal
//! neighbours free, our rule), the same units and goals.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_northstar::prelude::{
    AgentPos, Nav, NorthstarPlugin, OrdinalNeighborhood, Pathfind, PathfindingFailed, PathingSet,
};
use bevy_tilepath::prelude::Cell;
use bevy_tilepath::tilepath::search::InvalidPath;
use tilepath_bench::northstar;

use crate::measure::{OrderClock, Outcome, check_path, ms};
use crate::scene::{Army, Scene};
use crate::{Case, task_pool};

/// Paths and failures as northstar inserts them (its own systems pop the first cell off
/// `Path` right after, so they are copied when inserted).
#[derive(Resource, Default)]
struct Answers {
    paths: Vec<(Entity, Vec<UVec3>)>,
    failed: usize,
}

/// Start of the current frame's `PathingSet` and its length.
#[derive(Resource, Default)]
struct Clock {
    opened: Option<Instant>,
    last: Duration,
}

/// Runs `case` on northstar and measures it.
pub fn run(scene: &Scene, army: &Army, case: &Case, frame_cap: u32) -> Outcome {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(task_pool(case.threads)),
        NorthstarPlugin::<OrdinalNeighborhood>::default(),
    ));
    app.init_resource::<Answers>().init_resource::<Clock>();
    app.add_observer(
        |insert: On<Insert, bevy_northstar::prelude::Path>,
         paths: Query<&bevy_northstar::prelude::Path>,
         mut answers: ResMut<Answers>| {
            if let Ok(path) = paths.get(insert.entity) {
                answers.paths.push((insert.entity, path.path().to_vec()));
            }
        },
    );
    app.add_observer(
        |_: On<Insert, PathfindingFailed>, mut answers: ResMut<Answers>| answers.failed += 1,
    );
    app.add_systems(
        Update,
        (
            (|mut c: ResMut<Clock>| c.opened = Some(Instant::now())).before(PathingSet),
            (|mut c: ResMut<Clock>| {
                c.last = c.opened.take().map_or(Duration::ZERO, |t| t.elapsed())
            })
            .after(PathingSet),
        ),
    );

    let setup = Instant::now();
    let grid = northstar::grid(scene.size.width, scene.size.height, |x, y| {
        match scene.weight(Cell::new(x as i32, y as i32)) {
            Some(w) => Nav::Passable(u32::from(w)),
            None => Nav::Impassable,
        }
    });
    app.world_mut().spawn(grid);
    let setup_ms = ms(setup.elapsed());

    let units: Vec<Entity> = army
        .starts
        .iter()
        .map(|&c| app.world_mut().spawn(AgentPos(northstar::position(c))).id())
        .collect();
    app.update();

    let clock = OrderClock::start();
    // A unit already on its goal gets no `Path` from northstar (it removes `Pathfind`):
    // it counts as answered with its one-cell path.
    let mut trivial = Vec::new();
    for (i, &unit) in units.iter().enumerate() {
        let goal = case.order.goal(army, i);
        if goal == army.starts[i] {
            trivial.push(i);
        }
        app.world_mut()
            .entity_mut(unit)
            .insert(Pathfind::new_2d(goal.x as u32, goal.y as u32));
    }
    let mut times = Vec::new();
    let mut out = clock.outcome(setup_ms);
    while out.frames < frame_cap {
        app.update();
        out.frames += 1;
        let last = app.world().resource::<Clock>().last;
        times.push(last);
        out.solve_ms += ms(last);
        let answers = app.world().resource::<Answers>();
        if answers.paths.len() + answers.failed + trivial.len() >= units.len() {
            out.done = true;
            break;
        }
    }
    clock.stop(&mut out, &times);

    let map = scene.map();
    let index: HashMap<Entity, usize> = units.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let answers = app.world().resource::<Answers>();
    out.failed = answers.failed;
    for &i in &trivial {
        let start = army.starts[i];
        out.paths
            .push(check_path(&map, scene.profile, &[start], start, start).0);
    }
    let mut omitted = 0;
    for (unit, cells) in &answers.paths {
        let i = index[unit];
        let (start, goal) = (army.starts[i], case.order.goal(army, i));
        let (cells, prepended) = northstar::cells(cells, start);
        omitted += usize::from(prepended);
        let (path, broken) = check_path(&map, scene.profile, &cells, start, goal);
        if let Some(broken) = broken {
            let at = match broken {
                InvalidPath::Blocked { index }
                | InvalidPath::NotAdjacent { index }
                | InvalidPath::CutsCorner { index } => {
                    let c = cells[index];
                    format!(" at {c:?}, terrain {:?}", scene.weight(c))
                }
                _ => String::new(),
            };
            eprintln!("  northstar: invalid path {start:?} -> {goal:?}: {broken}{at}");
        }
        out.paths.push(path);
    }
    if omitted > 0 {
        eprintln!("  northstar: {omitted} paths did not begin at the unit's cell (prepended)");
    }
    out
}
