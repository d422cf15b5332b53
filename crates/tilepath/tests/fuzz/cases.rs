//! Fuzz cases as text: a MovingAI map with terrain, a `---` line, then one directive a line.
//!
//! The map's `@` cells are obstacles and every character is its cell's terrain id
//! (`movingai_terrain::terrain_id`), so the crate's own reader and writer carry it.
//! Directives: `profile ID SPEC` registers a terrain spec's profile (in order with the
//! rest); the edit and query targets add their own. Generated and corpus cases take the
//! same path.

use tilepath::grid::{Cell, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::ProfileId;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::movingai_terrain::{TerrainMap, TerrainSpec};

/// Terrain characters of generated maps, `.` the most common.
const TERRAIN: &[u8] = b"....TTSWGFR";

/// A random map text of up to `max_w` x `max_h` cells: terrain in patches (each cell
/// copies its left or upper neighbour often), obstacles (`@`) with a random density.
pub fn random_map(rng: &mut SplitMix64, max_w: u32, max_h: u32) -> TerrainMap {
    let (w, h) = (1 + rng.below(max_w), 1 + rng.below(max_h));
    let percent = [0, 3, 8, 15, 25, 35][rng.below(6) as usize];
    let mut terrain = TerrainMap::new(GridSize::new(w, h), b'.').unwrap();
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            let c = Cell::new(x, y);
            let id = if x > 0 && rng.chance(2, 3) {
                terrain.get(Cell::new(x - 1, y)).unwrap()
            } else if y > 0 && rng.chance(1, 2) {
                terrain.get(Cell::new(x, y - 1)).unwrap()
            } else {
                TERRAIN[rng.below(TERRAIN.len() as u32) as usize]
            };
            terrain.set(c, id);
        }
    }
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            if rng.chance(percent, 100) {
                terrain.set(Cell::new(x, y), b'@');
            }
        }
    }
    terrain
}

/// Mostly a cell of plain ground (`.`, passable unless a spec blocks it) when one is
/// found in a few tries, otherwise [`random_cell`].
pub fn ground_cell(rng: &mut SplitMix64, map: &TerrainMap) -> Cell {
    let size = map.size();
    for _ in 0..8 {
        let c = Cell::new(
            rng.range(0, size.width as i32 - 1),
            rng.range(0, size.height as i32 - 1),
        );
        if map.get(c) == Some(b'.') {
            return c;
        }
    }
    random_cell(rng, size)
}

/// A random spec over the generated terrain: weights 1..=9 mostly, now and then up to
/// 255 or blocked.
pub fn random_spec(rng: &mut SplitMix64) -> String {
    let mut entries = Vec::new();
    for &ch in b".TSWGFR" {
        if rng.chance(1, 5) {
            continue;
        }
        let weight = match rng.below(8) {
            0 => "x".to_string(),
            1 => (1 + rng.below(255)).to_string(),
            _ => (1 + rng.below(9)).to_string(),
        };
        entries.push(format!("{}={weight}", ch as char));
    }
    if entries.is_empty() {
        entries.push(".=1".into());
    }
    entries.join(",")
}

/// A random cell: mostly on the map, sometimes just off it, at `i32` extremes or far away.
pub fn random_cell(rng: &mut SplitMix64, size: GridSize) -> Cell {
    let (w, h) = (size.width as i32, size.height as i32);
    let extreme = [i32::MIN, i32::MIN + 1, -1, 0, i32::MAX - 1, i32::MAX];
    match rng.below(20) {
        0 => Cell::new(
            extreme[rng.below(6) as usize],
            extreme[rng.below(6) as usize],
        ),
        1 => Cell::new(rng.range(-3, w + 2), rng.range(-3, h + 2)),
        2 => Cell::new(rng.range(i32::MIN, i32::MAX), rng.range(i32::MIN, i32::MAX)),
        _ => Cell::new(rng.range(0, w - 1), rng.range(0, h - 1)),
    }
}

/// A case read back: its map (no profile registered but the default) and its directive lines.
pub struct Case<'a> {
    pub map: CachedScenario,
    pub directives: Vec<&'a str>,
}

/// Reads a case: the map text up to a line `---`, the directives after it in order.
pub fn read(text: &str) -> Result<Case<'_>, String> {
    let (map_text, rest) = text.split_once("\n---\n").ok_or("no `---` line")?;
    let terrain = TerrainMap::parse(map_text).map_err(|e| format!("map: {e}"))?;
    let size = terrain.size();
    let mut bits = tilepath::scenario::BitGrid::new(size, false);
    for (i, &t) in terrain.ids().iter().enumerate() {
        bits.set(size.cell(i), t == b'@');
    }
    let map = CachedScenario::from_bits_and_terrain(bits, terrain.ids().to_vec())
        .map_err(|e| format!("map: {e}"))?;
    let directives = rest.lines().filter(|l| !l.trim().is_empty()).collect();
    Ok(Case { map, directives })
}

/// Applies `line` when it is a `profile ID SPEC` directive: `None` for other lines.
pub fn profile_directive(map: &mut CachedScenario, line: &str) -> Option<Result<(), String>> {
    let args = line.strip_prefix("profile ")?;
    Some(match args.split_once(' ') {
        Some((id, spec)) => set_profile(map, id, spec),
        None => Err(format!("{line:?}: profile ID SPEC")),
    })
}

/// Registers the profile of `spec` as `id` (both as written in a directive).
pub fn set_profile(map: &mut CachedScenario, id: &str, spec: &str) -> Result<(), String> {
    let id: u8 = id.parse().map_err(|_| format!("profile id {id:?}"))?;
    let spec = TerrainSpec::parse(spec).map_err(|e| format!("spec {spec:?}: {e}"))?;
    map.set_profile(ProfileId(id), spec.profile());
    Ok(())
}

/// A cell written `x,y`.
pub fn cell(text: &str) -> Result<Cell, String> {
    let (x, y) = text.split_once(',').ok_or(format!("cell {text:?}"))?;
    let n = |s: &str| s.parse::<i32>().map_err(|_| format!("cell {text:?}"));
    Ok(Cell::new(n(x)?, n(y)?))
}
