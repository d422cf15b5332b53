//! The hexagonal map resource: [`HexGrid`], the tiles of a hexagonal tilemap.

use bevy::prelude::*;

use crate::grid::Cell;
use crate::hex::{Hex, HexLayout, HexMap};
use crate::main_thread::MainThread;
use crate::profiles::MovementProfiles;
use crate::scenario::{MapError, MovementProfile, ProfileId, TerrainId};

/// √3 / 2.
const HALF_SQRT_3: f32 = 0.866_025_4;

/// The map of a hexagonal world: which tiles block, each tile's [`TerrainId`], and where
/// the tiles lie in the world. The plugin builds it from hexagonal
/// [`CollisionLayer`](crate::tilemap::CollisionLayer) tilemaps (see [`crate::tilemap`]);
/// insert one yourself without tilemaps.
///
/// While it exists, [`PathRequest`]s are solved on it, oldest first within
/// [`TilepathSettings::budget`](crate::settings::TilepathSettings::budget) (a search
/// that does not fit goes on next frame), by A\* with the hexagon distance
/// (or Dijkstra or breadth-first when the request asks for them). A request's diameter
/// `d` is a hexagon footprint of radius `d / 2` (1: one tile; 2 and 3: a tile and its six
/// neighbours), its profile picks the weights, and
/// [`PathRequest::nearest_goal`](crate::components::PathRequest::nearest_goal) goes to
/// the reachable tile nearest an unreachable goal. A search that spans frames is carried
/// over tile edits made meanwhile, keeping the work done. After any change of the grid
/// every request is planned again, keeping its path meanwhile
/// ([`Replanning`](crate::components::Replanning)). [`Steering`](crate::steering::Steering)
/// walks the paths from tile centre to tile centre.
/// [`PathRequest::claim_goal`](crate::components::PathRequest::claim_goal) works as on
/// square maps: units sent to one tile end on distinct tiles around it (the nearest
/// tiles the unit can stand on whose footprints overlap no other claim; units nearest
/// the goal choose first). [`GridStepper`](crate::steering::GridStepper) units step from
/// tile to tile holding the tiles they cover, as on square maps. Not on hexagonal maps
/// yet: path smoothing, goal areas, shared goal fields, exact repairs and avoidance
/// between [`Steering`](crate::steering::Steering) units; their options are ignored.
///
/// Tiles are named by [`Cell`]s equal to bevy_ecs_tilemap's `TilePos` on the map: cell
/// `(x, y)` is `TilePos { x, y }` in the tilemap's own coordinate system ([`HexLayout`],
/// one per bevy_ecs_tilemap `HexCoordSystem`). World positions follow bevy_ecs_tilemap's
/// projection: tile centres are `grid_size` apart along a row (row layouts, "pointy
/// top") or a column (column layouts, "flat top").
///
/// Each [`MovementProfile`] the plugin registers gets its own [`HexMap`] (weights and
/// clearance), kept current under edits. A step between tiles of weights `a` and `b`
/// costs `(a + b) / 2`.
///
/// [`PathRequest`]: crate::components::PathRequest
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::hex::HexLayout;
///
/// // `.` free, a digit its terrain id, anything else blocked; row 0 first.
/// let grid = HexGrid::from_ascii(HexLayout::RowOdd, "
///     ....
///     .##.
///     ..2.
/// ", Vec2::ZERO, Vec2::new(32.0, 32.0)).unwrap();
/// assert!(grid.is_blocked(Cell::new(1, 1)));
/// assert_eq!(grid.terrain(Cell::new(2, 2)), Some(2));
/// assert_eq!(grid.tile_to_world(Cell::new(1, 0)), Vec2::new(32.0, 0.0));
/// // Odd rows are shifted right by half a tile; rows are 3/4 of a tile apart.
/// assert_eq!(grid.tile_to_world(Cell::new(0, 1)), Vec2::new(16.0, 24.0));
/// assert_eq!(grid.world_to_tile(Vec2::new(20.0, 20.0)), Some(Cell::new(0, 1)));
/// ```
#[derive(Resource, Clone, Debug, Reflect)]
#[reflect(Resource, from_reflect = false)]
pub struct HexGrid {
    #[reflect(ignore)]
    layout: HexLayout,
    columns: u32,
    rows: u32,
    origin: Vec2,
    grid_size: Vec2,
    /// Per tile, row-major: blocked whatever the profile.
    blocked: Vec<bool>,
    /// Per tile, row-major.
    terrain: Vec<TerrainId>,
    /// One map per registered profile.
    #[reflect(ignore)]
    maps: Vec<(ProfileId, MovementProfile, HexMap)>,
    generation: u64,
    /// The generation of the last change of the whole map (new map, placement).
    whole_map_generation: u64,
    /// Built by the tilemap sync (which keeps it current), not inserted by hand.
    #[reflect(ignore)]
    #[cfg_attr(not(feature = "tilemap"), allow(dead_code))]
    pub(crate) from_tilemaps: bool,
}

