//! The hexagonal runner: the one engine (`Pathfinder` on a hexagonal `CachedScenario`)
//! beside hexx's A* on generated hexagonal maps, every answer checked against our
//! Dijkstra (the oracle), µs per query from one run; then sliced searches under edits,
//! carried over or started over.
//!
//! `cargo run --release -p tilepath_bench --no-default-features --example hex`
//!
//! Maps: per bevy_ecs_tilemap layout, an open map (one hexagon in five blocked) and a
//! terrain map (weights 1, 2 and 4 in patches, lakes blocked), 64 × 64 and 256 × 256
//! tiles. A step between neighbours `a` and `b` costs `(w(a) + w(b)) / 2` (in
//! [`STRAIGHT`] units), so a path's cost in half steps is `2 cost / STRAIGHT`. hexx's
//! `a_star` takes a step cost and adds the plain hex distance as its heuristic: on the
//! open maps it gets 1 a step (exact, the same heuristic as ours); on terrain maps it
//! gets the half-step cost `w(a) + w(b)`, the smallest exact integer cost, with which its
//! heuristic is half as tight as ours.

use std::time::Instant;

use tilepath::grid::{Cell, Cost, GridSize, STRAIGHT};
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{BitGrid, CachedScenario, MapEdit, MovementProfile, ProfileId, Scenario};
use tilepath::search::{Algorithm, PathQuery, Pathfinder, Progress};
use tilepath::shape::{GridShape, Hex, HexLayout};

const QUERIES: usize = 300;

/// The profile whose terrain ids are the tiles' weights (1, 2 or 4).
const WEIGHED: ProfileId = ProfileId(1);

/// A generated map: the hexagonal cached map and its tiles' weights (0 blocked), row by
/// row, for hexx's step cost.
#[derive(Clone)]
struct HexTiles {
    layout: HexLayout,
    side: u32,
    weights: Vec<u8>,
    map: CachedScenario,
}

impl HexTiles {
    /// The weight of the tile at axial `hex`, `None` off the map or blocked.
    fn weight(&self, hex: Hex) -> Option<u8> {
        let (c, r) = self.layout.position(hex);
        let side = self.side as i32;
        if c < 0 || r < 0 || c >= side || r >= side {
            return None;
        }
        Some(self.weights[(r * side + c) as usize]).filter(|&w| w > 0)
    }

    /// Gives the tile `cell` the weight `w` (0 blocks it), on the map too.
    fn set(&mut self, cell: Cell, w: u8) {
        self.weights[(cell.y * self.side as i32 + cell.x) as usize] = w;
        let mut edits = vec![MapEdit::Obstacle(cell, w == 0)];
        if w > 0 {
            edits.push(MapEdit::Terrain(cell, w));
        }
        self.map.apply_edits(edits);
    }
}

/// An open map (`terrain` false) or a terrain map of `side × side` tiles.
fn generate(layout: HexLayout, side: u32, terrain: bool, seed: u64) -> HexTiles {
    let mut rng = SplitMix64::new(seed);
    let patches: Vec<(i64, i64, i64, u8)> = (0..side / 4)
        .map(|_| {
            let (c, r) = (rng.below(side), rng.below(side));
            let radius = 2 + rng.below(side / 10 + 2);
            let weight = [0, 2, 4, 4][rng.below(4) as usize];
            (c as i64, r as i64, radius as i64, weight)
        })
        .collect();
    let mut noise = SplitMix64::new(seed ^ 0x5eed);
    let mut weights = Vec::with_capacity((side * side) as usize);
    for r in 0..side {
        for c in 0..side {
            weights.push(if terrain {
                let (c, r) = (i64::from(c), i64::from(r));
                patches
                    .iter()
                    .find(|(pc, pr, radius, _)| (c - pc).pow(2) + (r - pr).pow(2) <= radius.pow(2))
                    .map_or(1, |p| p.3)
            } else {
                u8::from(noise.below(5) != 0)
            });
        }
    }
    let mut bits = BitGrid::new(GridSize::new(side, side), false);
    for (i, &w) in weights.iter().enumerate() {
        let i = i as u32;
        bits.set(Cell::new((i % side) as i32, (i / side) as i32), w == 0);
    }
    let mut map = CachedScenario::from_bits_and_terrain(bits, weights.clone())
        .expect("a valid map")
        .with_shape(GridShape::Hex(layout));
    map.set_profile(
        WEIGHED,
        MovementProfile::new().with_weight(2, 2).with_weight(4, 4),
    );
    HexTiles {
        layout,
        side,
        weights,
        map,
    }
}

