//! Solving: valid shortest paths at scale, thread-count independence, frame budgets and
//! bad input.

use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy_tilepath::components::PathStatus;
#[cfg(feature = "tilemap")]
use bevy_tilepath::prelude::{Cell, NavGrid, PathFailure};
use bevy_tilepath::prelude::{FrameBudget, GridLayout, PathRequest, PathResult, TilepathSettings};
#[cfg(feature = "tilemap")]
use bevy_tilepath::search::PathError;
use bevy_tilepath::stats::TilepathStats;

use crate::common::{SolvedLog, app, assert_answers, results, run_until_answered, shapes};
#[cfg(feature = "tilemap")]
use crate::common::{level, spawn_units};
use crate::shaped::spawn_level_units;
#[cfg(feature = "tilemap")]
use crate::tilemaps::spawn_tilemap;

#[test]
#[cfg(feature = "tilemap")]
fn thousand_units_on_a_walled_tilemap_get_valid_paths_or_justified_failures() {
    let mut app = app();
    spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 1000, 11, false, false);
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Time(Duration::MAX);
    run_until_answered(&mut app, 200);

    let (found, failed) = assert_answers(&mut app, &units);
    assert_eq!(found + failed, 1000);
    assert!(found > 400, "found {found}");
    assert!(failed > 0, "the level has blocked and unreachable goals");
    let log = &app.world().resource::<SolvedLog>().0;
    assert_eq!(log.len(), 1000, "one message per answered request");
}

/// On every layout, 1,000 units on the level get the same answers with one and two
/// solver threads, and every answer is a valid shortest path or a justified failure.
#[test]
fn paths_are_identical_with_one_and_two_solver_threads() {
    for layout in shapes() {
        let run = |threads: usize| {
            let mut app = app();
            let units = spawn_level_units(&mut app, layout, 1000, 13, false);
            let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
            settings.max_threads = threads;
            settings.budget = FrameBudget::Time(Duration::MAX);
            run_until_answered(&mut app, 200);
            if threads == 1 {
                // The two runs' answers are compared below: one check covers both.
                let (found, _) = assert_answers(&mut app, &units);
                assert!(found > 400, "{layout:?}: found {found}");
            }
            results(&app, &units)
        };
        let one = run(1);
        assert_eq!(
            ComputeTaskPool::get().thread_num(),
            2,
            "the test needs two compute threads"
        );
        let two = run(2);
        assert!(
            one == two,
            "{layout:?}: the answers differ with two threads"
        );
    }
}

#[test]
fn the_plugin_keeps_at_most_max_threads_pathfinders() {
    for layout in shapes() {
        pathfinders_are_kept_per_thread(layout);
    }
}

fn pathfinders_are_kept_per_thread(layout: GridLayout) {
    let mut app = app();
    spawn_level_units(&mut app, layout, 300, 15, false);
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Time(Duration::MAX);
    let mut held = Vec::new();
    for threads in [2, 1, 2] {
        app.world_mut()
            .resource_mut::<TilepathSettings>()
            .max_threads = threads;
        let mut requests = app.world_mut().query::<&mut PathRequest>();
        for mut request in requests.iter_mut(app.world_mut()) {
            request.options.smooth = !request.options.smooth;
        }
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        assert_eq!(
            stats.solved + stats.failed,
            300,
            "{layout:?}: every request answered"
        );
        held.push((stats.pathfinders, stats.pathfinder_bytes));
    }
    assert_eq!(
        held.iter().map(|h| h.0).collect::<Vec<_>>(),
        [2, 1, 2],
        "{layout:?}: one pathfinder per allowed solver thread, extras dropped"
    );
    assert!(
        held.iter().all(|h| h.1 > 0),
        "{layout:?}: warm pathfinders hold buffers"
    );
    assert!(
        held[1].1 <= held[0].1,
        "{layout:?}: dropping a pathfinder never adds memory: {held:?}"
    );
}

#[test]
fn a_zero_frame_budget_still_serves_oldest_first_one_slice_per_frame() {
    for layout in shapes() {
        oldest_first_one_slice_per_frame(layout);
    }
}

