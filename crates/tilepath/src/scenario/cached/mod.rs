//! The cached scenario: obstacle bits, terrain ids, true clearance, and per-profile, per-diameter layers.

mod edit;
mod landmark_build;
mod log;
mod profiles;
#[cfg(test)]
mod tests;

pub use edit::{MapChange, MapEdit};
pub use landmark_build::{LandmarkBuild, StaleBuild};
pub(crate) use log::EditLog;
pub use log::{EDIT_LOG_CAP, LoggedEdit};

use super::bitgrid::BitGrid;
use super::clearance;
use super::jump_table::JumpTable;
use super::landmarks::Landmarks;
use super::layer::{Layer, MAX_DIAMETER, fits};
use super::profile::{MovementProfile, ProfileId, TerrainId};
use super::weights::Weights;
use super::{MapError, Scenario, checked_size};
use crate::grid::{Cell, GridSize};
use crate::shape::GridShape;
use profiles::ProfileSlot;
use std::sync::OnceLock;

/// The shared, read-only map every pathfinder searches: one obstacle bit per cell, an
/// optional terrain id per cell, a true-clearance map (see
/// [`clearance`](crate::scenario::clearance)), the registered
/// [`MovementProfile`]s, and lazily built [`Layer`]s per (profile, diameter).
///
/// This is the scenario virtualisation and 1-bit caching the crate grew from: any
/// [`Scenario`] is read once into bits, and every question a search asks ("may an agent
/// of this diameter stand here?", "are these cells connected?") becomes one lookup.
///
/// Layers are built on first use behind a `OnceLock`, so a `&CachedScenario` can be
/// shared by many threads; edits need `&mut` and update every built layer in place
/// (see [`CachedScenario::apply_edits`] for what is local and what may cost the whole map).
///
/// An agent of diameter `d` at cell `c` occupies the square from `c - (d - 1) / 2` to
/// `c + d / 2` (see [`footprint`](crate::scenario::footprint)); it fits when that square
/// is on the map and free of obstacles and of terrain its profile blocks.
///
/// # Memory
///
/// Obstacles 1 bit per cell and true clearance 1 byte per cell; terrain ids 1 byte per
/// cell once a terrain other than 0 is set; per profile that blocks some terrain, its
/// own obstacle bits and clearance (1.125 bytes per cell, once one of its layers is
/// built); per built layer about 4.25 bytes per cell (see [`Layer`]), and 16 bytes per
/// cell more for a layer whose [`JumpTable`] is built. The log of recent edits
/// ([`CachedScenario::edits_since`]) holds at most about 200 KB.
///
/// ```
/// use tilepath::prelude::*;
///
/// let map = CachedScenario::from_ascii("
///     .....
///     .###.
///     .....
/// ").unwrap();
/// assert!(map.is_blocked(Cell::new(2, 1), 1));
/// // A 3-wide agent cannot stand anywhere next to the wall or the map edge.
/// assert!(map.is_blocked(Cell::new(0, 0), 3));
/// // A 2-wide agent at (3, 0) would cover (3..=4, 0..=1): the wall's end is in it.
/// assert!(map.is_blocked(Cell::new(3, 0), 2));
/// assert_eq!(map.true_clearance(Cell::new(0, 0)), 1);
/// assert_eq!(map.true_clearance(Cell::new(1, 0)), 1);
/// ```
#[derive(Debug, Clone)]
pub struct CachedScenario {
    size: GridSize,
    shape: GridShape,
    base: BitGrid,
    clearance: Vec<u8>,
    /// Terrain id per cell, row-major; empty while every cell has terrain 0.
    terrain: Vec<TerrainId>,
    /// How many cells have each terrain id.
    terrain_counts: Box<[u64; 256]>,
    /// Registered profiles by id; slot 0 always exists.
    profiles: Vec<Option<ProfileSlot>>,
    generation: u64,
    /// The cells edited in the last generations, for searches that carry over edits.
    log: EditLog,
    /// Which map object this is (a clone gets its own).
    id: MapId,
    /// Whether the first `Auto` query on a weighted layer builds its landmark table
    /// (see [`CachedScenario::set_auto_builds_landmarks`]).
    auto_builds_landmarks: bool,
}

/// A number no other map of this process has: built from a global counter, and drawn
/// anew by `clone`, so that a search or field started on one map never mistakes another
/// (a clone edited apart, or a map built again) for it, whatever their generations.
#[derive(Debug)]
pub(crate) struct MapId(pub(crate) u64);

