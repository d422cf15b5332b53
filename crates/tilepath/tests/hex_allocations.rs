//! Zero allocations per hexagonal query after warm-up, counted by a global allocator:
//! every algorithm and agent radius, whole and sliced, on an offset map with terrain, with
//! edits carried over between slices.
//!
//! This binary holds a single test so that no other test's allocations are counted.

use tilepath::hex::{HexAlgorithm, HexLayout, HexMap, HexPathfinder, HexQuery, HexStep};

#[path = "../examples/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

#[test]
fn hex_queries_allocate_nothing_after_warm_up() {
    let layout = HexLayout::ColumnOdd;
    // Walls every 9th column with a gap, forest (3) in bands.
    let mut map = HexMap::from_layout(layout, 80, 60, |c, r| match (c % 9, r % 20) {
        (4, 0..=15) => 0,
        (6..=7, _) => 3,
        _ => 1,
    })
    .unwrap();
    let queries: Vec<HexQuery> = (0..30)
        .flat_map(|i| {
            [
                HexAlgorithm::AStar,
                HexAlgorithm::Dijkstra,
                HexAlgorithm::BreadthFirst,
            ]
            .map(|algorithm| HexQuery {
                radius: (i % 2) as u32,
                nearest_goal: i % 3 == 0,
                algorithm,
                ..HexQuery::new(
                    layout.hex(1 + i % 3, 2 + (i * 7) % 55),
                    layout.hex(78 - i % 2, (i * 13) % 55 + 2),
                )
            })
        })
        .collect();
    let mut finder = HexPathfinder::new();
    // Counts the searches' allocations only: the map's edit log may grow.
    let run = |finder: &mut HexPathfinder, map: &mut HexMap| {
        let (mut found, mut allocated, mut carried) = (0, 0, 0);
        let mut counted = |f: &mut dyn FnMut()| {
            let before = allocations();
            f();
            allocated += allocations() - before;
        };
        for q in &queries {
            counted(&mut || found += usize::from(finder.find(map, q).is_ok()));
            let mut started = false;
            counted(&mut || started = finder.start(map, q).is_ok());
            if !started {
                continue;
            }
            // A wall's gap closes and opens again between slices: both carried over.
            for (slice, weight) in [0, 1, 1, 1].into_iter().enumerate() {
                let mut more = false;
                counted(&mut || more = finder.resume(map, 37) == Ok(HexStep::Suspended));
                if !more {
                    break;
                }
                if slice < 2 {
                    map.set_weights([(layout.hex(40, 17), weight)]);
                }
            }
            map.set_weights([(layout.hex(40, 17), 1)]);
            counted(&mut || while let Ok(HexStep::Suspended) = finder.resume(map, 37) {});
            carried += usize::from(finder.carried_over());
        }
        (found, allocated, carried)
    };
    let (warm, _, _) = run(&mut finder, &mut map);
    assert!(
        warm > queries.len() / 2,
        "most queries find a path ({warm})"
    );
    let (again, allocated, carried) = run(&mut finder, &mut map);
    assert_eq!(allocated, 0, "allocations in {} queries", queries.len() * 2);
    assert_eq!(again, warm);
    assert!(
        carried > queries.len() / 4,
        "{carried} searches carried over"
    );
}
