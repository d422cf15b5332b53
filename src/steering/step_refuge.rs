//! Grid steppers that give way beyond a sidestep's reach: the search for a refuge off
//! another unit's way, or for the way back onto the path, anywhere within a bounded
//! number of cells (out of the far end of a long one-lane corridor, say).

use std::collections::{HashMap, VecDeque};

use super::passage::LOOKAHEAD;
use crate::grid::{Cell, Direction};
use crate::scenario::Layer;

/// Most cells one search visits.
const SEARCH_CELLS: usize = 512;

/// Most steps a way found may take: twice the cells the passage rules look ahead, so
/// that a unit can back out of any stretch they can see.
const MAX_STEPS: u32 = 2 * LOOKAHEAD as u32;

/// A breadth-first search over a layer's steps (king moves, no corner cutting on
/// squares; the six neighbours on hexagons) from a unit's cell. Buffers are reused;
/// O([`SEARCH_CELLS`]) per search, whatever the map's size.
#[derive(Default)]
pub(super) struct FarSearch {
    queue: VecDeque<(Cell, u32)>,
    parent: HashMap<Cell, Cell>,
    way: Vec<Cell>,
}

impl FarSearch {
    /// The fewest steps (at most [`MAX_STEPS`]) from `at` to a cell other than `at`
    /// that `goal` accepts (among cells equally near, the first the fixed order of the
    /// search reaches), through cells `open` accepts; returns what `goal` said of it and
    /// leaves the way (without `at`, ending on that cell) in [`FarSearch::cells`].
    pub(super) fn find<T>(
        &mut self,
        layer: &Layer,
        at: Cell,
        goal: impl Fn(Cell) -> Option<T>,
        open: impl Fn(Cell) -> bool,
    ) -> Option<T> {
        self.queue.clear();
        self.parent.clear();
        self.way.clear();
        self.queue.push_back((at, 0));
        self.parent.insert(at, at);
        while let Some((c, steps)) = self.queue.pop_front() {
            if c != at
                && let Some(t) = goal(c)
            {
                let mut k = c;
                while k != at {
                    self.way.push(k);
                    k = self.parent[&k];
                }
                self.way.reverse();
                return Some(t);
            }
            if self.parent.len() >= SEARCH_CELLS || steps >= MAX_STEPS {
                continue;
            }
            for d in Direction::ALL {
                let (dx, dy) = d.delta();
                let n = Cell::new(c.x + dx, c.y + dy);
                if self.parent.contains_key(&n) || !layer.can_step(c, n) || !open(n) {
                    continue;
                }
                self.parent.insert(n, c);
                self.queue.push_back((n, steps + 1));
            }
        }
        None
    }

    /// The way the last successful [`FarSearch::find`] found.
    pub(super) fn cells(&self) -> &[Cell] {
        &self.way
    }
}
