//! Tilemap collision layers: sync, placement (also under a parent), unsupported map types.
#![cfg(feature = "tilemap")]

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::components::Replanning;
use bevy_tilepath::prelude::{
    BlocksPath, Cell, CellExt, CollisionLayer, GridLayout, NavGrid, PathFailure, PathRequest,
    PathResult, TilePosExt,
};
use bevy_tilepath::scenario::Scenario;
use bevy_tilepath::tilemap::CollisionLayerError;

use crate::common::{TILE, app, found_path, level, spawn_units};
use crate::tilemaps::spawn_tilemap;

#[test]
fn texture_rules_layer_unions_and_tile_despawns_update_the_grid_incrementally() {
    let mut app = app();
    let free = vec![vec![false; 8]; 8];
    let (ground, ground_tiles) = spawn_tilemap(app.world_mut(), &free);
    let (water, water_tiles) = spawn_tilemap(app.world_mut(), &free);
    app.world_mut()
        .entity_mut(water)
        .insert(CollisionLayer::from_texture_predicate(|index| index >= 5));
    app.world_mut()
        .entity_mut(ground_tiles[3])
        .insert(BlocksPath);
    app.world_mut()
        .entity_mut(water_tiles[8 + 3])
        .insert(TileTextureIndex(6));
    app.update();
    let obstacle = |app: &App, x, y| {
        app.world()
            .resource::<NavGrid>()
            .scenario()
            .is_obstacle(Cell::new(x, y))
    };
    assert!(obstacle(&app, 3, 0) && obstacle(&app, 3, 1) && !obstacle(&app, 4, 1));
    let generation = app.world().resource::<NavGrid>().generation();

    app.world_mut()
        .entity_mut(water_tiles[8 + 3])
        .insert(TileTextureIndex(2));
    app.world_mut()
        .entity_mut(water_tiles[8 + 4])
        .insert(TileTextureIndex(9));
    app.world_mut().entity_mut(ground_tiles[3]).despawn();
    app.update();
    assert!(!obstacle(&app, 3, 0) && !obstacle(&app, 3, 1) && obstacle(&app, 4, 1));
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(
        grid.generation(),
        generation + 1,
        "one frame of edits is one change"
    );

    app.world_mut()
        .entity_mut(ground)
        .insert(CollisionLayer::from_texture_indices([0]));
    app.update();
    assert!(obstacle(&app, 0, 0) && obstacle(&app, 7, 7));
    app.world_mut().entity_mut(ground).despawn();
    app.update();
    assert!(
        !obstacle(&app, 0, 0) && obstacle(&app, 4, 1),
        "a despawned layer frees its cells"
    );
}

#[test]
fn anchor_and_transform_place_cells_where_the_tilemap_draws_them() {
    let mut app = app();
    let (map, _) = spawn_tilemap(app.world_mut(), &vec![vec![false; 10]; 6]);
    let transform = Transform::from_xyz(100.0, -50.0, 0.0).with_scale(Vec3::new(2.0, 2.0, 1.0));
    app.world_mut()
        .entity_mut(map)
        .insert((transform, TilemapAnchor::Center));
    app.update();
    let grid = app.world().resource::<NavGrid>();
    let (size, grid_size, tile_size) = (
        TilemapSize { x: 10, y: 6 },
        TilemapGridSize { x: TILE, y: TILE },
        TilemapTileSize { x: TILE, y: TILE },
    );
    for (x, y) in [(0, 0), (9, 5), (4, 2)] {
        let local = TilePos { x, y }.center_in_world(
            &size,
            &grid_size,
            &tile_size,
            &TilemapType::Square,
            &TilemapAnchor::Center,
        );
        let world = transform.transform_point(local.extend(0.0)).truncate();
        let cell = Cell::new(x as i32, y as i32);
        assert!(grid.cell_to_world(cell).distance(world) < 1e-3);
        assert_eq!(
            grid.world_to_cell(world + Vec2::splat(TILE * 0.9)),
            Some(cell)
        );
    }
    assert_eq!(
        grid.world_to_cell(Vec2::new(100.0 - 10.0 * TILE - 1.0, -50.0)),
        None
    );
}

#[test]
fn a_tilemap_under_a_translated_parent_places_cells_in_world_space() {
    let mut app = app();
    let (map, _) = spawn_tilemap(app.world_mut(), &vec![vec![false; 8]; 4]);
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(100.0, 50.0, 0.0))
        .id();
    app.world_mut()
        .entity_mut(map)
        .insert((ChildOf(parent), Transform::from_xyz(-20.0, 10.0, 0.0)));
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_xyz(80.0 + 2.0 * TILE, 60.0 + TILE, 0.0),
            PathRequest::new(Cell::new(7, 3)),
        ))
        .id();
    app.update();
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(grid.cell_to_world(Cell::new(0, 0)), Vec2::new(80.0, 60.0));
    let path = found_path(&app, unit);
    assert_eq!(path.cells.first(), Some(&Cell::new(2, 1)));

    // Moving the parent moves the grid (and re-plans from the unit's new cell).
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .x -= 2.0 * TILE;
    app.update();
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(grid.cell_to_world(Cell::new(0, 0)), Vec2::new(48.0, 60.0));
    let path = found_path(&app, unit);
    assert_eq!(path.cells.first(), Some(&Cell::new(4, 1)));
}

