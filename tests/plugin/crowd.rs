//! Crowds of steering units on every grid shape: a corridor's mouth without deadlock, no
//! overlap in random crowds, standing units that make room, the same positions on one
//! and two threads. Distances are measured in the steering plane, in its tiles.

use bevy::prelude::*;
use bevy_tilepath::crowd::OVERLAP_TOLERANCE;
use bevy_tilepath::prelude::{
    Arrived, Cell, GridLayout, NavGrid, PathRequest, PathResult, Steering, TilepathSettings,
};

use crate::common::{
    Rng, TILE, app, plane_at, position, regular_grid_of, shapes, unlimited, worst_overlap,
};

/// The reproduction: a one-cell corridor, four rows long, between two open rows.
const MOUTH: &str = "
    .......
    ##.####
    ##.####
    ##.####
    ##.####
    .......
";

/// An app on `text` laid out as `layout` (regular hexagons).
fn app_on(layout: GridLayout, text: &str) -> App {
    let mut app = app();
    app.insert_resource(regular_grid_of(layout, text));
    app
}

fn grid(app: &App) -> &NavGrid {
    app.world().resource::<NavGrid>()
}

/// Spawns a steering unit of `diameter` centred at the world position `at`.
fn spawn_at(app: &mut App, at: Vec2, goal: Cell, diameter: u32) -> Entity {
    app.world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            PathRequest::new(goal).diameter(diameter),
            Steering::default(),
        ))
        .id()
}

/// Spawns a steering unit of `diameter` on `cell`.
fn spawn(app: &mut App, cell: Cell, goal: Cell, diameter: u32) -> Entity {
    let at = grid(app).agent_center(cell, diameter);
    spawn_at(app, at, goal, diameter)
}

fn all_arrived(app: &App, units: &[Entity]) -> bool {
    units
        .iter()
        .all(|&e| app.world().get::<Arrived>(e).is_some())
}

/// Frames until every unit of `units` has arrived (at most `limit`).
fn frames_to_arrive(app: &mut App, units: &[Entity], limit: usize) -> Option<usize> {
    (1..=limit).find(|_| {
        app.update();
        all_arrived(app, units)
    })
}

/// Prints the map with `marked` cells as `*` and walls as `#`.
fn print(grid: &NavGrid, marked: &[Cell]) {
    let size = grid.size();
    for y in 0..size.height as i32 {
        let row: String = (0..size.width as i32)
            .map(|x| match Cell::new(x, y) {
                c if marked.contains(&c) => '*',
                c if grid.is_blocked(c, 1) => '#',
                _ => '.',
            })
            .collect();
        println!("{row}");
    }
}

#[test]
fn two_units_at_the_mouth_of_a_one_cell_corridor_both_get_through() {
    for layout in shapes() {
        let mut lone = app_on(layout, MOUTH);
        let start = grid(&lone).agent_center(Cell::new(2, 0), 1);
        let unit = spawn_at(&mut lone, start, Cell::new(1, 5), 1);
        let alone = frames_to_arrive(&mut lone, &[unit], 3_600)
            .unwrap_or_else(|| panic!("{layout:?}: a lone unit gets through"));

        let mut app = app_on(layout, MOUTH);
        let nudge = Vec2::new(0.1 * TILE, 0.0);
        let a = spawn_at(&mut app, start - nudge, Cell::new(1, 5), 1);
        let b = spawn_at(&mut app, start + nudge, Cell::new(3, 5), 1);
        let both = frames_to_arrive(&mut app, &[a, b], 3_600);
        println!("{layout:?}: alone {alone} frames, both {both:?}");
        let both =
            both.unwrap_or_else(|| panic!("{layout:?}: the two units deadlocked at the mouth"));
        // One after the other: twice the lone walk, and half a second for the gap
        // between them.
        assert!(
            both <= 2 * alone + 30,
            "{layout:?}: both through in {both} frames, alone {alone}"
        );
    }
}

/// Prints every unit that has not arrived and the map with their cells marked.
fn show_stuck(app: &App, units: &[(Entity, u32)]) -> Vec<Entity> {
    let grid = grid(app);
    let mut stuck = Vec::new();
    let mut cells = Vec::new();
    for &(e, d) in units {
        if app.world().get::<Arrived>(e).is_some() {
            continue;
        }
        let goal = app
            .world()
            .get::<PathResult>(e)
            .and_then(|r| r.found())
            .map(|f| f.cells.last().copied());
        let at = grid.agent_cell(position(app, e), d);
        println!("{e} d{d} at {at:?} goal {goal:?}");
        stuck.push(e);
        cells.extend(at);
    }
    if !stuck.is_empty() {
        print(grid, &cells);
    }
    stuck
}

