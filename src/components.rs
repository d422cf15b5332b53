//! ECS data of the plugin: the [`NavGrid`] map resource, path requests, results and messages.

use std::fmt;

use bevy::prelude::*;

use crate::grid::{Cell, Connectivity, GridSize};
use crate::scenario::{CachedScenario, CellRect, MapChange, MapError, Scenario};
use crate::search::{Algorithm, Limits, PathError};

/// Who maintains a [`NavGrid`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum GridSource {
    /// Built by the user with [`NavGrid::new`]; collision layers leave it alone.
    #[default]
    Manual,
    /// Built and kept in sync by the plugin from tilemap collision layers.
    #[cfg_attr(not(feature = "tilemap"), allow(dead_code))]
    Tilemaps,
}

/// The map every path request is solved on: a [`CachedScenario`] plus where its cells
/// are in the world.
///
/// Cell `(x, y)` is bevy_ecs_tilemap's `TilePos { x, y }`: `x` grows to the right and
/// `y` grows **upwards** in world space. (An ASCII map's first line is therefore row
/// `y = 0`, drawn at the bottom.)
///
/// The plugin builds and updates this resource from tilemaps that carry a
/// [`crate::tilemap::CollisionLayer`]. Games without tilemaps insert one themselves with
/// [`NavGrid::new`] and edit it with [`NavGrid::apply_edits`]; a grid inserted that way
/// is never touched by collision layers.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let map = CachedScenario::from_ascii("
///     ....
///     .##.
///     ....
/// ").unwrap();
/// // Cells are 16 world units wide; the centre of cell (0, 0) is at (8, 8).
/// let mut grid = NavGrid::new(map, Vec2::splat(8.0), Vec2::splat(16.0));
/// assert_eq!(grid.world_to_cell(Vec2::new(20.0, 1.0)), Some(Cell::new(1, 0)));
/// assert_eq!(grid.cell_to_world(Cell::new(1, 0)), Vec2::new(24.0, 8.0));
/// assert_eq!(grid.world_to_cell(Vec2::new(-1.0, 0.0)), None);
/// let change = grid.apply_edits([(Cell::new(0, 0), true)]).unwrap();
/// assert_eq!(change.generation, grid.generation());
/// assert!(grid.is_blocked(Cell::new(0, 0), 1));
/// ```
#[derive(Resource, Reflect)]
#[reflect(Resource, from_reflect = false)]
pub struct NavGrid {
    #[reflect(ignore)]
    scenario: CachedScenario,
    origin: Vec2,
    tile_size: Vec2,
    generation: u64,
    #[reflect(ignore)]
    log: ChangeLog,
    #[reflect(ignore)]
    edits: Vec<(Cell, bool)>,
    #[reflect(ignore)]
    source: GridSource,
}

/// The changes recorded since re-planning last ran.
#[derive(Debug, Default)]
pub(crate) struct ChangeLog {
    /// The changes, oldest first.
    pub(crate) changes: Vec<MapChange>,
    /// Per change: true when it concerns the whole map (new map, resize, move).
    pub(crate) whole: Vec<bool>,
    /// Cells whose obstacle bit flipped, over all changes.
    pub(crate) cells: Vec<Cell>,
}

impl ChangeLog {
    pub(crate) fn clear(&mut self) {
        self.changes.clear();
        self.whole.clear();
        self.cells.clear();
    }
}

impl FromReflect for NavGrid {
    /// A navigation grid cannot be rebuilt from reflected data (its obstacle cache is not
    /// reflected), so this always returns `None`.
    fn from_reflect(_: &dyn PartialReflect) -> Option<Self> {
        None
    }
}

impl fmt::Debug for NavGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NavGrid")
            .field("size", &self.scenario.size())
            .field("origin", &self.origin)
            .field("tile_size", &self.tile_size)
            .field("generation", &self.generation)
            .field("pending_changes", &self.log.changes.len())
            .finish()
    }
}

impl NavGrid {
    /// A grid over `scenario` whose cell `(0, 0)` has its centre at `origin` and whose
    /// cells are `tile_size` world units apart (x to the right, y upwards).
    pub fn new(scenario: CachedScenario, origin: Vec2, tile_size: Vec2) -> Self {
        Self {
            scenario,
            origin,
            tile_size,
            generation: 0,
            log: ChangeLog::default(),
            edits: Vec::new(),
            source: GridSource::Manual,
        }
    }

