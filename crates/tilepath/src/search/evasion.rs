//! Evasion: walk the straight line to the goal and go around obstacles along their contours.
//!
//! The idea: the agent heads straight for the goal along a 4-connected digital line
//! (a Bresenham line that never steps diagonally). Where the next line cell is blocked,
//! two wall followers leave the last free cell, one keeping the obstacle on its left
//! hand and one on its right. Each follows the obstacle's contour until it stands on a
//! free cell of the line *beyond* the collision, wherever the contour first meets the
//! line again. The side with the smaller "detour plus rest of the line" wins, the walk
//! resumes from there, and the next collision is handled the same way.
//!
//! Rejoining only beyond the collision makes hollow obstacles and nested shapes
//! harmless: a follower stays on the outside of a ring the line crosses twice and
//! rejoins past the second crossing, never inside the hollow. Obstacles are followed as
//! 8-connected blocked sets (diagonal touches count as one wall) and the map edge
//! counts as a wall, which matches the 4-connected free components of
//! [`crate::scenario::Components`]: the contour around the obstacle that the line hits
//! always crosses the line again further on when the goal is reachable, so on a map
//! where the pathfinder's component check passed, evasion always finds a path. A
//! follower that comes back to its first wall edge without meeting the line proves the
//! contrary; that can only happen when the search is run on a start and goal that are
//! not connected, and it is answered with [`PathError::NotFound`].
//!
//! The trace yields straight steps; for [`Connectivity::Octile`] two perpendicular
//! steps are then merged into one diagonal wherever that cuts no corner. Cells entered
//! twice (a follower going into a dead-end pocket and out again, two detours
//! overlapping) are cut out as loops. The finished path is checked against the
//! movement rules before it is returned.
//!
//! Complexity: O(line length + traced contour length), with both followers advancing
//! in turn and the loser stopped as soon as it cannot beat the winner. Nothing is
//! sorted, no open list is kept. Memory: the line is computed, not stored; the only
//! buffers are the cells of the two current traces, reused between queries, plus the
//! shared per-cell stamps (traced cells are stamped, so [`crate::search::Pathfinder::explored`]
//! shows them).
//!
//! When to use: open fields with few, large obstacles (terrain, islands, buildings),
//! where it touches a tiny fraction of the cells A* would and its paths are close to
//! shortest. When not to: mazes, rooms and cluttered maps, where wall following goes
//! down every corridor it meets and paths get long; use A* or JPS there.
//!
//! ```
//! use tilepath::prelude::*;
//!
//! let map = CachedScenario::from_ascii("
//!     ..........
//!     ..........
//!     ....##....
//!     ....##....
//!     ....##....
//!     ....##....
//!     ..........
//! ").unwrap();
//! let mut pf = Pathfinder::new();
//! let query = PathQuery::new(Cell::new(0, 2), Cell::new(9, 2)).algorithm(Algorithm::Evasion);
//! let stats = pf.find(&map, &query).unwrap();
//! // Round the top of the block: it is nearer the line than the bottom.
//! assert!(pf.path().iter().all(|c| c.y <= 2));
//! assert!(stats.length < 12.0);
//! ```

use super::pathfinder::Scratch;
use super::query::{PathError, PathQuery};
use crate::grid::{Cell, Connectivity};
use crate::scenario::Layer;

/// The four straight steps, clockwise on screen (y grows downwards): east, south, west, north.
const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Per-pathfinder evasion buffers: the cells entered by the left-hand and the
/// right-hand follower at the current collision. Cleared, never shrunk.
#[derive(Debug, Default)]
pub(crate) struct EvasionScratch {
    traces: [Vec<Cell>; 2],
}

#[inline]
fn offset(c: Cell, dir: usize) -> Cell {
    let (dx, dy) = STEPS[dir];
    Cell::new(c.x + dx, c.y + dy)
}

/// The 4-connected digital line from `start` to the goal. Cell `k` (0 = start,
/// [`Line::len`] = goal) is the cell of the anti-diagonal `|x - x0| + |y - y0| = k`
/// nearest the ideal segment, so the line is computed in O(1) per cell and a cell's
/// position on it is found in O(1), without storing it.
#[derive(Clone, Copy, Debug)]
struct Line {
    start: Cell,
    sx: i32,
    sy: i32,
    dx: i64,
    dy: i64,
}

