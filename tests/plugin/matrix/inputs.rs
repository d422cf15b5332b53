//! Matrix rows of bad request inputs: positions, goals, diameters, profiles and limits.

use bevy::prelude::*;
use bevy_tilepath::prelude::{Cell, MovementProfiles, PathFailure, PathGoal, PathRequest};
use bevy_tilepath::scenario::{MapEdit, MovementProfile};
use bevy_tilepath::search::{Limit, Limits, PathError};

use super::{Expect, IN_ROOM, Row, Scene};

const GOAL: Cell = Cell::new(16, 14);

fn invalid_diameter(diameter: u32) -> PathFailure {
    PathFailure::Search(PathError::InvalidDiameter { diameter })
}

/// A unit at the world position `at` going to [`GOAL`] on the standard grid.
fn placed(scene: &mut Scene, at: Vec2) -> Entity {
    scene.grid();
    scene.at(at, PathRequest::new(GOAL))
}

/// A one-cell unit on (2, 12) going to `goal` on the standard grid.
fn going(scene: &mut Scene, goal: impl Into<PathGoal>, exact: bool) -> Entity {
    scene.grid();
    let request = PathRequest::new(goal);
    let request = if exact { request.exact() } else { request };
    scene.unit(Cell::new(2, 12), 1, request)
}

/// A unit of `diameter` on (8, 13) going to [`GOAL`] on the standard grid.
fn sized(scene: &mut Scene, diameter: u32) -> Entity {
    scene.grid();
    scene.unit(Cell::new(8, 13), diameter, PathRequest::new(GOAL))
}

