//! Hexagonal searches under tiles that change every frame: carried over the edits, and
//! answered within a few frames even when every edit undoes their progress.
#![cfg(feature = "tilemap")]

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::{
    Algorithm, BlocksPath, Cell, FrameBudget, HexGrid, PathRequest, PathResult, TilepathSettings,
};
use bevy_tilepath::stats::TilepathStats;
use tilepath::hex::HexLayout;

use crate::common::{app, found_path};
use crate::hex::spawn_map;

const SIDE: u32 = 96;
const BUDGET: u32 = 1500;

/// A wall across the map with a gap at its far end: a Dijkstra from one side to the other
/// expands most of the map, many times the frame budget.
fn across(p: TilePos) -> bool {
    p.y == SIDE / 2 && p.x < SIDE - 2
}

/// The pocket of the second test: a ring of walls two steps around tile (6, 6), with
/// doors two tiles east and west of it; the west door starts closed.
fn pocket(p: TilePos) -> bool {
    let ring = HexLayout::RowEven
        .hex(p.x as i32, p.y as i32)
        .distance(HexLayout::RowEven.hex(6, 6))
        == 2;
    across(p) || (ring && p != TilePos::new(8, 6))
}

/// An app with a `SIDE × SIDE` RowEven map walled by `wall`, a budget of [`BUDGET`]
/// expansions a frame, and a unit at `from` asking a Dijkstra search to `to`.
fn long_search(wall: fn(TilePos) -> bool, from: Cell, to: Cell) -> (App, Entity, Entity) {
    let mut app = app();
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(BUDGET),
        ..default()
    });
    let map = spawn_map(
        app.world_mut(),
        HexCoordSystem::RowEven,
        SIDE,
        SIDE,
        wall,
        |_| false,
    );
    app.update();
    let start = app.world().resource::<HexGrid>().tile_to_world(from);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(start.extend(0.0)),
            PathRequest::new(to).algorithm(Algorithm::Dijkstra),
        ))
        .id();
    (app, map, unit)
}

fn tile(app: &App, map: Entity, x: u32, y: u32) -> Entity {
    let storage = app.world().get::<TileStorage>(map).unwrap();
    storage.get(&TilePos::new(x, y)).unwrap()
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
fn a_long_hexagonal_search_is_carried_over_edits_every_frame() {
    let (from, to) = (Cell::new(2, 2), Cell::new(2, SIDE as i32 - 3));
    let (mut app, map, unit) = long_search(across, from, to);
    // A tile in a far corner, blocked and freed every frame.
    let corner = tile(&app, map, SIDE - 1, 0);
    let frame = answer(&mut app, unit, |app, frame| {
        let mut corner = app.world_mut().entity_mut(corner);
        if frame % 2 == 0 {
            corner.insert(BlocksPath);
        } else {
            corner.remove::<BlocksPath>();
        }
    });
    let path = found_path(&app, unit);
    assert_eq!(path.reached, to);
    // It spanned frames, meeting edits, and never started over: all the work done is
    // the one search's.
    assert!(frame >= 2, "answered after {frame} frames");
    let stats = app.world().resource::<TilepathStats>();
    assert_eq!(stats.total_expanded, u64::from(path.expanded));
}

#[test]
fn a_hexagonal_search_every_edit_sets_back_still_ends() {
    let (from, to) = (Cell::new(6, 6), Cell::new(6, SIDE as i32 - 3));
    let (mut app, map, unit) = long_search(pocket, from, to);
    // The pocket's doors swap every frame: closing the open one cuts the way of all the
    // search reached through it.
    let (east, west) = (tile(&app, map, 8, 6), tile(&app, map, 4, 6));
    app.world_mut().entity_mut(west).insert(BlocksPath);
    let frame = answer(&mut app, unit, |app, frame| {
        let (close, open) = if frame % 2 == 0 {
            (east, west)
        } else {
            (west, east)
        };
        app.world_mut().entity_mut(close).insert(BlocksPath);
        app.world_mut().entity_mut(open).remove::<BlocksPath>();
    });
    let path = found_path(&app, unit);
    assert_eq!(path.reached, to);
    // The search needs many frames' budgets; two setbacks make it run to its end.
    assert!(path.expanded > 3 * BUDGET, "{} expansions", path.expanded);
    assert!(frame <= 3, "answered after {frame} frames");
}
