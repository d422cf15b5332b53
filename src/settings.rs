//! The plugin's settings, grouped by concern: budget, request defaults, group orders,
//! fields, re-planning, crowds, stalls, congestion.

use std::time::Duration;

use bevy::prelude::*;

use crate::crowd::AvoidanceSettings;
use crate::search::{Algorithm, Limits};

/// Plugin settings. Insert your own before or after adding the plugin; values inserted
/// before it are kept.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// // A lockstep game: the same answers in the same frames on every machine.
/// let settings = TilepathSettings {
///     budget: FrameBudget::Expansions(20_000),
///     replan: ReplanSettings { defer_cuts_beyond: 8, ..default() },
///     ..default()
/// };
/// assert_eq!(settings.group_orders, GroupOrders::SharedFields);
/// ```
///
/// # Progress guarantee
///
/// Whatever the budget ([`FrameBudget::Time`] down to zero, [`FrameBudget::Expansions`]
/// down to 0) and however often the map changes, every waiting request is answered.
/// Requests are served oldest first, and every frame the oldest makes progress: under a
/// time budget the first search of the frame runs at least one slice of
/// [`TilepathSettings::TIME_SLICE`] expansions, and so does the first shared field,
/// however late the frame already is; under an expansion budget of `b` (at least 1) the
/// oldest request's own search runs first, before any field grows, with all the frame's
/// expansions: at least `⌈b / 2⌉`, since map upkeep owed takes at most `⌊b / 2⌋` (see
/// [`FrameBudget`]).
///
/// What map edits can take back is counted per request. A *setback* is an edit that
/// undid work done on it: its suspended search started over (JPS and JPS+ jumps,
/// terrain changes, another map) or was carried over edits that forgot at least as many
/// nodes as it had expanded since the edits before; the shared field it waits on was set
/// back the same way or started over; its shared approach's descent was cut. After two
/// setbacks a request runs its own search (shared fields and approaches
/// left aside); after three, as the oldest request of a frame, its search runs to its
/// end in that frame, whatever the budget ([`TilepathStats::whole`](crate::stats::TilepathStats::whole)
/// counts these). An exact search that edits restart twice also runs from then on as
/// the A* that carries over edits (`Pathfinder::resume`).
///
/// So the oldest waiting request is answered within `F1 + F2 + F3 + 1` frames, where
/// `Fi` is what its i-th attempt would take on a map left alone at the budget that edits
/// leave: `⌈E / ⌈b / 2⌉⌉` frames for a search of `E` expansions at `b` a frame (`⌈E / b⌉`
/// while no edit is made; `⌈E / 256⌉` at a zero time budget), and for a field the frames
/// it takes to settle the request's cell. `E` is the size of its own
/// search (at most the cells it can reach, plus those edits reopen), not the edit rate.
/// Requests behind it wait their turn: the queue's lanes (urgent, deferred cuts,
/// improvements) are served in that order, each oldest first. A frame that runs a search
/// whole may exceed the budget by that one search; under a time budget nothing else does
/// by more than one slice per solver thread, under an expansion budget nothing else but
/// the exceptions listed under [`FrameBudget::Expansions`]. The test `starvation` runs this at budgets 0, 1, 64 and
/// 1,024 expansions against walls, cuts and terrain repaints every frame.
///
/// The re-planning step that decides which answers an edit invalidates has its own
/// bound, in path cells ([`ReplanSettings::review_budget`], `B`): it reviews the requests
/// round-robin, in entity order, each against every edit since its last review, and
/// stops in a frame once it has walked `B` path cells, after at least one request (so
/// even `B = 0` progresses); units that a wall of this frame stands within 8 cells ahead
/// of are reviewed at once, apart from `B`. Let `R` be the number of requests and `C` the sum of the cells of their
/// paths (1 for a request without one). Every edit is then checked against every path
/// answered before it, and a cut path repaired or sent to the queue, within
/// `min(2R, ⌈2C / max(B, 1)⌉)` frames, the edit's frame included, whatever the edit rate;
/// a shortcut that an opened cell allows is found within the same bound. Steering never
/// walks a unit into a blocked cell meanwhile: it waits before the wall. Changes of the
/// whole map and of movement profiles are reviewed at once.
#[derive(Resource, Clone, Debug, PartialEq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct TilepathSettings {
    /// What the solve step may spend per frame, in time or in expansions (see
    /// [`FrameBudget`]). [`FrameBudget::Time`] of 2 ms by default.
    pub budget: FrameBudget,
    /// At most this many searches per frame. 4,096 by default.
    pub max_requests_per_frame: usize,
    /// At most this many threads of the `ComputeTaskPool` solve at once (at least one is
    /// used; results do not depend on this number). Each solving thread owns one warm
    /// `Pathfinder` (about 12 bytes per map cell for A*), and the plugin keeps at most
    /// this many (or the pool's thread count, whichever is smaller) alive. `usize::MAX`
    /// (the pool decides) by default.
    pub max_threads: usize,
    /// What requests that do not say get. [`RequestDefaults::default`] by default.
    pub defaults: RequestDefaults,
    /// How requests of one group order share work (see [`GroupOrders`]).
    /// [`GroupOrders::SharedFields`] by default.
    pub group_orders: GroupOrders,
    /// The shared goal fields group orders use. [`FieldSettings::default`] by default.
    pub fields: FieldSettings,
    /// What a map or profile change does to answered requests.
    /// [`ReplanSettings::default`] by default.
    pub replan: ReplanSettings,
    /// JPS+ for [`Algorithm::Auto`]: when a map arrives (or is replaced), the
    /// re-planning step builds the jump table of the one-cell layer of every profile under
    /// which all passable cells weigh the same, and the first `Auto` request of a wider
    /// agent on such a layer builds that layer's (once per layer and map: O(cells) time,
    /// 16 bytes per cell; map edits then update tables incrementally). `Auto` requests on
    /// a layer with a table run [`Algorithm::JpsPlus`] from then on: the same costs as
    /// online JPS, faster where straight runs are long (rooms, open ground; see
    /// BENCHMARKS.md). `false` keeps online JPS and builds no table. `true` by default.
    pub jump_tables: bool,
    /// When the landmark tables that [`Algorithm::Auto`] reads on weighted layers are
    /// built (see [`LandmarkTables`]). [`LandmarkTables::Background`] by default.
    pub landmark_tables: LandmarkTables,
    /// How steering units avoid each other ([`crate::steering::Avoidance`]).
    /// [`CrowdSettings::default`] by default.
    pub crowd: CrowdSettings,
    /// When a unit with an order counts as stalled, and what it does then.
    /// [`StallSettings::default`] by default.
    pub stall: StallSettings,
    /// How units that crawl make cells dearer for new paths (see
    /// [`CongestionSettings`]). [`CongestionSettings::default`] by default.
    pub congestion: CongestionSettings,
}