/// The query from `a` to `b`: exact ends, weighed by the tiles' weights (as every
/// query of this runner: edits give open maps weights 2 and 4 too).
fn query(a: Cell, b: Cell) -> PathQuery {
    PathQuery::new(a, b).profile(WEIGHED)
}

/// A path cost in half steps of weight (`w(a) + w(b)` a step).
fn half_steps(cost: Cost) -> u64 {
    cost / (STRAIGHT / 2)
}

fn main() {
    println!(
        "| map | layout | queries | mismatches (ours) | mismatches (hexx) | ours µs | ours expansions | hexx µs | hexx / ours |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for side in [64u32, 256] {
        for terrain in [false, true] {
            for layout in HexLayout::ALL {
                run(layout, side, terrain);
            }
        }
    }
    println!();
    println!(
        "| map | layout | queries | slice | mismatches (carried) | mismatches (restarted) | carried expansions | restarted expansions | carried µs | restarted µs | restarted / carried (µs) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for terrain in [false, true] {
        for layout in [HexLayout::RowOdd, HexLayout::Column] {
            edited(layout, 256, terrain);
        }
    }
}

/// `n` pairs of free tiles that a Dijkstra connects on `tiles`, with its costs in half
/// steps.
fn reachable_pairs(tiles: &HexTiles, n: usize) -> Vec<(Cell, Cell, u64)> {
    let side = tiles.side;
    let mut rng = SplitMix64::new(7);
    let mut pick = || loop {
        let cell = Cell::new(rng.below(side) as i32, rng.below(side) as i32);
        if !tiles.map.is_blocked(cell, 1) {
            return cell;
        }
    };
    let mut oracle = Pathfinder::new();
    (0..n * 4)
        .filter_map(|_| {
            let (a, b) = (pick(), pick());
            let q = query(a, b).algorithm(Algorithm::Dijkstra);
            let cost = oracle.find(&tiles.map, &q).ok()?.cost;
            Some((a, b, half_steps(cost)))
        })
        .take(n)
        .collect()
}

/// Expansions counted by `progress` so far, all slices together.
fn expanded(progress: &Result<Progress, tilepath::search::PathError>) -> u64 {
    match progress {
        Ok(Progress::Done(s)) => u64::from(s.expanded),
        Ok(Progress::Suspended { expanded }) => u64::from(*expanded),
        Err(_) => 0,
    }
}

