//! The hexagonal runner: our hex A* beside hexx's A* on generated hexagonal maps, every
//! answer checked against our Dijkstra (the oracle), µs per query from one run.
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

use tilepath::hex::{Hex, HexAlgorithm, HexLayout, HexMap, HexPathfinder, HexQuery};
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
}

fn run(layout: HexLayout, side: u32, terrain: bool) {
    let map = generate(
        layout,
        side,
        terrain,
        u64::from(side) * 31 + u64::from(terrain),
    );
    let mut rng = SplitMix64::new(7);
    let mut pick = || loop {
        let (c, r) = (rng.below(side) as i32, rng.below(side) as i32);
        let hex = layout.hex(c, r);
        if map.can_stand(hex, 0) {
            return hex;
        }
    };
    let mut oracle = HexPathfinder::new();
    let pairs: Vec<(Hex, Hex, u64)> = (0..QUERIES * 4)
        .filter_map(|_| {
            let (a, b) = (pick(), pick());
            let q = HexQuery {
                algorithm: HexAlgorithm::Dijkstra,
                ..HexQuery::new(a, b)
            };
            let found = oracle.find(&map, &q).is_ok();
            found.then(|| (a, b, oracle.cost()))
        })
        .take(QUERIES)
        .collect();

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
