//! Weighted countryside maps: fields, roads, forest, swamp, lakes and rivers, and a few walls, as MovingAI map characters.

use super::SplitMix64;
use crate::grid::{Cell, GridSize};
use crate::scenario::movingai_terrain::TerrainMap;
use crate::scenario::profile::TerrainId;

/// Open field, `.` (weight 1 under the plain MovingAI rule).
pub const FIELD: TerrainId = b'.';
/// Road, `R`: 4-connected strips, over everything else (bridges over water, gaps in walls).
pub const ROAD: TerrainId = b'R';
/// Forest, `F`: large patches.
pub const FOREST: TerrainId = b'F';
/// Swamp, `S`: bands around the lakes.
pub const SWAMP: TerrainId = b'S';
/// Water, `W`: lakes and rivers.
pub const WATER: TerrainId = b'W';
/// Wall, `@`: rocks and small buildings (blocked under every spec that does not list it).
pub const WALL: TerrainId = b'@';

/// A weighted countryside map from a seed; each cell's terrain id is its MovingAI map
/// character (see [`crate::scenario::movingai_terrain`]), so
/// [`TerrainMap::to_movingai`] writes it as a `.map` file and a spec such as
/// `.=2,R=1,F=4,S=7,W=x` weighs it.
///
/// Made of, in painting order (later layers cover earlier ones):
///
/// - fields (`.`) everywhere, then forest (`F`) on the top quarter of one smooth noise
///   field;
/// - lakes (`W`) on the top 8 % of a second noise field, ringed by swamp (`S`) on its
///   next 10 %, and one river (`W`, 2 to 4 cells wide, meandering across the map) per
///   200 cells of the shorter side, at least one;
/// - walls (`@`): one cluster per 900 cells, a solid rock or a small building (a ring
///   of wall with a one-cell door), never on water;
/// - roads (`R`): `3 + (width + height) / 128` of them, edge to edge through jittered
///   waypoints, 4-connected; the first two, one top to bottom and one left to right,
///   are 3 cells wide, so a 3-wide agent can follow them across every river; roads
///   cover everything, so they bridge rivers and cut through walls.
///
/// Nothing is guaranteed to be connected: pick query ends in one component of the
/// layer you search. Integer arithmetic only, so the same size and seed give the same
/// map on every platform. O(width × height × log(width × height)).
///
/// When to use: weighted benchmarks and conformance tests (costs that change along
/// every path, blocked terrain, bridges), at 256 × 256 and up; it works from 1 × 1.
///
/// # Panics
///
/// When `size` has a zero side or is above the supported map size; sizes here are the
/// program's own choice, not input.
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::scenario::generate::terrain::{self, countryside};
/// use tilepath::scenario::movingai_terrain::{TerrainMap, TerrainSpec};
/// use tilepath::scenario::ProfileId;
///
/// let land = countryside(GridSize::new(64, 48), 3);
/// assert_eq!(land, countryside(GridSize::new(64, 48), 3));
/// assert!(land.count(terrain::ROAD) > 0 && land.count(terrain::WATER) > 0);
/// let text = land.to_movingai();
/// assert_eq!(TerrainMap::parse(&text).unwrap(), land);
///
/// let mut map = land.into_scenario().unwrap();
/// let infantry: TerrainSpec = ".=2,R=1,F=4,S=7,W=x".parse().unwrap();
/// map.set_profile(ProfileId(1), infantry.profile());
/// let weights = map.weights(ProfileId(1)).unwrap();
/// assert_eq!((weights.min(), weights.uniform()), (1, None));
/// ```
pub fn countryside(size: GridSize, seed: u64) -> TerrainMap {
    let mut rng = SplitMix64::new(seed);
    let mut map = TerrainMap::new(size, FIELD).expect("a generator size is supported");
    let (w, h) = (size.width as i32, size.height as i32);
    let side = w.min(h);

    let forest = fractal_noise(size, (side / 5).max(4), &mut rng);
    let forest_from = top_fraction(&forest, 250);
    let moist = fractal_noise(size, (side / 4).max(4), &mut rng);
    let lake_from = top_fraction(&moist, 80);
    let swamp_from = top_fraction(&moist, 180);
    for (i, (&f, &m)) in forest.iter().zip(&moist).enumerate() {
        let terrain = if m >= lake_from {
            WATER
        } else if m >= swamp_from {
            SWAMP
        } else if f >= forest_from {
            FOREST
        } else {
            continue;
        };
        map.set(size.cell(i), terrain);
    }

    for _ in 0..(side / 200).max(1) {
        river(&mut map, &mut rng);
    }

    for _ in 0..size.area() / 900 {
        walls(&mut map, &mut rng);
    }

    for k in 0..3 + (w + h) / 128 {
        let (width, vertical) = match k {
            0 => (3, Some(true)),
            1 => (3, Some(false)),
            _ => (1, None),
        };
        road(&mut map, &mut rng, width, vertical);
    }
    map
}

