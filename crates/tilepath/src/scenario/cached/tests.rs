//! Tests of the cached scenario: footprints, layers, edits, terrain and profiles.

use super::*;
use crate::scenario::{CellRect, Components, footprint, render};

/// The footprint rule written out: the square from `c - (d - 1) / 2` to `c + d / 2`
/// holds an obstacle or an off-map cell.
fn brute_blocked(map: &CachedScenario, c: Cell, d: u32) -> bool {
    let (lo, hi) = (((d - 1) / 2) as i32, (d / 2) as i32);
    (c.y - lo..=c.y + hi).any(|y| (c.x - lo..=c.x + hi).any(|x| map.is_obstacle(Cell::new(x, y))))
}

#[test]
fn cached_answers_equal_the_footprint_definition_for_odd_and_even_diameters() {
    let map = CachedScenario::from_ascii(
        "
        ..........
        ..#.......
        ......##..
        ..........
        .#........
        ",
    )
    .unwrap();
    for d in 1..=6 {
        for y in -1..6 {
            for x in -1..11 {
                let c = Cell::new(x, y);
                let brute = brute_blocked(&map, c, d);
                let shown = || format!("cell {c} diameter {d}\n{}", render(&map, &[c]));
                assert_eq!(map.is_blocked(c, d), brute, "{}", shown());
                assert_eq!(map.layer(d).unwrap().is_blocked(c), brute, "{}", shown());
            }
        }
    }
}

#[test]
fn even_diameters_extend_toward_plus_x_and_plus_y() {
    let map = CachedScenario::from_ascii(
        "
        ....
        ....
        ..#.
        ....
        ",
    )
    .unwrap();
    // The obstacle (2, 2) is in the 2-wide footprint of (1, 1), (2, 1), (1, 2), (2, 2).
    let blocked: Vec<Cell> = CellRect::of_size(map.size())
        .cells()
        .filter(|&c| map.is_blocked(c, 2))
        .collect();
    let expected = [
        (1, 1),
        (2, 1),
        (3, 1),
        (1, 2),
        (2, 2),
        (3, 2),
        (3, 0),
        (0, 3),
        (1, 3),
        (2, 3),
        (3, 3),
    ];
    let mut expected: Vec<Cell> = expected.iter().map(|&(x, y)| Cell::new(x, y)).collect();
    expected.sort_by_key(|c| (c.y, c.x));
    assert_eq!(blocked, expected);
    assert!(!map.is_blocked(Cell::new(0, 0), 2));
}

#[test]
fn diameters_above_the_cap_are_still_answered_exactly() {
    let mut map = CachedScenario::new(GridSize::new(200, 150)).unwrap();
    let c = Cell::new(100, 75);
    assert!(!map.is_blocked(c, 100));
    // 149 wide: rows 1..=149 fit; 150 wide: rows 1..=150 leave the 150-row map.
    assert!(!map.is_blocked(c, 149));
    assert!(map.is_blocked(c, 150));
    assert!(!map.is_blocked(Cell::new(100, 74), 150));
    assert!(map.is_blocked(Cell::new(100, 74), 151));
    assert!(map.is_blocked(Cell::new(10, 75), 100));
    assert!(map.is_blocked(c, u32::MAX));
    map.set_obstacle(Cell::new(140, 110), true);
    // 79 wide: x from 61 to 139, clear of x = 140; 80 wide: x from 61 to 140, y 36..=115.
    assert!(!map.is_blocked(c, 79));
    assert!(map.is_blocked(c, 80));
    assert!(!brute_blocked(&map, c, 79) && brute_blocked(&map, c, 80));
}

#[test]
fn edits_update_built_layers_like_a_rebuild() {
    let mut map = CachedScenario::new(GridSize::new(40, 30)).unwrap();
    for d in [2, 3, 4, 5] {
        map.layer(d);
    }
    let change = map
        .apply([
            (Cell::new(10, 0), true),
            (Cell::new(10, 1), true),
            (Cell::new(3, 3), true),
        ])
        .unwrap();
    assert_eq!(change.generation, 1);
    let wall: Vec<_> = (0..30).map(|y| (Cell::new(20, y), true)).collect();
    map.apply(wall);
    map.set_obstacle(Cell::new(20, 15), false);
    let fresh = CachedScenario::from_bits(map.obstacles().clone()).unwrap();
    for d in [1, 2, 3, 4, 5] {
        let (a, b) = (map.layer(d).unwrap(), fresh.layer(d).unwrap());
        assert_eq!(a.bits(), b.bits(), "d {d}");
        assert_eq!(a.column_bits(), b.column_bits());
        for p in CellRect::of_size(map.size()).cells() {
            for q in [Cell::new(0, 29), Cell::new(39, 0), Cell::new(25, 20)] {
                assert_eq!(
                    a.components().connected(p, q),
                    b.components().connected(p, q)
                );
            }
        }
    }
    assert!(map.connected(Cell::new(0, 0), Cell::new(39, 29), 1));
    assert!(!map.connected(Cell::new(0, 0), Cell::new(39, 29), 2));
    assert_eq!(map.set_obstacle(Cell::new(20, 15), false), None);
    assert_eq!(map.set_obstacle(Cell::new(-5, 15), true), None);
}

