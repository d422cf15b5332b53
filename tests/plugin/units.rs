//! Units as obstacles for the planner: requests go around standing units as they ask,
//! and a unit stalled by a parked one plans around it.

use bevy::prelude::*;
use bevy_tilepath::components::UnitMap;
use bevy_tilepath::prelude::{
    Cell, Footprint, NavGrid, PathRequest, PathResult, Steering, TilepathSettings,
};
use bevy_tilepath::search::{AvoidUnits, UnitKind};

use crate::common::{TILE, app, center_of, found_path, position, unlimited};

/// A parked unit: steering, but no order (an obstacle the crowd does not move).
fn post(app: &mut App, cell: Cell) -> Entity {
    app.world_mut()
        .spawn((
            Transform::from_translation(center_of(cell, 1).extend(1.0)),
            Steering::default(),
        ))
        .id()
}

#[test]
fn requests_go_around_standing_units_unless_told_to_ignore_them() {
    let mut app = app();
    let grid = NavGrid::from_ascii(&".............\n".repeat(7), Vec2::ZERO, Vec2::splat(TILE));
    app.insert_resource(grid.unwrap());
    let wall = [Cell::new(6, 2), Cell::new(6, 3), Cell::new(6, 4)];
    for cell in wall {
        post(&mut app, cell);
    }
    app.update();
    let units = app.world().resource::<UnitMap>().cells();
    assert!(
        wall.iter()
            .all(|&c| units.kind(c) == Some(UnitKind::Standing)),
        "the parked units are in the unit map"
    );
    let (start, goal) = (Cell::new(1, 3), Cell::new(11, 3));
    let at = center_of(start, 1).extend(1.0);
    let mut spawn = |avoid: AvoidUnits| {
        let request = PathRequest::new(goal).claim_goal(false).avoid_units(avoid);
        let transform = Transform::from_translation(at);
        app.world_mut().spawn((transform, request)).id()
    };
    let (around, ignoring, all) = (
        spawn(AvoidUnits::Standing),
        spawn(AvoidUnits::Ignore),
        spawn(AvoidUnits::All),
    );
    app.update();
    for unit in [around, all] {
        let path = found_path(&app, unit);
        let crossed: Vec<Cell> = path
            .cells
            .iter()
            .copied()
            .filter(|c| wall.contains(c))
            .collect();
        assert!(
            crossed.is_empty(),
            "{unit}: crosses parked units at {crossed:?}"
        );
        assert!(
            path.length <= 12.5,
            "{unit}: a detour of {} cells",
            path.length
        );
        assert_eq!(path.cells.last(), Some(&goal));
    }
    let straight = found_path(&app, ignoring);
    assert!(straight.cells.contains(&Cell::new(6, 3)));
    assert_eq!(straight.length, 10.0);
}

/// Two equal ways from west to east, above and below a wall; the map edge closes both.
const TWO_WAYS: &str = "
    ...........
    .#########.
    ...........
";

#[test]
fn a_unit_stalled_by_a_parked_unit_plans_around_it() {
    let mut app = app();
    app.insert_resource(TilepathSettings {
        crowd: bevy_tilepath::settings::CrowdSettings {
            unit_penalty: 24.0,
            ..default()
        },
        ..unlimited()
    });
    let grid = NavGrid::from_ascii(TWO_WAYS, Vec2::ZERO, Vec2::splat(TILE)).unwrap();
    app.insert_resource(grid);
    let goal = Cell::new(10, 1);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(Cell::new(0, 1), 1).extend(1.0)),
            PathRequest::new(goal),
            Steering::default(),
        ))
        .id();
    app.update();
    let first = found_path(&app, unit);
    let row = first.cells[5].y;
    // Parked in the unit's way after it planned: only a new plan gets it past.
    let parked = post(&mut app, Cell::new(6, row));
    let mut replans = 0;
    let mut last = first.cells.clone();
    let mut reached = None;
    for frame in 1..=1_200 {
        app.update();
        if let Some(PathResult::Found(path)) = app.world().get::<PathResult>(unit)
            && path.cells != last
        {
            replans += 1;
            last = path.cells.clone();
        }
        if position(&app, unit).distance(center_of(goal, 1)) < 0.25 * TILE {
            reached = Some(frame);
            break;
        }
    }
    println!("reached {reached:?}, {replans} new paths, first row {row}");
    assert!(reached.is_some(), "the unit never got past the parked one");
    assert!(replans >= 1);
    assert!(
        !last.contains(&Cell::new(6, row)),
        "the new path still crosses the parked unit"
    );
    let still = position(&app, parked).distance(center_of(Cell::new(6, row), 1));
    assert!(still < 0.3 * TILE, "the parked unit was pushed {still}");
}

#[test]
fn a_wide_idle_unit_keeps_its_footprint_for_the_planner_and_the_crowd() {
    let mut app = app();
    let grid = NavGrid::from_ascii(&".............\n".repeat(9), Vec2::ZERO, Vec2::splat(TILE));
    app.insert_resource(grid.unwrap());
    // A tank three cells wide, parked without an order.
    let parked = Cell::new(6, 4);
    let tank = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(parked, 3).extend(1.0)),
            Steering::default(),
            Footprint::new(3),
        ))
        .id();
    app.update();
    let units = app.world().resource::<UnitMap>().cells();
    for dy in -1..=1 {
        for dx in -1..=1 {
            let cell = Cell::new(parked.x + dx, parked.y + dy);
            assert_eq!(units.kind(cell), Some(UnitKind::Standing), "{cell:?}");
        }
    }
    assert_eq!(units.kind(Cell::new(8, 4)), None);
    // A unit told to ignore units walks straight at it: the crowd keeps them apart as
    // discs of their diameters.
    let (start, goal) = (Cell::new(1, 4), Cell::new(11, 4));
    let walker = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(start, 1).extend(1.0)),
            PathRequest::new(goal)
                .claim_goal(false)
                .avoid_units(AvoidUnits::Ignore),
            Steering::default(),
        ))
        .id();
    let apart = 2.0 * TILE - bevy_tilepath::crowd::OVERLAP_TOLERANCE * TILE;
    let mut closest = f32::INFINITY;
    let mut reached = false;
    for _ in 0..1_200 {
        app.update();
        let gap = position(&app, walker).distance(position(&app, tank));
        closest = closest.min(gap);
        assert!(
            gap >= apart - 1e-3,
            "the walker came within {gap} of the tank"
        );
        if position(&app, walker).distance(center_of(goal, 1)) < 0.25 * TILE {
            reached = true;
            break;
        }
    }
    println!("closest {closest}, reached {reached}");
    assert!(reached, "the walker never got past the tank");
}
