//! Grid stepping on every grid shape: units one cell a tick whose footprints never share
//! a cell, that face each other in corridors and ask idle units to step aside.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_tilepath::prelude::{Arrived, Cell, GridStepper, NavGrid, PathRequest, TilepathSettings};
use bevy_tilepath::shape::GridShape;
use bevy_tilepath::steering::Occupancy;

use crate::common::{Rng, SIZE, app, grid_of, level_grid, shapes, unlimited};

/// A grid stepper of `diameter` at `start`, asking for `goal`.
pub(crate) fn spawn(app: &mut App, start: Cell, goal: Cell, diameter: u32) -> Entity {
    let at = app
        .world()
        .resource::<NavGrid>()
        .agent_center(start, diameter);
    app.world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            PathRequest::new(goal).diameter(diameter),
            GridStepper::default(),
        ))
        .id()
}

/// The anchor cell of every unit (by its position) and its diameter.
pub(crate) fn anchors(app: &App, units: &[(Entity, u32)]) -> Vec<Cell> {
    let grid = app.world().resource::<NavGrid>();
    units
        .iter()
        .map(|&(e, d)| {
            let p = app
                .world()
                .get::<Transform>(e)
                .unwrap()
                .translation
                .truncate();
            grid.agent_cell(p, d).expect("on the map")
        })
        .collect()
}

/// The cells the footprint of a unit of `diameter` on `anchor` covers.
fn covered(shape: GridShape, anchor: Cell, diameter: u32) -> impl Iterator<Item = Cell> {
    let rect = shape.footprint(anchor, diameter);
    rect.cells()
        .filter(move |&c| shape.covers(anchor, diameter, c))
}

/// True when two footprints share a cell.
fn overlap(shape: GridShape, a: (Cell, u32), b: (Cell, u32)) -> bool {
    covered(shape, a.0, a.1).any(|c| shape.covers(b.0, b.1, c))
}

/// Panics, with the tick and both units, when two footprints share a cell or a unit
/// stands where its footprint meets a wall.
pub(crate) fn assert_no_shared_cell(app: &App, units: &[(Entity, u32)], tick: usize) {
    let grid = app.world().resource::<NavGrid>();
    let shape = grid.layout().shape();
    let mut owner: HashMap<Cell, Entity> = HashMap::new();
    for (&(e, d), anchor) in units.iter().zip(anchors(app, units)) {
        assert!(
            !grid.is_blocked(anchor, d),
            "{:?}, tick {tick}: {e} on {anchor} touches a wall",
            grid.layout()
        );
        for c in covered(shape, anchor, d) {
            if let Some(other) = owner.insert(c, e) {
                panic!(
                    "{:?}, tick {tick}: {e} and {other} both stand on {c}",
                    grid.layout()
                );
            }
        }
    }
}

pub(crate) fn arrived(app: &App, units: &[(Entity, u32)]) -> usize {
    units
        .iter()
        .filter(|(e, _)| app.world().get::<Arrived>(*e).is_some())
        .count()
}

#[test]
fn grid_steppers_never_share_a_cell_and_every_one_arrives() {
    // 48 units of diameters 1 and 2 crossing the level (narrow gaps in two long walls),
    // each to a goal of its own.
    for layout in &shapes()[..2] {
        for seed in [3, 11, 19, 27] {
            crossing(*layout, seed);
        }
    }
}

#[test]
fn grid_steppers_never_share_a_tile_and_every_one_arrives_on_hexagons() {
    for layout in &shapes()[2..] {
        for seed in [3, 11] {
            crossing(*layout, seed);
        }
    }
}

/// Seeds whose traffic meets head-on at the level's one-tile gaps on hexagons: on
/// `Hex(RowOdd)`, in seed 19 two queues meet at a gap, each front unit boxed in by its
/// own queue; in seed 27 a two-tile unit parks with its footprint over a gap. Every
/// unit arrives; `gaps` replays both jams.
#[test]
fn grid_steppers_get_through_one_tile_gaps_both_ways_on_hexagons() {
    for layout in &shapes()[2..] {
        for seed in [19, 27] {
            crossing(*layout, seed);
        }
    }
}

