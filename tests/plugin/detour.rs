//! Walking into new walls: a cut path with no detour of equal cost is walked as a
//! provisional detour, and the re-planner reads where a unit moved by the game's own
//! code is from its `PathProgress`.

use bevy::prelude::*;
use bevy_tilepath::components::{PathProgress, Replanning};
use bevy_tilepath::prelude::{
    Arrived, Cell, GridLayout, NavGrid, PathRequest, Steering, TilepathSettings,
};
use bevy_tilepath::prelude::{FrameBudget, ReplanSettings, RequestDefaults};

use crate::common::{Along, app, found_path, grid_of, position, shapes};

/// An open grid `width` cells along the rows of `layout` ([`Along`]), `height` across.
fn open_grid(layout: GridLayout, width: usize, height: usize) -> NavGrid {
    grid_of(layout, &Along::of(layout).open(width, height))
}

/// World centre of an agent of `diameter` on `cell` of the app's grid.
fn center(app: &App, cell: Cell, diameter: u32) -> Vec2 {
    let grid = app.world().resource::<NavGrid>();
    grid.agent_center(cell, diameter)
}

/// Runs one unit along an open 40 × 7 grid ([`Along`]) whose re-plans wait many frames
/// (A* under a budget of 1 expansion per frame), cuts its straight path with a 3-cell
/// wall when it is 3 cells before it, checks that it never walks back, and returns,
/// until it arrives: the frames it stood still, the frames it walked a provisional
/// detour, and its final path.
fn walk_into_a_new_wall(
    layout: GridLayout,
    repair_budget: u32,
) -> (usize, usize, bevy_tilepath::prelude::FoundPath) {
    let mut app = app();
    app.insert_resource(open_grid(layout, 40, 7));
    app.insert_resource(TilepathSettings {
        defaults: RequestDefaults {
            algorithm: bevy_tilepath::prelude::Algorithm::AStar,
            ..default()
        },
        replan: ReplanSettings {
            repair_budget,
            ..default()
        },
        ..crate::common::unlimited()
    });
    let steering = Steering {
        speed: 160.0,
        ..Steering::default()
    };
    let along = Along::of(layout);
    let start = center(&app, along.cell(0, 3), 1).extend(0.0);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start),
            PathRequest::new(along.cell(39, 3)),
            steering,
        ))
        .id();
    let cell_of = |app: &App| {
        let grid = app.world().resource::<NavGrid>();
        grid.agent_cell(position(app, unit), 1).unwrap()
    };
    let mut frames = 0;
    while along.x(cell_of(&app)) < 17 {
        app.update();
        frames += 1;
        assert!(frames < 200, "{layout:?}: never reached x = 17");
    }
    app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(1);
    let wall = [along.cell(20, 2), along.cell(20, 3), along.cell(20, 4)];
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits(wall.map(|c| (c, true)));
    let (mut still, mut provisional) = (0, 0);
    let mut furthest = along.x(cell_of(&app));
    for frame in 0..2_000 {
        if app.world().get::<Arrived>(unit).is_some() {
            return (still, provisional, found_path(&app, unit));
        }
        let before = position(&app, unit);
        app.update();
        let path = found_path(&app, unit);
        let world = app.world();
        let grid = world.resource::<NavGrid>();
        assert!(
            !wall.contains(&cell_of(&app)),
            "{layout:?}: frame {frame}: inside the wall"
        );
        if path.provisional {
            provisional += 1;
            assert!(
                world.get::<Replanning>(unit).is_some(),
                "{layout:?}: frame {frame}: a provisional path without a pending re-plan"
            );
            let layer = grid.scenario().layer(1).unwrap();
            for w in path.cells.windows(2) {
                assert!(
                    grid.layout().shape().steps(w[0], w[1]) == 1 && layer.can_step(w[0], w[1]),
                    "{layout:?}: {w:?}"
                );
            }
        }
        if world.get::<Arrived>(unit).is_none() && position(&app, unit) == before {
            still += 1;
        }
        // A new path planned from where the unit stood a while ago is joined where the
        // unit stands: it never walks back.
        let x = along.x(cell_of(&app));
        assert!(
            x >= furthest - 1,
            "{layout:?}: frame {frame}: walked back to {x} from {furthest}"
        );
        furthest = furthest.max(x);
    }
    panic!("{layout:?}: the unit never arrived (still {still} frames, provisional {provisional})");
}

#[test]
fn a_unit_whose_cut_path_has_no_detour_of_equal_cost_walks_a_provisional_one() {
    for layout in shapes() {
        a_provisional_detour_is_walked(layout);
    }
}

fn a_provisional_detour_is_walked(layout: GridLayout) {
    let (still, provisional, path) = walk_into_a_new_wall(layout, 16_384);
    println!("{layout:?}: provisional detour: {provisional} frames on it, {still} frames standing");
    assert!(
        provisional >= 5,
        "{layout:?}: walked a provisional detour {provisional} frames"
    );
    assert_eq!(
        still, 0,
        "{layout:?}: frames the unit stood still before arriving"
    );
    // The re-plan's answer replaced the detour before the unit arrived.
    assert!(!path.provisional, "{layout:?}");
    // Without local repairs the same unit waits at the wall for its re-plan.
    let (still, provisional, _) = walk_into_a_new_wall(layout, 0);
    println!("{layout:?}: without repairs: {still} frames standing");
    assert_eq!(provisional, 0, "{layout:?}");
    assert!(
        still >= 5,
        "{layout:?}: stood still {still} frames without repairs"
    );
}

/// A unit moved by the game's own code (no `Steering`) stands on cell 6 of its straight
/// path; a wall then closes cell 4. Returns whether the plugin changed the unit's path.
fn own_movement_and_a_wall_behind(layout: GridLayout, progress: Option<PathProgress>) -> bool {
    let mut app = app();
    app.insert_resource(open_grid(layout, 12, 3));
    let along = Along::of(layout);
    let start = center(&app, along.cell(0, 1), 1).extend(1.0);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start),
            PathRequest::new(along.cell(11, 1)),
        ))
        .id();
    app.update();
    let before = found_path(&app, unit);
    assert_eq!(
        before.cells[6],
        along.cell(6, 1),
        "{layout:?}: {:?}",
        before.cells
    );
    let at = center(&app, along.cell(6, 1), 1).extend(1.0);
    let mut entity = app.world_mut().entity_mut(unit);
    entity.get_mut::<Transform>().unwrap().translation = at;
    if let Some(progress) = progress {
        entity.insert(progress);
    }
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(along.cell(4, 1), true)]);
    app.update();
    found_path(&app, unit) != before
}

#[test]
fn the_replanner_reads_where_a_unit_is_from_its_path_progress() {
    for layout in shapes() {
        // Without progress the unit's own cell says where it is: the wall is behind it.
        assert!(!own_movement_and_a_wall_behind(layout, None), "{layout:?}");
        // Heading back for waypoint 3 (cell 3): the wall is ahead, and the path is
        // mended.
        let progress = Some(PathProgress { next_waypoint: 3 });
        assert!(
            own_movement_and_a_wall_behind(layout, progress),
            "{layout:?}"
        );
    }
}
