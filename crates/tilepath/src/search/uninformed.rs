//! Uninformed searches: breadth-first, radius-bounded depth-first and iterative deepening.
//!
//! None of them uses path costs to choose what to expand next. They exist as teaching
//! references and baselines: BFS is the only one with a guarantee (fewest steps), DFS
//! answers "is there some path inside this square" with a small stack, and IDDFS
//! grows that square until the answer is yes.

use super::pathfinder::Scratch;
use super::query::{PathError, PathQuery};
use crate::grid::{Cell, Connectivity, Direction};
use crate::scenario::Layer;

/// Breadth-first search: the path with the fewest steps (every allowed move counts one),
/// and among those the shortest octile length.
///
/// Cells are expanded level by level from a FIFO queue (`Scratch::queue`); `Scratch::depth`
/// holds each cell's level and `Scratch::g` its best octile cost over paths of that many
/// steps. A cell still waiting in the queue takes a cheaper parent from the level
/// before it, so a straight run is never replaced by an equally short zigzag.
///
/// Complexity: O(n) for the n cells fewer steps away than the goal, plus part of the
/// goal's level (each cell is queued once and looks at 8 neighbours); memory O(map
/// area), reused between queries.
///
/// When to use: unweighted questions ("how many moves away is it?"), a reference for
/// tests, or tiny maps. For shortest length use A* or JPS, which expand far fewer cells.
pub(crate) fn bfs(s: &mut Scratch, layer: &Layer, query: &PathQuery) -> Result<(), PathError> {
    let start_i = s.index(query.start);
    let goal_i = s.index(query.goal);
    let octile = query.connectivity == Connectivity::Octile;
    // Neither the queue nor the path holds more than every cell; reserving that once
    // keeps later queries allocation-free (a no-op once the capacity is there).
    s.queue.reserve(s.size.area());
    s.path.reserve(s.size.area());
    s.open(start_i, 0, u32::MAX);
    s.depth[start_i as usize] = 0;
    s.queue.push_back(start_i);
    while let Some(i) = s.queue.pop_front() {
        if i == goal_i {
            s.build_path(goal_i);
            return Ok(());
        }
        s.close(i);
        s.tick()?;
        let c = s.cell(i);
        let g = s.g(i);
        let depth = s.depth[i as usize] + 1;
        let mut moves = layer.legal_moves(c, octile);
        while moves != 0 {
            let d = Direction::ALL[moves.trailing_zeros() as usize];
            moves &= moves - 1;
            let ni = s.index(c.step(d));
            let ng = g + d.cost();
            if !s.is_seen(ni) {
                s.open(ni, ng, i);
                s.depth[ni as usize] = depth;
                s.queue.push_back(ni);
            } else if !s.is_closed(ni) && s.depth[ni as usize] == depth && ng < s.g(ni) {
                s.relink(ni, ng, i);
            }
        }
    }
    Err(PathError::NotFound {
        expanded: s.expanded,
    })
}

/// Depth-first search bounded by [`PathQuery::radius`]: cells farther than the radius
/// (Chebyshev) from the start are never entered; `None` means the whole map.
///
/// Returns the first path it walks into, which is valid but usually longer than the
/// shortest; see `bounded_dfs` for the visiting order. A goal beyond the radius, or
/// one the walls separate from the start inside the radius square, gives
/// [`PathError::NotFound`].
///
/// Complexity: O(min(map area, (2r + 1)²)) time for radius r, each cell entered at
/// most once; memory O(map area) (stamps, stack), reused between queries.
///
/// When to use: existence questions inside a small area around an agent ("can I get
/// there without leaving this room?"), where a cheap bounded answer beats an optimal path.
pub(crate) fn dfs(s: &mut Scratch, layer: &Layer, query: &PathQuery) -> Result<(), PathError> {
    bounded_dfs(s, layer, query, query.radius.unwrap_or(u32::MAX))
}

