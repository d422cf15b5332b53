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

use std::time::Duration;

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

use crate::components::{
    FoundPath, NavGrid, NavGridChanged, PathFailure, PathGoal, PathRequest, PathResult, PathSolved,
    PathTicket, Replanning,
};
use crate::profiles::{self, MovementProfiles, NamedProfile};
use crate::search::{Algorithm, Limits};
use crate::stats::TilepathStats;
use crate::steering::{Arrived, Steering, SteeringProgress};
use crate::systems::{self, FrameClock, PathQueue};
#[cfg(feature = "tilemap")]
use crate::tilemap::{self, BlocksPath, CollisionLayer, CollisionLayerError};

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
/// - readers of [`PathResult`], [`PathSolved`] and [`NavGridChanged`] go
///   `.after(TilepathSystems::Solve)`; readers of unit positions after steering go
///   `.after(TilepathSystems::Steer)`.
///
/// The plugin reads world positions (units, tilemaps) from `Transform` and its `ChildOf`
/// ancestors when it runs, so it does not depend on where transform propagation runs.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TilepathSystems {
    /// Tilemap collision layers (obstacles and terrain) are folded into the [`NavGrid`],
    /// then the [`MovementProfiles`] are registered on it.
    SyncMap,
    /// Map changes are announced ([`NavGridChanged`]); new and changed requests are
    /// queued; found paths near changed obstacles or terrain, or planned with a changed
    /// profile, are queued again (keeping their result, marked [`Replanning`]), and so
    /// are found paths that a newly opened or cheaper cell could shorten; new requests
    /// that claim their goal get their cell ([`PathRequest::claim_goal`]).
    Replan,
    /// Queued requests are solved in parallel within the frame budget.
    Solve,
    /// Units with [`Steering`] move along their paths.
    Steer,
    /// Debug drawing ([`crate::debug::TilepathDebugPlugin`], which always draws in
    /// [`Update`]).
    Debug,
}

