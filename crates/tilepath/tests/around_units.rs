//! Searches around other units against a plain Dijkstra that prices the same cells.

mod common;

use common::{cost_of, oracle_cost_with, random_grid};
use tilepath::grid::{Cell, Cost, GridSize, STRAIGHT};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{BitGrid, footprint};
use tilepath::search::{AvoidUnits, UnitCells, UnitKind, validate_path};

const PENALTY_TILES: f32 = 3.0;

/// The map with its units: `#` walls, `S` standing units, `m` moving ones, `o` the path.
fn render(bits: &BitGrid, units: &UnitCells, path: &[Cell]) -> String {
    let size = bits.size();
    let mut out = String::new();
    for y in 0..size.height as i32 {
        for x in 0..size.width as i32 {
            let c = Cell::new(x, y);
            out.push(if bits.get_or(c, true) {
                '#'
            } else if path.contains(&c) {
                'o'
            } else {
                match units.kind(c) {
                    Some(UnitKind::Standing) => 'S',
                    Some(UnitKind::Moving) => 'm',
                    None => '.',
                }
            });
        }
        out.push('\n');
    }
    out
}

#[test]
fn paths_around_units_cost_what_dijkstra_says_under_every_tier() {
    let size = GridSize::new(24, 18);
    let penalty = (f64::from(PENALTY_TILES) * STRAIGHT as f64) as Cost;
    let mut pf = Pathfinder::new();
    let mut units = UnitCells::new();
    let mut checked = 0;
    // Queries where the map's own shortest path crosses a unit the tier counts.
    let mut mattered = 0;
    for seed in 0..96u64 {
        let bits = random_grid(size, 18, seed);
        let map = CachedScenario::from_bits(bits.clone()).unwrap();
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        units.clear(size);
        for _ in 0..40 {
            let c = Cell::new(rng.range(0, 23), rng.range(0, 17));
            let kind = if rng.chance(1, 2) {
                UnitKind::Standing
            } else {
                UnitKind::Moving
            };
            units.mark(c, 1 + rng.range(0, 1) as u32, kind);
        }
        let diameter = 1 + (seed % 2) as u32;
        let start = Cell::new(rng.range(0, 23), rng.range(0, 17));
        let goal = Cell::new(rng.range(0, 23), rng.range(0, 17));
        for avoid in [AvoidUnits::Ignore, AvoidUnits::Standing, AvoidUnits::All] {
            let query = PathQuery::new(start, goal)
                .diameter(diameter)
                .options(SearchOptions::EXACT);
            let extra = |c: Cell| {
                let hit = footprint(c, diameter)
                    .cells()
                    .any(|f| units.kind(f).is_some_and(|k| avoid.avoids(k)));
                if hit { penalty } else { 0 }
            };
            let oracle = oracle_cost_with(&map, extra, start, goal, diameter);
            let ours = pf.find_around(&map, &query, &units, avoid, PENALTY_TILES);
            let path = pf.path().to_vec();
            let shown = || render(&bits, &units, &path);
            match (oracle, ours) {
                (None, Err(_)) => {}
                (Some(best), Ok(stats)) => {
                    let layer = map.layer(diameter).unwrap();
                    validate_path(layer, &path, start, goal, Connectivity::Octile)
                        .unwrap_or_else(|e| panic!("seed {seed} {avoid:?}: {e:?}\n{}", shown()));
                    let crossed = path[1..].iter().filter(|&&c| extra(c) > 0).count() as Cost;
                    let priced = cost_of(&path) + crossed * penalty;
                    assert_eq!(
                        priced,
                        best,
                        "seed {seed} {avoid:?} d {diameter} {start:?} -> {goal:?}\n{}",
                        shown()
                    );
                    assert_eq!(
                        stats.cost,
                        cost_of(&path),
                        "seed {seed}: cost without penalties"
                    );
                    checked += 1;
                    let mut plain = Pathfinder::new();
                    if plain.find(&map, &query).is_ok() {
                        mattered += usize::from(plain.path()[1..].iter().any(|&c| extra(c) > 0));
                    }
                }
                (oracle, ours) => panic!(
                    "seed {seed} {avoid:?}: oracle {oracle:?}, ours {ours:?}\n{}",
                    shown()
                ),
            }
        }
    }
    assert!(checked >= 90, "only {checked} reachable queries");
    assert!(
        mattered >= 20,
        "units were in the way of only {mattered} queries"
    );
}

#[test]
fn a_parked_unit_in_the_only_corridor_is_passed_through_not_refused() {
    let map = CachedScenario::from_ascii(
        "
        ..........
        ####.#####
        ..........
    ",
    )
    .unwrap();
    let mut units = UnitCells::new();
    units.clear(map.size());
    units.mark(Cell::new(4, 1), 1, UnitKind::Standing);
    let query = PathQuery::new(Cell::new(0, 0), Cell::new(9, 2));
    let mut pf = Pathfinder::new();
    let around = pf
        .find_around(&map, &query, &units, AvoidUnits::Standing, 8.0)
        .unwrap();
    assert!(pf.path().contains(&Cell::new(4, 1)));
    assert_eq!(around.cost, pf.find(&map, &query).unwrap().cost);
}

#[test]
fn units_recorded_for_another_map_size_are_not_read() {
    let map = CachedScenario::from_ascii("......\n......\n......").unwrap();
    let mut units = UnitCells::new();
    units.clear(GridSize::new(3, 3));
    units.mark(Cell::new(2, 1), 1, UnitKind::Standing);
    let query = PathQuery::new(Cell::new(0, 1), Cell::new(5, 1));
    let mut pf = Pathfinder::new();
    pf.find_around(&map, &query, &units, AvoidUnits::All, 8.0)
        .unwrap();
    assert_eq!(pf.path().len(), 6);
}