impl Line {
    fn new(start: Cell, goal: Cell) -> Self {
        let sign = |d: i32| if d < 0 { -1 } else { 1 };
        Self {
            start,
            sx: sign(goal.x - start.x),
            sy: sign(goal.y - start.y),
            dx: i64::from(goal.x.abs_diff(start.x)),
            dy: i64::from(goal.y.abs_diff(start.y)),
        }
    }

    /// Index of the goal: the number of straight steps.
    #[inline]
    fn len(&self) -> u32 {
        (self.dx + self.dy) as u32
    }

    /// Steps along x among the first `k`: `k * dx / len` rounded half up.
    #[inline]
    fn x_steps(&self, k: i64) -> i64 {
        let n = self.dx + self.dy;
        if n == 0 {
            0
        } else {
            (2 * k * self.dx + n) / (2 * n)
        }
    }

    /// Cell `k` of the line.
    #[inline]
    fn cell(&self, k: u32) -> Cell {
        let k = i64::from(k);
        let i = self.x_steps(k);
        Cell::new(
            self.start.x + self.sx * i as i32,
            self.start.y + self.sy * (k - i) as i32,
        )
    }

    /// Position of `c` on the line, if it is a line cell.
    #[inline]
    fn index_of(&self, c: Cell) -> Option<u32> {
        let i = i64::from((c.x - self.start.x) * self.sx);
        let j = i64::from((c.y - self.start.y) * self.sy);
        if i < 0 || j < 0 || i > self.dx || j > self.dy {
            return None;
        }
        (self.x_steps(i + j) == i).then_some((i + j) as u32)
    }
}

/// Which hand a follower keeps on the wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hand {
    Left,
    Right,
}

impl Hand {
    /// Quarter turns clockwise from the wall direction to the heading.
    #[inline]
    fn turn(self) -> usize {
        match self {
            Hand::Left => 1,
            Hand::Right => 3,
        }
    }
}

/// What one follower step ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Still following the wall.
    Moved,
    /// Stands on line cell `k`, beyond the collision.
    Rejoined(u32),
    /// Back on its first wall edge: the contour never meets the line again.
    Closed,
}

/// A wall follower. Its state is a wall edge: the free cell it stands on and the
/// direction of the blocked neighbour its hand touches. Following edges (rather than
/// cells) makes the walk a permutation of wall edges, so it returns to its first edge
/// after exactly one lap of the contour.
#[derive(Clone, Copy, Debug)]
struct Follower {
    hand: Hand,
    cell: Cell,
    wall: usize,
    origin: (Cell, usize),
    moved: u64,
    edges: u64,
    done: bool,
}

impl Follower {
    fn new(hand: Hand, cell: Cell, wall: usize) -> Self {
        Self {
            hand,
            cell,
            wall,
            origin: (cell, wall),
            moved: 0,
            edges: 0,
            done: false,
        }
    }

    /// Moves to the next wall edge: turn away from a wall ahead, go straight along a
    /// wall, or wrap round the wall's corner (two cells). Entered cells are appended to
    /// `out` and stamped seen.
    fn step(
        &mut self,
        s: &mut Scratch,
        layer: &Layer,
        line: &Line,
        after: u32,
        out: &mut Vec<Cell>,
    ) -> Step {
        self.edges += 1;
        let turn = self.hand.turn();
        let heading = (self.wall + turn) & 3;
        let front = offset(self.cell, heading);
        if layer.is_blocked(front) {
            self.wall = heading;
        } else {
            if let Some(k) = self.enter(front, s, line, after, out) {
                return Step::Rejoined(k);
            }
            let corner = offset(front, self.wall);
            if !layer.is_blocked(corner) {
                if let Some(k) = self.enter(corner, s, line, after, out) {
                    return Step::Rejoined(k);
                }
                self.wall = (self.wall + 4 - turn) & 3;
            }
        }
        if (self.cell, self.wall) == self.origin {
            Step::Closed
        } else {
            Step::Moved
        }
    }

    #[inline]
    fn enter(
        &mut self,
        c: Cell,
        s: &mut Scratch,
        line: &Line,
        after: u32,
        out: &mut Vec<Cell>,
    ) -> Option<u32> {
        self.cell = c;
        self.moved += 1;
        out.push(c);
        let i = s.index(c);
        if !s.is_seen(i) {
            s.open(i, 0, u32::MAX);
        }
        line.index_of(c).filter(|&k| k > after)
    }
}

