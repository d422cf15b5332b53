//! Goals that cannot be reached, goal areas, blocked starts, shared goals, shortcuts that
//! open, and footprints kept out of walls.

use std::collections::HashSet;

use bevy::prelude::*;
use bevy_tilepath::crowd::OVERLAP_TOLERANCE;
use bevy_tilepath::grid::Connectivity;
use bevy_tilepath::prelude::{
    Arrived, Cell, NavGrid, PathFailure, PathRequest, PathResult, Steering,
};
use bevy_tilepath::scenario::{CellRect, Layer};
use bevy_tilepath::search::PathError;

use crate::common::{TILE, app, center_of, position, run_until_answered, shortest};

fn grid_of(text: &str) -> NavGrid {
    NavGrid::from_ascii(text, Vec2::ZERO, Vec2::splat(TILE)).unwrap()
}

fn found(app: &App, entity: Entity) -> bevy_tilepath::prelude::FoundPath {
    match app.world().get::<PathResult>(entity).unwrap() {
        PathResult::Found(path) => path.clone(),
        other => panic!("{entity}: expected a path, got {other:?}"),
    }
}

fn failure(app: &App, entity: Entity) -> PathFailure {
    *app.world()
        .get::<PathResult>(entity)
        .unwrap()
        .failure()
        .expect("a failure")
}

/// The cell nearest to `target` (octile, then y, then x) that `accept` takes, by a scan
/// of the whole layer.
fn brute_nearest(layer: &Layer, target: Cell, accept: impl Fn(Cell) -> bool) -> Option<Cell> {
    CellRect::of_size(layer.size())
        .cells()
        .filter(|&c| !layer.is_blocked(c) && accept(c))
        .min_by_key(|&c| (Connectivity::Octile.heuristic(c, target), c.y, c.x))
}

fn spawn(app: &mut App, at: Cell, diameter: u32, request: PathRequest) -> Entity {
    app.world_mut()
        .spawn((
            Transform::from_translation(center_of(at, diameter).extend(1.0)),
            request.diameter(diameter),
        ))
        .id()
}

const ROOM: &str = "
....................
....................
..........#####.....
..........#...#.....
..........#...#.....
..........#####.....
....................
....######..........
....######..........
....................
";

#[test]
fn a_blocked_goal_is_replaced_by_the_nearest_reachable_cell() {
    let mut app = app();
    app.insert_resource(grid_of(ROOM));
    let goal = Cell::new(5, 7); // inside the 6x2 block
    let near = spawn(&mut app, Cell::new(0, 0), 1, PathRequest::new(goal));
    // (Not claiming: the narrow unit's claim would push it one cell further.)
    let wide = spawn(
        &mut app,
        Cell::new(1, 1),
        3,
        PathRequest::new(goal).claim_goal(false),
    );
    let strict = spawn(
        &mut app,
        Cell::new(0, 9),
        1,
        PathRequest::new(goal).nearest_goal(false),
    );
    run_until_answered(&mut app, 10);
    let grid = app.world().resource::<NavGrid>();
    for (entity, diameter, start) in [(near, 1, Cell::new(0, 0)), (wide, 3, Cell::new(1, 1))] {
        let path = found(&app, entity);
        let layer = grid.scenario().layer(diameter).unwrap();
        let label = layer.components().label(start);
        let expected = brute_nearest(layer, goal, |c| layer.components().label(c) == label);
        assert!(path.partial, "d{diameter}");
        assert_eq!(path.requested, goal);
        assert_eq!(Some(path.reached), expected, "d{diameter}");
        assert_eq!(path.cells.last(), Some(&path.reached));
        assert_eq!((path.from, path.start), (start, start));
        let best = shortest(layer, start, path.reached).unwrap();
        assert!((f64::from(path.length) - best).abs() < 1e-3);
    }
    assert_eq!(
        failure(&app, strict),
        PathFailure::Search(PathError::GoalBlocked {
            cell: goal,
            diameter: 1
        })
    );
}