#[test]
fn steering_units_of_random_crowds_never_overlap_and_all_arrive() {
    // Units of diameters 1 and 2 crossing an open 24 x 24 map with a few pillars, every
    // one to a goal of its own on the other side.
    let mut rows = vec![vec!['.'; 24]; 24];
    for &(x, y) in &[(6, 6), (17, 6), (6, 17), (17, 17), (12, 12)] {
        rows[y][x] = '#';
    }
    let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let map = text.join("\n");
    for layout in shapes() {
        for seed in [1u64, 2, 3] {
            let mut app = app_on(layout, &map);
            let mut rng = Rng(seed);
            let mut units = Vec::new();
            for i in 0..24 {
                let d = if i % 4 == 3 { 2 } else { 1 };
                // Starts on the left, goals on the right (or the other way), spaced out.
                let row = 1 + 2 * (i % 11);
                let (sx, gx) = if i % 2 == 0 {
                    (1 + 3 * (i / 11), 21)
                } else {
                    (21 - 3 * (i / 11), 2)
                };
                let goal = Cell::new(gx, 1 + rng.below(21) as i32);
                units.push((spawn(&mut app, Cell::new(sx, row), goal, d), d));
            }
            let entities: Vec<Entity> = units.iter().map(|u| u.0).collect();
            let mut worst = 0.0f32;
            let mut done = None;
            for frame in 1..=4_000 {
                app.update();
                let (overlap, pair) = worst_overlap(&app, &units);
                if frame > 1 && overlap > OVERLAP_TOLERANCE {
                    show_stuck(&app, &units);
                    panic!("{layout:?} seed {seed}, frame {frame}: {pair:?} overlap by {overlap}");
                }
                worst = worst.max(overlap);
                if all_arrived(&app, &entities) {
                    done = Some(frame);
                    break;
                }
            }
            println!("{layout:?} seed {seed}: all arrived at {done:?}, worst overlap {worst:.4}");
            let stuck = show_stuck(&app, &units);
            assert!(
                stuck.is_empty(),
                "{layout:?} seed {seed}: still walking {stuck:?}"
            );
        }
    }
}

#[test]
fn a_standing_unit_steps_aside_for_a_walking_one_and_stays_still_after() {
    let rows = vec![".".repeat(12); 5].join("\n");
    for layout in shapes() {
        let mut app = app_on(layout, &rows);
        // A unit that has arrived stands in the middle of the walker's straight line
        // (columns 1, 5 and 9 are in line on column hexagons too).
        let idle = spawn(&mut app, Cell::new(5, 2), Cell::new(5, 2), 1);
        let walker = spawn(&mut app, Cell::new(1, 2), Cell::new(9, 2), 1);
        let home = plane_at(&app, idle);
        let done = frames_to_arrive(&mut app, &[walker], 600);
        assert!(
            done.is_some(),
            "{layout:?}: the walker never got past the standing unit"
        );
        let pushed = plane_at(&app, idle);
        assert!(pushed.distance(home) > 0.2, "{layout:?}: it never moved");
        // Once the walker is through, the standing unit keeps still (no jitter).
        for _ in 0..120 {
            app.update();
        }
        let after = plane_at(&app, idle);
        assert!(
            after.distance(pushed) < 0.05,
            "{layout:?}: {pushed} -> {after} tiles"
        );
    }
}