/// Plugin settings. Insert your own before or after adding the plugin; values inserted
/// before it are kept.
///
/// # Progress guarantee
///
/// Whatever the budget ([`TilepathSettings::frame_budget`] down to zero,
/// [`TilepathSettings::expansion_budget`] down to `Some(0)`) and however often the map
/// changes, every waiting request is answered. Requests are served oldest first, and
/// every frame the oldest makes progress: under a time budget the first search of the
/// frame runs at least one slice of [`TilepathSettings::TIME_SLICE`] expansions, and so
/// does the first shared field, however late the frame already is; under an expansion
/// budget of `b` (at least 1) the oldest request's own search runs first, before any
/// field grows, with all `b` expansions.
///
/// What map edits can take back is counted per request. A *setback* is an edit that
/// undid work done on it: its suspended search started over (JPS and JPS+ jumps,
/// terrain changes, another map) or was carried over edits that forgot at least as many
/// nodes as it had expanded since the edits before; the shared field it waits on was set
/// back the same way or started over; its shared approach's descent was cut. After two
/// setbacks a request runs its own search (shared fields, guided searches and approaches
/// left aside); after three, as the oldest request of a frame, its search runs to its
/// end in that frame, whatever the budget ([`TilepathStats::whole`](crate::stats::TilepathStats::whole)
/// counts these). An exact search that edits restart twice also runs from then on as
/// the A* that carries over edits (`Pathfinder::resume`).
///
/// So the oldest waiting request is answered within `F1 + F2 + F3 + 1` frames, where
/// `Fi` is what its i-th attempt would take on a map left alone: `⌈E / b⌉` frames for a
/// search of `E` expansions at `b` a frame (`⌈E / 256⌉` at a zero time budget), and for a
/// field the frames it takes to settle the request's cell. `E` is the size of its own
/// search (at most the cells it can reach, plus those edits reopen), not the edit rate.
/// Requests behind it wait their turn: the queue's lanes (urgent, deferred cuts,
/// improvements) are served in that order, each oldest first. A frame that runs a search
/// whole may exceed the budget by that one search; nothing else does by more than one
/// slice per solver thread. The test `starvation` runs this at budgets 0, 1, 64 and
/// 1,024 expansions against walls, cuts and terrain repaints every frame.
#[derive(Resource, Clone, Debug, PartialEq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct TilepathSettings {
    /// Wall-clock time the solve step may spend per frame (unless
    /// [`TilepathSettings::expansion_budget`] is set). The re-planning step before it
    /// (repairs and provisional detours, bounded by [`TilepathSettings::repair_budget`]
    /// in expansions) and steering are not part of it:
    /// [`TilepathStats::plugin_time`](crate::stats::TilepathStats::plugin_time) measures
    /// all of the plugin's systems per frame. A search
    /// that does not finish in the time left is suspended and resumed the next frame
    /// from where it stopped, so no frame runs over by more than one slice of
    /// [`TilepathSettings::TIME_SLICE`] expansions per solver thread, except to keep the
    /// progress guarantee (see the type's docs). `Duration::MAX` means no budget. 2 ms
    /// by default.
    pub frame_budget: Duration,
    /// Counts the frame budget in search expansions instead of time: each frame expands
    /// at most this many cells, all solver threads and shared fields together (a path
    /// read off a shared field counts one expansion per 4 cells, plus one). Answers, and
    /// the frame each one arrives in, then depend only on the requests and the map, not
    /// on the machine or the thread count: the basis for lockstep multiplayer (run the
    /// plugin in `FixedUpdate`, see [`TilepathPlugin::in_schedule`]). `None` (the
    /// default) uses [`TilepathSettings::frame_budget`].
    pub expansion_budget: Option<u32>,
    /// At most this many searches per frame.
    pub max_requests_per_frame: usize,
    /// At most this many threads of the `ComputeTaskPool` solve at once (at least one is
    /// used; results do not depend on this number). Each solving thread owns one warm
    /// `Pathfinder` (about 12 bytes per map cell for A*), and the plugin keeps at most
    /// this many (or the pool's thread count, whichever is smaller) alive.
    pub max_threads: usize,
    /// Algorithm of requests that do not name one: [`Algorithm::Auto`] by default (JPS
    /// where every passable cell weighs the same for the request's profile, JPS+ there
    /// when the layer's jump table is built, A* otherwise; all exact).
    pub default_algorithm: Algorithm,
    /// Limits of requests that do not set their own.
    pub default_limits: Limits,
    /// Shared goal fields: when at least this many requests taken in one frame share a
    /// goal cell, movement profile and diameter (and ask for an exact path: A*, JPS,
    /// Dijkstra or `Auto`, octile moves, no limits), the plugin grows one
    /// [`DistanceField`](crate::search::DistanceField) from the goal, within the frame
    /// budget, and answers each of them by descending it from the unit's cell: the same
    /// cost as the unit's own optimal search, in O(path length) and no search per unit.
    /// Later requests to a goal whose field is cached use it too. 8 by default.
    pub field_min_requests: usize,
    /// Off by default (slower than the default in the army benchmark, see BENCHMARKS.md).
    /// When on,
    /// requests of a group order that end on their own cells near a shared goal (claimed
    /// cells around a requested goal, formation slots within 16 cells of one another)
    /// join one field and, on weighted layers, run A* guided by its distances (exact, see
    /// `Pathfinder::find_guided`); off, only requests with exactly the same goal cell
    /// share a field.
    pub guided_fields: bool,
    /// Off by default (exactness first). When on, requests of a group order that end on
    /// their own cells near a shared goal (claimed cells around a requested goal,
    /// formation slots within 64 cells of the first one), on weighted layers (on uniform
    /// ones their own JPS is as fast and exact), read the long way off one shared field
    /// toward that goal and search only the last stretch: from the
    /// first cell of their descent at most `2 d` plus 8 straight steps from the field's
    /// goal (by cost), where `d` is the cost between their own cell and that goal, to
    /// their own cell. One field per order instead of one search per unit (the army
    /// benchmark in BENCHMARKS.md measures it). The price is exactness: such a
    /// path costs at least the unit's own optimum and at most twice the cost between its
    /// cell and the field's goal more (the descent is an optimal way toward the field's
    /// goal and the triangle inequality bounds the rest); `PathResult::Found` says so in
    /// [`FoundPath::approached`](crate::components::FoundPath::approached). Under a time
    /// budget the last stretch is sliced like any search: suspended at the deadline with
    /// the descent before it and resumed next frame (its descent dropped, and the
    /// request prepared again, if a map edit cuts it meanwhile). Takes precedence over
    /// [`TilepathSettings::guided_fields`].
    pub shared_approach: bool,
    /// At most this many shared fields are kept (least recently used dropped first); 0
    /// turns shared fields off. A field holds about 13 bytes per map cell (3.3 MiB on a
    /// 512 × 512 map); it is carried over obstacle edits, exactly
    /// (`DistanceField::carry_over`), and dropped on terrain edits or when the map, its
    /// placement or the profiles change. 4 by default.
    pub max_fields: usize,
    /// Re-plan found paths whose validity or cost an edit may have changed (obstacles or
    /// terrain near them, their movement profile changed), and retry failures that a
    /// change may have fixed (blocked or unreachable goals, unknown profiles, no map
    /// yet).
    pub replan_on_change: bool,
    /// Expansions the local repairs of one frame may spend, all together: a path that a
    /// new wall cuts ahead of its unit is first repaired in place by a small search
    /// around the cut (kept as the answer only when the detour costs exactly what the
    /// cut stretch did, so the path stays optimal), in the re-planning step, outside the
    /// solve budget. A dearer detour found so is given as a provisional path
    /// ([`crate::components::FoundPath::provisional`]) while the request is planned
    /// again, and so is one around a new cut of a path whose re-plan already waits: the
    /// unit walks on instead of waiting at the wall. Once this is spent, cut paths only
    /// go to the queue. 0 turns repairs and provisional detours off. 16,384 by default.
    pub repair_budget: u32,
    /// A path that a new wall cuts (and that is not repaired in place) farther than
    /// this many cells ahead of its unit is re-planned in the deferred lane (see
    /// [`PathTicket::DEFERRED`](crate::components::PathTicket::DEFERRED)): the unit walks
    /// on, and the re-plan waits behind the requests of units that have no path to
    /// follow until the unit comes within this many cells (Chebyshev) of the cut. Under
    /// load this keeps units moving: the solver serves the cuts a unit is about to reach
    /// first. 0 makes every cut urgent. 16 by default.
    pub defer_cuts_beyond: u32,
    /// JPS+ for [`Algorithm::Auto`]: when a map arrives (or is replaced), the
    /// re-planning step builds the jump table of the one-cell layer of every profile under
    /// which all passable cells weigh the same, and the first `Auto` request of a wider
    /// agent on such a layer builds that layer's (once per layer and map: O(cells) time,
    /// 16 bytes per cell; map edits then update tables incrementally). `Auto` requests on
    /// a layer with a table run [`Algorithm::JpsPlus`] from then on: the same costs as
    /// online JPS, faster where straight runs are long (rooms, open ground; see
    /// BENCHMARKS.md). `true` by default; `false` keeps online JPS and builds no table.
    pub jump_tables: bool,
}

