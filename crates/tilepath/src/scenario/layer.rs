//! One search layer: the cells an agent of one diameter and profile cannot stand on, with components.

use super::bitgrid::BitGrid;
use super::clearance::{self, CLEARANCE_CAP};
use super::components::Components;
use super::footprint::footprint;
use super::jump_table::JumpTable;
use super::landmarks::Landmarks;
use super::profile::ProfileId;
use super::rect::CellRect;
use super::weights::Weights;
use crate::grid::{Cell, GridSize};
use crate::shape::{GridShape, Shape};
use std::sync::OnceLock;

/// Largest agent diameter with a [`Layer`] (and an O(1)
/// [`Scenario::is_blocked`](crate::scenario::Scenario::is_blocked)): 63 cells, the
/// [`CLEARANCE_CAP`] of the true-clearance map.
pub const MAX_DIAMETER: u32 = CLEARANCE_CAP as u32;

/// Everything a search needs for agents of one diameter and one movement profile:
/// which cells they cannot stand on (row-major and transposed bits, 1 = blocked) and
/// connected components; and, once asked for, its [`JumpTable`] for
/// [`Algorithm::JpsPlus`](crate::search::Algorithm::JpsPlus) and, on weighted layers,
/// its [`Landmarks`] for [`Algorithm::Auto`](crate::search::Algorithm::Auto).
///
/// A cell is blocked when the agent's [`footprint`](crate::scenario::footprint) there
/// holds an obstacle, a terrain the profile blocks, or leaves the map.
///
/// Memory: 2 bits per cell (the two bit grids) plus 4 bytes per cell of component
/// labels, so about 4.25 bytes per cell per built layer; 16 bytes per cell more once
/// its jump table is built; 64 bytes per cell more once its landmark table is built,
/// and 2 bits per cell once its interior bits are.
#[derive(Clone, Debug)]
pub struct Layer {
    shape: GridShape,
    profile: ProfileId,
    diameter: u32,
    blocked: BitGrid,
    blocked_columns: BitGrid,
    components: Components,
    jumps: OnceLock<JumpTable>,
    landmarks: OnceLock<Option<Landmarks>>,
    interior: OnceLock<Stops>,
}

/// The cells that are not interior (see [`Layer::build_interior`]), 1 = not interior,
/// row-major and transposed: what a jump along a row or a column stops at.
#[derive(Clone, Debug)]
pub struct Stops {
    /// Row-major bits.
    pub rows: BitGrid,
    /// Transposed bits: row `x` holds column `x`.
    pub columns: BitGrid,
}

impl Stops {
    /// The stop bits of the layer whose blocked cells are `blocked`, under `weights`
    /// (see [`Layer::build_interior`]). O(n).
    pub(crate) fn build(blocked: &BitGrid, weights: Weights<'_>) -> Self {
        let mut rows = BitGrid::new(blocked.size(), true);
        for cell in CellRect::of_size(blocked.size()).cells() {
            if is_interior(blocked, weights, cell) {
                rows.set(cell, false);
            }
        }
        Self {
            columns: rows.transposed(),
            rows,
        }
    }
}

/// Whether `cell` is interior on the layer whose blocked cells are `blocked`, under
/// `weights` (see [`Layer::build_interior`]).
fn is_interior(blocked: &BitGrid, weights: Weights<'_>, cell: Cell) -> bool {
    // All eight moves legal: all eight neighbours on the map and free.
    if blocked.get_or(cell, true) || blocked.legal_moves(cell, true) != 0xFF {
        return false;
    }
    let size = blocked.size();
    let w = weights.at_index(size.index(cell));
    (-1..=1).all(|dy| {
        (-1..=1).all(|dx| weights.at_index(size.index(Cell::new(cell.x + dx, cell.y + dy))) == w)
    })
}

impl Layer {
    /// Builds the layer of `diameter` from the profile's obstacle bits (`base`) and their
    /// clearance on a grid of `shape`. O(width × height).
    pub(crate) fn build(
        shape: GridShape,
        profile: ProfileId,
        diameter: u32,
        base: &BitGrid,
        clearance: &[u8],
    ) -> Self {
        let size = base.size();
        let blocked = if diameter == 1 {
            base.clone()
        } else {
            let mut b = BitGrid::new(size, false);
            for cell in CellRect::of_size(size).cells() {
                if !fits(shape, clearance, size, cell, diameter) {
                    b.set(cell, true);
                }
            }
            b
        };
        Self {
            shape,
            profile,
            diameter,
            blocked_columns: blocked.transposed(),
            components: Components::with_shape(&blocked, shape),
            blocked,
            jumps: OnceLock::new(),
            landmarks: OnceLock::new(),
            interior: OnceLock::new(),
        }
    }

    /// Its landmark table, when built (see [`Layer::build_landmarks`]).
    pub fn landmarks(&self) -> Option<&Landmarks> {
        self.landmarks.get().and_then(Option::as_ref)
    }

