//! Zero allocations per hexagonal query after warm-up, counted by a global allocator:
//! every algorithm and agent radius, whole and sliced, on an offset map with terrain.
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
    let map = HexMap::from_layout(layout, 80, 60, |c, r| match (c % 9, r % 20) {
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
    let run = |finder: &mut HexPathfinder| {
        let mut found = 0;
        for q in &queries {
            found += usize::from(finder.find(&map, q).is_ok());
            if finder.start(&map, q).is_ok() {
                while let Ok(HexStep::Suspended) = finder.resume(&map, 37) {}
            }
        }
        found
    };
    let warm = run(&mut finder);
    assert!(
        warm > queries.len() / 2,
        "most queries find a path ({warm})"
    );
    let before = allocations();
    let again = run(&mut finder);
    assert_eq!(
        allocations() - before,
        0,
        "allocations in {} queries",
        queries.len() * 2
    );
    assert_eq!(again, warm);
}
