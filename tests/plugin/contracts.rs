//! The contracts every grid shape keeps, each checked on hexagons (and on squares where
//! it is cheap): off-map goals and blocked starts fall back to the nearest tile, a
//! replaced grid re-plans the paths through its walls, expansion budgets hold per frame,
//! re-plans are targeted (crowds: `crowd.rs`, on every shape).

use bevy::prelude::*;
use bevy_tilepath::components::Replanning;
use bevy_tilepath::prelude::{
    Algorithm, Cell, FrameBudget, GridLayout, NavGrid, PathRequest, PathResult, TilepathSettings,
};
use bevy_tilepath::scenario::CellRect;
use bevy_tilepath::shape::HexLayout;
use bevy_tilepath::stats::TilepathStats;

use crate::common::{
    SolvedLog, app, found_path, hex_neighbours, moves, oracle, regular_grid_of, run_until_answered,
    shapes,
};

/// Square, isometric and the six hexagonal layouts.
fn every_layout() -> Vec<GridLayout> {
    let hexes = HexLayout::ALL.into_iter().map(GridLayout::Hex);
    [GridLayout::Square, GridLayout::Isometric]
        .into_iter()
        .chain(hexes)
        .collect()
}

/// A unit of `diameter` standing on `cell` of the app's grid, asking for `request`.
fn spawn(app: &mut App, cell: Cell, diameter: u32, request: PathRequest) -> Entity {
    let at = app
        .world()
        .resource::<NavGrid>()
        .agent_center(cell, diameter);
    app.world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            request.diameter(diameter),
        ))
        .id()
}

/// Steps between two cells on an open, unbounded plane of `layout`, from the test's
/// own neighbour tables: hexagonal steps by [`oracle`] over [`hex_neighbours`], and on
/// squares the octile distance.
fn open_distance(layout: GridLayout, a: Cell, b: Cell) -> f64 {
    match layout {
        GridLayout::Hex(hex) => oracle(a, |c| c == b, |c| hex_neighbours(hex, c).map(|n| (n, 1.0)))
            .expect("the plane is open"),
        _ => {
            let (dx, dy) = ((a.x - b.x).abs(), (a.y - b.y).abs());
            let (long, short) = (dx.max(dy), dx.min(dy));
            f64::from(long - short) + f64::from(short) * std::f64::consts::SQRT_2
        }
    }
}

/// Prints the grid (`#` walls for `diameter`, `*` the cells of `marked`).
fn print(grid: &NavGrid, diameter: u32, marked: &[Cell]) {
    let size = grid.size();
    for y in 0..size.height as i32 {
        let row: String = (0..size.width as i32)
            .map(|x| {
                let c = Cell::new(x, y);
                if marked.contains(&c) {
                    '*'
                } else if grid.is_blocked(c, diameter) {
                    '#'
                } else {
                    '.'
                }
            })
            .collect();
        println!("{row}");
    }
}

/// A pocket in the north-east corner, closed on every shape: the map cells nearest to a
/// goal east of it are unreachable from the west.
const POCKET: &str = "
    ........#.
    ........#.
    ........##
    ..........
    ..........
    ..........
";

