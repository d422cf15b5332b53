//! Exact footprints for every diameter: cached layers against a brute-force oracle.
//!
//! The oracle is the rule written out: an agent of diameter `d` at `c` occupies the
//! square from `c - (d - 1) / 2` to `c + d / 2`, and is blocked when that square holds
//! an obstacle or an off-map cell. Components are checked against a plain flood fill.

use std::collections::VecDeque;

use tilepath::grid::{Cell, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{BitGrid, CellRect, FnScenario, footprint, render};

fn brute_blocked(bits: &BitGrid, c: Cell, d: u32) -> bool {
    let (lo, hi) = (((d - 1) / 2) as i32, (d / 2) as i32);
    (c.y - lo..=c.y + hi).any(|y| (c.x - lo..=c.x + hi).any(|x| bits.get_or(Cell::new(x, y), true)))
}

fn random_bits(size: GridSize, per_mille: u32, rng: &mut SplitMix64) -> BitGrid {
    let mut bits = BitGrid::new(size, false);
    for c in CellRect::of_size(size).cells() {
        if rng.below(1000) < per_mille {
            bits.set(c, true);
        }
    }
    bits
}

/// Flood-fill labels (4-connected) of the cells free for `d` by the oracle; 0 = blocked.
fn brute_labels(bits: &BitGrid, d: u32) -> Vec<u32> {
    let size = bits.size();
    let free = |c: Cell| size.contains(c) && !brute_blocked(bits, c, d);
    let mut labels = vec![0u32; size.area()];
    let mut next = 0;
    let mut queue = VecDeque::new();
    for seed in CellRect::of_size(size).cells() {
        if labels[size.index(seed)] != 0 || !free(seed) {
            continue;
        }
        next += 1;
        labels[size.index(seed)] = next;
        queue.push_back(seed);
        while let Some(c) = queue.pop_front() {
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let n = Cell::new(c.x + dx, c.y + dy);
                if free(n) && labels[size.index(n)] == 0 {
                    labels[size.index(n)] = next;
                    queue.push_back(n);
                }
            }
        }
    }
    labels
}

/// Asserts that the layer of `d` and the scenario's own answer equal the oracle on
/// every cell and one ring of off-map cells, and that the layer's components are the
/// oracle's flood-fill components (the same partition, labels may differ).
fn check(map: &CachedScenario, d: u32, context: &str) {
    let bits = map.obstacles();
    let size = map.size();
    let layer = map.layer(d).unwrap();
    let around = CellRect {
        min: Cell::new(-1, -1),
        max: Cell::new(size.width as i32 + 1, size.height as i32 + 1),
    };
    for c in around.cells() {
        let expected = brute_blocked(bits, c, d);
        if layer.is_blocked(c) != expected || map.is_blocked(c, d) != expected {
            panic!(
                "{context}: d {d} cell {c}: expected blocked = {expected}, layer {}, scenario {}\n{}",
                layer.is_blocked(c),
                map.is_blocked(c, d),
                render(map, &[c])
            );
        }
    }
    let labels = brute_labels(bits, d);
    let mut to_layer = std::collections::HashMap::new();
    let mut to_brute = std::collections::HashMap::new();
    for c in CellRect::of_size(size).cells() {
        let (b, l) = (labels[size.index(c)], layer.components().label(c));
        assert_eq!(
            b == 0,
            l == 0,
            "{context}: d {d} label at {c}\n{}",
            render(map, &[c])
        );
        if b != 0 {
            let same = *to_layer.entry(b).or_insert(l) == l && *to_brute.entry(l).or_insert(b) == b;
            assert!(
                same,
                "{context}: d {d}: components differ at {c}\n{}",
                render(map, &[c])
            );
        }
    }
}

#[test]
fn cached_layers_equal_the_footprint_oracle_for_diameters_1_to_8() {
    let mut rng = SplitMix64::new(17);
    for (w, h, per_mille) in [
        (70, 23, 30),
        (129, 17, 15),
        (64, 20, 60),
        (65, 9, 5),
        (7, 40, 40),
        (1, 5, 0),
    ] {
        let bits = random_bits(GridSize::new(w, h), per_mille, &mut rng);
        let map = CachedScenario::from_bits(bits).unwrap();
        for d in 1..=8 {
            check(&map, d, &format!("{w}x{h}"));
        }
    }
}