/// Smooth noise in `0..=3069`: value noise on a lattice of pitch `pitch` (weight 2) plus
/// one of pitch `pitch / 4` (weight 1), smoothstep-interpolated in integers.
fn fractal_noise(size: GridSize, pitch: i32, rng: &mut SplitMix64) -> Vec<u32> {
    let coarse = value_noise(size, pitch, rng);
    let fine = value_noise(size, (pitch / 4).max(2), rng);
    coarse.iter().zip(&fine).map(|(&c, &f)| 2 * c + f).collect()
}

/// Value noise in `0..=1023`: random values on a lattice every `pitch` cells, smoothly
/// interpolated between them.
fn value_noise(size: GridSize, pitch: i32, rng: &mut SplitMix64) -> Vec<u32> {
    let p = pitch.max(1) as i64;
    let cols = size.width as usize / p as usize + 2;
    let rows = size.height as usize / p as usize + 2;
    let lattice: Vec<i64> = (0..cols * rows)
        .map(|_| i64::from(rng.below(1024)))
        .collect();
    let at = |gx: usize, gy: usize| lattice[gy * cols + gx];
    // Smoothstep of f / p, scaled by p: f² (3p - 2f) / p².
    let smooth = |f: i64| f * f * (3 * p - 2 * f) / (p * p);
    (0..size.area())
        .map(|i| {
            let c = size.cell(i);
            let (gx, gy) = ((c.x as i64 / p) as usize, (c.y as i64 / p) as usize);
            let (fx, fy) = (smooth(c.x as i64 % p), smooth(c.y as i64 % p));
            let top = at(gx, gy) * (p - fx) + at(gx + 1, gy) * fx;
            let bottom = at(gx, gy + 1) * (p - fx) + at(gx + 1, gy + 1) * fx;
            ((top * (p - fy) + bottom * fy) / (p * p)) as u32
        })
        .collect()
}