impl FromReflect for HexGrid {
    /// A hexagonal grid cannot be rebuilt from reflected data (its per-profile maps are
    /// not reflected), so this always returns `None`.
    fn from_reflect(_: &dyn PartialReflect) -> Option<Self> {
        None
    }
}

impl HexGrid {
    /// A map of `columns × rows` free tiles of terrain 0, laid out as `layout`, with the
    /// centre of tile `(0, 0)` at `origin` and bevy_ecs_tilemap's grid size `grid_size`.
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] or [`MapError::TooLarge`], found before anything is allocated.
    pub fn new(
        layout: HexLayout,
        columns: u32,
        rows: u32,
        origin: Vec2,
        grid_size: Vec2,
    ) -> Result<Self, MapError> {
        let base = HexMap::from_layout(layout, columns, rows, |_, _| 1)?;
        let area = columns as usize * rows as usize;
        Ok(Self {
            layout,
            columns,
            rows,
            origin,
            grid_size,
            blocked: vec![false; area],
            terrain: vec![0; area],
            maps: vec![(ProfileId::DEFAULT, MovementProfile::new(), base)],
            generation: 0,
            whole_map_generation: 0,
            from_tilemaps: false,
        })
    }

    /// Parses rows of tiles laid out as `layout`, row 0 first: `.` is a free tile of
    /// terrain 0, a digit a free tile of that terrain, any other character a blocked
    /// tile. Blank lines and indentation are ignored.
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] without a row, [`MapError::RaggedRow`] when rows differ in
    /// length, or as [`HexGrid::new`].
    pub fn from_ascii(
        layout: HexLayout,
        text: &str,
        origin: Vec2,
        grid_size: Vec2,
    ) -> Result<Self, MapError> {
        let rows: Vec<&[u8]> = text
            .lines()
            .map(|l| l.trim().as_bytes())
            .filter(|l| !l.is_empty())
            .collect();
        let Some(first) = rows.first() else {
            return Err(MapError::Empty);
        };
        if let Some(row) = rows.iter().position(|r| r.len() != first.len()) {
            return Err(MapError::RaggedRow {
                row,
                expected: first.len(),
                found: rows[row].len(),
            });
        }
        let too_large = || MapError::TooLarge {
            width: first.len() as u64,
            height: rows.len() as u64,
        };
        let columns = u32::try_from(first.len()).map_err(|_| too_large())?;
        let height = u32::try_from(rows.len()).map_err(|_| too_large())?;
        let mut grid = Self::new(layout, columns, height, origin, grid_size)?;
        let mut edits = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, &byte) in row.iter().enumerate() {
                let cell = Cell::new(x as i32, y as i32);
                match byte {
                    b'.' => {}
                    b'0'..=b'9' => edits.push((cell, false, byte - b'0')),
                    _ => edits.push((cell, true, 0)),
                }
            }
        }
        grid.apply(edits);
        grid.generation = 0;
        Ok(grid)
    }

    /// The tilemap's coordinate system.
    pub fn layout(&self) -> HexLayout {
        self.layout
    }

    /// Tiles per row.
    pub fn columns(&self) -> u32 {
        self.columns
    }

    /// Rows of tiles.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Increases by one with every change of obstacles, terrain, profiles or placement.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The generation of the last change of the whole map (new map or a move): world
    /// positions may mean other tiles now.
    pub fn whole_map_generation(&self) -> u64 {
        self.whole_map_generation
    }

    /// The world position of tile `(0, 0)`'s centre.
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// bevy_ecs_tilemap's grid size of the map, in world units (scale included).
    pub fn grid_size(&self) -> Vec2 {
        self.grid_size
    }

    /// The distance between the centres of two neighbouring tiles along a row (row
    /// layouts) or a column (column layouts): the length of one step on open ground.
    pub fn step_length(&self) -> f32 {
        if self.is_row() {
            self.grid_size.x
        } else {
            self.grid_size.y
        }
    }

    fn is_row(&self) -> bool {
        matches!(
            self.layout,
            HexLayout::Row | HexLayout::RowEven | HexLayout::RowOdd
        )
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        let inside = cell.x >= 0
            && cell.y >= 0
            && (cell.x as u32) < self.columns
            && (cell.y as u32) < self.rows;
        inside.then(|| cell.y as usize * self.columns as usize + cell.x as usize)
    }

    /// True when `cell` is a tile of the map.
    pub fn contains(&self, cell: Cell) -> bool {
        self.index(cell).is_some()
    }

    /// The axial coordinates of a tile (any cell, on the map or not).
    pub fn hex(&self, cell: Cell) -> Hex {
        self.layout.hex(cell.x, cell.y)
    }

    /// The tile at axial coordinates `hex`, or `None` off the map.
    pub fn cell(&self, hex: Hex) -> Option<Cell> {
        let (x, y) = self.layout.position(hex);
        let cell = Cell::new(x, y);
        self.contains(cell).then_some(cell)
    }

    /// The tiles within `radius` steps of `centre` (a footprint of that radius): ring by
    /// ring outward from `centre` while the hexagon has fewer tiles than the map, else
    /// the map's tiles row by row.
    ///
    /// Complexity: `O(min(radius², columns × rows))`, whatever the radius.
    pub fn tiles_within(&self, centre: Hex, radius: u32) -> impl Iterator<Item = Cell> + '_ {
        let r = u64::from(radius);
        let hexagon = r.saturating_mul(r + 1).saturating_mul(3).saturating_add(1);
        let tiles = u64::from(self.columns) * u64::from(self.rows);
        let (rings, scan) = if hexagon <= tiles {
            (Some(centre.within(radius)), None)
        } else {
            (None, Some(0..self.rows))
        };
        let rings = rings.into_iter().flatten().filter_map(|h| self.cell(h));
        let scan = scan.into_iter().flatten().flat_map(move |y| {
            (0..self.columns)
                .map(move |x| Cell::new(x as i32, y as i32))
                .filter(move |&c| self.hex(c).distance(centre) <= radius)
        });
        rings.chain(scan)
    }

    /// The world position of a tile's centre (any cell, on the map or not), where
    /// bevy_ecs_tilemap's `TilePos::center_in_world` puts it.
    pub fn tile_to_world(&self, cell: Cell) -> Vec2 {
        let hex = self.hex(cell);
        let (q, r) = (hex.q as f32, hex.r as f32);
        let g = self.grid_size;
        let offset = if self.is_row() {
            Vec2::new(g.x * (q + 0.5 * r), HALF_SQRT_3 * HALF_SQRT_3 * g.y * r)
        } else {
            Vec2::new(HALF_SQRT_3 * HALF_SQRT_3 * g.x * q, g.y * (0.5 * q + r))
        };
        self.origin + offset
    }

    /// The tile whose hexagon holds `world`, as bevy_ecs_tilemap's
    /// `TilePos::from_world_pos` finds it, or `None` off the map (or not finite).
    pub fn world_to_tile(&self, world: Vec2) -> Option<Cell> {
        let p = world - self.origin;
        let g = self.grid_size;
        let (q, r) = if self.is_row() {
            let r = p.y / (0.75 * g.y);
            (p.x / g.x - 0.5 * r, r)
        } else {
            let q = p.x / (0.75 * g.x);
            (q, p.y / g.y - 0.5 * q)
        };
        if !(q.is_finite() && r.is_finite()) || q.abs() > 1e9 || r.abs() > 1e9 {
            return None;
        }
        self.cell(round_axial(q, r))
    }

    /// The six corners of a tile's hexagon, scaled by `scale` around its centre (1: the
    /// hexagon bevy_ecs_tilemap draws the tile in).
    pub fn corners(&self, cell: Cell, scale: f32) -> [Vec2; 6] {
        let centre = self.tile_to_world(cell);
        let g = self.grid_size * scale;
        std::array::from_fn(|i| {
            let angle = std::f32::consts::FRAC_PI_3 * i as f32
                + if self.is_row() {
                    std::f32::consts::FRAC_PI_6
                } else {
                    0.0
                };
            // Row layouts: corner to corner is `grid_size.y / √3 · 2`, flat sides
            // `grid_size.x` apart; column layouts the other way round.
            let unit = Vec2::new(angle.cos(), angle.sin());
            let radius = if self.is_row() {
                Vec2::new(g.x / (2.0 * HALF_SQRT_3), g.y * 0.5)
            } else {
                Vec2::new(g.x * 0.5, g.y / (2.0 * HALF_SQRT_3))
            };
            centre + unit * radius
        })
    }

    /// True when `cell` is blocked whatever the profile, or off the map.
    pub fn is_blocked(&self, cell: Cell) -> bool {
        self.index(cell).is_none_or(|i| self.blocked[i])
    }

    /// The terrain of a tile, or `None` off the map.
    pub fn terrain(&self, cell: Cell) -> Option<TerrainId> {
        self.index(cell).map(|i| self.terrain[i])
    }

    /// What a step onto `cell` weighs for `profile`: `None` when the tile is blocked for
    /// it, off the map, or the profile is not registered.
    pub fn weight(&self, profile: ProfileId, cell: Cell) -> Option<u8> {
        let (_, _, map) = self.maps.iter().find(|(id, ..)| *id == profile)?;
        map.weight(self.hex(cell)).filter(|_| self.contains(cell))
    }

    /// The map searches of `profile` run on, or `None` when it is not registered.
    pub fn map(&self, profile: ProfileId) -> Option<&HexMap> {
        self.maps
            .iter()
            .find(|(id, ..)| *id == profile)
            .map(|(.., map)| map)
    }

    /// Changes tiles: each edit is `(cell, blocked, terrain)`; cells off the map are
    /// skipped. Returns how many tiles changed (the generation increases when any did).
    ///
    /// Complexity: `O(edits × profiles)` plus the clearance update around the changed
    /// tiles.
    pub fn apply(&mut self, edits: impl IntoIterator<Item = (Cell, bool, TerrainId)>) -> usize {
        let mut changed = Vec::new();
        for (cell, blocked, terrain) in edits {
            let Some(i) = self.index(cell) else {
                continue;
            };
            if self.blocked[i] != blocked || self.terrain[i] != terrain {
                self.blocked[i] = blocked;
                self.terrain[i] = terrain;
                changed.push(cell);
            }
        }
        if changed.is_empty() {
            return 0;
        }
        for (_, profile, map) in &mut self.maps {
            let weights = changed.iter().map(|&cell| {
                let i = cell.y as usize * self.columns as usize + cell.x as usize;
                let weight = tile_weight(self.blocked[i], self.terrain[i], profile);
                (self.layout.hex(cell.x, cell.y), weight)
            });
            map.set_weights(weights);
        }
        self.generation += 1;
        changed.len()
    }

    /// Registers `profile` as `id` (replacing the profile registered there), building
    /// its map. The generation increases.
    pub fn register_profile(&mut self, id: ProfileId, profile: MovementProfile) {
        let map = self.build_map(&profile);
        match self.maps.iter_mut().find(|(existing, ..)| *existing == id) {
            Some(entry) => *entry = (id, profile, map),
            None => self.maps.push((id, profile, map)),
        }
        self.generation += 1;
    }

    /// Forgets the profile registered as `id` (the default profile stays).
    pub fn unregister_profile(&mut self, id: ProfileId) {
        if id != ProfileId::DEFAULT {
            let before = self.maps.len();
            self.maps.retain(|(existing, ..)| *existing != id);
            if self.maps.len() != before {
                self.generation += 1;
            }
        }
    }

    /// The profiles registered, by id.
    pub fn profiles(&self) -> impl Iterator<Item = (ProfileId, &MovementProfile)> {
        self.maps.iter().map(|(id, profile, _)| (*id, profile))
    }

    /// Moves the map: tile `(0, 0)`'s centre to `origin`, the grid size to `grid_size`.
    pub fn place(&mut self, origin: Vec2, grid_size: Vec2) {
        if self.origin.to_array().map(f32::to_bits) != origin.to_array().map(f32::to_bits)
            || self.grid_size.to_array().map(f32::to_bits) != grid_size.to_array().map(f32::to_bits)
        {
            self.origin = origin;
            self.grid_size = grid_size;
            self.generation += 1;
            self.whole_map_generation = self.generation;
        }
    }

    /// Makes the registered profiles those of `profiles`: changed ones are rebuilt,
    /// removed ones forgotten. The generation increases when anything changed.
    pub(crate) fn register_profiles(&mut self, profiles: &MovementProfiles) {
        let stale: Vec<ProfileId> = self
            .maps
            .iter()
            .filter(|(id, ..)| profiles.iter().all(|(p, _)| p != *id))
            .map(|(id, ..)| *id)
            .collect();
        for id in stale {
            self.unregister_profile(id);
        }
        for (id, named) in profiles.iter() {
            let current = self.maps.iter().find(|(existing, ..)| *existing == id);
            if current.is_none_or(|(_, profile, _)| *profile != named.profile) {
                self.register_profile(id, named.profile.clone());
            }
        }
    }

    fn build_map(&self, profile: &MovementProfile) -> HexMap {
        let columns = self.columns as usize;
        HexMap::from_layout(self.layout, self.columns, self.rows, |x, y| {
            let i = y as usize * columns + x as usize;
            tile_weight(self.blocked[i], self.terrain[i], profile)
        })
        .expect("the map's size was checked when it was made")
    }
}

/// What a step onto a tile weighs for `profile` (0: blocked).
fn tile_weight(blocked: bool, terrain: TerrainId, profile: &MovementProfile) -> u8 {
    if blocked {
        0
    } else {
        profile.weight(terrain).unwrap_or(0)
    }
}

/// Registers the [`MovementProfiles`] on the [`HexGrid`] when either changes.
pub(crate) fn sync_hex_profiles(
    _main: MainThread,
    grid: Option<ResMut<HexGrid>>,
    profiles: Res<MovementProfiles>,
) {
    if let Some(mut grid) = grid
        && (profiles.is_changed() || grid.is_added())
    {
        let generation = grid.generation();
        grid.bypass_change_detection().register_profiles(&profiles);
        if grid.generation() != generation {
            grid.set_changed();
        }
    }
}

/// The hexagon holding fractional axial coordinates `(q, r)` (cube rounding).
fn round_axial(q: f32, r: f32) -> Hex {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}
