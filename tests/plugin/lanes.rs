//! Queue lanes: a path cut far ahead of its unit waits in the deferred lane while the
//! solver is behind, the unit walks on, and the re-plan becomes urgent as the unit nears
//! the cut.

use bevy::prelude::*;
use bevy_tilepath::components::{PathStatus, QueueLane, Replanning};
use bevy_tilepath::prelude::{
    Algorithm, Arrived, Cell, GridLayout, NavGrid, PathRequest, PathResult, Steering,
    TilepathSettings,
};
use bevy_tilepath::search::{PathQuery, Pathfinder};

use crate::common::{Along, TILE, app, grid_of, position, shapes};
use bevy_tilepath::prelude::FrameBudget;

/// An open grid `width` cells along the rows of `layout` ([`Along`]), `height` across.
fn open_grid(layout: GridLayout, width: usize, height: usize) -> NavGrid {
    grid_of(layout, &Along::of(layout).open(width, height))
}

/// World centre of `cell` on the app's grid.
fn at(app: &App, cell: Cell) -> Vec3 {
    let grid = app.world().resource::<NavGrid>();
    grid.cell_to_world(cell).extend(1.0)
}

fn ticket(app: &App, unit: Entity) -> PathStatus {
    app.world().get::<PathStatus>(unit).unwrap().clone()
}

fn cell_of(app: &App, unit: Entity) -> Cell {
    let grid = app.world().resource::<NavGrid>();
    grid.agent_cell(position(app, unit), 1).unwrap()
}

#[test]
fn a_cut_far_ahead_waits_in_the_deferred_lane_while_its_unit_walks_on() {
    for layout in shapes() {
        a_cut_far_ahead_is_deferred(layout);
    }
}

fn a_cut_far_ahead_is_deferred(layout: GridLayout) {
    let mut app = app();
    app.insert_resource(open_grid(layout, 80, 40));
    let along = Along::of(layout);
    let start = at(&app, along.cell(1, 2));
    let walker = app
        .world_mut()
        .spawn((
            Transform::from_translation(start),
            PathRequest::new(along.cell(78, 2)),
            Steering::with_speed(4.0 * TILE),
        ))
        .id();
    app.update();
    assert!(
        app.world()
            .get::<PathResult>(walker)
            .unwrap()
            .found()
            .is_some(),
        "{layout:?}"
    );
    // A budget of 300 expansions a frame, and 28 Dijkstra searches over most of the map
    // (about 3,000 expansions each, distinct goals: no shared field) queued first: the solver is behind for ~300 frames,
    // longer than the walker takes to come within 16 cells of the cut below.
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(300),
        ..default()
    });
    for i in 0..28 {
        let from = at(&app, along.cell(1 + i, 20));
        app.world_mut().spawn((
            Transform::from_translation(from),
            PathRequest::new(along.cell(78, 10 + i))
                .algorithm(Algorithm::Dijkstra)
                .claim_goal(false),
        ));
    }
    app.update();

    // A wall across the walker's row, 30 cells ahead, open below row 5.
    let x = along.x(cell_of(&app, walker)) + 30;
    let wall: Vec<(Cell, bool)> = (0..=4).map(|y| (along.cell(x, y), true)).collect();
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits(wall.iter().copied());
    app.update();
    let waiting = ticket(&app, walker);
    assert!(
        waiting.is_queued() && waiting.lane() == QueueLane::Deferred,
        "{layout:?}: {waiting:?}"
    );
    assert!(
        app.world().get::<Replanning>(walker).is_some(),
        "{layout:?}"
    );

    // The unit walks on; the re-plan becomes urgent within 16 cells of the cut and is
    // answered before the unit reaches it.
    let mut promoted_at = None;
    let mut answered_at = None;
    for frame in 0..600 {
        let before = position(&app, walker);
        app.update();
        let here = cell_of(&app, walker);
        let t = ticket(&app, walker);
        if promoted_at.is_none() && t.is_queued() && t.lane() != QueueLane::Deferred {
            promoted_at = Some(here);
        }
        if !t.is_queued() {
            answered_at = Some(here);
            break;
        }
        assert_ne!(
            position(&app, walker),
            before,
            "{layout:?}: frame {frame}: the walker stopped at {here} while its re-plan waited"
        );
    }
    let promoted_at = promoted_at
        .unwrap_or_else(|| panic!("{layout:?}: the deferred re-plan never became urgent"));
    let answered_at =
        answered_at.unwrap_or_else(|| panic!("{layout:?}: the re-plan was never answered"));
    assert!(
        promoted_at.chebyshev(along.cell(x, 2)) <= 16,
        "{layout:?}: {promoted_at}"
    );
    assert!(
        promoted_at.chebyshev(along.cell(x, 2)) >= 14,
        "{layout:?}: {promoted_at}"
    );
    assert!(
        along.x(answered_at) < x,
        "{layout:?}: answered at {answered_at}, the cut is at x = {x}"
    );
    assert!(
        app.world().get::<Replanning>(walker).is_none(),
        "{layout:?}"
    );
    let path = app
        .world()
        .get::<PathResult>(walker)
        .unwrap()
        .found()
        .unwrap()
        .clone();
    assert!(
        wall.iter().all(|(c, _)| !path.cells.contains(c)),
        "{layout:?}"
    );
    let grid = app.world().resource::<NavGrid>();
    let fresh = Pathfinder::new()
        .find(
            grid.scenario(),
            &PathQuery::new(path.cells[0], *path.cells.last().unwrap()),
        )
        .unwrap();
    let cost = grid.scenario().weights(path.profile).unwrap();
    assert_eq!(
        cost.path_cost(&path.cells).unwrap(),
        fresh.cost,
        "{layout:?}"
    );

    // Once the solver has caught up, a cut far ahead is urgent again.
    for _ in 0..300 {
        app.update();
        if app.world().get::<Arrived>(walker).is_some() {
            break;
        }
        let far = along.x(cell_of(&app, walker)) + 25;
        if far < 75 && ticket(&app, walker).lane() == QueueLane::Urgent {
            let pending = app
                .world()
                .resource::<bevy_tilepath::stats::TilepathStats>();
            if pending.pending == 0 {
                let cut = path_cell(&app, walker, along, far);
                app.world_mut()
                    .resource_mut::<NavGrid>()
                    .apply_edits([(cut, true)]);
                app.update();
                let t = ticket(&app, walker);
                assert!(t.lane() != QueueLane::Deferred, "{layout:?}: {t:?}");
                return;
            }
        }
    }
    panic!("{layout:?}: the solver never caught up");
}

/// The cell of `unit`'s path `x` along the rows (or the cell on row 2 there).
fn path_cell(app: &App, unit: Entity, along: Along, x: i32) -> Cell {
    let result = app.world().get::<PathResult>(unit).unwrap();
    let path = result.found().unwrap();
    let on = path.cells.iter().find(|&&c| along.x(c) == x);
    on.copied().unwrap_or(along.cell(x, 2))
}