#[test]
fn a_goal_in_another_component_or_off_the_map_ends_at_the_nearest_reachable_cell() {
    let mut app = app();
    app.insert_resource(grid_of(ROOM));
    let inside = Cell::new(12, 3); // in the closed room, free but unreachable
    let outside = spawn(&mut app, Cell::new(0, 0), 1, PathRequest::new(inside));
    let strict = spawn(
        &mut app,
        Cell::new(0, 9),
        1,
        PathRequest::new(inside).nearest_goal(false),
    );
    let off_map = spawn(
        &mut app,
        Cell::new(0, 1),
        1,
        PathRequest::new(Cell::new(25, -4)),
    );
    let world_off_map = spawn(
        &mut app,
        Cell::new(0, 2),
        1,
        PathRequest::new(Vec2::new(-100.0, 60.0)),
    );
    let strict_off_map = spawn(
        &mut app,
        Cell::new(0, 3),
        1,
        PathRequest::new(Cell::new(25, -4)).nearest_goal(false),
    );
    run_until_answered(&mut app, 10);
    let grid = app.world().resource::<NavGrid>();
    let layer = grid.scenario().layer(1).unwrap();
    let label = layer.components().label(Cell::new(0, 0));
    let reachable = |c: Cell| layer.components().label(c) == label;

    let path = found(&app, outside);
    assert!(path.partial);
    assert_eq!(
        (path.requested, path.reached),
        (inside, brute_nearest(layer, inside, reachable).unwrap())
    );
    assert!(!layer.components().connected(Cell::new(0, 0), inside));
    assert_eq!(
        failure(&app, strict),
        PathFailure::Search(PathError::Unreachable)
    );

    let path = found(&app, off_map);
    assert!(path.partial);
    assert_eq!(path.requested, Cell::new(25, -4));
    assert_eq!(path.reached, Cell::new(19, 0));
    let path = found(&app, world_off_map);
    assert!(path.partial);
    assert_eq!(path.requested, Cell::new(-6, 4));
    assert_eq!(path.reached, Cell::new(0, 4));
    assert!(matches!(
        failure(&app, strict_off_map),
        PathFailure::GoalOffMap { .. }
    ));
}

#[test]
fn a_goal_area_ends_at_the_cheapest_cell_within_its_radius() {
    let mut app = app();
    app.insert_resource(grid_of(ROOM));
    let goal = Cell::new(17, 8);
    let starts = [Cell::new(0, 0), Cell::new(2, 9), Cell::new(19, 0)];
    let units: Vec<Entity> = starts
        .iter()
        .map(|&s| spawn(&mut app, s, 1, PathRequest::new(goal).goal_radius(3)))
        .collect();
    let exact = spawn(&mut app, Cell::new(0, 0), 1, PathRequest::new(goal));
    run_until_answered(&mut app, 10);
    let grid = app.world().resource::<NavGrid>();
    let layer = grid.scenario().layer(1).unwrap();
    for (&unit, &start) in units.iter().zip(&starts) {
        let path = found(&app, unit);
        assert!(!path.partial);
        assert_eq!(path.requested, goal);
        assert!(path.reached.chebyshev(goal) <= 3, "{}", path.reached);
        let best = CellRect::from_cell(goal)
            .grow_clip(3, 3, grid.size())
            .cells()
            .filter_map(|c| shortest(layer, start, c))
            .fold(f64::INFINITY, f64::min);
        assert!(
            (f64::from(path.length) - best).abs() < 1e-3,
            "{start}: {} vs {best}",
            path.length
        );
    }
    let full = found(&app, exact);
    assert_eq!(full.reached, goal);
    assert!(found(&app, units[0]).length < full.length);
}

