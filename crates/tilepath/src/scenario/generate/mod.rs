//! Deterministic procedural maps (open fields, clutter, mazes, rooms, RTS levels) from a seed.
//!
//! Every generator returns a [`BitGrid`] with 1 = obstacle, except [`countryside`]
//! (weighted terrain as MovingAI characters, in [`terrain`]), and is a pure function of its
//! arguments: the same size and seed give the same map on every platform, so tests,
//! benchmarks and the shipped `assets/maps/*.map` files can be regenerated exactly.
//!
//! ```
//! use tilepath::prelude::*;
//! use tilepath::scenario::generate;
//!
//! let bits = generate::maze(GridSize::new(21, 21), 1, 7);
//! let map = CachedScenario::from_bits(bits).unwrap();
//! assert!(map.connected(Cell::new(1, 1), Cell::new(19, 19), 1));
//! ```

mod rng;
pub mod terrain;

pub use rng::SplitMix64;
pub use terrain::countryside;

use super::bitgrid::BitGrid;
use super::components::Components;
use super::rect::CellRect;
use crate::grid::{Cell, GridSize};

/// A rectangle from its corner and size, clipped to nothing when the size is not positive.
fn rect(x: i32, y: i32, w: i32, h: i32) -> CellRect {
    CellRect {
        min: Cell::new(x, y),
        max: Cell::new(x + w.max(0), y + h.max(0)),
    }
}

fn fill(bits: &mut BitGrid, r: CellRect, value: bool) {
    for cell in r.expand_clip(0, bits.size()).cells() {
        bits.set(cell, value);
    }
}

fn overlaps(a: CellRect, b: CellRect) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}

/// Turns every free cell outside the largest 4-connected free region into an obstacle,
/// so that any two free cells of the result are connected.
pub fn keep_largest_region(bits: &mut BitGrid) {
    let components = Components::new(bits);
    let size = bits.size();
    let mut counts: Vec<u32> = Vec::new();
    for cell in CellRect::of_size(size).cells() {
        let label = components.label(cell) as usize;
        if label >= counts.len() {
            counts.resize(label + 1, 0);
        }
        counts[label] += 1;
    }
    let best = (1..counts.len()).max_by_key(|&l| (counts[l], usize::MAX - l));
    for cell in CellRect::of_size(size).cells() {
        let label = components.label(cell) as usize;
        if label != 0 && Some(label) != best {
            bits.set(cell, true);
        }
    }
}

/// Visits a `cols` x `rows` lattice with a randomised depth-first walk (the recursive
/// backtracker, run on an explicit stack) and calls `link(a, b)` for each of its
/// `cols * rows - 1` tree edges, so the linked lattice is a spanning tree.
fn spanning_tree(cols: i32, rows: i32, rng: &mut SplitMix64, mut link: impl FnMut(Cell, Cell)) {
    if cols <= 0 || rows <= 0 {
        return;
    }
    let index = |c: Cell| (c.y * cols + c.x) as usize;
    let mut visited = vec![false; (cols * rows) as usize];
    let start = Cell::new(rng.range(0, cols - 1), rng.range(0, rows - 1));
    visited[index(start)] = true;
    let mut stack = vec![start];
    while let Some(&top) = stack.last() {
        let mut options = [Cell::default(); 4];
        let mut n = 0;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let next = Cell::new(top.x + dx, top.y + dy);
            if next.x >= 0 && next.y >= 0 && next.x < cols && next.y < rows && !visited[index(next)]
            {
                options[n] = next;
                n += 1;
            }
        }
        if n == 0 {
            stack.pop();
            continue;
        }
        let next = options[rng.below(n as u32) as usize];
        visited[index(next)] = true;
        link(top, next);
        stack.push(next);
    }
}

/// An open field with a few (4 to 7) big rectangular blocks, each up to a quarter of
/// the map on a side. Free cells cut off by the blocks are filled, so every free cell
/// is reachable from every other.
///
/// When to use: the easy case where heuristic searches shine and Dijkstra/BFS flood.
///
/// # Panics
///
/// When `size` is above the supported map size (see [`BitGrid::new`]); sizes here are
/// the program's own choice, not input.
pub fn open_field(size: GridSize, seed: u64) -> BitGrid {
    let mut rng = SplitMix64::new(seed);
    let mut bits = BitGrid::new(size, false);
    let (w, h) = (size.width as i32, size.height as i32);
    let blocks = rng.range(4, 7);
    for _ in 0..blocks {
        let bw = rng.range((w / 10).max(1), (w / 4).max(1));
        let bh = rng.range((h / 10).max(1), (h / 4).max(1));
        let x = rng.range(2, w - bw - 2);
        let y = rng.range(2, h - bh - 2);
        fill(&mut bits, rect(x, y, bw, bh), true);
    }
    keep_largest_region(&mut bits);
    bits
}

