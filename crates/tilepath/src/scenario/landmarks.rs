//! Landmark tables: costs from a few far-apart cells, a lower bound for weighted searches.
//!
//! A layer with terrain weights has no jump table, and the octile distance times the
//! smallest weight is a weak heuristic there (a road of weight 1 through fields of
//! weight 2 makes it half the truth). A landmark table keeps, for [`LANDMARKS`] cells
//! `L` chosen far apart, a value `T_L(x)` per cell with `T_L(L) = 0`, and the searches
//! bound the cost from `x` to a goal `g` below by `max_L |T_L(g) - T_L(x)|`: the
//! differential heuristic of Sturtevant et al., the "ALT" bound of Goldberg and
//! Harrelson.
//!
//! # Why the bound holds under edits
//!
//! The bound needs one property of the table, not exact distances: for every move
//! `x → y` of the layer as it is now, `|T_L(x) - T_L(y)| <= c(x, y)` (the table is
//! *feasible*). Summing along a shortest path from `x` to `g` then gives
//! `|T_L(g) - T_L(x)| <= d(x, g)` (admissible), and the same inequality on each move
//! makes the heuristic consistent, so A* stays exact without reopening nodes.
//!
//! - Exact costs from `L` (what [`Landmarks::build`] computes) are feasible.
//! - A move that gets dearer or disappears (a cell blocked, a terrain weight raised)
//!   keeps a feasible table feasible: nothing is done.
//! - A move that gets cheaper or appears (a cell freed, a weight lowered, a diagonal
//!   no longer cut by a corner) may break the inequality on its two cells only.
//!   [`Landmarks::repair`] lowers values from those cells outward, Dijkstra-style,
//!   until every move satisfies `T(y) <= T(x) + c(x, y)` again, which, costs being
//!   symmetric, is feasibility. Values only go down, so the work is bounded by the cells
//!   whose cost from `L` the edit lowered.
//!
//! A value of `u32::MAX` means "no bound": a landmark that has it at either end of a
//! query is skipped. Blocked cells get it, and freed cells start from it. Other values
//! stay below 2³¹; a repair that would need a larger one (an edit joined a far region
//! to the landmark's) drops that landmark instead, making all its values "no bound",
//! which is feasible.
//!
//! Memory: `4 × LANDMARKS` bytes per cell (64), one cell's values in one aligned cache
//! line. Build: `LANDMARKS + 1` Dijkstra searches over the layer,
//! O(n log n) each.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::bitgrid::BitGrid;
use super::weights::Weights;
use crate::grid::{Cell, Cost, Direction};

/// Landmarks per table.
pub const LANDMARKS: usize = 16;

/// "No bound" (see the module docs).
const NONE: u32 = u32::MAX;

/// The largest value: known values are below 2³¹, so that [`Landmarks::bound`] can
/// compute in `i32`.
const FITS: u32 = i32::MAX as u32;

/// One cell's values, aligned so that they fill one cache line rather than straddle two.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Row([u32; LANDMARKS]);

/// The landmark table of one weighted layer (see the module docs).
#[derive(Clone, Debug)]
pub struct Landmarks {
    /// The landmark cells (fewer than [`LANDMARKS`] on a layer with few free cells).
    cells: Vec<Cell>,
    /// `rows[i].0[l]`: landmark `l`'s value of the cell with index `i`.
    rows: Vec<Row>,
    /// Scratch of builds and repairs.
    heap: BinaryHeap<Reverse<(Cost, u32)>>,
}

impl Landmarks {
    /// Builds the table of the layer whose blocked cells are `blocked` ([`Layer::bits`](super::Layer::bits)),
    /// under `weights`: the first landmark is the free cell
    /// farthest from the free cell nearest the centre, each next one the free cell
    /// farthest from the landmarks so far (ties to the lower index). `None` when the
    /// layer has no free cell, or a cost from a landmark is 2³¹ or more (weights near 255
    /// on a large map). O(LANDMARKS × n log n) time, 88 bytes per cell of memory
    /// while it runs.
    pub fn build(blocked: &BitGrid, weights: Weights<'_>) -> Option<Self> {
        let size = blocked.size();
        let n = size.area();
        let centre = Cell::new(size.width as i32 / 2, size.height as i32 / 2);
        let first = (0..n)
            .map(|i| size.cell(i))
            .filter(|&c| !blocked.get_or(c, true))
            .min_by_key(|c| (c.chebyshev(centre), c.y, c.x))?;
        let mut table = Self {
            cells: Vec::with_capacity(LANDMARKS),
            rows: vec![Row([NONE; LANDMARKS]); n],
            heap: BinaryHeap::new(),
        };
        let mut costs = vec![Cost::MAX; n];
        // Each cell's least cost from the landmarks so far, to place the next one.
        let mut nearest = vec![Cost::MAX; n];
        table.dijkstra(blocked, weights, first, &mut costs);
        let mut from = costs.clone();
        for l in 0..LANDMARKS {
            let far = (0..n)
                .filter(|&i| from[i] != Cost::MAX)
                .max_by_key(|&i| (from[i], Reverse(i)))?;
            if from[far] == 0 && l > 0 {
                break;
            }
            let cell = size.cell(far);
            table.dijkstra(blocked, weights, cell, &mut costs);
            for i in 0..n {
                if costs[i] == Cost::MAX {
                    continue;
                }
                table.rows[i].0[l] = u32::try_from(costs[i]).ok().filter(|&v| v <= FITS)?;
                nearest[i] = nearest[i].min(costs[i]);
            }
            table.cells.push(cell);
            from.copy_from_slice(&nearest);
        }
        Some(table)
    }

