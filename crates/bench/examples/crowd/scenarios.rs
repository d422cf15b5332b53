//! The crowd scenarios: their maps (built here, or by the core's generators), where each
//! unit stands, where it is sent and how wide it is.

use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::Cell;
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::tilepath::scenario::BitGrid;
use bevy_tilepath::tilepath::scenario::generate;

use crate::corridors;

/// Every scenario, in table order.
pub const NAMES: [&str; 9] = [
    "gap1",
    "gap3",
    "head_on",
    "parked",
    "one_point",
    "army",
    "mixed",
    "corridors",
    "corridors_large",
];

/// Seed of the `army` scenario's open field.
const ARMY_SEED: u64 = 3;

/// One unit of a scenario.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    /// Anchor cell at the start ([`bevy_tilepath::prelude::NavGrid::agent_cell`]).
    pub start: Cell,
    /// The goal our plugin is given (for `one_point` and `army`: the same point for all).
    pub goal: Cell,
    /// The goal northstar is given: `goal`, except where every unit is sent to one point
    /// (northstar has no goal claims: each unit gets its own cell around the point).
    pub ns_goal: Cell,
    /// Footprint in cells ([`bevy_tilepath::prelude::PathRequest::diameter`]).
    pub diameter: u32,
    /// A parked friendly: it gets no order (ours: a request to its own cell).
    pub parked: bool,
    /// The move order it belongs to, whose units may exchange goals (ours:
    /// [`bevy_tilepath::prelude::PathRequest::goal_group`]); `None`: its own order.
    pub group: Option<u32>,
}

/// One scenario: a map and its units.
pub struct Scenario {
    pub name: &'static str,
    /// Obstacles, 1 = blocked.
    pub bits: BitGrid,
    pub units: Vec<Unit>,
    /// The width of the one gap every unit must pass, for the throughput bound of the
    /// ideal time.
    pub gap: Option<u32>,
    /// Why northstar does not run this scenario, if it does not.
    pub northstar_na: Option<&'static str>,
    /// How the ideal time is computed, for the table's notes.
    pub ideal_note: &'static str,
    /// Leg scenarios: each unit's successive goals (the first is its `goal`); empty for
    /// the others, whose units have one goal each.
    pub legs: Vec<Vec<Cell>>,
    /// A timed leg run lasts exactly this many simulated seconds; `None`: the run lasts
    /// until every unit is done (or the limit).
    pub timed_s: Option<f64>,
}

impl Scenario {
    /// Builds scenario `name` (one of [`NAMES`]), one instance per seed (`corridors`:
    /// [`corridors::SEEDS`]; the others: one). `legs`: leg scenarios give every unit that
    /// many goals and run until all are done instead of for a fixed time.
    pub fn build(name: &str, legs: Option<u32>) -> Option<Vec<Scenario>> {
        Some(vec![match name {
            "corridors" => {
                return Some(
                    (0..corridors::SEEDS)
                        .map(|s| leg_scenario("corridors", corridors::corridors(s, legs), legs))
                        .collect(),
                );
            }
            "corridors_large" => {
                leg_scenario("corridors_large", corridors::corridors_large(legs), legs)
            }
            "gap1" => gap("gap1", 1),
            "gap3" => gap("gap3", 3),
            "head_on" => head_on(),
            "parked" => parked(),
            "one_point" => one_point(),
            "army" => army(),
            "mixed" => mixed(),
            _ => return None,
        }])
    }

    /// The core's cached map.
    pub fn map(&self) -> CachedScenario {
        CachedScenario::from_bits(self.bits.clone()).expect("the scenarios' maps are valid")
    }

    /// Units that get an order (all but the parked ones).
    pub fn movers(&self) -> usize {
        self.units.iter().filter(|u| !u.parked).count()
    }
}

fn open(width: u32, height: u32) -> BitGrid {
    BitGrid::new(GridSize::new(width, height), false)
}

/// Cells of the rectangle `x0..x1` × `y0..y1`, row by row.
fn block(x0: i32, x1: i32, y0: i32, y1: i32) -> impl Iterator<Item = Cell> {
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| Cell::new(x, y)))
}

