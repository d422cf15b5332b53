//! Counters of the request pipeline, for HUDs, logs and tuning the frame budget.

use std::time::Duration;

use bevy::prelude::*;

/// What the plugin did in the last frame and since it started. Updated by the
/// [`crate::plugin::TilepathSystems::Replan`] and [`crate::plugin::TilepathSystems::Solve`]
/// sets; read it after `Solve` for the current frame.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
/// app.insert_resource(NavGrid::from_ascii("....\n.##.\n....", Vec2::ZERO, Vec2::ONE).unwrap());
/// app.world_mut().spawn((Transform::default(), PathRequest::new(Cell::new(3, 2))));
/// // A goal on a wall fails when the request does not ask for the nearest reachable cell.
/// app.world_mut().spawn((Transform::default(), PathRequest::new(Cell::new(1, 1)).nearest_goal(false)));
/// app.update();
/// let stats = app.world().resource::<TilepathStats>();
/// assert_eq!((stats.solved, stats.failed, stats.pending), (1, 1, 0));
/// assert_eq!(stats.total_solved, 1);
/// ```
#[derive(Resource, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct TilepathStats {
    /// Requests answered with a path in the last frame.
    pub solved: usize,
    /// Requests answered with a [`crate::components::PathFailure`] in the last frame
    /// (bad input, no map, blocked or unreachable goals, limits).
    pub failed: usize,
    /// Requests still queued after the last frame (frame budget or per-frame cap spent),
    /// new ones and re-plans alike.
    pub pending: usize,
    /// Requests queued again for the same request in the last frame (they keep their
    /// result and get [`crate::components::Replanning`]): found paths a map edit crossed
    /// (an obstacle within the agent's footprint, a terrain change within the footprint
    /// plus one cell) or whose movement profile changed, failures the change may fix
    /// (off-map starts and goals only on a new map, resize or move; unknown profiles on a
    /// change of the profiles), stalled steering units and markers inserted by the user.
    pub replanned: usize,
    /// Cells expanded by the searches of the last frame.
    pub expanded: u64,
    /// Wall-clock time of the last frame's solve step.
    pub solve_time: Duration,
    /// Paths found since the plugin started.
    pub total_solved: u64,
    /// Failures since the plugin started.
    pub total_failed: u64,
    /// Re-plans since the plugin started.
    pub total_replanned: u64,
    /// Pathfinders the solve step keeps warm between frames: at most
    /// [`crate::plugin::TilepathSettings::max_threads`] and the compute pool's thread
    /// count.
    pub pathfinders: usize,
    /// Bytes those pathfinders hold (their search buffers, sized by the largest map and
    /// the algorithms they ran; about 12 bytes per cell each for A*).
    pub pathfinder_bytes: usize,
}
