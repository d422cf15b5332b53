//! ECS data of the plugin: the [`NavGrid`] map resource, path requests, results and messages.

use std::borrow::Cow;
use std::fmt;

use bevy::prelude::*;

use crate::grid::{Cell, Connectivity, GridSize};
use crate::profiles::MovementProfiles;
use crate::scenario::{
    CachedScenario, CellRect, MapEdit, MapError, MovementProfile, ProfileId, Scenario, TerrainId,
};
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
/// // A 2x2 agent anchored at (1, 0) covers cells (1..=2, 0..=1): its centre is a corner.
/// assert_eq!(grid.agent_center(Cell::new(1, 0), 2), Vec2::new(32.0, 16.0));
/// assert_eq!(grid.agent_cell(Vec2::new(32.0, 16.0), 2), Some(Cell::new(1, 0)));
/// let change = grid.apply_edits([(Cell::new(0, 0), true)]).unwrap();
/// assert_eq!(change.generation, grid.generation());
/// assert_eq!(change.cells, vec![Cell::new(0, 0)]);
/// assert!(grid.is_blocked(Cell::new(0, 0), 1));
/// ```
///
/// # Positions of agents
///
/// An agent of diameter `d` anchored at cell `c` covers the cells
/// `c - (d - 1) / 2 ..= c + d / 2` on each axis: odd diameters are centred on their cell,
/// even ones have the extra column and row on the +x / +y side, so their world centre is
/// half a tile up and right of the anchor cell's centre. [`NavGrid::agent_cell`] and
/// [`NavGrid::agent_center`] are the one conversion between unit positions and anchor
/// cells; the plugin uses them for request starts, world goals, waypoints, steering and
/// stall checks.
///
/// # Generation
///
/// [`NavGrid::generation`] is the plugin's one map generation: it counts every change of
/// obstacles, terrain, movement profiles, size or placement, is stamped on
/// [`FoundPath::generation`] and on [`NavGridChanged::generation`]. (The core map's own
/// `CachedScenario::generation` counts the edits of that map object and restarts with a
/// new map; the plugin never reads it.)
///
/// # Terrain and profiles
///
/// Each cell has a [`TerrainId`] (0 unless set): from tilemaps (see
/// [`crate::tilemap`]) or [`NavGrid::apply_map_edits`]. The plugin registers the
/// [`MovementProfiles`] resource on the map; a request's profile decides what each
/// terrain costs or forbids ([`NavGrid::is_blocked_for`], [`NavGrid::weight`]).
#[derive(Resource, Reflect)]
#[reflect(Resource, from_reflect = false)]
pub struct NavGrid {
    #[reflect(ignore)]
    scenario: CachedScenario,
    origin: Vec2,
    tile_size: Vec2,
    generation: u64,
    #[reflect(ignore)]
    log: Vec<NavGridChanged>,
    #[reflect(ignore)]
    edits: Vec<MapEdit>,
    /// Profiles the plugin registered, by id, re-registered on a new map.
    #[reflect(ignore)]
    profiles: Vec<Option<MovementProfile>>,
    #[reflect(ignore)]
    source: GridSource,
    /// The generation of the last change of the whole map (new map, size, placement).
    #[reflect(ignore)]
    whole_map_generation: u64,
}

/// Announces a change of the [`NavGrid`]: obstacles or terrain edited (by collision
/// layers, [`NavGrid::apply_edits`] or [`NavGrid::apply_map_edits`]), movement profiles
/// added, changed or removed ([`MovementProfiles`]), or a whole new map, size or
/// placement.
///
/// Sent in [`crate::plugin::TilepathSystems::Replan`] for every change recorded since
/// the set last ran, oldest first, and once with `whole_map` when a grid appears (a grid
/// being removed sends nothing: the resource is gone). Any number of systems can read
/// it with a `MessageReader<NavGridChanged>` ordered after `Replan`.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
/// app.insert_resource(NavGrid::from_ascii("....\n....", Vec2::ZERO, Vec2::ONE).unwrap());
/// app.update();
/// app.world_mut().resource_mut::<NavGrid>().apply_edits([(Cell::new(2, 1), true)]);
/// app.update();
/// let messages = app.world().resource::<Messages<NavGridChanged>>();
/// let mut cursor = messages.get_cursor();
/// let seen: Vec<_> = cursor.read(messages).cloned().collect();
/// assert!(seen[0].whole_map); // the grid appeared
/// assert_eq!(seen[1].cells, vec![Cell::new(2, 1)]);
/// assert_eq!(seen[1].generation, 1);
/// ```
#[derive(Message, Clone, Debug, Default, PartialEq)]
pub struct NavGridChanged {
    /// [`NavGrid::generation`] after the change.
    pub generation: u64,
    /// Bounding box of the cells concerned (the whole map when `whole_map`).
    pub area: CellRect,
    /// The cells whose obstacle state flipped (empty when `whole_map`).
    pub cells: Vec<Cell>,
    /// The cells whose terrain id changed (empty when `whole_map` or when no terrain
    /// changed): step costs near them may differ for every profile, and profiles that
    /// block a terrain may find them blocked or free now.
    pub terrain: Vec<Cell>,
    /// The movement profiles added, changed or removed ([`MovementProfiles`]): every
    /// path planned with one of them may be stale anywhere on the map.
    pub profiles: Vec<ProfileId>,
    /// True for a new map, a resize or a move of the grid: every cell and world position
    /// may mean something else now.
    pub whole_map: bool,
}