impl Default for TilepathSettings {
    fn default() -> Self {
        Self {
            budget: FrameBudget::default(),
            max_requests_per_frame: 4096,
            max_threads: usize::MAX,
            defaults: RequestDefaults::default(),
            group_orders: GroupOrders::default(),
            fields: FieldSettings::default(),
            replan: ReplanSettings::default(),
            jump_tables: true,
            landmark_tables: LandmarkTables::default(),
            crowd: CrowdSettings::default(),
            stall: StallSettings::default(),
            congestion: CongestionSettings::default(),
        }
    }
}

impl TilepathSettings {
    /// Expansions a search runs between two looks at the clock under a time budget: a
    /// frame runs over [`FrameBudget::Time`] by at most this much work (per solver
    /// thread, in parallel).
    pub const TIME_SLICE: u32 = 256;
}

/// What the solve step may spend per frame.
///
/// What else the plugin does for paths has a budget of its own or counts against this
/// one:
///
/// | work | under `Time` | under `Expansions` |
/// |---|---|---|
/// | searches, fields, paths read off fields | this budget | this budget, at most `max(b, 1)` a frame but for the exceptions listed under [`FrameBudget::Expansions`] |
/// | carrying suspended searches and fields over edits | this budget (it runs in the solve step) | at most 16,384 labels forgotten per search or field, or it starts over (a setback of the progress guarantee) |
/// | map upkeep of edits: clearance, layers, components, JPS+ jump tables, landmark tables | this budget ([`NavGrid::upkeep_time`](crate::components::NavGrid::upkeep_time) since the last frame, wherever the edits were made) | this budget: [`NavGrid::upkeep_work`](crate::components::NavGrid::upkeep_work) since the last frame, one expansion per 32 units, at most half of each frame's budget, the rest owed to the next frames (at most one budget owed) |
/// | the JPS+ jump tables of a new or replaced map's one-cell layers | not counted: built once, in the frame the map arrives | the same |
/// | landmark tables under [`LandmarkTables::Background`] (the default) | not counted: built on the async compute pool; their catch-up with the edits made meanwhile is map upkeep (above) | the same |
/// | landmark tables under [`LandmarkTables::OnLoad`]: the one-cell layers' in the frame the map arrives; a wider agent's layer's in its first `Auto` search | not counted; the wider layer's: this budget (it runs in that search) | not counted: building expands nothing |
/// | review of answered paths against edits | [`ReplanSettings::review_budget`], in path cells | the same |
/// | repairs in place, provisional detours | [`ReplanSettings::repair_budget`], in expansions | the same |
/// | steering | not budgeted: every unit moves every frame | the same |
///
/// [`TilepathStats`](crate::stats::TilepathStats) reports each step's time, and
/// `plugin_time` all of the plugin's systems per frame. Whatever counts against the
/// budget, the progress guarantee of [`TilepathSettings`] holds: the frame's first slice
/// runs even when upkeep has spent the budget already.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub enum FrameBudget {
    /// Wall-clock time per frame. A search that does not finish in the time left is
    /// suspended and resumed the next frame from where it stopped, so no frame runs over
    /// by more than one slice of [`TilepathSettings::TIME_SLICE`] expansions per solver
    /// thread, except to keep the progress guarantee. `Duration::MAX` means no budget.
    Time(Duration),
    /// Search expansions per frame, all solver threads and shared fields together (a
    /// path read off a shared field counts one expansion per 4 cells, plus one).
    ///
    /// A frame pays at most `max(b, 1)`: every node a search, a shared approach's last
    /// stretch or a field expands counts as one, and each is sliced at what is left
    /// (the overrun constant is 0; the core's `Pathfinder::start` slices the same way).
    /// What a frame pays is [`TilepathStats::expanded`](crate::stats::TilepathStats::expanded)
    /// plus `field_charged` and `upkeep_charged`. The bounded exceptions:
    ///
    /// - the answer that ends the frame may overrun what is left by the reading of its
    ///   path off a field (one per 4 cells of that path, plus one) and by planning it
    ///   again around units ([`PathRequest::avoid_units`](crate::components::PathRequest::avoid_units),
    ///   at most 32,768 expansions); after it the frame keeps nothing more;
    /// - a search run whole for the progress guarantee (counted in
    ///   [`TilepathStats::whole`](crate::stats::TilepathStats::whole)) pays all it expands.
    ///
    /// Answers, and the frame each one arrives in, then depend only on the requests and
    /// the map, not on the machine or the thread count: the basis for lockstep
    /// multiplayer (run the plugin in `FixedUpdate`, see
    /// [`TilepathPlugin::in_schedule`](crate::plugin::TilepathPlugin::in_schedule)).
    Expansions(u32),
}

