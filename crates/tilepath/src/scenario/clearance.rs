//! True clearance: per cell, the side of the largest free square whose minimum corner
//! it is; on hexagonal grids, the number of steps to the nearest blocked cell.

use super::bitgrid::BitGrid;
use super::rect::CellRect;
use crate::grid::{Cell, Direction, GridSize};
use crate::shape::GridShape;

/// True clearances are capped here, so diameters up to `CLEARANCE_CAP` are answered
/// exactly (see [`MAX_DIAMETER`](crate::scenario::MAX_DIAMETER)).
pub const CLEARANCE_CAP: u8 = 63;

/// Computes the true clearance of every cell of `blocked` (row-major): one reverse
/// raster pass, O(width × height).
///
/// `tc(x, y) = 0` on an obstacle, else `1 + min(tc(x + 1, y), tc(x, y + 1), tc(x + 1, y + 1))`,
/// with off-map cells 0 and the value capped at [`CLEARANCE_CAP`]. So `tc(x, y) >= k`
/// exactly when the `k × k` square from `(x, y)` to `(x + k - 1, y + k - 1)` is on the
/// map and free (for `k <= CLEARANCE_CAP`), and an agent of diameter `d` fits at `c` iff
/// `tc(c - (d - 1) / 2) >= d` (see [`crate::scenario::footprint`]). This is the "true
/// clearance" of Harabor and Botea's annotated A* (HAA*), for square agents.
pub fn compute(blocked: &BitGrid) -> Vec<u8> {
    let size = blocked.size();
    let mut out = vec![0; size.area()];
    recompute(blocked, &mut out, CellRect::of_size(size));
    out
}

/// The clearance of every cell of `blocked` on a grid of `shape`: [`compute`] on
/// squares; on hexagons the number of steps from each cell to the nearest blocked or
/// off-map cell (0 on a blocked cell, 1 beside the map's edge), capped at
/// [`CLEARANCE_CAP`], so that an agent of radius `r` fits where it exceeds `r`.
/// O(width × height).
pub fn compute_for(shape: GridShape, blocked: &BitGrid) -> Vec<u8> {
    let size = blocked.size();
    let mut out = vec![0; size.area()];
    recompute_for(shape, blocked, &mut out, CellRect::of_size(size));
    out
}

/// [`update`] on a grid of `shape`: on hexagons the cells within `CLEARANCE_CAP`
/// steps of `changed` are recomputed. Returns the recomputed rectangle.
///
/// # Panics
///
/// When `clearance.len()` is not the number of cells of `blocked`.
pub fn update_for(
    shape: GridShape,
    blocked: &BitGrid,
    clearance: &mut [u8],
    changed: CellRect,
) -> CellRect {
    if shape.is_square() {
        return update(blocked, clearance, changed);
    }
    let size = blocked.size();
    assert_eq!(
        clearance.len(),
        size.area(),
        "clearance::update_for: another size"
    );
    let region = affected_for(shape, changed, size);
    recompute_for(shape, blocked, clearance, region);
    region
}

/// [`affected`] on a grid of `shape`: on hexagons, `changed` grown by
/// `CLEARANCE_CAP` cells every way (the tile positions of the cells within that many
/// steps), clipped to `size`. O(1).
pub fn affected_for(shape: GridShape, changed: CellRect, size: GridSize) -> CellRect {
    match shape {
        GridShape::Square => affected(changed, size),
        GridShape::Hex(_) => {
            let cap = i64::from(CLEARANCE_CAP);
            changed.grow_clip(cap, cap, size)
        }
    }
}

fn recompute_for(shape: GridShape, blocked: &BitGrid, out: &mut [u8], region: CellRect) {
    match shape {
        GridShape::Square => recompute(blocked, out, region),
        GridShape::Hex(_) => recompute_hex(shape, blocked, out, region),
    }
}

/// The hexagonal clearance of `region`: a breadth-first search over `region` grown by
/// [`CLEARANCE_CAP`] (which holds every cell within that many steps of it, so every
/// source that matters), from its blocked cells and the cells beside the map's edge.
/// O(area of the grown region); allocates its scratch.
fn recompute_hex(shape: GridShape, blocked: &BitGrid, out: &mut [u8], region: CellRect) {
    if region.is_empty() {
        return;
    }
    let size = blocked.size();
    let cap = i64::from(CLEARANCE_CAP);
    let outer = region.grow_clip(cap, cap, size);
    let width = (outer.max.x - outer.min.x) as usize;
    let local = |c: Cell| (c.y - outer.min.y) as usize * width + (c.x - outer.min.x) as usize;
    let mut dist = vec![CLEARANCE_CAP; outer.cell_count() as usize];
    let mut queue = Vec::new();
    for c in outer.cells() {
        let value = if blocked.get_or(c, true) {
            0
        } else if Direction::in_mask(shape.neighbours(c)).any(|d| !size.contains(c.step(d))) {
            1
        } else {
            continue;
        };
        dist[local(c)] = value;
        queue.push(c);
    }
    // Sources at 0 before those at 1, so that the queue pops in order of distance.
    queue.sort_by_key(|&c| dist[local(c)]);
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        let next = dist[local(c)].saturating_add(1).min(CLEARANCE_CAP);
        for d in Direction::in_mask(shape.neighbours(c)) {
            let n = c.step(d);
            if outer.contains(n) && dist[local(n)] > next {
                dist[local(n)] = next;
                queue.push(n);
            }
        }
    }
    for c in region.cells() {
        out[size.index(c)] = dist[local(c)];
    }
}