impl NavGridChanged {
    /// True when some cell's terrain changed.
    pub fn terrain_changed(&self) -> bool {
        !self.terrain.is_empty()
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
            .field("pending_changes", &self.log.len())
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
            log: Vec::new(),
            edits: Vec::new(),
            profiles: Vec::new(),
            source: GridSource::Manual,
            whole_map_generation: 0,
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

    /// The plugin's map generation: increases by one with every change of obstacles,
    /// terrain, profiles, size or placement (see [Generation](NavGrid#generation)).
    #[inline]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Changes not yet announced as [`NavGridChanged`] messages (normally: the changes
    /// of the current frame before [`crate::plugin::TilepathSystems::Replan`]).
    pub fn unannounced_changes(&self) -> &[NavGridChanged] {
        &self.log
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

    /// World offset of the centre of an agent of `diameter` from the centre of its anchor
    /// cell: none for odd diameters, half a tile on x and y for even ones.
    #[inline]
    fn agent_offset(&self, diameter: u32) -> Vec2 {
        if diameter >= 2 && diameter.is_multiple_of(2) {
            self.tile_size * 0.5
        } else {
            Vec2::ZERO
        }
    }

    /// World position of the centre of an agent of `diameter` anchored at `cell` (see
    /// [Positions of agents](NavGrid#positions-of-agents)): the cell's centre for odd
    /// diameters, half a tile up and right of it for even ones.
    #[inline]
    pub fn agent_center(&self, cell: Cell, diameter: u32) -> Vec2 {
        self.cell_to_world(cell) + self.agent_offset(diameter)
    }

    /// The anchor cell of an agent of `diameter` whose centre is at the world position
    /// `p` (the inverse of [`NavGrid::agent_center`]), or `None` when that cell is off the
    /// map or `p` is not finite. For diameter 1 this is [`NavGrid::world_to_cell`].
    #[inline]
    pub fn agent_cell(&self, p: Vec2, diameter: u32) -> Option<Cell> {
        self.world_to_cell(p - self.agent_offset(diameter))
    }

    /// The anchor cell of an agent of `diameter` centred at `p`, on the map or not
    /// (coordinates saturate at the `i32` range); `None` when `p` is not finite.
    pub(crate) fn agent_cell_anywhere(&self, p: Vec2, diameter: u32) -> Option<Cell> {
        let local =
            (p - self.agent_offset(diameter) - self.origin) / self.tile_size + Vec2::splat(0.5);
        if !local.is_finite() {
            return None;
        }
        let f = local.floor();
        Some(Cell::new(f.x as i32, f.y as i32))
    }

    /// True when an agent of `diameter` cells cannot stand on `cell` (off the map, an
    /// obstacle within its footprint, or an unsupported diameter), with the default
    /// profile (terrain never blocks it).
    pub fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        self.is_blocked_for(cell, diameter, ProfileId::DEFAULT)
    }

    /// True when an agent of `diameter` cells moving with `profile` cannot stand on `cell`:
    /// off the map, an obstacle or a terrain the profile blocks within its footprint, an
    /// unsupported diameter, or a profile not registered on the map.
    pub fn is_blocked_for(&self, cell: Cell, diameter: u32, profile: ProfileId) -> bool {
        self.scenario
            .layer_for(profile, diameter)
            .is_none_or(|layer| layer.is_blocked(cell))
    }

    /// The terrain id of `cell` (0 off the map and where none was set).
    pub fn terrain(&self, cell: Cell) -> TerrainId {
        self.scenario.terrain(cell)
    }

    /// The weight (1..=255) `profile` gives `cell`'s terrain, or `None` when the terrain
    /// is blocked for it, the cell is off the map or the profile is not registered.
    /// Obstacles are not looked at.
    pub fn weight(&self, cell: Cell, profile: ProfileId) -> Option<u8> {
        let w = self.scenario.weights(profile)?.at(cell)?;
        (w > 0).then_some(w)
    }

    /// Sets obstacles directly; returns what changed (a copy of the [`NavGridChanged`]
    /// message it records), or `None` when nothing did. Pass all the edits of a frame in
    /// one call: the map's clearance and components are updated once per call. Paths
    /// are re-planned only when they pass within their agent's footprint of a flipped
    /// cell.
    pub fn apply_edits(
        &mut self,
        edits: impl IntoIterator<Item = (Cell, bool)>,
    ) -> Option<NavGridChanged> {
        self.apply_map_edits(
            edits
                .into_iter()
                .map(|(cell, blocked)| MapEdit::Obstacle(cell, blocked)),
        )
    }

    /// Sets obstacles and terrain ids, in order; returns what changed (a copy of the
    /// [`NavGridChanged`] message it records, with the cells whose obstacle state flipped
    /// and those whose terrain changed), or `None` when nothing did. Edits off the map are
    /// ignored. Pass all the edits of a frame in one call (see
    /// [`CachedScenario::apply_edits`] for what an edit costs).
    ///
    /// A found path is re-planned when a flipped cell lies within its agent's footprint
    /// of the path, or a cell whose terrain changed lies within the footprint plus one
    /// cell: the path crosses it or passes next to it, so its cost or a cheaper way may
    /// have changed.
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_tilepath::prelude::*;
    /// use bevy_tilepath::scenario::MapEdit;
    ///
    /// let mut grid = NavGrid::from_ascii("....\n....", Vec2::ZERO, Vec2::ONE).unwrap();
    /// let change = grid
    ///     .apply_map_edits([MapEdit::Terrain(Cell::new(1, 1), 4), MapEdit::Obstacle(Cell::new(3, 0), true)])
    ///     .unwrap();
    /// assert_eq!(change.terrain, vec![Cell::new(1, 1)]);
    /// assert_eq!(change.cells, vec![Cell::new(3, 0)]);
    /// assert_eq!(grid.terrain(Cell::new(1, 1)), 4);
    /// ```
    pub fn apply_map_edits(
        &mut self,
        edits: impl IntoIterator<Item = MapEdit>,
    ) -> Option<NavGridChanged> {
        self.edits.clear();
        self.edits.extend(edits);
        let size = self.scenario.size();
        let mut before: Vec<(Cell, bool, TerrainId)> = self
            .edits
            .iter()
            .map(|edit| match *edit {
                MapEdit::Obstacle(cell, _) | MapEdit::Terrain(cell, _) => cell,
            })
            .filter(|&cell| size.contains(cell))
            .map(|cell| {
                (
                    cell,
                    self.scenario.is_obstacle(cell),
                    self.scenario.terrain(cell),
                )
            })
            .collect();
        before.sort_unstable_by_key(|(cell, ..)| (cell.y, cell.x));
        before.dedup_by_key(|(cell, ..)| *cell);
        let change = self.scenario.apply_edits(self.edits.iter().copied())?;
        let flipped = before
            .iter()
            .filter(|&&(cell, was, _)| self.scenario.is_obstacle(cell) != was)
            .map(|&(cell, ..)| cell)
            .collect();
        let terrain = before
            .iter()
            .filter(|&&(cell, _, was)| self.scenario.terrain(cell) != was)
            .map(|&(cell, ..)| cell)
            .collect();
        Some(self.record(NavGridChanged {
            area: change.cells,
            cells: flipped,
            terrain,
            ..NavGridChanged::default()
        }))
    }

    /// Registers the profiles of `profiles` on the map (those that differ from what the
    /// map holds under their id); records the ids added, changed or removed since the
    /// last call. `None` when nothing changed, and on the first call (a new grid: every
    /// path is planned anyway).
    pub(crate) fn sync_profiles(&mut self, profiles: &MovementProfiles) -> Option<NavGridChanged> {
        let first = self.profiles.is_empty();
        let mut changed = Vec::new();
        let count = self.profiles.len().max(
            profiles
                .iter()
                .last()
                .map_or(0, |(id, _)| usize::from(id.0) + 1),
        );
        self.profiles.resize(count, None);
        for (index, known) in self.profiles.iter_mut().enumerate() {
            let id = ProfileId(index as u8);
            let wanted = profiles.by_id(id);
            if let Some(profile) = wanted
                && self.scenario.profile(id) != Some(profile)
            {
                self.scenario.set_profile(id, profile.clone());
            }
            if known.as_ref() != wanted {
                *known = wanted.cloned();
                changed.push(id);
            }
        }
        while self.profiles.last().is_some_and(Option::is_none) {
            self.profiles.pop();
        }
        if changed.is_empty() || first {
            return None;
        }
        Some(self.record(NavGridChanged {
            area: CellRect::of_size(self.size()),
            profiles: changed,
            ..NavGridChanged::default()
        }))
    }

    /// Moves the grid in the world. Every existing path is re-planned when the placement
    /// actually changes (world goals may now name other cells); setting a NaN placement
    /// again is no change (compared bit for bit, so a NaN tilemap scale does not re-plan
    /// every path every frame).
    pub fn set_placement(&mut self, origin: Vec2, tile_size: Vec2) {
        let bits = |v: Vec2| [v.x.to_bits(), v.y.to_bits()];
        if bits(origin) != bits(self.origin) || bits(tile_size) != bits(self.tile_size) {
            self.origin = origin;
            self.tile_size = tile_size;
            self.record_whole_map();
        }
    }

    /// Replaces the whole map (for example after a resize); every path is re-planned.
    /// The [`MovementProfiles`] registered on the old map are registered on the new one.
    pub fn set_scenario(&mut self, scenario: CachedScenario) {
        self.scenario = scenario;
        for (index, profile) in self.profiles.iter().enumerate() {
            if let Some(profile) = profile {
                self.scenario
                    .set_profile(ProfileId(index as u8), profile.clone());
            }
        }
        self.record_whole_map();
    }

    fn record_whole_map(&mut self) {
        let change = self.record(NavGridChanged {
            area: CellRect::of_size(self.size()),
            whole_map: true,
            ..NavGridChanged::default()
        });
        self.whole_map_generation = change.generation;
    }

    /// The generation of the last change of the whole map (a new map, size or
    /// placement): searches started before it asked about other cells.
    pub(crate) fn whole_map_generation(&self) -> u64 {
        self.whole_map_generation
    }

    /// Stamps `change` with the next generation and logs it.
    fn record(&mut self, mut change: NavGridChanged) -> NavGridChanged {
        self.generation += 1;
        change.generation = self.generation;
        self.log.push(change.clone());
        change
    }

    /// Moves the recorded changes to the end of `out` and starts an empty log.
    pub(crate) fn take_changes(&mut self, out: &mut Vec<NavGridChanged>) {
        out.append(&mut self.log);
    }
}

/// Where a unit wants to go.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Debug, PartialEq)]
pub enum PathGoal {
    /// A cell of the [`NavGrid`] (a bevy_ecs_tilemap `TilePos`).
    Cell(Cell),
    /// A world position; the goal is the anchor cell of an agent centred there
    /// ([`NavGrid::agent_cell`] for the request's diameter).
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

/// Asks the plugin for a path from the entity's current position to
/// [`PathRequest::goal`]. The answer appears in the entity's [`PathResult`] (added
/// automatically) and as a [`PathSolved`] message.
///
/// The start is the anchor cell ([`NavGrid::agent_cell`]) of the entity's world
/// position: its `Transform` composed with those of its `ChildOf` ancestors, computed
/// when the plugin runs (what `GlobalTransform` holds after this frame's propagation), so
/// units parented to moving entities start from the right cell and `TransformPlugin` is
/// not needed.
///
/// Inserting or changing the component queues a new search, unless the new value equals
/// the request already queued or answered (writing the same order every frame does not
/// re-plan). Requests are served oldest first within
/// [`crate::plugin::TilepathSettings::frame_budget`]. To plan the same request again
/// (after teleporting a unit, say), insert [`Replanning`].
///
/// Removing the component removes the plugin's components from the entity
/// ([`PathResult`], [`PathTicket`], [`Replanning`], [`crate::steering::Arrived`]): a
/// steering unit stops where it stands.
///
/// # Goals that cannot be reached, blocked starts, shared goals
///
/// Three options, all **on** by default, keep units moving where a plain search fails:
///
/// - [`PathRequest::nearest_goal`]: when the goal (or every cell of the goal area) is
///   blocked for the agent, lies in another connected component, or is off the map, the
///   path goes to the reachable cell nearest to it (octile distance, ties toward smaller
///   `y`, then smaller `x`), found from the map's connected components by rings around
///   the goal, without a search over the map. The answer is `Found` with
///   [`FoundPath::partial`] set and [`FoundPath::requested`] / [`FoundPath::reached`]
///   naming both cells. Off: such requests fail with `GoalBlocked`, `Unreachable` or
///   [`PathFailure::GoalOffMap`].
/// - [`PathRequest::nearest_start`]: when the unit cannot stand on its own cell (a wall
///   was painted on it, a wide unit against the map edge, a terrain edit), the path
///   starts at the nearest cell it can stand on ([`FoundPath::start`] differs from
///   [`FoundPath::from`]); [`crate::steering::Steering`] walks it there first. Off: such
///   requests fail with `StartBlocked`.
/// - [`PathRequest::claim_goal`]: units sent to the same cell do not pile up. The goal
///   cell (the nearest reachable one, with `nearest_goal`) is *claimed*: a request queued
///   while another unit's claim covers it gets the nearest free cell around it instead
///   (rings from the goal, its footprint overlapping no other claimed footprint, standable
///   and reachable for it). Requests queued in the same frame share the cells nearest to
///   the goal (taken in order of the units' distance to it) and each unit gets the one on
///   its side of the goal: 40 units sent to one tile end on the 40 distinct cells
///   nearest to it, units from the east on its east side. The claim lasts until the request changes or is
///   removed; re-plans keep it ([`PathTicket::slot`]). Requests with a goal area
///   ([`PathRequest::goal_radius`] > 0) claim nothing.
///
/// [`PathRequest::goal_radius`] turns the goal into an area: the path ends at the first
/// (for the exact algorithms, the cheapest) cell within that many cells (Chebyshev) of
/// the goal, for attack-move and gathering orders.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
/// app.insert_resource(NavGrid::from_ascii("
///     ......
///     ...###
///     ...#.#
///     ...###
/// ", Vec2::ZERO, Vec2::ONE).unwrap());
/// // (4, 2) lies inside a closed box: the unit goes as near as it can.
/// let unit = app.world_mut().spawn((Transform::default(), PathRequest::new(Cell::new(4, 2)))).id();
/// let strict = app
///     .world_mut()
///     .spawn((Transform::default(), PathRequest::new(Cell::new(4, 2)).nearest_goal(false)))
///     .id();
/// app.update();
/// let path = app.world().get::<PathResult>(unit).unwrap().found().unwrap();
/// assert!(path.partial);
/// assert_eq!((path.requested, path.reached), (Cell::new(4, 2), Cell::new(4, 0)));
/// assert_eq!(
///     app.world().get::<PathResult>(strict).unwrap().failure(),
///     Some(&PathFailure::Search(PathError::Unreachable))
/// );
/// ```
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let request = PathRequest::new(Cell::new(10, 4))
///     .algorithm(Algorithm::Jps)
///     .diameter(2)
///     .profile("vehicle")
///     .smooth(true);
/// assert_eq!(request.goal, PathGoal::Cell(Cell::new(10, 4)));
/// assert_eq!(request.profile.as_deref(), Some("vehicle"));
/// let to_world = PathRequest::new(Vec2::new(120.0, -40.0));
/// assert_eq!(to_world.goal, PathGoal::World(Vec2::new(120.0, -40.0)));
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(PathResult, PathTicket)]
pub struct PathRequest {
    /// Where to go.
    pub goal: PathGoal,
    /// The algorithm; `None` uses [`crate::plugin::TilepathSettings::default_algorithm`].
    pub algorithm: Option<Algorithm>,
    /// Agent footprint in cells: an agent of diameter `d` anchored at cell `c` covers the
    /// `d × d` cells `c - (d - 1) / 2 ..= c + d / 2` on each axis (odd diameters centred,
    /// even ones with the extra column and row on the +x / +y side; see
    /// [`NavGrid::agent_center`]). Every cell of the footprint must be free at the start,
    /// the goal and along the path, and the map edge counts as a wall: a footprint that
    /// sticks out of the map is blocked (the search fails with `StartBlocked` or
    /// `GoalBlocked`, naming the cell and the diameter).
    pub diameter: u32,
    /// Search bounds; `None` uses [`crate::plugin::TilepathSettings::default_limits`].
    pub limits: Option<Limits>,
    /// Also compute line-of-sight smoothed waypoints.
    pub smooth: bool,
    /// Octile (default) or 4-connected moves.
    pub connectivity: Connectivity,
    /// The name of the unit's movement profile in [`MovementProfiles`]; `None` uses
    /// [`MovementProfiles::DEFAULT`]. Resolved when the request is solved: a name the
    /// resource does not define fails with [`PathFailure::UnknownProfile`] (retried when
    /// the profiles change).
    pub profile: Option<Cow<'static, str>>,
    /// Arrive within this many cells (Chebyshev) of the goal: the path ends at the first
    /// cell of the square `goal ± goal_radius` the search reaches (the cheapest one for
    /// the exact algorithms). 0 (the default) means the goal cell itself.
    pub goal_radius: u32,
    /// When the goal area cannot be reached (blocked for the agent, in another
    /// component, off the map), plan to the reachable cell nearest to the goal and answer
    /// `Found` with [`FoundPath::partial`] set. On by default; off, such requests fail
    /// with `GoalBlocked`, `Unreachable` or [`PathFailure::GoalOffMap`].
    pub nearest_goal: bool,
    /// When the unit cannot stand on its own cell, plan from the nearest cell it can
    /// stand on (see [`FoundPath::start`]). On by default; off, such requests fail with
    /// `StartBlocked`.
    pub nearest_start: bool,
    /// Claim the goal cell so that units sent to the same cell end on distinct cells
    /// around it (see [Goals](PathRequest#goals-that-cannot-be-reached-blocked-starts-shared-goals)).
    /// On by default; ignored when [`PathRequest::goal_radius`] is not 0.
    pub claim_goal: bool,
}

impl Default for PathRequest {
    fn default() -> Self {
        Self::new(Cell::default())
    }
}

impl PathRequest {
    /// A request to `goal` (a [`Cell`] or a world [`Vec2`]) for a one-cell agent, with
    /// the default algorithm, limits and movement profile, octile moves, no smoothing.
    pub fn new(goal: impl Into<PathGoal>) -> Self {
        Self {
            goal: goal.into(),
            algorithm: None,
            diameter: 1,
            limits: None,
            smooth: false,
            connectivity: Connectivity::Octile,
            profile: None,
            goal_radius: 0,
            nearest_goal: true,
            nearest_start: true,
            claim_goal: true,
        }
    }

