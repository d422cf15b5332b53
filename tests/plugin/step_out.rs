//! Grid steppers standing on a blocked cell (a wall painted under them, or spawned in
//! one) step out onto the start of their path and walk on, on square and hexagonal maps.

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    Arrived, Cell, GridLayout, GridStepper, NavGrid, PathRequest, TilepathSettings,
};
use bevy_tilepath::shape::HexLayout;

use crate::common::{TILE, app, center_of, found_path, grid_of, unlimited};

/// An open field, 10 x 5, with one wall cell at (3, 2).
const FIELD: &str = "\
..........
..........
...#......
..........
..........
";

const IN_WALL: Cell = Cell::new(3, 2);
const GOAL: Cell = Cell::new(8, 2);

/// Ticks a unit gets to arrive (the walks take at most 10).
const TICKS: usize = 60;

/// A map of either kind: where a unit stands, and whether a cell is blocked.
trait Map {
    fn cell(app: &App, unit: Entity) -> Cell;
    fn blocked(app: &App, cell: Cell) -> bool;
    fn paint(app: &mut App, cell: Cell);
    fn spawn(app: &mut App, start: Cell, goal: Cell) -> Entity;
    fn adjacent(app: &App, a: Cell, b: Cell) -> bool;
    /// Steps between two cells.
    fn distance(app: &App, a: Cell, b: Cell) -> u32;
}

struct Square;
struct Hexes;

fn at(app: &App, unit: Entity) -> Vec2 {
    crate::common::position(app, unit)
}

impl Map for Square {
    fn adjacent(_: &App, a: Cell, b: Cell) -> bool {
        a.chebyshev(b) == 1
    }
    fn distance(_: &App, a: Cell, b: Cell) -> u32 {
        a.chebyshev(b)
    }
    fn cell(app: &App, unit: Entity) -> Cell {
        let grid = app.world().resource::<NavGrid>();
        grid.agent_cell(at(app, unit), 1).expect("on the map")
    }
    fn blocked(app: &App, cell: Cell) -> bool {
        app.world().resource::<NavGrid>().is_blocked(cell, 1)
    }
    fn paint(app: &mut App, cell: Cell) {
        let mut grid = app.world_mut().resource_mut::<NavGrid>();
        grid.apply_edits([(cell, true)]);
    }
    fn spawn(app: &mut App, start: Cell, goal: Cell) -> Entity {
        let at = center_of(start, 1).extend(1.0);
        let unit = (PathRequest::new(goal), GridStepper::default());
        app.world_mut()
            .spawn((Transform::from_translation(at), unit))
            .id()
    }
}

impl Map for Hexes {
    fn adjacent(app: &App, a: Cell, b: Cell) -> bool {
        Self::distance(app, a, b) == 1
    }
    fn distance(app: &App, a: Cell, b: Cell) -> u32 {
        let grid = app.world().resource::<NavGrid>();
        grid.layout().shape().steps(a, b)
    }
    fn cell(app: &App, unit: Entity) -> Cell {
        let grid = app.world().resource::<NavGrid>();
        grid.world_to_cell(at(app, unit)).expect("on the map")
    }
    fn blocked(app: &App, cell: Cell) -> bool {
        app.world().resource::<NavGrid>().is_blocked(cell, 1)
    }
    fn paint(app: &mut App, cell: Cell) {
        let mut grid = app.world_mut().resource_mut::<NavGrid>();
        grid.apply_edits([(cell, true)]);
    }
    fn spawn(app: &mut App, start: Cell, goal: Cell) -> Entity {
        let at = app.world().resource::<NavGrid>().cell_to_world(start);
        let unit = (PathRequest::new(goal), GridStepper::default());
        app.world_mut()
            .spawn((Transform::from_translation(at.extend(1.0)), unit))
            .id()
    }
}

