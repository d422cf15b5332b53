//! Jump point search without corner cutting, with block-based (64 cells per word) jumps.
//!
//! JPS is A* over a pruned set of nodes. From a node it "jumps" in a direction without
//! putting the cells it passes on the open list, and stops only at a *jump point*: a
//! cell where an optimal path may have to turn, at the goal, or at nothing (a wall,
//! which ends the jump). Every optimal path can be rewritten as a *canonical* one
//! (diagonal steps before straight steps between turns), and JPS searches exactly the
//! turning points of canonical paths, so it returns a shortest path while expanding a
//! small fraction of the cells A* would.
//!
//! The pruning and forced-neighbour rules are the ones for octile moves where a
//! diagonal step needs both orthogonal cells free (no corner cutting), as in the 2014
//! revision of JPS by Harabor and Grastien:
//!
//! - a diagonal move keeps going diagonally and also tries its two straight parts; it
//!   has no forced neighbours, and stops where one of those straight jumps finds a
//!   jump point (or at the goal);
//! - a straight move stops at a free cell `c` whose side cell is free while the side
//!   cell one step back is blocked; from there it also tries that side and the
//!   diagonal between the side and the move.
//!
//! Straight jumps read 64 cells at once: horizontal ones from the map's row-major
//! blocked bits, vertical ones from the transposed bits, together with the two
//! neighbouring lines; the first wall or forced cell is one `trailing_zeros` (or
//! `leading_zeros` going backwards) of a few word operations. Two refinements keep the
//! open list small: a diagonal jump point is expanded the moment a diagonal walk finds
//! it (its straight jumps were just made), and a new jump point whose f equals the f
//! being expanded is expanded next without going through the heap.
//!
//! Complexity: worst case like A*, O(n log n) for n jump points plus O(length / 64) word
//! reads per straight jump. On the MovingAI game, room and city maps it expands 100 to
//! 500 times fewer nodes than A* and runs 20 to 100 times faster; on one-cell-wide mazes
//! and random-obstacle maps, where almost every cell is a jump point, about twice as
//! fast. Memory O(map area), shared with the other searches and reused between queries.
//!
//! When to use: shortest paths on uniform-cost octile grids, especially large or open
//! ones; the result costs exactly what A* and Dijkstra find. It needs the 8-connected
//! model: [`crate::grid::Connectivity::Cardinal`] queries are answered by A* instead
//! (the dispatch in the pathfinder does that).

use super::pathfinder::Scratch;
use super::query::{PathError, PathQuery};
use crate::grid::{Cell, Cost, DIAGONAL, Direction, STRAIGHT, octile_cost};
use crate::scenario::{BitGrid, Layer};

/// Per-pathfinder JPS buffers: which nodes were expanded as soon as they were reached.
///
/// Diagonal jump points are expanded on the spot (their straight jumps were just made
/// to find them); such a node is seen but not on the open list, and `done` holds the
/// current `generation` for it. Cleared in O(1) per query by bumping `generation`.
#[derive(Debug, Default)]
pub(crate) struct JpsScratch {
    done: Vec<u32>,
    generation: u32,
    /// Jump points whose f equals the f being expanded: expanded next, bypassing the heap.
    next: Vec<u32>,
}

impl JpsScratch {
    /// Prepares for a query on a map of `area` cells; allocates only when the map grew.
    fn begin(&mut self, area: usize) {
        if self.done.len() < area {
            self.done.resize(area, 0);
            // At most one entry per cell: reserving now keeps later queries allocation-free.
            self.next.reserve(area.saturating_sub(self.next.len()));
        }
        if self.generation == u32::MAX {
            self.done.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        self.next.clear();
    }

    #[inline]
    fn is_done(&self, i: u32) -> bool {
        self.done[i as usize] == self.generation
    }

    #[inline]
    fn set_done(&mut self, i: u32, done: bool) {
        self.done[i as usize] = if done { self.generation } else { 0 };
    }
}

/// Goal position meaning "the goal is not on this line".
const NO_GOAL: i64 = i64::MIN;

/// 64 bits of a line starting at cell `start`: bit `i` is cell `start + i`. Cells before
/// the line start or past its stored words read as blocked (1).
#[inline(always)]
fn window(line: &[u64], start: i64) -> u64 {
    if start >= 0 {
        let w = (start >> 6) as usize;
        let shift = (start & 63) as u32;
        let Some(&lo) = line.get(w) else {
            return !0;
        };
        if shift == 0 {
            return lo;
        }
        let hi = line.get(w + 1).copied().unwrap_or(!0);
        (lo >> shift) | (hi << (64 - shift))
    } else if start > -64 {
        let missing = (-start) as u32;
        let first = line.first().copied().unwrap_or(!0);
        (first << missing) | ((1u64 << missing) - 1)
    } else {
        !0
    }
}

/// A line being jumped along (`mid`) and the lines on either side of it.
#[derive(Clone, Copy)]
struct Lines<'a> {
    before: &'a [u64],
    mid: &'a [u64],
    after: &'a [u64],
}

