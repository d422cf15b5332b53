//! Connected components of free cells, for answering "unreachable" without a search.
//!
//! Octile moves without corner cutting connect exactly the cells that straight moves
//! connect (a diagonal step is allowed only when both straight detours are free), so
//! one 4-connected labelling serves both connectivities. On hexagonal grids the six
//! neighbours connect cells.

use super::bitgrid::BitGrid;
use smallvec::SmallVec;

use super::rect::CellRect;
use crate::grid::{Cell, Direction, GridSize};
use crate::shape::GridShape;

/// Component labels per cell: 0 on blocked cells, equal labels for mutually reachable cells.
#[derive(Clone, Debug, Default)]
pub struct Components {
    size: GridSize,
    shape: GridShape,
    labels: Vec<u32>,
    next_label: u32,
    stack: Vec<Cell>,
    /// Scratch of [`Components::update`]: the cells its floods start from, and the ring
    /// around a cluster.
    seeds: Vec<Cell>,
    ring: Vec<(bool, bool)>,
    /// Scratch of the searches that check whether a component stayed whole: a stamp per
    /// cell (allocated on first use), the last stamp given, a queue per search.
    seen: Vec<u32>,
    stamp: u32,
    queues: Vec<std::collections::VecDeque<Cell>>,
    trail: Vec<(Cell, u8)>,
    /// Cells labelled or searched so far (see [`Components::update`]'s result).
    work: u64,
}

impl Components {
    /// Labels the free (zero) bits of `blocked` of a square grid. O(width * height).
    pub fn new(blocked: &BitGrid) -> Self {
        Self::with_shape(blocked, GridShape::Square)
    }

    /// Labels the free (zero) bits of `blocked` of a grid of `shape`: on hexagons, cells
    /// are connected through their six neighbours. O(width * height).
    pub fn with_shape(blocked: &BitGrid, shape: GridShape) -> Self {
        let size = blocked.size();
        let mut c = Self {
            size,
            shape,
            labels: vec![0; size.area()],
            next_label: 1,
            stack: Vec::new(),
            seeds: Vec::new(),
            ring: Vec::new(),
            seen: Vec::new(),
            stamp: 0,
            queues: Vec::new(),
            trail: Vec::new(),
            work: 0,
        };
        c.relabel_all(blocked);
        c
    }

    fn relabel_all(&mut self, blocked: &BitGrid) {
        self.labels.fill(0);
        self.next_label = 1;
        self.work += self.size.area() as u64;
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
        let square = self.shape.is_square();
        while let Some(cell) = self.stack.pop() {
            self.work += 1;
            // The fixed four straight moves on squares: a loop the compiler unrolls.
            if square {
                for d in Direction::CARDINAL {
                    self.enter(blocked, cell.step(d), label, fresh_from);
                }
            } else {
                for d in self.moves(cell) {
                    self.enter(blocked, cell.step(d), label, fresh_from);
                }
            }
        }
    }

    /// Gives the free on-map cell `n` the flood's `label` and queues it, unless it was
    /// labelled in this pass already.
    #[inline(always)]
    fn enter(&mut self, blocked: &BitGrid, n: Cell, label: u32, fresh_from: u32) {
        if !self.size.contains(n) || blocked.bit_unchecked(n.x as u32, n.y as u32) {
            return;
        }
        let i = self.size.index(n);
        if self.labels[i] < fresh_from {
            self.labels[i] = label;
            self.stack.push(n);
        }
    }

    /// The moves that connect `cell` to its neighbours: the four straight ones on
    /// squares (enough, see the module docs), the six on hexagons.
    #[inline]
    fn moves(&self, cell: Cell) -> impl Iterator<Item = Direction> + use<> {
        let mask = match self.shape {
            GridShape::Square => 0x55,
            shape => shape.neighbours(cell),
        };
        Direction::in_mask(mask)
    }

