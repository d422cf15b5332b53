//! Where a unit is along its found path: what the movement writes and the re-planner reads.

use bevy::prelude::*;

/// The index in [`FoundPath::waypoints`](super::FoundPath::waypoints) of the waypoint the
/// unit heads for.
///
/// [`Steering`](crate::steering::Steering) writes it (it requires the component). A game
/// that moves its units itself inserts it beside the [`PathRequest`](super::PathRequest)
/// and keeps it current; the plugin only reads it. The re-planner uses it to tell the
/// part of a path still ahead of the unit from the part behind it: a map edit that cuts a
/// path behind its unit re-plans nothing. Without it, the re-planner looks for the unit's
/// cell on its path.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::components::PathProgress;
///
/// // A unit with its own movement code, heading for the path's third waypoint.
/// let mut world = World::new();
/// world.spawn((
///     Transform::default(),
///     PathRequest::new(Cell::new(5, 0)),
///     PathProgress { next_waypoint: 2 },
/// ));
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct PathProgress {
    /// The index of the waypoint the unit heads for (0 before it starts walking).
    pub next_waypoint: usize,
}