impl MapId {
    pub(crate) fn fresh() -> Self {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl Clone for MapId {
    fn clone(&self) -> Self {
        Self::fresh()
    }
}

impl CachedScenario {
    /// An open map of the given size. The size is checked before anything is allocated.
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] for a zero width or height, [`MapError::TooLarge`] above
    /// [`MAX_SIDE`](crate::grid::MAX_SIDE) a side or [`MAX_CELLS`](crate::grid::MAX_CELLS) cells.
    pub fn new(size: GridSize) -> Result<Self, MapError> {
        checked_size(size.width.into(), size.height.into())?;
        Self::from_bits(BitGrid::new(size, false))
    }

    /// A map whose obstacles are the set bits of `blocked`. O(width × height).
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] for a zero width or height (a [`BitGrid`] is never too large).
    pub fn from_bits(blocked: BitGrid) -> Result<Self, MapError> {
        let size = blocked.size();
        checked_size(size.width.into(), size.height.into())?;
        let clearance = clearance::compute(&blocked);
        let mut terrain_counts = Box::new([0; 256]);
        terrain_counts[0] = size.area() as u64;
        let mut map = Self {
            size,
            shape: GridShape::Square,
            base: blocked,
            clearance,
            terrain: Vec::new(),
            terrain_counts,
            profiles: Vec::new(),
            generation: 0,
            log: EditLog::default(),
            id: MapId::fresh(),
            auto_builds_landmarks: true,
        };
        map.profiles.push(Some(ProfileSlot::new(
            MovementProfile::new(),
            &map.terrain_counts,
        )));
        map.built_layer(ProfileId::DEFAULT, 1);
        Ok(map)
    }

    /// A map with obstacles from `blocked` and a terrain id per cell from `terrain`
    /// (row-major, one per cell). O(width × height).
    ///
    /// # Errors
    ///
    /// As [`CachedScenario::from_bits`], and [`MapError::TerrainSize`] when `terrain`
    /// does not have one id per cell.
    pub fn from_bits_and_terrain(
        blocked: BitGrid,
        terrain: Vec<TerrainId>,
    ) -> Result<Self, MapError> {
        let size = blocked.size();
        if terrain.len() != size.area() {
            return Err(MapError::TerrainSize {
                expected: size.area() as u64,
                found: terrain.len() as u64,
            });
        }
        let mut map = Self::from_bits(blocked)?;
        map.terrain_counts.fill(0);
        for &t in &terrain {
            map.terrain_counts[t as usize] += 1;
        }
        map.terrain = terrain;
        map.refresh_profile_weights();
        Ok(map)
    }

    /// Caches any scenario (a virtual one, a parsed file) cell by cell: one
    /// [`Scenario::is_obstacle`] call per cell. The size is checked first.
    ///
    /// # Errors
    ///
    /// As [`CachedScenario::new`] for the scenario's size.
    pub fn from_scenario(scenario: &impl Scenario) -> Result<Self, MapError> {
        let size = scenario.size();
        checked_size(size.width.into(), size.height.into())?;
        let mut bits = BitGrid::new(size, false);
        for y in 0..size.height as i32 {
            for x in 0..size.width as i32 {
                let c = Cell::new(x, y);
                if scenario.is_obstacle(c) {
                    bits.set(c, true);
                }
            }
        }
        Self::from_bits(bits)
    }