#[test]
fn affected_is_exactly_the_cells_whose_footprint_meets_the_change() {
    let size = GridSize::new(30, 30);
    let change = MapChange {
        cells: CellRect {
            min: Cell::new(10, 12),
            max: Cell::new(13, 14),
        },
        generation: 1,
        terrain: false,
        work: 0,
        shape: crate::shape::GridShape::Square,
    };
    for d in 0..=9 {
        let affected = change.affected(d, size);
        for c in CellRect::of_size(size).cells() {
            let meets = footprint(c, d).cells().any(|f| change.cells.contains(f));
            assert_eq!(affected.contains(c), meets, "d {d} cell {c}");
        }
    }
    assert_eq!(change.affected(u32::MAX, size), CellRect::of_size(size));
}

#[test]
fn diameters_outside_the_supported_range_have_no_layer() {
    let map = CachedScenario::new(GridSize::new(4, 4)).unwrap();
    assert!(map.layer(0).is_none());
    assert!(map.layer(MAX_DIAMETER + 1).is_none());
    assert_eq!(map.layer(MAX_DIAMETER).unwrap().diameter(), MAX_DIAMETER);
    assert_eq!(map.layer(2).unwrap().diameter(), 2);
}

#[test]
fn extreme_cells_are_blocked_for_every_diameter_without_overflow() {
    let map = CachedScenario::new(GridSize::new(5, 5)).unwrap();
    for c in [
        Cell::new(i32::MIN, i32::MIN),
        Cell::new(i32::MAX, i32::MAX),
        Cell::new(i32::MIN, 2),
        Cell::new(2, i32::MAX),
    ] {
        for d in [0, 1, 2, 3, 63, 64, u32::MAX] {
            assert!(map.is_blocked(c, d), "{c} d {d}");
        }
        assert_eq!(map.true_clearance(c), 0);
        assert!(!map.connected(c, c, 1));
    }
    assert!(!map.is_blocked(Cell::new(2, 2), 5));
    assert!(map.is_blocked(Cell::new(2, 2), 6));
}

#[test]
fn free_xy_checks_bounds() {
    let map = CachedScenario::new(GridSize::new(70, 3)).unwrap();
    let layer = map.layer(1).unwrap();
    assert!(layer.is_free_xy(69, 2));
    for (x, y) in [(70, 0), (127, 0), (128, 0), (0, 3), (u32::MAX, u32::MAX)] {
        assert!(!layer.is_free_xy(x, y), "({x}, {y})");
    }
}

/// Two component labellings describe the same partition of cells.
fn same_partition(a: &Components, b: &Components, size: GridSize) -> bool {
    let mut ab = std::collections::HashMap::new();
    let mut ba = std::collections::HashMap::new();
    CellRect::of_size(size).cells().all(|c| {
        let (la, lb) = (a.label(c), b.label(c));
        (la == 0) == (lb == 0)
            && *ab.entry(la).or_insert(lb) == lb
            && *ba.entry(lb).or_insert(la) == la
    })
}

