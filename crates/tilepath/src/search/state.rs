//! Per-query search state shared by every algorithm: stamped costs and parents, heap, limits, path.

use std::time::Instant;

use super::costs::StepCosts;
use super::heap::IndexedHeap;
use super::query::{Limit, Limits, PathError};
use crate::grid::{Cell, Cost, DIAGONAL, Direction, GridSize};

/// Bits of a record below the closed flag.
const FLAG_BITS: u32 = 4;

/// Widest cost field: costs up to 2^56 (a path of 2^31 diagonal steps on weight-255
/// terrain), leaving at least 4 stamp bits.
const MAX_G_BITS: u32 = 56;

/// The search state every algorithm works on, kept between queries.
///
/// Each cell has one 64-bit record packing, from the low bits up: a generation stamp,
/// a closed flag, the direction toward the cell's parent (3 bits), and its cost `g`.
/// A record whose stamp differs from the current generation is untouched, so a new
/// query resets every cell in O(1) by bumping the generation; when the stamp field is
/// exhausted the records are zeroed once, O(area): after 2^18 queries at 4096 × 4096
/// without terrain weights, 2^10 with weights up to 255 (a query, and each round of
/// IDDFS, uses one generation), more on smaller maps, 2^4 on the largest (2^32 cells)
/// with weights up to 255.
/// The field widths follow the largest map and weight seen: `g` gets enough bits for
/// twice the cost of a path through every cell and across the map twice at the largest
/// weight (at most 56 bits), the stamp gets the rest. The widths only
/// change (with one O(area) reset) when a map needs a wider `g` than any before, so a
/// pathfinder moved between maps resets in O(1) as usual.
///
/// Parents are directions, not ids: the parent of a cell is the first cell toward
/// that direction that was seen this query with `g(parent) + k · step <= g(cell)`,
/// `k` steps away. Searches that link neighbours find it one step away; jump point
/// search links cells a straight or diagonal line apart and the walk back follows the
/// line. Any cell the walk stops at lies on a free line to the child and has a path
/// no dearer, so the rebuilt path costs at most `g(goal)`.
///
/// Only the start has cost 0 (every step costs more than nothing), which ends the walk.
///
/// Memory: 8 bytes per cell, plus the heap (4 bytes per cell for its positions, sized
/// only when a heap-based search first runs, plus 16 bytes per entry of the largest
/// open list) and the path (8 bytes per cell of the longest path).
#[derive(Debug, Default)]
pub(crate) struct SearchState {
    size: GridSize,
    records: Vec<u64>,
    /// Current stamp, in `1..=stamp_mask` once a query began.
    generation: u64,
    stamp_bits: u32,
    stamp_mask: u64,
    /// The open list of the heap-based searches; its positions are sized by [`SearchState::heap`].
    heap: IndexedHeap,
    /// The cells of the last path found.
    pub path: Vec<Cell>,
    expanded: u32,
    max_expanded: u32,
    /// The expansion count at which a sliced search yields ([`SearchState::slice_spent`]).
    slice_end: u32,
    deadline: Option<Instant>,
}

impl SearchState {
    /// Prepares for a new query on a map of `size`: every cell untouched, empty heap and
    /// path, limits armed. O(1), except O(area) when the map is larger than any before
    /// (allocation, and maybe a wider cost field) or when the stamps wrap. `max_weight`
    /// is the largest terrain weight a step may carry (1 without terrain).
    pub(crate) fn begin(&mut self, size: GridSize, limits: &Limits, max_weight: u8) {
        let n = size.area();
        if self.records.len() < n {
            self.records.resize(n, 0);
        }
        // Enough bits for twice the cost of a path through every cell plus two crossings
        // at the largest weight, never fewer than for an earlier map: switching maps does
        // not change the layout.
        let bound = (n as u64 + 2 * u64::from(size.width + size.height))
            .saturating_mul(2 * DIAGONAL * u64::from(max_weight.max(1)));
        let needed = (u64::BITS - bound.leading_zeros()).min(MAX_G_BITS);
        let stamp_bits = (64 - FLAG_BITS - needed).min(self.stamp_bits_or_max());
        if stamp_bits != self.stamp_bits {
            self.records.fill(0);
            self.stamp_bits = stamp_bits;
            self.stamp_mask = (1 << stamp_bits) - 1;
            self.generation = 0;
        }
        self.size = size;
        self.restart_round();
        self.heap.clear();
        self.path.clear();
        self.expanded = 0;
        self.max_expanded = limits.max_expanded;
        self.slice_end = u32::MAX;
        self.deadline = limits.time_budget.map(|b| Instant::now() + b);
    }

