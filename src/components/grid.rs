//! The [`NavGrid`] map resource and its change announcements.

use std::fmt;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::placement::{GridLayout, Placement};
use crate::grid::{Cell, GridSize};
use crate::main_thread::MainThread;
use crate::profiles::MovementProfiles;
use crate::scenario::{
    BitGrid, CachedScenario, CellRect, LandmarkBuild, MapEdit, MapError, MovementProfile,
    ProfileId, Scenario, StaleBuild, TerrainId,
};
use crate::shape::GridShape;

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
/// `y = 0`, drawn at the bottom.) That is the [`GridLayout::Square`] layout; on
/// isometric maps ([`GridLayout::Isometric`], [`NavGrid::with_layout`]) the cells are
/// diamonds, `x` growing to the lower right and `y` to the upper right.
///
/// The plugin builds and updates this resource from tilemaps that carry a
/// [`crate::tilemap::CollisionLayer`]. Games without tilemaps insert one themselves with
/// [`NavGrid::new`] and edit it with [`NavGrid::apply_edits`]; a grid inserted that way
/// is never touched by collision layers.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::scenario::CachedScenario;
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
/// Steering works in the *steering plane*: the world on square maps; on isometric maps
/// the square grid the diamonds are drawn from, with the same origin and a tile as long
/// as a diamond's edge ([`NavGrid::world_to_plane`], [`NavGrid::plane_to_world`],
/// [`NavGrid::plane_tile_size`]). Up and right there mean the plane's +x and +y, the
/// cell's x and y.
///
/// # Generation
///
/// [`NavGrid::generation`] is the plugin's one map generation: it counts every change of
/// obstacles, terrain, movement profiles, size or placement, is stamped on
/// [`FoundPath::generation`](super::FoundPath::generation) and on [`NavGridChanged::generation`]. (The core map's own
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
    pub(super) placement: Placement,
    /// Cells off the map although inside the grid (a staggered tilemap's corners):
    /// obstacles that debug drawing leaves out.
    #[reflect(ignore)]
    outside: Option<BitGrid>,
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
    /// Wall-clock time its edits spent updating the map, since it was made.
    #[reflect(ignore)]
    upkeep: Duration,
    /// The work of that upkeep, in [`MapChange::work`](crate::scenario::MapChange::work) units.
    #[reflect(ignore)]
    upkeep_work: u64,
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
            .field("origin", &self.placement.origin)
            .field("tile_size", &self.placement.tile_size)
            .field("layout", &self.placement.layout)
            .field("generation", &self.generation)
            .field("pending_changes", &self.log.len())
            .finish()
    }
}

impl NavGrid {
    /// A grid over `scenario` whose cell `(0, 0)` has its centre at `origin` and whose
    /// cells are `tile_size` world units apart (x to the right, y upwards), in the
    /// [`GridLayout::Square`] layout, or [`GridLayout::Hex`] for a scenario of hexagons
    /// ([`NavGrid::with_layout`] for another).
    pub fn new(scenario: CachedScenario, origin: Vec2, tile_size: Vec2) -> Self {
        let layout = match scenario.shape() {
            GridShape::Square => GridLayout::Square,
            GridShape::Hex(layout) => GridLayout::Hex(layout),
        };
        Self {
            scenario,
            placement: Placement::new(origin, tile_size, layout),
            outside: None,
            generation: 0,
            log: Vec::new(),
            edits: Vec::new(),
            profiles: Vec::new(),
            source: GridSource::Manual,
            whole_map_generation: 0,
            upkeep: Duration::ZERO,
            upkeep_work: 0,
        }
    }

    /// Parses an ASCII map (see [`CachedScenario::from_ascii`]) into a grid.
    pub fn from_ascii(text: &str, origin: Vec2, tile_size: Vec2) -> Result<Self, MapError> {
        CachedScenario::from_ascii(text).map(|s| Self::new(s, origin, tile_size))
    }

    #[cfg_attr(not(feature = "tilemap"), allow(dead_code))]
    pub(crate) fn from_tilemaps(scenario: CachedScenario, placement: Placement) -> Self {
        let mut grid = Self {
            source: GridSource::Tilemaps,
            placement,
            ..Self::new(scenario, placement.origin, placement.tile_size)
        };
        grid.reshape();
        grid
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

    /// The plugin's map generation: increases by one with every change of obstacles,
    /// terrain, profiles, size or placement (see [Generation](NavGrid#generation)).
    #[inline]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Wall-clock time that edits of this grid ([`NavGrid::apply_edits`],
    /// [`NavGrid::apply_map_edits`], the tilemap sync) spent bringing the map up to date
    /// since the grid was made: clearance, layers, components and JPS+ jump tables (see
    /// [`CachedScenario::apply_edits`]). Under [`FrameBudget::Time`](crate::settings::FrameBudget::Time)
    /// the solve step counts what this grew by since its last run against the frame's
    /// budget.
    pub fn upkeep_time(&self) -> Duration {
        self.upkeep
    }

    /// The work of the same upkeep, counted as
    /// [`MapChange::work`](crate::scenario::MapChange::work) counts it: the same on every
    /// machine. Under [`FrameBudget::Expansions`](crate::settings::FrameBudget::Expansions)
    /// the solve step charges what this grew by since its last run against the frame's
    /// budget.
    pub fn upkeep_work(&self) -> u64 {
        self.upkeep_work
    }

    /// Installs a landmark table built in the background (see
    /// [`CachedScenario::install_landmarks`]); its catch-up with the edits made since the
    /// build started counts as map upkeep ([`NavGrid::upkeep_time`],
    /// [`NavGrid::upkeep_work`]). Not a change of the map: no generation, no message.
    pub(crate) fn install_landmarks(&mut self, build: LandmarkBuild) -> Result<u64, StaleBuild> {
        let started = Instant::now();
        let work = self.scenario.install_landmarks(build)?;
        self.upkeep += started.elapsed();
        self.upkeep_work += work;
        Ok(work)
    }

    /// Lets [`Algorithm::Auto`](crate::search::Algorithm::Auto) build a weighted layer's
    /// landmark table inside its first search on the layer, or not (see
    /// [`CachedScenario::set_auto_builds_landmarks`]).
    pub(crate) fn set_auto_builds_landmarks(&mut self, on: bool) {
        self.scenario.set_auto_builds_landmarks(on);
    }

    /// True when an agent of `diameter` cells cannot stand on `cell` (off the map, an
    /// obstacle within its footprint, or an unsupported diameter), with the default
    /// profile (terrain never blocks it).
    pub fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        self.is_blocked_for(cell, diameter, ProfileId::DEFAULT)
    }