    /// The landmark cells.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Bytes this table holds.
    pub fn memory(&self) -> usize {
        self.rows.len() * size_of::<Row>() + self.cells.len() * size_of::<Cell>()
    }

    /// The values of the cell with row-major index `i`, one per landmark (`u32::MAX`:
    /// no bound; entries past [`Landmarks::cells`]'s length are unused).
    ///
    /// # Panics
    ///
    /// When `i` is not a cell index of the layer.
    #[inline]
    pub fn row(&self, i: usize) -> &[u32; LANDMARKS] {
        &self.rows[i].0
    }

    /// Hints the cache with the values of the 3 × 3 block around the cell with
    /// row-major index `i` on a layer `width` cells wide (see [`crate::prefetch`]).
    #[inline]
    pub(crate) fn prefetch_block(&self, i: usize, width: usize) {
        crate::prefetch::block(&self.rows, i, width);
    }

    /// The cost from the cell with row-major index `i` to its nearest landmark, as far
    /// as the table knows (`u32::MAX` when it knows none).
    pub fn nearest(&self, i: usize) -> u32 {
        self.rows[i].0.iter().copied().min().unwrap_or(NONE)
    }

    /// The lower bound on the cost between the cells with rows `a` and `b` (see the
    /// module docs). O(LANDMARKS).
    #[inline]
    pub(crate) fn bound(a: &[u32; LANDMARKS], b: &[u32; LANDMARKS]) -> Cost {
        // In `i32`, where "no bound" is negative and known values are not (see
        // `FITS`), and without branches, so that it compiles to vector instructions
        // on baseline x86-64, which has no unsigned 32-bit comparisons.
        let mut best = 0i32;
        for l in 0..LANDMARKS {
            let (x, y) = (a[l] as i32, b[l] as i32);
            let known = -i32::from((x >= 0) & (y >= 0));
            let d = x.wrapping_sub(y);
            let sign = d >> 31;
            let v = (d ^ sign).wrapping_sub(sign) & known;
            best = if v > best { v } else { best };
        }
        Cost::from(best as u32)
    }

    /// Keeps the table feasible after edits (see the module docs): `blocked` holds the
    /// layer's blocked cells as they are now, `closed` the cells blocked since, `opened`
    /// the cells where a move may have got cheaper
    /// or appeared (cells freed, and their neighbours; cells whose weight changed).
    /// O((k + a) log a) per landmark for k seeds and a lowered values; the heap it keeps
    /// is reused. Returns the values it visited (seeds and lowered values, per
    /// landmark): a measure of its cost that does not depend on the machine.
    pub(crate) fn repair(
        &mut self,
        blocked: &BitGrid,
        weights: Weights<'_>,
        closed: impl IntoIterator<Item = Cell>,
        opened: impl IntoIterator<Item = Cell> + Clone,
    ) -> u64 {
        let size = blocked.size();
        let mut work = 0;
        for cell in closed {
            if size.contains(cell) {
                let i = size.index(cell);
                self.rows[i] = Row([NONE; LANDMARKS]);
            }
        }
        for l in 0..self.cells.len() {
            self.heap.clear();
            let mut overflow = false;
            for cell in opened.clone() {
                if !size.contains(cell) || blocked.get_or(cell, true) {
                    continue;
                }
                let i = size.index(cell);
                work += 1;
                let mut best = Cost::from(self.rows[i].0[l]);
                let mut reached = false;
                for_moves(blocked, weights, cell, |j, step| {
                    let v = self.rows[j].0[l];
                    if v != NONE {
                        reached = true;
                        best = best.min(Cost::from(v) + step);
                    }
                });
                if best <= Cost::from(FITS) {
                    self.rows[i].0[l] = best as u32;
                    self.heap.push(Reverse((best, i as u32)));
                } else if reached {
                    // A neighbour has a value and this cell none that fits.
                    overflow = true;
                }
            }
            while let Some(Reverse((d, i))) = self.heap.pop() {
                let i = i as usize;
                if d != Cost::from(self.rows[i].0[l]) {
                    continue;
                }
                work += 1;
                let rows = &mut self.rows;
                let heap = &mut self.heap;
                for_moves(blocked, weights, size.cell(i), |j, step| {
                    let nd = d + step;
                    let v = &mut rows[j].0[l];
                    if nd < Cost::from(*v) {
                        if nd <= Cost::from(FITS) {
                            *v = nd as u32;
                            heap.push(Reverse((nd, j as u32)));
                        } else {
                            overflow = true;
                        }
                    }
                });
            }
            if overflow {
                for row in &mut self.rows {
                    row.0[l] = NONE;
                }
            }
        }
        work
    }