/// Iterative-deepening DFS over the radius: runs `bounded_dfs` with radius
/// r₀ = Chebyshev distance from start to goal (no path fits in a smaller square), then
/// doubles the radius after each failed round, capped at the radius that covers the
/// whole map. [`PathQuery::radius`] is ignored.
///
/// Doubling (rather than adding one) keeps the total work within a constant factor
/// of the last round: a round's work is bounded by its square's area, which grows
/// about 4x per round, so the earlier rounds' bounds add up to about a third of the
/// last one's; adding one per round would repeat the work O(r) times. The price is
/// that the last square can be up to twice as wide as needed, which lets the DFS
/// path wander further.
/// The whole-map round explores the start's whole component, which the pathfinder
/// has checked contains the goal, so only a limit can stop the search without a path.
///
/// Complexity: O(min(map area, (4 r)²)) where r is the smallest radius whose square
/// connects start and goal; memory as [`dfs`]. Each round restarts the stamps in O(1).
///
/// When to use: when a path is expected close by but the searched area must stay
/// small and bounded by [`crate::search::Limits`]; otherwise BFS or A* answer faster.
pub(crate) fn iddfs(s: &mut Scratch, layer: &Layer, query: &PathQuery) -> Result<(), PathError> {
    let (w, h) = (s.size.width as i32, s.size.height as i32);
    let start = query.start;
    let whole_map = start
        .x
        .max(w - 1 - start.x)
        .max(start.y)
        .max(h - 1 - start.y) as u32;
    let mut radius = start.chebyshev(query.goal).max(1);
    loop {
        match bounded_dfs(s, layer, query, radius) {
            Err(PathError::NotFound { .. }) if radius < whole_map => {
                radius = radius.saturating_mul(2).min(whole_map);
                s.restart_round();
            }
            outcome => return outcome,
        }
    }
}

/// The visiting order of the DFS from `c`: the `k`-th direction (0..8) by angle to the
/// goal. First the direction nearest the goal vector (sector boundaries at 22.5°, using
/// tan 22.5° ≈ 12/29), then its two neighbours, nearer side first, and so on; last the
/// opposite direction.
#[inline]
fn toward_goal(c: Cell, goal: Cell, k: u8) -> Direction {
    const OFFSETS: [i32; 8] = [0, 1, -1, 2, -2, 3, -3, 4];
    let (dx, dy) = (goal.x - c.x, goal.y - c.y);
    let (ax, ay) = (i64::from(dx.unsigned_abs()), i64::from(dy.unsigned_abs()));
    let ux = if ax * 29 <= ay * 12 { 0 } else { dx.signum() };
    let uy = if ay * 29 <= ax * 12 { 0 } else { dy.signum() };
    let ideal = Direction::from_delta(ux, uy).unwrap_or(Direction::East);
    let (ix, iy) = ideal.delta();
    // Clockwise (positive rotation, with y growing downwards) when the goal lies
    // clockwise of the ideal direction: positive cross product.
    let cross = i64::from(ix) * i64::from(dy) - i64::from(iy) * i64::from(dx);
    let side = if cross < 0 { -1 } else { 1 };
    ideal.rotate(OFFSETS[usize::from(k)] * side)
}

