//! Hexagonal tilemaps (all six of bevy_ecs_tilemap's coordinate systems) synced into the
//! one `NavGrid`, checked against bevy_ecs_tilemap's own projection and neighbours: tiles,
//! optimal paths over terrain, re-planning after tile edits, and steering that never
//! enters a wall.
#![cfg(feature = "tilemap")]

use std::collections::HashSet;

use bevy::prelude::*;
use bevy_ecs_tilemap::helpers::hex_grid::neighbors::HexNeighbors;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::grid::Direction;
use bevy_tilepath::prelude::{
    Arrived, BlocksPath, Cell, CellExt, CollisionLayer, GridLayout, MovementProfile,
    MovementProfiles, NavGrid, PathRequest, PathResult, Steering, Terrain, TilePosExt,
};
use bevy_tilepath::shape::HexLayout;
use bevy_tilepath::tilemap::CollisionLayerError;

use crate::common::{app, found_path, oracle};

const WIDTH: u32 = 12;
const HEIGHT: u32 = 9;
const GRID: TilemapGridSize = TilemapGridSize { x: 30.0, y: 34.0 };
const TILE: TilemapTileSize = TilemapTileSize { x: 30.0, y: 34.0 };
const SYSTEMS: [HexCoordSystem; 6] = [
    HexCoordSystem::Row,
    HexCoordSystem::RowEven,
    HexCoordSystem::RowOdd,
    HexCoordSystem::Column,
    HexCoordSystem::ColumnEven,
    HexCoordSystem::ColumnOdd,
];
/// The layout of each of [`SYSTEMS`], from the plugin's documentation.
const LAYOUTS: [HexLayout; 6] = [
    HexLayout::Row,
    HexLayout::RowEven,
    HexLayout::RowOdd,
    HexLayout::Column,
    HexLayout::ColumnEven,
    HexLayout::ColumnOdd,
];
const FOREST: u8 = 2;

/// A wall down tile column 6 with a gap in its top two rows, and a block of walls.
fn is_wall(pos: TilePos) -> bool {
    (pos.x == 6 && pos.y < HEIGHT - 2) || ((2..=3).contains(&pos.x) && (5..=6).contains(&pos.y))
}

/// Forest (weight 3 for the "infantry" profile) on a band of tiles.
fn is_forest(pos: TilePos) -> bool {
    (8..=10).contains(&pos.x) && pos.y >= 3
}

fn transform() -> Transform {
    Transform::from_xyz(-40.0, 25.0, 0.0).with_scale(Vec3::new(1.25, 1.25, 1.0))
}

/// A hexagonal collision layer of `WIDTH × HEIGHT` tiles, walls marked `BlocksPath`,
/// forest marked with `Terrain`, moved, scaled and centred on its anchor.
fn spawn_hex_map(world: &mut World, system: HexCoordSystem) -> Entity {
    spawn_map(world, system, WIDTH, HEIGHT, is_wall, is_forest)
}

/// A hexagonal collision layer of `width × height` tiles (see [`spawn_hex_map`]).
pub(crate) fn spawn_map(
    world: &mut World,
    system: HexCoordSystem,
    width: u32,
    height: u32,
    wall: fn(TilePos) -> bool,
    forest: fn(TilePos) -> bool,
) -> Entity {
    let size = TilemapSize::new(width, height);
    let map = world.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for x in 0..width {
        for y in 0..height {
            let pos = TilePos::new(x, y);
            let mut tile = world.spawn((pos, TileTextureIndex(0), TilemapId(map)));
            if wall(pos) {
                tile.insert(BlocksPath);
            }
            if forest(pos) {
                tile.insert(Terrain(FOREST));
            }
            storage.set(&pos, tile.id());
        }
    }
    world.entity_mut(map).insert((
        storage,
        size,
        GRID,
        TILE,
        TilemapType::Hexagon(system),
        transform(),
        TilemapAnchor::Center,
        CollisionLayer::default(),
    ));
    map
}

fn infantry() -> MovementProfile {
    MovementProfile::new().with_weight(FOREST, 3)
}

/// Where bevy_ecs_tilemap draws the centre of `pos`, in the world.
fn drawn_at(system: HexCoordSystem, pos: TilePos) -> Vec2 {
    let local = pos.center_in_world(
        &TilemapSize::new(WIDTH, HEIGHT),
        &GRID,
        &TILE,
        &TilemapType::Hexagon(system),
        &TilemapAnchor::Center,
    );
    transform().transform_point(local.extend(0.0)).truncate()
}

/// The tile bevy_ecs_tilemap finds at the world position `world`.
fn tile_at(system: HexCoordSystem, world: Vec2) -> Option<TilePos> {
    let local = transform()
        .compute_affine()
        .inverse()
        .transform_point3(world.extend(0.0))
        .truncate();
    TilePos::from_world_pos(
        &local,
        &TilemapSize::new(WIDTH, HEIGHT),
        &GRID,
        &TILE,
        &TilemapType::Hexagon(system),
        &TilemapAnchor::Center,
    )
}