impl Default for FrameBudget {
    /// 2 ms of wall-clock time.
    fn default() -> Self {
        Self::Time(Duration::from_millis(2))
    }
}

/// When the landmark tables of weighted layers are built. [`Algorithm::Auto`] reads a
/// layer's table (a lower bound on costs, see
/// [`Landmarks`](crate::scenario::Landmarks)) where passable cells weigh differently;
/// without one it runs plain A\*. Both are exact: the table changes how many cells a
/// search expands, never an answer's cost.
///
/// Memory: 64 bytes per cell for each weighted layer with a table (16 MiB at 512 × 512,
/// 256 MiB at 2048 × 2048), plus 2 bits per cell of interior bits; while a build runs, a
/// copy of the layer (1 byte and 1 bit per cell) and about 88 bytes per cell of scratch.
/// Building one is `LANDMARKS + 1` Dijkstra searches over the layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub enum LandmarkTables {
    /// Built on the async compute task pool, one layer at a time, from a copy of the
    /// layer: the one-cell layer of every weighted profile when a map arrives, a wider
    /// agent's layer once it exists. `Auto` runs A\* on a layer until its table is
    /// installed; the install catches the table up with the edits made meanwhile
    /// (starting over when the map no longer lists them). Under a time budget a table is
    /// installed in the first frame after its build ends. Under
    /// [`FrameBudget::Expansions`] it is installed
    /// [`LandmarkTables::LOCKSTEP_CELLS_PER_FRAME`] cells' worth of frames after its build
    /// started (waiting for the build then, if it has not ended), so that every machine
    /// switches in the same frame. The default.
    #[default]
    Background,
    /// Built in the frame the map arrives (the one-cell layers) or inside the first
    /// `Auto` search on a wider agent's layer: no search runs without its table, but a
    /// large map stalls that frame (O(n log n) per landmark, outside every budget).
    OnLoad,
    /// Not built: `Auto` runs A\* on weighted layers without a table (tables built
    /// before stay).
    Off,
}