impl Lines<'_> {
    /// Scans toward higher positions from `from` (exclusive). Returns the first jump
    /// point: the goal position `goal` if it comes first, else the first free cell with a
    /// forced neighbour; `None` when a blocked cell comes first.
    #[inline(always)]
    fn forward(self, from: i64, goal: i64) -> Option<i64> {
        let mut p = from;
        loop {
            let m = window(self.mid, p);
            let a = window(self.before, p);
            let b = window(self.after, p);
            let stop = (m | (!a & (a << 1)) | (!b & (b << 1))) & !1;
            if stop != 0 {
                let k = stop.trailing_zeros();
                let at = p + i64::from(k);
                if goal > from && goal <= at {
                    return Some(goal);
                }
                return ((m >> k) & 1 == 0).then_some(at);
            }
            p += 63;
        }
    }

    /// Like [`Lines::forward`], toward lower positions.
    #[inline(always)]
    fn backward(self, from: i64, goal: i64) -> Option<i64> {
        let mut p = from;
        loop {
            let m = window(self.mid, p - 63);
            let a = window(self.before, p - 63);
            let b = window(self.after, p - 63);
            let stop = (m | (!a & (a >> 1)) | (!b & (b >> 1))) & !(1 << 63);
            if stop != 0 {
                let k = stop.leading_zeros();
                let at = p - i64::from(k);
                if goal != NO_GOAL && goal < from && goal >= at {
                    return Some(goal);
                }
                return ((m >> (63 - k)) & 1 == 0).then_some(at);
            }
            p -= 63;
        }
    }
}

/// The blocked bits of one layer, seen by the jumps.
struct Grid<'a> {
    rows: &'a BitGrid,
    columns: &'a BitGrid,
    width: i32,
    height: i32,
    goal: Cell,
}

impl<'a> Grid<'a> {
    fn new(layer: &'a Layer, goal: Cell) -> Self {
        let size = layer.size();
        Self {
            rows: layer.bits(),
            columns: layer.column_bits(),
            width: size.width as i32,
            height: size.height as i32,
            goal,
        }
    }

    #[inline(always)]
    fn free(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.width as u32
            && (y as u32) < self.height as u32
            && !self.rows.get_unchecked_cell(x as u32, y as u32)
    }

    /// Line `i` of `grid` (which has `count` lines), or no words (all blocked) off the grid.
    #[inline(always)]
    fn line(grid: &'a BitGrid, i: i32, count: i32) -> &'a [u64] {
        if (i as u32) < count as u32 {
            grid.row(i as u32)
        } else {
            &[]
        }
    }

    #[inline(always)]
    fn row_lines(&self, y: i32) -> Lines<'a> {
        Lines {
            before: Self::line(self.rows, y - 1, self.height),
            mid: Self::line(self.rows, y, self.height),
            after: Self::line(self.rows, y + 1, self.height),
        }
    }