/// Runs evasion from `query.start` to `query.goal` (both free). On success `s.path`
/// holds a valid cell path; on failure it is empty.
pub(crate) fn search(s: &mut Scratch, layer: &Layer, query: &PathQuery) -> Result<(), PathError> {
    let mut traces = std::mem::take(&mut s.evasion.traces);
    // A contour walk visits a cell at most once per side it borders, so twice the area
    // bounds a trace: reserving it on warm-up keeps later queries allocation-free.
    let bound = 2 * s.size.area();
    for t in &mut traces {
        t.reserve(bound.saturating_sub(t.len()));
    }
    let result = walk(s, layer, query, &mut traces);
    s.evasion.traces = traces;
    if result.is_err() {
        s.path.clear();
    }
    result
}

fn not_found(s: &Scratch) -> PathError {
    PathError::NotFound {
        expanded: s.expanded,
    }
}

/// Walks the line, evading every obstacle on it, then merges corners and validates.
fn walk(
    s: &mut Scratch,
    layer: &Layer,
    query: &PathQuery,
    traces: &mut [Vec<Cell>; 2],
) -> Result<(), PathError> {
    let line = Line::new(query.start, query.goal);
    let end = line.len();
    s.path.clear();
    push_cell(s, query.start);
    let mut at = 0;
    while at < end {
        s.tick()?;
        let next = line.cell(at + 1);
        if !layer.is_blocked(next) {
            push_cell(s, next);
            at += 1;
            continue;
        }
        let (side, rejoin) = evade(s, layer, &line, at, next, traces)?;
        for &c in &traces[side] {
            push_cell(s, c);
        }
        at = rejoin;
    }
    if query.connectivity == Connectivity::Octile {
        merge_diagonals(layer, &mut s.path);
    }
    if is_valid(layer, &s.path, query) {
        Ok(())
    } else {
        Err(not_found(s))
    }
}

/// Follows the obstacle containing `blocked` both ways from line cell `at` and returns
/// the winning side (index into `traces`) with the line index where it rejoins.
fn evade(
    s: &mut Scratch,
    layer: &Layer,
    line: &Line,
    at: u32,
    blocked: Cell,
    traces: &mut [Vec<Cell>; 2],
) -> Result<(usize, u32), PathError> {
    let from = line.cell(at);
    let wall = STEPS
        .iter()
        .position(|&(dx, dy)| Cell::new(from.x + dx, from.y + dy) == blocked)
        .ok_or_else(|| not_found(s))?;
    let mut followers = [
        Follower::new(Hand::Left, from, wall),
        Follower::new(Hand::Right, from, wall),
    ];
    traces[0].clear();
    traces[1].clear();
    // One lap visits each wall edge once; more steps than edges would mean a bug.
    let lap_bound = 4 * s.size.area() as u64 + 4;
    let remaining = |k: u32| u64::from(line.len() - k);
    let mut best: Option<(u64, usize, u32)> = None;
    while followers.iter().any(|f| !f.done) {
        for (side, f) in followers.iter_mut().enumerate() {
            if f.done {
                continue;
            }
            if best.is_some_and(|(score, _, _)| f.moved >= score) {
                f.done = true;
                continue;
            }
            s.tick()?;
            match f.step(s, layer, line, at, &mut traces[side]) {
                Step::Moved if f.edges <= lap_bound => {}
                Step::Moved | Step::Closed => return Err(not_found(s)),
                Step::Rejoined(k) => {
                    f.done = true;
                    let score = f.moved + remaining(k);
                    if best.is_none_or(|(b, _, _)| score < b) {
                        best = Some((score, side, k));
                    }
                }
            }
        }
    }
    best.map(|(_, side, k)| (side, k))
        .ok_or_else(|| not_found(s))
}

/// Appends `c` to the path, or cuts the path back to `c` when it is already on it
/// (removing the loop). Path cells are stamped closed with their position in `parent`.
fn push_cell(s: &mut Scratch, c: Cell) {
    let i = s.index(c);
    if s.is_closed(i) {
        let pos = s.parent(i) as usize;
        if s.path.get(pos) == Some(&c) {
            s.path.truncate(pos + 1);
            return;
        }
    }
    s.set_parent(i, s.path.len() as u32);
    s.close(i);
    s.path.push(c);
}

