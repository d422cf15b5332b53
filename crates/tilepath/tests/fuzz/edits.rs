//! Fuzz target of `CachedScenario::apply_edits`: random edit sequences against a map rebuilt from scratch.
//!
//! A case builds some layers (profile, diameter), some with their JPS+ jump tables,
//! then applies batches of obstacle and terrain edits (clustered or scattered, some off
//! the map or equal to the cell's state) with profiles registered or replaced between
//! batches. After every batch the edited map must equal a map built from its obstacle
//! bits and terrain: true clearance, terrain counts, every built layer's bits and
//! connected components (as a partition), each profile's weights, kept jump tables
//! against fresh builds, large footprints against the naive test; and the returned
//! `MapChange` must cover what changed. Directives: `build P D`, `jump P D`,
//! `edits o:X,Y:0|1 t:X,Y:ID ...`, `profile ID SPEC`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use tilepath::grid::Cell;
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{MapEdit, ProfileId};

use crate::cases::{self, cell, profile_directive, random_cell, random_map, random_spec};
use crate::common::{blocked_naive, picture, stale_jump_table};
use crate::harness::{fuzz, report};

/// Batches checked by the target, for its summary.
static BATCHES: AtomicU64 = AtomicU64::new(0);

#[test]
fn map_edits() {
    fuzz("map-edits", 1_500, "edit sequences", generate, check);
    report(&format!(
        "fuzz map-edits: {} batches checked against rebuilt maps",
        BATCHES.load(Ordering::Relaxed)
    ));
}

fn generate(rng: &mut SplitMix64) -> String {
    // Now and then tall enough for open squares of the clearance cap (63 cells).
    let height = if rng.chance(1, 4) { 80 } else { 40 };
    // Now and then wide enough for edits of one batch to be brought up to date in
    // separate boxes (at least 126 cells apart).
    let width = if rng.chance(1, 4) { 400 } else { 140 };
    let terrain = random_map(rng, width, height);
    let (mut text, size) = (terrain.to_movingai() + "---\n", terrain.size());
    let profiles = rng.below(3);
    for id in 1..=profiles {
        text += &format!("profile {id} {}\n", random_spec(rng));
    }
    for _ in 0..1 + rng.below(4) {
        let (p, d) = (rng.below(profiles + 1), 1 + rng.below(5));
        let what = if rng.chance(1, 2) { "jump" } else { "build" };
        text += &format!("{what} {p} {d}\n");
    }
    for _ in 0..4 + rng.below(16) {
        if rng.chance(1, 10) {
            let id = 1 + rng.below(profiles + 1);
            text += &format!("profile {id} {}\n", random_spec(rng));
        }
        text += "edits";
        let near = random_cell(rng, size);
        for _ in 0..1 + rng.below(8) {
            let c = if rng.chance(3, 4) {
                Cell::new(
                    near.x.saturating_add(rng.range(-4, 4)),
                    near.y.saturating_add(rng.range(-4, 4)),
                )
            } else {
                random_cell(rng, size)
            };
            if rng.chance(2, 3) {
                text += &format!(" o:{},{}:{}", c.x, c.y, rng.below(2));
            } else {
                let id = b"..TSWGFR@"[rng.below(9) as usize];
                text += &format!(" t:{},{}:{id}", c.x, c.y);
            }
        }
        text += "\n";
    }
    text
}

/// One edit token `o:X,Y:0|1` or `t:X,Y:ID`.
fn edit(token: &str) -> Result<MapEdit, String> {
    let mut parts = token.split(':');
    let (kind, at, value) = (parts.next(), parts.next(), parts.next());
    let (Some(kind), Some(at), Some(value), None) = (kind, at, value, parts.next()) else {
        return Err(format!("edit {token:?}"));
    };
    let c = cell(at)?;
    let bad = || format!("edit {token:?}");
    match kind {
        "o" => Ok(MapEdit::Obstacle(c, value == "1")),
        "t" => Ok(MapEdit::Terrain(c, value.parse().map_err(|_| bad())?)),
        _ => Err(bad()),
    }
}

fn check(text: &str) -> Result<(), String> {
    let case = cases::read(text)?;
    let mut map = case.map;
    let mut layers: Vec<(ProfileId, u32)> = Vec::new();
    for (k, line) in case.directives.iter().enumerate() {
        if let Some(done) = profile_directive(&mut map, line) {
            done?;
            continue;
        }
        let what = format!("directive {k} ({line})");
        let mut words = line.split(' ');
        match words.next() {
            Some(kind @ ("build" | "jump")) => {
                let n = |w: Option<&str>| w.and_then(|w| w.parse::<u32>().ok());
                let (Some(p), Some(d)) = (n(words.next()), n(words.next())) else {
                    return Err(format!("{what}: build P D"));
                };
                let p = ProfileId(p as u8);
                if kind == "jump" {
                    map.build_jump_table(p, d);
                } else {
                    map.layer_for(p, d);
                }
                layers.push((p, d));
            }
            Some("edits") => {
                let edits = words.map(edit).collect::<Result<Vec<_>, _>>()?;
                apply_and_compare(&mut map, &edits, &layers).map_err(|e| format!("{what}: {e}"))?;
                BATCHES.fetch_add(1, Ordering::Relaxed);
            }
            _ => return Err(format!("{what}: unknown directive")),
        }
    }
    Ok(())
}

