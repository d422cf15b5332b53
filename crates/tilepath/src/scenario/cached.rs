//! The cached scenario: obstacle bits, true clearance and per-diameter layers with components.

use std::sync::OnceLock;

use super::bitgrid::BitGrid;
use super::clearance::{self, CLEARANCE_CAP};
use super::components::Components;
use super::footprint::{footprint, reach};
use super::rect::CellRect;
use super::{MapError, Scenario, checked_size};
use crate::grid::{Cell, Direction, GridSize};

/// Largest agent diameter with a [`Layer`] (and an O(1) [`Scenario::is_blocked`]):
/// 63 cells, the [`CLEARANCE_CAP`] of the true-clearance map.
pub const MAX_DIAMETER: u32 = CLEARANCE_CAP as u32;

/// Everything a search needs for agents of one diameter: which cells they cannot stand
/// on (row-major and transposed bits, 1 = blocked) and connected components.
///
/// A cell is blocked when the agent's [`footprint`](crate::scenario::footprint) there
/// holds an obstacle or leaves the map.
#[derive(Clone, Debug)]
pub struct Layer {
    diameter: u32,
    blocked: BitGrid,
    blocked_columns: BitGrid,
    components: Components,
}

impl Layer {
    fn build(diameter: u32, base: &BitGrid, clearance: &[u8]) -> Self {
        let size = base.size();
        let blocked = if diameter == 1 {
            base.clone()
        } else {
            let mut b = BitGrid::new(size, false);
            for cell in CellRect::of_size(size).cells() {
                if !fits(clearance, size, cell, diameter) {
                    b.set(cell, true);
                }
            }
            b
        };
        Self {
            diameter,
            blocked_columns: blocked.transposed(),
            components: Components::new(&blocked),
            blocked,
        }
    }

    /// The agent diameter this layer is for (1..=[`MAX_DIAMETER`]).
    #[inline]
    pub fn diameter(&self) -> u32 {
        self.diameter
    }

    /// Size of the map.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.blocked.size()
    }

    /// Blocked bits, row-major (bit set = blocked; padding past the row end is set).
    #[inline]
    pub fn bits(&self) -> &BitGrid {
        &self.blocked
    }

    /// Blocked bits transposed (row `x` of this grid is column `x` of the map).
    #[inline]
    pub fn column_bits(&self) -> &BitGrid {
        &self.blocked_columns
    }

    /// Connected components of the free cells.
    #[inline]
    pub fn components(&self) -> &Components {
        &self.components
    }

    /// True when the agent cannot stand on `cell` (off-map cells are blocked).
    #[inline]
    pub fn is_blocked(&self, cell: Cell) -> bool {
        self.blocked.get_or(cell, true)
    }

    /// The moves allowed from the on-map `cell` as a bit mask over [`Direction::ALL`] indices:
    /// a step onto a free cell, and (octile only) a diagonal only when both straight cells it
    /// passes between are free. One 3x3 bit read and a table lookup.
    #[inline]
    pub(crate) fn legal_moves(&self, cell: Cell, octile: bool) -> u8 {
        debug_assert!(self.size().contains(cell));
        let around = self.blocked.neighbourhood(cell.x as u32, cell.y as u32);
        let moves = LEGAL_MOVES[usize::from(around & 0x1ff)];
        if octile { moves } else { moves & 0x55 }
    }

    /// True when the agent can stand on cell `(x, y)`; false off the map. Two compares
    /// and one bit read: the unsigned form of [`Layer::is_blocked`] for inner loops.
    #[inline]
    pub fn is_free_xy(&self, x: u32, y: u32) -> bool {
        let size = self.blocked.size();
        x < size.width && y < size.height && !self.blocked.bit_unchecked(x, y)
    }
}