impl LandmarkTables {
    /// Under [`FrameBudget::Expansions`], a [`LandmarkTables::Background`] build of a
    /// layer of `n` cells is installed `⌈n / LOCKSTEP_CELLS_PER_FRAME⌉` frames after it
    /// started.
    pub const LOCKSTEP_CELLS_PER_FRAME: u64 = 4096;
}

/// What a [`PathRequest`](crate::components::PathRequest) that does not say gets.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub struct RequestDefaults {
    /// The algorithm: JPS where every passable cell weighs the same for the request's
    /// profile, JPS+ there when the layer's jump table is built, A* otherwise; all exact.
    /// [`Algorithm::Auto`] by default.
    pub algorithm: Algorithm,
    /// Search bounds. [`Limits::UNLIMITED`] by default.
    pub limits: Limits,
}

impl Default for RequestDefaults {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::Auto,
            limits: Limits::UNLIMITED,
        }
    }
}

/// How the requests of one group order (many units sent to one place in one frame)
/// share work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub enum GroupOrders {
    /// Every unit runs its own search.
    PerUnit,
    /// Requests to exactly the same goal cell (with the same movement profile and
    /// diameter, asking for an exact path: A*, JPS, Dijkstra or `Auto`, octile moves, no
    /// limits) share one exact [`DistanceField`](crate::search::DistanceField) grown
    /// from the goal within the frame budget, once at least
    /// [`FieldSettings::min_requests`] of them are taken in one frame; each is answered
    /// by descending it from the unit's cell: the unit's own optimal cost, in O(path
    /// length) and no search per unit. Later requests to a goal whose field is cached use
    /// it too. The default.
    #[default]
    SharedFields,
    /// As [`GroupOrders::SharedFields`], and requests that end on their own cells near a
    /// shared goal (claimed cells around a requested goal, formation slots within 64
    /// cells of the first one), on weighted layers (on uniform ones their own JPS is as
    /// fast and exact), read the long way off one shared field toward that goal and
    /// search only the last stretch: from the first cell of their descent at most `2 d`
    /// plus 8 straight steps from the field's goal (by cost), where `d` is the cost
    /// between their own cell and that goal, to their own cell. One field per order
    /// instead of one search per unit (the army benchmark in BENCHMARKS.md measures it).
    /// The price is exactness: such a path costs at least the unit's own optimum and at
    /// most twice the cost between its cell and the field's goal more (the descent is an
    /// optimal way toward the field's goal and the triangle inequality bounds the rest);
    /// [`FoundPath::approached`](crate::components::FoundPath::approached) says so.
    /// Under a time budget the last stretch is sliced like any search: suspended at the
    /// deadline with the descent before it and resumed next frame (its descent dropped,
    /// and the request prepared again, if a map edit cuts it meanwhile).
    SharedApproach,
}