/// Sliced A* searches with an edit (a random tile blocked, freed or given another
/// weight) after every slice but the first few dozen: carried over by `resume`, or
/// started over after each edit. Each answer is checked against a Dijkstra on the map
/// as it is when the search ends; µs count the searches only.
fn edited(layout: HexLayout, side: u32, terrain: bool) {
    const SLICE: u32 = 256;
    const EDITED_SLICES: u32 = 40;
    let base = generate(
        layout,
        side,
        terrain,
        u64::from(side) * 31 + u64::from(terrain),
    );
    let pairs = reachable_pairs(&base, QUERIES / 3);
    let mut oracle = Pathfinder::new();
    let mut finder = Pathfinder::new();
    let mut rows = [(0usize, 0u64, 0f64); 2];
    for (k, &(a, b, _)) in pairs.iter().enumerate() {
        for (restart, row) in rows.iter_mut().enumerate() {
            let mut tiles = base.clone();
            let mut rng = SplitMix64::new(k as u64);
            let q = query(a, b).algorithm(Algorithm::AStar);
            let mut spent = std::time::Duration::ZERO;
            let mut timed = |f: &mut dyn FnMut()| {
                let started = Instant::now();
                f();
                spent += started.elapsed();
            };
            let mut step = Ok(Progress::Suspended { expanded: 0 });
            timed(&mut || step = finder.start(&tiles.map, &q, SLICE));
            // Expansions of the searches started before the current one.
            let mut before = 0;
            let mut slices = 0;
            let found = loop {
                match step {
                    Ok(Progress::Suspended { .. }) => {}
                    Ok(Progress::Done(s)) => break Some(half_steps(s.cost)),
                    Err(_) => break None,
                }
                slices += 1;
                if slices < EDITED_SLICES {
                    let cell = Cell::new(rng.below(side) as i32, rng.below(side) as i32);
                    if cell != a && cell != b {
                        tiles.set(cell, [0, 1, 2, 4][rng.below(4) as usize]);
                    }
                    if restart == 1 {
                        before += expanded(&step);
                        timed(&mut || step = finder.start(&tiles.map, &q, SLICE));
                        continue;
                    }
                }
                let restarts = finder.edit_restarts();
                let so_far = expanded(&step);
                timed(&mut || step = finder.resume(&tiles.map, SLICE));
                // A restart inside resume counts its expansions from 0.
                if finder.edit_restarts() != restarts {
                    before += so_far;
                }
            };
            let expected = oracle
                .find(&tiles.map, &q.algorithm(Algorithm::Dijkstra))
                .ok()
                .map(|s| half_steps(s.cost));
            row.0 += usize::from(found != expected);
            row.1 += before + expanded(&step);
            row.2 += spent.as_secs_f64() * 1e6;
        }
    }
    let n = pairs.len().max(1);
    let [carried, restarted] = rows;
    println!(
        "| {} {side}² | {layout:?} | {} | {SLICE} | {} | {} | {} | {} | {:.1} | {:.1} | {:.1} |",
        if terrain { "terrain" } else { "open" },
        pairs.len(),
        carried.0,
        restarted.0,
        carried.1 / n as u64,
        restarted.1 / n as u64,
        carried.2 / n as f64,
        restarted.2 / n as f64,
        restarted.2 / carried.2.max(1e-9)
    );
}

fn run(layout: HexLayout, side: u32, terrain: bool) {
    let tiles = generate(
        layout,
        side,
        terrain,
        u64::from(side) * 31 + u64::from(terrain),
    );
    let pairs = reachable_pairs(&tiles, QUERIES);

    let mut ours = Pathfinder::new();
    let (mut ours_bad, mut expansions) = (0, 0u64);
    let started = Instant::now();
    for &(a, b, cost) in &pairs {
        let got = ours.find(&tiles.map, &query(a, b));
        ours_bad += usize::from(got.as_ref().map(|s| half_steps(s.cost)) != Ok(cost));
        expansions += got.map_or(0, |s| u64::from(s.expanded));
    }
    let ours_us = started.elapsed().as_secs_f64() * 1e6 / pairs.len() as f64;

    let weight = |h: hexx::Hex| tiles.weight(Hex::new(h.x, h.y));
    let step = |a: hexx::Hex, b: hexx::Hex| -> Option<u32> {
        let wb = u32::from(weight(b)?);
        if a == b {
            return Some(0);
        }
        let wa = u32::from(weight(a)?);
        Some(if terrain { wa + wb } else { 1 })
    };
    let axial = |c: Cell| {
        let h = layout.hex(c.x, c.y);
        hexx::hex(h.q, h.r)
    };
    let mut hexx_bad = 0;
    let started = Instant::now();
    for &(a, b, cost) in &pairs {
        let path = hexx::algorithms::a_star(axial(a), axial(b), step);
        let got = path.map(|p| {
            p.windows(2)
                .map(|w| u64::from(step(w[0], w[1]).unwrap_or(u32::MAX)))
                .sum::<u64>()
                * if terrain { 1 } else { 2 }
        });
        hexx_bad += usize::from(got != Some(cost));
    }
    let hexx_us = started.elapsed().as_secs_f64() * 1e6 / pairs.len() as f64;
    println!(
        "| {} {side}² | {layout:?} | {} | {ours_bad} | {hexx_bad} | {ours_us:.1} | {} | {hexx_us:.1} | {:.1} |",
        if terrain { "terrain" } else { "open" },
        pairs.len(),
        expansions / pairs.len().max(1) as u64,
        hexx_us / ours_us
    );
}
