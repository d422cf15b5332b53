//! Isometric tilemaps (diamond and staggered), checked against bevy_ecs_tilemap's own
//! projection and neighbours: cells, optimal paths, and steering that never enters a wall.
#![cfg(feature = "tilemap")]

use bevy::prelude::*;
use bevy_ecs_tilemap::helpers::square_grid::neighbors::SquareDirection;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::{
    Arrived, BlocksPath, Cell, CellExt, CollisionLayer, GridLayout, GridStepper, NavGrid,
    PathRequest, PathResult, Steering, TilePosExt,
};
use bevy_tilepath::scenario::Scenario;

use crate::common::{app, found_path, oracle};

pub const WIDTH: u32 = 12;
pub const HEIGHT: u32 = 9;
pub const GRID: TilemapGridSize = TilemapGridSize { x: 64.0, y: 32.0 };
pub const TILE: TilemapTileSize = TilemapTileSize { x: 64.0, y: 34.0 };
pub const LAYOUTS: [IsoCoordSystem; 2] = [IsoCoordSystem::Diamond, IsoCoordSystem::Staggered];

/// A wall down tile column 6 with a gap at its top two rows, and a block of walls.
pub fn is_wall(pos: TilePos) -> bool {
    (pos.x == 6 && pos.y < HEIGHT - 2) || ((2..=3).contains(&pos.x) && (5..=6).contains(&pos.y))
}

/// An isometric collision layer of `WIDTH × HEIGHT` tiles, walls marked `BlocksPath`,
/// moved, scaled and centred on its anchor.
pub fn spawn_iso_map(world: &mut World, system: IsoCoordSystem) -> Entity {
    let size = TilemapSize::new(WIDTH, HEIGHT);
    let map = world.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            let pos = TilePos::new(x, y);
            let mut tile = world.spawn((pos, TileTextureIndex(0), TilemapId(map)));
            if is_wall(pos) {
                tile.insert(BlocksPath);
            }
            storage.set(&pos, tile.id());
        }
    }
    world.entity_mut(map).insert((
        storage,
        size,
        GRID,
        TILE,
        TilemapType::Isometric(system),
        transform(),
        TilemapAnchor::Center,
        CollisionLayer::default(),
    ));
    map
}

fn transform() -> Transform {
    Transform::from_xyz(100.0, -50.0, 0.0).with_scale(Vec3::new(1.5, 1.5, 1.0))
}

/// Where bevy_ecs_tilemap draws the centre of `pos`, in the world.
pub fn drawn_at(system: IsoCoordSystem, pos: TilePos) -> Vec2 {
    let local = pos.center_in_world(
        &TilemapSize::new(WIDTH, HEIGHT),
        &GRID,
        &TILE,
        &TilemapType::Isometric(system),
        &TilemapAnchor::Center,
    );
    transform().transform_point(local.extend(0.0)).truncate()
}

/// The tile bevy_ecs_tilemap finds at the world position `world`.
fn tile_at(system: IsoCoordSystem, world: Vec2) -> Option<TilePos> {
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
        &TilemapType::Isometric(system),
        &TilemapAnchor::Center,
    )
}

/// The tiles bevy_ecs_tilemap calls the neighbours of `pos`, with the orthogonal ones
/// each diagonal passes between.
fn neighbours(system: IsoCoordSystem, pos: TilePos) -> Vec<(TilePos, f64, Vec<TilePos>)> {
    let size = TilemapSize::new(WIDTH, HEIGHT);
    let step = |d: SquareDirection| match system {
        IsoCoordSystem::Diamond => pos.diamond_offset(&d, &size),
        IsoCoordSystem::Staggered => pos.staggered_offset(&d, &size),
    };
    use SquareDirection::*;
    let mut out = Vec::new();
    for (d, sides) in [
        (East, vec![]),
        (North, vec![]),
        (West, vec![]),
        (South, vec![]),
        (NorthEast, vec![North, East]),
        (NorthWest, vec![North, West]),
        (SouthWest, vec![South, West]),
        (SouthEast, vec![South, East]),
    ] {
        let Some(n) = step(d) else { continue };
        let between: Option<Vec<TilePos>> = sides.into_iter().map(step).collect();
        let Some(between) = between else { continue };
        let cost = if between.is_empty() {
            1.0
        } else {
            std::f64::consts::SQRT_2
        };
        out.push((n, cost, between));
    }
    out
}

