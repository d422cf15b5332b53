//! The cached scenario: obstacle bits, clearance and per-diameter layers with components.

use std::sync::OnceLock;

use super::bitgrid::BitGrid;
use super::clearance::{self, CLEARANCE_CAP, CellRect};
use super::components::Components;
use super::{MapError, Scenario, checked_size};
use crate::grid::{Cell, Direction, GridSize};

/// Largest supported agent diameter in cells.
pub const MAX_DIAMETER: u32 = 2 * CLEARANCE_CAP as u32 - 1;

/// Everything a search needs for agents of one footprint: which cells they cannot
/// stand on (row-major and transposed bits, 1 = blocked) and connected components.
#[derive(Clone, Debug)]
pub struct Layer {
    radius: u32,
    blocked: BitGrid,
    blocked_columns: BitGrid,
    components: Components,
}

impl Layer {
    fn build(radius: u32, base: &BitGrid, clearance: &[u8]) -> Self {
        let size = base.size();
        let blocked = if radius == 0 {
            base.clone()
        } else {
            let mut b = BitGrid::new(size, false);
            for (i, &c) in clearance.iter().enumerate() {
                if u32::from(c) <= radius {
                    b.set(size.cell(i), true);
                }
            }
            b
        };
        Self {
            radius,
            blocked_columns: blocked.transposed(),
            components: Components::new(&blocked),
            blocked,
        }
    }

    /// Chebyshev radius of the footprint (`diameter / 2`).
    #[inline]
    pub fn radius(&self) -> u32 {
        self.radius
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

    /// True when the agent can stand on the on-map cell `(x, y)`; no bounds check beyond debug.
    #[inline]
    pub fn is_free_xy(&self, x: u32, y: u32) -> bool {
        !self.blocked.get_unchecked_cell(x, y)
    }
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
/// a clearance map, and lazily built per-diameter [`Layer`]s.
///
/// Layers are built on first use behind a `OnceLock`, so a `&CachedScenario` can be
/// shared by many threads; edits need `&mut` and update every built layer in place,
/// recomputing only the touched region of clearance and the touched components.
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
/// assert_eq!(map.clearance(Cell::new(0, 0)), 1);
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
    /// Cells whose freedom may have changed for an agent of `diameter`.
    pub fn affected(&self, diameter: u32, size: GridSize) -> CellRect {
        self.cells.expand_clip((diameter / 2) as i32, size)
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
        let layers = (0..=MAX_DIAMETER / 2).map(|_| OnceLock::new()).collect();
        let map = Self {
            size,
            base: blocked,
            clearance,
            layers,
            generation: 0,
        };
        map.layer_for_radius(0);
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

    /// Chebyshev distance from `cell` to the nearest obstacle or map edge, capped at
    /// [`CLEARANCE_CAP`]; 0 for obstacles and off-map cells.
    #[inline]
    pub fn clearance(&self, cell: Cell) -> u8 {
        if self.size.contains(cell) {
            self.clearance[self.size.index(cell)]
        } else {
            0
        }
    }

    /// The layer for agents of `diameter` (built on first use), or `None` when the
    /// diameter is 0 or above [`MAX_DIAMETER`].
    pub fn layer(&self, diameter: u32) -> Option<&Layer> {
        if diameter == 0 || diameter > MAX_DIAMETER {
            return None;
        }
        Some(self.layer_for_radius(diameter / 2))
    }

    fn layer_for_radius(&self, radius: u32) -> &Layer {
        self.layers[radius as usize]
            .get_or_init(|| Layer::build(radius, &self.base, &self.clearance))
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

    /// Applies obstacle edits; returns what changed, or `None` when nothing did
    /// (edits off the map or equal to the current state are ignored).
    ///
    /// Cost: O(area within [`CLEARANCE_CAP`] of the edits) for clearance and bits of each
    /// built layer, plus the size of the components that touch a changed cell.
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
        let bbox = bbox?;
        let region = bbox.expand_clip(i32::from(CLEARANCE_CAP), self.size);
        clearance::update(&self.base, &mut self.clearance, region);
        let mut changed = Vec::new();
        for layer in self.layers.iter_mut().filter_map(OnceLock::get_mut) {
            changed.clear();
            for cell in bbox.expand_clip(layer.radius as i32, self.size).cells() {
                let now = u32::from(self.clearance[self.size.index(cell)]) <= layer.radius;
                if layer.blocked.get_or(cell, true) != now {
                    layer.blocked.set(cell, now);
                    layer.blocked_columns.set(Cell::new(cell.y, cell.x), now);
                    changed.push(cell);
                }
            }
            layer.components.update(&layer.blocked, &changed);
        }
        self.generation += 1;
        Some(MapChange {
            cells: bbox,
            generation: self.generation,
        })
    }
}

impl Scenario for CachedScenario {
    fn size(&self) -> GridSize {
        self.size
    }

    fn is_obstacle(&self, cell: Cell) -> bool {
        self.base.get_or(cell, true)
    }

    fn is_blocked(&self, cell: Cell, diameter: u32) -> bool {
        u32::from(self.clearance(cell)) <= diameter / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_answers_equal_the_square_footprint_definition() {
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
        for d in [1, 2, 3, 5] {
            for y in -1..6 {
                for x in -1..11 {
                    let c = Cell::new(x, y);
                    let r = (d / 2) as i32;
                    let mut brute = false;
                    for yy in y - r..=y + r {
                        for xx in x - r..=x + r {
                            brute |= map.is_obstacle(Cell::new(xx, yy));
                        }
                    }
                    assert_eq!(map.is_blocked(c, d), brute, "cell {c} diameter {d}");
                    assert_eq!(map.layer(d).unwrap().is_blocked(c), brute);
                }
            }
        }
    }

    #[test]
    fn edits_update_built_layers_like_a_rebuild() {
        let mut map = CachedScenario::new(GridSize::new(40, 30)).unwrap();
        map.layer(3);
        map.layer(5);
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
        for d in [1, 3, 5] {
            let (a, b) = (map.layer(d).unwrap(), fresh.layer(d).unwrap());
            assert_eq!(a.bits(), b.bits());
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
        assert!(!map.connected(Cell::new(0, 0), Cell::new(39, 29), 3));
        assert_eq!(map.set_obstacle(Cell::new(20, 15), false), None);
        assert_eq!(map.set_obstacle(Cell::new(-5, 15), true), None);
    }

    #[test]
    fn diameters_outside_the_supported_range_have_no_layer() {
        let map = CachedScenario::new(GridSize::new(4, 4)).unwrap();
        assert!(map.layer(0).is_none());
        assert!(map.layer(MAX_DIAMETER + 1).is_none());
        assert!(map.layer(MAX_DIAMETER).is_some());
    }
}