#[test]
fn terrain_and_obstacle_edits_update_every_profile_like_a_rebuild() {
    use crate::scenario::generate::SplitMix64;
    let size = GridSize::new(70, 23);
    let profiles = [
        (
            ProfileId(1),
            MovementProfile::new().with_weight(1, 3).with_blocked(2),
        ),
        (ProfileId(3), MovementProfile::new().with_weight(3, 7)),
        (ProfileId(4), MovementProfile::new().with_blocked(0)),
    ];
    let mut map = CachedScenario::new(size).unwrap();
    for (id, p) in &profiles {
        map.set_profile(*id, p.clone());
    }
    let ids = [ProfileId::DEFAULT, ProfileId(1), ProfileId(3), ProfileId(4)];
    for &id in &ids {
        for d in [1, 2, 3, 4] {
            map.layer_for(id, d);
        }
    }
    let mut rng = SplitMix64::new(7);
    let mut checked = 0;
    for round in 0..60 {
        let edits: Vec<MapEdit> = (0..rng.range(1, 6))
            .map(|_| {
                let c = Cell::new(rng.range(-1, 70), rng.range(-1, 23));
                if rng.chance(1, 3) {
                    MapEdit::Obstacle(c, rng.chance(1, 2))
                } else {
                    MapEdit::Terrain(c, rng.range(0, 3) as u8)
                }
            })
            .collect();
        map.apply_edits(edits);
        if round % 10 != 9 {
            continue;
        }
        let terrain: Vec<u8> = CellRect::of_size(size)
            .cells()
            .map(|c| map.terrain(c))
            .collect();
        let mut fresh =
            CachedScenario::from_bits_and_terrain(map.obstacles().clone(), terrain).unwrap();
        for (id, p) in &profiles {
            fresh.set_profile(*id, p.clone());
        }
        for t in 0..=255 {
            assert_eq!(map.terrain_count(t), fresh.terrain_count(t), "terrain {t}");
        }
        for &id in &ids {
            let (w, fw) = (map.weights(id).unwrap(), fresh.weights(id).unwrap());
            assert_eq!((w.min(), w.uniform()), (fw.min(), fw.uniform()), "{id}");
            for d in [1, 2, 3, 4] {
                let (a, b) = (
                    map.layer_for(id, d).unwrap(),
                    fresh.layer_for(id, d).unwrap(),
                );
                let shown = || format!("{id} d {d}\n{}", render(&map, &[]));
                assert_eq!(a.bits(), b.bits(), "{}", shown());
                assert_eq!(a.column_bits(), b.column_bits(), "{}", shown());
                assert!(
                    same_partition(a.components(), b.components(), size),
                    "{}",
                    shown()
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 6 * 4 * 4);
}

#[test]
fn profiles_block_terrain_and_report_weights_over_present_terrain() {
    let mut map = CachedScenario::from_bits_and_terrain(
        BitGrid::new(GridSize::new(4, 3), false),
        vec![0, 0, 1, 1, 0, 2, 1, 1, 0, 0, 1, 1],
    )
    .unwrap();
    let water = ProfileId(2);
    map.set_profile(
        water,
        MovementProfile::new().with_blocked(2).with_weight(1, 4),
    );
    assert!(map.layer_for(water, 1).unwrap().is_blocked(Cell::new(1, 1)));
    assert!(!map.layer(1).unwrap().is_blocked(Cell::new(1, 1)));
    // 2 wide at (0, 0) covers (1, 1): blocked for the profile only.
    assert!(map.layer_for(water, 2).unwrap().is_blocked(Cell::new(0, 0)));
    assert!(!map.layer(2).unwrap().is_blocked(Cell::new(0, 0)));
    let w = map.weights(water).unwrap();
    assert_eq!((w.min(), w.uniform()), (1, None));
    assert_eq!(w.at(Cell::new(2, 0)), Some(4));
    assert_eq!(w.at(Cell::new(1, 1)), Some(0));
    assert_eq!(map.weights(ProfileId::DEFAULT).unwrap().uniform(), Some(1));
    assert!(map.weights(ProfileId(9)).is_none());
    assert!(map.layer_for(ProfileId(9), 1).is_none());
    // Only weight-4 terrain left passable (besides the blocked water): uniform 4.
    let change = map
        .apply_edits((0..4).flat_map(|x| (0..3).map(move |y| MapEdit::Terrain(Cell::new(x, y), 1))))
        .unwrap();
    assert!(change.terrain);
    assert_eq!(map.weights(water).unwrap().uniform(), Some(4));
    assert_eq!(map.terrain_count(1), 12);
    let generation = map.generation();
    map.set_profile(
        water,
        MovementProfile::new().with_blocked(2).with_weight(1, 4),
    );
    assert_eq!(
        map.generation(),
        generation,
        "an equal profile changes nothing"
    );
    map.set_profile(water, MovementProfile::new());
    assert_eq!(map.generation(), generation + 1);
    assert_eq!(
        CachedScenario::from_bits_and_terrain(BitGrid::new(GridSize::new(2, 2), false), vec![0; 3])
            .unwrap_err(),
        MapError::TerrainSize {
            expected: 4,
            found: 3
        }
    );
}

#[test]
fn the_work_of_an_edit_counts_what_its_upkeep_touched() {
    // A 64 × 32 map halved by a wall with a one-cell gap at (32, 16).
    let size = GridSize::new(64, 32);
    let mut map = CachedScenario::new(size).unwrap();
    let wall = (0..32)
        .filter(|&y| y != 16)
        .map(|y| MapEdit::Obstacle(Cell::new(32, y), true));
    map.apply_edits(wall);
    let tabled = map.clone();
    tabled.build_jump_tables();
    let lone = || [MapEdit::Obstacle(Cell::new(10, 10), true)];
    let gap = || [MapEdit::Obstacle(Cell::new(32, 16), true)];
    let work = |map: &mut CachedScenario, edits: [MapEdit; 1]| map.apply_edits(edits).unwrap().work;

    // A lone obstacle in the open is settled locally: its boxes, a few cells each.
    let local = work(&mut map.clone(), lone());
    assert!(local > 0 && local < 400, "lone obstacle: {local}");
    // Closing the gap splits the map: the cut-off half (32 × 32 cells) is labelled again.
    let split = work(&mut map.clone(), gap());
    assert!(split >= local + 32 * 32, "split {split}, lone {local}");
    // The same edit on the same map is the same work, and a jump table adds its entries.
    assert_eq!(work(&mut map.clone(), gap()), split);
    let with_table = work(&mut tabled.clone(), gap());
    assert!(
        with_table > split,
        "with a jump table {with_table}, without {split}"
    );
}
