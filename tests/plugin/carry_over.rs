//! Searches under a map that changes every frame, on every grid shape: carried over the
//! edits, and answered within a few frames even when every edit undoes their progress.

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    Algorithm, Cell, FrameBudget, GridLayout, NavGrid, PathRequest, PathResult, TilepathSettings,
};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::stats::TilepathStats;

use crate::common::{TILE, app, found_path, shapes};

const SIDE: i32 = 96;
const BUDGET: u32 = 1500;

/// A wall across the map with a gap at its far end: a Dijkstra from one side to the other
/// expands most of the map, many times the frame budget.
fn across(c: Cell) -> bool {
    c.y == SIDE / 2 && c.x < SIDE - 2
}

/// The pocket of the second test: a ring of walls two steps around tile (6, 6), with
/// doors two tiles east and west of it; the west door starts closed.
fn pocket(layout: GridLayout, c: Cell) -> bool {
    let ring = layout.shape().steps(c, Cell::new(6, 6)) == 2;
    across(c) || (ring && c != Cell::new(8, 6))
}

/// An app with a `SIDE × SIDE` map laid out as `layout`, walled by `wall`, a budget of
/// [`BUDGET`] expansions a frame, and a unit at `from` asking a Dijkstra search to `to`.
fn long_search(
    layout: GridLayout,
    wall: impl Fn(Cell) -> bool,
    from: Cell,
    to: Cell,
) -> (App, Entity) {
    let text: Vec<String> = (0..SIDE)
        .map(|y| {
            (0..SIDE)
                .map(|x| if wall(Cell::new(x, y)) { '#' } else { '.' })
                .collect()
        })
        .collect();
    let map = CachedScenario::from_ascii(&text.join("\n")).unwrap();
    let grid = NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)).with_layout(layout);
    let start = grid.cell_to_world(from);
    let mut app = app();
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(BUDGET),
        ..default()
    });
    app.insert_resource(grid);
    app.update();
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start.extend(0.0)),
            PathRequest::new(to).algorithm(Algorithm::Dijkstra),
        ))
        .id();
    (app, unit)
}

/// Sets `cell` blocked or free.
fn set(app: &mut App, cell: Cell, blocked: bool) {
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_edits([(cell, blocked)]);
}

/// Runs frames, calling `edit` before each, until the unit has an answer; returns the
/// frame it came in.
fn answer(app: &mut App, unit: Entity, mut edit: impl FnMut(&mut App, u32)) -> u32 {
    for frame in 0..40 {
        edit(app, frame);
        app.update();
        if !app.world().get::<PathResult>(unit).unwrap().is_pending() {
            return frame;
        }
    }
    panic!("no answer in 40 frames while the map changes every frame");
}

#[test]
fn a_long_search_is_carried_over_edits_every_frame_on_every_shape() {
    let (from, to) = (Cell::new(2, 2), Cell::new(2, SIDE - 3));
    for layout in shapes() {
        let (mut app, unit) = long_search(layout, across, from, to);
        // A tile in a far corner, blocked and freed every frame.
        let corner = Cell::new(SIDE - 1, 0);
        let frame = answer(&mut app, unit, |app, frame| {
            set(app, corner, frame % 2 == 0);
        });
        let path = found_path(&app, unit);
        assert_eq!(path.reached, to, "{layout:?}");
        // It spanned frames, meeting edits, and never started over: all the work done is
        // the one search's.
        assert!(frame >= 2, "{layout:?}: answered after {frame} frames");
        let stats = app.world().resource::<TilepathStats>();
        assert_eq!(stats.total_expanded, u64::from(path.expanded), "{layout:?}");
    }
}

#[test]
fn a_search_every_edit_sets_back_still_ends_on_every_shape() {
    let (from, to) = (Cell::new(6, 6), Cell::new(6, SIDE - 3));
    for layout in shapes() {
        let (mut app, unit) = long_search(layout, |c| pocket(layout, c), from, to);
        // The pocket's doors swap every frame: closing the open one cuts the way of all
        // the search reached through it.
        let (east, west) = (Cell::new(8, 6), Cell::new(4, 6));
        set(&mut app, west, true);
        let frame = answer(&mut app, unit, |app, frame| {
            let (close, open) = if frame % 2 == 0 {
                (east, west)
            } else {
                (west, east)
            };
            app.world_mut()
                .resource_mut::<NavGrid>()
                .apply_edits([(close, true), (open, false)]);
        });
        let path = found_path(&app, unit);
        println!(
            "{layout:?}: answered after {frame} frames, {} expansions",
            path.expanded
        );
        assert_eq!(path.reached, to, "{layout:?}");
        // The search needs many frames' budgets; two setbacks make it run to its end.
        assert!(
            path.expanded > 3 * BUDGET,
            "{layout:?}: {} expansions",
            path.expanded
        );
        assert!(frame <= 4, "{layout:?}: answered after {frame} frames");
    }
}