/// The shared goal fields of [`GroupOrders`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub struct FieldSettings {
    /// At most this many fields are kept (least recently used dropped first); 0 turns
    /// shared fields off, as [`GroupOrders::PerUnit`] does. A field holds about 13 bytes
    /// per map cell; it is carried over obstacle and terrain edits, exactly
    /// (`DistanceField::carry_over`), and dropped when the map, its placement or the
    /// profiles change. 4 by default.
    pub max_fields: usize,
    /// A field grows for a goal once at least this many requests taken in one frame
    /// share it (see [`GroupOrders::SharedFields`]). 8 by default.
    pub min_requests: usize,
}

impl Default for FieldSettings {
    fn default() -> Self {
        Self {
            max_fields: 4,
            min_requests: 8,
        }
    }
}

/// What a change of the map or of the movement profiles does to answered requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub struct ReplanSettings {
    /// Re-plan found paths whose validity or cost an edit may have changed (obstacles or
    /// terrain near them, their movement profile changed), and retry failures that a
    /// change may have fixed (blocked or unreachable goals, unknown profiles, no map
    /// yet). `true` by default.
    pub on_change: bool,
    /// Expansions the local repairs of one frame may spend, all together: a path that a
    /// new wall cuts ahead of its unit is first repaired in place by a small search
    /// around the cut (kept as the answer only when the detour costs exactly what the
    /// cut stretch did, so the path stays optimal), in the re-planning step, outside the
    /// solve budget. A dearer detour found so is given as a provisional path
    /// ([`FoundPath::provisional`](crate::components::FoundPath::provisional)) while the
    /// request is planned again, and so is one around a new cut of a path whose re-plan
    /// already waits: the unit walks on instead of waiting at the wall. Once this is
    /// spent, cut paths only go to the queue. 0 turns repairs and provisional detours
    /// off. 16,384 by default.
    pub repair_budget: u32,
    /// A path that a new wall cuts (and that is not repaired in place) farther than this
    /// many cells ahead of its unit is re-planned in the deferred lane (see
    /// [`QueueLane::Deferred`](crate::components::QueueLane::Deferred)): the unit walks
    /// on, and the re-plan waits behind the requests of units that have no path to follow
    /// until the unit comes within this many cells (Chebyshev) of the cut. Under load
    /// this keeps units moving: the solver serves the cuts a unit is about to reach
    /// first. 0 makes every cut urgent. 16 by default.
    pub defer_cuts_beyond: u32,
    /// Path cells the review of answered requests may walk per frame. After map edits
    /// the re-planning step reviews the requests round-robin (in entity order), each
    /// against every edit since its last review: a new wall on its path ahead of the unit
    /// (a cut), changed terrain near it, or an opened or cheaper cell that could shorten
    /// it. A request costs the cells of its path (1 for one without a path, or whose path
    /// no edit since its review concerns), and a frame stops once this many are spent,
    /// after at least one request. Apart from this budget, each frame with new walls
    /// looks at the next 8 cells of every unit following its path (with
    /// [`PathProgress`](crate::components::PathProgress)) and reviews at once those a new
    /// wall stands near. An edit is kept until every request answered before it has been
    /// reviewed (see the progress guarantee of
    /// [`TilepathSettings`] for the bound in frames);
    /// openings beyond 16,384 cells are forgotten, and every path that had not seen them
    /// is re-planned in the improvement lane instead. The work does not depend on the
    /// machine's speed, so lockstep runs stay identical. `u32::MAX` reviews every request
    /// in the frame of the edit. 16,384 by default.
    pub review_budget: u32,
}

impl Default for ReplanSettings {
    fn default() -> Self {
        Self {
            on_change: true,
            repair_budget: 16_384,
            defer_cuts_beyond: 16,
            review_budget: 16_384,
        }
    }
}