/// Dense clutter: many small random rectangles (1 to 4 cells on a side) covering
/// roughly a quarter of the map, with enclosed pockets filled so all free cells connect.
///
/// When to use: many short detours; shows how often each algorithm re-expands.
///
/// # Panics
///
/// When `size` is above the supported map size (see [`BitGrid::new`]); sizes here are
/// the program's own choice, not input.
pub fn random_rects(size: GridSize, seed: u64) -> BitGrid {
    let mut rng = SplitMix64::new(seed);
    let mut bits = BitGrid::new(size, false);
    let (w, h) = (size.width as i32, size.height as i32);
    let count = size.area() / 26;
    for _ in 0..count {
        let (rw, rh) = (rng.range(1, 4), rng.range(1, 4));
        let x = rng.range(0, w - rw);
        let y = rng.range(0, h - rh);
        fill(&mut bits, rect(x, y, rw, rh), true);
    }
    keep_largest_region(&mut bits);
    bits
}

/// A maze of corridors `corridor` cells wide separated by one-cell walls, built by the
/// recursive backtracker on a coarse lattice (pitch `corridor + 1`), centred on the map,
/// with one wall in twelve knocked out afterwards to add loops. All free cells are
/// connected. A `corridor` of 0 is treated as 1; a map too small for one lattice cell is
/// returned open.
///
/// When to use: long winding paths where the heuristic misleads and DFS wanders.
///
/// # Panics
///
/// When `size` is above the supported map size (see [`BitGrid::new`]); sizes here are
/// the program's own choice, not input.
pub fn maze(size: GridSize, corridor: u32, seed: u64) -> BitGrid {
    let mut rng = SplitMix64::new(seed);
    let corridor = corridor.clamp(1, 64) as i32;
    let pitch = corridor + 1;
    let (w, h) = (size.width as i32, size.height as i32);
    let (cols, rows) = ((w - 1) / pitch, (h - 1) / pitch);
    if cols <= 0 || rows <= 0 {
        return BitGrid::new(size, false);
    }
    let ox = 1 + (w - 1 - cols * pitch) / 2;
    let oy = 1 + (h - 1 - rows * pitch) / 2;
    let mut bits = BitGrid::new(size, true);
    let carve = |bits: &mut BitGrid, a: Cell, b: Cell| {
        let (lo, hi) = (
            Cell::new(a.x.min(b.x), a.y.min(b.y)),
            Cell::new(a.x.max(b.x), a.y.max(b.y)),
        );
        let x0 = ox + lo.x * pitch;
        let y0 = oy + lo.y * pitch;
        let x1 = ox + hi.x * pitch + corridor;
        let y1 = oy + hi.y * pitch + corridor;
        fill(bits, rect(x0, y0, x1 - x0, y1 - y0), false);
    };
    for cy in 0..rows {
        for cx in 0..cols {
            let c = Cell::new(cx, cy);
            carve(&mut bits, c, c);
        }
    }
    spanning_tree(cols, rows, &mut rng, |a, b| carve(&mut bits, a, b));
    for cy in 0..rows {
        for cx in 0..cols {
            let c = Cell::new(cx, cy);
            if cx + 1 < cols && rng.chance(1, 12) {
                carve(&mut bits, c, Cell::new(cx + 1, cy));
            }
            if cy + 1 < rows && rng.chance(1, 12) {
                carve(&mut bits, c, Cell::new(cx, cy + 1));
            }
        }
    }
    bits
}

/// Offsets of `n + 1` walls splitting `0..len` into `n` nearly equal spans.
fn wall_lines(len: i32, n: i32) -> Vec<i32> {
    (0..=n).map(|i| i * (len - 1) / n.max(1)).collect()
}

/// Rooms of about 15 x 15 cells behind one-cell walls, joined by doors 2 or 3 cells
/// wide (a spanning tree of doors plus a few extra), with furniture: about half of the
/// rooms hold a HOLLOW obstacle (a rectangular ring of wall whose inside is free but
/// unreachable), some others a solid block. Obstacles keep two free cells from the
/// room walls so every door stays usable.
///
/// When to use: doors are choke points; hollow obstacles have free insides that must
/// be answered "unreachable" without a search, and that trap contour tracers.
///
/// # Panics
///
/// When `size` is above the supported map size (see [`BitGrid::new`]); sizes here are
/// the program's own choice, not input.
pub fn rooms(size: GridSize, seed: u64) -> BitGrid {
    rooms_with_hollows(size, seed).0
}