/// True when an agent of `diameter` fits at `cell`: its footprint is on the map and
/// free. One true-clearance lookup up to [`CLEARANCE_CAP`]; above it the footprint is
/// tiled with cap-sized squares, O((diameter / cap)²).
fn fits(clearance: &[u8], size: GridSize, cell: Cell, diameter: u32) -> bool {
    let square = footprint(cell, diameter);
    if square.is_empty() || !CellRect::of_size(size).contains_rect(square) {
        return false;
    }
    let cap = i32::from(CLEARANCE_CAP);
    let at = |x: i32, y: i32| clearance::at(clearance, size, Cell::new(x, y));
    if diameter.max(1) <= CLEARANCE_CAP as u32 {
        return u32::from(at(square.min.x, square.min.y)) >= diameter.max(1);
    }
    // Tiles of side `cap` from the minimum corner, the last one flush with the far side.
    let starts = |lo: i32, hi: i32| {
        (lo..hi - cap)
            .step_by(cap as usize)
            .chain(std::iter::once(hi - cap))
    };
    starts(square.min.y, square.max.y)
        .all(|y| starts(square.min.x, square.max.x).all(|x| at(x, y) >= CLEARANCE_CAP))
}

/// Octile legal moves for every 3x3 block of blocked bits (see [`BitGrid::neighbourhood`]).
static LEGAL_MOVES: [u8; 512] = legal_moves_table();

const fn free_in(around: usize, dx: i32, dy: i32) -> bool {
    (around >> (3 * (dy + 1) + dx + 1)) & 1 == 0
}

const fn legal_moves_table() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut around = 0;
    while around < 512 {
        let mut moves = 0u8;
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = Direction::ALL[d].delta();
            let allowed = free_in(around, dx, dy)
                && (dx == 0 || dy == 0 || (free_in(around, dx, 0) && free_in(around, 0, dy)));
            if allowed {
                moves |= 1 << d;
            }
            d += 1;
        }
        table[around] = moves;
        around += 1;
    }
    table
}

/// The shared, read-only map every pathfinder searches: one obstacle bit per cell,
/// a true-clearance map (see [`clearance`](crate::scenario::clearance)), and lazily
/// built per-diameter [`Layer`]s.
///
/// Layers are built on first use behind a `OnceLock`, so a `&CachedScenario` can be
/// shared by many threads; edits need `&mut` and update every built layer in place
/// (see [`CachedScenario::apply`] for what is local and what may cost the whole map).
///
/// An agent of diameter `d` at cell `c` occupies the square from `c - (d - 1) / 2` to
/// `c + d / 2` (see [`footprint`](crate::scenario::footprint)); it fits when that square
/// is on the map and free.
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
#[derive(Debug)]
pub struct CachedScenario {
    size: GridSize,
    base: BitGrid,
    clearance: Vec<u8>,
    layers: Vec<OnceLock<Layer>>,
    generation: u64,
}

impl Clone for CachedScenario {
    fn clone(&self) -> Self {
        Self {
            size: self.size,
            base: self.base.clone(),
            clearance: self.clearance.clone(),
            layers: self
                .layers
                .iter()
                .map(|l| match l.get() {
                    Some(layer) => OnceLock::from(layer.clone()),
                    None => OnceLock::new(),
                })
                .collect(),
            generation: self.generation,
        }
    }
}

/// What one batch of edits changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapChange {
    /// Bounding box of the cells whose obstacle bit flipped.
    pub cells: CellRect,
    /// The scenario generation after the change.
    pub generation: u64,
}