#[test]
fn an_off_map_goal_plans_to_the_nearest_reachable_tile_on_every_shape() {
    let (start, goal) = (Cell::new(1, 4), Cell::new(13, 0));
    for layout in shapes() {
        let mut app = app();
        let grid = regular_grid_of(layout, POCKET);
        let layer = grid.scenario().layer(1).unwrap().clone();
        app.insert_resource(grid);
        let unit = spawn(&mut app, start, 1, PathRequest::new(goal));
        run_until_answered(&mut app, 10);
        let path = found_path(&app, unit);
        let step = moves(layout, &layer, |_| 1.0);
        let cells: Vec<Cell> = CellRect::of_size(layer.size()).cells().collect();
        let reachable: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| oracle(start, |x| x == c, &step).is_some())
            .collect();
        // The pocket matters: the free cell nearest the goal is not reachable.
        let nearest_free = cells
            .iter()
            .filter(|&&c| !layer.is_blocked(c))
            .map(|&c| open_distance(layout, c, goal))
            .fold(f64::INFINITY, f64::min);
        let nearest = reachable
            .iter()
            .map(|&c| open_distance(layout, c, goal))
            .fold(f64::INFINITY, f64::min);
        assert!(
            nearest > nearest_free,
            "{layout:?}: the pocket is reachable"
        );
        let grid = app.world().resource::<NavGrid>();
        if (open_distance(layout, path.reached, goal) - nearest).abs() > 1e-9 {
            print(grid, 1, &path.cells);
            panic!(
                "{layout:?}: reached {} at {} from the goal, the nearest reachable is at {nearest}",
                path.reached,
                open_distance(layout, path.reached, goal)
            );
        }
        assert!(path.partial, "{layout:?}");
        assert_eq!((path.requested, path.start), (goal, start), "{layout:?}");
        assert_eq!(path.cells.last(), Some(&path.reached));
        let best = oracle(start, |c| c == path.reached, &step).unwrap();
        assert!(
            (f64::from(path.cost) - best).abs() < 1e-3,
            "{layout:?}: cost {} vs the oracle's {best}",
            path.cost
        );
    }
}

/// A block of walls three tiles wide around (4, 2): every neighbour of its middle tile is
/// a wall on every shape.
const BLOCK: &str = "
    ..........
    ...###....
    ...###....
    ...###....
    ..........
";

#[test]
fn a_unit_in_a_wall_plans_from_the_nearest_free_tile_on_every_shape() {
    let (inside, goal) = (Cell::new(4, 2), Cell::new(9, 4));
    for layout in shapes() {
        let mut app = app();
        let grid = regular_grid_of(layout, BLOCK);
        let layer = grid.scenario().layer(1).unwrap().clone();
        app.insert_resource(grid);
        let unit = spawn(&mut app, inside, 1, PathRequest::new(goal));
        run_until_answered(&mut app, 10);
        let path = found_path(&app, unit);
        let nearest = CellRect::of_size(layer.size())
            .cells()
            .filter(|&c| !layer.is_blocked(c))
            .map(|c| open_distance(layout, c, inside))
            .fold(f64::INFINITY, f64::min);
        assert_eq!(path.from, inside, "{layout:?}");
        assert!(!layer.is_blocked(path.start), "{layout:?}: {}", path.start);
        let from_wall = open_distance(layout, path.start, inside);
        if (from_wall - nearest).abs() > 1e-9 {
            print(app.world().resource::<NavGrid>(), 1, &path.cells);
            panic!(
                "{layout:?}: starts on {} at {from_wall}, the nearest free tile is at {nearest}",
                path.start
            );
        }
        assert_eq!(path.cells.first(), Some(&path.start), "{layout:?}");
        assert_eq!(path.reached, goal, "{layout:?}");
        let step = moves(layout, &layer, |_| 1.0);
        let best = oracle(path.start, |c| c == goal, &step).unwrap();
        assert!(
            (f64::from(path.cost) - best).abs() < 1e-3,
            "{layout:?}: cost {} vs the oracle's {best}",
            path.cost
        );
    }
}

/// An open field, and the same field with a wall across it but for a gap at its south
/// end.
const OPEN: &str = "
    ............
    ............
    ............
    ............
    ............
    ............
";
const WALLED: &str = "
    ......#.....
    ......#.....
    ......#.....
    ......#.....
    ......#.....
    ............
";