    /// True when an agent of `diameter` cells moving with `profile` cannot stand on `cell`:
    /// off the map, an obstacle or a terrain the profile blocks within its footprint, an
    /// unsupported diameter, or a profile not registered on the map (with the plugin, the
    /// [`MovementProfiles`] are registered as soon as the grid or the profiles are
    /// inserted, and again when they change).
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
    /// is blocked for it, the cell is off the map or the profile is not registered (see
    /// [`NavGrid::is_blocked_for`]). Obstacles are not looked at.
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
        let started = Instant::now();
        let change = self.scenario.apply_edits(self.edits.iter().copied());
        self.upkeep += started.elapsed();
        let change = change?;
        self.upkeep_work += change.work;
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
        self.place(Placement::new(origin, tile_size, self.placement.layout));
    }

    /// Lays the cells out as `layout`, keeping the origin and tile size; every existing
    /// path is re-planned when the layout actually changes. A layout of another
    /// [shape](GridLayout::shape) gives the map that shape
    /// ([`CachedScenario::with_shape`]).
    pub fn set_layout(&mut self, layout: GridLayout) {
        let p = self.placement;
        self.place(Placement::new(p.origin, p.tile_size, layout));
    }

    /// Sets the placement; a whole-map change when it differs from the current one.
    pub(crate) fn place(&mut self, placement: Placement) {
        if !placement.same_bits(&self.placement) {
            self.placement = placement;
            self.reshape();
            self.record_whole_map();
        }
    }

    /// Gives the map the shape of the layout, when it has another.
    fn reshape(&mut self) {
        self.scenario.set_shape(self.placement.layout.shape());
    }

    /// Replaces the whole map (for example after a resize); every path is re-planned.
    /// The [`MovementProfiles`] registered on the old map are registered on the new one,
    /// and it takes the shape of the grid's layout.
    pub fn set_scenario(&mut self, scenario: CachedScenario) {
        self.scenario = scenario;
        self.reshape();
        self.outside = None;
        for (index, profile) in self.profiles.iter().enumerate() {
            if let Some(profile) = profile {
                self.scenario
                    .set_profile(ProfileId(index as u8), profile.clone());
            }
        }
        self.record_whole_map();
    }

    /// Marks `outside` (of the map's size) as cells off the map, until the next
    /// [`NavGrid::set_scenario`].
    #[cfg_attr(not(feature = "tilemap"), allow(dead_code))]
    pub(crate) fn set_outside(&mut self, outside: Option<BitGrid>) {
        self.outside = outside.filter(|o| o.size() == self.size());
    }

    /// True when `cell` lies inside the grid but off the map (see
    /// [`NavGrid::set_outside`]).
    #[cfg_attr(not(feature = "debug"), allow(dead_code))]
    pub(crate) fn is_outside(&self, cell: Cell) -> bool {
        self.outside.as_ref().is_some_and(|o| o.get_or(cell, false))
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

/// How many collision layers the tilemap sync refused in its last run (each carries a
/// `CollisionLayerError`). With no [`NavGrid`], requests fail with
/// [`PathFailure::MapRefused`](super::PathFailure::MapRefused) when it is not 0, with
/// `NoMap` otherwise.
#[derive(Resource, Debug, Default)]
pub(crate) struct RefusedLayers(pub(crate) usize);

/// Registers the [`MovementProfiles`] on the [`NavGrid`]'s map and records the profiles
/// added, changed or removed (announced in `Replan`). Cheap when nothing changed: one
/// comparison of 256 bytes per profile.
pub(crate) fn sync_profiles(
    _main: MainThread,
    grid: Option<ResMut<NavGrid>>,
    profiles: Res<MovementProfiles>,
) {
    register_profiles(grid, &profiles);
}

/// The work of [`sync_profiles`] and [`register_profiles_on_insert`].
fn register_profiles(grid: Option<ResMut<NavGrid>>, profiles: &MovementProfiles) {
    let Some(mut grid) = grid else {
        return;
    };
    if grid
        .bypass_change_detection()
        .sync_profiles(profiles)
        .is_some()
    {
        grid.set_changed();
    }
}

/// Registers the [`MovementProfiles`] on a [`NavGrid`] the moment either resource is
/// inserted, so that [`NavGrid::weight`] and [`NavGrid::is_blocked_for`] know every
/// profile before the plugin's first run (later changes of the profiles are registered
/// in `SyncMap`, see [`sync_profiles`]).
pub(crate) fn register_profiles_on_insert<R: Resource>(
    _: On<Insert, R>,
    grid: Option<ResMut<NavGrid>>,
    profiles: Option<Res<MovementProfiles>>,
) {
    if let Some(profiles) = profiles {
        register_profiles(grid, &profiles);
    }
}