    /// Exact costs from `from` to every free cell of `blocked` into `costs` (`Cost::MAX` where
    /// it cannot reach).
    fn dijkstra(
        &mut self,
        blocked: &BitGrid,
        weights: Weights<'_>,
        from: Cell,
        costs: &mut [Cost],
    ) {
        let size = blocked.size();
        costs.fill(Cost::MAX);
        self.heap.clear();
        let start = size.index(from);
        costs[start] = 0;
        self.heap.push(Reverse((0, start as u32)));
        while let Some(Reverse((d, i))) = self.heap.pop() {
            let i = i as usize;
            if d != costs[i] {
                continue;
            }
            let heap = &mut self.heap;
            for_moves(blocked, weights, size.cell(i), |j, step| {
                let nd = d + step;
                if nd < costs[j] {
                    costs[j] = nd;
                    heap.push(Reverse((nd, j as u32)));
                }
            });
        }
    }
}

/// Calls `f(index, cost)` for each octile move out of the free `cell` of `blocked`.
#[inline]
fn for_moves(blocked: &BitGrid, weights: Weights<'_>, cell: Cell, mut f: impl FnMut(usize, Cost)) {
    let size = blocked.size();
    let i = size.index(cell);
    let mut moves = blocked.legal_moves(cell, true);
    while moves != 0 {
        let k = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let d: Direction = Direction::ALL[k];
        let (dx, dy) = d.delta();
        let j = size.index(Cell::new(cell.x + dx, cell.y + dy));
        f(j, weights.step(i, j, d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::GridSize;

    /// A free 8 × 3 corridor whose middle column is blocked, of weight 1.
    fn split() -> (BitGrid, [u8; 256]) {
        let mut blocked = BitGrid::new(GridSize::new(8, 3), false);
        for y in 0..3 {
            blocked.set(Cell::new(4, y), true);
        }
        (blocked, [1; 256])
    }

    #[test]
    fn the_bound_is_the_largest_known_difference() {
        let mut a = [NONE; LANDMARKS];
        let mut b = [NONE; LANDMARKS];
        a[0] = 10;
        b[0] = 25;
        a[1] = FITS;
        b[1] = 3;
        a[2] = 7;
        assert_eq!(Landmarks::bound(&a, &b), Cost::from(FITS - 3));
        a[1] = NONE;
        assert_eq!(Landmarks::bound(&a, &b), 15);
        assert_eq!(Landmarks::bound(&b, &a), 15);
        assert_eq!(Landmarks::bound(&[NONE; LANDMARKS], &b), 0);
    }

    #[test]
    fn a_repair_that_would_overflow_drops_the_landmark() {
        let (mut blocked, table) = split();
        let size = blocked.size();
        let weights = Weights::new(size, &[], &table, 1, Some(1));
        let mut landmarks = Landmarks::build(&blocked, weights).expect("a free cell");
        // The left half's values of landmark 0 pretend to be near the largest.
        let l = (0..landmarks.cells.len())
            .find(|&l| landmarks.cells[l].x < 4)
            .expect("a landmark on the left");
        for i in 0..size.area() {
            let v = &mut landmarks.rows[i].0[l];
            if *v != NONE {
                *v = FITS - 1;
            }
        }
        // Opening the wall joins the right half, whose values for `l` would not fit.
        let door = Cell::new(4, 1);
        blocked.set(door, false);
        let opened: Vec<Cell> = (3..=5)
            .flat_map(|x| (0..3).map(move |y| Cell::new(x, y)))
            .collect();
        landmarks.repair(&blocked, weights, [], opened);
        assert!(landmarks.rows.iter().all(|r| r.0[l] == NONE));
        let other = (0..landmarks.cells.len()).find(|&k| k != l).expect("two");
        assert!(landmarks.row(size.index(door))[other] != NONE);
    }
}
