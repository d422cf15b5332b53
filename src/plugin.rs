//! The Bevy plugin: settings, system sets and registration of everything else.
//!
//! [`TilepathPlugin`] keeps a [`NavGrid`] in sync with every bevy_ecs_tilemap tilemap that
//! carries a [`CollisionLayer`] (obstacles and terrain) and with the
//! [`MovementProfiles`], answers [`PathRequest`]s in parallel within a per-frame time
//! budget, re-plans paths that a map or profile change invalidated or made dearer, and
//! moves units that have a [`Steering`] component at the speed their terrain allows. It runs headless (`MinimalPlugins` is enough; neither a
//! renderer, `TransformPlugin` nor bevy_ecs_tilemap's `TilemapPlugin` is needed).
//!
//! Its systems run in [`Update`] unless you pick another schedule with
//! [`TilepathPlugin::in_schedule`] (for example `FixedUpdate`, so steering moves units
//! by the fixed time step).
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_ecs_tilemap::prelude::*;
//! use bevy_tilepath::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
//!
//! // A 8x8 tilemap whose tiles with `BlocksPath` are walls: a wall at x = 4 with a gap at y = 7.
//! let size = TilemapSize { x: 8, y: 8 };
//! let map = app.world_mut().spawn_empty().id();
//! let mut storage = TileStorage::empty(size);
//! for x in 0..size.x {
//!     for y in 0..size.y {
//!         let pos = TilePos { x, y };
//!         let mut tile = app.world_mut().spawn((pos, TilemapId(map)));
//!         if x == 4 && y < 7 {
//!             tile.insert(BlocksPath);
//!         }
//!         storage.set(&pos, tile.id());
//!     }
//! }
//! app.world_mut().entity_mut(map).insert((
//!     storage,
//!     size,
//!     TilemapGridSize { x: 16.0, y: 16.0 },
//!     TilemapTileSize { x: 16.0, y: 16.0 },
//!     Transform::default(),
//!     CollisionLayer::default(),
//! ));
//!
//! // A unit standing on tile (0, 0) (tile centres are 16 units apart) asks for tile (7, 0).
//! let unit = app
//!     .world_mut()
//!     .spawn((Transform::from_xyz(0.0, 0.0, 1.0), PathRequest::new(Cell::new(7, 0))))
//!     .id();
//! app.update();
//!
//! let PathResult::Found(path) = app.world().get::<PathResult>(unit).unwrap() else {
//!     panic!("no path");
//! };
//! assert_eq!(path.cells.first(), Some(&Cell::new(0, 0)));
//! assert_eq!(path.cells.last(), Some(&Cell::new(7, 0)));
//! assert!(path.cells.contains(&Cell::new(4, 7))); // through the gap
//! assert_eq!(path.waypoints.last(), Some(&Vec2::new(112.0, 0.0)));
//! ```
//!
//! Without tilemaps, insert the grid yourself:
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_tilepath::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
//! let grid = NavGrid::from_ascii("
//!     ......
//!     .####.
//!     ......
//! ", Vec2::ZERO, Vec2::ONE).unwrap();
//! app.insert_resource(grid);
//! let unit = app.world_mut().spawn((Transform::default(), PathRequest::new(Cell::new(5, 0)))).id();
//! app.update();
//! let result = app.world().get::<PathResult>(unit).unwrap();
//! assert_eq!(result.found().unwrap().length, 5.0);
//! ```

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

use crate::components::{
    Footprint, FoundPath, GridLayout, NavGrid, NavGridChanged, PathFailure, PathGoal, PathProgress,
    PathRequest, PathResult, PathSolved, PathStatus, QueueLane, Replanning,
};
use crate::pipeline::{self, FrameClock, PathQueue};
use crate::profiles::{MovementProfiles, NamedProfile};
use crate::settings::{
    CongestionSettings, CrowdSettings, FieldSettings, FrameBudget, GroupOrders, LandmarkTables,
    ReplanSettings, RequestDefaults, StallSettings, TilepathSettings,
};
use crate::stats::TilepathStats;
use crate::steering::{
    Arrived, Avoidance, GridStepProgress, GridStepper, Occupancy, Steering, SteeringProgress,
};
#[cfg(feature = "tilemap")]
use crate::tilemap::{self, BlocksPath, CollisionLayer, CollisionLayerError};
#[cfg(feature = "tilemap")]
use bevy_ecs_tilemap::tiles::TileStorage;