/// How steering units avoid each other (the settings of [`Avoidance::Reciprocal`](crate::steering::Avoidance::Reciprocal), the
/// same for every unit), in [`TilepathSettings::crowd`].
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub struct CrowdSettings {
    /// Seconds ahead in which a unit avoids colliding with another: longer is smoother
    /// and more cautious, shorter lets units brush past each other. 1 s by default.
    pub time_horizon: f32,
    /// Seconds ahead in which a unit avoids walls (blocked tiles): longer keeps units
    /// further off walls, and slows them down at corners and at the mouths of corridors
    /// as wide as they are. 0.1 s by default.
    pub wall_horizon: f32,
    /// Units farther apart than this many tiles (centre to centre, beyond their radii)
    /// ignore each other. 3 tiles by default.
    pub neighbour_distance: f32,
    /// A unit avoids at most this many of its nearest neighbours. 10 by default.
    pub max_neighbours: usize,
    /// Passes of hard separation per frame, pushing apart the units that still overlap
    /// after their moves (each pass removes most of what is left; the moves that would
    /// still leave an overlap are then undone). 0 turns separation and that undoing off,
    /// so units may overlap. 8 by default.
    pub separation_passes: u32,
    /// How much more of the avoidance a standing unit (arrived, or without a path) takes
    /// than a moving one, so that standing units step aside for moving ones (a moving
    /// unit's share is 1). 8 by default.
    pub standing_responsibility: f32,
    /// What entering a cell held by another unit costs a path planned around units
    /// ([`PathRequest::avoid_units`](crate::components::PathRequest::avoid_units)), in
    /// straight steps on the cheapest terrain: a path goes around a unit when that is at
    /// most this many steps longer. 8 by default.
    pub unit_penalty: f32,
}

impl Default for CrowdSettings {
    fn default() -> Self {
        Self {
            time_horizon: 1.0,
            wall_horizon: 0.1,
            neighbour_distance: 3.0,
            max_neighbours: 10,
            separation_passes: 8,
            standing_responsibility: 8.0,
            unit_penalty: 8.0,
        }
    }
}

impl CrowdSettings {
    /// The core's settings of the same numbers.
    pub(crate) fn avoidance(&self) -> AvoidanceSettings {
        AvoidanceSettings {
            time_horizon: self.time_horizon,
            wall_horizon: self.wall_horizon,
            neighbour_distance: self.neighbour_distance,
            max_neighbours: self.max_neighbours,
        }
    }
}

/// The progress rule, in [`TilepathSettings::stall`]: a unit with an order that has not
/// got at least one tile further along its path (its remaining path length, from where
/// it stands, has not dropped by a tile) for `after` seconds is
/// *stalled*, however much it moves meanwhile (a unit swaying between the same few
/// cells makes no progress). Read it with
/// [`SteeringProgress::stalled_for`](crate::steering::SteeringProgress::stalled_for) and
/// [`GridStepProgress::stalled_ticks`](crate::steering::GridStepProgress::stalled_ticks).
///
/// A steering unit that got no tile further along the path it follows for `after`
/// seconds asks for a new path from where it stands
/// ([`Replanning`](crate::components::Replanning)), and again every `after` seconds while
/// it gets none further along the new one (a new path is a new baseline, so a longer way
/// around is not asked again), whatever its
/// [`Steering::replan_after`](crate::steering::Steering::replan_after). A steering unit that turned back along its path twice within a second
/// (it got a quarter tile further, then a quarter tile back, then further again) holds
/// still for `hold` seconds, so that two units facing each other stop
/// mirroring each other's moves.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub struct StallSettings {
    /// Seconds without a tile of progress along its path after which a unit with an
    /// order is stalled; zero, negative, NaN or infinite turns the rule (and its
    /// re-plans) off. 3 s by default.
    pub after: f32,
    /// Seconds a steering unit that turned back twice within a second holds still;
    /// zero, negative, NaN or infinite never holds. 0 s (off) by default.
    pub hold: f32,
}