/// The DFS engine: an explicit stack of (cell, next direction index) in `Scratch::stack`,
/// never recursion. Each cell is entered at most once (stamped on entry, closed when
/// its directions are exhausted), so the stack always holds the current simple path
/// from the start, and the parents recorded on entry reproduce it.
///
/// Directions are tried in `toward_goal` order, recomputed from the cell when the
/// search resumes it, so on an open map the DFS walks a straight digital line to the
/// goal, and next to obstacles it takes the free direction nearest the goal's bearing.
fn bounded_dfs(
    s: &mut Scratch,
    layer: &Layer,
    query: &PathQuery,
    radius: u32,
) -> Result<(), PathError> {
    let (start, goal) = (query.start, query.goal);
    if start.chebyshev(goal) > radius {
        return Err(PathError::NotFound {
            expanded: s.expanded,
        });
    }
    let octile = query.connectivity == Connectivity::Octile;
    let start_i = s.index(start);
    let goal_i = s.index(goal);
    s.stack.clear();
    // The stack and the path it becomes hold distinct cells: reserve the map's area once.
    s.stack.reserve(s.size.area());
    s.path.reserve(s.size.area());
    s.tick()?;
    s.open(start_i, 0, u32::MAX);
    s.stack.push((start_i, 0));
    while let Some(&(i, first)) = s.stack.last() {
        let c = s.cell(i);
        let moves = layer.legal_moves(c, octile);
        let mut k = first;
        let mut next = None;
        while k < 8 {
            let d = toward_goal(c, goal, k);
            k += 1;
            if moves & (1 << d as u8) == 0 {
                continue;
            }
            let n = c.step(d);
            let ni = s.index(n);
            if n.chebyshev(start) <= radius && !s.is_seen(ni) {
                next = Some(ni);
                break;
            }
        }
        let top = s.stack.len() - 1;
        s.stack[top].1 = k;
        match next {
            Some(ni) => {
                s.open(ni, s.stack.len() as u64, i);
                if ni == goal_i {
                    s.build_path(goal_i);
                    return Ok(());
                }
                s.tick()?;
                s.stack.push((ni, 0));
            }
            None => {
                s.close(i);
                s.stack.pop();
            }
        }
    }
    Err(PathError::NotFound {
        expanded: s.expanded,
    })
}

#[cfg(test)]
mod tests {
    use crate::grid::{Cell, Connectivity, Cost, DIAGONAL, GridSize, STRAIGHT};
    use crate::scenario::{CachedScenario, Layer, render};
    use crate::search::{
        Algorithm, Limit, Limits, PathError, PathQuery, PathStats, Pathfinder, validate_path,
    };
    use crate::test_support::{free_cell, random_map};
    use proptest::prelude::*;
    use std::collections::VecDeque;

    fn map(text: &str) -> CachedScenario {
        CachedScenario::from_ascii(text).unwrap()
    }

    /// Runs `query`; on success also returns the path.
    fn run(map: &CachedScenario, query: PathQuery) -> Result<(PathStats, Vec<Cell>), PathError> {
        let mut pf = Pathfinder::new();
        pf.find(map, &query)
            .map(|stats| (stats, pf.path().to_vec()))
    }

    /// Asserts that `path` answers `query` by the movement rules, showing the map if not.
    fn assert_valid(map: &CachedScenario, query: &PathQuery, path: &[Cell]) {
        let layer = map.layer(query.diameter).unwrap();
        let check = validate_path(layer, path, query.start, query.goal, query.connectivity);
        assert_eq!(check, Ok(()), "{query:?}\n{}", render(map, path));
    }

    fn steps(path: &[Cell]) -> u32 {
        path.len() as u32 - 1
    }

    /// One move of the rules, written independently of the searches.
    fn can_step(layer: &Layer, a: Cell, b: Cell, conn: Connectivity) -> bool {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let diagonal = dx != 0 && dy != 0;
        a != b
            && dx.abs() <= 1
            && dy.abs() <= 1
            && !(diagonal && conn == Connectivity::Cardinal)
            && !layer.is_blocked(b)
            && !layer.is_blocked(Cell::new(b.x, a.y))
            && !layer.is_blocked(Cell::new(a.x, b.y))
    }