/// The tiles bevy_ecs_tilemap calls the neighbours of `pos`.
fn neighbours(system: HexCoordSystem, pos: TilePos) -> Vec<TilePos> {
    HexNeighbors::get_neighboring_positions(&pos, &TilemapSize::new(WIDTH, HEIGHT), &system)
        .iter()
        .copied()
        .collect()
}

/// Cheapest path cost between two tiles over bevy_ecs_tilemap's neighbours, by
/// [`oracle`]: a step between tiles of weights `a` and `b` costs `(a + b) / 2`.
fn cheapest(
    system: HexCoordSystem,
    walls: &HashSet<TilePos>,
    weight: impl Fn(TilePos) -> u32,
    from: TilePos,
    to: TilePos,
) -> Option<f64> {
    let successors = |c: Cell| {
        let pos = c.to_tile_pos().expect("on the map");
        neighbours(system, pos)
            .into_iter()
            .filter(|n| !walls.contains(n))
            .map(|n| (n.to_cell(), f64::from(weight(pos) + weight(n)) / 2.0))
            .collect::<Vec<_>>()
    };
    oracle(from.to_cell(), |c| c == to.to_cell(), successors)
}

fn walls() -> HashSet<TilePos> {
    (0..WIDTH)
        .flat_map(|x| (0..HEIGHT).map(move |y| TilePos::new(x, y)))
        .filter(|&p| is_wall(p))
        .collect()
}

#[test]
fn hexagonal_tiles_are_where_bevy_ecs_tilemap_draws_and_finds_them() {
    for (system, layout) in SYSTEMS.into_iter().zip(LAYOUTS) {
        let mut app = app();
        spawn_hex_map(app.world_mut(), system);
        app.update();
        let grid = app.world().resource::<NavGrid>();
        assert_eq!(grid.layout(), GridLayout::Hex(layout), "{system:?}");
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                let pos = TilePos::new(x, y);
                let cell = pos.to_cell();
                let at = drawn_at(system, pos);
                assert!(
                    grid.cell_to_world(cell).distance(at) < 1e-2,
                    "{system:?} tile {pos:?}: at {} but drawn at {at}",
                    grid.cell_to_world(cell)
                );
                assert_eq!(grid.world_to_cell(at), Some(cell), "{system:?}");
                assert_eq!(grid.agent_center(cell, 3), grid.cell_to_world(cell));
                assert_eq!(grid.agent_cell(at, 2), Some(cell), "{system:?}");
                assert_eq!(grid.is_blocked(cell, 1), is_wall(pos), "{system:?} {pos:?}");
                let terrain = if is_forest(pos) { FOREST } else { 0 };
                assert_eq!(grid.terrain(cell), terrain);
                // The core's neighbours are bevy_ecs_tilemap's.
                let mut ours: Vec<TilePos> = tilepath_neighbours(grid, cell);
                let mut theirs = neighbours(system, pos);
                ours.sort_by_key(|p| (p.x, p.y));
                theirs.sort_by_key(|p| (p.x, p.y));
                assert_eq!(ours, theirs, "{system:?} neighbours of {pos:?}");
            }
        }
        // Any world point: the same tile as bevy_ecs_tilemap's, or off the map for both
        // (points where bevy's answer changes within a hundredth of a unit are skipped).
        let centre = drawn_at(system, TilePos::new(WIDTH / 2, HEIGHT / 2));
        let mut checked = 0;
        for i in 0..4000u32 {
            let p = centre
                + Vec2::new(
                    ((i * 7919) % 800) as f32 - 400.0,
                    ((i * 104_729) % 600) as f32 - 300.0,
                ) * 0.9;
            let theirs = tile_at(system, p);
            let near_edge = [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y]
                .iter()
                .any(|&d| tile_at(system, p + d * 0.01) != theirs);
            if near_edge {
                continue;
            }
            let ours = grid.world_to_cell(p).and_then(|c| c.to_tile_pos());
            assert_eq!(ours, theirs, "{system:?} at {p}");
            checked += 1;
        }
        assert!(checked > 3000, "{system:?}: {checked} points checked");
    }
}

/// The tiles the grid's shape connects to `cell`, on the map.
fn tilepath_neighbours(grid: &NavGrid, cell: Cell) -> Vec<TilePos> {
    let shape = grid.layout().shape();
    Direction::ALL
        .iter()
        .filter(|&&d| shape.is_neighbour(cell, d))
        .map(|d| {
            let (dx, dy) = d.delta();
            Cell::new(cell.x + dx, cell.y + dy)
        })
        .filter_map(|c| c.to_tile_pos())
        .filter(|p| p.x < WIDTH && p.y < HEIGHT)
        .collect()
}