    /// Brings the labels up to date after the cells in `changed` flipped in `blocked`.
    ///
    /// The flipped cells are taken in clusters (4-connected, all blocked or all freed),
    /// and most clusters are settled locally:
    ///
    /// - a blocked cluster that fills its bounding box (the box's other cells were
    ///   blocked already) and whose free 4-neighbours all lie on one free arc of the ring
    ///   of cells around the box cannot split a component (every way through the box can
    ///   go around it instead): its cells only lose their label, O(its box's perimeter);
    /// - another blocked cluster (at most 8 free 4-neighbours) searches breadth-first
    ///   from each of its free neighbours at once, up to 4,096 cells in all: when the
    ///   searches meet, the component stayed whole; when the cluster is the batch's only
    ///   blocked one and all searches but one group run out of cells, the parts they
    ///   explored were cut off and get fresh labels (the rest keeps its label);
    /// - a freed cluster whose free 4-neighbours all carry one label (or that has none)
    ///   joins that component (or starts its own), O(its cells).
    ///
    /// On hexagonal grids no cluster is settled locally: every change floods again.
    ///
    /// Otherwise every component (after the change) that holds such a cell or a free
    /// 4-neighbour of one is flooded again with a fresh label, whether the change split
    /// it or joined several: the cost is the total size of those components, which on
    /// a mostly open map is the whole map even for one changed cell. Batches of more than
    /// 64 cells are all handled so. When fresh labels could run out (each changed cell
    /// may use up to eight), all cells are relabelled instead, O(width × height). The
    /// searches use a stamp per cell (4 bytes), allocated on their first use.
    ///
    /// Cells of `changed` off the map are ignored; each cell should appear once.
    /// Returns the cells the update labelled or searched (besides `changed` itself): a
    /// measure of its cost that does not depend on the machine.
    ///
    /// # Panics
    ///
    /// When `blocked` has another size than the grid these labels were made for.
    pub fn update(&mut self, blocked: &BitGrid, changed: &[Cell]) -> u64 {
        assert_eq!(
            blocked.size(),
            self.size,
            "Components::update: the bits are for another grid size"
        );
        let before = self.work;
        let needed = 8 * changed.len() as u64 + 1;
        if u64::from(self.next_label) + needed > u64::from(u32::MAX) {
            self.relabel_all(blocked);
            return self.work - before;
        }
        let mut seeds = std::mem::take(&mut self.seeds);
        seeds.clear();
        for &c in changed {
            if self.size.contains(c) && blocked.get_or(c, true) {
                let i = self.size.index(c);
                self.labels[i] = 0;
            }
        }
        if changed.len() > LOCAL_BATCH || !self.shape.is_square() {
            for &c in changed {
                seeds.push(c);
                seeds.extend(self.moves(c).map(|d| c.step(d)));
            }
        } else {
            self.settle_locally(blocked, changed, &mut seeds);
        }
        let fresh_from = self.next_label;
        for &n in &seeds {
            if !blocked.get_or(n, true) && self.labels[self.size.index(n)] < fresh_from {
                self.flood(blocked, n, fresh_from);
            }
        }
        self.seeds = seeds;
        self.work - before
    }

    /// The local part of [`Components::update`] for a small batch: settles the clusters
    /// that can be, and adds to `seeds` where floods must start for the others.
    fn settle_locally(&mut self, blocked: &BitGrid, changed: &[Cell], seeds: &mut Vec<Cell>) {
        let size = self.size;
        let mut done = [false; LOCAL_BATCH];
        // Cells the batch blocked: a blocked cluster holding them all is alone.
        let blocking = changed
            .iter()
            .filter(|&&c| size.contains(c) && blocked.get_or(c, true))
            .count();
        let mut cluster: Vec<usize> = Vec::with_capacity(changed.len());
        for first in 0..changed.len() {
            if done[first] || !size.contains(changed[first]) {
                continue;
            }
            // The cluster of `first`: flipped cells 4-connected to it, in the same state.
            let state = blocked.get_or(changed[first], true);
            cluster.clear();
            cluster.push(first);
            done[first] = true;
            let mut k = 0;
            while k < cluster.len() {
                let c = changed[cluster[k]];
                for d in Direction::CARDINAL {
                    let n = c.step(d);
                    if let Some(j) = changed.iter().position(|&x| x == n)
                        && !done[j]
                        && blocked.get_or(n, true) == state
                    {
                        done[j] = true;
                        cluster.push(j);
                    }
                }
                k += 1;
            }
            let cells = cluster.iter().map(|&j| changed[j]);
            let outside = || {
                cells
                    .clone()
                    .flat_map(|c| Direction::CARDINAL.map(|d| c.step(d)))
                    .filter(|&n| !blocked.get_or(n, true))
            };
            if state {
                // Blocked: fine when the box around it is sealed and the way round it
                // is one arc.
                let mut bounds = CellRect::from_cell(changed[first]);
                cells.clone().for_each(|c| bounds.include(c));
                let local = bounds.cells().all(|c| blocked.get_or(c, true))
                    && one_arc(blocked, bounds, &mut self.ring);
                if !local {
                    // Ways round it that meet a little farther out also leave its
                    // component whole, and small parts cut off are labelled apart;
                    // otherwise the component is flooded again.
                    let around: SmallVec<[Cell; 8]> = outside().collect();
                    if !self.meet_nearby(blocked, &around, cluster.len() == blocking) {
                        seeds.extend(around);
                    }
                }
                continue;
            }
            // Freed: it joins the one component around it, or components merge.
            let mut label = 0;
            let mut merge = false;
            for n in outside() {
                let l = self.label(n);
                merge |= l != 0 && label != 0 && l != label;
                label = label.max(l);
            }
            if merge {
                seeds.extend(cells);
                continue;
            }
            if label == 0 {
                label = self.next_label;
                self.next_label += 1;
            }
            for c in cells {
                let i = self.size.index(c);
                self.labels[i] = label;
            }
        }
    }
}

