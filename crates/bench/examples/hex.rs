//! The hexagonal runner: our hex A* beside hexx's A* on generated hexagonal maps, every
//! answer checked against our Dijkstra (the oracle), µs per query from one run; then
//! sliced searches under edits, carried over or started over.
//!
//! `cargo run --release -p tilepath_bench --no-default-features --example hex`
//!
//! Maps: per bevy_ecs_tilemap layout, an open map (one hexagon in five blocked) and a
//! terrain map (weights 1, 2 and 4 in patches, lakes blocked), 64 × 64 and 256 × 256
//! tiles. hexx's `a_star` takes a step cost and adds the plain hex distance as its
//! heuristic: on the open maps it gets 1 a step (exact, the same heuristic as ours); on
//! terrain maps it gets our half-step cost `w(a) + w(b)`, the smallest exact integer
//! cost, with which its heuristic is half as tight as ours.

use std::time::Instant;

use tilepath::hex::{Hex, HexAlgorithm, HexLayout, HexMap, HexPathfinder, HexQuery, HexStep};
use tilepath::scenario::generate::SplitMix64;

const QUERIES: usize = 300;

/// An open map (`terrain` false) or a terrain map of `side × side` tiles.
fn generate(layout: HexLayout, side: u32, terrain: bool, seed: u64) -> HexMap {
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
    HexMap::from_layout(layout, side, side, |c, r| {
        if !terrain {
            return u8::from(noise.below(5) != 0);
        }
        let (c, r) = (i64::from(c), i64::from(r));
        patches
            .iter()
            .find(|(pc, pr, radius, _)| (c - pc).pow(2) + (r - pr).pow(2) <= radius.pow(2))
            .map_or(1, |p| p.3)
    })
    .expect("a valid map")
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

/// `n` pairs of free hexagons that a Dijkstra connects on `map`, with its costs.
fn reachable_pairs(map: &HexMap, layout: HexLayout, side: u32, n: usize) -> Vec<(Hex, Hex, u64)> {
    let mut rng = SplitMix64::new(7);
    let mut pick = || loop {
        let (c, r) = (rng.below(side) as i32, rng.below(side) as i32);
        let hex = layout.hex(c, r);
        if map.can_stand(hex, 0) {
            return hex;
        }
    };
    let mut oracle = HexPathfinder::new();
    (0..n * 4)
        .filter_map(|_| {
            let (a, b) = (pick(), pick());
            let q = HexQuery {
                algorithm: HexAlgorithm::Dijkstra,
                ..HexQuery::new(a, b)
            };
            oracle.find(map, &q).is_ok().then(|| (a, b, oracle.cost()))
        })
        .take(n)
        .collect()
}

/// Sliced A* searches with an edit (a random tile blocked, freed or given another
/// weight) after every slice but the first few dozen: carried over by `resume`, or
/// started over after each edit as before carry-over. Each answer is checked against a
/// Dijkstra on the map as it is when the search ends; µs count the searches only.
fn edited(layout: HexLayout, side: u32, terrain: bool) {
    const SLICE: u64 = 256;
    const EDITED_SLICES: u32 = 40;
    let base = generate(
        layout,
        side,
        terrain,
        u64::from(side) * 31 + u64::from(terrain),
    );
    let pairs = reachable_pairs(&base, layout, side, QUERIES / 3);
    let mut oracle = HexPathfinder::new();
    let mut finder = HexPathfinder::new();
    let mut rows = [(0usize, 0u64, 0f64); 2];
    for (k, &(a, b, _)) in pairs.iter().enumerate() {
        for (restart, row) in rows.iter_mut().enumerate() {
            let mut map = base.clone();
            let mut rng = SplitMix64::new(k as u64);
            let query = HexQuery::new(a, b);
            let mut spent = std::time::Duration::ZERO;
            let mut expansions = 0;
            let mut timed = |f: &mut dyn FnMut()| {
                let started = Instant::now();
                f();
                spent += started.elapsed();
            };
            let mut started = false;
            timed(&mut || started = finder.start(&map, &query).is_ok());
            let mut slices = 0;
            let found = started
                && loop {
                    let mut step = Ok(HexStep::Suspended);
                    let (before, restarts) = (finder.expansions(), finder.edit_restarts());
                    timed(&mut || step = finder.resume(&map, SLICE));
                    // A restart inside resume counts its expansions from 0.
                    expansions += if finder.edit_restarts() == restarts {
                        finder.expansions() - before
                    } else {
                        finder.expansions()
                    };
                    match step {
                        Ok(HexStep::Suspended) => {}
                        Ok(HexStep::Found) => break true,
                        Err(_) => break false,
                    }
                    slices += 1;
                    if slices < EDITED_SLICES {
                        let (c, r) = (rng.below(side) as i32, rng.below(side) as i32);
                        let hex = layout.hex(c, r);
                        if hex != a && hex != b {
                            map.set_weights([(hex, [0, 1, 2, 4][rng.below(4) as usize])]);
                        }
                        if restart == 1 {
                            timed(&mut || started = finder.start(&map, &query).is_ok());
                            if !started {
                                break false;
                            }
                        }
                    }
                };
            let q = HexQuery {
                algorithm: HexAlgorithm::Dijkstra,
                ..query
            };
            let expected = oracle.find(&map, &q).is_ok().then(|| oracle.cost());
            let got = found.then(|| finder.cost());
            row.0 += usize::from(got != expected);
            row.1 += expansions;
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
    let map = generate(
        layout,
        side,
        terrain,
        u64::from(side) * 31 + u64::from(terrain),
    );
    let pairs = reachable_pairs(&map, layout, side, QUERIES);

    let mut ours = HexPathfinder::new();
    let (mut ours_bad, mut expansions) = (0, 0u64);
    let started = Instant::now();
    for &(a, b, cost) in &pairs {
        let found = ours.find(&map, &HexQuery::new(a, b)).is_ok();
        ours_bad += usize::from(!found || ours.cost() != cost);
        expansions += ours.expansions();
    }
    let ours_us = started.elapsed().as_secs_f64() * 1e6 / pairs.len() as f64;

    let weight = |h: hexx::Hex| map.weight(Hex::new(h.x, h.y));
    let step = |a: hexx::Hex, b: hexx::Hex| -> Option<u32> {
        let wb = u32::from(weight(b)?);
        if a == b {
            return Some(0);
        }
        let wa = u32::from(weight(a)?);
        Some(if terrain { wa + wb } else { 1 })
    };
    let mut hexx_bad = 0;
    let started = Instant::now();
    for &(a, b, cost) in &pairs {
        let path = hexx::algorithms::a_star(hexx::hex(a.q, a.r), hexx::hex(b.q, b.r), step);
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