/// [`rooms`] plus the outer rectangle of each hollow obstacle.
fn rooms_with_hollows(size: GridSize, seed: u64) -> (BitGrid, Vec<CellRect>) {
    let mut rng = SplitMix64::new(seed);
    let mut bits = BitGrid::new(size, false);
    let mut hollows = Vec::new();
    let (w, h) = (size.width as i32, size.height as i32);
    let (nx, ny) = (((w - 1) / 14).max(1), ((h - 1) / 14).max(1));
    let xs = wall_lines(w, nx);
    let ys = wall_lines(h, ny);
    for &x in &xs {
        fill(&mut bits, rect(x, 0, 1, h), true);
    }
    for &y in &ys {
        fill(&mut bits, rect(0, y, w, 1), true);
    }
    let door = |bits: &mut BitGrid, rng: &mut SplitMix64, a: Cell, b: Cell| {
        let width = rng.range(2, 3);
        if a.y == b.y {
            let x = xs[a.x.max(b.x) as usize];
            let (y0, y1) = (ys[a.y as usize] + 1, ys[a.y as usize + 1]);
            let y = rng.range(y0, y1 - width);
            fill(bits, rect(x, y, 1, width.min(y1 - y)), false);
        } else {
            let y = ys[a.y.max(b.y) as usize];
            let (x0, x1) = (xs[a.x as usize] + 1, xs[a.x as usize + 1]);
            let x = rng.range(x0, x1 - width);
            fill(bits, rect(x, y, width.min(x1 - x), 1), false);
        }
    };
    let mut links = Vec::new();
    spanning_tree(nx, ny, &mut rng, |a, b| links.push((a, b)));
    for (a, b) in links {
        door(&mut bits, &mut rng, a, b);
    }
    for ry in 0..ny {
        for rx in 0..nx {
            let a = Cell::new(rx, ry);
            if rx + 1 < nx && rng.chance(1, 3) {
                door(&mut bits, &mut rng, a, Cell::new(rx + 1, ry));
            }
            if ry + 1 < ny && rng.chance(1, 3) {
                door(&mut bits, &mut rng, a, Cell::new(rx, ry + 1));
            }
        }
    }
    for ry in 0..ny as usize {
        for rx in 0..nx as usize {
            let (x0, x1) = (xs[rx] + 3, xs[rx + 1] - 2);
            let (y0, y1) = (ys[ry] + 3, ys[ry + 1] - 2);
            let (iw, ih) = (x1 - x0, y1 - y0);
            if iw < 4 || ih < 4 {
                continue;
            }
            let roll = rng.below(6);
            if roll < 3 {
                let rw = rng.range(4, iw.min(10));
                let rh = rng.range(4, ih.min(10));
                let ring = rect(rng.range(x0, x1 - rw), rng.range(y0, y1 - rh), rw, rh);
                fill(&mut bits, ring, true);
                fill(&mut bits, ring.expand_clip(-1, size), false);
                hollows.push(ring);
            } else if roll < 5 {
                let bw = rng.range(2, iw.min(6));
                let bh = rng.range(2, ih.min(6));
                let block = rect(rng.range(x0, x1 - bw), rng.range(y0, y1 - bh), bw, bh);
                fill(&mut bits, block, true);
            }
        }
    }
    (bits, hollows)
}

