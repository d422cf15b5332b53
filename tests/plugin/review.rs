//! The review of answered requests under `ReplanSettings::review_budget`: a few path cells
//! a frame, yet every cut and every shortcut found within the documented bound, and no
//! unit walking into a wall meanwhile.

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    Arrived, Cell, FoundPath, NavGrid, PathRequest, PathResult, ReplanSettings, Steering,
    TilepathSettings,
};
use bevy_tilepath::stats::TilepathStats;
use bevy_tilepath::steering::Avoidance;

use crate::common::{app, position, unlimited, world_of};

/// An open grid of `width × height` cells, `TILE` apart, cell (0, 0) at the origin.
fn open_grid(width: usize, height: usize) -> NavGrid {
    let rows = vec![".".repeat(width); height].join("\n");
    NavGrid::from_ascii(&rows, Vec2::ZERO, Vec2::splat(crate::common::TILE)).unwrap()
}

/// True when every step of `path` is allowed on the current map (one-cell agents).
fn walkable(grid: &NavGrid, path: &FoundPath) -> bool {
    path.cells.iter().all(|&c| !grid.is_blocked(c, 1))
        && path.cells.windows(2).all(|w| {
            w[0].x == w[1].x
                || w[0].y == w[1].y
                || (!grid.is_blocked(Cell::new(w[1].x, w[0].y), 1)
                    && !grid.is_blocked(Cell::new(w[0].x, w[1].y), 1))
        })
}

fn path_of(app: &App, unit: Entity) -> FoundPath {
    match app.world().get::<PathResult>(unit) {
        Some(PathResult::Found(path)) => path.clone(),
        other => panic!("{unit}: {other:?}"),
    }
}

/// The bound of the settings' docs: `min(2R, ⌈2C / max(B, 1)⌉)` frames, `R` the
/// requests, `C` the cells of their paths.
fn bound(app: &App, units: &[Entity], budget: u32) -> usize {
    let cells: usize = units.iter().map(|&u| path_of(app, u).cells.len()).sum();
    (2 * units.len()).min((2 * cells).div_ceil(budget.max(1) as usize))
}

#[test]
fn a_tiny_review_budget_finds_every_cut_and_every_shortcut_within_its_bound() {
    const BUDGET: u32 = 100;
    let mut app = app();
    app.insert_resource(open_grid(48, 48));
    app.insert_resource(TilepathSettings {
        replan: ReplanSettings {
            review_budget: BUDGET,
            ..default()
        },
        ..unlimited()
    });
    // Standing units (no steering): straight paths of 48 cells along rows 0..30.
    let units: Vec<Entity> = (0..30)
        .map(|y| {
            let start = world_of(Cell::new(0, y)).extend(0.0);
            let request = PathRequest::new(Cell::new(47, y));
            app.world_mut()
                .spawn((Transform::from_translation(start), request))
                .id()
        })
        .collect();
    app.update();
    let cut_bound = bound(&app, &units, BUDGET);
    // A wall across every path, with a gap below them.
    let wall: Vec<Cell> = (0..32).map(|y| Cell::new(24, y)).collect();
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits(wall.iter().map(|&c| (c, true)));
    // A far cell flips every frame: edits never stop, and the passes must still end.
    let far = Cell::new(47, 47);
    let flip = |app: &mut App, frame: usize| {
        app.world_mut()
            .resource_mut::<NavGrid>()
            .apply_edits([(far, frame.is_multiple_of(2))]);
    };
    let mut fixed_at = vec![None; units.len()];
    for frame in 1..=cut_bound + 1 {
        if frame > 1 {
            flip(&mut app, frame);
        }
        app.update();
        let reviewed = app.world().resource::<TilepathStats>().reviewed;
        // Paths of 48 cells (more once re-planned) against 100 cells: at most three.
        assert!(reviewed <= 3, "frame {frame}: {reviewed} reviewed");
        let grid = app.world().resource::<NavGrid>();
        for (i, &unit) in units.iter().enumerate() {
            if fixed_at[i].is_none() && walkable(grid, &path_of(&app, unit)) {
                fixed_at[i] = Some(frame);
            }
        }
    }
    let fixed: Vec<usize> = fixed_at
        .iter()
        .enumerate()
        .map(|(i, f)| f.unwrap_or_else(|| panic!("unit {i} still cut after {cut_bound} frames")))
        .collect();
    let last = *fixed.iter().max().unwrap();
    println!("cuts: all re-planned by frame {last} (bound {cut_bound})");
    assert!(
        last > 1,
        "a budget of {BUDGET} cells cannot review 30 paths in one frame"
    );
    assert!(last <= cut_bound);

    // The wall goes: every detour can be shortened again.
    for _ in 0..3 {
        app.update(); // the far cell rests; the detours settle
    }
    let shortcut_bound = bound(&app, &units, BUDGET);
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits(wall.iter().map(|&c| (c, false)));
    let mut straight_at = vec![None; units.len()];
    for frame in 1..=shortcut_bound + 1 {
        if frame > 1 {
            flip(&mut app, frame);
        }
        app.update();
        for (i, &unit) in units.iter().enumerate() {
            if straight_at[i].is_none() && path_of(&app, unit).cells.len() == 48 {
                straight_at[i] = Some(frame);
            }
        }
    }
    let last = straight_at
        .iter()
        .enumerate()
        .map(|(i, f)| f.unwrap_or_else(|| panic!("unit {i} never shortened")))
        .max()
        .unwrap();
    println!("shortcuts: all found by frame {last} (bound {shortcut_bound})");
    assert!(last > 1);
    assert!(last <= shortcut_bound);
}

