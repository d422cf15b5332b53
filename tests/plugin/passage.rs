//! Right of way in narrow passages, on every grid shape: two units that meet head-on in a
//! one-cell corridor get through, one giving way (into a side pocket, or back out of the
//! corridor), for steering units and grid steppers alike.

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    Arrived, Cell, GridLayout, GridStepper, NavGrid, PathRequest, Steering,
};

use crate::common::{Along, app, regular_grid_of, shapes};

/// A one-cell corridor 13 cells long (along the test's rows) with a one-cell pocket on
/// its side, halfway.
const POCKET: [&str; 3] = ["######.######", ".............", "#############"];

/// The map of `rows` (written along the test's rows) laid out as `layout`: transposed on
/// column hexagons, so that the corridor is a straight line on every shape.
fn map(layout: GridLayout, rows: &[&str]) -> NavGrid {
    let along = Along::of(layout);
    let (w, h) = (rows[0].len() as i32, rows.len() as i32);
    let out = along.cell(w, h);
    let mut text = vec![vec!['#'; out.x as usize]; out.y as usize];
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let c = along.cell(x as i32, y as i32);
            text[c.y as usize][c.x as usize] = ch;
        }
    }
    let text: Vec<String> = text.into_iter().map(|r| r.into_iter().collect()).collect();
    regular_grid_of(layout, &text.join("\n"))
}

/// The rooms-and-corridor map: three open rows, a corridor of `length` rows, three open
/// rows (along the test's columns: the corridor runs across the rows).
fn rooms(length: usize) -> Vec<String> {
    let mut rows = vec![".......".to_string(); 3];
    rows.extend(std::iter::repeat_n("###.###".to_string(), length));
    rows.extend(std::iter::repeat_n(".......".to_string(), 3));
    rows
}

#[derive(Clone, Copy)]
enum Mover {
    Steering,
    Stepper,
}

fn spawn(app: &mut App, mover: Mover, start: Cell, goal: Cell) -> Entity {
    let at = app.world().resource::<NavGrid>().agent_center(start, 1);
    let mut e = app.world_mut().spawn((
        Transform::from_translation(at.extend(1.0)),
        PathRequest::new(goal),
    ));
    match mover {
        Mover::Steering => e.insert(Steering::default()),
        Mover::Stepper => e.insert(GridStepper::default()),
    };
    e.id()
}

/// Frames until every one of `units` has arrived, at most `limit`.
fn frames_to_arrive(app: &mut App, units: &[Entity], limit: usize) -> Option<usize> {
    (1..=limit).find(|_| {
        app.update();
        units
            .iter()
            .all(|&e| app.world().get::<Arrived>(e).is_some())
    })
}

/// Units from `starts` to `goals` on `grid`: the frames until all arrived (at most
/// `limit`).
fn run(
    grid: impl Fn() -> NavGrid,
    mover: Mover,
    trips: &[(Cell, Cell)],
    limit: usize,
) -> Option<usize> {
    let mut app = app();
    app.insert_resource(grid());
    let units: Vec<Entity> = trips
        .iter()
        .map(|&(s, g)| spawn(&mut app, mover, s, g))
        .collect();
    frames_to_arrive(&mut app, &units, limit)
}

/// Two units swap ends of the pocketed corridor: both through within twice the frames
/// of one unit alone.
fn swap_with_pocket(layout: GridLayout, mover: Mover) {
    let along = Along::of(layout);
    let grid = || map(layout, &POCKET);
    let (a, b) = (along.cell(0, 1), along.cell(12, 1));
    let alone = run(grid, mover, &[(a, b)], 2_000).expect("a lone unit arrives");
    let both = run(grid, mover, &[(a, b), (b, a)], 2_000);
    assert!(
        both.is_some_and(|f| f <= 2 * alone),
        "{layout:?}: both through in {both:?} frames, a lone unit in {alone}"
    );
}

#[test]
fn two_steering_units_swap_through_a_corridor_with_a_side_pocket() {
    for layout in shapes() {
        swap_with_pocket(layout, Mover::Steering);
    }
}

#[test]
fn two_grid_steppers_swap_through_a_corridor_with_a_side_pocket() {
    for layout in shapes() {
        swap_with_pocket(layout, Mover::Stepper);
    }
}

/// Two units facing each other inside a one-cell corridor between two rooms, each
/// bound for the room behind the other: one backs out and both arrive within 600
/// frames (they used to sway in the corridor for 20 s and more).
fn facing_in_corridor(layout: GridLayout, mover: Mover) {
    let along = Along::of(layout);
    let rows = rooms(7);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = || map(layout, &rows);
    // The corridor is column 3, rows 3..10 (test axes: x along rows is the corridor's
    // cross axis, so the corridor runs along y).
    let (a, b) = (along.cell(3, 5), along.cell(3, 7));
    let (ga, gb) = (along.cell(3, 11), along.cell(3, 1));
    let frames = run(grid, mover, &[(a, ga), (b, gb)], 600);
    assert!(
        frames.is_some(),
        "{layout:?}: not both arrived in 600 frames"
    );
}

#[test]
fn steering_units_facing_each_other_in_a_corridor_get_through() {
    for layout in shapes() {
        facing_in_corridor(layout, Mover::Steering);
    }
}

#[test]
fn grid_steppers_facing_each_other_in_a_corridor_get_through() {
    for layout in shapes() {
        facing_in_corridor(layout, Mover::Stepper);
    }
}

/// Grid steppers under the passage rules on the level (one-tile gaps in long walls)
/// move bit-identically with one and two solver threads, on every layout.
#[test]
fn grid_steppers_keep_lockstep_with_one_and_two_threads_under_the_passage_rules() {
    for layout in shapes() {
        let (one, ..) = crate::lockstep::lockstep_of(layout, 1, 600, true);
        let (two, ..) = crate::lockstep::lockstep_of(layout, 2, 600, true);
        let differs = one.iter().zip(&two).position(|(a, b)| a != b);
        assert_eq!(differs, None, "{layout:?}: the first frame that differs");
        let moved = one[0].iter().zip(&one[599]).filter(|(a, b)| a != b).count();
        assert!(moved > 0, "{layout:?}: no unit moved");
    }
}