/// Adds path requests, map sync, re-planning and steering. See the [module docs](self).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let mut app = App::new();
/// // Plan and steer on the fixed time step instead of every frame.
/// app.add_plugins((MinimalPlugins, TilepathPlugin::default().in_schedule(FixedUpdate)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TilepathPlugin {
    /// The schedule the [`TilepathSystems`] run in ([`Update`] by default).
    pub schedule: InternedScheduleLabel,
}

impl Default for TilepathPlugin {
    fn default() -> Self {
        Self {
            schedule: Update.intern(),
        }
    }
}

impl TilepathPlugin {
    /// Runs the plugin's systems in `schedule` (for example `FixedUpdate`) instead of
    /// [`Update`]. Steering then moves units by that schedule's `Time` (the fixed step in
    /// `FixedUpdate`), and "per frame" in [`TilepathSettings`] means per run of it.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }
}

/// The plugin's systems, run in this order in the plugin's schedule ([`Update`] unless
/// set with [`TilepathPlugin::in_schedule`]; the sets are chained).
///
/// Order your own systems against them in that schedule:
/// - tile edits (adding or removing `BlocksPath`, texture changes, despawns) and
///   [`NavGrid::apply_edits`] go `.before(TilepathSystems::SyncMap)`, so the same run
///   re-plans the paths they cross;
/// - new or changed [`PathRequest`]s and inserted [`Replanning`] markers go
///   `.before(TilepathSystems::Replan)`, to be solved the same run;
/// - readers of [`NavGridChanged`] go `.after(TilepathSystems::SyncMap)`, readers of
///   [`PathResult`] and [`PathSolved`] `.after(TilepathSystems::Solve)`; readers of unit
///   positions after steering go `.after(TilepathSystems::Steer)`.
///
/// The plugin reads world positions (units, tilemaps) from `Transform` and its `ChildOf`
/// ancestors when it runs, so it does not depend on where transform propagation runs.
///
/// The systems of these sets run on the main thread: they run one after another, so
/// worker threads would give them no parallelism, only a hand-over to a worker per system
/// that costs an idle frame more than their work. Your systems still run on the workers
/// beside them, and solving still spreads over the compute threads
/// ([`TilepathSettings::max_threads`]).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TilepathSystems {
    /// Tilemap collision layers (obstacles and terrain) are folded into the [`NavGrid`],
    /// then the [`MovementProfiles`] are registered on it; last, the frame's map changes
    /// are announced ([`NavGridChanged`]).
    SyncMap,
    /// New and changed requests are queued; found paths near changed obstacles or
    /// terrain, or planned with a changed profile, are queued again (keeping their
    /// result, marked [`Replanning`]), and so are found paths that a newly opened or
    /// cheaper cell could shorten; new requests that claim their goal get their cell
    /// ([`PathRequest::claim_goal`]).
    Replan,
    /// Where the units stand, and where they crawl, is recorded
    /// ([`UnitMap`](crate::components::UnitMap)), then queued requests are solved in
    /// parallel within the frame budget.
    Solve,
    /// Units with [`Steering`] move along their paths.
    Steer,
    /// Debug drawing ([`crate::debug::TilepathDebugPlugin`], which always draws in
    /// [`Update`]).
    Debug,
}

