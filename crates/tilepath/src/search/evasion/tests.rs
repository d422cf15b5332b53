//! Evasion on hand-drawn obstacles and random grids, checked by the movement rules.

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
        let valid = validate_path(
            layer,
            &path,
            query.start,
            query.goal,
            query.options.connectivity,
        );
        assert_eq!(valid, Ok(()), "invalid path\n{}", render(map, &path));
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
    let (mut s, mut e) = (SearchState::default(), EvasionState::default());
    s.begin(m.size(), &q.limits, 1);
    let direct = search(&mut s, &mut e, layer, &q);
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
    let (mut s, mut e) = (SearchState::default(), EvasionState::default());
    s.begin(m.size(), &q.limits, 1);
    search(&mut s, &mut e, layer, &q).unwrap();
    let first = s.path.clone();
    let buffers = |s: &SearchState, e: &EvasionState| {
        let [a, b] = &e.traces;
        (
            a.as_ptr(),
            a.capacity(),
            b.as_ptr(),
            b.capacity(),
            s.path.as_ptr(),
        )
    };
    let before = buffers(&s, &e);
    s.begin(m.size(), &q.limits, 1);
    search(&mut s, &mut e, layer, &q).unwrap();
    assert_eq!(buffers(&s, &e), before);
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
                let valid = validate_path(layer, path, start, goal, connectivity);
                prop_assert!(valid.is_ok(), "invalid path {start} -> {goal}\n{}", render(&m, path));
                prop_assert!(stats.length + 1e-9 >= optimal_length(&m, &q));
            }
            Err(PathError::Unreachable) => prop_assert!(!layer.components().connected(start, goal)),
            Err(e) => prop_assert!(false, "{e:?} {start} -> {goal}\n{}", render(&m, &[start, goal])),
        }
        // A tight limit may stop it, but never makes it return a bad path.
        let limited = q.limits(Limits { max_expanded: 20, time_budget: None });
        match pf.find(&m, &limited) {
            Ok(_) => prop_assert!(
                validate_path(layer, pf.path(), start, goal, connectivity).is_ok(),
                "{}",
                render(&m, pf.path())
            ),
            Err(e) => prop_assert!(matches!(e, PathError::LimitReached { .. } | PathError::Unreachable), "{e:?}"),
        }
    }
}
