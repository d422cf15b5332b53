//! What the edits not yet reviewed everywhere changed: walls, terrain, with their generations.

use std::collections::HashMap;

use crate::components::{NavGrid, NavGridChanged};
use crate::grid::Cell;
use crate::scenario::{CellRect, Scenario};

/// The cell edits that some answered request may not have been reviewed against yet,
/// each stamped with the generation of its change: a request last reviewed at (or
/// planned on) generation `since` has seen every mark of that generation or older.
#[derive(Default)]
pub(super) struct Marks {
    /// Per map cell (row-major): the newest generation of a new wall within `reach`
    /// cells (Chebyshev), 0 when none. A step onto a cell farther from every new wall
    /// cannot have been cut, for an agent up to `2 * (reach - 1) + 1` cells wide.
    near: Vec<u64>,
    reach: u32,
    /// The generation at which `reach` last grew: older marks cover only the old reach.
    reach_grew: u64,
    /// Cells whose terrain changed, with the newest generation of their change.
    terrain: HashMap<Cell, u64>,
    /// The newest generation of a change that added obstacles.
    pub(super) walled: u64,
    /// The newest generation of a change of obstacles or terrain.
    pub(super) edited: u64,
}

impl Marks {
    /// Forgets every mark (a new map, or every answer planned again).
    pub(super) fn reset(&mut self) {
        self.near.clear();
        self.terrain.clear();
        self.walled = 0;
        self.edited = 0;
    }

    /// Records the cell edits of `log` on `grid`, marking the cells near new walls for
    /// agents up to `widest` cells wide.
    pub(super) fn record(&mut self, log: &[NavGridChanged], grid: &NavGrid, widest: u32) {
        let size = grid.size();
        if self.near.len() != size.area() {
            self.near = vec![0; size.area()];
        }
        let reach = widest.max(1) / 2 + 1;
        if reach > self.reach {
            if self.walled > 0 {
                // Older marks cover only the old reach.
                self.reach_grew = grid.generation();
            }
            self.reach = reach;
        }
        let r = i64::from(self.reach);
        for change in log {
            if change.cells.is_empty() && change.terrain.is_empty() {
                continue;
            }
            let generation = change.generation;
            self.edited = self.edited.max(generation);
            for &c in &change.terrain {
                self.terrain.insert(c, generation);
            }
            for &c in &change.cells {
                if !grid.scenario().is_obstacle(c) {
                    continue;
                }
                self.walled = self.walled.max(generation);
                for n in CellRect::from_cell(c).grow_clip(r, r, size).cells() {
                    let i = size.index(n);
                    self.near[i] = self.near[i].max(generation);
                }
            }
        }
    }

    /// Forgets the terrain marks of generation `floor` or older (every request has seen
    /// them). The wall marks need no forgetting: they are compared with generations.
    pub(super) fn forget(&mut self, floor: u64) {
        self.terrain.retain(|_, &mut g| g > floor);
    }

    /// True when a step of `cells` (for an agent of `diameter`) may have been cut by a
    /// wall newer than `since`: a cell of it lies near one.
    pub(super) fn near_cut(
        &self,
        grid: &NavGrid,
        cells: &[Cell],
        diameter: u32,
        since: u64,
    ) -> bool {
        if self.walled <= since {
            return false;
        }
        if diameter / 2 + 1 > self.reach || since < self.reach_grew {
            return true; // wider than the marks cover
        }
        let size = grid.size();
        self.near.len() == size.area()
            && cells
                .iter()
                .any(|&c| size.contains(c) && self.near[size.index(c)] > since)
    }

    /// True when terrain changed after `since` within Chebyshev distance `r` of a cell of
    /// `path`, or of one of the two cells a diagonal step of `path` passes between.
    pub(super) fn terrain_near(&self, path: &[Cell], r: i32, since: u64) -> bool {
        if self.terrain.is_empty() || self.edited <= since {
            return false;
        }
        touches(path, r, |c| {
            self.terrain.get(&c).is_some_and(|&g| g > since)
        })
    }
}

/// True when `flipped` holds a cell within Chebyshev distance `r` of a cell of `path`, or
/// of one of the two cells a diagonal step of `path` passes between.
fn touches(path: &[Cell], r: i32, flipped: impl Fn(Cell) -> bool) -> bool {
    let near = |c: Cell| {
        (c.y - r..=c.y + r).any(|y| (c.x - r..=c.x + r).any(|x| flipped(Cell::new(x, y))))
    };
    path.iter().any(|&c| near(c))
        || path.windows(2).any(|w| {
            w[0].x != w[1].x
                && w[0].y != w[1].y
                && (near(Cell::new(w[1].x, w[0].y)) || near(Cell::new(w[0].x, w[1].y)))
        })
}