#[test]
fn a_grid_replaced_by_one_of_the_same_generation_replans_every_path_through_its_walls() {
    for layout in every_layout() {
        let mut app = app();
        app.insert_resource(regular_grid_of(layout, OPEN));
        let units: Vec<Entity> = (0..5)
            .map(|y| {
                spawn(
                    &mut app,
                    Cell::new(1, y),
                    1,
                    PathRequest::new(Cell::new(10, y)),
                )
            })
            .collect();
        run_until_answered(&mut app, 10);
        let old = app.world().resource::<NavGrid>().generation();
        let walled = regular_grid_of(layout, WALLED);
        assert_eq!(walled.generation(), old, "{layout:?}: the same generation");
        app.insert_resource(walled);
        for frame in 1..=3 {
            app.update();
            let grid = app.world().resource::<NavGrid>();
            let layer = grid.scenario().layer(1).unwrap();
            for &unit in &units {
                let Some(PathResult::Found(path)) = app.world().get::<PathResult>(unit) else {
                    continue;
                };
                let step = moves(layout, layer, |_| 1.0);
                let through = path
                    .cells
                    .windows(2)
                    .find(|w| !step(w[0]).iter().any(|&(n, _)| n == w[1]));
                if let Some(w) = through {
                    print(grid, 1, &path.cells);
                    panic!(
                        "{layout:?}, frame {frame}: {unit} keeps a path through {} -> {}",
                        w[0], w[1]
                    );
                }
            }
        }
        run_until_answered(&mut app, 10);
        for &unit in &units {
            let path = found_path(&app, unit);
            assert_eq!(path.reached.x, 10, "{layout:?}: {unit} still goes east");
        }
    }
}

/// 24 × 16 tiles with two walls, each with one gap: searches that take many expansions.
const BUDGET_MAP: &str = "
    ........................
    ........................
    ........#...............
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ........#.......#.......
    ................#.......
    ................#.......
    ................#.......
";

#[test]
fn hexagonal_searches_never_expand_more_than_the_frame_budget() {
    let ends = [
        (Cell::new(0, 8), Cell::new(23, 8)),
        (Cell::new(2, 15), Cell::new(20, 0)),
        (Cell::new(12, 8), Cell::new(0, 0)),
        (Cell::new(23, 15), Cell::new(4, 14)),
    ];
    let algorithms = [
        Algorithm::Auto,
        Algorithm::AStar,
        Algorithm::Jps,
        Algorithm::JpsPlus,
        Algorithm::Dijkstra,
        Algorithm::BestFirst,
    ];
    for layout in [HexLayout::RowOdd, HexLayout::ColumnEven] {
        let layout = GridLayout::Hex(layout);
        for budget in 1..100u32 {
            let mut app = app();
            app.insert_resource(regular_grid_of(layout, BUDGET_MAP));
            app.world_mut().resource_mut::<TilepathSettings>().budget =
                FrameBudget::Expansions(budget);
            let units: Vec<(Entity, Algorithm, Cell, Cell)> = ends
                .iter()
                .enumerate()
                .map(|(i, &(from, to))| {
                    let algorithm = algorithms[(i + budget as usize) % algorithms.len()];
                    let request = PathRequest::new(to).algorithm(algorithm);
                    (spawn(&mut app, from, 1, request), algorithm, from, to)
                })
                .collect();
            let mut frames = 0u64;
            loop {
                frames += 1;
                assert!(frames < 20_000, "{layout:?} at {budget}: never answered");
                app.update();
                let stats = app.world().resource::<TilepathStats>();
                let paid = stats.expanded + stats.field_charged + stats.upkeep_charged;
                assert!(
                    paid <= u64::from(budget),
                    "{layout:?} at {budget}: frame {frames} paid {paid} (expanded {}, \
                     fields {}, upkeep {})",
                    stats.expanded,
                    stats.field_charged,
                    stats.upkeep_charged
                );
                assert_eq!(stats.whole, 0, "{layout:?} at {budget}: a whole search");
                if stats.pending == 0 && frames > 1 {
                    break;
                }
            }
            let grid = app.world().resource::<NavGrid>();
            let layer = grid.scenario().layer(1).unwrap();
            let mut expanded = 0;
            for &(unit, algorithm, from, to) in &units {
                let path = found_path(&app, unit);
                expanded += u64::from(path.expanded);
                assert_eq!((path.start, path.reached), (from, to));
                // Best-first search is not optimal; every other one is.
                if algorithm != Algorithm::BestFirst {
                    let step = moves(layout, layer, |_| 1.0);
                    let best = oracle(from, |c| c == to, step).unwrap();
                    assert!(
                        (f64::from(path.cost) - best).abs() < 1e-3,
                        "{layout:?} {algorithm} at {budget}: cost {} vs {best}",
                        path.cost
                    );
                }
            }
            // The budget slices: the frames it took are at least the work over the budget.
            assert!(
                frames >= expanded / u64::from(budget),
                "{layout:?} at {budget}: {expanded} expansions in {frames} frames"
            );
        }
    }
}