    /// Sets the goal area's radius in cells ([`PathRequest::goal_radius`]).
    pub fn goal_radius(mut self, radius: u32) -> Self {
        self.goal_radius = radius;
        self
    }

    /// Plans to the nearest reachable cell when the goal cannot be reached (on by
    /// default, [`PathRequest::nearest_goal`]).
    pub fn nearest_goal(mut self, on: bool) -> Self {
        self.nearest_goal = on;
        self
    }

    /// Plans from the nearest standable cell when the unit's own cell is blocked for it
    /// (on by default, [`PathRequest::nearest_start`]).
    pub fn nearest_start(mut self, on: bool) -> Self {
        self.nearest_start = on;
        self
    }

    /// Claims the goal cell, so that units sharing a goal end on distinct cells (on by
    /// default, [`PathRequest::claim_goal`]).
    pub fn claim_goal(mut self, on: bool) -> Self {
        self.claim_goal = on;
        self
    }

    /// Turns [`PathRequest::nearest_goal`], [`PathRequest::nearest_start`] and
    /// [`PathRequest::claim_goal`] off: the path goes from the unit's own cell to exactly
    /// the goal, or the request fails (`StartBlocked`, `GoalBlocked`, `Unreachable`,
    /// `GoalOffMap`).
    pub fn exact(self) -> Self {
        self.nearest_goal(false)
            .nearest_start(false)
            .claim_goal(false)
    }