impl Plugin for TilepathPlugin {
    fn build(&self, app: &mut App) {
        let schedule = self.schedule;
        app.init_resource::<TilepathSettings>()
            .init_resource::<MovementProfiles>()
            .init_resource::<PathQueue>()
            .init_resource::<TilepathStats>()
            .init_resource::<FrameClock>()
            .init_resource::<Occupancy>()
            .init_resource::<crate::components::UnitMap>()
            .init_resource::<pipeline::MapChanges>()
            .init_resource::<pipeline::LandmarkBuilds>()
            .init_resource::<crate::components::RefusedLayers>()
            .add_message::<PathSolved>()
            .add_message::<NavGridChanged>()
            .register_type::<TilepathSettings>()
            .register_type::<FrameBudget>()
            .register_type::<LandmarkTables>()
            .register_type::<RequestDefaults>()
            .register_type::<GroupOrders>()
            .register_type::<FieldSettings>()
            .register_type::<ReplanSettings>()
            .register_type::<MovementProfiles>()
            .register_type::<NamedProfile>()
            .register_type::<TilepathStats>()
            .register_type::<NavGrid>()
            .register_type::<GridLayout>()
            .register_type::<PathRequest>()
            .register_type::<Footprint>()
            .register_type::<PathGoal>()
            .register_type::<PathResult>()
            .register_type::<FoundPath>()
            .register_type::<PathFailure>()
            .register_type::<PathStatus>()
            .register_type::<QueueLane>()
            .register_type::<Replanning>()
            .register_type::<Steering>()
            .register_type::<Arrived>()
            .register_type::<SteeringProgress>()
            .register_type::<Avoidance>()
            .register_type::<CrowdSettings>()
            .register_type::<StallSettings>()
            .register_type::<CongestionSettings>()
            .register_type::<GridStepper>()
            .register_type::<GridStepProgress>()
            .register_type::<Occupancy>()
            .register_type::<PathProgress>()
            .add_observer(forget_removed_request)
            .add_observer(crate::components::register_profiles_on_insert::<NavGrid>)
            .add_observer(crate::components::register_profiles_on_insert::<MovementProfiles>)
            .configure_sets(
                schedule,
                (
                    TilepathSystems::SyncMap,
                    TilepathSystems::Replan,
                    TilepathSystems::Solve,
                    TilepathSystems::Steer,
                    TilepathSystems::Debug,
                )
                    .chain(),
            )
            .add_systems(
                schedule,
                (
                    pipeline::start_frame
                        .in_set(TilepathSystems::SyncMap)
                        .before(crate::components::sync_profiles),
                    (
                        crate::components::sync_profiles,
                        pipeline::take_map_changes,
                        pipeline::build_landmark_tables,
                    )
                        .chain()
                        .in_set(TilepathSystems::SyncMap),
                    (
                        pipeline::queue_changed_requests,
                        pipeline::replan_paths,
                        pipeline::claim_goals,
                    )
                        .chain()
                        .in_set(TilepathSystems::Replan),
                    (
                        crate::steering::mark_units.run_if(crate::steering::units_to_mark),
                        pipeline::solve_paths,
                    )
                        .chain()
                        .in_set(TilepathSystems::Solve),
                    (
                        (
                            crate::steering::steer_units.run_if(any_with_component::<Steering>),
                            // The frame the last stepper goes, its cells are cleared.
                            crate::steering::step_on_grid.run_if(
                                any_with_component::<GridStepper>
                                    .or_eager(any_component_removed::<GridStepper>),
                            ),
                            crate::steering::publish_progress
                                .run_if(any_with_component::<SteeringProgress>),
                        )
                            .chain(),
                        pipeline::finish_frame,
                    )
                        .chain()
                        .in_set(TilepathSystems::Steer),
                ),
            );
        #[cfg(feature = "tilemap")]
        app.register_type::<CollisionLayer>()
            .register_type::<CollisionLayerError>()
            .register_type::<BlocksPath>()
            .register_type::<tilemap::Terrain>()
            .add_systems(
                schedule,
                tilemap::sync_collision_layers
                    // The frame the last tilemap goes, its layers leave the grid.
                    .run_if(
                        any_with_component::<TileStorage>
                            .or_eager(any_component_removed::<TileStorage>),
                    )
                    .in_set(TilepathSystems::SyncMap)
                    .after(pipeline::start_frame)
                    .before(crate::components::sync_profiles),
            );
        #[cfg(feature = "tiled")]
        app.init_resource::<tilemap::TiledProperties>()
            .register_type::<tilemap::TiledProperties>()
            .add_systems(
                schedule,
                (
                    tilemap::apply_tiled_properties,
                    tilemap::apply_tiled_objects,
                )
                    .chain()
                    .run_if(any_with_component::<bevy_ecs_tiled::prelude::TiledMap>)
                    .in_set(TilepathSystems::SyncMap)
                    .after(pipeline::start_frame)
                    .before(tilemap::sync_collision_layers),
            );
    }
}

/// When a [`PathRequest`] is removed, the plugin's components go with it (a steering unit
/// stops: it has no path any more).
fn forget_removed_request(removed: On<Remove, PathRequest>, mut commands: Commands) {
    commands
        .entity(removed.entity)
        .try_remove::<(PathResult, PathStatus, Replanning, Arrived)>();
}
