//! The failures of issue 13 (Reliability), one test each, named after what went wrong.
//!
//! Huge sizes from a constructor or a MovingAI header once aborted the process (the
//! grid was allocated before the size check), and a short header announcing a large
//! map cost its whole grid before its error: the peak bytes each parse holds are
//! measured with a counting global allocator (per thread, so parallel tests do not
//! count). CR-only ASCII maps once read as one long row; `SplitMix64::range` once
//! overflowed on wide ranges and `chance(1, 0)` was true.

use tilepath::grid::GridSize;
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::movingai::MovingAiMap;
use tilepath::scenario::movingai_terrain::TerrainMap;
use tilepath::scenario::{AsciiScenario, MapError};

#[path = "../examples/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::peak_bytes_during;

/// What a parse of a short text may hold at its peak: far below any grid it announces.
const SMALL: u64 = 1 << 20;

fn header(width: u64, height: u64) -> String {
    format!("type octile\nheight {height}\nwidth {width}\nmap\n")
}

#[test]
fn cached_scenario_new_4e9_by_4e9_is_too_large_not_an_abort() {
    let size = GridSize::new(4_000_000_000, 4_000_000_000);
    let (result, peak) = peak_bytes_during(|| CachedScenario::new(size));
    assert_eq!(
        result.unwrap_err(),
        MapError::TooLarge {
            width: 4_000_000_000,
            height: 4_000_000_000
        }
    );
    assert!(peak < SMALL, "{peak} bytes before the error");
}

#[test]
fn movingai_header_4e9_by_4e9_is_too_large_not_an_abort() {
    let text = "type octile\nheight 4000000000\nwidth 4000000000\nmap\n";
    let too_large = MapError::TooLarge {
        width: 4_000_000_000,
        height: 4_000_000_000,
    };
    let (map, peak) = peak_bytes_during(|| MovingAiMap::parse(text));
    assert_eq!(map.unwrap_err(), too_large);
    assert!(peak < SMALL, "{peak} bytes before the error");
    let (terrain, peak) = peak_bytes_during(|| TerrainMap::parse(text));
    assert_eq!(terrain.unwrap_err(), too_large);
    assert!(peak < SMALL, "{peak} bytes before the error");
}

#[test]
fn a_40_byte_header_claiming_100000_by_100000_errs_without_allocating_its_grid() {
    let text = header(100_000, 100_000);
    assert!(text.len() <= 44, "{} bytes", text.len());
    let (map, peak) = peak_bytes_during(|| MovingAiMap::parse(&text));
    assert_eq!(
        map.unwrap_err(),
        MapError::TooLarge {
            width: 100_000,
            height: 100_000
        }
    );
    assert!(peak < SMALL, "{peak} bytes before the error");
}

#[test]
fn the_peak_measurement_sees_a_grid_that_is_built() {
    // The control for the tests above: a real 4096 x 256 map holds at least its bits.
    let text = header(4096, 256) + &(".".repeat(4096) + "\n").repeat(256);
    let (map, peak) = peak_bytes_during(|| MovingAiMap::parse(&text));
    assert!(map.is_ok());
    assert!(peak >= 4096 * 256 / 8, "{peak} bytes");
}

#[test]
fn a_short_header_claiming_a_supported_huge_map_errs_without_allocating_its_grid() {
    // 46,000² = 2.1e9 cells is within MAX_CELLS: the size check passes, so only the row
    // check stands between the header and a 264 MB bit grid (2.1 GB of terrain ids).
    for (body, expected) in [
        (
            "",
            MapError::MissingRows {
                expected: 46_000,
                found: 0,
            },
        ),
        (
            "....\n",
            MapError::RaggedRow {
                row: 0,
                expected: 46_000,
                found: 4,
            },
        ),
    ] {
        let text = header(46_000, 46_000) + body;
        let (map, peak) = peak_bytes_during(|| MovingAiMap::parse(&text));
        assert_eq!(map.unwrap_err(), expected, "{text:?}");
        assert!(peak < SMALL, "{peak} bytes before the error: {text:?}");
        let (terrain, peak) = peak_bytes_during(|| TerrainMap::parse(&text));
        assert_eq!(terrain.unwrap_err(), expected, "{text:?}");
        assert!(peak < SMALL, "{peak} bytes before the error: {text:?}");
    }
}

#[test]
fn from_ascii_with_cr_only_endings_is_3x3_not_11x1() {
    let text = "..#\r#..\r...\r";
    let map = CachedScenario::from_ascii(text).unwrap();
    assert_eq!(map.size(), GridSize::new(3, 3));
    let lf = CachedScenario::from_ascii("..#\n#..\n...\n").unwrap();
    assert_eq!(map.obstacles(), lf.obstacles());
    assert_eq!(
        AsciiScenario::parse(text).unwrap().size(),
        GridSize::new(3, 3)
    );
}