    /// Parses an ASCII map (see [`CachedScenario::from_ascii`]) into a grid.
    pub fn from_ascii(text: &str, origin: Vec2, tile_size: Vec2) -> Result<Self, MapError> {
        CachedScenario::from_ascii(text).map(|s| Self::new(s, origin, tile_size))
    }

    #[cfg_attr(not(feature = "tilemap"), allow(dead_code))]
    pub(crate) fn from_tilemaps(scenario: CachedScenario, origin: Vec2, tile_size: Vec2) -> Self {
        Self {
            source: GridSource::Tilemaps,
            ..Self::new(scenario, origin, tile_size)
        }
    }

    #[cfg_attr(not(feature = "tilemap"), allow(dead_code))]
    pub(crate) fn source(&self) -> GridSource {
        self.source
    }

    /// The cached map the pathfinders search.
    #[inline]
    pub fn scenario(&self) -> &CachedScenario {
        &self.scenario
    }

    /// Map size in cells.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.scenario.size()
    }

    /// World position of the centre of cell `(0, 0)`.
    #[inline]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// World distance between the centres of neighbouring cells, per axis.
    #[inline]
    pub fn tile_size(&self) -> Vec2 {
        self.tile_size
    }

    /// Increases by one with every change of obstacles, size or placement.
    #[inline]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Changes not yet seen by the re-planning system (normally: the changes of the
    /// current frame). Each carries the grid generation it produced.
    pub fn changes(&self) -> &[MapChange] {
        &self.log.changes
    }

    /// The cells whose obstacle state flipped in those [`NavGrid::changes`].
    pub fn changed_cells(&self) -> &[Cell] {
        &self.log.cells
    }

    /// The cell containing the world position `p`, or `None` when `p` is off the map or
    /// not finite.
    pub fn world_to_cell(&self, p: Vec2) -> Option<Cell> {
        if !p.is_finite() {
            return None;
        }
        let local = (p - self.origin) / self.tile_size + Vec2::splat(0.5);
        if !local.is_finite() {
            return None;
        }
        let f = local.floor();
        let size = self.size();
        if f.x < 0.0 || f.y < 0.0 || f.x >= size.width as f32 || f.y >= size.height as f32 {
            return None;
        }
        Some(Cell::new(f.x as i32, f.y as i32))
    }

    /// World position of the centre of `cell` (cells off the map are extrapolated).
    #[inline]
    pub fn cell_to_world(&self, cell: Cell) -> Vec2 {
        self.origin + Vec2::new(cell.x as f32, cell.y as f32) * self.tile_size
    }

    /// True when an agent of `diameter` cells cannot stand on `cell` (off the map, an
    /// obstacle within its footprint, or an unsupported diameter).
    pub fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        self.scenario
            .layer(diameter)
            .is_none_or(|layer| layer.is_blocked(cell))
    }

    /// Sets obstacles directly; returns what changed (and records it for re-planning),
    /// or `None` when nothing did. Only the touched region is recomputed, so pass all the
    /// edits of a frame in one call. Paths are re-planned only when they pass within their
    /// agent's radius of a flipped cell.
    pub fn apply_edits(
        &mut self,
        edits: impl IntoIterator<Item = (Cell, bool)>,
    ) -> Option<MapChange> {
        self.edits.clear();
        self.edits.extend(edits);
        let flipped_from = self.log.cells.len();
        for &(cell, blocked) in &self.edits {
            if self.scenario.size().contains(cell) && self.scenario.is_obstacle(cell) != blocked {
                self.log.cells.push(cell);
            }
        }
        match self.scenario.apply(self.edits.iter().copied()) {
            Some(change) => Some(self.record(change.cells, false)),
            None => {
                self.log.cells.truncate(flipped_from);
                None
            }
        }
    }

    /// Moves the grid in the world. Every existing path is re-planned when the placement
    /// actually changes (world goals may now name other cells).
    pub fn set_placement(&mut self, origin: Vec2, tile_size: Vec2) {
        if origin != self.origin || tile_size != self.tile_size {
            self.origin = origin;
            self.tile_size = tile_size;
            self.record(CellRect::of_size(self.size()), true);
        }
    }

    /// Replaces the whole map (for example after a resize); every path is re-planned.
    pub fn set_scenario(&mut self, scenario: CachedScenario) {
        self.scenario = scenario;
        self.record(CellRect::of_size(self.size()), true);
    }

    fn record(&mut self, cells: CellRect, whole: bool) -> MapChange {
        self.generation += 1;
        let change = MapChange {
            cells,
            generation: self.generation,
        };
        self.log.changes.push(change);
        self.log.whole.push(whole);
        change
    }

    /// Hands the recorded changes to `out` and starts an empty log (buffers are swapped,
    /// not reallocated).
    pub(crate) fn take_changes(&mut self, out: &mut ChangeLog) {
        std::mem::swap(&mut self.log, out);
        self.log.clear();
    }
}

