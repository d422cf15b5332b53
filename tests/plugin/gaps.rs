//! Grid steppers at the one-tile gaps of the level on hexagons: the two jams of the
//! crossing (`grid_step::crossing`) replayed from where they formed, on `Hex(RowOdd)`
//! and, transposed, on `Hex(ColumnEven)`.

use bevy::prelude::*;
use bevy_tilepath::prelude::{Cell, GridLayout, NavGrid};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::shape::HexLayout;

use crate::common::{TILE, app, bits_of, level};
use crate::grid_step::{anchors, arrived, assert_no_shared_cell, spawn};

/// The level's cells on a hexagonal layout: as they are on `Hex(RowOdd)`; on
/// `Hex(ColumnEven)` cell `(x, y)` is `(y + 1, x)`, which keeps every cell's
/// neighbours (odd rows shifted right become even columns shifted down).
#[derive(Clone, Copy)]
struct OnHex(GridLayout);

impl OnHex {
    fn cell(self, c: Cell) -> Cell {
        match self.0 {
            GridLayout::Hex(HexLayout::ColumnEven) => Cell::new(c.y + 1, c.x),
            _ => c,
        }
    }

    /// The level laid out as `self.0` (a wall column before it on `Hex(ColumnEven)`).
    fn grid(self) -> NavGrid {
        let walls = level();
        let walls = match self.0 {
            GridLayout::Hex(HexLayout::ColumnEven) => {
                let (w, h) = (walls[0].len(), walls.len());
                let mut out = vec![vec![true; h + 1]; w];
                for (y, row) in walls.iter().enumerate() {
                    for (x, &wall) in row.iter().enumerate() {
                        out[x][y + 1] = wall;
                    }
                }
                out
            }
            _ => walls,
        };
        let map = CachedScenario::from_bits(bits_of(&walls)).unwrap();
        NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)).with_layout(self.0)
    }
}

fn layouts() -> [OnHex; 2] {
    [
        OnHex(GridLayout::Hex(HexLayout::RowOdd)),
        OnHex(GridLayout::Hex(HexLayout::ColumnEven)),
    ]
}

/// Runs `trips` (start, goal, diameter) on the level for at most `limit` ticks, no two
/// footprints ever sharing a tile; the tick all arrived.
fn run(
    on: OnHex,
    trips: &[(Cell, Cell, u32)],
    limit: usize,
) -> (App, Vec<(Entity, u32)>, Option<usize>) {
    let mut app = app();
    app.insert_resource(on.grid());
    let units: Vec<(Entity, u32)> = trips
        .iter()
        .map(|&(s, g, d)| (spawn(&mut app, on.cell(s), on.cell(g), d), d))
        .collect();
    let done = (1..=limit).find(|&tick| {
        app.update();
        assert_no_shared_cell(&app, &units, tick);
        arrived(&app, &units) == units.len()
    });
    (app, units, done)
}

/// Asserts that every unit of a `run` on `on` arrived (and prints the tick).
fn through(on: OnHex, (app, units, done): &(App, Vec<(Entity, u32)>, Option<usize>)) {
    println!("{:?}: all through at tick {done:?}", on.0);
    assert!(
        done.is_some(),
        "{:?}: {} of {} arrived",
        on.0,
        arrived(app, units),
        units.len()
    );
}

/// Seed 19's jam: two queues of one-tile units meet head-on at the gap (29, 32) of the
/// long wall. The front units face each other, and each is boxed in by the units
/// queued behind it (every other neighbour is a wall), so neither has a free cell to
/// give way to. The one giving way backs into its queue: the units behind it each
/// step one tile along its way out, into the nearest free tile.
#[test]
fn grid_steppers_queued_head_on_at_a_one_tile_gap_all_get_through_on_hexagons() {
    let c = Cell::new;
    let trips = [
        // Southbound: the first in the gap, the others queued behind it.
        (c(29, 32), c(17, 39), 1),
        (c(29, 31), c(9, 53), 1),
        (c(30, 30), c(38, 47), 1),
        (c(29, 30), c(28, 46), 1),
        (c(30, 29), c(36, 62), 1),
        (c(31, 28), c(3, 54), 1),
        // Northbound, queued below the gap.
        (c(28, 33), c(41, 11), 1),
        (c(27, 33), c(38, 7), 1),
        (c(26, 33), c(32, 22), 1),
        (c(29, 34), c(34, 22), 1),
        (c(28, 34), c(37, 4), 1),
    ];
    for on in layouts() {
        through(on, &run(on, &trips, 1_500));
    }
}

/// Seed 27's jam: a two-tile unit parked on its goal (21, 37), whose footprint covers
/// the gap (20, 37) of the wall at x = 20, and two one-tile units that need the gap.
/// The parked unit steps aside to (22, 37), a tile whose footprint (it and its six
/// neighbours) is off their way though its 3 × 3 bounding square is not, and comes
/// back when they have passed.
#[test]
fn a_wide_grid_stepper_parked_on_a_one_tile_gap_makes_way_on_hexagons() {
    let c = Cell::new;
    let trips = [
        (c(21, 37), c(21, 37), 2),
        (c(19, 37), c(38, 8), 1),
        (c(21, 35), c(11, 49), 1),
    ];
    for on in layouts() {
        let ran = run(on, &trips, 600);
        through(on, &ran);
        let (mut app, units, _) = ran;
        for tick in 0..60 {
            app.update();
            assert_no_shared_cell(&app, &units, tick);
        }
        assert_eq!(
            anchors(&app, &units)[0],
            on.cell(c(21, 37)),
            "{:?}: the wide unit is back on its goal",
            on.0
        );
    }
}