/// The smallest value among the top `per_mille` thousandths of `values` (so about that
/// fraction is at or above it); `u32::MAX` (nothing) for 0.
fn top_fraction(values: &[u32], per_mille: usize) -> u32 {
    let keep = values.len() * per_mille / 1000;
    if keep == 0 {
        return u32::MAX;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted[values.len() - keep]
}

/// A river from one side of the map to the opposite one, 2 to 4 cells wide, drifting by
/// at most one cell every other step and kept off the outer tenth of the map.
fn river(map: &mut TerrainMap, rng: &mut SplitMix64) {
    let size = map.size();
    let vertical = rng.chance(1, 2);
    let (along, across) = if vertical {
        (size.height as i32, size.width as i32)
    } else {
        (size.width as i32, size.height as i32)
    };
    let (lo, hi) = (across / 10, across - 1 - across / 10);
    let mut centre = rng.range(across / 4, across - 1 - across / 4);
    let mut width = rng.range(2, 4);
    for t in 0..along {
        if t % 2 == 0 {
            centre = (centre + rng.range(-1, 1)).clamp(lo, hi.max(lo));
        }
        if t % 16 == 0 {
            width = (width + rng.range(-1, 1)).clamp(2, 4);
        }
        for k in 0..width {
            let u = centre - width / 2 + k;
            let cell = if vertical {
                Cell::new(u, t)
            } else {
                Cell::new(t, u)
            };
            map.set(cell, WATER);
        }
    }
}

/// One wall cluster away from water: a solid rock of 2..=4 by 2..=4 cells, or a
/// building of 4..=7 by 4..=6 cells whose ring of wall has a one-cell door.
fn walls(map: &mut TerrainMap, rng: &mut SplitMix64) {
    let size = map.size();
    let building = rng.chance(1, 2);
    let (bw, bh) = if building {
        (rng.range(4, 7), rng.range(4, 6))
    } else {
        (rng.range(2, 4), rng.range(2, 4))
    };
    let x0 = rng.range(0, size.width as i32 - bw);
    let y0 = rng.range(0, size.height as i32 - bh);
    let door = rng.range(1, bw - 2);
    for y in y0..y0 + bh {
        for x in x0..x0 + bw {
            let c = Cell::new(x, y);
            let edge = x == x0 || y == y0 || x == x0 + bw - 1 || y == y0 + bh - 1;
            let is_door = y == y0 + bh - 1 && x == x0 + door;
            let wall = !building || (edge && !is_door);
            if wall && map.get(c).is_some_and(|t| t != WATER) {
                map.set(c, WALL);
            }
        }
    }
}

/// A road from a random point of one side to one of the opposite side (top to bottom
/// when `vertical`, left to right when not, a coin toss when `None`) through four
/// jittered waypoints, each leg a 4-connected line, each of its cells painted with the
/// `width` × `width` square that has it as its top-left corner.
fn road(map: &mut TerrainMap, rng: &mut SplitMix64, width: i32, vertical: Option<bool>) {
    let size = map.size();
    let (w, h) = (size.width as i32, size.height as i32);
    let (start, end) = if vertical.unwrap_or_else(|| rng.chance(1, 2)) {
        (
            Cell::new(rng.range(0, w - 1), 0),
            Cell::new(rng.range(0, w - 1), h - 1),
        )
    } else {
        (
            Cell::new(0, rng.range(0, h - 1)),
            Cell::new(w - 1, rng.range(0, h - 1)),
        )
    };
    let jitter = (w.min(h) / 8).max(1);
    let mut points = vec![start];
    for k in 1..5 {
        let x = start.x + (end.x - start.x) * k / 5 + rng.range(-jitter, jitter);
        let y = start.y + (end.y - start.y) * k / 5 + rng.range(-jitter, jitter);
        points.push(Cell::new(x.clamp(0, w - 1), y.clamp(0, h - 1)));
    }
    points.push(end);
    for leg in points.windows(2) {
        line4(leg[0], leg[1], |c| {
            for dy in 0..width {
                for dx in 0..width {
                    map.set(Cell::new(c.x + dx, c.y + dy), ROAD);
                }
            }
        });
    }
}

/// Calls `visit` on a 4-connected line of cells from `a` to `b`, both included: each
/// step moves along the axis that keeps the line closest to the straight segment.
fn line4(a: Cell, b: Cell, mut visit: impl FnMut(Cell)) {
    let (dx, dy) = ((b.x - a.x).abs() as i64, (b.y - a.y).abs() as i64);
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut c, mut done_x, mut done_y) = (a, 0i64, 0i64);
    visit(c);
    while done_x < dx || done_y < dy {
        // Step in x when that leaves the line's progress in x ahead of or level with y.
        if done_y >= dy || (done_x < dx && (2 * done_x + 1) * dy <= (2 * done_y + 1) * dx) {
            c.x += sx;
            done_x += 1;
        } else {
            c.y += sy;
            done_y += 1;
        }
        visit(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fraction(map: &TerrainMap, id: TerrainId) -> f64 {
        map.count(id) as f64 / map.size().area() as f64
    }

    #[test]
    fn the_same_seed_gives_the_same_map_and_another_seed_a_different_one() {
        let size = GridSize::new(96, 80);
        assert_eq!(countryside(size, 3), countryside(size, 3));
        assert_ne!(countryside(size, 3), countryside(size, 4));
    }

    #[test]
    fn every_terrain_appears_in_a_believable_share() {
        for (side, seed) in [(256, 1), (512, 2), (300, 7)] {
            let map = countryside(GridSize::new(side, side), seed);
            let shares = [
                (FIELD, 0.25, 0.70),
                (FOREST, 0.08, 0.30),
                (SWAMP, 0.04, 0.15),
                (WATER, 0.06, 0.20),
                (ROAD, 0.01, 0.10),
                (WALL, 0.01, 0.08),
            ];
            let mut total = 0.0;
            for (id, lo, hi) in shares {
                let f = fraction(&map, id);
                assert!((lo..hi).contains(&f), "{} at {side}: {f}", id as char);
                total += f;
            }
            assert!((total - 1.0).abs() < 1e-9, "only the six terrains");
        }
    }

    #[test]
    fn lines_are_4_connected_and_end_where_asked() {
        for (a, b) in [
            ((0, 0), (7, 3)),
            ((5, 9), (1, 0)),
            ((2, 2), (2, 2)),
            ((0, 4), (9, 4)),
        ] {
            let (a, b) = (Cell::new(a.0, a.1), Cell::new(b.0, b.1));
            let mut cells = Vec::new();
            line4(a, b, |c| cells.push(c));
            assert_eq!((cells[0], *cells.last().unwrap()), (a, b));
            let steps = (a.x - b.x).abs() + (a.y - b.y).abs();
            assert_eq!(cells.len() as i32, steps + 1);
            assert!(
                cells
                    .windows(2)
                    .all(|w| (w[0].x - w[1].x).abs() + (w[0].y - w[1].y).abs() == 1)
            );
        }
    }

    #[test]
    fn roads_cross_the_map_over_water_and_walls() {
        let map = countryside(GridSize::new(256, 256), 5);
        let size = map.size();
        let road_on_edge = |c: Cell| map.get(c) == Some(ROAD);
        let edges = (0..256).filter(|&i| {
            road_on_edge(Cell::new(i, 0))
                || road_on_edge(Cell::new(i, 255))
                || road_on_edge(Cell::new(0, i))
                || road_on_edge(Cell::new(255, i))
        });
        assert!(edges.count() >= 4);
        // A road cell with water on both sides across the road's direction is a bridge.
        let bridges = (0..size.area())
            .map(|i| size.cell(i))
            .filter(|&c| {
                map.get(c) == Some(ROAD)
                    && ((map.get(Cell::new(c.x - 1, c.y)) == Some(WATER)
                        && map.get(Cell::new(c.x + 1, c.y)) == Some(WATER))
                        || (map.get(Cell::new(c.x, c.y - 1)) == Some(WATER)
                            && map.get(Cell::new(c.x, c.y + 1)) == Some(WATER)))
            })
            .count();
        assert!(bridges > 0);
    }

    #[test]
    fn a_3_wide_agent_on_roads_alone_crosses_the_map() {
        use crate::scenario::CellRect;
        use crate::scenario::movingai_terrain::TerrainSpec;
        use crate::scenario::profile::ProfileId;
        for seed in [1, 2, 5] {
            let mut map = countryside(GridSize::new(256, 256), seed)
                .into_scenario()
                .unwrap();
            let roads_only = TerrainSpec::parse("R=1,.=x,S=x").unwrap().profile();
            map.set_profile(ProfileId(1), roads_only);
            let layer = map.layer_for(ProfileId(1), 3).unwrap();
            let mut spans: std::collections::HashMap<u32, CellRect> = Default::default();
            for c in CellRect::of_size(map.size()).cells() {
                if !layer.is_blocked(c) {
                    let span = spans
                        .entry(layer.components().label(c))
                        .or_insert(CellRect::from_cell(c));
                    span.include(c);
                }
            }
            let widest = spans
                .values()
                .map(|r| (r.max.x - r.min.x).max(r.max.y - r.min.y))
                .max()
                .unwrap_or(0);
            assert!(widest >= 230, "seed {seed}: widest road network {widest}");
        }
    }

    #[test]
    fn tiny_sizes_do_not_panic() {
        for (w, h) in [(1, 1), (2, 7), (7, 2), (15, 15), (3, 40)] {
            let map = countryside(GridSize::new(w, h), 5);
            assert_eq!(map.size(), GridSize::new(w, h));
        }
    }
}