/// Asserts that the anchor cell of `entity` is free for it, or (`was_free == false`)
/// remembers that it stood in a wall; returns whether it stands on a free cell.
fn on_free_cell(app: &App, entity: Entity, diameter: u32) -> bool {
    let grid = app.world().resource::<NavGrid>();
    let cell = grid
        .agent_cell(position(app, entity), diameter)
        .expect("on the map");
    !grid.is_blocked(cell, diameter)
}

#[test]
fn a_unit_a_wall_is_painted_on_walks_out_and_reaches_its_goal() {
    let mut app = app();
    app.insert_resource(grid_of(&vec![".".repeat(30); 20].join("\n")));
    let goal = Cell::new(25, 10);
    let unit = spawn(&mut app, Cell::new(5, 10), 1, PathRequest::new(goal));
    app.world_mut()
        .entity_mut(unit)
        .insert(Steering::with_speed(64.0));
    for _ in 0..3 {
        app.update();
    }
    assert!(
        app.world()
            .get::<PathResult>(unit)
            .unwrap()
            .found()
            .is_some()
    );
    // A 5x5 block of wall lands on the walking unit.
    let at = app
        .world()
        .resource::<NavGrid>()
        .agent_cell(position(&app, unit), 1)
        .unwrap();
    let block: Vec<(Cell, bool)> = CellRect::from_cell(at)
        .grow_clip(2, 2, app.world().resource::<NavGrid>().size())
        .cells()
        .map(|c| (c, true))
        .collect();
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits(block.iter().copied());
    let mut left_the_wall = false;
    let mut saw_moved_start = false;
    for frame in 0..400 {
        app.update();
        let result = app.world().get::<PathResult>(unit).unwrap().clone();
        assert!(
            !matches!(
                result,
                PathResult::Failed(PathFailure::Search(PathError::StartBlocked { .. }))
            ),
            "frame {frame}: left StartBlocked"
        );
        if let PathResult::Found(path) = &result
            && path.start_moved()
        {
            saw_moved_start = true;
            assert!(path.from.chebyshev(at) <= 2);
            assert!(path.start.chebyshev(at) == 3, "{}", path.start);
        }
        let free = on_free_cell(&app, unit, 1);
        if left_the_wall {
            assert!(free, "frame {frame}: walked back into the wall");
        }
        left_the_wall |= free;
        if app.world().get::<Arrived>(unit).is_some() {
            break;
        }
    }
    assert!(saw_moved_start);
    assert!(app.world().get::<Arrived>(unit).is_some(), "never arrived");
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(grid.agent_cell(position(&app, unit), 1), Some(goal));
}

#[test]
fn a_wide_unit_against_the_map_edge_starts_from_the_nearest_cell_it_fits() {
    let mut app = app();
    app.insert_resource(grid_of(&vec![".".repeat(12); 12].join("\n")));
    // A 3-wide unit centred on corner cell (0, 0) sticks out of the map.
    let unit = spawn(
        &mut app,
        Cell::new(0, 0),
        3,
        PathRequest::new(Cell::new(8, 8)),
    );
    let strict = spawn(
        &mut app,
        Cell::new(0, 5),
        3,
        PathRequest::new(Cell::new(8, 8)).nearest_start(false),
    );
    app.world_mut()
        .entity_mut(unit)
        .insert(Steering::with_speed(64.0));
    run_until_answered(&mut app, 10);
    let path = found(&app, unit);
    assert_eq!((path.from, path.start), (Cell::new(0, 0), Cell::new(1, 1)));
    assert!(path.start_moved());
    assert_eq!(path.cells.first(), Some(&Cell::new(1, 1)));
    assert_eq!(
        failure(&app, strict),
        PathFailure::Search(PathError::StartBlocked {
            cell: Cell::new(0, 5),
            diameter: 3
        })
    );
    for _ in 0..300 {
        app.update();
        if app.world().get::<Arrived>(unit).is_some() {
            break;
        }
    }
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(
        grid.agent_cell(position(&app, unit), 3),
        Some(Cell::new(8, 8))
    );
}

