//! Sidesteps: the fewest steps around other units back onto a path, in a small window.

use crate::grid::{Cell, Direction};
use crate::scenario::Layer;

/// How far (Chebyshev, in cells) a sidestep may lead from the unit's cell.
pub(crate) const REACH: i32 = 6;
const SIDE: i32 = 2 * REACH + 1;

/// A breadth-first search over the `(2 × REACH + 1)²` cells around a unit (king moves,
/// no corner cutting), through cells free on the unit's layer that no other unit holds.
/// Buffers are reused; O(window) per search.
#[derive(Default)]
pub(crate) struct Sidestep {
    /// Per window cell: the window index it was reached from, `u16::MAX` when unseen.
    from: Vec<u16>,
    queue: Vec<u16>,
    way: Vec<Cell>,
}

impl Sidestep {
    /// The fewest king steps from `at` to a cell other than `at` that `goal` accepts
    /// (among cells equally near, the first the fixed order of the search reaches),
    /// through cells `open` accepts; returns what `goal` said of that cell and leaves the
    /// way (without `at`, ending on that cell) in [`Sidestep::cells`].
    pub(crate) fn find<T>(
        &mut self,
        layer: &Layer,
        at: Cell,
        goal: impl Fn(Cell) -> Option<T>,
        open: impl Fn(Cell) -> bool,
    ) -> Option<T> {
        let size = (SIDE * SIDE) as usize;
        self.from.clear();
        self.from.resize(size, u16::MAX);
        self.queue.clear();
        self.way.clear();
        let cell_of = |i: u16| {
            let i = i32::from(i);
            Cell::new(at.x - REACH + i % SIDE, at.y - REACH + i / SIDE)
        };
        let index_of = |c: Cell| {
            let (dx, dy) = (c.x - at.x + REACH, c.y - at.y + REACH);
            (0..SIDE)
                .contains(&dx)
                .then_some(())
                .filter(|_| (0..SIDE).contains(&dy))
                .map(|_| (dy * SIDE + dx) as u16)
        };
        let start = index_of(at)?;
        self.from[start as usize] = start;
        self.queue.push(start);
        let mut head = 0;
        while head < self.queue.len() {
            let i = self.queue[head];
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
                self.queue.push(j);
            }
        }
        None
    }

    /// The way the last successful [`Sidestep::find`] found.
    pub(crate) fn cells(&self) -> &[Cell] {
        &self.way
    }
}