    #[inline(always)]
    fn column_lines(&self, x: i32) -> Lines<'a> {
        Lines {
            before: Self::line(self.columns, x - 1, self.width),
            mid: Self::line(self.columns, x, self.width),
            after: Self::line(self.columns, x + 1, self.width),
        }
    }

    /// Jumps from the free cell `from` in the straight direction `(dx, dy)`.
    #[inline(always)]
    fn jump_straight(&self, from: Cell, dx: i32, dy: i32) -> Option<Cell> {
        if dy == 0 {
            let goal = if self.goal.y == from.y {
                i64::from(self.goal.x)
            } else {
                NO_GOAL
            };
            let lines = self.row_lines(from.y);
            let x = if dx > 0 {
                lines.forward(i64::from(from.x), goal)
            } else {
                lines.backward(i64::from(from.x), goal)
            };
            x.map(|x| Cell::new(x as i32, from.y))
        } else {
            let goal = if self.goal.x == from.x {
                i64::from(self.goal.y)
            } else {
                NO_GOAL
            };
            let lines = self.column_lines(from.x);
            let y = if dy > 0 {
                lines.forward(i64::from(from.y), goal)
            } else {
                lines.backward(i64::from(from.y), goal)
            };
            y.map(|y| Cell::new(from.x, y as i32))
        }
    }

    /// True when the diagonal step from `(x, y)` by `(dx, dy)` lands on a free cell
    /// without cutting a corner.
    #[inline(always)]
    fn diagonal_step_free(&self, x: i32, y: i32, dx: i32, dy: i32) -> bool {
        self.free(x + dx, y) && self.free(x, y + dy) && self.free(x + dx, y + dy)
    }

    /// Octile distance to the goal.
    #[inline]
    fn h(&self, c: Cell) -> Cost {
        octile_cost(
            Cost::from((c.x - self.goal.x).unsigned_abs()),
            Cost::from((c.y - self.goal.y).unsigned_abs()),
        )
    }

    /// Directions to jump from `c`, as a bit set over [`Direction`] discriminants, given
    /// the cell it was reached from (`None` for the start: every direction).
    fn directions(&self, c: Cell, from: Option<Cell>) -> u8 {
        let Some(p) = from else {
            return u8::MAX;
        };
        let (dx, dy) = ((c.x - p.x).signum(), (c.y - p.y).signum());
        let Some(d) = Direction::from_delta(dx, dy) else {
            return u8::MAX;
        };
        let bit = |d: Direction| 1u8 << (d as u8);
        if d.is_diagonal() {
            return bit(d) | bit(d.rotate(-1)) | bit(d.rotate(1));
        }
        let mut set = bit(d);
        for turn in [-2, 2] {
            let side = d.rotate(turn);
            let (sx, sy) = side.delta();
            if self.free(c.x + sx, c.y + sy) && !self.free(c.x - dx + sx, c.y - dy + sy) {
                set |= bit(side) | bit(d.rotate(turn / 2));
            }
        }
        set
    }
}

/// Cost of the straight or diagonal line between two jump points.
#[inline]
fn line_cost(a: Cell, b: Cell) -> Cost {
    let n = Cost::from(a.chebyshev(b));
    if a.x != b.x && a.y != b.y {
        n * DIAGONAL
    } else {
        n * STRAIGHT
    }
}

/// Runs JPS from `query.start` to `query.goal` (both free, in one component, distinct).
/// On success `s.path` holds every cell of a shortest octile path.
pub(crate) fn search(s: &mut Scratch, layer: &Layer, query: &PathQuery) -> Result<(), PathError> {
    let grid = Grid::new(layer, query.goal);
    s.jps.begin(s.size.area());
    let goal_i = s.index(query.goal);
    let start_i = s.index(query.start);
    s.open(start_i, 0, u32::MAX);
    let h0 = grid.h(query.start);
    s.heap.push(start_i, h0, h0);
    while let Some(i) = s.jps.next.pop().or_else(|| s.heap.pop()) {
        if i == goal_i {
            s.build_path(goal_i);
            return Ok(());
        }
        s.close(i);
        s.tick()?;
        expand(s, &grid, i)?;
    }
    Err(PathError::NotFound {
        expanded: s.expanded,
    })
}

/// Jumps from node `i` in every direction its arrival direction leaves open.
fn expand(s: &mut Scratch, grid: &Grid, i: u32) -> Result<(), PathError> {
    let c = s.cell(i);
    let g = s.g(i);
    let parent = s.parent(i);
    let from = (parent != u32::MAX).then(|| s.cell(parent));
    let f = g + grid.h(c);
    let mut dirs = grid.directions(c, from);
    while dirs != 0 {
        let dir = Direction::ALL[dirs.trailing_zeros() as usize];
        dirs &= dirs - 1;
        let (dx, dy) = dir.delta();
        if dir.is_diagonal() {
            walk_diagonal(s, grid, i, g, f, dx, dy)?;
        } else if let Some(j) = grid.jump_straight(c, dx, dy) {
            relax(s, grid, j, g + line_cost(c, j), i, f);
        }
    }
    Ok(())
}