/// Applies one batch, checks its `MapChange`, then compares with a rebuilt map.
fn apply_and_compare(
    map: &mut CachedScenario,
    edits: &[MapEdit],
    layers: &[(ProfileId, u32)],
) -> Result<(), String> {
    let size = map.size();
    let before_bits = map.obstacles().clone();
    let before_terrain: Vec<u8> = (0..size.area())
        .map(|i| map.terrain(size.cell(i)))
        .collect();
    let generation = map.generation();
    let change = map.apply_edits(edits.iter().copied());
    let terrain: Vec<u8> = (0..size.area())
        .map(|i| map.terrain(size.cell(i)))
        .collect();
    let changed: Vec<Cell> = (0..size.area())
        .filter(|&i| {
            before_terrain[i] != terrain[i]
                || before_bits.get_or(size.cell(i), true) != map.is_obstacle(size.cell(i))
        })
        .map(|i| size.cell(i))
        .collect();
    match change {
        None if changed.is_empty() && map.generation() == generation => {}
        None => return Err(format!("no MapChange but {} cells changed", changed.len())),
        Some(ch) => {
            if let Some(c) = changed.iter().find(|&&c| !ch.cells.contains(c)) {
                return Err(format!("changed cell {c} outside {:?}", ch.cells));
            }
            let terrain_changed = changed
                .iter()
                .any(|&c| before_terrain[size.index(c)] != terrain[size.index(c)]);
            if terrain_changed && !ch.terrain
                || ch.generation != generation + 1
                || map.generation() != ch.generation
            {
                return Err(format!("{ch:?} after generation {generation}"));
            }
        }
    }
    compare_with_rebuilt(map, terrain, layers)
}

/// The edited map against one built from its obstacle bits, terrain and profiles.
fn compare_with_rebuilt(
    map: &CachedScenario,
    terrain: Vec<u8>,
    layers: &[(ProfileId, u32)],
) -> Result<(), String> {
    let size = map.size();
    let mut fresh = CachedScenario::from_bits_and_terrain(map.obstacles().clone(), terrain)
        .map_err(|e| e.to_string())?;
    for id in map.profile_ids() {
        fresh.set_profile(id, map.profile(id).unwrap().clone());
    }
    let show = |c: Cell| picture(map.obstacles(), &[c]);
    for i in 0..size.area() {
        let c = size.cell(i);
        if map.true_clearance(c) != fresh.true_clearance(c) {
            return Err(format!(
                "clearance at {c}: {} kept, {} fresh{}",
                map.true_clearance(c),
                fresh.true_clearance(c),
                show(c)
            ));
        }
    }
    if let Some(t) = (0..=u8::MAX).find(|&t| map.terrain_count(t) != fresh.terrain_count(t)) {
        return Err(format!(
            "terrain {t}: {} cells kept, {} fresh",
            map.terrain_count(t),
            fresh.terrain_count(t)
        ));
    }
    for id in map.profile_ids() {
        let (a, b) = (map.weights(id).unwrap(), fresh.weights(id).unwrap());
        if a.uniform() != b.uniform() || a.min() != b.min() {
            return Err(format!(
                "{id}: uniform/min {:?}/{} kept, {:?}/{} fresh",
                a.uniform(),
                a.min(),
                b.uniform(),
                b.min()
            ));
        }
        if let Some(c) = (0..size.area())
            .map(|i| size.cell(i))
            .find(|&c| a.at(c) != b.at(c))
        {
            return Err(format!(
                "{id}: weight at {c} {:?} kept, {:?} fresh",
                a.at(c),
                b.at(c)
            ));
        }
    }
    for &(p, d) in layers {
        let (Some(a), Some(b)) = (map.layer_for(p, d), fresh.layer_for(p, d)) else {
            continue;
        };
        if a.bits() != b.bits() || a.column_bits() != b.column_bits() {
            return Err(format!(
                "{p} d={d}: layer bits differ{}",
                picture(a.bits(), &[])
            ));
        }
        same_partition(a, b).map_err(|e| format!("{p} d={d}: {e}"))?;
        if let Some(stale) = stale_jump_table(a) {
            return Err(format!("{p} d={d}: jump table {stale}"));
        }
    }
    for k in 0..16usize {
        let c = size.cell(k * 7919 % size.area());
        let d = [1, 2, 7, 63, 64, 65, 130][k % 7];
        if map.is_blocked(c, d) != blocked_naive(map, c, d) {
            return Err(format!(
                "is_blocked({c}, {d}) differs from the naive test{}",
                show(c)
            ));
        }
    }
    Ok(())
}

/// The components of two layers group the free cells alike (labels may differ).
fn same_partition(
    a: &tilepath::scenario::Layer,
    b: &tilepath::scenario::Layer,
) -> Result<(), String> {
    let size = a.size();
    let (mut ab, mut ba) = (HashMap::new(), HashMap::new());
    for i in 0..size.area() {
        let c = size.cell(i);
        if a.is_blocked(c) {
            continue;
        }
        let (la, lb) = (a.components().label(c), b.components().label(c));
        if *ab.entry(la).or_insert(lb) != lb || *ba.entry(lb).or_insert(la) != la {
            return Err(format!(
                "components differ at {c}{}",
                picture(a.bits(), &[c])
            ));
        }
    }
    Ok(())
}