/// Replaces two perpendicular straight steps by one diagonal where the other corner
/// cell is free too (no corner cutting), in place.
fn merge_diagonals(layer: &Layer, path: &mut Vec<Cell>) {
    let mut len = 0;
    for r in 0..path.len() {
        let c = path[r];
        if len >= 2 {
            let (a, b) = (path[len - 2], path[len - 1]);
            let straight = a.x == b.x || a.y == b.y;
            if straight && a.x != c.x && a.y != c.y && a.is_adjacent(c) {
                let other = Cell::new(a.x + c.x - b.x, a.y + c.y - b.y);
                if !layer.is_blocked(other) {
                    path[len - 1] = c;
                    continue;
                }
            }
        }
        path[len] = c;
        len += 1;
    }
    path.truncate(len);
}

/// True when `path` runs from the query's start to its goal by legal moves on free cells.
fn is_valid(layer: &Layer, path: &[Cell], query: &PathQuery) -> bool {
    let ends = path.first() == Some(&query.start) && path.last() == Some(&query.goal);
    ends && path.iter().all(|&c| !layer.is_blocked(c))
        && path.windows(2).all(|w| {
            let (a, b) = (w[0], w[1]);
            let diagonal = a.x != b.x && a.y != b.y;
            a.is_adjacent(b)
                && (!diagonal
                    || (query.connectivity == Connectivity::Octile
                        && !layer.is_blocked(Cell::new(a.x, b.y))
                        && !layer.is_blocked(Cell::new(b.x, a.y))))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::GridSize;
    use crate::prelude::*;
    use crate::scenario::{BitGrid, render};
    use proptest::prelude::*;

    fn map(text: &str) -> CachedScenario {
        CachedScenario::from_ascii(text).unwrap()
    }

    fn evasion(start: (i32, i32), goal: (i32, i32)) -> PathQuery {
        PathQuery::new(start.into(), goal.into()).algorithm(Algorithm::Evasion)
    }

    /// Runs the query and checks the returned path against the movement rules.
    fn run(map: &CachedScenario, query: &PathQuery) -> (Result<PathStats, PathError>, Vec<Cell>) {
        let mut pf = Pathfinder::new();
        let result = pf.find(map, query);
        let path = pf.path().to_vec();
        if result.is_ok() {
            let layer = map.layer(query.diameter).unwrap();
            assert!(
                is_valid(layer, &path, query),
                "invalid path\n{}",
                render(map, &path)
            );
        }
        (result, path)
    }

    fn optimal_length(map: &CachedScenario, query: &PathQuery) -> f64 {
        let mut pf = Pathfinder::new();
        pf.find(map, &query.algorithm(Algorithm::AStar))
            .unwrap()
            .length
    }

    #[test]
    fn line_is_4_connected_from_start_to_goal_and_indexes_its_own_cells() {
        for goal in [(7, 3), (-5, 2), (0, -4), (3, 0), (-6, -6), (1, -9)] {
            let line = Line::new(Cell::new(2, 1), Cell::new(2 + goal.0, 1 + goal.1));
            assert_eq!(line.cell(0), Cell::new(2, 1));
            assert_eq!(line.cell(line.len()), Cell::new(2 + goal.0, 1 + goal.1));
            for k in 0..=line.len() {
                let c = line.cell(k);
                assert_eq!(line.index_of(c), Some(k));
                if k > 0 {
                    let p = line.cell(k - 1);
                    assert_eq!((c.x - p.x).abs() + (c.y - p.y).abs(), 1);
                }
            }
        }
    }

    #[test]
    fn open_field_follows_the_straight_line() {
        let m = CachedScenario::new(GridSize::new(12, 12)).unwrap();
        let (r, path) = run(&m, &evasion((0, 5), (11, 5)));
        assert_eq!(r.unwrap().length, 11.0);
        assert!(path.iter().all(|c| c.y == 5));
        let (r, path) = run(&m, &evasion((1, 1), (9, 9)));
        assert!((r.unwrap().length - 8.0 * std::f64::consts::SQRT_2).abs() < 1e-6);
        assert!(path.iter().all(|c| c.x == c.y));
        let q = evasion((0, 0), (11, 4));
        let (r, _) = run(&m, &q);
        assert!((r.unwrap().length - optimal_length(&m, &q)).abs() < 1e-9);
    }

    #[test]
    fn big_block_is_passed_on_its_shorter_side() {
        let m = map("
            ............
            ............
            ....####....
            ....####....
            ....####....
            ....####....
            ....####....
            ....####....
            ............
        ");
        let q = evasion((0, 3), (11, 3));
        let (r, path) = run(&m, &q);
        assert!(path.iter().all(|c| c.y <= 3), "{}", render(&m, &path));
        // Hugging the wall costs at most the two corners a shortest path cuts diagonally.
        assert!(r.unwrap().length <= optimal_length(&m, &q) + 2.0);
        let (_, path) = run(&m, &evasion((0, 6), (11, 6)));
        assert!(path.iter().all(|c| c.y >= 6), "{}", render(&m, &path));
    }

    #[test]
    fn hollow_obstacle_is_passed_outside_never_entering_the_hollow() {
        let m = map("
            ................
            ...#######......
            ...#.....#......
            ...#.....#......
            ...#.....#......
            ...#######......
            ................
        ");
        let (r, path) = run(&m, &evasion((0, 3), (14, 3)));
        assert!(r.is_ok());
        let inside = |c: &Cell| (4..=8).contains(&c.x) && (2..=4).contains(&c.y);
        assert!(!path.iter().any(inside), "{}", render(&m, &path));
    }

    #[test]
    fn start_inside_a_u_trap_climbs_out_and_round() {
        let m = map("
            ...........
            .#.......#.
            .#.......#.
            .#.......#.
            .#########.
            ...........
            ...........
        ");
        let q = evasion((5, 2), (5, 6));
        let (r, path) = run(&m, &q);
        assert!(r.is_ok(), "{r:?}");
        let len = r.unwrap().length;
        assert!(len <= 2.0 * optimal_length(&m, &q), "{}", render(&m, &path));
    }

    #[test]
    fn goal_in_a_room_with_a_door_on_the_far_side_is_reached() {
        let m = map("
            ..............
            ......#####...
            ......#...#...
            ......#.......
            ......#...#...
            ......#####...
            ..............
        ");
        let (r, path) = run(&m, &evasion((0, 3), (8, 3)));
        assert!(r.is_ok(), "{r:?}");
        assert!(path.contains(&Cell::new(10, 3)), "{}", render(&m, &path));
    }

    #[test]
    fn sealed_goal_is_reported_not_found_never_an_invalid_path() {
        let m = map("
            ............
            ...#####....
            ...#...#....
            ...#...#....
            ...#####....
            ............
        ");
        let q = evasion((0, 2), (5, 2));
        let (r, path) = run(&m, &q);
        assert_eq!(r, Err(PathError::Unreachable));
        assert!(path.is_empty());
        // Run directly, past the component check: the follower laps the wall and gives up.
        let layer = m.layer(1).unwrap();
        let mut s = Scratch::default();
        s.begin(m.size(), &q);
        let direct = search(&mut s, layer, &q);
        assert!(
            matches!(direct, Err(PathError::NotFound { .. })),
            "{direct:?}"
        );
        assert!(s.path.is_empty());
    }

    #[test]
    fn diameter_3_agent_keeps_its_footprint_clear() {
        let m = map("
            ..................
            ..................
            ..................
            .......##.........
            .......####.......
            .......##.........
            ..................
            ..................
            ..................
        ");
        let q = evasion((2, 4), (15, 4)).diameter(3);
        let (r, path) = run(&m, &q);
        assert!(r.is_ok(), "{r:?}");
        for c in &path {
            assert!(!m.is_blocked(*c, 3), "{c}\n{}", render(&m, &path));
        }
    }

    #[test]
    fn cardinal_query_gets_straight_steps_only() {
        let m = map("
            ..........
            ..........
            ....###...
            ....###...
            ..........
        ");
        let q = evasion((0, 0), (9, 4)).connectivity(Connectivity::Cardinal);
        let (r, path) = run(&m, &q);
        assert!(r.is_ok());
        assert!(
            path.windows(2)
                .all(|w| w[0].x == w[1].x || w[0].y == w[1].y)
        );
    }

    #[test]
    fn traced_cells_of_both_sides_show_as_explored() {
        let m = map("
            ..........
            ..........
            ....##....
            ....##....
            ....##....
            ..........
            ..........
        ");
        let mut pf = Pathfinder::new();
        pf.find(&m, &evasion((0, 3), (9, 3))).unwrap();
        let explored: Vec<Cell> = pf.explored().collect();
        assert!(pf.path().iter().all(|c| explored.contains(c)));
        assert!(explored.iter().any(|c| c.y < 2) && explored.iter().any(|c| c.y > 4));
    }

    #[test]
    fn expansion_limit_stops_the_trace() {
        let m = map("
            ..........
            ....##....
            ....##....
            ....##....
            ..........
        ");
        let q = evasion((0, 2), (9, 2)).limits(Limits {
            max_expanded: 5,
            time_budget: None,
        });
        let (r, path) = run(&m, &q);
        assert!(matches!(r, Err(PathError::LimitReached { .. })), "{r:?}");
        assert!(path.is_empty());
    }

    #[test]
    fn repeated_queries_reuse_the_trace_buffers() {
        let m = map("
            ..........
            ....##....
            ....##....
            ....##....
            ..........
        ");
        let q = evasion((0, 2), (9, 2));
        let layer = m.layer(1).unwrap();
        let mut s = Scratch::default();
        s.begin(m.size(), &q);
        search(&mut s, layer, &q).unwrap();
        let first = s.path.clone();
        let buffers = |s: &Scratch| {
            let [a, b] = &s.evasion.traces;
            (
                a.as_ptr(),
                a.capacity(),
                b.as_ptr(),
                b.capacity(),
                s.path.as_ptr(),
            )
        };
        let before = buffers(&s);
        s.begin(m.size(), &q);
        search(&mut s, layer, &q).unwrap();
        assert_eq!(buffers(&s), before);
        assert_eq!(s.path, first);
    }

    fn grid_and_cells() -> impl Strategy<Value = (GridSize, Vec<bool>, u32, u32, u32, bool)> {
        (1u32..=30, 1u32..=30, 0u32..=45).prop_flat_map(|(w, h, pct)| {
            let n = (w * h) as usize;
            (
                Just(GridSize::new(w, h)),
                prop::collection::vec(prop::bool::weighted(f64::from(pct) / 100.0), n),
                any::<u32>(),
                any::<u32>(),
                prop::sample::select(vec![1u32, 3]),
                any::<bool>(),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn random_grids_give_valid_paths_and_never_give_up_on_connected_cells(
            (size, walls, a, b, diameter, cardinal) in grid_and_cells()
        ) {
            let mut bits = BitGrid::new(size, false);
            for (i, &w) in walls.iter().enumerate() {
                if w {
                    bits.set(size.cell(i), true);
                }
            }
            let m = CachedScenario::from_bits(bits).unwrap();
            let layer = m.layer(diameter).unwrap();
            let free: Vec<Cell> = (0..size.area()).map(|i| size.cell(i)).filter(|&c| !layer.is_blocked(c)).collect();
            if free.is_empty() {
                return Ok(());
            }
            let start = free[a as usize % free.len()];
            let goal = free[b as usize % free.len()];
            let connectivity = if cardinal { Connectivity::Cardinal } else { Connectivity::Octile };
            let q = PathQuery::new(start, goal).algorithm(Algorithm::Evasion).diameter(diameter).connectivity(connectivity);
            let mut pf = Pathfinder::new();
            match pf.find(&m, &q) {
                Ok(stats) => {
                    let path = pf.path();
                    prop_assert!(is_valid(layer, path, &q), "invalid path {start} -> {goal}\n{}", render(&m, path));
                    prop_assert!(stats.length + 1e-9 >= optimal_length(&m, &q));
                }
                Err(PathError::Unreachable) => prop_assert!(!layer.components().connected(start, goal)),
                Err(e) => prop_assert!(false, "{e:?} {start} -> {goal}\n{}", render(&m, &[start, goal])),
            }
            // A tight limit may stop it, but never makes it return a bad path.
            let limited = q.limits(Limits { max_expanded: 20, time_budget: None });
            match pf.find(&m, &limited) {
                Ok(_) => prop_assert!(is_valid(layer, pf.path(), &q), "{}", render(&m, pf.path())),
                Err(e) => prop_assert!(matches!(e, PathError::LimitReached { .. } | PathError::Unreachable), "{e:?}"),
            }
        }
    }
}