    /// Its landmark table under `weights` (the weights of its profile on its map), built
    /// on the first call ([`Landmarks::build`]) and kept feasible under edits since;
    /// `None` when the table cannot be built. The first call is O(n log n) per landmark.
    pub fn build_landmarks(&self, weights: Weights<'_>) -> Option<&Landmarks> {
        if !self.shape.is_square() {
            return None;
        }
        self.landmarks
            .get_or_init(|| Landmarks::build(&self.blocked, weights))
            .as_ref()
    }

    /// True once the landmark table was built, or its build found that none can be
    /// (then [`Layer::landmarks`] is `None`).
    pub fn landmarks_built(&self) -> bool {
        self.landmarks.get().is_some()
    }

    /// Takes `table` (and `interior`, where the layer has no interior bits yet), built
    /// from this layer as it was before the cells of `touched` changed, and brings them
    /// up to date with it under `weights`: the table is repaired from those cells (see
    /// [`Landmarks::repair`]; the seeds may be a superset of what changed), the interior
    /// bits re-tested around them. A layer with a table already keeps its own. Returns
    /// the work done.
    pub(crate) fn install_landmarks(
        &mut self,
        weights: Weights<'_>,
        table: Option<Landmarks>,
        interior: Stops,
        touched: &[Cell],
    ) -> u64 {
        if self.landmarks_built() {
            return 0;
        }
        self.landmarks = OnceLock::from(table);
        let (closed, opened): (Vec<Cell>, Vec<Cell>) =
            touched.iter().partition(|&&c| self.is_blocked(c));
        let mut work = self.repair_landmarks(weights, &closed, &opened);
        if self.interior.get().is_none() {
            self.interior = OnceLock::from(interior);
            work += self.refresh_interior(weights, touched);
        }
        work
    }

    /// The cells that are not *interior* under `weights` (the weights of its profile on
    /// its map), built on the first call and kept current under edits since: a cell is
    /// interior when it and its eight neighbours are free and weigh the same, so that
    /// every move within its 3×3 block costs that weight times the move's length; where
    /// it is, table-guided A\* jumps (see [`Algorithm::Auto`](crate::search::Algorithm::Auto)).
    /// O(n) the first time.
    pub fn build_interior(&self, weights: Weights<'_>) -> &Stops {
        self.interior
            .get_or_init(|| Stops::build(&self.blocked, weights))
    }

    /// Its stop bits, when built (see [`Layer::build_interior`]).
    pub fn interior(&self) -> Option<&Stops> {
        self.interior.get()
    }

    /// Whether `cell` is interior under `weights` (see [`Layer::build_interior`]).
    fn is_interior(&self, weights: Weights<'_>, cell: Cell) -> bool {
        is_interior(&self.blocked, weights, cell)
    }

    /// Brings built interior bits up to date after the freedom or the weight of `cells`
    /// changed: each such cell decides the bits of its 3×3 block. Returns the bits
    /// re-tested.
    pub(crate) fn refresh_interior(&mut self, weights: Weights<'_>, cells: &[Cell]) -> u64 {
        let Some(mut bits) = self.interior.take() else {
            return 0;
        };
        let size = self.size();
        let mut work = 0;
        for &c in cells {
            for n in CellRect::from_cell(c).grow_clip(1, 1, size).cells() {
                let stop = !self.is_interior(weights, n);
                bits.rows.set(n, stop);
                bits.columns.set(Cell::new(n.y, n.x), stop);
                work += 1;
            }
        }
        self.interior = OnceLock::from(bits);
        work
    }

    /// Keeps a built landmark table feasible after edits (see [`Landmarks::repair`]).
    pub(crate) fn repair_landmarks(
        &mut self,
        weights: Weights<'_>,
        blocked: &[Cell],
        opened: &[Cell],
    ) -> u64 {
        let Some(Some(mut table)) = self.landmarks.take() else {
            return 0;
        };
        let work = table.repair(
            &self.blocked,
            weights,
            blocked.iter().copied(),
            opened.iter().copied(),
        );
        self.landmarks = OnceLock::from(Some(table));
        work
    }