/// Shortest path cost between two tiles over bevy_ecs_tilemap's neighbours, by
/// [`oracle`]: straight steps 1, diagonal ones √2 and only between two free tiles.
fn shortest(system: IsoCoordSystem, from: TilePos, to: TilePos) -> Option<f64> {
    let tile = |c: Cell| TilePos::new(c.x as u32, c.y as u32);
    let successors = |c: Cell| {
        neighbours(system, tile(c))
            .into_iter()
            .filter(|(n, _, between)| !is_wall(*n) && !between.iter().any(|&b| is_wall(b)))
            .map(|(n, cost, _)| (Cell::new(n.x as i32, n.y as i32), cost))
            .collect::<Vec<_>>()
    };
    let goal = Cell::new(to.x as i32, to.y as i32);
    oracle(
        Cell::new(from.x as i32, from.y as i32),
        |c| c == goal,
        successors,
    )
}

#[test]
fn isometric_cells_are_where_bevy_ecs_tilemap_draws_and_finds_tiles() {
    for system in LAYOUTS {
        let map_type = TilemapType::Isometric(system);
        let mut app = app();
        spawn_iso_map(app.world_mut(), system);
        app.update();
        let grid = app.world().resource::<NavGrid>();
        assert_eq!(grid.layout(), GridLayout::Isometric);
        let mut free = 0;
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                let pos = TilePos::new(x, y);
                let cell = pos.to_cell_in(map_type);
                assert_eq!(cell.to_tile_pos_in(map_type), Some(pos));
                let at = drawn_at(system, pos);
                assert!(
                    grid.cell_to_world(cell).distance(at) < 1e-2,
                    "{system:?} tile {pos:?}: cell {cell:?} at {} but drawn at {at}",
                    grid.cell_to_world(cell)
                );
                assert_eq!(grid.world_to_cell(at), Some(cell));
                assert_eq!(grid.scenario().is_obstacle(cell), is_wall(pos));
                free += usize::from(!is_wall(pos));
            }
        }
        // Every other cell of the grid (a staggered map's corners) is an obstacle.
        let size = grid.size();
        let open = (0..size.width as i32)
            .flat_map(|x| (0..size.height as i32).map(move |y| Cell::new(x, y)))
            .filter(|&c| !grid.scenario().is_obstacle(c))
            .count();
        assert_eq!(open, free, "{system:?}: only tiles are open");
        // Any world point: the same tile as bevy_ecs_tilemap's, or off the map for both
        // (points within a thousandth of a tile of an edge are skipped).
        let centre = drawn_at(system, TilePos::new(WIDTH / 2, HEIGHT / 2));
        let mut checked = 0;
        for i in 0..4000u32 {
            let p = centre
                + Vec2::new(
                    ((i * 7919) % 2000) as f32 - 1000.0,
                    ((i * 104_729) % 1000) as f32 - 500.0,
                ) * 1.3;
            let plane = (grid.world_to_plane(p) - grid.origin()) / grid.plane_tile_size();
            let edge = |v: f32| {
                let f = (v + 0.5).fract().abs();
                !(1e-3..=1.0 - 1e-3).contains(&f)
            };
            if edge(plane.x) || edge(plane.y) {
                continue;
            }
            let ours = grid
                .world_to_cell(p)
                .and_then(|c| c.to_tile_pos_in(map_type))
                .filter(|t| t.x < WIDTH && t.y < HEIGHT);
            assert_eq!(ours, tile_at(system, p), "{system:?} at {p}");
            checked += 1;
        }
        assert!(checked > 3000);
    }
}

