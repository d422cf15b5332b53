//! The leg scenarios, ported from bevy_northstar 0.7's examples: `corridors` (its
//! `collision_testing`: 6 units on the 16 × 16 map of one-cell corridors `demo_16`, random
//! successive goals) and `corridors_large` (its `demo`: 128 units on the 128 × 128 map of
//! corridors and rooms `demo_128`). The maps are northstar's Tiled maps (MIT, © Stephen
//! Pryde) as text, `.` where its examples make a cell passable (tile id 14), `#` elsewhere,
//! first line the top row (northstar's y = height − 1 − row).
//!
//! Deviations from the examples, which draw from an unseeded `rand::rng()`: spawns and
//! goals come from a seeded generator (SplitMix64), so both systems get the same units
//! and goal sequences; spawns are distinct cells; spawns and goals are drawn from the
//! largest 4-connected region of the map only (a goal elsewhere fails on both systems);
//! a unit's next goal differs from its last. `demo`'s exclusion of spawns from the square
//! 64..=84 × 64..=84 is kept.

use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::Cell;
use bevy_tilepath::tilepath::scenario::BitGrid;

/// `corridors` runs this many seeds (0..SEEDS), as the measurement did.
pub const SEEDS: u64 = 10;
/// Goals drawn per unit when a run is timed rather than given `--legs N`: more than a
/// unit at the top speed can finish in the timed run.
const TIMED_GOALS: usize = 400;
/// Simulated seconds of a timed leg run.
pub const LEG_RUN_S: f64 = 60.0;

const DEMO_16: &str = include_str!("maps/demo_16.txt");
const DEMO_128: &str = include_str!("maps/demo_128.txt");

/// SplitMix64: a small seeded generator, identical on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The map of `text` (see the module doc), 1 = blocked.
fn parse(text: &str) -> BitGrid {
    let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let (w, h) = (rows[0].len() as u32, rows.len() as u32);
    let mut bits = BitGrid::new(GridSize::new(w, h), true);
    for (r, row) in rows.iter().enumerate() {
        for (x, ch) in row.bytes().enumerate() {
            let y = h as i32 - 1 - r as i32;
            bits.set(Cell::new(x as i32, y), ch != b'.');
        }
    }
    bits
}

/// The free cells of the largest 4-connected region, in row order (O(cells)).
fn largest_region(bits: &BitGrid) -> Vec<Cell> {
    let size = bits.size();
    let mut seen = vec![false; size.area()];
    let mut best: Vec<Cell> = Vec::new();
    for i in 0..size.area() {
        let start = size.cell(i);
        if seen[i] || bits.get_or(start, true) {
            continue;
        }
        seen[i] = true;
        let mut region = vec![start];
        let mut k = 0;
        while k < region.len() {
            let c = region[k];
            k += 1;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let n = Cell::new(c.x + dx, c.y + dy);
                if bits.get_or(n, true) {
                    continue;
                }
                let j = (n.y as u32 * size.width + n.x as u32) as usize;
                if !seen[j] {
                    seen[j] = true;
                    region.push(n);
                }
            }
        }
        if region.len() > best.len() {
            best = region;
        }
    }
    best.sort_unstable_by_key(|c| (c.y, c.x));
    best
}

/// A drawn leg scenario: its map (1 = blocked), each unit's start and its goals.
pub struct Drawn {
    pub bits: BitGrid,
    pub starts: Vec<Cell>,
    pub legs: Vec<Vec<Cell>>,
}

/// `count` units on distinct cells of `free` accepted by `spawn_ok`, each with `goals`
/// successive goals (none equal to the one before), all drawn from `rng`.
fn units(
    bits: BitGrid,
    count: usize,
    goals: usize,
    rng: &mut Rng,
    spawn_ok: impl Fn(Cell) -> bool,
) -> Drawn {
    let free = largest_region(&bits);
    let mut taken = std::collections::HashSet::new();
    let (mut starts, mut legs) = (Vec::new(), Vec::new());
    while starts.len() < count {
        let start = free[rng.below(free.len())];
        if !spawn_ok(start) || !taken.insert(start) {
            continue;
        }
        let mut seq = Vec::with_capacity(goals);
        let mut last = start;
        while seq.len() < goals {
            let g = free[rng.below(free.len())];
            if g != last {
                seq.push(g);
                last = g;
            }
        }
        starts.push(start);
        legs.push(seq);
    }
    Drawn { bits, starts, legs }
}

/// `corridors` with `seed`: 6 units on `demo_16`; `legs` goals each (`None`: timed, 60 s).
pub fn corridors(seed: u64, legs: Option<u32>) -> Drawn {
    let goals = legs.map_or(TIMED_GOALS, |n| n as usize);
    units(parse(DEMO_16), 6, goals, &mut Rng(seed), |_| true)
}

/// `corridors_large`: 128 units on `demo_128` (seed 0), spawned outside its central
/// square as in `demo`; `legs` goals each (`None`: timed, 60 s).
pub fn corridors_large(legs: Option<u32>) -> Drawn {
    let goals = legs.map_or(TIMED_GOALS, |n| n as usize);
    let outside = |c: Cell| !((64..=84).contains(&c.x) && (64..=84).contains(&c.y));
    units(parse(DEMO_128), 128, goals, &mut Rng(0), outside)
}