impl MapChange {
    /// Exactly the cells whose footprint for an agent of `diameter` meets [`MapChange::cells`]:
    /// the only cells whose freedom for that diameter may have changed. That is `cells`
    /// grown by `diameter / 2` toward −x/−y and by `(diameter - 1) / 2` toward +x/+y,
    /// clipped to `size` (a diameter of 0 counts as 1). O(1), never overflows.
    pub fn affected(&self, diameter: u32, size: GridSize) -> CellRect {
        let (before, after) = reach(diameter);
        self.cells.grow_clip(after, before, size)
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
        let layers = (0..MAX_DIAMETER).map(|_| OnceLock::new()).collect();
        let map = Self {
            size,
            base: blocked,
            clearance,
            layers,
            generation: 0,
        };
        map.built_layer(1);
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

    /// Map size.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Increases by one with every change of obstacles.
    #[inline]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Obstacle bits (diameter 1).
    pub fn obstacles(&self) -> &BitGrid {
        &self.base
    }

    /// True clearance of `cell`: the side of the largest free, on-map square whose
    /// minimum (top-left) corner is `cell`, capped at [`CLEARANCE_CAP`]; 0 for obstacles
    /// and off-map cells. An agent of diameter `d` fits at `c` iff the true clearance of
    /// `c - (d - 1) / 2` is at least `d`. O(1).
    #[inline]
    pub fn true_clearance(&self, cell: Cell) -> u8 {
        clearance::at(&self.clearance, self.size, cell)
    }

    /// The layer for agents of `diameter` (built on first use, O(width × height)), or
    /// `None` when the diameter is 0 or above [`MAX_DIAMETER`].
    pub fn layer(&self, diameter: u32) -> Option<&Layer> {
        if diameter == 0 || diameter > MAX_DIAMETER {
            return None;
        }
        Some(self.built_layer(diameter))
    }

    /// The layer of a diameter in 1..=MAX_DIAMETER, built if needed.
    fn built_layer(&self, diameter: u32) -> &Layer {
        self.layers[diameter as usize - 1]
            .get_or_init(|| Layer::build(diameter, &self.base, &self.clearance))
    }

    /// True when `a` and `b` are both free and connected for agents of `diameter`.
    pub fn connected(&self, a: Cell, b: Cell, diameter: u32) -> bool {
        self.layer(diameter)
            .is_some_and(|l| l.components().connected(a, b))
    }

    /// Sets one obstacle; see [`CachedScenario::apply`].
    pub fn set_obstacle(&mut self, cell: Cell, blocked: bool) -> Option<MapChange> {
        self.apply([(cell, blocked)])
    }

    /// Applies obstacle edits in order; returns what changed, or `None` when no edit
    /// flipped a bit (edits off the map or equal to the current state are ignored). A
    /// batch that flips a cell and then flips it back still counts as a change.
    ///
    /// What is local and what is not, with `B` the bounding box of the flipped cells
    /// (one box per call, so a batch with edits far apart has a large `B`):
    ///
    /// - True clearance: exactly the cells of `B` grown by `CLEARANCE_CAP - 1` toward
    ///   −x and −y are recomputed, O((w(B) + 62) × (h(B) + 62)).
    /// - Layer bits, per built layer of diameter `d`: exactly
    ///   [`MapChange::affected`]`(d)` is re-tested, O((w(B) + d) × (h(B) + d)).
    /// - Components, per built layer: **not local**. Every component that holds a cell
    ///   whose freedom changed, or a free 4-neighbour of one, is flooded again with a
    ///   fresh label, whether the edit blocks (possibly splitting it) or unblocks
    ///   (possibly joining several). The cost is the total size of those components:
    ///   on a mostly open map that is O(width × height) per built layer even for one
    ///   cell. When fresh labels would run out, everything is relabelled, also
    ///   O(width × height).
    ///
    /// Allocates one list of the cells whose freedom changed per call (shared by the
    /// layers); flood stacks are kept between calls.
    pub fn apply(&mut self, edits: impl IntoIterator<Item = (Cell, bool)>) -> Option<MapChange> {
        let mut bbox: Option<CellRect> = None;
        for (cell, blocked) in edits {
            if !self.size.contains(cell) || self.base.get_or(cell, true) == blocked {
                continue;
            }
            self.base.set(cell, blocked);
            match bbox.as_mut() {
                Some(b) => b.include(cell),
                None => bbox = Some(CellRect::from_cell(cell)),
            }
        }
        let change = MapChange {
            cells: bbox?,
            generation: self.generation + 1,
        };
        clearance::update(&self.base, &mut self.clearance, change.cells);
        let mut changed = Vec::new();
        for layer in self.layers.iter_mut().filter_map(OnceLock::get_mut) {
            changed.clear();
            for cell in change.affected(layer.diameter, self.size).cells() {
                let now = !fits(&self.clearance, self.size, cell, layer.diameter);
                if layer.blocked.get_or(cell, true) != now {
                    layer.blocked.set(cell, now);
                    layer.blocked_columns.set(Cell::new(cell.y, cell.x), now);
                    changed.push(cell);
                }
            }
            layer.components.update(&layer.blocked, &changed);
        }
        self.generation = change.generation;
        Some(change)
    }
}

impl Scenario for CachedScenario {
    fn size(&self) -> GridSize {
        self.size
    }