#[test]
fn incremental_edits_keep_every_layer_equal_to_the_oracle() {
    let mut rng = SplitMix64::new(5);
    for (w, h) in [(75, 30), (130, 12)] {
        let size = GridSize::new(w, h);
        let mut map = CachedScenario::from_bits(random_bits(size, 25, &mut rng)).unwrap();
        for d in 1..=8 {
            map.layer(d);
        }
        for round in 0..25 {
            let batch = 1 + rng.below(5);
            let near = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            let edits: Vec<(Cell, bool)> = (0..batch)
                .map(|_| {
                    let c = Cell::new(near.x + rng.range(-4, 4), near.y + rng.range(-4, 4));
                    (c, rng.chance(1, 2))
                })
                .collect();
            let (generation, before) = (map.generation(), map.obstacles().clone());
            let change = map.apply(edits.iter().copied());
            let flipped: Vec<Cell> = CellRect::of_size(size)
                .cells()
                .filter(|&c| before.get_or(c, true) != map.obstacles().get_or(c, true))
                .collect();
            match change {
                None => assert!(flipped.is_empty() && map.generation() == generation),
                Some(change) => {
                    assert_eq!(change.generation, generation + 1);
                    assert!(flipped.iter().all(|&c| change.cells.contains(c)));
                }
            }
            for d in 1..=8 {
                check(&map, d, &format!("{w}x{h} round {round} edits {edits:?}"));
            }
        }
    }
}

#[test]
fn the_default_scenario_answer_uses_the_same_footprint() {
    let mut rng = SplitMix64::new(99);
    let size = GridSize::new(67, 19);
    let bits = random_bits(size, 40, &mut rng);
    let virtual_map = FnScenario::new(size, |c: Cell| bits.get_or(c, true));
    for d in 0..=8 {
        for c in CellRect::of_size(size)
            .expand_clip(1, GridSize::new(68, 20))
            .cells()
        {
            let expected = brute_blocked(&bits, c, d.max(1));
            assert_eq!(virtual_map.is_blocked(c, d), expected, "d {d} cell {c}");
        }
    }
    assert!(virtual_map.is_blocked(Cell::new(30, 9), u32::MAX));
}

#[test]
fn diameters_above_the_layer_limit_are_exact_too() {
    let mut rng = SplitMix64::new(3);
    let size = GridSize::new(170, 150);
    let mut bits = BitGrid::new(size, false);
    for _ in 0..6 {
        bits.set(
            Cell::new(rng.below(170) as i32, rng.below(150) as i32),
            true,
        );
    }
    let map = CachedScenario::from_bits(bits.clone()).unwrap();
    for _ in 0..400 {
        let c = Cell::new(rng.below(170) as i32, rng.below(150) as i32);
        let d = rng.range(60, 150) as u32;
        assert_eq!(
            map.is_blocked(c, d),
            brute_blocked(&bits, c, d),
            "d {d} cell {c}"
        );
    }
}

/// Two 7 x 10 rooms joined only by a horizontal corridor `height` rows high and 8
/// long; returns the map and one cell in each room.
fn corridor(height: usize) -> (CachedScenario, Cell, Cell) {
    let mut text = String::new();
    for y in 0..12 {
        for x in 0..24 {
            let border = y == 0 || y == 11 || x == 0 || x == 23;
            let wall = (8..16).contains(&x) && !(4..4 + height).contains(&y);
            text.push(if border || wall { '#' } else { '.' });
        }
        text.push('\n');
    }
    let map = CachedScenario::from_ascii(&text).unwrap();
    (map, Cell::new(3, 5), Cell::new(19, 5))
}

#[test]
fn a_diameter_2_agent_needs_a_2_wide_corridor_and_a_diameter_3_one_a_3_wide_one() {
    for height in 1..=3 {
        let (map, left, right) = corridor(height);
        for d in 1..=3 {
            let through = map.connected(left, right, d);
            let expected = d as usize <= height;
            assert_eq!(
                through,
                expected,
                "corridor {height} high, diameter {d}\n{}",
                render(&map, &[left, right])
            );
            if through {
                let mut pf = Pathfinder::new();
                let q = PathQuery::new(left, right).diameter(d);
                assert!(pf.find(&map, &q).is_ok());
                for &c in pf.path() {
                    assert!(!footprint(c, d).cells().any(|f| map.is_obstacle(f)));
                }
            }
        }
    }
}