fn mover(start: Cell, goal: Cell, diameter: u32) -> Unit {
    Unit {
        start,
        goal,
        ns_goal: goal,
        diameter,
        parked: false,
        group: None,
    }
}

/// `unit` as a member of move order `group`.
fn in_order(group: u32, unit: Unit) -> Unit {
    Unit {
        group: Some(group),
        ..unit
    }
}

/// 60 × 48, a wall at x = 30 with a gap of `width` cells around y = 24; 200 units in a
/// 10 × 20 block on the west side, each sent to the same place in a block 38 cells east.
fn gap(name: &'static str, width: i32) -> Scenario {
    let mut bits = open(60, 48);
    let first = 24 - (width - 1) / 2;
    for y in 0..48 {
        if !(first..first + width).contains(&y) {
            bits.set(Cell::new(30, y), true);
        }
    }
    let units = block(6, 16, 14, 34)
        .map(|c| in_order(0, mover(c, Cell::new(c.x + 38, c.y), 1)))
        .collect();
    Scenario {
        name,
        bits,
        units,
        gap: Some(width as u32),
        northstar_na: None,
        ideal_note: "max(longest free-flow path / speed, units / (gap cells × speed in tiles/s)): \
                     the gap passes at most one unit per lane per tile of travel",
        legs: Vec::new(),
        timed_s: None,
    }
}

/// An 84 × 4 corridor (the map edge is its wall): 100 units fill x 2..27, 100 more x
/// 57..82; each unit is sent to the cell 55 columns away, in the other group's block.
fn head_on() -> Scenario {
    let west = block(2, 27, 0, 4).map(|c| in_order(0, mover(c, Cell::new(c.x + 55, c.y), 1)));
    let east = block(57, 82, 0, 4).map(|c| in_order(1, mover(c, Cell::new(c.x - 55, c.y), 1)));
    Scenario {
        name: "head_on",
        bits: open(84, 4),
        units: west.chain(east).collect(),
        gap: None,
        northstar_na: None,
        ideal_note: "longest free-flow path / speed (55 tiles), as if the groups could pass \
                     through each other",
        legs: Vec::new(),
        timed_s: None,
    }
}

/// A 100 × 7 corridor: 50 parked units on rows 1, 3 and 5, every other column from x = 30,
/// and 30 units in a 5 × 6 block at x 2..7 sent 88 columns east through them.
fn parked() -> Scenario {
    let parked = [1, 3, 5]
        .into_iter()
        .flat_map(|y| (0..17).map(move |k| Cell::new(30 + 2 * k, y)))
        .take(50)
        .map(|c| Unit {
            parked: true,
            ..mover(c, c, 1)
        });
    let group = block(2, 7, 0, 6).map(|c| in_order(0, mover(c, Cell::new(c.x + 88, c.y), 1)));
    Scenario {
        name: "parked",
        bits: open(100, 7),
        units: group.chain(parked).collect(),
        gap: None,
        northstar_na: None,
        ideal_note: "longest free-flow path / speed (88 tiles), as if the parked units were not there",
        legs: Vec::new(),
        timed_s: None,
    }
}

/// Each unit's own cell around `point` for northstar: the free cells nearest to it (by
/// squared distance, then y, then x), the unit nearest the point getting the nearest
/// cell, as our plugin's goal claims hand them out.
fn rings(bits: &BitGrid, point: Cell, units: &mut [Unit]) {
    let size = bits.size();
    let d2 = |a: Cell, b: Cell| {
        let (dx, dy) = (i64::from(a.x - b.x), i64::from(a.y - b.y));
        dx * dx + dy * dy
    };
    let mut cells: Vec<Cell> = (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| !bits.get_or(c, true))
        .collect();
    cells.sort_unstable_by_key(|&c| (d2(c, point), c.y, c.x));
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_unstable_by_key(|&i| (d2(units[i].start, point), i));
    for (k, &i) in order.iter().enumerate() {
        units[i].ns_goal = cells[k];
    }
}