fn crossing(layout: bevy_tilepath::prelude::GridLayout, seed: u64) {
    {
        let grid = level_grid(layout);
        let map = grid.scenario().clone();
        let shape = layout.shape();
        let mut app = app();
        app.insert_resource(grid);
        let mut rng = Rng(seed);
        let mut taken: Vec<(Cell, u32)> = Vec::new();
        let fits = |taken: &[(Cell, u32)], c: Cell, d: u32| {
            !map.layer(d).unwrap().is_blocked(c)
                && taken.iter().all(|&t| !overlap(shape, (c, d), t))
        };
        let mut units = Vec::new();
        let mut goals: Vec<(Cell, u32)> = Vec::new();
        for i in 0..48 {
            let d = if i % 6 == 5 { 2 } else { 1 };
            let start = loop {
                let c = Cell::new(rng.below(SIZE) as i32, rng.below(SIZE) as i32);
                if fits(&taken, c, d) {
                    break c;
                }
            };
            let goal = loop {
                let c = Cell::new(rng.below(SIZE) as i32, rng.below(SIZE) as i32);
                if fits(&goals, c, d) && map.connected(start, c, d) {
                    break c;
                }
            };
            taken.push((start, d));
            goals.push((goal, d));
            units.push((spawn(&mut app, start, goal, d), d));
        }
        let mut done = None;
        for tick in 1..=1_500 {
            app.update();
            assert_no_shared_cell(&app, &units, tick);
            if arrived(&app, &units) == units.len() {
                done = Some(tick);
                break;
            }
        }
        let got = arrived(&app, &units);
        if got != units.len() {
            let now = anchors(&app, &units);
            for (i, &(e, d)) in units.iter().enumerate() {
                if app.world().get::<Arrived>(e).is_none() {
                    let p = app
                        .world()
                        .get::<bevy_tilepath::steering::GridStepProgress>(e)
                        .unwrap();
                    let path = crate::common::found_path(&app, e);
                    let next = path.cells.get(p.next_cell()).copied();
                    let holder = next.and_then(|c| app.world().resource::<Occupancy>().holder(c));
                    println!(
                        "stuck {e} d{d} at {:?} goal {:?} {p:?} next {next:?} held by {holder:?} path {:?}",
                        now[i],
                        goals[i],
                        &path.cells[..path.cells.len().min(8)]
                    );
                    let c = now[i];
                    let occ = app.world().resource::<Occupancy>();
                    for y in c.y - 4..=c.y + 4 {
                        let row: String = (c.x - 6..=c.x + 6)
                            .map(|x| {
                                let cell = Cell::new(x, y);
                                if map.layer(1).unwrap().is_blocked(cell) {
                                    '#'
                                } else if let Some(h) = occ.holder(cell) {
                                    if h == e {
                                        '@'
                                    } else {
                                        char::from(b'a' + (h.index_u32() % 26) as u8)
                                    }
                                } else {
                                    '.'
                                }
                            })
                            .collect();
                        println!("{row}");
                    }
                }
            }
        }
        println!(
            "{layout:?} seed {seed}: {got} of {} arrived, at tick {done:?}",
            units.len()
        );
        assert_eq!(
            got,
            units.len(),
            "{layout:?} seed {seed}: units still on their way"
        );
        // Every path ends on the unit's goal (their footprints do not overlap, so no
        // claim moves one); a unit that made room for others after it arrived stands at
        // most 6 cells away from it.
        // Units that made room for others after they arrived walk back.
        for tick in 0..60 {
            app.update();
            assert_no_shared_cell(&app, &units, tick);
        }
        let now = anchors(&app, &units);
        for ((&(e, _), &(goal, _)), at) in units.iter().zip(&goals).zip(now) {
            let path = crate::common::found_path(&app, e);
            assert_eq!(path.requested, goal);
            assert_eq!(path.cells.last(), Some(&path.reached));
            assert_eq!(
                path.cells.last(),
                Some(&goal),
                "{layout:?} seed {seed}: {e} from {} asked {} reached {}",
                path.from,
                path.requested,
                path.reached
            );
            assert!(
                shape.steps(at, path.reached) <= 6,
                "{layout:?} seed {seed}: {e} at {at}, path end {}",
                path.reached
            );
        }
    }
}

/// A corridor one cell wide with a pocket below its middle, reached only from the
/// corridor on every shape.
const CORRIDOR: &str = "
    .........
    ####.####
";

fn corridor_app(layout: bevy_tilepath::prelude::GridLayout) -> App {
    let mut app = app();
    app.insert_resource(TilepathSettings { ..unlimited() });
    app.insert_resource(grid_of(layout, CORRIDOR));
    app
}

#[test]
fn two_grid_steppers_facing_each_other_in_a_corridor_both_get_through() {
    for layout in shapes() {
        two_in_a_corridor(layout);
    }
}

fn two_in_a_corridor(layout: bevy_tilepath::prelude::GridLayout) {
    let mut app = corridor_app(layout);
    let a = spawn(&mut app, Cell::new(0, 0), Cell::new(8, 0), 1);
    let b = spawn(&mut app, Cell::new(8, 0), Cell::new(0, 0), 1);
    let units = [(a, 1), (b, 1)];
    let mut done = None;
    for tick in 1..=200 {
        app.update();
        assert_no_shared_cell(&app, &units, tick);
        if arrived(&app, &units) == 2 {
            done = Some(tick);
            break;
        }
    }
    println!("{layout:?}: both through at tick {done:?}");
    assert!(
        done.is_some(),
        "{layout:?}: the two units never got past each other"
    );
    assert_eq!(
        anchors(&app, &units),
        [Cell::new(8, 0), Cell::new(0, 0)],
        "{layout:?}"
    );
}

#[test]
fn an_idle_grid_stepper_steps_aside_for_a_unit_it_blocks() {
    for layout in shapes() {
        idle_steps_aside(layout);
    }
}

fn idle_steps_aside(layout: bevy_tilepath::prelude::GridLayout) {
    let mut app = corridor_app(layout);
    // An idle unit (no request) stands in the corridor, above the pocket.
    let at = app
        .world()
        .resource::<NavGrid>()
        .cell_to_world(Cell::new(4, 0));
    let idle = app
        .world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            GridStepper::default(),
        ))
        .id();
    let mover = spawn(&mut app, Cell::new(0, 0), Cell::new(8, 0), 1);
    let units = [(idle, 1), (mover, 1)];
    let mut done = None;
    for tick in 1..=40 {
        app.update();
        assert_no_shared_cell(&app, &units, tick);
        if app.world().get::<Arrived>(mover).is_some() {
            done = Some(tick);
            break;
        }
    }
    // 8 steps, a first tick to plan, no waiting: the idle unit made room at once.
    assert_eq!(done, Some(9), "{layout:?}: the mover was held up");
    assert_eq!(
        anchors(&app, &units)[0],
        Cell::new(4, 1),
        "{layout:?}: the idle unit stepped into the pocket"
    );
    let occupancy = app.world().resource::<Occupancy>();
    assert_eq!(occupancy.holder(Cell::new(8, 0)), Some(mover));
    assert_eq!(occupancy.holder(Cell::new(4, 1)), Some(idle));
}