/// Walks diagonally from node `i` (cost `g`). Each cell from which a straight jump
/// finds a jump point is a diagonal jump point: it is recorded with its cost and parent
/// and expanded at once (the straight jump points it found are relaxed, the walk goes
/// on from it). The walk ends at a wall, at the goal, or at a jump point that already
/// has a cost as low (its own expansion covers the rest of the diagonal).
fn walk_diagonal(
    s: &mut Scratch,
    grid: &Grid,
    mut i: u32,
    mut g: Cost,
    f: Cost,
    dx: i32,
    dy: i32,
) -> Result<(), PathError> {
    let mut c = s.cell(i);
    let mut n = c;
    loop {
        if !grid.diagonal_step_free(n.x, n.y, dx, dy) {
            return Ok(());
        }
        n = Cell::new(n.x + dx, n.y + dy);
        if n == grid.goal {
            relax(s, grid, n, g + line_cost(c, n), i, f);
            return Ok(());
        }
        let across = grid.jump_straight(n, dx, 0);
        let along = grid.jump_straight(n, 0, dy);
        if across.is_none() && along.is_none() {
            continue;
        }
        let ni = s.index(n);
        let ng = g + line_cost(c, n);
        if !claim(s, grid, ni, ng, i) {
            return Ok(());
        }
        s.tick()?;
        for j in [across, along].into_iter().flatten() {
            relax(s, grid, j, ng + line_cost(n, j), ni, f);
        }
        (i, c, g) = (ni, n, ng);
    }
}

/// Records the diagonal jump point `ni` reached with cost `g` from `parent`; true when
/// the caller should expand it now. A node on the open list only gets its key lowered
/// (it is expanded when popped); closed nodes and nodes with a cost as low are left alone.
#[inline]
fn claim(s: &mut Scratch, grid: &Grid, ni: u32, g: Cost, parent: u32) -> bool {
    if !s.is_seen(ni) {
        s.open(ni, g, parent);
        s.jps.set_done(ni, true);
        return true;
    }
    if s.is_closed(ni) || g >= s.g(ni) {
        return false;
    }
    s.relink(ni, g, parent);
    if s.jps.is_done(ni) {
        return true;
    }
    let h = grid.h(s.cell(ni));
    s.heap.decrease_key(ni, g + h, h);
    false
}