#[test]
fn units_never_enter_a_wall_whose_cut_their_review_has_not_reached() {
    let mut app = app();
    app.insert_resource(open_grid(40, 60));
    // One request reviewed a frame: the last unit's turn comes 56 frames after the wall,
    // while units reach it in about 30.
    app.insert_resource(TilepathSettings {
        replan: ReplanSettings {
            review_budget: 0,
            repair_budget: 0,
            ..default()
        },
        ..unlimited()
    });
    let steering = Steering {
        speed: 320.0,
        avoidance: Avoidance::Off,
        ..Steering::default()
    };
    let units: Vec<Entity> = (0..56)
        .map(|y| {
            let start = world_of(Cell::new(0, y)).extend(0.0);
            app.world_mut()
                .spawn((
                    Transform::from_translation(start),
                    PathRequest::new(Cell::new(39, y)),
                    steering,
                ))
                .id()
        })
        .collect();
    for _ in 0..20 {
        app.update(); // walking, a few cells out
    }
    // Beyond the look-ahead (8 cells) of every unit: only the round-robin finds the cuts.
    const WALL_X: i32 = 17;
    let wall: Vec<Cell> = (0..57).map(|y| Cell::new(WALL_X, y)).collect();
    {
        let grid = app.world().resource::<NavGrid>();
        for &u in &units {
            let x = grid.agent_cell(position(&app, u), 1).unwrap().x;
            assert!(x < WALL_X - 9, "{u} at x = {x}");
        }
    }
    let cut_bound = bound(&app, &units, 0);
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits(wall.iter().map(|&c| (c, true)));
    let (mut waited, mut last_cut) = (0, 0);
    for frame in 1..=1_500 {
        let before: Vec<Vec2> = units.iter().map(|&u| position(&app, u)).collect();
        app.update();
        let grid = app.world().resource::<NavGrid>();
        for (i, &u) in units.iter().enumerate() {
            let cell = grid.agent_cell(position(&app, u), 1).unwrap();
            assert!(
                !grid.is_blocked(cell, 1),
                "frame {frame}: {u} in a wall at {cell}"
            );
            let cut = !walkable(grid, &path_of(&app, u));
            if cut {
                last_cut = frame;
            }
            if cut && app.world().get::<Arrived>(u).is_none() && position(&app, u) == before[i] {
                waited += 1; // standing before a wall its review has not reached
            }
        }
        if units
            .iter()
            .all(|&u| app.world().get::<Arrived>(u).is_some())
        {
            println!(
                "all arrived by frame {frame}; {waited} unit-frames waited at a wall; \
                 last cut path until frame {last_cut} (bound {cut_bound})"
            );
            assert!(
                waited > 0,
                "the review reached every cut before its unit did"
            );
            assert!(last_cut < cut_bound);
            return;
        }
    }
    panic!("not every unit arrived");
}
