//! Chebyshev clearance map: each cell's distance to the nearest obstacle, capped.

use super::bitgrid::BitGrid;
use crate::grid::{Cell, GridSize};

/// Clearances are capped here; agents up to diameter `2 * CLEARANCE_CAP - 1` are supported.
pub const CLEARANCE_CAP: u8 = 32;

/// A rectangle of cells, inclusive minimum, exclusive maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CellRect {
    /// Smallest cell inside.
    pub min: Cell,
    /// One past the largest cell inside, on both axes.
    pub max: Cell,
}

impl CellRect {
    /// The rectangle holding just `cell`.
    pub fn from_cell(cell: Cell) -> Self {
        Self {
            min: cell,
            max: Cell::new(cell.x + 1, cell.y + 1),
        }
    }

    /// The whole grid.
    pub fn of_size(size: GridSize) -> Self {
        Self {
            min: Cell::new(0, 0),
            max: Cell::new(size.width as i32, size.height as i32),
        }
    }

    /// Grows the rectangle to hold `cell`.
    pub fn include(&mut self, cell: Cell) {
        self.min.x = self.min.x.min(cell.x);
        self.min.y = self.min.y.min(cell.y);
        self.max.x = self.max.x.max(cell.x + 1);
        self.max.y = self.max.y.max(cell.y + 1);
    }

    /// The rectangle grown by `by` cells on every side, clipped to `size`.
    pub fn expand_clip(self, by: i32, size: GridSize) -> Self {
        Self {
            min: Cell::new((self.min.x - by).max(0), (self.min.y - by).max(0)),
            max: Cell::new(
                (self.max.x + by).min(size.width as i32),
                (self.max.y + by).min(size.height as i32),
            ),
        }
    }

    /// True when `cell` is inside.
    #[inline]
    pub fn contains(self, cell: Cell) -> bool {
        cell.x >= self.min.x && cell.y >= self.min.y && cell.x < self.max.x && cell.y < self.max.y
    }

    /// True when no cell is inside.
    pub fn is_empty(self) -> bool {
        self.max.x <= self.min.x || self.max.y <= self.min.y
    }

    /// The cells inside, row by row.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (self.min.y..self.max.y)
            .flat_map(move |y| (self.min.x..self.max.x).map(move |x| Cell::new(x, y)))
    }
}

/// Computes the clearance of every cell of `blocked` into a new vector (row-major).
///
/// Clearance is the Chebyshev distance to the nearest blocked or off-map cell,
/// capped at [`CLEARANCE_CAP`]: 0 on an obstacle, 1 next to one or on the map edge.
/// Two raster passes, O(width * height).
pub fn compute(blocked: &BitGrid) -> Vec<u8> {
    let size = blocked.size();
    let mut out = vec![0; size.area()];
    update(blocked, &mut out, CellRect::of_size(size));
    out
}

/// Recomputes the clearance of the cells in `region` after obstacles inside it changed.
///
/// Only obstacles within [`CLEARANCE_CAP`] of `region` can affect it, so the passes run
/// on `region` grown by the cap; cells outside `region` are left untouched.
/// O(area of the grown region).
pub fn update(blocked: &BitGrid, clearance: &mut [u8], region: CellRect) {
    let size = blocked.size();
    let cap = i32::from(CLEARANCE_CAP);
    let window = region.expand_clip(cap, size);
    if window.is_empty() || region.is_empty() {
        return;
    }
    let ww = (window.max.x - window.min.x) as usize;
    let wh = (window.max.y - window.min.y) as usize;
    let mut tmp = vec![CLEARANCE_CAP; ww * wh];
    // Value of a neighbour: off the map counts as an obstacle, inside the map but
    // outside the window counts as far away (it cannot matter for `region`).
    let read = |tmp: &[u8], x: i32, y: i32| -> u8 {
        if x < 0 || y < 0 || x >= size.width as i32 || y >= size.height as i32 {
            0
        } else if window.contains(Cell::new(x, y)) {
            tmp[(y - window.min.y) as usize * ww + (x - window.min.x) as usize]
        } else {
            CLEARANCE_CAP
        }
    };
    for y in window.min.y..window.max.y {
        for x in window.min.x..window.max.x {
            let i = (y - window.min.y) as usize * ww + (x - window.min.x) as usize;
            tmp[i] = if blocked.get_unchecked_cell(x as u32, y as u32) {
                0
            } else {
                let m = read(&tmp, x - 1, y)
                    .min(read(&tmp, x - 1, y - 1))
                    .min(read(&tmp, x, y - 1))
                    .min(read(&tmp, x + 1, y - 1));
                (m + 1).min(CLEARANCE_CAP)
            };
        }
    }
    for y in (window.min.y..window.max.y).rev() {
        for x in (window.min.x..window.max.x).rev() {
            let i = (y - window.min.y) as usize * ww + (x - window.min.x) as usize;
            if tmp[i] == 0 {
                continue;
            }
            let m = read(&tmp, x + 1, y)
                .min(read(&tmp, x + 1, y + 1))
                .min(read(&tmp, x, y + 1))
                .min(read(&tmp, x - 1, y + 1));
            tmp[i] = tmp[i].min((m + 1).min(CLEARANCE_CAP));
        }
    }
    for cell in region.cells() {
        let i = (cell.y - window.min.y) as usize * ww + (cell.x - window.min.x) as usize;
        clearance[size.index(cell)] = tmp[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(blocked: &BitGrid, cell: Cell) -> u8 {
        let size = blocked.size();
        let mut best = CLEARANCE_CAP as i32;
        for y in -1..=size.height as i32 {
            for x in -1..=size.width as i32 {
                let b = Cell::new(x, y);
                if blocked.get_or(b, true) {
                    best = best.min(cell.chebyshev(b) as i32);
                }
            }
        }
        best as u8
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
    fn clearance_equals_brute_force_chebyshev_distance() {
        let g = pseudo_random_grid(GridSize::new(90, 41), 7, 8);
        let c = compute(&g);
        for cell in CellRect::of_size(g.size()).cells() {
            assert_eq!(c[g.size().index(cell)], brute(&g, cell), "at {cell}");
        }
    }

    #[test]
    fn regional_update_matches_full_recompute() {
        let mut g = pseudo_random_grid(GridSize::new(120, 100), 3, 4);
        let mut c = compute(&g);
        let edits = [Cell::new(60, 50), Cell::new(61, 50), Cell::new(5, 97)];
        for e in edits {
            let was = g.get_or(e, true);
            g.set(e, !was);
            update(
                &g,
                &mut c,
                CellRect::from_cell(e).expand_clip(CLEARANCE_CAP as i32, g.size()),
            );
        }
        assert_eq!(c, compute(&g));
    }
}