    fn is_obstacle(&self, cell: Cell) -> bool {
        self.base.get_or(cell, true)
    }

    /// Exact for every diameter (0 counts as 1): O(1) up to [`MAX_DIAMETER`] from the
    /// true clearance, O((diameter / 63)²) above it (the footprint is tiled with
    /// 63-cell squares). Diameters above [`MAX_DIAMETER`] have no [`Layer`], so no search,
    /// but this answer is still exact.
    fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        !fits(&self.clearance, self.size, cell, diameter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::render;

    /// The footprint rule written out: the square from `c - (d - 1) / 2` to `c + d / 2`
    /// holds an obstacle or an off-map cell.
    fn brute_blocked(map: &CachedScenario, c: Cell, d: u32) -> bool {
        let (lo, hi) = (((d - 1) / 2) as i32, (d / 2) as i32);
        (c.y - lo..=c.y + hi)
            .any(|y| (c.x - lo..=c.x + hi).any(|x| map.is_obstacle(Cell::new(x, y))))
    }

    #[test]
    fn cached_answers_equal_the_footprint_definition_for_odd_and_even_diameters() {
        let map = CachedScenario::from_ascii(
            "
            ..........
            ..#.......
            ......##..
            ..........
            .#........
            ",
        )
        .unwrap();
        for d in 1..=6 {
            for y in -1..6 {
                for x in -1..11 {
                    let c = Cell::new(x, y);
                    let brute = brute_blocked(&map, c, d);
                    let shown = || format!("cell {c} diameter {d}\n{}", render(&map, &[c]));
                    assert_eq!(map.is_blocked(c, d), brute, "{}", shown());
                    assert_eq!(map.layer(d).unwrap().is_blocked(c), brute, "{}", shown());
                }
            }
        }
    }

    #[test]
    fn even_diameters_extend_toward_plus_x_and_plus_y() {
        let map = CachedScenario::from_ascii(
            "
            ....
            ....
            ..#.
            ....
            ",
        )
        .unwrap();
        // The obstacle (2, 2) is in the 2-wide footprint of (1, 1), (2, 1), (1, 2), (2, 2).
        let blocked: Vec<Cell> = CellRect::of_size(map.size())
            .cells()
            .filter(|&c| map.is_blocked(c, 2))
            .collect();
        let expected = [
            (1, 1),
            (2, 1),
            (3, 1),
            (1, 2),
            (2, 2),
            (3, 2),
            (3, 0),
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
        ];
        let mut expected: Vec<Cell> = expected.iter().map(|&(x, y)| Cell::new(x, y)).collect();
        expected.sort_by_key(|c| (c.y, c.x));
        assert_eq!(blocked, expected);
        assert!(!map.is_blocked(Cell::new(0, 0), 2));
    }

    #[test]
    fn diameters_above_the_cap_are_still_answered_exactly() {
        let mut map = CachedScenario::new(GridSize::new(200, 150)).unwrap();
        let c = Cell::new(100, 75);
        assert!(!map.is_blocked(c, 100));
        // 149 wide: rows 1..=149 fit; 150 wide: rows 1..=150 leave the 150-row map.
        assert!(!map.is_blocked(c, 149));
        assert!(map.is_blocked(c, 150));
        assert!(!map.is_blocked(Cell::new(100, 74), 150));
        assert!(map.is_blocked(Cell::new(100, 74), 151));
        assert!(map.is_blocked(Cell::new(10, 75), 100));
        assert!(map.is_blocked(c, u32::MAX));
        map.set_obstacle(Cell::new(140, 110), true);
        // 79 wide: x from 61 to 139, clear of x = 140; 80 wide: x from 61 to 140, y 36..=115.
        assert!(!map.is_blocked(c, 79));
        assert!(map.is_blocked(c, 80));
        assert!(!brute_blocked(&map, c, 79) && brute_blocked(&map, c, 80));
    }

    #[test]
    fn edits_update_built_layers_like_a_rebuild() {
        let mut map = CachedScenario::new(GridSize::new(40, 30)).unwrap();
        for d in [2, 3, 4, 5] {
            map.layer(d);
        }
        let change = map
            .apply([
                (Cell::new(10, 0), true),
                (Cell::new(10, 1), true),
                (Cell::new(3, 3), true),
            ])
            .unwrap();
        assert_eq!(change.generation, 1);
        let wall: Vec<_> = (0..30).map(|y| (Cell::new(20, y), true)).collect();
        map.apply(wall);
        map.set_obstacle(Cell::new(20, 15), false);
        let fresh = CachedScenario::from_bits(map.obstacles().clone()).unwrap();
        for d in [1, 2, 3, 4, 5] {
            let (a, b) = (map.layer(d).unwrap(), fresh.layer(d).unwrap());
            assert_eq!(a.bits(), b.bits(), "d {d}");
            assert_eq!(a.column_bits(), b.column_bits());
            for p in CellRect::of_size(map.size()).cells() {
                for q in [Cell::new(0, 29), Cell::new(39, 0), Cell::new(25, 20)] {
                    assert_eq!(
                        a.components().connected(p, q),
                        b.components().connected(p, q)
                    );
                }
            }
        }
        assert!(map.connected(Cell::new(0, 0), Cell::new(39, 29), 1));
        assert!(!map.connected(Cell::new(0, 0), Cell::new(39, 29), 2));
        assert_eq!(map.set_obstacle(Cell::new(20, 15), false), None);
        assert_eq!(map.set_obstacle(Cell::new(-5, 15), true), None);
    }

    #[test]
    fn affected_is_exactly_the_cells_whose_footprint_meets_the_change() {
        let size = GridSize::new(30, 30);
        let change = MapChange {
            cells: CellRect {
                min: Cell::new(10, 12),
                max: Cell::new(13, 14),
            },
            generation: 1,
        };
        for d in 0..=9 {
            let affected = change.affected(d, size);
            for c in CellRect::of_size(size).cells() {
                let meets = footprint(c, d).cells().any(|f| change.cells.contains(f));
                assert_eq!(affected.contains(c), meets, "d {d} cell {c}");
            }
        }
        assert_eq!(change.affected(u32::MAX, size), CellRect::of_size(size));
    }

    #[test]
    fn diameters_outside_the_supported_range_have_no_layer() {
        let map = CachedScenario::new(GridSize::new(4, 4)).unwrap();
        assert!(map.layer(0).is_none());
        assert!(map.layer(MAX_DIAMETER + 1).is_none());
        assert_eq!(map.layer(MAX_DIAMETER).unwrap().diameter(), MAX_DIAMETER);
        assert_eq!(map.layer(2).unwrap().diameter(), 2);
    }

    #[test]
    fn extreme_cells_are_blocked_for_every_diameter_without_overflow() {
        let map = CachedScenario::new(GridSize::new(5, 5)).unwrap();
        for c in [
            Cell::new(i32::MIN, i32::MIN),
            Cell::new(i32::MAX, i32::MAX),
            Cell::new(i32::MIN, 2),
            Cell::new(2, i32::MAX),
        ] {
            for d in [0, 1, 2, 3, 63, 64, u32::MAX] {
                assert!(map.is_blocked(c, d), "{c} d {d}");
            }
            assert_eq!(map.true_clearance(c), 0);
            assert!(!map.connected(c, c, 1));
        }
        assert!(!map.is_blocked(Cell::new(2, 2), 5));
        assert!(map.is_blocked(Cell::new(2, 2), 6));
    }

    #[test]
    fn free_xy_checks_bounds() {
        let map = CachedScenario::new(GridSize::new(70, 3)).unwrap();
        let layer = map.layer(1).unwrap();
        assert!(layer.is_free_xy(69, 2));
        for (x, y) in [(70, 0), (127, 0), (128, 0), (0, 3), (u32::MAX, u32::MAX)] {
            assert!(!layer.is_free_xy(x, y), "({x}, {y})");
        }
    }
}