/// Offers the jump point `j` with cost `g` via `parent` to the open list, while
/// expanding a node whose f is `f_now`.
///
/// A new node with f equal to `f_now` goes to `s.jps.next` instead of the heap: with a
/// consistent heuristic, f never decreases along the expansion order, so such a node is
/// as good as the heap's minimum, its cost is already optimal and it never needs a
/// decrease-key.
#[inline]
fn relax(s: &mut Scratch, grid: &Grid, j: Cell, g: Cost, parent: u32, f_now: Cost) {
    let ji = s.index(j);
    if s.is_closed(ji) {
        return;
    }
    let h = grid.h(j);
    if !s.is_seen(ji) {
        s.open(ji, g, parent);
        if g + h == f_now {
            s.jps.next.push(ji);
        } else {
            s.heap.push(ji, g + h, h);
        }
    } else if g < s.g(ji) {
        s.relink(ji, g, parent);
        if s.jps.is_done(ji) {
            s.jps.set_done(ji, false);
            s.heap.push(ji, g + h, h);
        } else {
            s.heap.decrease_key(ji, g + h, h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::window;
    use crate::grid::{Cell, GridSize};
    use crate::scenario::{BitGrid, CachedScenario, render};
    use crate::search::{Algorithm, PathQuery, PathStats, Pathfinder};
    use crate::test_support::random_map;
    use proptest::prelude::*;

    /// Checks that `path` walks from `start` to `goal` by king moves over free cells of
    /// the layer for `diameter`, without cutting corners.
    fn check_path(map: &CachedScenario, diameter: u32, path: &[Cell], start: Cell, goal: Cell) {
        let layer = map.layer(diameter).unwrap();
        assert_eq!(path.first(), Some(&start), "path starts elsewhere");
        assert_eq!(path.last(), Some(&goal), "path ends elsewhere");
        for &c in path {
            assert!(!layer.is_blocked(c), "path enters blocked cell {c}");
        }
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(a.is_adjacent(b), "step {a} -> {b} is not a king move");
            if a.x != b.x && a.y != b.y {
                assert!(
                    !layer.is_blocked(Cell::new(b.x, a.y))
                        && !layer.is_blocked(Cell::new(a.x, b.y)),
                    "step {a} -> {b} cuts a corner"
                );
            }
        }
    }

    /// Runs JPS and Dijkstra on one query; asserts equal outcomes and a valid JPS path.
    fn compare(pf: &mut Pathfinder, map: &CachedScenario, query: PathQuery) -> Option<PathStats> {
        let reference = pf.find(map, &query.algorithm(Algorithm::Dijkstra));
        let expected = render(map, pf.path());
        let jps = pf.find(map, &query.algorithm(Algorithm::Jps));
        let drawing = format!("JPS:\n{}Dijkstra:\n{expected}", render(map, pf.path()));
        match (reference, jps) {
            (Ok(r), Ok(j)) => {
                assert_eq!(
                    j.cost, r.cost,
                    "JPS cost differs from Dijkstra for {query:?}\n{drawing}"
                );
                check_path(map, query.diameter, pf.path(), query.start, query.goal);
                Some(j)
            }
            (r, j) => {
                assert_eq!(j, r, "JPS outcome differs for {query:?}\n{drawing}");
                None
            }
        }
    }

    /// Compares JPS with Dijkstra on `pairs` random start/goal pairs of free cells.
    fn compare_random_queries(map: &CachedScenario, diameter: u32, seed: u64, pairs: usize) {
        let layer = map.layer(diameter).unwrap();
        let size = map.size();
        let free: Vec<Cell> = (0..size.area())
            .map(|i| size.cell(i))
            .filter(|&c| !layer.is_blocked(c))
            .collect();
        if free.is_empty() {
            return;
        }
        let mut pf = Pathfinder::new();
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..pairs {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let a = free[(rng % free.len() as u64) as usize];
            let b = free[((rng >> 32) % free.len() as u64) as usize];
            compare(&mut pf, map, PathQuery::new(a, b).diameter(diameter));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn jps_cost_equals_dijkstra_on_random_grids(
            width in 1u32..=40,
            height in 1u32..=40,
            percent in 0u64..=45,
            seed in any::<u64>(),
        ) {
            let map = random_map(width, height, percent, seed);
            for diameter in [1, 3] {
                compare_random_queries(&map, diameter, seed, 8);
            }
        }

        #[test]
        fn jps_cost_equals_dijkstra_on_wide_and_tall_grids(
            long in 60u32..=200,
            short in 1u32..=6,
            percent in 0u64..=35,
            seed in any::<u64>(),
        ) {
            for (width, height) in [(long, short), (short, long)] {
                let map = random_map(width, height, percent, seed);
                for diameter in [1, 3] {
                    compare_random_queries(&map, diameter, seed, 4);
                }
            }
        }
    }

    fn jps(map: &CachedScenario, start: (i32, i32), goal: (i32, i32)) -> (PathStats, Vec<Cell>) {
        let mut pf = Pathfinder::new();
        let q = PathQuery::new(start.into(), goal.into()).algorithm(Algorithm::Jps);
        let stats = compare(&mut pf, map, q).expect("a path exists");
        pf.find(map, &q).unwrap();
        (stats, pf.path().to_vec())
    }

    #[test]
    fn corridor_is_walked_straight_through() {
        let map = CachedScenario::from_ascii(
            "
            ##########
            ..........
            ##########
            ",
        )
        .unwrap();
        let (stats, path) = jps(&map, (0, 1), (9, 1));
        assert_eq!(stats.length, 9.0);
        assert_eq!(path.len(), 10);
        assert!(path.iter().all(|c| c.y == 1));
    }

    #[test]
    fn diagonal_squeeze_between_two_walls_is_not_cut() {
        let map = CachedScenario::from_ascii(
            "
            ......
            ..#...
            ...#..
            ......
            ",
        )
        .unwrap();
        let (stats, path) = jps(&map, (2, 2), (3, 1));
        assert!(
            !path
                .windows(2)
                .any(|w| w[0] == Cell::new(2, 2) && w[1] == Cell::new(3, 1))
        );
        assert_eq!(stats.length, 6.0);
    }

    #[test]
    fn goal_in_the_middle_of_a_straight_jump_is_found() {
        let map = CachedScenario::new(GridSize::new(12, 12)).unwrap();
        let (stats, _) = jps(&map, (0, 4), (7, 4));
        assert_eq!(stats.length, 7.0);
        let (stats, _) = jps(&map, (9, 11), (9, 2));
        assert_eq!(stats.length, 9.0);
        let (stats, _) = jps(&map, (11, 0), (3, 0));
        assert_eq!(stats.length, 8.0);
        let (stats, _) = jps(&map, (5, 1), (5, 10));
        assert_eq!(stats.length, 9.0);
    }

    #[test]
    fn goal_on_a_diagonal_jump_is_found() {
        let map = CachedScenario::new(GridSize::new(10, 10)).unwrap();
        let (stats, path) = jps(&map, (1, 8), (6, 3));
        assert!((stats.length - 5.0 * std::f64::consts::SQRT_2).abs() < 1e-6);
        assert_eq!(path.len(), 6);
        let (stats, _) = jps(&map, (0, 0), (7, 3));
        assert!((stats.length - (3.0 * std::f64::consts::SQRT_2 + 4.0)).abs() < 1e-6);
    }

    #[test]
    fn open_map_search_touches_only_a_few_jump_points() {
        let map = CachedScenario::new(GridSize::new(100, 100)).unwrap();
        let mut pf = Pathfinder::new();
        let q = PathQuery::new(Cell::new(0, 0), Cell::new(99, 60)).algorithm(Algorithm::Jps);
        let stats = pf.find(&map, &q).unwrap();
        assert!((stats.length - (60.0 * std::f64::consts::SQRT_2 + 39.0)).abs() < 1e-6);
        assert!(stats.expanded <= 3, "expanded {}", stats.expanded);
        assert!(pf.explored().count() < 20);
        assert!(pf.explored().any(|c| c == Cell::new(99, 60)));
    }

    /// Walls with gaps at and around the 64-bit word boundaries, so straight jumps meet
    /// forced neighbours and the map edge at x = 63, 64, 65 (and 127, 128, 129).
    fn boundary_map(width: u32, transpose: bool) -> CachedScenario {
        let mut bits = BitGrid::new(GridSize::new(width, 5), false);
        for x in [62, 64, 127, 129] {
            bits.set(Cell::new(x, 0), true);
        }
        for x in [63, 65, 128] {
            bits.set(Cell::new(x, 4), true);
        }
        for x in [66, 130] {
            bits.set(Cell::new(x, 2), true);
        }
        if transpose {
            bits = bits.transposed();
        }
        CachedScenario::from_bits(bits).unwrap()
    }

    #[test]
    fn jumps_across_word_boundaries_and_map_edges_stay_exact() {
        let mut pf = Pathfinder::new();
        for width in [62, 63, 64, 65, 66, 67, 127, 128, 129, 130, 131, 200, 300] {
            for transpose in [false, true] {
                let map = boundary_map(width, transpose);
                let size = map.size();
                let last = Cell::new(size.width as i32 - 1, size.height as i32 - 1);
                for y in 0..5 {
                    for (a, b) in [
                        (Cell::new(0, y), Cell::new(last.x, 4 - y)),
                        (Cell::new(last.x, y), Cell::new(0, y)),
                        (Cell::new(63, y), Cell::new(last.x, 0)),
                        (Cell::new(last.x, y), Cell::new(64, 1)),
                    ] {
                        let (a, b) = if transpose {
                            (Cell::new(a.y, a.x), Cell::new(b.y, b.x))
                        } else {
                            (a, b)
                        };
                        if size.contains(a) && size.contains(b) {
                            compare(&mut pf, &map, PathQuery::new(a, b));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn wide_map_path_runs_end_to_end() {
        let map = CachedScenario::new(GridSize::new(300, 3)).unwrap();
        let (stats, path) = jps(&map, (0, 0), (299, 2));
        assert!((stats.length - (297.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-6);
        assert_eq!(path.len(), 300);
    }

    #[test]
    fn wide_agents_use_only_gaps_they_fit_through() {
        let map = CachedScenario::from_ascii(
            "
            ..............
            ..............
            ..............
            ####.####...##
            ..............
            ..............
            ..............
            ",
        )
        .unwrap();
        let mut pf = Pathfinder::new();
        let q = PathQuery::new(Cell::new(4, 1), Cell::new(4, 5));
        assert_eq!(compare(&mut pf, &map, q).unwrap().length, 4.0);
        let wide = compare(&mut pf, &map, q.diameter(3)).unwrap();
        assert!(wide.length > 8.0);
        pf.find(&map, &q.diameter(3).algorithm(Algorithm::Jps))
            .unwrap();
        assert!(pf.path().contains(&Cell::new(10, 3)));
    }

    #[test]
    fn windows_read_off_line_cells_as_blocked() {
        let line = [0u64, 0xF0];
        assert_eq!(window(&line, 0), 0);
        assert_eq!(window(&line, 60), 0xF << 8);
        assert_eq!(window(&line, -3), 0b111);
        assert_eq!(window(&line, 128), !0);
        assert_eq!(window(&line, 100), !0 << 28);
        assert_eq!(window(&[], 5), !0);
    }
}
