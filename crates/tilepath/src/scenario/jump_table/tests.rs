//! Jump tables against a cell-by-cell reference, before and after incremental edits.

use super::{DELTAS, EAST, JumpTable, NORTH, SOUTH, WEST};
use crate::grid::{Cell, GridSize};
use crate::scenario::generate::SplitMix64;
use crate::scenario::{BitGrid, CachedScenario, render};
use proptest::prelude::*;

/// The table's entry by walking cell by cell, for jumps cut every `cap` steps: the
/// definition in the module docs, written without the recurrence the build uses.
fn reference(bits: &BitGrid, cap: i16, c: Cell, d: usize) -> i16 {
    let free = |x: i32, y: i32| !bits.get_or(Cell::new(x, y), true);
    let (dx, dy) = DELTAS[d];
    let cut = |to: bool, k: i32| -> i16 {
        if k > i32::from(cap) {
            cap
        } else if to {
            k as i16
        } else {
            -(k as i16)
        }
    };
    if !free(c.x, c.y) {
        return 0;
    }
    let mut k = 0;
    let (mut x, mut y) = (c.x, c.y);
    loop {
        let (nx, ny) = (x + dx, y + dy);
        let legal = free(nx, ny) && (d & 1 == 0 || (free(nx, y) && free(x, ny)));
        if !legal {
            return cut(false, k);
        }
        k += 1;
        let stop = if d & 1 == 0 {
            [(-dy, dx), (dy, -dx)]
                .into_iter()
                .any(|(sx, sy)| free(nx + sx, ny + sy) && !free(x + sx, y + sy))
        } else {
            let n = Cell::new(nx, ny);
            let along_x = if dx > 0 { EAST } else { WEST };
            let along_y = if dy > 0 { SOUTH } else { NORTH };
            reference(bits, cap, n, along_x) > 0 || reference(bits, cap, n, along_y) > 0
        };
        if stop {
            return cut(true, k);
        }
        (x, y) = (nx, ny);
    }
}

/// Asserts every entry of `table` equals the reference, printing the map on failure.
fn assert_matches_reference(table: &JumpTable, bits: &BitGrid) {
    let size = bits.size();
    for i in 0..size.area() {
        let c = size.cell(i);
        for d in 0..8 {
            let want = reference(bits, table.cap, c, d);
            assert_eq!(
                table.entries[i][d],
                want,
                "cell {c} direction {d} (cap {}) on\n{}",
                table.cap,
                render(&CachedScenario::from_bits(bits.clone()).unwrap(), &[c])
            );
        }
    }
}

fn random_bits(size: GridSize, percent: u64, seed: u64) -> BitGrid {
    let mut rng = SplitMix64::new(seed);
    let mut bits = BitGrid::new(size, false);
    for i in 0..size.area() {
        bits.set(size.cell(i), rng.next_u64() % 100 < percent);
    }
    bits
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_built_table_matches_the_cell_by_cell_definition(
        width in 1u32..=40,
        height in 1u32..=40,
        percent in 0u64..=45,
        cap in prop_oneof![3 => Just(i16::MAX), 1 => 1i16..=6],
        seed in any::<u64>(),
    ) {
        let bits = random_bits(GridSize::new(width, height), percent, seed);
        assert_matches_reference(&JumpTable::build_capped(&bits, cap), &bits);
    }
}

#[test]
fn long_lines_across_words_match_the_definition() {
    for (w, h) in [(200, 5), (5, 200), (130, 9)] {
        let bits = random_bits(GridSize::new(w, h), 8, u64::from(w * h));
        assert_matches_reference(&JumpTable::new(&bits), &bits);
    }
}

/// Applies `edits` random single-cell flips to a map with a built table (of the layer
/// of `diameter`, cut every `cap` steps), checking after every `check_every` edits that
/// the table equals a fresh build of the edited layer.
fn edit_and_compare(size: GridSize, percent: u64, diameter: u32, cap: i16, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut map = CachedScenario::from_bits(random_bits(size, percent, seed)).unwrap();
    let layer = map.layer(diameter).unwrap();
    layer.use_jump_table(JumpTable::build_capped(layer.bits(), cap));
    for edit in 0..600 {
        let c = Cell::new(
            (rng.next_u64() % u64::from(size.width)) as i32,
            (rng.next_u64() % u64::from(size.height)) as i32,
        );
        // Blocking slightly more often than clearing keeps the density near `percent`.
        let blocked = rng.next_u64() % 100 < percent.max(20);
        map.apply([(c, blocked)]);
        let layer = map.layer(diameter).unwrap();
        let fresh = JumpTable::build_capped(layer.bits(), cap);
        let table = layer.jump_table().expect("edits keep the table");
        if *table != fresh {
            let size = table.size;
            let wrong = (0..size.area())
                .find(|&i| table.entries[i] != fresh.entries[i])
                .map(|i| size.cell(i));
            panic!(
                "edit {edit} ({c} -> {blocked}), d={diameter} cap {cap}: first wrong cell {wrong:?} \
                 (updated {:?}, fresh {:?}) on\n{}",
                wrong.map(|w| table.entries[size.index(w)]),
                wrong.map(|w| fresh.entries[size.index(w)]),
                render(&map, &[c])
            );
        }
    }
}

#[test]
fn single_edits_keep_the_table_equal_to_a_fresh_build() {
    for (k, (w, h, percent)) in [(40, 30, 20), (70, 12, 5), (12, 70, 30), (25, 25, 0)]
        .into_iter()
        .enumerate()
    {
        for diameter in [1, 2, 3] {
            edit_and_compare(GridSize::new(w, h), percent, diameter, i16::MAX, k as u64);
        }
        edit_and_compare(GridSize::new(w, h), percent, 1, 4, k as u64 + 100);
    }
}

#[test]
fn batches_of_edits_keep_the_table_equal_to_a_fresh_build() {
    let size = GridSize::new(90, 40);
    let mut rng = SplitMix64::new(7);
    let mut map = CachedScenario::from_bits(random_bits(size, 15, 7)).unwrap();
    map.build_jump_tables();
    map.build_jump_table(crate::scenario::ProfileId::DEFAULT, 3);
    for round in 0..200 {
        let n = 1 + rng.next_u64() % 6;
        let x0 = (rng.next_u64() % 80) as i32;
        let y0 = (rng.next_u64() % 30) as i32;
        let edits: Vec<(Cell, bool)> = (0..n)
            .map(|_| {
                let c = Cell::new(
                    x0 + (rng.next_u64() % 10) as i32,
                    y0 + (rng.next_u64() % 10) as i32,
                );
                (c, !rng.chance(1, 3))
            })
            .collect();
        map.apply(edits.iter().copied());
        for diameter in [1, 3] {
            let layer = map.layer(diameter).unwrap();
            assert!(
                layer.jump_table() == Some(&JumpTable::new(layer.bits())),
                "round {round} d={diameter} edits {edits:?}"
            );
        }
    }
}
