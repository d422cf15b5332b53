//! Zero allocations per query on a hexagonal map after warm-up, counted by a global
//! allocator: the algorithms a hexagonal map runs, agents 1 and 3 cells wide, nearest
//! goals and goal areas, whole and sliced searches, with edits carried over between
//! slices.
//!
//! This binary holds a single test so that no other test's allocations are counted.

use tilepath::grid::{Cell, GridSize};
use tilepath::scenario::{BitGrid, CachedScenario, MapEdit, MovementProfile, ProfileId};
use tilepath::search::{Algorithm, PathQuery, Pathfinder, Progress};
use tilepath::shape::{GridShape, HexLayout};

#[path = "../examples/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

/// The profile that makes forest (terrain 1) cost 3.
const FOREST: ProfileId = ProfileId(1);

/// The cell of the gap that closes and opens between slices.
const GAP: Cell = Cell::new(40, 17);

/// 80 × 60 hexagons in offset columns: walls every 9th column with a gap every 20 rows,
/// forest in bands.
fn map() -> CachedScenario {
    let (columns, rows) = (80, 60);
    let mut bits = BitGrid::new(GridSize::new(columns as u32, rows as u32), false);
    let mut terrain = Vec::new();
    for r in 0..rows {
        for c in 0..columns {
            bits.set(Cell::new(c, r), c % 9 == 4 && r % 20 <= 15);
            terrain.push(u8::from((6..=7).contains(&(c % 9))));
        }
    }
    let mut map = CachedScenario::from_bits_and_terrain(bits, terrain)
        .unwrap()
        .with_shape(GridShape::Hex(HexLayout::ColumnOdd));
    map.set_profile(FOREST, MovementProfile::new().with_weight(1, 3));
    map
}

/// What one round of queries did: paths found, allocations counted, searches that
/// ended carried over an edit.
struct Round {
    found: usize,
    allocated: u64,
    carried: usize,
}

/// Runs every query whole, then sliced by 37 expansions while the gap closes and opens
/// again between slices. Counts the searches' allocations only: the map's edits may
/// allocate.
fn round(finder: &mut Pathfinder, map: &mut CachedScenario, queries: &[PathQuery]) -> Round {
    let (mut found, mut allocated, mut carried) = (0, 0, 0);
    let mut counted = |f: &mut dyn FnMut()| {
        let before = allocations();
        f();
        allocated += allocations() - before;
    };
    for q in queries {
        counted(&mut || found += usize::from(finder.find(map, q).is_ok()));
        let mut more = false;
        counted(&mut || more = matches!(finder.start(map, q, 37), Ok(Progress::Suspended { .. })));
        for closed in [true, false] {
            if !more {
                break;
            }
            map.apply_edits([MapEdit::Obstacle(GAP, closed)]);
            let map = &*map;
            counted(&mut || {
                more = matches!(finder.resume(map, 37), Ok(Progress::Suspended { .. }))
            });
        }
        let map = &*map;
        counted(&mut || while let Ok(Progress::Suspended { .. }) = finder.resume(map, 37) {});
        carried += usize::from(finder.carried_over());
    }
    Round {
        found,
        allocated,
        carried,
    }
}

#[test]
fn hexagonal_queries_allocate_nothing_after_warm_up() {
    let mut map = map();
    let queries: Vec<PathQuery> = (0..30)
        .flat_map(|i: i32| {
            [
                Algorithm::Auto,
                Algorithm::AStar,
                Algorithm::Dijkstra,
                Algorithm::Bfs,
            ]
            .map(|algorithm| {
                PathQuery::new(
                    Cell::new(1 + i % 3, 2 + (i * 7) % 55),
                    Cell::new(78 - i % 2, (i * 13) % 55 + 2),
                )
                .algorithm(algorithm)
                .diameter(if i % 2 == 0 { 1 } else { 3 })
                .profile(if i % 4 < 2 {
                    ProfileId::DEFAULT
                } else {
                    FOREST
                })
                .goal_radius(u32::from(i % 5 == 0))
                .nearest_goal(i % 3 == 0)
            })
        })
        .collect();
    let mut finder = Pathfinder::new();
    // Two warm-up rounds: buffers grow to the largest query first.
    let warm = round(&mut finder, &mut map, &queries);
    round(&mut finder, &mut map, &queries);
    assert!(
        warm.found > queries.len() / 2,
        "most queries find a path ({})",
        warm.found
    );
    let counted = round(&mut finder, &mut map, &queries);
    assert_eq!(
        counted.allocated,
        0,
        "allocations in {} queries",
        queries.len() * 2
    );
    assert_eq!(counted.found, warm.found);
    assert!(
        counted.carried > queries.len() / 4,
        "{} searches carried over",
        counted.carried
    );
}