/// A symmetric-ish RTS battlefield (designed for about 128 x 96): two clear base areas
/// in opposite corners, ridges with wide gaps, scattered rocks (mirrored by a half
/// turn so both sides are fair), and a meandering river down the middle crossed by
/// three bridges seven cells wide. Bases, bridge approaches and ridge gaps are kept
/// free of rocks, so units up to five cells wide can reach the other side. Enclosed
/// pockets are filled, so every free cell is reachable.
///
/// When to use: showcase and benchmark map for large units and choke points.
///
/// # Panics
///
/// When `size` is above the supported map size (see [`BitGrid::new`]); sizes here are
/// the program's own choice, not input.
pub fn rts_level(size: GridSize, seed: u64) -> BitGrid {
    let mut rng = SplitMix64::new(seed);
    let mut bits = BitGrid::new(size, false);
    let (w, h) = (size.width as i32, size.height as i32);
    if w < 16 || h < 16 {
        return bits;
    }
    let (base_a, base_b) = rts_bases(size);
    let half_turn = |c: Cell| Cell::new(w - 1 - c.x, h - 1 - c.y);
    let base_half = (w.min(h) / 8).max(4);
    let mut clear = vec![
        rect(
            base_a.x - base_half,
            base_a.y - base_half,
            2 * base_half + 1,
            2 * base_half + 1,
        ),
        rect(
            base_b.x - base_half,
            base_b.y - base_half,
            2 * base_half + 1,
            2 * base_half + 1,
        ),
    ];
    let mid = w / 2;
    let river_w = (w / 24).max(3);
    let bridge_half = 3;
    let first_bridge = h / 5 + rng.range(-h / 20, h / 20);
    let bridges = [first_bridge, (h - 1) / 2, h - 1 - first_bridge];
    let swing = (w / 12).max(2);
    for &by in &bridges {
        clear.push(rect(mid - swing - 12, by - 8, 2 * swing + 24, 17));
    }
    let ridge_x = w / 4;
    let (ridge_y0, ridge_y1) = (h / 6, h - h / 6);
    let gap_y = rng.range(ridge_y0 + 2, ridge_y1 - 12);
    let ridge_gap = rect(ridge_x - 6, gap_y, 14, 10);
    clear.push(ridge_gap);
    clear.push(rect(w - ridge_x - 8, h - gap_y - 10, 14, 10));
    let mut left = BitGrid::new(size, false);
    fill(
        &mut left,
        rect(ridge_x, ridge_y0, 2, ridge_y1 - ridge_y0),
        true,
    );
    fill(&mut left, rect(ridge_x, gap_y + 1, 2, 8), false);
    let shelf_y = rng.range(h / 3, h / 2);
    fill(&mut left, rect(ridge_x + 2, shelf_y, w / 10, 2), true);
    let rocks = (size.area() / 220) as i32;
    for _ in 0..rocks {
        let r = if rng.chance(1, 6) {
            rng.range(4, 6)
        } else {
            rng.range(1, 3)
        };
        let c = Cell::new(rng.range(1, mid - swing - 4), rng.range(1, h - 2));
        let bound = rect(c.x - r - 1, c.y - r - 1, 2 * r + 3, 2 * r + 3);
        if clear.iter().any(|&z| overlaps(z, bound)) {
            continue;
        }
        for cell in rect(c.x - r, c.y - r, 2 * r + 1, 2 * r + 1).cells() {
            let (dx, dy) = (cell.x - c.x, cell.y - c.y);
            if dx * dx + dy * dy <= r * r + rng.range(0, r) {
                left.set(cell, true);
            }
        }
    }
    for cell in CellRect::of_size(size).cells() {
        if cell.x < mid && left.get_or(cell, false) {
            bits.set(cell, true);
            bits.set(half_turn(cell), true);
        }
    }
    let mut cx = mid;
    for y in 0..h {
        if y % 2 == 0 {
            let step = match cx - mid {
                d if d >= swing => rng.range(-1, 0),
                d if d <= -swing => rng.range(0, 1),
                _ => rng.range(-1, 1),
            };
            cx += step;
        }
        let on_bridge = bridges.iter().any(|&by| (y - by).abs() <= bridge_half);
        if !on_bridge {
            fill(&mut bits, rect(cx - river_w / 2, y, river_w, 1), true);
        }
    }
    keep_largest_region(&mut bits);
    bits
}