/// A 144 × 96 open field: 1,000 units in a 40 × 25 block at x 4..44, all sent to the one
/// point (112, 48).
fn one_point() -> Scenario {
    let bits = open(144, 96);
    let point = Cell::new(112, 48);
    let mut units: Vec<Unit> = block(4, 44, 36, 61).map(|c| mover(c, point, 1)).collect();
    rings(&bits, point, &mut units);
    Scenario {
        name: "one_point",
        bits,
        units,
        gap: None,
        northstar_na: None,
        ideal_note: "longest free-flow path / speed to the cell each unit ends on (ours: the \
                     cell its claim got; northstar: its ring cell)",
        legs: Vec::new(),
        timed_s: None,
    }
}

/// The core's `open_field(512 × 512, 3)`: 5,000 units on the free cells nearest (64, 256),
/// all sent to the free cell nearest (448, 256).
fn army() -> Scenario {
    let bits = generate::open_field(GridSize::new(512, 512), ARMY_SEED);
    let size = bits.size();
    let nearest = |to: Cell| {
        let mut cells: Vec<Cell> = (0..size.area())
            .map(|i| size.cell(i))
            .filter(|&c| !bits.get_or(c, true))
            .collect();
        let d2 = |c: Cell| {
            let (dx, dy) = (i64::from(c.x - to.x), i64::from(c.y - to.y));
            dx * dx + dy * dy
        };
        cells.sort_unstable_by_key(|&c| (d2(c), c.y, c.x));
        cells
    };
    let point = nearest(Cell::new(448, 256))[0];
    let mut units: Vec<Unit> = nearest(Cell::new(64, 256))
        .into_iter()
        .take(5_000)
        .map(|c| mover(c, point, 1))
        .collect();
    rings(&bits, point, &mut units);
    Scenario {
        name: "army",
        bits,
        units,
        gap: None,
        northstar_na: Some(
            "impractical: over a second of CPU per simulated frame with 5,000 Blocking \
             units, hours for the whole run",
        ),
        ideal_note: "longest free-flow path / speed to the cell each unit ends on, as for one_point",
        legs: Vec::new(),
        timed_s: None,
    }
}

/// A 64 × 64 open field, three groups crossing near the centre: 48 units of diameter 1
/// going east, 16 of diameter 2 going north, 9 of diameter 3 going north-west (anchors
/// one diameter apart, so footprints touch without overlapping).
fn mixed() -> Scenario {
    let small = block(2, 8, 28, 36).map(|c| in_order(0, mover(c, Cell::new(c.x + 54, c.y), 1)));
    let medium = block(0, 4, 0, 4).map(|c| {
        let start = Cell::new(27 + 2 * c.x, 2 + 2 * c.y);
        in_order(1, mover(start, Cell::new(start.x, start.y + 50), 2))
    });
    let large = block(0, 3, 0, 3).map(|c| {
        let (x, y) = (3 * c.x, 3 * c.y);
        in_order(
            2,
            mover(Cell::new(54 + x, 16 + y), Cell::new(4 + x, 44 + y), 3),
        )
    });
    Scenario {
        name: "mixed",
        bits: open(64, 64),
        units: small.chain(medium).chain(large).collect(),
        gap: None,
        northstar_na: Some("northstar 0.7 has no agent sizes: every agent is one cell"),
        ideal_note: "longest free-flow path / speed, each path for the unit's own diameter",
        legs: Vec::new(),
        timed_s: None,
    }
}

/// A leg scenario (`corridors.rs`): one-cell units, each sent through
/// its goals; timed ([`corridors::LEG_RUN_S`]) unless given `legs` goals each.
fn leg_scenario(name: &'static str, drawn: corridors::Drawn, legs: Option<u32>) -> Scenario {
    let units = drawn
        .starts
        .iter()
        .zip(&drawn.legs)
        .map(|(&start, goals)| mover(start, goals[0], 1))
        .collect();
    Scenario {
        name,
        bits: drawn.bits,
        units,
        gap: None,
        northstar_na: None,
        ideal_note: "with `--legs N`, the longest sum over a unit's legs of the free-flow \
                     path / speed; none for a timed run",
        legs: drawn.legs,
        timed_s: legs.is_none().then_some(corridors::LEG_RUN_S),
    }
}