    /// The current stamp width, or the widest possible before the first query.
    fn stamp_bits_or_max(&self) -> u32 {
        if self.stamp_bits == 0 {
            64 - FLAG_BITS
        } else {
            self.stamp_bits
        }
    }

    /// Starts a fresh round inside one query (iterative deepening): every cell
    /// untouched again; counters, limits and the path are kept. O(1) but for wraps.
    pub(crate) fn restart_round(&mut self) {
        if self.generation >= self.stamp_mask {
            self.records.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// The map size of the current query.
    #[inline]
    pub(crate) fn size(&self) -> GridSize {
        self.size
    }

    /// Node id of an on-map cell.
    #[inline]
    pub(crate) fn index(&self, cell: Cell) -> u32 {
        self.size.index(cell) as u32
    }

    /// Cell of a node id.
    #[inline]
    pub(crate) fn cell(&self, index: u32) -> Cell {
        // 32-bit division: node ids are u32, and it is several times cheaper than 64-bit.
        let w = self.size.width;
        Cell::new((index % w) as i32, (index / w) as i32)
    }

    /// Id offsets of one step in each of [`Direction::ALL`], to be added with wrapping.
    pub(crate) fn step_offsets(&self) -> [u32; 8] {
        let w = self.size.width as i32;
        Direction::ALL.map(|d| {
            let (dx, dy) = d.delta();
            (dy * w + dx) as u32
        })
    }

    #[inline]
    fn closed_bit(&self) -> u64 {
        1 << self.stamp_bits
    }

    #[inline]
    fn g_shift(&self) -> u32 {
        self.stamp_bits + FLAG_BITS
    }

    /// Hints the cache with the records of the 3 × 3 block around node `i` (see
    /// [`crate::prefetch`]).
    #[inline]
    pub(crate) fn prefetch_block(&self, i: u32) {
        crate::prefetch::block(&self.records, i as usize, self.size.width as usize);
    }

    /// True when the node was seen (opened or closed) in this query.
    #[inline]
    pub(crate) fn is_seen(&self, i: u32) -> bool {
        self.records[i as usize] & self.stamp_mask == self.generation
    }

    /// True when the node was closed in this query.
    #[inline]
    pub(crate) fn is_closed(&self, i: u32) -> bool {
        let closed = self.closed_bit();
        self.records[i as usize] & (self.stamp_mask | closed) == self.generation | closed
    }

    /// Marks the node seen, not closed, with cost `g` and its parent toward `to_parent`
    /// (ignored for the start, whose cost is 0). Also lowers the cost of a seen node.
    #[inline]
    pub(crate) fn open(&mut self, i: u32, g: Cost, to_parent: Direction) {
        debug_assert!(
            g >> (64 - self.g_shift()) == 0,
            "cost {g} overflows its field"
        );
        let dir = (to_parent as u64) << (self.stamp_bits + 1);
        self.records[i as usize] = (g << self.g_shift()) | dir | self.generation;
    }

    /// Marks the node seen with cost 0 and no parent, for searches that only trace
    /// (they do not rebuild paths from parents).
    #[inline]
    pub(crate) fn touch(&mut self, i: u32) {
        self.records[i as usize] = self.generation;
    }

    /// Makes a node unseen again, as if the query had never reached it (a search carried
    /// over map edits forgets what it knew through a cell blocked since).
    #[inline]
    pub(crate) fn forget(&mut self, i: u32) {
        // Stamps start at 1, so 0 is never the current one.
        self.records[i as usize] = 0;
    }

    /// Marks a seen node closed.
    #[inline]
    pub(crate) fn close(&mut self, i: u32) {
        debug_assert!(self.is_seen(i));
        self.records[i as usize] |= self.closed_bit();
    }

    /// Cost of the best known way to a seen node.
    #[inline]
    pub(crate) fn g(&self, i: u32) -> Cost {
        self.records[i as usize] >> self.g_shift()
    }

    /// Direction from a seen node toward its parent (meaningless for the start).
    #[inline]
    pub(crate) fn to_parent(&self, i: u32) -> Direction {
        Direction::ALL[((self.records[i as usize] >> (self.stamp_bits + 1)) & 7) as usize]
    }

    /// The open list, with positions for every node id of the map (allocated on the
    /// first call for a map this large, 4 bytes per cell).
    #[inline]
    pub(crate) fn heap(&mut self) -> &mut IndexedHeap {
        &mut self.heap
    }

    /// Sizes the heap's positions for the current map; call once per query before
    /// using [`SearchState::heap`]. Allocates only when the map grew.
    pub(crate) fn reserve_heap(&mut self) {
        self.heap.reserve_nodes(self.size.area());
    }

    /// Nodes expanded so far in this query.
    #[inline]
    pub(crate) fn expanded(&self) -> u32 {
        self.expanded
    }

    /// The error for a search that ran out of nodes without reaching the goal.
    pub(crate) fn not_found(&self) -> PathError {
        PathError::NotFound {
            expanded: self.expanded,
        }
    }

    /// Lets a resumable search expand `budget` more nodes before it yields.
    pub(crate) fn set_slice(&mut self, budget: u32) {
        self.slice_end = self.expanded.saturating_add(budget);
    }

    /// Expansions left in the current slice.
    pub(crate) fn slice_left(&self) -> u32 {
        self.slice_end.saturating_sub(self.expanded)
    }

    /// True when the current slice's expansions are spent: a resumable search checks it
    /// between expansions and yields, with all its state kept, when it is.
    #[inline]
    pub(crate) fn slice_spent(&self) -> bool {
        self.expanded >= self.slice_end
    }

    /// Counts one expansion and enforces the limits.
    ///
    /// # Errors
    ///
    /// [`PathError::LimitReached`] when the expansion budget is spent or (checked every
    /// 256 expansions) the time budget has run out.
    #[inline]
    pub(crate) fn tick(&mut self) -> Result<(), PathError> {
        self.expanded += 1;
        if self.expanded > self.max_expanded {
            return Err(PathError::LimitReached {
                limit: Limit::Expanded,
                expanded: self.expanded - 1,
            });
        }
        if let Some(deadline) = self.deadline
            && self.expanded & 255 == 0
            && Instant::now() >= deadline
        {
            return Err(PathError::LimitReached {
                limit: Limit::Time,
                expanded: self.expanded,
            });
        }
        Ok(())
    }

    /// Writes the path ending at the seen node `goal` into `self.path`, walking parents
    /// back to the start (see the type's docs); the cells between a node and its parent
    /// are filled in. `costs` must be the step costs the search used. O(path length).
    ///
    /// # Errors
    ///
    /// [`PathError::NotFound`] (with the path cleared) if a walk back leaves the map,
    /// which the linking rule rules out; it is checked so that a broken invariant can
    /// never read outside the map.
    pub(crate) fn build_path(&mut self, goal: u32, costs: impl StepCosts) -> Result<(), PathError> {
        self.path.clear();
        let mut i = goal;
        let mut c = self.cell(i);
        self.path.push(c);
        while self.g(i) > 0 {
            let g = self.g(i);
            let d = self.to_parent(i);
            let (dx, dy) = d.delta();
            let mut paid = 0;
            let mut from = i;
            loop {
                c = Cell::new(c.x + dx, c.y + dy);
                if !self.size.contains(c) {
                    debug_assert!(false, "parent walk from {} left the map", self.cell(i));
                    self.path.clear();
                    return Err(self.not_found());
                }
                let p = self.index(c);
                // The step the path takes is p -> from; costs are symmetric.
                paid += costs.step(p, from, d.opposite());
                if paid > g {
                    debug_assert!(false, "parent walk from {} lost its way", self.cell(i));
                    self.path.clear();
                    return Err(self.not_found());
                }
                self.path.push(c);
                from = p;
                if self.is_seen(p) && self.g(p) + paid <= g {
                    i = p;
                    break;
                }
            }
        }
        self.path.reverse();
        Ok(())
    }

    /// Cells seen by the last query (opened, closed or traced), for visualisation.
    pub(crate) fn explored(&self) -> impl Iterator<Item = Cell> + '_ {
        let size = self.size;
        self.records[..size.area()]
            .iter()
            .enumerate()
            .filter(move |(_, r)| **r & self.stamp_mask == self.generation)
            .map(move |(i, _)| size.cell(i))
    }

    /// Bytes held by the per-cell records, the heap and the path (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.records.capacity() * size_of::<u64>()
            + self.heap.memory_bytes()
            + self.path.capacity() * size_of::<Cell>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::costs::UnitCosts;

    #[test]
    fn records_keep_cost_parent_and_flags_and_reset_per_query() {
        let mut s = SearchState::default();
        let size = GridSize::new(7, 5);
        s.begin(size, &Limits::default(), 1);
        let big = 35 * DIAGONAL;
        s.open(3, big, Direction::NorthWest);
        assert!(s.is_seen(3) && !s.is_closed(3));
        s.close(3);
        assert!(s.is_closed(3));
        assert_eq!((s.g(3), s.to_parent(3)), (big, Direction::NorthWest));
        s.begin(size, &Limits::default(), 1);
        assert!(!s.is_seen(3) && !s.is_closed(3));
    }

    #[test]
    fn a_smaller_map_keeps_the_layout_of_a_larger_one() {
        let mut s = SearchState::default();
        s.begin(GridSize::new(300, 300), &Limits::default(), 1);
        let bits = s.stamp_bits;
        s.begin(GridSize::new(4, 4), &Limits::default(), 1);
        assert_eq!(s.stamp_bits, bits);
        s.begin(GridSize::new(3000, 30), &Limits::default(), 1);
        assert!(s.stamp_bits <= bits);
    }

    #[test]
    fn stamps_wrap_without_reviving_old_cells() {
        let mut s = SearchState::default();
        let size = GridSize::new(3, 3);
        s.begin(size, &Limits::default(), 1);
        s.generation = s.stamp_mask - 1;
        s.open(4, 9, Direction::East);
        s.restart_round();
        s.open(5, 9, Direction::East);
        assert!(!s.is_seen(4) && s.is_seen(5));
        s.restart_round();
        assert_eq!(s.generation, 1);
        assert!(!s.is_seen(4) && !s.is_seen(5));
        assert_eq!(s.explored().count(), 0);
    }

    #[test]
    fn a_line_parent_is_walked_back_with_the_cells_between() {
        let mut s = SearchState::default();
        s.begin(GridSize::new(6, 6), &Limits::default(), 1);
        let (a, b, c) = (Cell::new(0, 0), Cell::new(3, 3), Cell::new(3, 5));
        s.open(s.index(a), 0, Direction::East);
        s.open(s.index(b), 3 * DIAGONAL, Direction::NorthWest);
        s.open(
            s.index(c),
            3 * DIAGONAL + 2 * crate::grid::STRAIGHT,
            Direction::North,
        );
        s.build_path(s.index(c), UnitCosts).unwrap();
        let expected: Vec<Cell> = [(0, 0), (1, 1), (2, 2), (3, 3), (3, 4), (3, 5)]
            .into_iter()
            .map(Cell::from)
            .collect();
        assert_eq!(s.path, expected);
    }
}