/// Where a unit wants to go.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Debug, PartialEq)]
pub enum PathGoal {
    /// A cell of the [`NavGrid`] (a bevy_ecs_tilemap `TilePos`).
    Cell(Cell),
    /// A world position; the goal is the cell containing it.
    World(Vec2),
}

impl Default for PathGoal {
    fn default() -> Self {
        PathGoal::Cell(Cell::default())
    }
}

impl From<Cell> for PathGoal {
    fn from(cell: Cell) -> Self {
        PathGoal::Cell(cell)
    }
}

impl From<Vec2> for PathGoal {
    fn from(p: Vec2) -> Self {
        PathGoal::World(p)
    }
}

/// Asks the plugin for a path from the entity's current cell (from its [`Transform`]
/// translation) to [`PathRequest::goal`]. The answer appears in the entity's
/// [`PathResult`] (added automatically) and as a [`PathSolved`] message.
///
/// Inserting the component again, or changing any field, queues a new search. Requests
/// are served oldest first within [`crate::plugin::TilepathSettings::frame_budget`].
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let request = PathRequest::new(Cell::new(10, 4))
///     .algorithm(Algorithm::Jps)
///     .diameter(2)
///     .smooth(true);
/// assert_eq!(request.goal, PathGoal::Cell(Cell::new(10, 4)));
/// let to_world = PathRequest::new(Vec2::new(120.0, -40.0));
/// assert_eq!(to_world.goal, PathGoal::World(Vec2::new(120.0, -40.0)));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(PathResult, PathTicket)]
pub struct PathRequest {
    /// Where to go.
    pub goal: PathGoal,
    /// The algorithm; `None` uses [`crate::plugin::TilepathSettings::default_algorithm`].
    pub algorithm: Option<Algorithm>,
    /// Agent footprint in cells (1 = one cell; a `d`-wide agent needs a free square of
    /// `2 * (d / 2) + 1` cells around its cell).
    pub diameter: u32,
    /// Search bounds; `None` uses [`crate::plugin::TilepathSettings::default_limits`].
    pub limits: Option<Limits>,
    /// Also compute line-of-sight smoothed waypoints.
    pub smooth: bool,
    /// Octile (default) or 4-connected moves.
    pub connectivity: Connectivity,
}

impl Default for PathRequest {
    fn default() -> Self {
        Self::new(Cell::default())
    }
}

impl PathRequest {
    /// A request to `goal` (a [`Cell`] or a world [`Vec2`]) for a one-cell agent, with
    /// the default algorithm and limits, octile moves, no smoothing.
    pub fn new(goal: impl Into<PathGoal>) -> Self {
        Self {
            goal: goal.into(),
            algorithm: None,
            diameter: 1,
            limits: None,
            smooth: false,
            connectivity: Connectivity::Octile,
        }
    }

    /// Sets the algorithm.
    pub fn algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = Some(algorithm);
        self
    }

    /// Sets the agent diameter in cells.
    pub fn diameter(mut self, diameter: u32) -> Self {
        self.diameter = diameter;
        self
    }

    /// Sets the search limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// Turns line-of-sight smoothing on or off.
    pub fn smooth(mut self, smooth: bool) -> Self {
        self.smooth = smooth;
        self
    }

    /// Sets the connectivity.
    pub fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }
}

