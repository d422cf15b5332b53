//! Searches around other units against a plain Dijkstra that prices the same cells.

mod common;

use common::{cost_of, oracle_cost_with, random_grid};
use tilepath::grid::{Cell, Cost, GridSize, STRAIGHT};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{BitGrid, footprint};
use tilepath::search::{Around, AvoidUnits, Congestion, UnitCells, UnitKind, validate_path};

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

/// The map with its congestion: `#` walls, `o` the path, `0`-`9` the level in tenths.
fn render_congestion(bits: &BitGrid, congestion: &Congestion, path: &[Cell]) -> String {
    let size = bits.size();
    let mut out = String::new();
    for y in 0..size.height as i32 {
        for x in 0..size.width as i32 {
            let c = Cell::new(x, y);
            let tenths = u32::from(congestion.level(c)) * 10 / u32::from(Congestion::FULL);
            out.push(if bits.get_or(c, true) {
                '#'
            } else if path.contains(&c) {
                'o'
            } else if congestion.level(c) > 0 {
                char::from_digit(tenths.min(9), 10).unwrap_or('9')
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

#[test]
fn paths_through_congestion_cost_what_dijkstra_says() {
    let size = GridSize::new(24, 18);
    let (unit_tiles, congestion_tiles) = (PENALTY_TILES, 5.0_f32);
    let penalty = (f64::from(unit_tiles) * STRAIGHT as f64) as Cost;
    let full = (f64::from(congestion_tiles) * STRAIGHT as f64) as Cost;
    let mut pf = Pathfinder::new();
    let (mut units, mut congestion) = (UnitCells::new(), Congestion::new());
    let (mut checked, mut mattered) = (0, 0);
    for seed in 0..256u64 {
        let bits = random_grid(size, 18, seed);
        let map = CachedScenario::from_bits(bits.clone()).unwrap();
        let mut rng = SplitMix64::new(seed ^ 0xc0de);
        units.clear(size);
        congestion.resize(size);
        congestion.clear();
        for _ in 0..12 {
            let c = Cell::new(rng.range(0, 23), rng.range(0, 17));
            units.mark(c, 1, UnitKind::Standing);
        }
        for _ in 0..60 {
            let c = Cell::new(rng.range(0, 23), rng.range(0, 17));
            let by = rng.range(1, i32::from(u16::MAX)) as u16;
            congestion.raise(c, 1 + rng.range(0, 1) as u32, by);
        }
        congestion.cool(rng.range(0, 20_000) as u16);
        let diameter = 1 + (seed % 2) as u32;
        let start = Cell::new(rng.range(0, 23), rng.range(0, 17));
        let goal = Cell::new(rng.range(0, 23), rng.range(0, 17));
        let query = PathQuery::new(start, goal)
            .diameter(diameter)
            .options(SearchOptions::EXACT);
        let extra = |c: Cell| {
            let cells = || footprint(c, diameter).cells();
            let unit = cells().any(|f| units.kind(f).is_some());
            let level = cells().map(|f| congestion.level(f)).max().unwrap_or(0);
            let jam = (u128::from(full) * u128::from(level) / u128::from(Congestion::FULL)) as Cost;
            if unit { penalty + jam } else { jam }
        };
        let around = Around {
            units: &units,
            avoid: AvoidUnits::Standing,
            penalty_tiles: unit_tiles,
            congestion: &congestion,
            congestion_tiles,
        };
        let oracle = oracle_cost_with(&map, extra, start, goal, diameter);
        let ours = pf.find_around_with(&map, &query, &around);
        let path = pf.path().to_vec();
        let shown = || render_congestion(&bits, &congestion, &path);
        match (oracle, ours) {
            (None, Err(_)) => {}
            (Some(best), Ok(stats)) => {
                let priced = cost_of(&path) + path[1..].iter().map(|&c| extra(c)).sum::<Cost>();
                assert_eq!(priced, best, "seed {seed} d {diameter}\n{}", shown());
                assert_eq!(
                    stats.cost,
                    cost_of(&path),
                    "seed {seed}: cost without prices"
                );
                checked += 1;
                let mut plain = Pathfinder::new();
                if plain.find(&map, &query).is_ok() {
                    let plain_jam = plain.path()[1..].iter().any(|&c| extra(c) > 0);
                    mattered += usize::from(plain_jam && plain.path() != path.as_slice());
                }
            }
            (oracle, ours) => panic!("seed {seed}: oracle {oracle:?}, ours {ours:?}\n{}", shown()),
        }
    }
    assert!(checked >= 80, "only {checked} reachable queries");
    assert!(mattered >= 10, "congestion changed only {mattered} paths");
}

#[test]
fn congestion_is_not_priced_when_units_are_ignored_or_off() {
    let map = CachedScenario::from_ascii(".........\n.#######.\n.........").unwrap();
    let (mut units, mut congestion) = (UnitCells::new(), Congestion::new());
    units.clear(map.size());
    congestion.resize(map.size());
    for x in 2..7 {
        congestion.raise(Cell::new(x, 0), 1, Congestion::FULL);
    }
    let query = PathQuery::new(Cell::new(1, 0), Cell::new(7, 0));
    let mut pf = Pathfinder::new();
    for (avoid, tiles, straight) in [
        (AvoidUnits::Standing, 4.0, false),
        (AvoidUnits::Ignore, 4.0, true),
        (AvoidUnits::All, 0.0, true),
        (AvoidUnits::All, f32::NAN, true),
    ] {
        let around = Around {
            units: &units,
            avoid,
            penalty_tiles: 8.0,
            congestion: &congestion,
            congestion_tiles: tiles,
        };
        pf.find_around_with(&map, &query, &around).unwrap();
        assert_eq!(
            pf.path().contains(&Cell::new(4, 0)),
            straight,
            "{avoid:?} {tiles}: {:?}",
            pf.path()
        );
    }
}
