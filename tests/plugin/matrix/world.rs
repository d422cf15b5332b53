//! Matrix rows of bad worlds: grids removed, replaced, resized or badly placed while
//! requests run, units without positions, parented units, and 0x0 to 1x65,536 maps.

use bevy::prelude::*;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Cell, NavGrid, PathFailure, PathRequest, PathResult, TilepathSettings,
};
use bevy_tilepath::scenario::{BitGrid, CachedScenario, MapError};
use bevy_tilepath::search::PathError;

use super::{Expect, Row, Scene, TILE, walls};
use bevy_tilepath::prelude::FrameBudget;

/// The far corner of the standard map from (1, 1), reached through the gap.
const FAR: Cell = Cell::new(21, 1);

/// A unit on (1, 1) going to [`FAR`], whose search is sliced over several frames (the
/// expansion budget is small), on the standard grid.
fn slow_unit(scene: &mut Scene) -> Entity {
    scene.grid();
    scene
        .app
        .world_mut()
        .resource_mut::<TilepathSettings>()
        .budget = FrameBudget::Expansions(4);
    scene.unit(Cell::new(1, 1), 1, PathRequest::new(FAR))
}

/// Puts the standard grid back (a map-wide bad input is over).
fn restore_grid(scene: &mut Scene) {
    scene.grid();
}

/// Lets the budget serve everything again.
fn unlimited(scene: &mut Scene) {
    scene
        .app
        .world_mut()
        .resource_mut::<TilepathSettings>()
        .budget = crate::common::unlimited().budget;
}

/// The standard map widened to `width` x `height` (free cells added right and up).
fn grown(width: usize, height: usize) -> Vec<Vec<bool>> {
    let mut grown = vec![vec![false; width]; height];
    for (y, row) in walls().iter().enumerate() {
        grown[y][..row.len()].copy_from_slice(row);
    }
    grown
}

/// The standard map with cells `tile` apart, and a unit on (2, 12) going to (16, 14).
fn with_tile_size(scene: &mut Scene, tile: Vec2) -> Entity {
    let mut grid = scene.make_grid(&walls());
    grid.set_placement(Vec2::ZERO, tile);
    scene.app.insert_resource(grid);
    scene.unit(Cell::new(2, 12), 1, PathRequest::new(Cell::new(16, 14)))
}

/// Puts the grid back where the units are (cell (0, 0) at the origin, `TILE` apart).
fn placed_normally(scene: &mut Scene) {
    let mut grid = scene.app.world_mut().resource_mut::<NavGrid>();
    grid.set_placement(Vec2::ZERO, Vec2::splat(TILE));
}

fn off_map(f: &PathFailure) -> bool {
    matches!(f, PathFailure::StartOffMap { .. })
}