impl Components {
    /// Settles a blocked cluster whose free neighbours `from` (cells of one component
    /// before the change) may have been cut apart, by searching from each of them at
    /// once, one cell per search in turn (breadth-first, so a short way round is found
    /// before a long one); searches that meet join. A group of searches that runs out of
    /// cells first is a part cut off. Returns true when all the searches meet, or, when
    /// the cluster is `alone` (the batch blocked no other cell, so every part of the
    /// component holds one of `from`), when all but one group run out: those parts get
    /// fresh labels and the last keeps the component's. False (flood instead) otherwise,
    /// when more than [`MEET_WITHIN`] cells were visited in all first, or when `from` is
    /// long. O(cells visited), no allocation once warm.
    // The search ids index the queues, the groups and the cut-off marks together.
    #[allow(clippy::needless_range_loop)]
    fn meet_nearby(&mut self, blocked: &BitGrid, from: &[Cell], alone: bool) -> bool {
        if from.len() > SEARCHES {
            return false;
        }
        if from.len() <= 1 {
            return true;
        }
        if self.seen.len() != self.labels.len() {
            self.seen = vec![0; self.labels.len()];
            self.stamp = 0;
        }
        if self.stamp > u32::MAX - 2 * SEARCHES as u32 {
            self.seen.fill(0);
            self.stamp = 0;
        }
        let base = self.stamp + 1;
        self.stamp += SEARCHES as u32;
        self.queues.clear();
        self.queues.resize(from.len(), Default::default());
        self.trail.clear();
        let mut groups = Groups::new(from.len());
        let mut cut_off = [false; SEARCHES];
        for (k, &c) in from.iter().enumerate() {
            self.reach(c, k, base, &mut groups);
        }
        let mut visited = 0;
        while groups.open > 1 {
            if visited >= MEET_WITHIN {
                return false;
            }
            for k in 0..from.len() {
                let Some(cell) = self.queues[k].pop_front() else {
                    continue;
                };
                visited += 1;
                self.work += 1;
                for d in Direction::CARDINAL {
                    let n = cell.step(d);
                    if !blocked.get_or(n, true) {
                        self.reach(n, k, base, &mut groups);
                    }
                }
            }
            // A group whose every search ran out of cells is cut off.
            for k in 0..from.len() {
                if groups.find(k) == k
                    && !cut_off[k]
                    && (0..from.len()).all(|j| groups.find(j) != k || self.queues[j].is_empty())
                {
                    if !alone {
                        return false;
                    }
                    cut_off[k] = true;
                    groups.open -= 1;
                }
            }
        }
        for k in 0..from.len() {
            if groups.find(k) != k || !cut_off[k] {
                continue;
            }
            let label = self.next_label;
            self.next_label += 1;
            for &(cell, j) in self.trail.iter() {
                if groups.find(usize::from(j)) == k {
                    let i = self.size.index(cell);
                    self.labels[i] = label;
                }
            }
        }
        true
    }

    /// Search `k` of [`Components::meet_nearby`] (stamps from `base`) reaches the free
    /// cell `cell`: it joins the group of the search that reached it first, or takes it.
    fn reach(&mut self, cell: Cell, k: usize, base: u32, groups: &mut Groups) {
        let i = self.size.index(cell);
        let owner = self.seen[i].wrapping_sub(base) as usize;
        if owner < SEARCHES {
            groups.join(owner, k);
            return;
        }
        self.seen[i] = base + k as u32;
        self.queues[k].push_back(cell);
        self.trail.push((cell, k as u8));
    }
}

/// The searches of [`Components::meet_nearby`] at most.
const SEARCHES: usize = 8;

/// Which searches of [`Components::meet_nearby`] have met: a union by smallest id, and
/// the groups neither joined nor cut off.
struct Groups {
    parent: [usize; SEARCHES],
    open: usize,
}

impl Groups {
    /// `n` searches, each its own group.
    fn new(n: usize) -> Self {
        Self {
            parent: std::array::from_fn(|k| k),
            open: n,
        }
    }

    /// The group of search `k` (its smallest id).
    fn find(&self, mut k: usize) -> usize {
        while self.parent[k] != k {
            k = self.parent[k];
        }
        k
    }