/// The world rectangle of a unit's footprint overlaps a blocked cell (by more than a
/// hundredth of a tile on both axes).
fn footprint_overlaps_wall(grid: &NavGrid, p: Vec2, diameter: u32) -> Option<Cell> {
    let half = diameter as f32 * TILE / 2.0;
    let (lo, hi) = (p - Vec2::splat(half), p + Vec2::splat(half));
    let cell_lo = ((lo / TILE) + Vec2::splat(0.5)).floor();
    let cell_hi = ((hi / TILE) + Vec2::splat(0.5)).floor();
    for y in cell_lo.y as i32..=cell_hi.y as i32 {
        for x in cell_lo.x as i32..=cell_hi.x as i32 {
            let c = Cell::new(x, y);
            if !grid.is_blocked(c, 1) {
                continue;
            }
            let (c_lo, c_hi) = (
                Vec2::new(x as f32 - 0.5, y as f32 - 0.5) * TILE,
                Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * TILE,
            );
            let overlap = hi.min(c_hi) - lo.max(c_lo);
            if overlap.x > 0.01 * TILE && overlap.y > 0.01 * TILE {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn footprints_never_overlap_walls_while_units_hug_them() {
    let mut app = app();
    app.insert_resource(grid_of(
        "
..................................
..................................
..................................
.........#########################
..................................
..................................
..................................
..................................
.....#######......................
.....#######.......#####..........
.....#######.......#####..........
..................................
..................................
",
    ));
    // Wide and narrow units along the long wall and around the blocks, with smoothing
    // (straight lines that graze corners) and crowding.
    let mut units = Vec::new();
    for (i, (start, goal, diameter)) in [
        (Cell::new(1, 5), Cell::new(32, 5), 2),
        (Cell::new(1, 4), Cell::new(33, 4), 1),
        (Cell::new(32, 1), Cell::new(2, 1), 3),
        (Cell::new(2, 11), Cell::new(30, 6), 2),
        (Cell::new(30, 11), Cell::new(3, 6), 3),
        (Cell::new(14, 12), Cell::new(14, 6), 1),
        (Cell::new(2, 6), Cell::new(28, 12), 1),
    ]
    .into_iter()
    .enumerate()
    {
        let entity = spawn(
            &mut app,
            start,
            diameter,
            PathRequest::new(goal).smooth(i % 2 == 0),
        );
        app.world_mut().entity_mut(entity).insert(Steering {
            speed: 90.0,
            ..Steering::default()
        });
        units.push((entity, diameter, goal));
    }
    let mut arrived = 0;
    for frame in 0..900 {
        app.update();
        let grid = app.world().resource::<NavGrid>();
        for &(entity, diameter, _) in &units {
            let p = position(&app, entity);
            if let Some(wall) = footprint_overlaps_wall(grid, p, diameter) {
                panic!("frame {frame}: {entity} (d{diameter}) at {p} overlaps wall {wall}");
            }
        }
        arrived = units
            .iter()
            .filter(|(e, ..)| app.world().get::<Arrived>(*e).is_some())
            .count();
        if arrived == units.len() {
            break;
        }
    }
    assert_eq!(arrived, units.len(), "every unit arrives");
}

#[test]
fn forty_units_sent_to_one_tile_end_on_forty_distinct_cells_around_it() {
    let mut app = app();
    app.insert_resource(grid_of(&vec![".".repeat(40); 40].join("\n")));
    let goal = Cell::new(30, 30);
    let mut units = Vec::new();
    for i in 0..40 {
        let start = Cell::new(2 + (i % 8) * 2, 2 + (i / 8) * 2);
        let entity = spawn(&mut app, start, 1, PathRequest::new(goal));
        app.world_mut().entity_mut(entity).insert(Steering {
            speed: 120.0,
            ..Steering::default()
        });
        units.push(entity);
    }
    run_until_answered(&mut app, 10);
    let reached: Vec<Cell> = units.iter().map(|&e| found(&app, e).reached).collect();
    let distinct: HashSet<Cell> = reached.iter().copied().collect();
    assert_eq!(distinct.len(), 40, "claimed cells are distinct");
    // The 40 claimed cells are the 40 cells nearest the goal.
    let mut ring: Vec<Cell> = CellRect::from_cell(goal)
        .grow_clip(5, 5, app.world().resource::<NavGrid>().size())
        .cells()
        .collect();
    ring.sort_by_key(|&c| (Connectivity::Octile.heuristic(c, goal), c.y, c.x));
    let nearest: HashSet<Cell> = ring[..40].iter().copied().collect();
    assert_eq!(distinct, nearest);
    // Cells are handed out by direction: ordered by their angle around the goal, units
    // (by where they start) and their cells come in the same order.
    let angle = |c: Cell| f32::atan2((c.y - goal.y) as f32, (c.x - goal.x) as f32);
    let starts: Vec<Cell> = (0..40)
        .map(|i| Cell::new(2 + (i % 8) * 2, 2 + (i / 8) * 2))
        .collect();
    for i in 0..40 {
        for j in 0..40 {
            if angle(starts[i]) < angle(starts[j]) {
                assert!(
                    angle(reached[i]) <= angle(reached[j]),
                    "unit {i} from {} ends at {}, unit {j} from {} at {}",
                    starts[i],
                    reached[i],
                    starts[j],
                    reached[j]
                );
            }
        }
    }
    let mut settled = None;
    for frame in 0..1_200 {
        app.update();
        if units
            .iter()
            .all(|&e| app.world().get::<Arrived>(e).is_some())
        {
            settled = Some(frame);
            break;
        }
    }
    println!("all 40 arrived at frame {settled:?}");
    // They stand around the tile, their discs (one tile wide) apart: steering avoidance
    // and separation may have pushed a unit off its cell, never onto another unit.
    let grid = app.world().resource::<NavGrid>();
    let at: Vec<Vec2> = units.iter().map(|&e| position(&app, e)).collect();
    for (i, a) in at.iter().enumerate() {
        for b in &at[i + 1..] {
            let overlap = 1.0 - a.distance(*b) / TILE;
            assert!(
                overlap <= OVERLAP_TOLERANCE,
                "{a} and {b} overlap by {overlap}"
            );
        }
        let d = grid.agent_cell(*a, 1).unwrap().chebyshev(goal);
        assert!(d <= 6, "a unit stands {d} cells from the goal");
    }
    // A second group sent to the same tile avoids the cells the first one holds.
    let late = spawn(&mut app, Cell::new(2, 38), 1, PathRequest::new(goal));
    run_until_answered(&mut app, 10);
    let slot = found(&app, late).reached;
    assert!(!distinct.contains(&slot), "{slot}");
    assert!(slot.chebyshev(goal) <= 4);
}

#[test]
fn wide_units_sharing_a_goal_claim_footprints_that_do_not_overlap() {
    let mut app = app();
    app.insert_resource(grid_of(&vec![".".repeat(40); 40].join("\n")));
    let goal = Cell::new(20, 20);
    let mut units = Vec::new();
    for i in 0..12 {
        let diameter = [1, 2, 3][i % 3];
        let start = Cell::new(3 + (i as i32 % 4) * 4, 3 + (i as i32 / 4) * 4);
        units.push((
            spawn(&mut app, start, diameter as u32, PathRequest::new(goal)),
            diameter,
        ));
    }
    // Exact requests do not claim: they all plan to the goal itself.
    let exact: Vec<Entity> = (0..3)
        .map(|i| {
            spawn(
                &mut app,
                Cell::new(35, 3 + i),
                1,
                PathRequest::new(goal).exact(),
            )
        })
        .collect();
    run_until_answered(&mut app, 10);
    let mut covered = HashSet::new();
    for &(entity, diameter) in &units {
        let path = found(&app, entity);
        assert!(!path.partial);
        assert_eq!(path.requested, goal);
        for c in bevy_tilepath::scenario::footprint(path.reached, diameter as u32).cells() {
            assert!(covered.insert(c), "footprints overlap at {c}");
        }
        assert!(path.reached.chebyshev(goal) <= 6, "{}", path.reached);
    }
    for e in exact {
        assert_eq!(found(&app, e).reached, goal);
    }
}

#[test]
fn opening_a_door_reroutes_the_walkers_it_helps_and_only_them() {
    let mut app = app();
    // A wall across the map at y = 10 with a way round at x = 38..39; the door is (8, 10).
    let mut rows = vec![".".repeat(40); 20];
    rows[10] = format!("{}..", "#".repeat(38));
    app.insert_resource(grid_of(&rows.join("\n")));
    let door = Cell::new(8, 10);
    // Helped: from below the wall to above it near the door (a long detour today).
    let helped: Vec<Entity> = (0..4)
        .map(|i| {
            spawn(
                &mut app,
                Cell::new(4 + i, 2),
                1,
                PathRequest::new(Cell::new(6 + i, 18)),
            )
        })
        .collect();
    // Not helped: walking along the wall on one side, near the round way, or already past it.
    let unhelped = [
        spawn(
            &mut app,
            Cell::new(2, 4),
            1,
            PathRequest::new(Cell::new(30, 4)),
        ),
        spawn(
            &mut app,
            Cell::new(30, 2),
            1,
            PathRequest::new(Cell::new(30, 18)),
        ),
        spawn(
            &mut app,
            Cell::new(6, 14),
            1,
            PathRequest::new(Cell::new(20, 18)),
        ),
    ];
    for &e in helped.iter().chain(&unhelped) {
        app.world_mut()
            .entity_mut(e)
            .insert(Steering::with_speed(32.0));
    }
    run_until_answered(&mut app, 10);
    for _ in 0..20 {
        app.update();
    }
    let before: Vec<_> = helped
        .iter()
        .chain(&unhelped)
        .map(|&e| found(&app, e))
        .collect();
    for path in &before[..4] {
        assert!(
            path.cells.iter().any(|c| c.x >= 38),
            "a detour round the wall"
        );
    }
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(door, false)]);
    app.update();
    for (i, &e) in helped.iter().enumerate() {
        let path = found(&app, e);
        assert!(
            path.cells.contains(&door),
            "helped unit {i} goes through the door"
        );
        assert!(path.cost < before[i].cost);
    }
    for (i, &e) in unhelped.iter().enumerate() {
        assert_eq!(
            found(&app, e),
            before[4 + i],
            "unhelped unit {i} kept its path"
        );
    }
    // Nothing else is re-planned in the next frame.
    app.update();
    let stats = app
        .world()
        .resource::<bevy_tilepath::stats::TilepathStats>();
    assert_eq!(stats.replanned, 0);
}

/// Measures what claiming costs: the first frame of 5,000 units sent to one tile of a
/// 256x256 map (one search per frame, so the frame is the queueing and the claims),
/// with and without claims. Run with `--ignored --nocapture`; prints, asserts no time.
#[test]
#[ignore = "measurement"]
fn claiming_cells_for_five_thousand_units_sent_to_one_tile() {
    for claim in [false, true] {
        let mut app = app();
        app.insert_resource(grid_of(&vec![".".repeat(256); 256].join("\n")));
        app.insert_resource(bevy_tilepath::prelude::TilepathSettings {
            max_requests_per_frame: 1,
            ..default()
        });
        app.update();
        let goal = Cell::new(200, 200);
        let units: Vec<Entity> = (0..5000)
            .map(|i| {
                let start = Cell::new(i % 100, i / 100);
                spawn(&mut app, start, 1, PathRequest::new(goal).claim_goal(claim))
            })
            .collect();
        let started = std::time::Instant::now();
        app.update();
        let took = started.elapsed();
        let slots: HashSet<Cell> = units
            .iter()
            .filter_map(|&e| {
                app.world()
                    .get::<bevy_tilepath::components::PathStatus>(e)?
                    .claimed_cell()
            })
            .collect();
        println!(
            "claim {claim}: first frame {:.2} ms, {} distinct claimed cells",
            took.as_secs_f64() * 1e3,
            slots.len()
        );
    }
}

/// Twelve tiles wide, nine high: a wall down column 6 with a gap in its bottom two rows,
/// and a block of walls.
const CLAIMS: &str = "
    ......#.....
    ......#.....
    ......#.....
    ......#.....
    ......#.....
    ..##..#.....
    ..##..#.....
    ............
    ............
";

#[test]
#[ignore = "claims: one-tile units claim first (groups by diameter), leaving no 3x3 room; a wide unit then claims nothing and ends on a claimed cell (every shape)"]
fn units_sent_to_one_tile_claim_distinct_footprints_around_it_on_every_shape() {
    use bevy_tilepath::components::PathStatus;
    use bevy_tilepath::stats::TilepathStats;
    for layout in crate::common::shapes() {
        let mut app = app();
        app.insert_resource(crate::common::grid_of(layout, CLAIMS));
        let goal = Cell::new(9, 4);
        let shape = layout.shape();
        // 12 one-tile units from the west, 3 three-tile ones from the east.
        let units: Vec<(Entity, u32)> = (0..15i32)
            .map(|i| {
                let (from, diameter) = if i < 12 {
                    (Cell::new(i % 3, 1 + i / 3), 1)
                } else {
                    (Cell::new(10, 1 + 3 * (i - 12)), 3)
                };
                let at = app
                    .world()
                    .resource::<NavGrid>()
                    .agent_center(from, diameter);
                let unit = app
                    .world_mut()
                    .spawn((
                        Transform::from_translation(at.extend(1.0)),
                        PathRequest::new(goal).diameter(diameter).claim_goal(true),
                        Steering::with_speed(90.0),
                    ))
                    .id();
                (unit, diameter)
            })
            .collect();
        app.update();
        let stats = app.world().resource::<TilepathStats>();
        assert_eq!(
            (stats.solved, stats.failed, stats.pending),
            (15, 0, 0),
            "{layout:?}"
        );
        let grid = app.world().resource::<NavGrid>();
        let mut covered: std::collections::HashMap<Cell, Entity> = Default::default();
        for &(unit, diameter) in &units {
            let path = found(&app, unit);
            let claimed = path.reached;
            if let Some(claim) = app
                .world()
                .get::<PathStatus>(unit)
                .and_then(PathStatus::claimed_cell)
            {
                assert_eq!(claim, claimed, "{layout:?}: the path ends on the claim");
            }
            assert_eq!(path.requested, goal, "{layout:?}");
            assert!(
                !grid.is_blocked(claimed, diameter),
                "{layout:?}: {unit} can stand on {claimed}"
            );
            // Footprints do not overlap, and small units stay near the goal.
            for c in shape.footprint(claimed, diameter).cells() {
                if shape.covers(claimed, diameter, c)
                    && let Some(other) = covered.insert(c, unit)
                {
                    panic!("{layout:?}: {unit} and {other} both cover {c}");
                }
            }
            if diameter == 1 {
                let steps = shape.steps(claimed, goal);
                assert!(steps <= 3, "{layout:?}: {claimed} is {steps} from the goal");
            }
        }
        let mut arrived = false;
        for _ in 0..3000 {
            app.update();
            arrived = units
                .iter()
                .all(|&(u, _)| app.world().get::<Arrived>(u).is_some());
            if arrived {
                break;
            }
        }
        assert!(arrived, "{layout:?}: every unit arrives");
        let grid = app.world().resource::<NavGrid>();
        for &(unit, diameter) in &units {
            let claimed = found(&app, unit).reached;
            assert_eq!(
                grid.agent_cell(position(&app, unit), diameter),
                Some(claimed),
                "{layout:?}: {unit} stands on its claim"
            );
        }
    }
}