fn oldest_first_one_slice_per_frame(layout: GridLayout) {
    let mut app = app();
    let units = spawn_level_units(&mut app, layout, 30, 14, false);
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.budget = FrameBudget::Time(Duration::ZERO);
        settings.max_threads = 1;
    }
    let pending = |app: &mut App| {
        let mut q = app.world_mut().query::<&PathResult>();
        q.iter(app.world()).filter(|r| r.is_pending()).count()
    };
    // A zero budget still makes progress every frame: one slice of the oldest search,
    // which is suspended and resumed next frame when it needs more.
    let (mut frames, mut suspensions) = (0, 0);
    while pending(&mut app) > 20 {
        app.update();
        frames += 1;
        assert!(frames < 300, "{layout:?}: no progress");
        let stats = app.world().resource::<TilepathStats>();
        assert!(
            stats.solved + stats.failed <= 1,
            "{layout:?}: one answer per frame at most"
        );
        assert!(
            stats.suspended <= 1,
            "{layout:?}: one thread, one suspended search"
        );
        suspensions += stats.suspended;
    }
    assert!(
        suspensions > 0,
        "{layout:?}: some search needed more than one slice"
    );
    assert!(frames > 10, "{layout:?}: 10 answers took {frames} frames");

    // A cap on requests per frame with an ample budget.
    {
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.budget = FrameBudget::Time(Duration::MAX);
        settings.max_requests_per_frame = 3;
        settings.max_threads = 2;
    }
    for expected in [17, 14, 11, 8, 5, 2, 0] {
        app.update();
        assert_eq!(pending(&mut app), expected, "{layout:?}");
    }

    let log = &app.world().resource::<SolvedLog>().0;
    assert_eq!(log.len(), 30, "{layout:?}");
    let per_frame = |frame: u32| log.iter().filter(|(f, _)| *f == frame).count();
    let frames = frames as u32;
    assert!((1..=frames).all(|f| per_frame(f) <= 1), "{layout:?}");
    assert!(
        (frames + 1..=frames + 6).all(|f| per_frame(f) == 3),
        "{layout:?}"
    );
    let tickets: Vec<u64> = log
        .iter()
        .map(|(_, m)| app.world().get::<PathStatus>(m.entity).unwrap().number())
        .collect();
    assert!(
        tickets.windows(2).all(|w| w[0] < w[1]),
        "{layout:?}: served oldest first: {tickets:?}"
    );
    let served: Vec<Entity> = log.iter().map(|(_, m)| m.entity).collect();
    let spawned: Vec<Entity> = units.iter().map(|u| u.entity).collect();
    assert_eq!(
        served, spawned,
        "{layout:?}: requests spawned in one frame are served in spawn order"
    );
}

#[test]
#[cfg(feature = "tilemap")]
fn bad_input_fails_with_a_typed_reason_and_never_panics() {
    let mut app = app();
    let free = vec![vec![false; 8]; 8];
    let here = Transform::from_xyz(16.0, 16.0, 0.0);
    let early = app
        .world_mut()
        .spawn((here, PathRequest::new(Cell::new(3, 3))))
        .id();
    app.update();
    assert_eq!(
        app.world().get::<PathResult>(early),
        Some(&PathResult::Failed(PathFailure::NoMap))
    );

    let (map, _) = spawn_tilemap(app.world_mut(), &free);
    let spawn =
        |app: &mut App, bundle: (Transform, PathRequest)| app.world_mut().spawn(bundle).id();
    // Off-map goals fail only without the nearest-goal option (see the goals tests).
    let off_goal = spawn(
        &mut app,
        (here, PathRequest::new(Cell::new(8, 0)).nearest_goal(false)),
    );
    let off_world_goal = spawn(
        &mut app,
        (
            here,
            PathRequest::new(Vec2::new(-20.0, 0.0)).nearest_goal(false),
        ),
    );
    let nan_goal = spawn(&mut app, (here, PathRequest::new(Vec2::new(f32::NAN, 0.0))));
    let nan_start = spawn(
        &mut app,
        (
            Transform::from_xyz(f32::NAN, 0.0, 0.0),
            PathRequest::new(Cell::new(1, 1)),
        ),
    );
    let off_start = spawn(
        &mut app,
        (
            Transform::from_xyz(500.0, 0.0, 0.0),
            PathRequest::new(Cell::new(1, 1)),
        ),
    );
    let zero = spawn(
        &mut app,
        (here, PathRequest::new(Cell::new(1, 1)).diameter(0)),
    );
    let no_transform = app
        .world_mut()
        .spawn(PathRequest::new(Cell::new(1, 1)))
        .id();
    app.update();

    let failure =
        |app: &App, e: Entity| app.world().get::<PathResult>(e).unwrap().failure().copied();
    assert!(
        app.world()
            .get::<PathResult>(early)
            .unwrap()
            .found()
            .is_some(),
        "retried once the map exists"
    );
    assert!(matches!(
        failure(&app, off_goal),
        Some(PathFailure::GoalOffMap { .. })
    ));
    assert!(matches!(
        failure(&app, off_world_goal),
        Some(PathFailure::GoalOffMap { .. })
    ));
    assert_eq!(failure(&app, nan_goal), Some(PathFailure::InvalidGoal));
    assert_eq!(failure(&app, nan_start), Some(PathFailure::InvalidPosition));
    assert!(matches!(
        failure(&app, off_start),
        Some(PathFailure::StartOffMap { .. })
    ));
    assert_eq!(
        failure(&app, zero),
        Some(PathFailure::Search(PathError::InvalidDiameter {
            diameter: 0
        }))
    );
    assert_eq!(failure(&app, no_transform), Some(PathFailure::NoTransform));

    app.world_mut().entity_mut(map).despawn();
    let late = spawn(&mut app, (here, PathRequest::new(Cell::new(2, 2))));
    app.update();
    assert!(app.world().get_resource::<NavGrid>().is_none());
    assert_eq!(
        failure(&app, early),
        Some(PathFailure::NoMap),
        "paths die with their map"
    );
    assert_eq!(failure(&app, late), Some(PathFailure::NoMap));
    app.update();
}