    /// The movement profile this layer is for.
    #[inline]
    pub fn profile(&self) -> ProfileId {
        self.profile
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

    /// The layer's jump table when it has been built, `None` otherwise. O(1).
    #[inline]
    pub fn jump_table(&self) -> Option<&JumpTable> {
        self.jumps.get()
    }

    /// The layer's jump table, built now if it was not: O(width × height) and 16 bytes
    /// per cell the first time, O(1) after. Safe to call from many threads at once
    /// (one builds, the others wait for it); edits of the map keep it exact.
    pub fn build_jump_table(&self) -> &JumpTable {
        self.jumps.get_or_init(|| JumpTable::new(&self.blocked))
    }

    /// Installs `table` as the layer's jump table if none is built (tests of tables
    /// with short jump pieces).
    #[cfg(test)]
    pub(crate) fn use_jump_table(&self, table: JumpTable) {
        let _ = self.jumps.set(table);
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
        self.blocked.moves(self.shape, cell, octile)
    }

    /// [`Layer::legal_moves`] with the layer's shape fixed by the caller (`shape` is the
    /// layer's), for loops compiled once per shape. O(1).
    #[inline]
    pub(crate) fn moves_on(&self, shape: impl Shape, cell: Cell, octile: bool) -> u8 {
        debug_assert_eq!(shape.grid_shape(), self.shape);
        self.blocked.moves(shape, cell, octile)
    }

    /// True when an agent may step from `a` to `b`: `b` is a neighbour of `a` on the
    /// layer's grid, both are free, and on squares a diagonal step passes between two
    /// free cells (no corner cutting). O(1).
    pub fn can_step(&self, a: Cell, b: Cell) -> bool {
        let Some(d) =
            b.x.checked_sub(a.x)
                .zip(b.y.checked_sub(a.y))
                .and_then(|(dx, dy)| crate::grid::Direction::from_delta(dx, dy))
        else {
            return false;
        };
        !self.is_blocked(a) && self.legal_moves(a, true) & (1 << d as u8) != 0
    }

    /// The shape of the grid this layer is of.
    #[inline]
    pub fn shape(&self) -> GridShape {
        self.shape
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
pub(crate) fn fits(
    shape: GridShape,
    clearance: &[u8],
    size: GridSize,
    cell: Cell,
    diameter: u32,
) -> bool {
    if let GridShape::Hex(_) = shape {
        return fits_hex(shape, clearance, size, cell, diameter);
    }
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

/// [`fits`] on hexagons: every cell within `diameter / 2` steps of `cell` is on the map
/// and free. One clearance lookup below [`CLEARANCE_CAP`] steps; above it a scan of the
/// footprint's cells, at most the map's.
fn fits_hex(shape: GridShape, clearance: &[u8], size: GridSize, cell: Cell, diameter: u32) -> bool {
    let Some(i) = size.checked_index(cell) else {
        return false;
    };
    let radius = GridShape::hex_radius(diameter);
    if radius < u32::from(CLEARANCE_CAP) {
        return u32::from(clearance[i]) > radius;
    }
    // Each step moves a tile position by at most one column and one row, and straight
    // steps reach `radius` columns and rows away: the footprint is on the map exactly
    // when its bounding square is.
    let r = i64::from(radius);
    let (x, y) = (i64::from(cell.x), i64::from(cell.y));
    if x < r || y < r || x + r >= i64::from(size.width) || y + r >= i64::from(size.height) {
        return false;
    }
    CellRect::from_cell(cell)
        .grow_clip(r, r, size)
        .cells()
        .filter(|&c| shape.steps(c, cell) <= radius)
        .all(|c| clearance[size.index(c)] > 0)
}

impl Layer {
    /// Sets the freedom of every cell of `area` from `clearance` and returns (through
    /// `changed`) the cells whose freedom flipped, then updates the components and, when
    /// built, the jump table (only the entries the flips can change) and the landmark
    /// table (under `weights`, the profile's). Returns the work done, counted as
    /// [`MapChange::work`](super::MapChange::work) says.
    pub(crate) fn update(
        &mut self,
        clearance: &[u8],
        weights: Weights<'_>,
        area: CellRect,
        changed: &mut Vec<Cell>,
    ) -> u64 {
        changed.clear();
        let size = self.size();
        let mut work = area.cell_count();
        for cell in area.cells() {
            let now = !fits(self.shape, clearance, size, cell, self.diameter);
            if self.blocked.get_or(cell, true) != now {
                self.blocked.set(cell, now);
                self.blocked_columns.set(Cell::new(cell.y, cell.x), now);
                changed.push(cell);
            }
        }
        work += self.components.update(&self.blocked, changed);
        if !changed.is_empty()
            && let Some(jumps) = self.jumps.get_mut()
        {
            work += jumps.update(&self.blocked, changed);
        }
        if !changed.is_empty() {
            work += self.refresh_interior(weights, changed);
        }
        if !changed.is_empty() && self.landmarks().is_some() {
            let (blocked, freed): (Vec<Cell>, Vec<Cell>) =
                changed.iter().partition(|&&c| self.is_blocked(c));
            // A freed cell opens the moves into it, and diagonals past its corner: each
            // of those has an end orthogonally next to it.
            let opened: Vec<Cell> = freed
                .iter()
                .flat_map(|&c| {
                    [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
                        .map(|(dx, dy)| Cell::new(c.x + dx, c.y + dy))
                })
                .collect();
            work += self.repair_landmarks(weights, &blocked, &opened);
        }
        work
    }
}