/// Positions (bits) of every unit after `frames` frames of a crowd of 1,200 units
/// crossing an open map laid out as `layout`, avoidance on `threads` solver threads.
fn crowd_trace(layout: GridLayout, threads: usize, frames: usize) -> Vec<[u32; 2]> {
    let rows = vec![".".repeat(80); 80].join("\n");
    let mut app = app_on(layout, &rows);
    app.insert_resource(TilepathSettings {
        max_threads: threads,
        ..unlimited()
    });
    let mut units = Vec::new();
    for i in 0..1_200i32 {
        // Two blocks of 600 walking through each other.
        let (x, y) = (i % 30, i / 30 % 20);
        let (start, goal) = if i < 600 {
            (Cell::new(5 + x, 10 + y * 3), Cell::new(50 + x, 10 + y * 3))
        } else {
            (Cell::new(50 + x, 11 + y * 3), Cell::new(5 + x, 11 + y * 3))
        };
        units.push(spawn(&mut app, start, goal, 1));
    }
    let first: Vec<Vec2> = units.iter().map(|&e| position(&app, e)).collect();
    for _ in 0..frames {
        app.update();
    }
    let moved = units
        .iter()
        .zip(&first)
        .filter(|&(&e, &p)| position(&app, e) != p)
        .count();
    assert!(
        moved > 1_000,
        "{layout:?}: the crowd hardly moved ({moved})"
    );
    units
        .iter()
        .map(|&e| {
            let p = position(&app, e);
            [p.x.to_bits(), p.y.to_bits()]
        })
        .collect()
}

#[test]
fn avoidance_gives_the_same_positions_on_one_and_two_threads() {
    for layout in shapes() {
        let one = crowd_trace(layout, 1, 40);
        let two = crowd_trace(layout, 2, 40);
        assert_eq!(
            one, two,
            "{layout:?}: positions differ between 1 and 2 threads"
        );
    }
}

/// Two groups of `columns` × 4 units filling a corridor four cells wide laid out as
/// `layout`, each sent to the other group's place: the frames until all arrived (at
/// most `limit`).
fn head_on(layout: GridLayout, columns: i32, limit: usize) -> Option<usize> {
    let length = 2 * columns + 16;
    let rows = vec![".".repeat(length as usize); 4].join("\n");
    let mut app = app_on(layout, &rows);
    let shift = length - 4 - columns;
    let mut units = Vec::new();
    for x in 2..2 + columns {
        for y in 0..4 {
            let (west, east) = (Cell::new(x, y), Cell::new(x + shift, y));
            units.push((spawn(&mut app, west, east, 1), 1));
            units.push((spawn(&mut app, east, west, 1), 1));
        }
    }
    let entities: Vec<Entity> = units.iter().map(|u| u.0).collect();
    let frames = frames_to_arrive(&mut app, &entities, limit);
    if frames.is_none() {
        show_stuck(&app, &units);
    }
    frames
}

#[test]
fn two_groups_filling_a_corridor_pass_each_other_head_on() {
    // 2 × 8 units; the walk alone takes 24 tiles at 4 tiles/s: 6 s, 375 frames.
    for layout in shapes() {
        let frames = head_on(layout, 2, 3_750);
        println!("{layout:?}: all arrived after {frames:?} frames");
        assert!(
            frames.is_some(),
            "{layout:?}: the two groups deadlocked in the corridor"
        );
    }
}

/// 160 units pushing through a one-cell gap pack against the wall: separation alone
/// leaves a pair at the gap's mouth overlapping beyond the tolerance by frame 645; the
/// units whose moves would do that stay where they were instead.
#[test]
fn a_crowd_jammed_at_a_one_cell_gap_never_overlaps() {
    let mut rows = vec![vec!['.'; 40]; 24];
    for (y, row) in rows.iter_mut().enumerate() {
        if y != 12 {
            row[20] = '#';
        }
    }
    let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let text = text.join("\n");
    for layout in shapes() {
        let mut app = app_on(layout, &text);
        let mut units = Vec::new();
        for x in 2..12 {
            for y in 4..20 {
                let goal = Cell::new(x + 24, y);
                units.push((spawn(&mut app, Cell::new(x, y), goal, 1), 1));
            }
        }
        let mut worst = 0.0f32;
        for frame in 1..=3_000 {
            app.update();
            let (overlap, pair) = worst_overlap(&app, &units);
            assert!(
                overlap <= OVERLAP_TOLERANCE,
                "{layout:?} frame {frame}: {pair:?} overlap by {overlap} tiles\n{text}"
            );
            worst = worst.max(overlap);
        }
        let grid = grid(&app);
        let through = units
            .iter()
            .filter(|(e, _)| {
                grid.world_to_cell(position(&app, *e))
                    .is_some_and(|c| c.x > 20)
            })
            .count();
        println!(
            "{layout:?}: worst overlap {worst:.4} tiles, {through} of {} units through the gap",
            units.len()
        );
        assert!(through > 0, "{layout:?}: nobody got through the gap");
    }
}
