//! Grid stepping: units one cell a tick that never share a cell, face each other in
//! corridors, and ask idle units to step aside.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_tilepath::prelude::{Arrived, Cell, GridStepper, NavGrid, PathRequest, TilepathSettings};
use bevy_tilepath::scenario::{CachedScenario, footprint};
use bevy_tilepath::steering::Occupancy;

use crate::common::{Rng, SIZE, TILE, app, bits_of, center_of, level, unlimited};

/// A grid stepper of `diameter` at `start`, asking for `goal`.
fn spawn(app: &mut App, start: Cell, goal: Cell, diameter: u32) -> Entity {
    app.world_mut()
        .spawn((
            Transform::from_translation(center_of(start, diameter).extend(1.0)),
            PathRequest::new(goal).diameter(diameter),
            GridStepper::default(),
        ))
        .id()
}

/// The anchor cell of every unit (by its position) and its diameter.
fn anchors(app: &App, units: &[(Entity, u32)]) -> Vec<Cell> {
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

/// Panics, with the tick and both units, when two footprints share a cell.
fn assert_no_shared_cell(app: &App, units: &[(Entity, u32)], tick: usize) {
    let mut owner: HashMap<Cell, Entity> = HashMap::new();
    for (&(e, d), anchor) in units.iter().zip(anchors(app, units)) {
        for c in footprint(anchor, d).cells() {
            if let Some(other) = owner.insert(c, e) {
                panic!("tick {tick}: {e} and {other} both stand on {c}");
            }
        }
    }
}

fn arrived(app: &App, units: &[(Entity, u32)]) -> usize {
    units
        .iter()
        .filter(|(e, _)| app.world().get::<Arrived>(*e).is_some())
        .count()
}

#[test]
fn grid_steppers_never_share_a_cell_and_every_one_arrives() {
    // 48 units of diameters 1 and 2 crossing the level (narrow gaps in two long walls),
    // each to a goal of its own.
    let walls = level();
    let map = CachedScenario::from_bits(bits_of(&walls)).unwrap();
    for seed in [3, 11, 19, 27] {
        let mut app = app();
        app.insert_resource(NavGrid::new(map.clone(), Vec2::ZERO, Vec2::splat(TILE)));
        let mut rng = Rng(seed);
        let mut taken: Vec<(Cell, u32)> = Vec::new();
        let fits = |taken: &[(Cell, u32)], c: Cell, d: u32| {
            !map.layer(d).unwrap().is_blocked(c)
                && taken.iter().all(|&(t, td)| {
                    let (a, b) = (footprint(c, d), footprint(t, td));
                    a.max.x <= b.min.x
                        || b.max.x <= a.min.x
                        || a.max.y <= b.min.y
                        || b.max.y <= a.min.y
                })
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
            "seed {seed}: {got} of {} arrived, at tick {done:?}",
            units.len()
        );
        assert_eq!(got, units.len(), "seed {seed}: units still on their way");
        // Every path ends on the unit's goal; a unit that made room for others after it
        // arrived stands at most 6 cells away from it.
        let now = anchors(&app, &units);
        for ((&(e, _), &(goal, _)), at) in units.iter().zip(&goals).zip(now) {
            assert_eq!(crate::common::found_path(&app, e).cells.last(), Some(&goal));
            assert!(
                at.chebyshev(goal) <= 6,
                "seed {seed}: {e} at {at}, goal {goal}"
            );
        }
    }
}

/// A corridor one cell wide with a pocket below its middle.
const CORRIDOR: &str = "
    .........
    ####.####
";

fn corridor_app() -> App {
    let mut app = app();
    app.insert_resource(TilepathSettings { ..unlimited() });
    app.insert_resource(NavGrid::from_ascii(CORRIDOR, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    app
}

#[test]
fn two_grid_steppers_facing_each_other_in_a_corridor_both_get_through() {
    let mut app = corridor_app();
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
    println!("both through at tick {done:?}");
    assert!(done.is_some(), "the two units never got past each other");
    assert_eq!(anchors(&app, &units), [Cell::new(8, 0), Cell::new(0, 0)]);
}

#[test]
fn an_idle_grid_stepper_steps_aside_for_a_unit_it_blocks() {
    let mut app = corridor_app();
    // An idle unit (no request) stands in the corridor, above the pocket.
    let idle = app
        .world_mut()
        .spawn((
            Transform::from_translation(center_of(Cell::new(4, 0), 1).extend(1.0)),
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
    assert_eq!(done, Some(9), "the mover was held up");
    assert_eq!(
        anchors(&app, &units)[0],
        Cell::new(4, 1),
        "the idle unit stepped into the pocket"
    );
    let occupancy = app.world().resource::<Occupancy>();
    assert_eq!(occupancy.holder(Cell::new(8, 0)), Some(mover));
    assert_eq!(occupancy.holder(Cell::new(4, 1)), Some(idle));
}