/// The cells whose true clearance may change when obstacles inside `changed` flip:
/// `changed` grown by `CLEARANCE_CAP - 1` cells toward −x and −y (a cell's value depends
/// only on the square of side `CLEARANCE_CAP` whose minimum corner it is), clipped to
/// `size`. O(1).
pub fn affected(changed: CellRect, size: GridSize) -> CellRect {
    changed.grow_clip(i64::from(CLEARANCE_CAP) - 1, 0, size)
}

/// Brings `clearance` (from [`compute`] for the same grid) up to date after the obstacle
/// bits inside `changed` flipped in `blocked`; recomputes exactly
/// [`affected`]`(changed, size)` and returns it. Cells outside it keep their values,
/// which are still exact. O(area of the returned rectangle), no allocation.
///
/// # Panics
///
/// When `clearance.len()` is not the number of cells of `blocked`.
pub fn update(blocked: &BitGrid, clearance: &mut [u8], changed: CellRect) -> CellRect {
    let size = blocked.size();
    assert_eq!(
        clearance.len(),
        size.area(),
        "clearance::update: the clearance map is for another size"
    );
    let region = affected(changed, size);
    recompute(blocked, clearance, region);
    region
}

/// Recomputes `region` in reverse raster order; values right of and below the region
/// are read from `tc` (they must be current), off-map cells count as 0.
fn recompute(blocked: &BitGrid, tc: &mut [u8], region: CellRect) {
    if region.is_empty() {
        return;
    }
    let size = blocked.size();
    let (w, h) = (size.width as usize, size.height as usize);
    for y in (region.min.y as usize..region.max.y as usize).rev() {
        for x in (region.min.x as usize..region.max.x as usize).rev() {
            let i = y * w + x;
            tc[i] = if blocked.bit_unchecked(x as u32, y as u32) {
                0
            } else {
                let right = if x + 1 < w { tc[i + 1] } else { 0 };
                let below = if y + 1 < h { tc[i + w] } else { 0 };
                let diagonal = if x + 1 < w && y + 1 < h {
                    tc[i + w + 1]
                } else {
                    0
                };
                right
                    .min(below)
                    .min(diagonal)
                    .saturating_add(1)
                    .min(CLEARANCE_CAP)
            };
        }
    }
}

/// The true clearance of `cell` from a map computed by [`compute`] (0 off the map).
pub(crate) fn at(clearance: &[u8], size: GridSize, cell: Cell) -> u8 {
    if size.contains(cell) {
        clearance[size.index(cell)]
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Side of the largest free on-map square with minimum corner `cell`, capped.
    fn brute(blocked: &BitGrid, cell: Cell) -> u8 {
        let mut k = 0;
        while k < CLEARANCE_CAP as i32 {
            let next = k + 1;
            let square_free = (cell.y..cell.y + next)
                .all(|y| (cell.x..cell.x + next).all(|x| !blocked.get_or(Cell::new(x, y), true)));
            if !square_free {
                break;
            }
            k = next;
        }
        k as u8
    }

    fn pseudo_random_grid(size: GridSize, seed: u64, per_mille: u64) -> BitGrid {
        let mut g = BitGrid::new(size, false);
        let mut s = seed;
        for c in CellRect::of_size(size).cells() {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (s >> 33) % 1000 < per_mille {
                g.set(c, true);
            }
        }
        g
    }

    #[test]
    fn true_clearance_equals_the_brute_force_largest_free_square() {
        for (size, per_mille) in [((90, 41), 8), ((70, 70), 0), ((130, 20), 150)] {
            let g = pseudo_random_grid(GridSize::new(size.0, size.1), 7, per_mille);
            let c = compute(&g);
            for cell in CellRect::of_size(g.size()).cells() {
                assert_eq!(c[g.size().index(cell)], brute(&g, cell), "at {cell}");
            }
        }
    }

    #[test]
    fn the_cap_holds_on_a_big_open_map() {
        let g = BitGrid::new(GridSize::new(200, 150), false);
        let c = compute(&g);
        assert_eq!(c[0], CLEARANCE_CAP);
        assert_eq!(at(&c, g.size(), Cell::new(199, 149)), 1);
        assert_eq!(at(&c, g.size(), Cell::new(190, 0)), 10);
        assert_eq!(at(&c, g.size(), Cell::new(-1, 0)), 0);
    }

    #[test]
    fn regional_update_matches_full_recompute() {
        let mut g = pseudo_random_grid(GridSize::new(150, 100), 3, 4);
        let mut c = compute(&g);
        let edits = [
            Cell::new(60, 50),
            Cell::new(61, 50),
            Cell::new(5, 97),
            Cell::new(149, 0),
            Cell::new(100, 99),
        ];
        for e in edits {
            let was = g.get_or(e, true);
            g.set(e, !was);
            let region = update(&g, &mut c, CellRect::from_cell(e));
            assert!(region.contains(e));
            assert_eq!(c, compute(&g), "after flipping {e}");
        }
    }
}
