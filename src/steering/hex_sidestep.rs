//! Short ways on hexagonal maps: a breadth-first search of a few steps, for grid steppers.

use crate::components::HexGrid;
use crate::grid::Cell;
use tilepath::hex::HexDirection;

/// A breadth-first search over tiles a few steps around where it starts: the short ways
/// of grid-stepping units around and out of the way of others. Its buffers are reused
/// (a search of `reach` steps sees at most `3 reach (reach + 1) + 1` tiles).
#[derive(Default)]
pub(super) struct HexSidestep {
    /// Tiles seen, each with the index of the tile it was reached from.
    seen: Vec<(Cell, u16)>,
    /// The way found, from the first step to the goal.
    pub(super) way: Vec<Cell>,
}

impl HexSidestep {
    /// Searches from `from`, at most `reach` steps, through tiles that `open` accepts
    /// for the nearest tile that `goal` accepts (other than `from`); returns what `goal`
    /// said there and leaves the way to it in `way`.
    pub(super) fn find<T>(
        &mut self,
        grid: &HexGrid,
        from: Cell,
        reach: u32,
        goal: impl Fn(Cell) -> Option<T>,
        open: impl Fn(Cell) -> bool,
    ) -> Option<T> {
        self.seen.clear();
        self.way.clear();
        self.seen.push((from, u16::MAX));
        let (mut head, mut depth_end, mut depth) = (0, 1, 0);
        while head < self.seen.len() && depth < reach {
            let (tile, _) = self.seen[head];
            let centre = grid.hex(tile);
            for d in HexDirection::ALL {
                let Some(n) = grid.cell(centre.neighbour(d)) else {
                    continue;
                };
                if self.seen.iter().any(|&(c, _)| c == n) || !open(n) {
                    continue;
                }
                self.seen.push((n, head as u16));
                if let Some(found) = goal(n) {
                    self.trace(self.seen.len() - 1);
                    return Some(found);
                }
            }
            head += 1;
            if head == depth_end {
                depth += 1;
                depth_end = self.seen.len();
            }
        }
        None
    }

    /// Fills `way` with the tiles from the first step to seen tile `i`.
    fn trace(&mut self, mut i: usize) {
        while self.seen[i].1 != u16::MAX {
            self.way.push(self.seen[i].0);
            i = usize::from(self.seen[i].1);
        }
        self.way.reverse();
    }
}