    /// Fewest steps from `start` to `goal` inside the Chebyshev `radius` of the start, and
    /// the least octile cost among paths of that many steps; `None` when there is none.
    /// Steps by plain BFS, then costs pulled level by level from the level before.
    fn oracle(
        layer: &Layer,
        start: Cell,
        goal: Cell,
        conn: Connectivity,
        radius: u32,
    ) -> Option<(u32, Cost)> {
        let size = layer.size();
        let inside = |c: Cell| size.contains(c) && c.chebyshev(start) <= radius;
        let mut dist = vec![u32::MAX; size.area()];
        let mut order = vec![start];
        dist[size.index(start)] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(a) = queue.pop_front() {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let b = Cell::new(a.x + dx, a.y + dy);
                    if inside(b) && can_step(layer, a, b, conn) && dist[size.index(b)] == u32::MAX {
                        dist[size.index(b)] = dist[size.index(a)] + 1;
                        order.push(b);
                        queue.push_back(b);
                    }
                }
            }
        }
        let mut cost = vec![Cost::MAX; size.area()];
        cost[size.index(start)] = 0;
        for &b in &order[1..] {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let a = Cell::new(b.x + dx, b.y + dy);
                    if inside(a)
                        && dist[size.index(a)] != u32::MAX
                        && can_step(layer, a, b, conn)
                        && dist[size.index(a)] + 1 == dist[size.index(b)]
                    {
                        let step = if dx != 0 && dy != 0 {
                            DIAGONAL
                        } else {
                            STRAIGHT
                        };
                        let c = cost[size.index(a)] + step;
                        cost[size.index(b)] = cost[size.index(b)].min(c);
                    }
                }
            }
        }
        let g = size.index(goal);
        (dist[g] != u32::MAX).then(|| (dist[g], cost[g]))
    }

    #[test]
    fn bfs_takes_chebyshev_steps_on_an_open_octile_map() {
        let open = CachedScenario::new(GridSize::new(12, 9)).unwrap();
        for goal in [(11, 0), (11, 8), (3, 7), (0, 5), (7, 2)] {
            let q = PathQuery::new(Cell::new(1, 1), goal.into()).algorithm(Algorithm::Bfs);
            let (stats, path) = run(&open, q).unwrap();
            assert_valid(&open, &q, &path);
            assert_eq!(steps(&path), q.start.chebyshev(q.goal));
            assert_eq!(stats.cost, Connectivity::Octile.heuristic(q.start, q.goal));
        }
    }

    #[test]
    fn bfs_takes_manhattan_steps_on_an_open_cardinal_map() {
        let open = CachedScenario::new(GridSize::new(12, 9)).unwrap();
        for goal in [(11, 0), (11, 8), (3, 7), (0, 5), (7, 2)] {
            let q = PathQuery::new(Cell::new(1, 1), goal.into())
                .algorithm(Algorithm::Bfs)
                .connectivity(Connectivity::Cardinal);
            let (_, path) = run(&open, q).unwrap();
            assert_valid(&open, &q, &path);
            let manhattan = (q.goal.x - q.start.x).abs() + (q.goal.y - q.start.y).abs();
            assert_eq!(steps(&path), manhattan as u32);
        }
    }

    #[test]
    fn bfs_walks_a_straight_row_rather_than_an_equally_short_zigzag() {
        let open = CachedScenario::new(GridSize::new(9, 5)).unwrap();
        let q = PathQuery::new(Cell::new(0, 2), Cell::new(8, 2)).algorithm(Algorithm::Bfs);
        let (stats, path) = run(&open, q).unwrap();
        assert_eq!(stats.cost, 8 * STRAIGHT);
        assert!(path.iter().all(|c| c.y == 2), "{}", render(&open, &path));
    }

    #[test]
    fn bfs_goes_around_a_wall_without_cutting_its_corners() {
        let m = map("
            ......
            .####.
            ......
        ");
        let q = PathQuery::new(Cell::new(0, 1), Cell::new(5, 1)).algorithm(Algorithm::Bfs);
        let (stats, path) = run(&m, q).unwrap();
        assert_valid(&m, &q, &path);
        assert_eq!(steps(&path), 7);
        assert_eq!(stats.cost, 7 * STRAIGHT);
    }

    #[test]
    fn dfs_walks_straight_to_the_goal_on_an_open_map() {
        let open = CachedScenario::new(GridSize::new(30, 20)).unwrap();
        for goal in [(29, 19), (25, 4), (2, 17), (14, 0), (0, 12)] {
            let q = PathQuery::new(Cell::new(14, 10), goal.into()).algorithm(Algorithm::Dfs);
            let (_, path) = run(&open, q).unwrap();
            assert_valid(&open, &q, &path);
            assert_eq!(
                steps(&path),
                q.start.chebyshev(q.goal),
                "{}",
                render(&open, &path)
            );
        }
    }

    #[test]
    fn dfs_never_enters_cells_beyond_its_radius() {
        let m = map("
            ..........
            ..........
            ...####...
            ...#..#...
            ...#......
            ...######.
            ..........
        ");
        let q = PathQuery::new(Cell::new(4, 3), Cell::new(1, 3))
            .algorithm(Algorithm::Dfs)
            .radius(Some(3));
        let mut pf = Pathfinder::new();
        pf.find(&m, &q).unwrap();
        assert_valid(&m, &q, pf.path());
        let outside: Vec<Cell> = pf.explored().filter(|c| c.chebyshev(q.start) > 3).collect();
        assert!(
            outside.is_empty(),
            "entered {outside:?}\n{}",
            render(&m, pf.path())
        );
    }

    #[test]
    fn dfs_reports_not_found_when_the_goal_lies_beyond_its_radius() {
        let open = CachedScenario::new(GridSize::new(10, 10)).unwrap();
        let q = PathQuery::new(Cell::new(0, 0), Cell::new(5, 2))
            .algorithm(Algorithm::Dfs)
            .radius(Some(4));
        assert!(matches!(run(&open, q), Err(PathError::NotFound { .. })));
        assert!(run(&open, q.radius(Some(5))).is_ok());
    }

    #[test]
    fn dfs_exhausts_its_square_when_the_only_route_leaves_it() {
        let m = map("
            ...#...
            ...#...
            ...#...
            ...#...
            .......
        ");
        let q = PathQuery::new(Cell::new(2, 0), Cell::new(4, 0))
            .algorithm(Algorithm::Dfs)
            .radius(Some(2));
        // Inside the radius only the 3x3 block left of the wall is reachable.
        assert_eq!(run(&m, q), Err(PathError::NotFound { expanded: 9 }));
        let wide = q.radius(Some(4));
        let (_, path) = run(&m, wide).unwrap();
        assert_valid(&m, &wide, &path);
    }

    const MAZE: &str = "
        ..#.....#....
        ..#.###.#.##.
        ..#...#.#..#.
        .####.#.##.#.
        ......#....#.
        #######.####.
        .............
    ";

    #[test]
    fn iddfs_finds_a_path_through_a_maze() {
        let m = map(MAZE);
        for conn in [Connectivity::Octile, Connectivity::Cardinal] {
            let q = PathQuery::new(Cell::new(0, 0), Cell::new(0, 6))
                .algorithm(Algorithm::Iddfs)
                .connectivity(conn);
            let (_, path) = run(&m, q).unwrap();
            assert_valid(&m, &q, &path);
        }
    }

    #[test]
    fn iddfs_needs_one_round_on_an_open_map() {
        let open = CachedScenario::new(GridSize::new(20, 20)).unwrap();
        let q = PathQuery::new(Cell::new(3, 4), Cell::new(15, 9)).algorithm(Algorithm::Iddfs);
        let (stats, path) = run(&open, q).unwrap();
        assert_eq!(steps(&path), 12);
        // One straight walk: the start plus every cell before the goal.
        assert_eq!(stats.expanded, 12);
    }

    #[test]
    fn iddfs_stops_at_the_expansion_limit() {
        let m = map(MAZE);
        let q = PathQuery::new(Cell::new(0, 0), Cell::new(0, 6))
            .algorithm(Algorithm::Iddfs)
            .limits(Limits {
                max_expanded: 10,
                time_budget: None,
            });
        assert_eq!(
            run(&m, q),
            Err(PathError::LimitReached {
                limit: Limit::Expanded,
                expanded: 10
            })
        );
    }

    #[test]
    fn searches_reuse_one_pathfinder_across_algorithms() {
        let m = map(MAZE);
        let mut pf = Pathfinder::new();
        let q = PathQuery::new(Cell::new(0, 0), Cell::new(12, 2));
        for a in [
            Algorithm::Dfs,
            Algorithm::Bfs,
            Algorithm::Iddfs,
            Algorithm::Bfs,
        ] {
            let q = q.algorithm(a);
            pf.find(&m, &q).unwrap();
            assert_valid(&m, &q, pf.path());
        }
    }

    /// The map with the path, or with just the start and goal when there is none.
    fn drawing(m: &CachedScenario, q: &PathQuery, path: &[Cell]) -> String {
        if path.is_empty() {
            render(m, &[q.start, q.goal])
        } else {
            render(m, path)
        }
    }

    /// Checks BFS, DFS (unbounded and with `radius`) and IDDFS on one query against the oracle.
    fn check_query(pf: &mut Pathfinder, m: &CachedScenario, q: PathQuery, radius: u32) {
        let layer = m.layer(q.diameter).unwrap();
        let best = oracle(layer, q.start, q.goal, q.connectivity, u32::MAX);
        for algorithm in [Algorithm::Bfs, Algorithm::Dfs, Algorithm::Iddfs] {
            let q = q.algorithm(algorithm);
            let outcome = pf.find(m, &q);
            let drawing = drawing(m, &q, pf.path());
            match (best, outcome) {
                (Some((steps_best, cost_best)), Ok(stats)) => {
                    assert_valid(m, &q, pf.path());
                    let taken = steps(pf.path());
                    if algorithm == Algorithm::Bfs {
                        assert_eq!(taken, steps_best, "{q:?}\n{drawing}");
                        assert_eq!(stats.cost, cost_best, "{q:?}\n{drawing}");
                    } else {
                        assert!(taken >= steps_best, "{q:?}\n{drawing}");
                    }
                }
                (None, Err(PathError::Unreachable)) => {}
                (best, outcome) => {
                    panic!("oracle {best:?}, search {outcome:?} for {q:?}\n{drawing}")
                }
            }
        }
        let bounded = q.algorithm(Algorithm::Dfs).radius(Some(radius));
        let inside = oracle(layer, q.start, q.goal, q.connectivity, radius);
        let outcome = pf.find(m, &bounded);
        let drawing = drawing(m, &bounded, pf.path());
        match (inside, outcome) {
            (Some((steps_best, _)), Ok(_)) => {
                assert_valid(m, &bounded, pf.path());
                assert!(steps(pf.path()) >= steps_best);
            }
            (None, Err(PathError::NotFound { .. })) => {}
            // Rejected before searching: nothing was explored for this query.
            (None, Err(PathError::Unreachable)) => return,
            (inside, outcome) => {
                panic!("oracle {inside:?}, search {outcome:?} for {bounded:?}\n{drawing}")
            }
        }
        let strays: Vec<Cell> = pf
            .explored()
            .filter(|c| c.chebyshev(q.start) > radius)
            .collect();
        assert!(
            strays.is_empty(),
            "{bounded:?} entered {strays:?}\n{drawing}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn uninformed_searches_agree_with_the_oracle_on_random_grids(
            width in 1u32..=30,
            height in 1u32..=30,
            percent in 0u64..=45,
            seed in any::<u64>(),
            picks in proptest::collection::vec((any::<u64>(), any::<u64>(), 0u32..=30), 3),
        ) {
            let m = random_map(width, height, percent, seed);
            let mut pf = Pathfinder::new();
            for diameter in [1, 3] {
                let layer = m.layer(diameter).unwrap();
                for conn in [Connectivity::Octile, Connectivity::Cardinal] {
                    for &(a, b, radius) in &picks {
                        let (Some(start), Some(goal)) = (free_cell(layer, a), free_cell(layer, b))
                        else {
                            continue;
                        };
                        let q = PathQuery::new(start, goal).diameter(diameter).connectivity(conn);
                        check_query(&mut pf, &m, q, radius);
                    }
                }
            }
        }
    }
}
