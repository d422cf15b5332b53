//! Zero allocations per query after warm-up, counted by a global allocator, on a map
//! with terrain: the default profile (uniform) and a weighted profile that blocks a terrain.
//!
//! This binary holds a single test so that no other test's allocations are counted.

use tilepath::grid::GridSize;
use tilepath::prelude::*;
use tilepath::scenario::{MovementProfile, ProfileId};

#[path = "../examples/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

fn grid() -> CachedScenario {
    let size = GridSize::new(96, 64);
    let mut bits = tilepath::scenario::BitGrid::new(size, false);
    for y in 0..64 {
        for x in 0..96 {
            // Walls every 8th column with a 4-row gap every 16 rows (wide enough for diameter 3).
            if x % 8 == 4 && !(3..7).contains(&(y % 16)) {
                bits.set(Cell::new(x, y), true);
            }
        }
    }
    // Terrain in bands: 0 (field), 1 (forest, slow), 2 (swamp, blocked for profile 1).
    let terrain = (0..64 * 96)
        .map(|i| match (i % 96) % 12 {
            0..=5 => 0,
            6..=9 => 1,
            _ => u8::from(i / 96 % 16 >= 10) * 2,
        })
        .collect();
    let mut map = CachedScenario::from_bits_and_terrain(bits, terrain).unwrap();
    map.set_profile(
        ProfileId(1),
        MovementProfile::new().with_weight(1, 3).with_blocked(2),
    );
    map
}

#[test]
fn queries_allocate_nothing_after_warm_up() {
    let map = grid();
    let queries: Vec<PathQuery> = (0..40)
        .map(|i| {
            PathQuery::new(
                Cell::new(i % 4, (i * 5) % 64),
                Cell::new(95 - i % 3, (i * 11) % 64),
            )
        })
        .collect();
    let mut pf = Pathfinder::new();
    let radix = [Algorithm::AStar, Algorithm::Dijkstra].map(|a| (a, OpenList::Radix));
    for (algorithm, profile, open_list) in Algorithm::ALL
        .map(|a| (a, OpenList::IndexedHeap))
        .into_iter()
        .chain(radix)
        .flat_map(|(a, o)| [(a, ProfileId::DEFAULT, o), (a, ProfileId(1), o)])
    {
        for diameter in [1, 3] {
            for smooth in [false, true] {
                let run = |pf: &mut Pathfinder| {
                    let mut found = 0;
                    for q in &queries {
                        let q = q
                            .algorithm(algorithm)
                            .diameter(diameter)
                            .smooth(smooth)
                            .profile(profile)
                            .open_list(open_list);
                        found += usize::from(pf.find(&map, &q).is_ok());
                    }
                    found
                };
                // Two warm-up rounds: buffers grow to the largest query first.
                run(&mut pf);
                run(&mut pf);
                let before = allocations();
                let found = run(&mut pf);
                let allocs = allocations() - before;
                assert_eq!(
                    allocs, 0,
                    "{algorithm} {open_list:?} {profile} d={diameter} smooth={smooth} allocated {allocs} times"
                );
                assert!(
                    found > 0,
                    "{algorithm} {profile} d={diameter} found nothing, the test would be empty"
                );
            }
        }
    }
}