/// A path the plugin found.
#[derive(Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Debug, Default, PartialEq)]
pub struct FoundPath {
    /// Every cell from the start to the goal, consecutive cells one king move apart.
    pub cells: Vec<Cell>,
    /// World positions (cell centres) to walk through: the smoothed waypoints when the
    /// request asked for smoothing, otherwise the centre of every cell of the path.
    pub waypoints: Vec<Vec2>,
    /// Octile length of the cell path in cells (straight step 1, diagonal √2).
    pub length: f32,
    /// [`NavGrid::generation`] the path was planned on.
    pub generation: u64,
    /// Nodes the search expanded.
    pub expanded: u32,
}

/// Why the plugin could not give an entity a path.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Debug, PartialEq)]
pub enum PathFailure {
    /// There is no [`NavGrid`]: no collision layer was spawned yet, the last one was
    /// despawned, or no grid was inserted. Retried automatically when a grid appears.
    NoMap,
    /// The requesting entity has no [`Transform`], so it has no start cell.
    NoTransform,
    /// The entity's translation is NaN or infinite.
    InvalidPosition,
    /// A [`PathGoal::World`] goal is NaN or infinite.
    InvalidGoal,
    /// The entity stands outside the map.
    StartOffMap {
        /// The entity's world position.
        position: Vec2,
    },
    /// The goal lies outside the map.
    GoalOffMap {
        /// The requested goal.
        goal: PathGoal,
    },
    /// The search itself failed: blocked start or goal, unreachable goal, unsupported
    /// diameter, or a limit stopped it.
    Search(PathError),
}

impl PathFailure {
    /// True when a change of the map can turn this failure into a path (the plugin then
    /// retries the request automatically).
    pub fn depends_on_map(&self) -> bool {
        matches!(
            self,
            PathFailure::NoMap
                | PathFailure::StartOffMap { .. }
                | PathFailure::GoalOffMap { .. }
                | PathFailure::Search(
                    PathError::StartBlocked { .. }
                        | PathError::GoalBlocked { .. }
                        | PathError::Unreachable
                )
        )
    }
}

impl fmt::Display for PathFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathFailure::NoMap => write!(f, "there is no navigation grid"),
            PathFailure::NoTransform => write!(f, "the entity has no Transform"),
            PathFailure::InvalidPosition => write!(f, "the entity's position is not finite"),
            PathFailure::InvalidGoal => write!(f, "the goal position is not finite"),
            PathFailure::StartOffMap { position } => {
                write!(f, "the entity at {position} is off the map")
            }
            PathFailure::GoalOffMap { goal } => write!(f, "the goal {goal:?} is off the map"),
            PathFailure::Search(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PathFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PathFailure::Search(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PathError> for PathFailure {
    fn from(e: PathError) -> Self {
        PathFailure::Search(e)
    }
}

/// The answer to an entity's [`PathRequest`].
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub enum PathResult {
    /// Queued: not solved yet (new request, or re-planning after a map change).
    #[default]
    Pending,
    /// A path was found.
    Found(FoundPath),
    /// No path; the reason is typed.
    Failed(PathFailure),
}

impl PathResult {
    /// True while the request waits in the queue.
    pub fn is_pending(&self) -> bool {
        matches!(self, PathResult::Pending)
    }

    /// The path, when one was found.
    pub fn found(&self) -> Option<&FoundPath> {
        match self {
            PathResult::Found(p) => Some(p),
            _ => None,
        }
    }

    /// The failure, when the request failed.
    pub fn failure(&self) -> Option<&PathFailure> {
        match self {
            PathResult::Failed(f) => Some(f),
            _ => None,
        }
    }
}

/// Queue bookkeeping the plugin keeps next to each [`PathRequest`]: when it was queued
/// and its place in the queue (lower = served first).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct PathTicket {
    queued_frame: u64,
    order: u64,
}

impl PathTicket {
    pub(crate) fn new(queued_frame: u64, order: u64) -> Self {
        Self {
            queued_frame,
            order,
        }
    }

    /// The plugin frame (count of `Update` runs) in which the request was last queued.
    pub fn queued_frame(&self) -> u64 {
        self.queued_frame
    }

    /// Position in the queue: requests are served in increasing order.
    pub fn order(&self) -> u64 {
        self.order
    }
}

/// Sent once for every request the plugin answered, in the order they were served.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct PathSolved {
    /// The requesting entity.
    pub entity: Entity,
    /// `Ok(length in cells)` when a path was found, or why not.
    pub outcome: Result<f32, PathFailure>,
}
