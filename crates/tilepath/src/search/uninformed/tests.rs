//! BFS, DFS and IDDFS against a level-by-level BFS oracle, on drawn mazes and random grids.

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
    let check = validate_path(
        layer,
        path,
        query.start,
        query.goal,
        query.options.connectivity,
    );
    assert_eq!(check, Ok(()), "{query:?}\n{}", render(map, path));
}

fn steps(path: &[Cell]) -> u32 {
    path.len() as u32 - 1
}

/// One move of the rules: the two-cell path `a, b` passes the validator.
fn can_step(layer: &Layer, a: Cell, b: Cell, conn: Connectivity) -> bool {
    a != b && validate_path(layer, &[a, b], a, b, conn).is_ok()
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
    let best = oracle(layer, q.start, q.goal, q.options.connectivity, u32::MAX);
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
    let inside = oracle(layer, q.start, q.goal, q.options.connectivity, radius);
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