pub fn rows() -> Vec<Row> {
    vec![
        Row::new(
            "unit despawned mid-solve",
            slow_unit,
            Expect::Holds("gone, no panic", |s, unit| {
                assert!(s.app.world().get_entity(unit).is_err());
            }),
        )
        .during(|s, unit| {
            assert!(s.result(unit).is_pending(), "the search should still run");
            s.app.world_mut().entity_mut(unit).despawn();
            s.frames(3);
            unlimited(s);
        }),
        Row::new(
            "PathRequest removed mid-solve",
            slow_unit,
            Expect::Holds("no result left", |s, unit| {
                assert!(s.app.world().get::<PathResult>(unit).is_none());
            }),
        )
        .during(|s, unit| {
            assert!(s.result(unit).is_pending(), "the search should still run");
            s.app.world_mut().entity_mut(unit).remove::<PathRequest>();
            s.frames(3);
            unlimited(s);
        }),
        Row::new(
            "grid removed mid-solve",
            slow_unit,
            Expect::Fails(PathFailure::NoMap),
        )
        .during(|s, _| {
            s.app.world_mut().remove_resource::<NavGrid>();
            unlimited(s);
        })
        .repair(restore_grid),
        Row::new(
            "grid replaced by another map mid-solve",
            slow_unit,
            Expect::Found,
        )
        .during(|s, _| {
            let mut walls = walls();
            walls[12][12] = true;
            walls[1][15] = true;
            let grid = s.make_grid(&walls);
            s.app.insert_resource(grid);
            unlimited(s);
        }),
        Row::new("grid grown to 40x30 mid-solve", slow_unit, Expect::Found).during(|s, _| {
            let map = CachedScenario::from_bits(crate::common::bits_of(&grown(40, 30))).unwrap();
            s.app
                .world_mut()
                .resource_mut::<NavGrid>()
                .set_scenario(map);
            unlimited(s);
        }),
        Row::new(
            "grid shrunk under its units mid-solve",
            slow_unit,
            Expect::Fails(PathFailure::GoalOffMap {
                goal: bevy_tilepath::prelude::PathGoal::Cell(FAR),
            }),
        )
        .during(|s, unit| {
            // Exact requests cannot end anywhere else; the goal is now off the map.
            let request = PathRequest::new(FAR).exact();
            s.app.world_mut().entity_mut(unit).insert(request);
            let bits = crate::common::bits_of(&vec![vec![false; 16]; 16]);
            let map = CachedScenario::from_bits(bits).unwrap();
            s.app
                .world_mut()
                .resource_mut::<NavGrid>()
                .set_scenario(map);
            unlimited(s);
        })
        .repair(restore_grid),
        Row::new(
            "grid moved away from its units",
            slow_unit,
            Expect::FailsWith("StartOffMap", off_map),
        )
        .during(|s, _| {
            let mut grid = s.app.world_mut().resource_mut::<NavGrid>();
            grid.set_placement(Vec2::new(10_000.0, 0.0), Vec2::splat(TILE));
            unlimited(s);
        })
        .repair(placed_normally),
        Row::new(
            "zero tile size",
            |s| with_tile_size(s, Vec2::ZERO),
            Expect::FailsWith("StartOffMap", off_map),
        )
        .repair(placed_normally),
        Row::new(
            "NaN tile size",
            |s| with_tile_size(s, Vec2::NAN),
            Expect::FailsWith("StartOffMap", off_map),
        )
        .repair(placed_normally),
        Row::new(
            "negative tile size (a mirrored grid)",
            |s| {
                s.tile = Vec2::new(-TILE, TILE);
                s.grid();
                s.unit(Cell::new(2, 12), 1, PathRequest::new(Cell::new(16, 14)))
            },
            Expect::Found,
        ),
        Row::new(
            "unit without a Transform",
            |s| {
                s.grid();
                s.spawn(PathRequest::new(Cell::new(16, 14)))
            },
            Expect::Fails(PathFailure::NoTransform),
        ),
        Row::new(
            "parented unit (translated, scaled parent)",
            |s| {
                s.grid();
                // The child stands at the centre of cell (7, 6): (5, 4) tiles plus
                // twice (1, 1) on squares.
                let at = s.center(Cell::new(7, 6), 1) - 2.0 * Vec2::splat(TILE);
                let parent = s.spawn(
                    Transform::from_translation(at.extend(0.0)).with_scale(Vec3::splat(2.0)),
                );
                s.spawn((
                    Transform::from_xyz(TILE, TILE, 1.0),
                    ChildOf(parent),
                    PathRequest::new(Cell::new(16, 14)),
                ))
            },
            Expect::Holds("valid path from the world cell (7, 6)", |s, unit| {
                let path = s.valid_path(unit);
                assert_eq!(path.from, Cell::new(7, 6));
            }),
        ),
        Row::new(
            "parent without a Transform",
            |s| {
                s.grid();
                let parent = s.spawn(Name::new("no transform"));
                s.spawn((
                    Transform::from_xyz(TILE, TILE, 1.0),
                    ChildOf(parent),
                    PathRequest::new(Cell::new(16, 14)),
                ))
            },
            Expect::Fails(PathFailure::NoTransform),
        ),
        Row::new(
            "parent with NaN scale",
            |s| {
                s.grid();
                let parent = s.spawn(Transform::from_scale(Vec3::NAN));
                s.spawn((
                    Transform::from_xyz(TILE, TILE, 1.0),
                    ChildOf(parent),
                    PathRequest::new(Cell::new(16, 14)),
                ))
            },
            Expect::Fails(PathFailure::InvalidPosition),
        ),
        Row::new(
            "0x0 map (no grid can be built)",
            |s| {
                let built = CachedScenario::from_bits(BitGrid::new(GridSize::new(0, 0), false));
                assert_eq!(built.err(), Some(MapError::Empty));
                s.unit(Cell::new(2, 12), 1, PathRequest::new(Cell::new(16, 14)))
            },
            Expect::Fails(PathFailure::NoMap),
        )
        .repair(restore_grid),
        Row::new(
            "1x1 map",
            |s| {
                s.plan = vec![(Cell::new(0, 0), Cell::new(0, 0), 1)];
                let map = CachedScenario::from_bits(BitGrid::new(GridSize::new(1, 1), false));
                s.app.insert_resource(s.place(map.unwrap()));
                s.unit(Cell::new(0, 0), 1, PathRequest::new(Cell::new(0, 0)))
            },
            Expect::Found,
        ),
        Row::new(
            "1x1 map, diameter 2",
            |s| {
                s.plan = vec![(Cell::new(0, 0), Cell::new(0, 0), 1)];
                let map = CachedScenario::from_bits(BitGrid::new(GridSize::new(1, 1), false));
                s.app.insert_resource(s.place(map.unwrap()));
                s.unit(
                    Cell::new(0, 0),
                    2,
                    PathRequest::new(Cell::new(0, 0)).exact(),
                )
            },
            Expect::Fails(PathFailure::Search(PathError::StartBlocked {
                cell: Cell::new(0, 0),
                diameter: 2,
            })),
        ),
        Row::new(
            "1x65,536 map, end to end",
            |s| {
                s.plan = vec![(Cell::new(0, 10), Cell::new(0, 60_000), 1)];
                let size = GridSize::new(1, 65_536);
                let map = CachedScenario::from_bits(BitGrid::new(size, false));
                s.app.insert_resource(s.place(map.unwrap()));
                s.unit(Cell::new(0, 0), 1, PathRequest::new(Cell::new(0, 65_535)))
            },
            Expect::Holds("valid path of 65,535 steps", |s, unit| {
                let path = s.valid_path(unit);
                assert_eq!(path.length, 65_535.0);
            }),
        ),
    ]
}