    /// Sets the movement profile by its name in [`MovementProfiles`].
    pub fn profile(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.profile = Some(name.into());
        self
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
///
/// Where it goes: [`FoundPath::reached`] is its last cell. It equals
/// [`FoundPath::requested`] (the request's goal as a cell) unless the request had a goal
/// area (the path ends inside it), the goal was claimed by another unit (the path ends on
/// the nearest free cell around it, see [`PathRequest::claim_goal`]), or the goal could
/// not be reached ([`FoundPath::partial`]: the path ends on the reachable cell nearest to
/// it, see [`PathRequest::nearest_goal`]).
///
/// Where it starts: [`FoundPath::start`] is its first cell, the unit's own anchor cell
/// [`FoundPath::from`] unless the unit could not stand there (see
/// [`PathRequest::nearest_start`]); a steering unit then walks from its cell to `start`
/// first.
#[derive(Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Debug, Default, PartialEq)]
pub struct FoundPath {
    /// Every cell from the start to the goal, consecutive cells one king move apart.
    pub cells: Vec<Cell>,
    /// The unit's anchor cell when the path was planned.
    pub from: Cell,
    /// The first cell of the path: `from`, or the nearest cell the unit can stand on when
    /// `from` is blocked for it.
    pub start: Cell,
    /// The goal the request asked for, as an anchor cell (for a [`PathGoal::World`] goal,
    /// the anchor cell of an agent centred there; it may lie off the map).
    pub requested: Cell,
    /// The last cell of the path: `requested`, a cell of the goal area, the cell claimed
    /// for the unit, or the reachable cell nearest to `requested`.
    pub reached: Cell,
    /// True when the requested goal (or goal area) could not be reached by the unit (it
    /// is blocked for it, lies in another connected component or off the map) and the
    /// path ends on the reachable cell nearest to it instead.
    pub partial: bool,
    /// World positions (cell centres) to walk through: the smoothed waypoints when the
    /// request asked for smoothing, otherwise the centre of every cell of the path.
    pub waypoints: Vec<Vec2>,
    /// Octile length of the cell path in cells (straight step 1, diagonal √2), whatever
    /// the terrain.
    pub length: f32,
    /// Cost of the cell path under its movement profile, in cells: each step costs its
    /// length × the mean weight of the two cells (see
    /// [`MovementProfile`]). Equals `length` where every weight is 1;
    /// with [`crate::steering::Steering`] it is the walking time in seconds × the unit's
    /// speed in cells per second.
    pub cost: f32,
    /// The movement profile the path was planned with.
    pub profile: ProfileId,
    /// [`NavGrid::generation`] the path was planned on.
    pub generation: u64,
    /// Nodes the search expanded.
    pub expanded: u32,
    /// True when the long way was read off a shared field toward a nearby goal and only
    /// the last stretch was searched ([`TilepathSettings::shared_approach`]): the path
    /// may cost a little more than the unit's own optimum (see there). False for every
    /// exact answer.
    ///
    /// [`TilepathSettings::shared_approach`]: crate::plugin::TilepathSettings::shared_approach
    pub approached: bool,
}

impl FoundPath {
    /// True when the path does not start on the unit's own cell ([`FoundPath::from`] was
    /// blocked for it): the unit first walks out to [`FoundPath::start`].
    pub fn start_moved(&self) -> bool {
        self.start != self.from
    }
}

/// Why the plugin could not give an entity a path.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Debug, PartialEq)]
pub enum PathFailure {
    /// There is no [`NavGrid`]: no collision layer was spawned yet, the last one was
    /// despawned, or no grid was inserted. Retried automatically when a grid appears.
    NoMap,
    /// The requesting entity (or one of its `ChildOf` ancestors) has no [`Transform`], so
    /// it has no start cell.
    NoTransform,
    /// The entity's world position is NaN or infinite.
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
    /// The request names a movement profile ([`PathRequest::profile`]) that
    /// [`MovementProfiles`] does not define. Retried automatically when the profiles
    /// change.
    UnknownProfile,
    /// The search itself failed: blocked start or goal (an obstacle, or a terrain the
    /// profile blocks, in the footprint), unreachable goal, unsupported diameter, or a
    /// limit stopped it.
    Search(PathError),
}

impl PathFailure {
    /// True when a change of the map or of the movement profiles can turn this failure
    /// into a path. The plugin then retries the request automatically (marked
    /// [`Replanning`]): after any edit (obstacles, terrain, profiles) for blocked or
    /// unreachable goals; after a change of [`MovementProfiles`] (or a new map) for an
    /// unknown profile; and only after a new map, resize or move of the grid for a
    /// missing map and off-map starts and goals (edits cannot fix those).
    pub fn depends_on_map(&self) -> bool {
        matches!(
            self,
            PathFailure::NoMap
                | PathFailure::StartOffMap { .. }
                | PathFailure::GoalOffMap { .. }
                | PathFailure::UnknownProfile
                | PathFailure::Search(
                    PathError::StartBlocked { .. }
                        | PathError::GoalBlocked { .. }
                        | PathError::Unreachable
                        | PathError::UnknownProfile { .. }
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
            PathFailure::UnknownProfile => {
                write!(
                    f,
                    "the request names a movement profile that does not exist"
                )
            }
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
///
/// `Pending` means there is no answer to the current request yet (it is new or was
/// changed). Re-planning the same request (after a map edit crossed the path, a stall of
/// a steering unit, or an inserted [`Replanning`]) keeps the previous answer here, so a
/// unit keeps walking its old path, and marks the entity with [`Replanning`] until the
/// new answer replaces it.
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub enum PathResult {
    /// Queued, no answer to the current request yet.
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

/// Marker: the entity's [`PathRequest`] is queued to be planned again while its
/// [`PathResult`] still holds the previous answer (a `Found` path stays walkable).
///
/// The plugin inserts it when a map edit crosses a found path (or may fix a failure) and
/// when a steering unit stalls; it removes it when the new answer arrives. Insert it
/// yourself to plan the same request again from where the unit stands now (a changed
/// request needs no marker: it is queued anyway, and its result becomes `Pending`).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[component(storage = "SparseSet")]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct Replanning;

/// Queue bookkeeping the plugin keeps next to each [`PathRequest`]: when it was queued,
/// its place in the queue (lower = served first), whether it waits there, and the request
/// the current or coming answer is for.
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct PathTicket {
    queued_frame: u64,
    order: u64,
    queued: bool,
    request: Option<PathRequest>,
    slot: Option<Cell>,
}

impl PathTicket {
    /// The first [`PathTicket::order`] of the improvement lane: re-plans queued only
    /// because a newly opened (or cheaper) cell may shorten a path that is still valid.
    /// They wait behind every request that needs an answer (new, changed, retried or
    /// cut), which keeps units that have no path to follow moving first.
    pub const IMPROVEMENT: u64 = 1 << 63;

    /// The first [`PathTicket::order`] of the deferred lane: re-plans of paths that a new
    /// wall cut farther ahead of their unit than
    /// [`TilepathSettings::defer_cuts_beyond`](crate::plugin::TilepathSettings::defer_cuts_beyond)
    /// cells. The unit walks on meanwhile; the request waits behind every request that
    /// needs an answer now and ahead of the improvements, and becomes urgent as soon as
    /// its unit comes that near to the cut (or a nearer cut appears).
    pub const DEFERRED: u64 = 1 << 62;

    /// Puts the ticket in the queue at `order` for `request`. A re-plan of the same
    /// request keeps its claimed slot; a new request has none until one is assigned.
    pub(crate) fn enqueue(&mut self, queued_frame: u64, order: u64, request: PathRequest) {
        let slot = if self.request.as_ref() == Some(&request) {
            self.slot
        } else {
            None
        };
        *self = Self {
            queued_frame,
            order,
            queued: true,
            request: Some(request),
            slot,
        };
    }

    /// Records the goal cell claimed for the request (see [`PathRequest::claim_goal`]).
    pub(crate) fn set_slot(&mut self, slot: Option<Cell>) {
        self.slot = slot;
    }

    /// The goal cell the plugin claimed for the request ([`PathRequest::claim_goal`]):
    /// the cell its path ends on. `None` before the request is queued, when it claims
    /// nothing, or when no cell could be claimed (the path then ends as if it claimed
    /// nothing).
    pub fn slot(&self) -> Option<Cell> {
        self.slot
    }

    /// Takes the ticket out of the queue (its request was answered).
    pub(crate) fn answered(&mut self) {
        self.queued = false;
    }

    /// Records that the answer was repaired in place in `frame` (see
    /// [`crate::stats::TilepathStats::repaired`]): as if queued and answered that frame.
    pub(crate) fn repaired(&mut self, frame: u64) {
        self.queued_frame = frame;
        self.queued = false;
    }

    /// The plugin frame (count of runs of the plugin's schedule) in which the request was
    /// last queued, or its path last repaired in place (a repair answers in the frame of
    /// the edit).
    pub fn queued_frame(&self) -> u64 {
        self.queued_frame
    }

    /// Position in the queue: requests are served in increasing order.
    pub fn order(&self) -> u64 {
        self.order
    }

    /// True when the request was last queued in the improvement lane (see
    /// [`PathTicket::IMPROVEMENT`]).
    pub fn is_improvement(&self) -> bool {
        self.order >= Self::IMPROVEMENT
    }

    /// True when the request was last queued in the deferred lane (see
    /// [`PathTicket::DEFERRED`]).
    pub fn is_deferred(&self) -> bool {
        (Self::DEFERRED..Self::IMPROVEMENT).contains(&self.order)
    }

    /// True while the request waits in the queue.
    pub fn is_queued(&self) -> bool {
        self.queued
    }

    /// The request last queued: the one the current (or coming) [`PathResult`] answers.
    pub fn request(&self) -> Option<&PathRequest> {
        self.request.as_ref()
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