/// Centres of the two base areas of [`rts_level`] for a map of `size`: bottom left and top right.
pub fn rts_bases(size: GridSize) -> (Cell, Cell) {
    let (w, h) = (size.width as i32, size.height as i32);
    let inset = (w.min(h) / 8).max(4) + 2;
    (
        Cell::new(inset, h - 1 - inset),
        Cell::new(w - 1 - inset, inset),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{CachedScenario, Scenario};

    type Generator = fn(GridSize, u64) -> BitGrid;

    const GENERATORS: [(&str, Generator); 5] = [
        ("open_field", open_field),
        ("random_rects", random_rects),
        ("maze", |s, seed| maze(s, 2, seed)),
        ("rooms", rooms),
        ("rts_level", rts_level),
    ];

    fn free_cells(bits: &BitGrid) -> Vec<Cell> {
        CellRect::of_size(bits.size())
            .cells()
            .filter(|&c| !bits.get_or(c, true))
            .collect()
    }

    fn all_free_cells_connected(bits: &BitGrid) -> bool {
        let free = free_cells(bits);
        let map = CachedScenario::from_bits(bits.clone()).unwrap();
        free.iter().all(|&c| map.connected(free[0], c, 1))
    }

    #[test]
    fn the_same_seed_gives_the_same_map_and_another_seed_a_different_one() {
        let size = GridSize::new(64, 48);
        for (name, generate) in GENERATORS {
            assert_eq!(generate(size, 3), generate(size, 3), "{name}");
            assert_ne!(generate(size, 3), generate(size, 4), "{name}");
        }
    }

    #[test]
    fn generated_maps_are_neither_empty_nor_full() {
        for (name, generate) in GENERATORS {
            let bits = generate(GridSize::new(128, 96), 1);
            let ratio = bits.count_ones() as f64 / bits.size().area() as f64;
            assert!((0.05..0.75).contains(&ratio), "{name}: {ratio}");
        }
    }

    #[test]
    fn every_free_cell_of_a_maze_is_connected_to_every_other() {
        for (size, corridor) in [((64, 49), 2), ((31, 17), 1), ((50, 50), 3), ((5, 3), 1)] {
            for seed in 0..5 {
                let bits = maze(GridSize::new(size.0, size.1), corridor, seed);
                assert!(!free_cells(&bits).is_empty());
                assert!(
                    all_free_cells_connected(&bits),
                    "{size:?} {corridor} {seed}"
                );
            }
        }
    }

    #[test]
    fn maze_corridors_are_wide_enough_for_agents_of_the_corridor_width_only() {
        for corridor in 1..=4 {
            let bits = maze(GridSize::new(64, 49), corridor, 9);
            let map = CachedScenario::from_bits(bits).unwrap();
            let fits: Vec<Cell> = CellRect::of_size(map.size())
                .cells()
                .filter(|&c| !map.is_blocked(c, corridor))
                .collect();
            assert!(fits.len() > 100, "corridor {corridor}");
            assert!(
                fits.iter().all(|&c| map.connected(fits[0], c, corridor)),
                "corridor {corridor}"
            );
            assert!(
                CellRect::of_size(map.size())
                    .cells()
                    .all(|c| map.is_blocked(c, corridor + 1)),
                "corridor {corridor}"
            );
        }
    }

    #[test]
    fn cleaned_maps_have_a_single_free_region() {
        for seed in 0..4 {
            for generate in [open_field, random_rects, rts_level] {
                assert!(all_free_cells_connected(&generate(
                    GridSize::new(96, 72),
                    seed
                )));
            }
        }
    }

    #[test]
    fn hollow_obstacles_are_walls_around_a_free_unreachable_inside() {
        let size = GridSize::new(64, 48);
        let mut total = 0;
        for seed in 0..4 {
            let (bits, hollows) = rooms_with_hollows(size, seed);
            let map = CachedScenario::from_bits(bits.clone()).unwrap();
            let outside = Cell::new(1, 1);
            assert!(!map.is_obstacle(outside));
            for ring in &hollows {
                let inside = ring.expand_clip(-1, size);
                assert!(!inside.is_empty());
                for cell in ring.cells() {
                    assert_eq!(bits.get_or(cell, false), !inside.contains(cell), "{cell}");
                }
                for cell in inside.cells() {
                    assert!(!map.connected(outside, cell, 1));
                }
                total += 1;
            }
            let rest: Vec<Cell> = free_cells(&bits)
                .into_iter()
                .filter(|&c| !hollows.iter().any(|r| r.contains(c)))
                .collect();
            assert!(rest.iter().all(|&c| map.connected(outside, c, 1)));
        }
        assert!(total >= 4);
    }

    #[test]
    fn big_units_can_cross_the_rts_river_between_the_bases() {
        let size = GridSize::new(128, 96);
        let (a, b) = rts_bases(size);
        for seed in 0..8 {
            let map = CachedScenario::from_bits(rts_level(size, seed)).unwrap();
            assert!(map.connected(a, b, 5), "seed {seed}");
        }
    }

    #[test]
    fn the_rts_river_splits_the_map_except_at_the_bridges() {
        let size = GridSize::new(128, 96);
        let bits = rts_level(size, 2);
        let blocked_rows = (0..96)
            .filter(|&y| (50..78).any(|x| bits.get_or(Cell::new(x, y), false)))
            .count();
        assert!(blocked_rows > 60);
    }

    #[test]
    fn tiny_or_degenerate_sizes_do_not_panic() {
        for (w, h) in [(1, 1), (2, 7), (7, 2), (15, 15), (3, 40)] {
            for (_, generate) in GENERATORS {
                assert_eq!(generate(GridSize::new(w, h), 5).size(), GridSize::new(w, h));
            }
            assert_eq!(maze(GridSize::new(w, h), 0, 1).size(), GridSize::new(w, h));
        }
    }
}