pub fn rows() -> Vec<Row> {
    vec![
        Row::new(
            "NaN translation",
            |s| placed(s, Vec2::NAN),
            Expect::Fails(PathFailure::InvalidPosition),
        ),
        Row::new(
            "+infinite x translation",
            |s| placed(s, Vec2::new(f32::INFINITY, 16.0)),
            Expect::Fails(PathFailure::InvalidPosition),
        ),
        Row::new(
            "-infinite y translation",
            |s| placed(s, Vec2::new(16.0, f32::NEG_INFINITY)),
            Expect::Fails(PathFailure::InvalidPosition),
        ),
        Row::new(
            "NaN z only (z is not read)",
            |s| {
                s.grid();
                let at = s.center(Cell::new(2, 12), 1).extend(f32::NAN);
                s.spawn((Transform::from_translation(at), PathRequest::new(GOAL)))
            },
            Expect::Found,
        ),
        Row::new(
            "largest finite translation",
            |s| placed(s, Vec2::splat(f32::MAX)),
            Expect::FailsWith("StartOffMap", |f| {
                matches!(f, PathFailure::StartOffMap { .. })
            }),
        ),
        Row::new(
            "start off the map",
            |s| placed(s, Vec2::new(-40.0, 8.0)),
            Expect::FailsWith("StartOffMap", |f| {
                matches!(f, PathFailure::StartOffMap { .. })
            }),
        ),
        Row::new(
            "NaN world goal",
            |s| going(s, Vec2::NAN, false),
            Expect::Fails(PathFailure::InvalidGoal),
        ),
        Row::new(
            "infinite world goal",
            |s| going(s, Vec2::new(0.0, f32::INFINITY), false),
            Expect::Fails(PathFailure::InvalidGoal),
        ),
        Row::new(
            "world goal off the map",
            |s| going(s, Vec2::new(1_000.0, -300.0), false),
            Expect::Partial,
        ),
        Row::new(
            "world goal off the map, exact",
            |s| going(s, Vec2::new(1_000.0, -300.0), true),
            Expect::FailsWith("GoalOffMap", |f| {
                matches!(f, PathFailure::GoalOffMap { .. })
            }),
        ),
        Row::new(
            "largest finite world goal",
            |s| going(s, Vec2::new(f32::MAX, -f32::MAX), false),
            Expect::Partial,
        ),
        Row::new(
            "cell goal off the map",
            |s| going(s, Cell::new(-5, 40), false),
            Expect::Partial,
        ),
        Row::new(
            "cell goal off the map, exact",
            |s| going(s, Cell::new(-5, 40), true),
            Expect::FailsWith("GoalOffMap", |f| {
                matches!(f, PathFailure::GoalOffMap { .. })
            }),
        ),
        Row::new(
            "cell goal at i32::MIN / i32::MAX",
            |s| going(s, Cell::new(i32::MIN, i32::MAX), false),
            Expect::Partial,
        ),
        Row::new(
            "goal in a wall, exact",
            |s| going(s, Cell::new(11, 3), true),
            Expect::Fails(PathFailure::Search(PathError::GoalBlocked {
                cell: Cell::new(11, 3),
                diameter: 1,
            })),
        ),
        Row::new(
            "goal in a closed room",
            |s| going(s, IN_ROOM, false),
            Expect::Partial,
        ),
        Row::new(
            "goal in a closed room, exact",
            |s| going(s, IN_ROOM, true),
            Expect::Fails(PathFailure::Search(PathError::Unreachable)),
        ),
        Row::new(
            "goal radius u32::MAX",
            |s| {
                s.grid();
                s.unit(
                    Cell::new(2, 12),
                    1,
                    PathRequest::new(GOAL).goal_radius(u32::MAX),
                )
            },
            Expect::Found,
        ),
        Row::new(
            "diameter 0",
            |s| sized(s, 0),
            Expect::Fails(invalid_diameter(0)),
        ),
        Row::new("diameter 2", |s| sized(s, 2), Expect::Found),
        Row::new(
            "diameter 63 (the largest) on a 24x16 map",
            |s| sized(s, 63),
            Expect::FailsWith("StartBlocked", |f| {
                matches!(f, PathFailure::Search(PathError::StartBlocked { .. }))
            }),
        ),
        Row::new(
            "diameter 64",
            |s| sized(s, 64),
            Expect::Fails(invalid_diameter(64)),
        ),
        Row::new(
            "diameter u32::MAX",
            |s| sized(s, u32::MAX),
            Expect::Fails(invalid_diameter(u32::MAX)),
        ),
        Row::new(
            "unknown profile",
            |s| {
                s.grid();
                s.unit(
                    Cell::new(2, 12),
                    1,
                    PathRequest::new(GOAL).profile("hovercraft"),
                )
            },
            Expect::Fails(PathFailure::UnknownProfile),
        ),
        Row::new(
            "profile removed while its request waits",
            |s| {
                s.grid();
                let mut profiles = s.app.world_mut().resource_mut::<MovementProfiles>();
                profiles.insert("boat", MovementProfile::new());
                s.unit(Cell::new(2, 12), 1, PathRequest::new(GOAL).profile("boat"))
            },
            Expect::Fails(PathFailure::UnknownProfile),
        )
        .during(|s, _| {
            let mut profiles = s.app.world_mut().resource_mut::<MovementProfiles>();
            profiles.remove("boat");
        }),
        Row::new(
            "unit standing on terrain its profile forbids",
            |s| {
                s.grid();
                let mut grid = s
                    .app
                    .world_mut()
                    .resource_mut::<bevy_tilepath::prelude::NavGrid>();
                grid.apply_map_edits([MapEdit::Terrain(Cell::new(2, 12), 9)]);
                let mut profiles = s.app.world_mut().resource_mut::<MovementProfiles>();
                profiles.insert("dry", MovementProfile::new().with_blocked(9));
                s.unit(Cell::new(2, 12), 1, PathRequest::new(GOAL).profile("dry"))
            },
            Expect::Holds("valid path from the nearest allowed cell", |s, unit| {
                let path = s.valid_path(unit);
                assert!(path.start_moved() && !path.partial, "{path:?}");
            }),
        ),
        Row::new(
            "expansion limit of 1",
            |s| {
                s.grid();
                let limits = Limits {
                    max_expanded: 1,
                    ..Limits::UNLIMITED
                };
                s.unit(Cell::new(2, 12), 1, PathRequest::new(GOAL).limits(limits))
            },
            Expect::FailsWith("LimitReached(Expanded)", |f| {
                matches!(
                    f,
                    PathFailure::Search(PathError::LimitReached {
                        limit: Limit::Expanded,
                        ..
                    })
                )
            }),
        ),
    ]
}