/// Answers `unit` got so far.
fn answers(app: &App, unit: Entity) -> usize {
    let log = &app.world().resource::<SolvedLog>().0;
    log.iter().filter(|(_, m)| m.entity == unit).count()
}

#[test]
fn an_edit_far_from_a_path_replans_nothing_and_a_cut_path_is_replanned_on_hexagons() {
    let text = vec![".".repeat(30); 20].join("\n");
    for layout in [
        GridLayout::Square,
        GridLayout::Hex(HexLayout::RowOdd),
        GridLayout::Hex(HexLayout::ColumnEven),
    ] {
        let mut app = app();
        app.insert_resource(regular_grid_of(layout, &text));
        let north = spawn(
            &mut app,
            Cell::new(2, 2),
            1,
            PathRequest::new(Cell::new(27, 2)),
        );
        let south = spawn(
            &mut app,
            Cell::new(2, 16),
            1,
            PathRequest::new(Cell::new(27, 16)),
        );
        run_until_answered(&mut app, 10);
        app.update();
        let before = (found_path(&app, north), found_path(&app, south));
        let counts = (answers(&app, north), answers(&app, south));
        let replans = |app: &App| {
            let stats = app.world().resource::<TilepathStats>();
            (stats.replanned, stats.repaired, stats.detoured)
        };

        // A wall between the two paths, six tiles from each: neither is planned again.
        let far = [Cell::new(15, 9), Cell::new(16, 9)];
        app.world_mut()
            .resource_mut::<NavGrid>()
            .apply_edits(far.map(|c| (c, true)));
        for frame in 0..3 {
            app.update();
            assert_eq!(replans(&app), (0, 0, 0), "{layout:?}, frame {frame}");
            for unit in [north, south] {
                assert!(app.world().get::<Replanning>(unit).is_none(), "{layout:?}");
            }
        }
        assert_eq!(
            (answers(&app, north), answers(&app, south)),
            counts,
            "{layout:?}: an answer after a far edit"
        );
        assert_eq!(found_path(&app, north), before.0, "{layout:?}");
        assert_eq!(found_path(&app, south), before.1, "{layout:?}");

        // A wall across the south path: it is planned again (or repaired), the north one
        // is not.
        let cut = before.1.cells[before.1.cells.len() / 2];
        app.world_mut()
            .resource_mut::<NavGrid>()
            .apply_edits([(cut, true)]);
        app.update();
        let (replanned, repaired, _) = replans(&app);
        assert_eq!(replanned + repaired, 1, "{layout:?}: only the cut path");
        run_until_answered(&mut app, 10);
        let after = found_path(&app, south);
        assert!(!after.cells.contains(&cut), "{layout:?}: through {cut}");
        assert!(answers(&app, south) > counts.1, "{layout:?}");
        assert_eq!(answers(&app, north), counts.0, "{layout:?}");
        assert_eq!(found_path(&app, north), before.0, "{layout:?}");
    }
}