#[test]
fn splitmix_range_0_to_i32_max_neither_overflows_nor_leaves_its_range() {
    let mut rng = SplitMix64::new(13);
    let draws: Vec<i32> = (0..1_000).map(|_| rng.range(0, i32::MAX)).collect();
    assert!(draws.iter().all(|&v| v >= 0));
    assert!(
        draws.iter().any(|&v| v > i32::MAX / 2),
        "the top half is drawn"
    );
    for (lo, hi) in [(i32::MIN, i32::MAX), (-1, i32::MAX), (i32::MIN, 0)] {
        for _ in 0..100 {
            assert!((lo..=hi).contains(&rng.range(lo, hi)));
        }
    }
}

#[test]
fn splitmix_chance_1_0_is_false() {
    let mut rng = SplitMix64::new(17);
    for num in [1, 2, u32::MAX] {
        assert!((0..100).all(|_| !rng.chance(num, 0)), "chance({num}, 0)");
    }
    assert!((0..100).all(|_| rng.chance(1, 1)));
}

/// Every algorithm, asked for a goal area its start already lies in, answers the start
/// alone (BFS, DFS, IDDFS and evasion used to walk to the area's free cell nearest its
/// centre), with a length of +0.0 (the float sum of no steps is -0.0).
#[test]
fn a_start_inside_the_goal_area_is_the_whole_path_for_every_algorithm() {
    let map = CachedScenario::from_ascii(
        "
        .......
        .......
        .......
        ...#...
        .......
    ",
    )
    .unwrap();
    let mut pf = Pathfinder::new();
    for algorithm in Algorithm::ALL {
        let query = PathQuery::new(Cell::new(1, 1), Cell::new(3, 3))
            .algorithm(algorithm)
            .goal_radius(2);
        let stats = pf
            .find(&map, &query)
            .unwrap_or_else(|e| panic!("{algorithm:?}: {e:?}"));
        assert_eq!(pf.path(), &[Cell::new(1, 1)], "{algorithm:?}");
        assert_eq!(stats.reached, Cell::new(1, 1), "{algorithm:?}");
        assert!(
            stats.length == 0.0 && stats.length.is_sign_positive(),
            "{algorithm:?}: length {}",
            stats.length
        );
    }
    assert!(tilepath::grid::path_length(&[Cell::new(0, 0)]).is_sign_positive());
}

/// A search suspended on one map and resumed on another map object of the same size and
/// generation (a map built again, a clone edited apart) starts over on it instead of
/// carrying over edits that map never had: its path never crosses the new map's walls.
#[test]
fn a_search_resumed_on_another_map_of_the_same_size_starts_over_on_it() {
    let open = CachedScenario::from_ascii(&["................"; 8].join("\n")).unwrap();
    let mut walled = open.clone();
    for y in 0..7 {
        walled.set_obstacle(Cell::new(8, y), true);
    }
    // The same generation as the search's map, as a map built anew would have.
    let mut rebuilt = CachedScenario::from_bits(walled.obstacles().clone()).unwrap();
    assert_ne!(rebuilt.id(), open.id());
    for (other, name) in [(&mut rebuilt, "rebuilt"), (&mut walled, "clone")] {
        let query = PathQuery::new(Cell::new(0, 0), Cell::new(15, 0)).algorithm(Algorithm::AStar);
        let mut pf = Pathfinder::new();
        assert!(matches!(
            pf.start(&open, &query, 3),
            Ok(tilepath::search::Progress::Suspended { .. })
        ));
        let Ok(tilepath::search::Progress::Done(stats)) = pf.resume(other, u32::MAX) else {
            panic!("{name}: no path");
        };
        assert!(
            !pf.path().contains(&Cell::new(8, 0)),
            "{name}: {:?}",
            pf.path()
        );
        assert!(
            pf.path().contains(&Cell::new(8, 7)),
            "{name}: through the gap"
        );
        assert_eq!(
            stats.cost,
            Pathfinder::new().find(other, &query).unwrap().cost
        );
        assert_eq!(pf.edit_restarts(), 1, "{name}");
    }
}

/// A distance field knows its map object: on another map of the same size and
/// generation it is not current, and it cannot be carried over to it.
#[test]
fn a_distance_field_is_current_only_on_its_own_map() {
    use tilepath::scenario::ProfileId;
    use tilepath::search::DistanceField;
    let map = CachedScenario::from_ascii("........\n........").unwrap();
    let copy = map.clone();
    let mut field = DistanceField::new(&map, Cell::new(7, 0), ProfileId::DEFAULT, 1).unwrap();
    assert!(field.is_current(&map));
    assert!(!field.is_current(&copy));
    assert!(!field.carry_over(&copy));
}
