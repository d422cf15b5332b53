//! Sidesteps and refuges: the fewest steps from a grid stepper's cell to a cell it looks
//! for (back onto its path around other units, or off another unit's way), within a
//! bounded reach.

use super::passage::LOOKAHEAD;
use crate::grid::{Cell, Direction};
use crate::scenario::Layer;

/// How far a search may look: a square window around the unit's cell, and at most so
/// many steps and cells seen within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    /// How far (Chebyshev, in cells) a way may lead from the unit's cell.
    window: i32,
    /// Most steps a way may take.
    steps: u32,
    /// Once this many cells are seen, no more are expanded.
    cells: usize,
}

impl Reach {
    /// A sidestep: anywhere within 6 cells (Chebyshev) of the unit.
    pub(crate) const NEAR: Self = Self {
        window: 6,
        steps: u32::MAX,
        cells: usize::MAX,
    };

    /// Beyond a sidestep's reach (out of the far end of a long one-lane corridor, say):
    /// up to twice the cells the passage rules look ahead, so that a unit can back out of
    /// any stretch they can see, seeing at most 512 cells.
    pub(crate) const FAR: Self = Self {
        window: 2 * LOOKAHEAD as i32,
        steps: 2 * LOOKAHEAD as u32,
        cells: 512,
    };

    /// The side of its window, in cells.
    fn side(self) -> i32 {
        2 * self.window + 1
    }
}

/// A breadth-first search over a layer's steps (king moves, no corner cutting on
/// squares; the six neighbours on hexagons) from a unit's cell, within a [`Reach`].
/// Buffers are reused; O(window) per search, whatever the map's size.
#[derive(Default)]
pub(crate) struct Sidestep {
    /// Per window cell: the window index it was reached from, `u16::MAX` when unseen.
    from: Vec<u16>,
    /// Window cells to expand, with the steps to them.
    queue: Vec<(u16, u32)>,
    way: Vec<Cell>,
}

impl Sidestep {
    /// The fewest steps within `reach` from `at` to a cell other than `at` that `goal`
    /// accepts (among cells equally near, the first the fixed order of the search
    /// reaches), through cells `open` accepts; returns what `goal` said of that cell and
    /// leaves the way (without `at`, ending on that cell) in [`Sidestep::cells`].
    pub(crate) fn find<T>(
        &mut self,
        layer: &Layer,
        at: Cell,
        reach: Reach,
        goal: impl Fn(Cell) -> Option<T>,
        open: impl Fn(Cell) -> bool,
    ) -> Option<T> {
        let (r, side) = (reach.window, reach.side());
        self.from.clear();
        self.from.resize((side * side) as usize, u16::MAX);
        self.queue.clear();
        self.way.clear();
        let cell_of = |i: u16| {
            let i = i32::from(i);
            Cell::new(at.x - r + i % side, at.y - r + i / side)
        };
        let index_of = |c: Cell| {
            let (dx, dy) = (c.x - at.x + r, c.y - at.y + r);
            ((0..side).contains(&dx) && (0..side).contains(&dy)).then(|| (dy * side + dx) as u16)
        };
        let start = index_of(at)?;
        self.from[start as usize] = start;
        self.queue.push((start, 0));
        let mut head = 0;
        while head < self.queue.len() {
            let (i, steps) = self.queue[head];
            head += 1;
            let c = cell_of(i);
            if i != start
                && let Some(t) = goal(c)
            {
                let mut k = i;
                while k != start {
                    self.way.push(cell_of(k));
                    k = self.from[k as usize];
                }
                self.way.reverse();
                return Some(t);
            }
            if self.queue.len() >= reach.cells || steps >= reach.steps {
                continue;
            }
            for d in Direction::ALL {
                let (dx, dy) = d.delta();
                let n = Cell::new(c.x + dx, c.y + dy);
                let Some(j) = index_of(n) else {
                    continue;
                };
                if self.from[j as usize] != u16::MAX || !layer.can_step(c, n) || !open(n) {
                    continue;
                }
                self.from[j as usize] = i;
                self.queue.push((j, steps + 1));
            }
        }
        None
    }

    /// The way the last successful [`Sidestep::find`] found.
    pub(crate) fn cells(&self) -> &[Cell] {
        &self.way
    }
}