#[test]
fn hexagonal_paths_are_optimal_over_bevy_neighbours_replan_and_steer_clear_of_walls() {
    let pairs = [
        (TilePos::new(2, 2), TilePos::new(10, 2)),
        (TilePos::new(1, 7), TilePos::new(9, 0)),
        (TilePos::new(0, 0), TilePos::new(11, 8)),
    ];
    for system in SYSTEMS {
        let mut app = app();
        app.world_mut()
            .resource_mut::<MovementProfiles>()
            .insert("infantry", infantry());
        let map = spawn_hex_map(app.world_mut(), system);
        let units: Vec<Entity> = pairs
            .iter()
            .enumerate()
            .map(|(i, &(from, to))| {
                let start = drawn_at(system, from).extend(1.0);
                let mut request = PathRequest::new(drawn_at(system, to));
                if i != 1 {
                    request = request.profile("infantry");
                }
                app.world_mut()
                    .spawn((
                        Transform::from_translation(start),
                        request,
                        Steering::with_speed(90.0),
                    ))
                    .id()
            })
            .collect();
        app.update();
        let mut walls = walls();
        let check = |app: &App, walls: &HashSet<TilePos>, unit: Entity, infantry: bool| {
            let path = found_path(app, unit);
            let tiles: Vec<TilePos> = path
                .cells
                .iter()
                .map(|c| c.to_tile_pos().expect("a tile"))
                .collect();
            let (from, to) = (tiles[0], *tiles.last().unwrap());
            for w in tiles.windows(2) {
                assert!(
                    !walls.contains(&w[1]),
                    "{system:?}: through wall {:?}",
                    w[1]
                );
                assert!(
                    neighbours(system, w[0]).contains(&w[1]),
                    "{system:?}: {:?} -> {:?} is no neighbour in {tiles:?}",
                    w[0],
                    w[1]
                );
            }
            let weight = |p: TilePos| if infantry && is_forest(p) { 3 } else { 1 };
            let best = cheapest(system, walls, weight, from, to).expect("reachable");
            assert!(
                (f64::from(path.cost) - best).abs() < 1e-3,
                "{system:?} {from:?} -> {to:?}: cost {} but the oracle says {best}",
                path.cost
            );
            tiles
        };
        for (i, (&unit, &(from, to))) in units.iter().zip(&pairs).enumerate() {
            let tiles = check(&app, &walls, unit, i != 1);
            assert_eq!((tiles[0], *tiles.last().unwrap()), (from, to));
        }

        // A wall on the third unit's path, a few tiles ahead: its path is planned again
        // around it, still optimal from where the unit is.
        let tiles = check(&app, &walls, units[2], true);
        let blocked = tiles[tiles.len() / 2];
        let tile = app
            .world()
            .get::<TileStorage>(map)
            .unwrap()
            .get(&blocked)
            .unwrap();
        app.world_mut().entity_mut(tile).insert(BlocksPath);
        walls.insert(blocked);
        app.update();
        let tiles = check(&app, &walls, units[2], true);
        assert!(
            !tiles.contains(&blocked),
            "{system:?}: the new wall is avoided"
        );

        let mut arrived = false;
        for _ in 0..3000 {
            app.update();
            for &unit in &units {
                let at = app.world().get::<Transform>(unit).unwrap().translation;
                let tile = tile_at(system, at.truncate());
                assert!(
                    tile.is_some_and(|t| !walls.contains(&t)),
                    "{system:?}: unit at {at} stands on {tile:?}"
                );
                assert_eq!(at.z, 1.0, "z is kept");
            }
            arrived = units
                .iter()
                .all(|&u| app.world().get::<Arrived>(u).is_some());
            if arrived {
                break;
            }
        }
        assert!(arrived, "{system:?}: every unit arrives");
        for (&unit, &(_, to)) in units.iter().zip(&pairs) {
            let at = app.world().get::<Transform>(unit).unwrap().translation;
            assert_eq!(tile_at(system, at.truncate()), Some(to), "{system:?}");
            assert!(matches!(
                app.world().get::<PathResult>(unit),
                Some(PathResult::Found(_))
            ));
        }
    }
}

#[test]
fn a_square_layer_beside_a_hexagonal_primary_is_left_out() {
    let mut app = app();
    spawn_hex_map(app.world_mut(), HexCoordSystem::RowOdd);
    let square = spawn_hex_map(app.world_mut(), HexCoordSystem::RowOdd);
    app.world_mut()
        .entity_mut(square)
        .insert(TilemapType::Square);
    let other = spawn_hex_map(app.world_mut(), HexCoordSystem::Column);
    app.update();
    let grid = app.world().resource::<NavGrid>();
    assert_eq!(grid.layout(), GridLayout::Hex(HexLayout::RowOdd));
    assert_eq!((grid.size().width, grid.size().height), (WIDTH, HEIGHT));
    for layer in [square, other] {
        assert!(matches!(
            app.world().get::<CollisionLayerError>(layer),
            Some(CollisionLayerError::LayoutMismatch(_))
        ));
    }
}
