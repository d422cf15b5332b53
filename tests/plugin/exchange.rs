//! Goal exchange: units of one move order that reach their block of goals in the wrong
//! order (the first to arrive stand on the cells nearest them, in the way of the rest)
//! still all end on their goals, on every grid shape.

use bevy::prelude::*;
use bevy_tilepath::components::PathStatus;
use bevy_tilepath::prelude::{Arrived, Cell, GridLayout, NavGrid, PathRequest, PathResult};

use crate::common::{app, position, regular_grid_of, shapes, spawn_steering_on};

/// How far from the centre of the cell its path ends on a unit may stand, tiles.
const ON_GOAL: f32 = 1.0;

/// A corridor `ROWS` cells wide; the order's units stand in a `COLUMNS` × `ROWS` block at
/// its west end and are sent to a block of the same size near its east end, mirrored: the
/// unit in front gets the nearest column, the one at the back the farthest.
const ROWS: i32 = 3;
const COLUMNS: i32 = 4;
const LENGTH: i32 = 16;

/// Spawns the order (`group`: the goal group its requests name, if any) and returns each
/// unit with its requested goal.
fn spawn_order(app: &mut App, group: Option<u32>) -> Vec<(Entity, Cell)> {
    let mut units = Vec::new();
    for x in 0..COLUMNS {
        for y in 0..ROWS {
            let start = Cell::new(x, y);
            let goal = Cell::new(LENGTH - 2 - x, y);
            let request = PathRequest::new(goal);
            let request = match group {
                Some(g) => request.goal_group(g),
                None => request,
            };
            units.push((spawn_steering_on(app, start, request), goal));
        }
    }
    units
}

/// Where each unit's path ends and how far (tiles) the unit stands from it.
fn ends(app: &App, units: &[(Entity, Cell)]) -> Vec<(Cell, f32)> {
    let grid = app.world().resource::<NavGrid>();
    units
        .iter()
        .map(|&(unit, _)| {
            let Some(PathResult::Found(path)) = app.world().get::<PathResult>(unit) else {
                panic!("{unit} has no path");
            };
            let centre = grid.agent_center(path.reached, 1);
            let off = grid.world_to_plane(position(app, unit)) - grid.world_to_plane(centre);
            (path.reached, off.length() / grid.plane_tile_size().x)
        })
        .collect()
}

/// Runs the order for `frames` frames on `layout`: per unit, its requested goal, where
/// its path ends, how far it stands from that, and whether it arrived.
fn run(layout: GridLayout, group: Option<u32>, frames: usize) -> Vec<(Cell, Cell, f32, bool)> {
    let mut app = app();
    let rows = vec![".".repeat(LENGTH as usize); ROWS as usize].join("\n");
    app.insert_resource(regular_grid_of(layout, &rows));
    let units = spawn_order(&mut app, group);
    for _ in 0..frames {
        app.update();
    }
    ends(&app, &units)
        .into_iter()
        .zip(&units)
        .map(|((end, off), &(unit, goal))| {
            let arrived = app.world().get::<Arrived>(unit).is_some();
            (goal, end, off, arrived)
        })
        .collect()
}

#[test]
fn units_of_one_order_exchange_goals_and_all_end_on_them() {
    // The walk takes about 14 tiles at 4 tiles/s; 30 s is ample.
    for layout in shapes() {
        let out = run(layout, Some(7), 1_800);
        println!("{layout:?}: (goal, end, off, arrived) {out:?}");
        let mut goals: Vec<Cell> = out.iter().map(|u| u.0).collect();
        let mut ends: Vec<Cell> = out.iter().map(|u| u.1).collect();
        goals.sort_by_key(|c| (c.y, c.x));
        ends.sort_by_key(|c| (c.y, c.x));
        assert_eq!(goals, ends, "{layout:?}: the order's goals, exchanged");
        let short = out.iter().filter(|u| !u.3 || u.2 > ON_GOAL).count();
        assert_eq!(
            short, 0,
            "{layout:?}: units not arrived or more than {ON_GOAL} tile off their goal"
        );
    }
}

#[test]
fn units_without_a_group_keep_their_own_goals() {
    let out = run(GridLayout::Square, None, 600);
    for (goal, end, ..) in out {
        assert_eq!(
            goal, end,
            "a unit without a goal group ends on its own goal"
        );
    }
}

/// The claimed cells of the order's units are its goals, one each (the claims exchange,
/// never duplicate).
#[test]
fn exchanged_claims_stay_distinct() {
    let mut app = app();
    let rows = vec![".".repeat(LENGTH as usize); ROWS as usize].join("\n");
    app.insert_resource(regular_grid_of(GridLayout::Square, &rows));
    let units = spawn_order(&mut app, Some(1));
    for frame in 0..1_200 {
        app.update();
        let mut claimed: Vec<Cell> = units
            .iter()
            .filter_map(|&(u, _)| app.world().get::<PathStatus>(u)?.claimed_cell())
            .collect();
        claimed.sort_by_key(|c| (c.y, c.x));
        claimed.dedup();
        assert_eq!(
            claimed.len(),
            units.len(),
            "frame {frame}: claims lost or shared"
        );
    }
}