#[test]
fn a_tilemap_turned_hexagonal_becomes_a_hex_grid_and_back() {
    let mut app = app();
    let (map, _) = spawn_tilemap(app.world_mut(), &level());
    let units = spawn_units(&mut app, 5, 21, false, false);
    let answered = |app: &App| {
        units.iter().all(|unit| {
            let result = app.world().get::<PathResult>(unit.entity).unwrap();
            !result.is_pending() && app.world().get::<Replanning>(unit.entity).is_none()
        })
    };
    for map_type in [
        TilemapType::Hexagon(HexCoordSystem::Row),
        TilemapType::Hexagon(HexCoordSystem::ColumnOdd),
    ] {
        app.world_mut().entity_mut(map).insert(map_type);
        app.update();
        let grid = app.world().resource::<NavGrid>();
        assert!(
            matches!(grid.layout(), GridLayout::Hex(_)),
            "a hexagonal grid from a {map_type:?} map"
        );
        let size = app.world().get::<TilemapSize>(map).copied().unwrap();
        assert_eq!((grid.size().width, grid.size().height), (size.x, size.y));
        assert!(app.world().get::<CollisionLayerError>(map).is_none());
        for _ in 0..100 {
            if answered(&app) {
                break;
            }
            app.update();
        }
        assert!(answered(&app), "every request answered on {map_type:?}");
        for unit in &units {
            let result = app.world().get::<PathResult>(unit.entity).unwrap();
            if let Some(path) = result.found() {
                assert_eq!(
                    path.generation,
                    app.world().resource::<NavGrid>().generation()
                );
            }
        }
    }

    // Back to square: the square grid is built and the requests are answered on it
    // (within the frame budget, so over a few frames on a loaded machine).
    app.world_mut().entity_mut(map).insert(TilemapType::Square);
    app.update();
    assert_eq!(
        app.world().resource::<NavGrid>().layout(),
        GridLayout::Square
    );
    let on_square = |app: &App| {
        let grid = app.world().resource::<NavGrid>();
        answered(app)
            && units.iter().all(|unit| {
                match app.world().get::<PathResult>(unit.entity).unwrap() {
                    // Planned on the square grid: its first waypoint is its first cell's centre.
                    PathResult::Found(p) => {
                        p.waypoints[0].distance(grid.cell_to_world(p.cells[0])) < TILE
                    }
                    PathResult::Failed(f) => {
                        !matches!(f, PathFailure::NoMap | PathFailure::MapRefused)
                    }
                    PathResult::Pending => false,
                }
            })
    };
    for _ in 0..100 {
        if on_square(&app) {
            break;
        }
        app.update();
    }
    assert!(on_square(&app), "every request answered on the new grid");
}

#[test]
fn a_hexagonal_layer_beside_a_square_one_is_left_out_of_the_grid() {
    let mut app = app();
    let (_, _) = spawn_tilemap(app.world_mut(), &vec![vec![false; 6]; 6]);
    let (hex, _) = spawn_tilemap(app.world_mut(), &vec![vec![false; 8]; 8]);
    app.world_mut()
        .entity_mut(hex)
        .insert(TilemapType::Hexagon(HexCoordSystem::Column));
    app.update();
    let grid = app.world().resource::<NavGrid>();
    assert_eq!((grid.size().width, grid.size().height), (6, 6));
    // Edits of its tiles are ignored.
    let tile = app
        .world()
        .get::<TileStorage>(hex)
        .unwrap()
        .get(&TilePos::new(1, 1));
    app.world_mut().entity_mut(tile.unwrap()).insert(BlocksPath);
    app.update();
    assert!(
        !app.world()
            .resource::<NavGrid>()
            .scenario()
            .is_obstacle(Cell::new(1, 1))
    );
}

#[test]
fn an_isometric_layer_beside_a_square_primary_is_left_out_of_the_grid() {
    let mut app = app();
    let (_, _) = spawn_tilemap(app.world_mut(), &vec![vec![false; 6]; 6]);
    let (iso, _) = spawn_tilemap(app.world_mut(), &vec![vec![true; 8]; 8]);
    let staggered = TilemapType::Isometric(IsoCoordSystem::Staggered);
    app.world_mut().entity_mut(iso).insert(staggered);
    app.update();
    let grid = app.world().resource::<NavGrid>();
    assert_eq!((grid.size().width, grid.size().height), (6, 6));
    assert!(!grid.scenario().is_obstacle(Cell::new(1, 1)));
    assert_eq!(
        app.world().get::<CollisionLayerError>(iso),
        Some(&CollisionLayerError::LayoutMismatch(staggered))
    );
}

#[test]
fn tile_positions_and_cells_convert_both_ways() {
    for (x, y) in [(0, 0), (3, 9), (63, 1)] {
        let pos = TilePos::new(x, y);
        assert_eq!(pos.to_cell(), Cell::new(x as i32, y as i32));
        assert_eq!(pos.to_cell().to_tile_pos(), Some(pos));
    }
    assert_eq!(Cell::new(-1, 0).to_tile_pos(), None);
    assert_eq!(Cell::new(0, -5).to_tile_pos(), None);
    assert_eq!(TilePos::new(u32::MAX, 0).to_cell(), Cell::new(i32::MAX, 0));
}
