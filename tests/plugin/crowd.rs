//! Crowds of steering units: a corridor's mouth without deadlock, no overlap in random
//! crowds, standing units that make room.

use bevy::prelude::*;
use bevy_tilepath::crowd::OVERLAP_TOLERANCE;
use bevy_tilepath::prelude::{
    Arrived, Cell, NavGrid, PathRequest, PathResult, Steering, TilepathSettings,
};

use crate::common::{Rng, TILE, app, center_of, unlimited};

/// The reproduction: a one-cell corridor, four rows long, between two open rows.
const MOUTH: &str = "
    .......
    ##.####
    ##.####
    ##.####
    ##.####
    .......
";

fn spawn(app: &mut App, at: Vec2, goal: Cell, diameter: u32) -> Entity {
    app.world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            PathRequest::new(goal).diameter(diameter),
            Steering::default(),
        ))
        .id()
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

#[test]
fn two_units_at_the_mouth_of_a_one_cell_corridor_both_get_through() {
    let grid = || NavGrid::from_ascii(MOUTH, Vec2::ZERO, Vec2::splat(TILE)).unwrap();
    let start = center_of(Cell::new(2, 0), 1);
    let mut lone = app();
    lone.insert_resource(grid());
    let unit = spawn(&mut lone, start, Cell::new(1, 5), 1);
    let alone = frames_to_arrive(&mut lone, &[unit], 3_600).expect("a lone unit gets through");

    let mut app = app();
    app.insert_resource(grid());
    let a = spawn(
        &mut app,
        start - Vec2::new(0.1 * TILE, 0.0),
        Cell::new(1, 5),
        1,
    );
    let b = spawn(
        &mut app,
        start + Vec2::new(0.1 * TILE, 0.0),
        Cell::new(3, 5),
        1,
    );
    let both = frames_to_arrive(&mut app, &[a, b], 3_600);
    println!("alone {alone} frames, both {both:?}");
    let both = both.expect("the two units deadlocked at the corridor's mouth");
    assert!(
        both <= 2 * alone,
        "both through in {both} frames, alone {alone}"
    );
}