#[test]
fn isometric_paths_are_optimal_over_bevy_ecs_tilemap_neighbours_and_steering_avoids_walls() {
    for system in LAYOUTS {
        let map_type = TilemapType::Isometric(system);
        let mut app = app();
        spawn_iso_map(app.world_mut(), system);
        let pairs = [
            (TilePos::new(2, 2), TilePos::new(10, 2)),
            (TilePos::new(1, 7), TilePos::new(9, 0)),
            (TilePos::new(0, 0), TilePos::new(11, 8)),
        ];
        let units: Vec<Entity> = pairs
            .iter()
            .map(|&(from, to)| {
                let start = drawn_at(system, from).extend(1.0);
                app.world_mut()
                    .spawn((
                        Transform::from_translation(start),
                        PathRequest::new(drawn_at(system, to)),
                        Steering::with_speed(120.0),
                    ))
                    .id()
            })
            .collect();
        app.update();
        for (&unit, &(from, to)) in units.iter().zip(&pairs) {
            let path = found_path(&app, unit);
            let tiles: Vec<TilePos> = path
                .cells
                .iter()
                .map(|c| c.to_tile_pos_in(map_type).expect("a tile"))
                .collect();
            assert_eq!(tiles.first(), Some(&from));
            assert_eq!(tiles.last(), Some(&to));
            for w in tiles.windows(2) {
                assert!(!is_wall(w[1]), "{system:?}: path through wall {:?}", w[1]);
                let step = neighbours(system, w[0]).into_iter().find(|n| n.0 == w[1]);
                let (_, _, between) = step.unwrap_or_else(|| {
                    panic!("{system:?}: {:?} -> {:?} is no neighbour", w[0], w[1])
                });
                assert!(between.iter().all(|&b| !is_wall(b)), "cut corner");
            }
            let best = shortest(system, from, to).expect("reachable");
            assert!(
                (f64::from(path.cost) - best).abs() < 1e-3,
                "{system:?} {from:?} -> {to:?}: cost {} but the oracle says {best}",
                path.cost
            );
        }
        let mut arrived = false;
        for _ in 0..2000 {
            app.update();
            for &unit in &units {
                let at = app.world().get::<Transform>(unit).unwrap().translation;
                let tile = tile_at(system, at.truncate());
                assert!(
                    tile.is_some_and(|t| !is_wall(t)),
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
        if !arrived {
            for (&unit, &(_, to)) in units.iter().zip(&pairs) {
                let at = app.world().get::<Transform>(unit).unwrap().translation;
                eprintln!(
                    "{unit}: at {at} tile {:?} goal {to:?} arrived {} path {:?}",
                    tile_at(system, at.truncate()),
                    app.world().get::<Arrived>(unit).is_some(),
                    found_path(&app, unit).cells
                );
            }
        }
        assert!(arrived, "{system:?}: every unit arrives");
        for (&unit, &(_, to)) in units.iter().zip(&pairs) {
            let at = app.world().get::<Transform>(unit).unwrap().translation;
            assert_eq!(tile_at(system, at.truncate()), Some(to));
            assert!(matches!(
                app.world().get::<PathResult>(unit),
                Some(PathResult::Found(_))
            ));
        }
    }
}

#[test]
fn grid_steppers_on_isometric_maps_stand_on_tile_centres_one_step_a_tick() {
    for system in LAYOUTS {
        let mut app = app();
        spawn_iso_map(app.world_mut(), system);
        let (from, to) = (TilePos::new(1, 7), TilePos::new(9, 0));
        let unit = app
            .world_mut()
            .spawn((
                Transform::from_translation(drawn_at(system, from).extend(1.0)),
                PathRequest::new(drawn_at(system, to)),
                GridStepper::default(),
            ))
            .id();
        let mut last = from;
        for _ in 0..400 {
            app.update();
            let at = app.world().get::<Transform>(unit).unwrap().translation;
            // Always on the centre of a free tile, next to the last one or on it.
            let tile = tile_at(system, at.truncate()).expect("on the map");
            assert!(!is_wall(tile), "{system:?}: on wall {tile:?}");
            assert!(
                at.truncate().distance(drawn_at(system, tile)) < 1e-2,
                "{system:?}: at {at}"
            );
            assert!(
                tile == last || neighbours(system, last).iter().any(|n| n.0 == tile),
                "{system:?}: jumped from {last:?} to {tile:?}"
            );
            last = tile;
            if app.world().get::<Arrived>(unit).is_some() {
                break;
            }
        }
        assert_eq!(last, to, "{system:?}: the stepper arrives");
    }
}