    /// Parses an ASCII map: `#`, `@`, `T`, `W`, `O` are obstacles, anything else is free;
    /// leading and trailing blank lines and indentation are ignored, and lines may end
    /// with LF, CRLF or a lone CR (old Mac files).
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] without a non-blank row, [`MapError::RaggedRow`] when rows
    /// differ in length, [`MapError::TooLarge`] above the size limits.
    pub fn from_ascii(text: &str) -> Result<Self, MapError> {
        super::ascii::parse(text).and_then(Self::from_bits)
    }

    /// The same map on a grid of `shape`: which cells are neighbours, and what a
    /// footprint covers (see [`GridShape`]). Every layer and table is built again for
    /// the shape, on first use; searches started before on this map start over. O(width
    /// × height).
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::shape::{GridShape, HexLayout};
    ///
    /// let map = CachedScenario::from_ascii("
    ///     .#.
    ///     #..
    /// ").unwrap().with_shape(GridShape::Hex(HexLayout::Row));
    /// // On `Row` hexagons (0, 0) and (1, 1) are not neighbours; (2, 0) and (1, 1) are,
    /// // with no corner to cut.
    /// let mut finder = Pathfinder::new();
    /// let walled_in = PathQuery::new(Cell::new(0, 0), Cell::new(2, 1)).nearest_goal(false);
    /// assert!(finder.find(&map, &walled_in).is_err());
    /// finder.find(&map, &PathQuery::new(Cell::new(2, 0), Cell::new(1, 1))).unwrap();
    /// assert_eq!(finder.path(), &[Cell::new(2, 0), Cell::new(1, 1)]);
    /// ```
    pub fn with_shape(mut self, shape: GridShape) -> Self {
        self.set_shape(shape);
        self
    }

    /// Gives the map the grid shape `shape`, as [`CachedScenario::with_shape`] does.
    pub fn set_shape(&mut self, shape: GridShape) {
        if shape == self.shape {
            return;
        }
        self.shape = shape;
        self.clearance = clearance::compute_for(shape, &self.base);
        for slot in self.profiles.iter_mut().flatten() {
            slot.own = OnceLock::new();
            slot.layers.iter_mut().for_each(|l| *l = OnceLock::new());
        }
        self.id = MapId::fresh();
        self.built_layer(ProfileId::DEFAULT, 1);
    }

    /// The shape of the map's grid ([`GridShape::Square`] unless
    /// [`CachedScenario::with_shape`] set another).
    #[inline]
    pub fn shape(&self) -> GridShape {
        self.shape
    }

    /// Map size.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Increases by one with every change of obstacles, terrain or profiles. It counts
    /// the changes of this map object only: two maps may have the same generation, so
    /// state kept across calls names its map by [`CachedScenario::id`] as well.
    #[inline]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// A number that tells this map object from every other map of the process: each
    /// new map, and each clone, gets its own; edits keep it. Suspended searches and
    /// distance fields remember it and start over on another map of the same size.
    ///
    /// ```
    /// use tilepath::prelude::*;
    ///
    /// let map = CachedScenario::from_ascii("....").unwrap();
    /// let copy = map.clone();
    /// assert_ne!(map.id(), copy.id());
    /// assert_eq!(map.generation(), copy.generation());
    /// ```
    #[inline]
    pub fn id(&self) -> u64 {
        self.id.0
    }

    /// The cell edits made after `generation`, in order (a cell may appear more than
    /// once), or `None` when the map cannot list them: a profile was registered since,
    /// or more than [`EDIT_LOG_CAP`] cell edits were made since. O(log n).
    ///
    /// A search suspended on an older generation uses this to carry its state over to
    /// the edited map ([`crate::search::Pathfinder::resume`]).
    ///
    /// ```
    /// use tilepath::prelude::*;
    ///
    /// let mut map = CachedScenario::from_ascii("...\n...").unwrap();
    /// let before = map.generation();
    /// map.set_obstacle(Cell::new(1, 0), true);
    /// let edits = map.edits_since(before).unwrap();
    /// assert_eq!(edits.len(), 1);
    /// assert_eq!(edits[0].cell, Cell::new(1, 0));
    /// assert!(map.edits_since(map.generation()).unwrap().is_empty());
    /// ```
    pub fn edits_since(&self, generation: u64) -> Option<&[LoggedEdit]> {
        self.log.since(generation)
    }

    /// Obstacle bits (blocked for every profile and diameter).
    pub fn obstacles(&self) -> &BitGrid {
        &self.base
    }

    /// The terrain id of `cell` (0 off the map and on maps without terrain).
    #[inline]
    pub fn terrain(&self, cell: Cell) -> TerrainId {
        if !self.size.contains(cell) {
            return 0;
        }
        self.terrain
            .get(self.size.index(cell))
            .copied()
            .unwrap_or(0)
    }

    /// How many cells carry `terrain`.
    pub fn terrain_count(&self, terrain: TerrainId) -> u64 {
        self.terrain_counts[terrain as usize]
    }

    /// True clearance of `cell`: the side of the largest free, on-map square whose
    /// minimum (top-left) corner is `cell`, capped at
    /// [`CLEARANCE_CAP`](crate::scenario::CLEARANCE_CAP); 0 for obstacles and off-map
    /// cells. Obstacles only: terrain blocked by a profile is counted in that profile's
    /// own clearance. An agent of diameter `d` fits at `c` iff the true clearance of
    /// `c - (d - 1) / 2` is at least `d`. O(1).
    #[inline]
    pub fn true_clearance(&self, cell: Cell) -> u8 {
        clearance::at(&self.clearance, self.size, cell)
    }

    /// The layer of the default profile for agents of `diameter` (built on first use,
    /// O(width × height)), or `None` when the diameter is 0 or above [`MAX_DIAMETER`].
    pub fn layer(&self, diameter: u32) -> Option<&Layer> {
        self.layer_for(ProfileId::DEFAULT, diameter)
    }

    /// The layer for agents of `diameter` moving with `profile` (built on first use,
    /// O(width × height)), or `None` when the diameter is 0 or above [`MAX_DIAMETER`]
    /// or the profile is not registered.
    pub fn layer_for(&self, profile: ProfileId, diameter: u32) -> Option<&Layer> {
        if diameter == 0 || diameter > MAX_DIAMETER || self.slot(profile).is_none() {
            return None;
        }
        Some(self.built_layer(profile, diameter))
    }

    /// The jump table of the layer for `profile` and `diameter`
    /// ([`Layer::build_jump_table`]), building the layer and the table if needed;
    /// `None` where [`CachedScenario::layer_for`] has no layer. O(width × height) the
    /// first time, 16 bytes per cell; edits keep it exact from then on.
    ///
    /// [`Algorithm::JpsPlus`](crate::search::Algorithm::JpsPlus) builds it on its first
    /// query anyway; building it ahead keeps that cost out of a frame, and lets
    /// [`Algorithm::Auto`](crate::search::Algorithm::Auto) use JPS+ on the layer.
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::scenario::ProfileId;
    ///
    /// let mut map = CachedScenario::from_ascii("
    ///     .....
    ///     ..#..
    ///     .....
    /// ").unwrap();
    /// map.build_jump_table(ProfileId::DEFAULT, 1).unwrap();
    /// let query = PathQuery::new(Cell::new(0, 1), Cell::new(4, 1)).algorithm(Algorithm::JpsPlus);
    /// let mut pf = Pathfinder::new();
    /// // Around the wall: two diagonal steps and two straight ones.
    /// assert_eq!(pf.find(&map, &query).unwrap().length, 2.0 + 2.0 * 2f64.sqrt());
    /// // The edit updates the table in place; the row is now straight through.
    /// map.set_obstacle(Cell::new(2, 1), false);
    /// assert!(map.layer(1).unwrap().jump_table().is_some());
    /// assert_eq!(pf.find(&map, &query).unwrap().length, 4.0);
    /// // Auto uses the built table: same answer, same path.
    /// let auto = pf.find(&map, &query.algorithm(Algorithm::Auto)).unwrap();
    /// assert_eq!(auto.length, 4.0);
    /// ```
    pub fn build_jump_table(&self, profile: ProfileId, diameter: u32) -> Option<&JumpTable> {
        self.layer_for(profile, diameter)
            .filter(|l| l.shape().is_square())
            .map(Layer::build_jump_table)
    }

    /// The landmark table of the layer for `profile` and `diameter`
    /// ([`Layer::build_landmarks`]), building the layer and the table if needed; `None`
    /// where [`CachedScenario::layer_for`] has no layer or the layer no table. Only
    /// [`Algorithm::Auto`](crate::search::Algorithm::Auto) queries on a weighted layer
    /// read it, and the first one builds it anyway; building it ahead keeps that cost
    /// (O(n log n) per landmark) out of a query.
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::scenario::{MovementProfile, ProfileId};
    ///
    /// // Terrain 1 (the `1` cells) weighs 3 under profile 1.
    /// let mut map = CachedScenario::from_ascii("
    ///     ..111..
    ///     ..111..
    ///     .......
    /// ").unwrap();
    /// let heavy = ProfileId(1);
    /// map.set_profile(heavy, MovementProfile::new().with_weight(1, 3));
    /// assert!(map.build_landmarks(heavy, 1).is_some());
    /// let query = PathQuery::new(Cell::new(0, 0), Cell::new(6, 0)).profile(heavy);
    /// let mut pf = Pathfinder::new();
    /// // Below the dear terrain, not through it: as plain A* finds.
    /// let auto = pf.find(&map, &query).unwrap();
    /// let astar = pf.find(&map, &query.algorithm(Algorithm::AStar)).unwrap();
    /// assert_eq!(auto.cost, astar.cost);
    /// assert!(auto.expanded <= astar.expanded);
    /// ```
    pub fn build_landmarks(&self, profile: ProfileId, diameter: u32) -> Option<&Landmarks> {
        let weights = self.weights(profile)?;
        let layer = self.layer_for(profile, diameter)?;
        if !layer.shape().is_square() {
            return None;
        }
        layer.build_interior(weights);
        layer.build_landmarks(weights)
    }

    /// Whether the first [`Algorithm::Auto`](crate::search::Algorithm::Auto) query on a
    /// weighted layer builds the layer's landmark table inside the search (O(n log n) per
    /// landmark: a stall on a large map). `false`: `Auto` reads a table only once it is
    /// built, by [`CachedScenario::build_landmarks`] or in the background with a
    /// [`LandmarkBuild`], and runs plain A\* (the same optimal costs) until then. `true`
    /// for a new map.
    pub fn set_auto_builds_landmarks(&mut self, on: bool) {
        self.auto_builds_landmarks = on;
    }

    /// See [`CachedScenario::set_auto_builds_landmarks`].
    pub fn auto_builds_landmarks(&self) -> bool {
        self.auto_builds_landmarks
    }

    /// The layers built so far, by profile id, then diameter. O(profiles × diameters).
    pub fn built_layers(&self) -> impl Iterator<Item = &Layer> + '_ {
        self.profiles
            .iter()
            .flatten()
            .flat_map(|slot| slot.layers.iter().filter_map(OnceLock::get))
    }

    /// Builds the jump table of every layer built so far (see
    /// [`CachedScenario::build_jump_table`]); layers built later get none until asked.
    /// O(width × height) per layer without a table yet.
    pub fn build_jump_tables(&self) {
        for slot in self.profiles.iter().flatten() {
            let layers = slot.layers.iter().filter_map(|l| l.get());
            for layer in layers.filter(|l| l.shape().is_square()) {
                layer.build_jump_table();
            }
        }
    }

    /// The step weights of `profile` on this map, or `None` when it is not registered.
    pub fn weights(&self, profile: ProfileId) -> Option<Weights<'_>> {
        let slot = self.slot(profile)?;
        Some(
            Weights::new(
                self.size,
                &self.terrain,
                slot.profile.weights(),
                slot.min_weight,
                slot.uniform,
            )
            .on(self.shape),
        )
    }

    /// The profile registered as `id`.
    pub fn profile(&self, id: ProfileId) -> Option<&MovementProfile> {
        self.slot(id).map(|s| &s.profile)
    }

    /// Registers `profile` as `id`, replacing the one there (its layers are dropped and
    /// rebuilt on next use). Bumps the generation when the profile changed; setting an
    /// equal profile does nothing. O(1) plus dropping the old layers.
    pub fn set_profile(&mut self, id: ProfileId, profile: MovementProfile) {
        let index = usize::from(id.0);
        if self.profiles.len() <= index {
            self.profiles.resize_with(index + 1, || None);
        }
        if self.profiles[index]
            .as_ref()
            .is_some_and(|s| s.profile == profile)
        {
            return;
        }
        self.profiles[index] = Some(ProfileSlot::new(profile, &self.terrain_counts));
        self.generation += 1;
        self.log.reset(self.generation);
    }

    /// Ids of the registered profiles, in order ([`ProfileId::DEFAULT`] first).
    pub fn profile_ids(&self) -> impl Iterator<Item = ProfileId> + '_ {
        self.profiles
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .map(|(i, _)| ProfileId(i as u8))
    }

    /// True when `a` and `b` are both free and connected for agents of `diameter` with
    /// the default profile.
    pub fn connected(&self, a: Cell, b: Cell, diameter: u32) -> bool {
        self.layer(diameter)
            .is_some_and(|l| l.components().connected(a, b))
    }

    fn slot(&self, id: ProfileId) -> Option<&ProfileSlot> {
        self.profiles.get(usize::from(id.0))?.as_ref()
    }

    /// The layer of a registered profile and a diameter in 1..=MAX_DIAMETER, built if
    /// needed (with the profile's own obstacle bits first, when it blocks terrain).
    fn built_layer(&self, profile: ProfileId, diameter: u32) -> &Layer {
        let slot = self.slot(profile).expect("registered profile");
        let (bits, clearance) = slot.bits(self.shape, &self.base, &self.clearance, &self.terrain);
        slot.layers[diameter as usize - 1]
            .get_or_init(|| Layer::build(self.shape, profile, diameter, bits, clearance))
    }

    /// Recomputes every profile's smallest and uniform weight from the terrain counts.
    fn refresh_profile_weights(&mut self) {
        for slot in self.profiles.iter_mut().flatten() {
            slot.refresh_weights(&self.terrain_counts);
        }
    }
}

impl Scenario for CachedScenario {
    fn size(&self) -> GridSize {
        self.size
    }

    fn is_obstacle(&self, cell: Cell) -> bool {
        self.base.get_or(cell, true)
    }

    /// Exact for every diameter (0 counts as 1), for the obstacles alone (the default
    /// profile): O(1) up to [`MAX_DIAMETER`] from the true clearance, O((diameter / 63)²)
    /// above it (the footprint is tiled with 63-cell squares). Diameters above
    /// [`MAX_DIAMETER`] have no [`Layer`], so no search, but this answer is still exact.
    fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        !fits(self.shape, &self.clearance, self.size, cell, diameter)
    }
}