fn square_app() -> App {
    let mut app = app();
    app.insert_resource(NavGrid::from_ascii(FIELD, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    app
}

fn hex_app() -> App {
    let mut app = app();
    app.insert_resource(TilepathSettings { ..unlimited() });
    app.insert_resource(grid_of(GridLayout::Hex(HexLayout::Row), FIELD));
    app
}

/// Runs ticks until `unit` (standing on the blocked `from`) arrives (at `goal`, when
/// given); asserts that its first move is one step onto a free neighbour of `from` and
/// that it never stands on a blocked cell after it left `from`. Returns that neighbour.
fn walks_out<M: Map>(app: &mut App, unit: Entity, from: Cell, goal: Option<Cell>) -> Cell {
    assert!(M::blocked(app, from));
    let mut out = None;
    for tick in 1..=TICKS {
        app.update();
        let here = M::cell(app, unit);
        if out.is_none() && here != from {
            assert!(
                M::adjacent(app, from, here),
                "tick {tick}: jumped to {here}"
            );
            out = Some(here);
        }
        assert!(
            out.is_none() || !M::blocked(app, here),
            "tick {tick}: in a wall on {here}"
        );
        if let Some(out) = out
            && app.world().get::<Arrived>(unit).is_some()
        {
            assert!(
                goal.is_none_or(|g| g == here),
                "tick {tick}: arrived on {here}"
            );
            return out;
        }
    }
    panic!("still on {} after {TICKS} ticks", M::cell(app, unit));
}

/// A unit spawned on the wall cell plans from the nearest free cell, steps onto it and
/// arrives.
fn spawned_in_a_wall<M: Map>(mut app: App) {
    let unit = M::spawn(&mut app, IN_WALL, GOAL);
    let out = walks_out::<M>(&mut app, unit, IN_WALL, Some(GOAL));
    let path = found_path(&app, unit);
    assert!(path.start_moved() && path.from == IN_WALL, "{path:?}");
    assert_eq!(
        out, path.start,
        "it stepped out elsewhere than its path's start"
    );
}

/// A unit standing on its goal gets a wall painted under it: it steps out onto a free
/// neighbour and stands there, arrived.
fn wall_painted_under_it<M: Map>(mut app: App) {
    let here = Cell::new(5, 1);
    let unit = M::spawn(&mut app, here, here);
    for _ in 0..3 {
        app.update();
    }
    assert!(app.world().get::<Arrived>(unit).is_some());
    M::paint(&mut app, here);
    walks_out::<M>(&mut app, unit, here, None);
}

#[test]
fn a_grid_stepper_spawned_in_a_wall_walks_out_and_arrives() {
    spawned_in_a_wall::<Square>(square_app());
}

#[test]
fn a_grid_stepper_with_a_wall_painted_under_it_walks_out() {
    wall_painted_under_it::<Square>(square_app());
}

#[test]
fn a_hex_grid_stepper_spawned_in_a_wall_walks_out_and_arrives() {
    spawned_in_a_wall::<Hexes>(hex_app());
}

#[test]
fn a_hex_grid_stepper_with_a_wall_painted_under_it_walks_out() {
    wall_painted_under_it::<Hexes>(hex_app());
}

/// A unit spawned in the middle of a block of wall (its tile and every neighbour), two
/// steps from the nearest free cell: it walks straight out through the block, each step
/// nearer to its path's start, and arrives, never in a wall again once out.
fn spawned_deep_in_a_wall<M: Map>(mut app: App) {
    let centre = Cell::new(5, 2);
    for x in 4..=6 {
        for y in 1..=3 {
            let c = Cell::new(x, y);
            if c == centre || M::adjacent(&app, centre, c) {
                M::paint(&mut app, c);
            }
        }
    }
    let unit = M::spawn(&mut app, centre, GOAL);
    let mut last = centre;
    let mut out = false;
    for tick in 1..=TICKS {
        app.update();
        let here = M::cell(&app, unit);
        let path = found_path(&app, unit);
        assert!(path.start_moved() && path.from == centre, "{path:?}");
        assert!(
            here == last || M::adjacent(&app, last, here),
            "tick {tick}: jumped to {here}"
        );
        if !out && here != last {
            assert!(
                M::distance(&app, here, path.start) < M::distance(&app, last, path.start),
                "tick {tick}: {here} is no nearer to {}",
                path.start
            );
        }
        out |= !M::blocked(&app, here);
        assert!(
            !out || !M::blocked(&app, here),
            "tick {tick}: back in a wall on {here}"
        );
        last = here;
        if app.world().get::<Arrived>(unit).is_some() {
            assert_eq!(here, GOAL, "tick {tick}");
            return;
        }
    }
    panic!("still on {last} after {TICKS} ticks");
}

#[test]
fn a_grid_stepper_spawned_deep_in_a_wall_walks_out_through_it_and_arrives() {
    spawned_deep_in_a_wall::<Square>(square_app());
}

#[test]
fn a_hex_grid_stepper_spawned_deep_in_a_wall_walks_out_through_it_and_arrives() {
    spawned_deep_in_a_wall::<Hexes>(hex_app());
}