    /// Searches `a` and `b` met.
    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b);
            self.open -= 1;
        }
    }
}

/// Cells the searches of `Components::meet_nearby` visit at most, all together.
const MEET_WITHIN: usize = 4096;

/// The largest batch [`Components::update`] settles cluster by cluster (finding the
/// clusters is quadratic in the batch); larger ones are flooded.
pub(crate) const LOCAL_BATCH: usize = 64;

/// True when the free cells 4-adjacent to `bounds` all lie on one arc of free cells of
/// the ring around it (cells off the map are blocked): going around the box from one
/// to the next never crosses a blocked cell. Also true when there is at most one.
/// `ring` is scratch.
fn one_arc(blocked: &BitGrid, bounds: CellRect, ring: &mut Vec<(bool, bool)>) -> bool {
    let (x0, y0) = (bounds.min.x - 1, bounds.min.y - 1);
    let (x1, y1) = (bounds.max.x, bounds.max.y);
    let free = |x, y| !blocked.get_or(Cell::new(x, y), true);
    // The ring clockwise from the top-left corner, each cell with whether it is free and
    // whether it touches the box by a side (the corners touch it by a corner only).
    ring.clear();
    ring.extend((x0..x1).map(|x| (free(x, y0), x != x0)));
    ring.extend((y0..y1).map(|y| (free(x1, y), y != y0)));
    ring.extend((x0 + 1..=x1).rev().map(|x| (free(x, y1), x != x1)));
    ring.extend((y0 + 1..=y1).rev().map(|y| (free(x0, y), y != y1)));
    // Walk once round from a blocked cell, counting the free arcs that hold a side cell.
    let Some(start) = ring.iter().position(|&(f, _)| !f) else {
        return true;
    };
    let (mut arcs, mut side) = (0, false);
    for k in 1..=ring.len() {
        let (f, is_side) = ring[(start + k) % ring.len()];
        if f {
            side |= is_side;
        } else {
            arcs += usize::from(side);
            side = false;
        }
    }
    arcs <= 1
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

    /// Prints `g` with `#` for blocked cells, for failure messages.
    fn show(g: &BitGrid) -> String {
        let size = g.size();
        (0..size.height as i32)
            .map(|y| {
                (0..size.width as i32)
                    .map(|x| {
                        if g.get_or(Cell::new(x, y), true) {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn local_updates_keep_the_same_partition_as_a_full_relabel() {
        use crate::scenario::generate::SplitMix64;
        let mut rng = SplitMix64::new(7);
        for round in 0..400 {
            let (w, h) = (3 + rng.below(10), 3 + rng.below(8));
            let size = GridSize::new(w, h);
            let mut g = BitGrid::new(size, false);
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    g.set(Cell::new(x, y), rng.chance(2, 5));
                }
            }
            let mut c = Components::new(&g);
            for batch in 0..30 {
                // Batches of a few distinct cells, often next to each other.
                let mut cells: Vec<Cell> = Vec::new();
                let mut at = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
                if rng.chance(1, 3) {
                    // A block, as a wide agent's layer sees one new wall.
                    let (bw, bh) = (1 + rng.below(3) as i32, 1 + rng.below(3) as i32);
                    let block = (0..bw).flat_map(|dx| (0..bh).map(move |dy| (dx, dy)));
                    let mut cells: Vec<Cell> = block
                        .map(|(dx, dy)| Cell::new(at.x + dx, at.y + dy))
                        .filter(|&c| size.contains(c))
                        .collect();
                    let blocking = rng.chance(1, 2);
                    cells.retain(|&c| g.get_or(c, true) != blocking);
                    at = Cell::new(-1, -1);
                    for &cell in &cells {
                        g.set(cell, blocking);
                    }
                    c.update(&g, &cells);
                }
                for _ in 0..1 + rng.below(4) {
                    if size.contains(at) && !cells.contains(&at) {
                        cells.push(at);
                    }
                    at = match rng.below(3) {
                        0 => at.step(Direction::CARDINAL[rng.below(4) as usize]),
                        _ => Cell::new(rng.below(w) as i32, rng.below(h) as i32),
                    };
                }
                let before = show(&g);
                for &cell in &cells {
                    g.set(cell, !g.get_or(cell, true));
                }
                c.update(&g, &cells);
                let fresh = Components::new(&g);
                let all = || (0..size.area()).map(|i| size.cell(i));
                for a in all() {
                    for b in all() {
                        assert_eq!(
                            c.connected(a, b),
                            fresh.connected(a, b),
                            "round {round}, batch {batch}: {a} and {b} after flipping \
                             {cells:?} of\n{before}\ninto\n{}",
                            show(&g)
                        );
                    }
                }
            }
        }
    }
}