impl Default for TilepathSettings {
    fn default() -> Self {
        Self {
            frame_budget: Duration::from_millis(2),
            expansion_budget: None,
            max_requests_per_frame: 4096,
            max_threads: usize::MAX,
            default_algorithm: Algorithm::Auto,
            default_limits: Limits::UNLIMITED,
            field_min_requests: 8,
            guided_fields: false,
            shared_approach: false,
            max_fields: 4,
            replan_on_change: true,
            repair_budget: 16_384,
            defer_cuts_beyond: 16,
            jump_tables: true,
        }
    }
}

impl TilepathSettings {
    /// Expansions a search runs between two looks at the clock under a time budget: a
    /// frame runs over [`TilepathSettings::frame_budget`] by at most this much work (per
    /// solver thread, in parallel).
    pub const TIME_SLICE: u32 = 256;
}

impl Plugin for TilepathPlugin {
    fn build(&self, app: &mut App) {
        let schedule = self.schedule;
        app.init_resource::<TilepathSettings>()
            .init_resource::<MovementProfiles>()
            .init_resource::<PathQueue>()
            .init_resource::<TilepathStats>()
            .init_resource::<FrameClock>()
            .add_message::<PathSolved>()
            .add_message::<NavGridChanged>()
            .register_type::<TilepathSettings>()
            .register_type::<MovementProfiles>()
            .register_type::<NamedProfile>()
            .register_type::<TilepathStats>()
            .register_type::<NavGrid>()
            .register_type::<PathRequest>()
            .register_type::<PathGoal>()
            .register_type::<PathResult>()
            .register_type::<FoundPath>()
            .register_type::<PathFailure>()
            .register_type::<PathTicket>()
            .register_type::<Replanning>()
            .register_type::<Steering>()
            .register_type::<Arrived>()
            .register_type::<SteeringProgress>()
            .add_observer(forget_removed_request)
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
                    systems::start_frame
                        .in_set(TilepathSystems::SyncMap)
                        .before(profiles::sync_profiles),
                    profiles::sync_profiles.in_set(TilepathSystems::SyncMap),
                    (
                        systems::queue_changed_requests,
                        systems::replan_paths,
                        systems::assign_slots,
                    )
                        .chain()
                        .in_set(TilepathSystems::Replan),
                    systems::solve_paths.in_set(TilepathSystems::Solve),
                    crate::steering::steer_units.in_set(TilepathSystems::Steer),
                    systems::finish_frame
                        .in_set(TilepathSystems::Steer)
                        .after(crate::steering::steer_units),
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
                    .in_set(TilepathSystems::SyncMap)
                    .after(systems::start_frame)
                    .before(profiles::sync_profiles),
            );
    }
}

/// When a [`PathRequest`] is removed, the plugin's components go with it (a steering unit
/// stops: it has no path any more).
fn forget_removed_request(removed: On<Remove, PathRequest>, mut commands: Commands) {
    commands
        .entity(removed.entity)
        .try_remove::<(PathResult, PathTicket, Replanning, Arrived)>();
}
