//! True clearance: per cell, the side of the largest free square whose minimum corner it is.

use super::bitgrid::BitGrid;
use super::rect::CellRect;
use crate::grid::{Cell, GridSize};

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
