//! Connected components of free cells, for answering "unreachable" without a search.
//!
//! Octile moves without corner cutting connect exactly the cells that straight moves
//! connect (a diagonal step is allowed only when both straight detours are free), so
//! one 4-connected labelling serves both connectivities.

use super::bitgrid::BitGrid;
use crate::grid::{Cell, Direction, GridSize};

/// Component labels per cell: 0 on blocked cells, equal labels for mutually reachable cells.
#[derive(Clone, Debug, Default)]
pub struct Components {
    size: GridSize,
    labels: Vec<u32>,
    next_label: u32,
    stack: Vec<Cell>,
}

impl Components {
    /// Labels the free (zero) bits of `blocked`. O(width * height).
    pub fn new(blocked: &BitGrid) -> Self {
        let size = blocked.size();
        let mut c = Self {
            size,
            labels: vec![0; size.area()],
            next_label: 1,
            stack: Vec::new(),
        };
        c.relabel_all(blocked);
        c
    }

    fn relabel_all(&mut self, blocked: &BitGrid) {
        self.labels.fill(0);
        self.next_label = 1;
        for i in 0..self.size.area() {
            let cell = self.size.cell(i);
            if self.labels[i] == 0 && !blocked.bit_unchecked(cell.x as u32, cell.y as u32) {
                self.flood(blocked, cell, 1);
            }
        }
    }

    /// Label of a cell (0 when blocked or off the map).
    #[inline]
    pub fn label(&self, cell: Cell) -> u32 {
        if self.size.contains(cell) {
            self.labels[self.size.index(cell)]
        } else {
            0
        }
    }

    /// True when both cells are free and connected.
    #[inline]
    pub fn connected(&self, a: Cell, b: Cell) -> bool {
        let la = self.label(a);
        la != 0 && la == self.label(b)
    }

    /// Fills the component of `seed` with a fresh label, entering free cells whose
    /// label is below `fresh_from` (labels at or above it were given in this pass).
    fn flood(&mut self, blocked: &BitGrid, seed: Cell, fresh_from: u32) {
        let label = self.next_label;
        self.next_label += 1;
        self.labels[self.size.index(seed)] = label;
        self.stack.clear();
        self.stack.push(seed);
        while let Some(cell) = self.stack.pop() {
            for d in Direction::CARDINAL {
                let n = cell.step(d);
                if !self.size.contains(n) || blocked.bit_unchecked(n.x as u32, n.y as u32) {
                    continue;
                }
                let i = self.size.index(n);
                if self.labels[i] < fresh_from {
                    self.labels[i] = label;
                    self.stack.push(n);
                }
            }
        }
    }

    /// Brings the labels up to date after the cells in `changed` flipped in `blocked`.
    ///
    /// Every component (after the change) that holds a changed cell or a free
    /// 4-neighbour of one is flooded again with a fresh label, whether the change split
    /// it or joined several. The cost is the total size of those components, which on
    /// a mostly open map is the whole map even for one changed cell; other components
    /// keep their labels. When fresh labels could run out (each changed cell may use
    /// up to four), all cells are relabelled instead, O(width × height).
    ///
    /// Cells of `changed` off the map are ignored.
    ///
    /// # Panics
    ///
    /// When `blocked` has another size than the grid these labels were made for.
    pub fn update(&mut self, blocked: &BitGrid, changed: &[Cell]) {
        assert_eq!(
            blocked.size(),
            self.size,
            "Components::update: the bits are for another grid size"
        );
        let needed = 4 * changed.len() as u64 + 1;
        if u64::from(self.next_label) + needed > u64::from(u32::MAX) {
            self.relabel_all(blocked);
            return;
        }
        for &c in changed {
            if self.size.contains(c) && blocked.get_or(c, true) {
                let i = self.size.index(c);
                self.labels[i] = 0;
            }
        }
        let fresh_from = self.next_label;
        for &c in changed {
            for n in std::iter::once(c).chain(Direction::CARDINAL.iter().map(|&d| c.step(d))) {
                if blocked.get_or(n, true) {
                    continue;
                }
                if self.labels[self.size.index(n)] < fresh_from {
                    self.flood(blocked, n, fresh_from);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> BitGrid {
        let mut g = BitGrid::new(
            GridSize::new(rows[0].len() as u32, rows.len() as u32),
            false,
        );
        for (y, r) in rows.iter().enumerate() {
            for (x, ch) in r.chars().enumerate() {
                g.set(Cell::new(x as i32, y as i32), ch == '#');
            }
        }
        g
    }

    #[test]
    fn a_diagonal_gap_does_not_connect_components() {
        let g = grid(&[".#", "#."]);
        let c = Components::new(&g);
        assert!(!c.connected(Cell::new(0, 0), Cell::new(1, 1)));
        assert!(c.connected(Cell::new(0, 0), Cell::new(0, 0)));
        assert!(!c.connected(Cell::new(0, 1), Cell::new(0, 1)));
    }

    #[test]
    fn updates_split_and_merge_components_like_a_full_relabel() {
        let mut g = grid(&["....", "....", "...."]);
        let mut c = Components::new(&g);
        let wall: Vec<Cell> = (0..3).map(|y| Cell::new(2, y)).collect();
        for &w in &wall {
            g.set(w, true);
        }
        c.update(&g, &wall);
        assert!(!c.connected(Cell::new(0, 0), Cell::new(3, 0)));
        assert!(c.connected(Cell::new(0, 0), Cell::new(1, 2)));
        assert!(c.connected(Cell::new(3, 0), Cell::new(3, 2)));
        g.set(Cell::new(2, 1), false);
        c.update(&g, &[Cell::new(2, 1), Cell::new(-1, 1), Cell::new(9, 9)]);
        assert!(c.connected(Cell::new(0, 0), Cell::new(3, 2)));
        assert_eq!(c.label(Cell::new(2, 0)), 0);
    }
}