/// The worst overlap (tiles) of two units' discs (diameter in tiles) at the moment.
fn worst_overlap(app: &App, units: &[(Entity, u32)]) -> (f32, Option<(Entity, Entity)>) {
    let at = |e: Entity| {
        app.world()
            .get::<Transform>(e)
            .unwrap()
            .translation
            .truncate()
    };
    let mut worst = (0.0, None);
    for (i, &(a, da)) in units.iter().enumerate() {
        for &(b, db) in &units[i + 1..] {
            let gap = at(a).distance(at(b)) / TILE - (da + db) as f32 * 0.5;
            if -gap > worst.0 {
                worst = (-gap, Some((a, b)));
            }
        }
    }
    worst
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
    for seed in [1u64, 2, 3] {
        let mut app = app();
        app.insert_resource(NavGrid::from_ascii(&map, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
        let mut rng = Rng(seed);
        let mut units = Vec::new();
        for i in 0..24 {
            let d = if i % 4 == 3 { 2 } else { 1 };
            // Starts on the left, goals on the right (or the other way), spaced out.
            let row = 1 + 2 * (i % 11);
            let left = i % 2 == 0;
            let (sx, gx) = if left {
                (1 + 3 * (i / 11), 21)
            } else {
                (21 - 3 * (i / 11), 2)
            };
            let start = Cell::new(sx, row);
            let goal = Cell::new(gx, 1 + rng.below(21) as i32);
            units.push((spawn(&mut app, center_of(start, d), goal, d), d));
        }
        let mut worst = 0.0f32;
        let mut done = None;
        for frame in 1..=4_000 {
            app.update();
            let (overlap, pair) = worst_overlap(&app, &units);
            if frame > 1 {
                assert!(
                    overlap <= OVERLAP_TOLERANCE,
                    "seed {seed}, frame {frame}: {pair:?} overlap by {overlap} tiles"
                );
            }
            worst = worst.max(overlap);
            let entities: Vec<Entity> = units.iter().map(|u| u.0).collect();
            if all_arrived(&app, &entities) {
                done = Some(frame);
                break;
            }
        }
        println!("seed {seed}: all arrived at frame {done:?}, worst overlap {worst:.4} tiles");
        let stuck: Vec<_> = units
            .iter()
            .filter(|(e, _)| app.world().get::<Arrived>(*e).is_none())
            .map(|(e, _)| {
                (
                    *e,
                    app.world()
                        .get::<PathResult>(*e)
                        .and_then(|r| r.found())
                        .map(|p| p.requested),
                )
            })
            .collect();
        if !stuck.is_empty() {
            for &(e, d) in &units {
                let p = app
                    .world()
                    .get::<Transform>(e)
                    .unwrap()
                    .translation
                    .truncate()
                    / TILE;
                let goal = app
                    .world()
                    .get::<PathResult>(e)
                    .and_then(|r| r.found())
                    .map(|f| f.cells.last().copied());
                println!(
                    "{e} d{d} at {p:?} goal {goal:?} arrived {}",
                    app.world().get::<Arrived>(e).is_some()
                );
            }
        }
        assert!(stuck.is_empty(), "seed {seed}: still walking {stuck:?}");
    }
}

#[test]
fn a_standing_unit_steps_aside_for_a_walking_one_and_stays_still_after() {
    let rows = vec![".".repeat(12); 5].join("\n");
    let mut app = app();
    app.insert_resource(NavGrid::from_ascii(&rows, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    // A unit that has arrived stands in the middle of the walker's straight line.
    let idle = spawn(&mut app, center_of(Cell::new(6, 2), 1), Cell::new(6, 2), 1);
    let walker = spawn(&mut app, center_of(Cell::new(1, 2), 1), Cell::new(11, 2), 1);
    let done = frames_to_arrive(&mut app, &[walker], 600);
    assert!(
        done.is_some(),
        "the walker never got past the standing unit"
    );
    let at = |app: &App| {
        app.world()
            .get::<Transform>(idle)
            .unwrap()
            .translation
            .truncate()
    };
    let pushed = at(&app);
    assert!(
        pushed.distance(center_of(Cell::new(6, 2), 1)) > 0.2 * TILE,
        "it never moved"
    );
    // Once the walker is through, the standing unit keeps still (no jitter).
    for _ in 0..120 {
        app.update();
    }
    assert!(
        at(&app).distance(pushed) < 0.05 * TILE,
        "{pushed} -> {}",
        at(&app)
    );
}

/// Positions (bits) of every unit after `frames` frames of a crowd of 1,200 units
/// crossing an open map, avoidance on `threads` solver threads.
fn crowd_trace(threads: usize, frames: usize) -> Vec<[u32; 2]> {
    let mut app = app();
    app.insert_resource(TilepathSettings {
        max_threads: threads,
        ..unlimited()
    });
    let rows = vec![".".repeat(80); 80].join("\n");
    app.insert_resource(NavGrid::from_ascii(&rows, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    let mut units = Vec::new();
    for i in 0..1_200i32 {
        // Two blocks of 600 walking through each other.
        let (x, y) = (i % 30, i / 30 % 20);
        let (start, goal) = if i < 600 {
            (Cell::new(5 + x, 10 + y * 3), Cell::new(50 + x, 10 + y * 3))
        } else {
            (Cell::new(50 + x, 11 + y * 3), Cell::new(5 + x, 11 + y * 3))
        };
        units.push(spawn(&mut app, center_of(start, 1), goal, 1));
    }
    for _ in 0..frames {
        app.update();
    }
    units
        .iter()
        .map(|&e| {
            let p = app.world().get::<Transform>(e).unwrap().translation;
            [p.x.to_bits(), p.y.to_bits()]
        })
        .collect()
}

#[test]
fn avoidance_gives_the_same_positions_on_one_and_two_threads() {
    let one = crowd_trace(1, 40);
    let two = crowd_trace(2, 40);
    let moved = one.iter().filter(|p| p[0] != 0).count();
    assert!(moved > 1_000, "the crowd hardly moved");
    assert_eq!(one, two, "positions differ between 1 and 2 threads");
}

/// Two groups of `columns` × 4 units filling a corridor four cells wide, each sent to the
/// other group's place: the frames until all arrived (at most `limit`).
fn head_on(columns: i32, limit: usize) -> Option<usize> {
    let length = 2 * columns + 16;
    let rows = vec![".".repeat(length as usize); 4].join("\n");
    let mut app = app();
    app.insert_resource(NavGrid::from_ascii(&rows, Vec2::ZERO, Vec2::splat(TILE)).unwrap());
    let shift = length - 4 - columns;
    let mut units = Vec::new();
    for x in 2..2 + columns {
        for y in 0..4 {
            let (west, east) = (Cell::new(x, y), Cell::new(x + shift, y));
            units.push(spawn(&mut app, center_of(west, 1), east, 1));
            units.push(spawn(&mut app, center_of(east, 1), west, 1));
        }
    }
    let frames = frames_to_arrive(&mut app, &units, limit);
    if frames.is_none() {
        for &e in &units {
            let at = app.world().get::<Transform>(e).unwrap().translation / TILE;
            let arrived = app.world().get::<Arrived>(e).is_some();
            println!("{e}: at ({:.2}, {:.2}), arrived {arrived}", at.x, at.y);
        }
    }
    frames
}

#[test]
fn two_groups_filling_a_corridor_pass_each_other_head_on() {
    // 2 × 8 units; the walk alone takes 24 tiles at 4 tiles/s: 6 s, 375 frames.
    let frames = head_on(2, 3_750);
    println!("all arrived after {frames:?} frames");
    assert!(
        frames.is_some(),
        "the two groups deadlocked in the corridor"
    );
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
    let mut app = app();
    app.insert_resource(
        NavGrid::from_ascii(&text.join("\n"), Vec2::ZERO, Vec2::splat(TILE)).unwrap(),
    );
    let mut units = Vec::new();
    for x in 2..12 {
        for y in 4..20 {
            let goal = Cell::new(x + 24, y);
            units.push((spawn(&mut app, center_of(Cell::new(x, y), 1), goal, 1), 1));
        }
    }
    let mut worst = 0.0f32;
    for frame in 1..=3_000 {
        app.update();
        let (overlap, pair) = worst_overlap(&app, &units);
        assert!(
            overlap <= OVERLAP_TOLERANCE,
            "frame {frame}: {pair:?} overlap by {overlap} tiles\n{}",
            text.join("\n")
        );
        worst = worst.max(overlap);
    }
    let through = units
        .iter()
        .filter(|(e, _)| app.world().get::<Transform>(*e).unwrap().translation.x > 21.0 * TILE)
        .count();
    println!(
        "worst overlap {worst:.4} tiles, {through} of {} units through the gap",
        units.len()
    );
    assert!(through > 0, "nobody got through the gap");
}