impl Default for StallSettings {
    fn default() -> Self {
        Self {
            after: 3.0,
            hold: 0.0,
        }
    }
}

impl StallSettings {
    /// `after` when the rule is on (positive and finite).
    pub(crate) fn after(&self) -> Option<f32> {
        (self.after > 0.0 && self.after.is_finite()).then_some(self.after)
    }

    /// `hold` when it is on (positive and finite).
    pub(crate) fn hold(&self) -> Option<f32> {
        (self.hold > 0.0 && self.hold.is_finite()).then_some(self.hold)
    }
}

/// Congestion the planner sees, in [`TilepathSettings::congestion`]: cells where units
/// crawl become dearer for new paths for a while, so that a second group takes a
/// parallel passage while one is jammed, and the passage again once it has cleared.
///
/// A unit *crawls* while it has an order and has got no tile further along its path for
/// a second or more (the progress rule of [`StallSettings`] with a shorter wait). Each
/// second it crawls in a passage (a cell at most half of whose steps are open on the
/// map's walls: a corridor or a gap one unit wide, a door) raises the cells under it by
/// `1 / build_up` of full congestion; each second every cell falls by `1 / fade` of it,
/// to clear. Crowds in the open are not congestion (there is room to walk round them),
/// nor are standing units: paths already go around those
/// ([`CrowdSettings::unit_penalty`]).
///
/// Requests that go around units
/// ([`PathRequest::avoid_units`](crate::components::PathRequest::avoid_units) other
/// than [`AvoidUnits::Ignore`](crate::search::AvoidUnits::Ignore)) pay, for the stretch
/// of their path that crosses congested cells, entering a cell congested to a fraction
/// `f` of full `f × penalty` straight steps on top of the step (see
/// [Paths in a crowd](crate#paths-in-a-crowd)). Paths already given are not reviewed when congestion
/// changes. [`CongestionSettings::OFF`] turns it off.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let settings = TilepathSettings {
///     congestion: CongestionSettings::OFF,
///     ..default()
/// };
/// assert!(!settings.congestion.is_on());
/// assert!(TilepathSettings::default().congestion.is_on());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub struct CongestionSettings {
    /// What entering a fully congested cell adds to a new path, in straight steps on the
    /// cheapest terrain; zero, negative, NaN or infinite turns congestion off. 6 by
    /// default.
    pub penalty: f32,
    /// Seconds of crawling over a cell that make it fully congested (at least one frame).
    /// 1 s by default.
    pub build_up: f32,
    /// Seconds a fully congested cell takes to clear once nobody crawls over it (at
    /// least one frame). 5 s by default.
    pub fade: f32,
}

impl Default for CongestionSettings {
    fn default() -> Self {
        Self {
            penalty: 6.0,
            build_up: 1.0,
            fade: 5.0,
        }
    }
}

impl CongestionSettings {
    /// No congestion: paths see the map and the units that stand only.
    pub const OFF: Self = Self {
        penalty: 0.0,
        build_up: 1.0,
        fade: 5.0,
    };

    /// True when congestion is on (`penalty` positive and finite).
    pub fn is_on(&self) -> bool {
        self.penalty > 0.0 && self.penalty.is_finite()
    }

    /// What entering a fully congested cell costs, in straight steps (0 when off).
    pub(crate) fn penalty(&self) -> f32 {
        if self.is_on() { self.penalty } else { 0.0 }
    }

    /// How much a unit crawling for `dt` seconds raises its cells, and how much every
    /// cell falls in `dt`, in levels of [`Congestion`](crate::search::Congestion).
    pub(crate) fn steps(&self, dt: f32) -> (u16, u16) {
        let per = |secs: f32| {
            let f = if secs.is_finite() {
                dt / secs.max(dt)
            } else {
                0.0
            };
            (f.clamp(0.0, 1.0) * f32::from(crate::search::Congestion::FULL)).round() as u16
        };
        if !(dt > 0.0 && dt.is_finite()) {
            return (0, 0);
        }
        (per(self.build_up), per(self.fade))
    }
}
