//! Integer grid model: cells, directions, fixed-point octile costs and heuristics.

use std::fmt;

/// A cell of the grid; `x` is the column, `y` the row, `(0, 0)` the first cell.
///
/// Coordinates are signed so that neighbour arithmetic never wraps; cells with a
/// negative coordinate or one past the map size are off the map (and blocked).
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, growing to the right.
    pub x: i32,
    /// Row, growing downwards in map files (upwards in world space, see the plugin).
    pub y: i32,
}

impl Cell {
    /// Makes a cell from its column and row.
    #[inline]
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The cell one step in `dir`; saturates at the `i32` range (such cells are off
    /// every map), so it never overflows.
    #[inline]
    pub const fn step(self, dir: Direction) -> Self {
        let (dx, dy) = dir.delta();
        Self::new(self.x.saturating_add(dx), self.y.saturating_add(dy))
    }

    /// Chebyshev (king-move) distance; exact for any two cells (computed in `i64`).
    #[inline]
    pub fn chebyshev(self, other: Cell) -> u32 {
        let dx = (i64::from(self.x) - i64::from(other.x)).unsigned_abs();
        let dy = (i64::from(self.y) - i64::from(other.y)).unsigned_abs();
        dx.max(dy) as u32
    }

    /// True when the two cells are one king move apart (not equal).
    #[inline]
    pub fn is_adjacent(self, other: Cell) -> bool {
        self.chebyshev(other) == 1
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl From<(i32, i32)> for Cell {
    fn from((x, y): (i32, i32)) -> Self {
        Self::new(x, y)
    }
}

/// Largest supported width or height in cells: 2²⁹ (536,870,912).
///
/// Coordinates are `i32`; this bound keeps every on-map coordinate plus any offset the
/// crate adds (a neighbour step, a footprint, an update rectangle) far from overflow.
pub const MAX_SIDE: u32 = 1 << 29;

/// Largest supported number of cells (width × height): 2³¹ (2,147,483,648).
///
/// The search numbers cells with `u32` indices and keeps `u32::MAX` as a sentinel, so
/// every index must fit below it with room to spare. Memory is the practical limit long
/// before this one: a [`crate::scenario::CachedScenario`] needs about 5.3 bytes per cell.
pub const MAX_CELLS: u64 = 1 << 31;

/// Size of a grid in cells.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GridSize {
    /// Number of columns.
    pub width: u32,
    /// Number of rows.
    pub height: u32,
}

impl GridSize {
    /// Makes a size.
    pub const fn new(width: u32, height: u32) -> Self {
        Self { width, height }
    }

    /// Number of cells.
    ///
    /// Exact for every [supported](GridSize::is_supported) size; for larger sizes on a
    /// 32-bit target it wraps, so check [`GridSize::cell_count`] first.
    #[inline]
    pub const fn area(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Number of cells, computed in `u64` so that it never overflows.
    #[inline]
    pub const fn cell_count(self) -> u64 {
        self.width as u64 * self.height as u64
    }

    /// True when the crate supports this size: neither side above [`MAX_SIDE`] and at
    /// most [`MAX_CELLS`] cells (an empty size is supported here; maps reject it).
    #[inline]
    pub const fn is_supported(self) -> bool {
        self.width <= MAX_SIDE && self.height <= MAX_SIDE && self.cell_count() <= MAX_CELLS
    }

    /// True when `cell` lies on the grid.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width && (cell.y as u32) < self.height
    }

    /// Row-major index of an on-grid cell, for hot loops that have checked
    /// [`GridSize::contains`]. For an off-grid cell the result is meaningless (and a
    /// debug build may panic on overflow); use [`GridSize::checked_index`] for cells
    /// that come from outside.
    #[inline]
    pub const fn index(self, cell: Cell) -> usize {
        cell.y as usize * self.width as usize + cell.x as usize
    }

    /// Row-major index of `cell`, or `None` when it is off the grid.
    #[inline]
    pub const fn checked_index(self, cell: Cell) -> Option<usize> {
        if self.contains(cell) {
            Some(self.index(cell))
        } else {
            None
        }
    }

    /// Cell of a row-major index (below [`GridSize::area`] for an on-grid cell).
    ///
    /// # Panics
    ///
    /// When the width is 0 (division by zero).
    #[inline]
    pub const fn cell(self, index: usize) -> Cell {
        Cell::new(
            (index % self.width as usize) as i32,
            (index / self.width as usize) as i32,
        )
    }
}

/// Path cost in fixed point: one straight step costs [`STRAIGHT`], one diagonal
/// step [`DIAGONAL`]. Integer costs make every search deterministic and make A*,
/// JPS and Dijkstra agree exactly.
pub type Cost = u64;

/// Fixed-point cost of a straight step (1.0) over weight-1 terrain.
///
/// Both step costs are even, so the weighted cost of a step, `len × (w(a) + w(b)) / 2`
/// (see [`crate::scenario::MovementProfile`]), is an exact integer.
pub const STRAIGHT: Cost = 66_922;
/// Fixed-point cost of a diagonal step: 94642 / 66922 = 47321 / 33461 = 1.414213562
/// (error < 3e-9).
pub const DIAGONAL: Cost = 94_642;

/// Converts a fixed-point cost to grid units (1.0 per straight step).
#[inline]
pub fn cost_to_f64(cost: Cost) -> f64 {
    cost as f64 / STRAIGHT as f64
}

/// Which moves an agent may make.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// 8-connected: straight and diagonal moves; a diagonal needs both orthogonal
    /// neighbours it passes between to be free (no corner cutting).
    #[default]
    Octile,
    /// 4-connected: straight moves only.
    Cardinal,
}

impl Connectivity {
    /// The moves of this connectivity.
    pub const fn directions(self) -> &'static [Direction] {
        match self {
            Connectivity::Octile => &Direction::ALL,
            Connectivity::Cardinal => &Direction::CARDINAL,
        }
    }

    /// Admissible, consistent heuristic between two cells: octile or Manhattan distance.
    #[inline]
    pub fn heuristic(self, a: Cell, b: Cell) -> Cost {
        let dx = (i64::from(a.x) - i64::from(b.x)).unsigned_abs();
        let dy = (i64::from(a.y) - i64::from(b.y)).unsigned_abs();
        match self {
            Connectivity::Octile => octile_cost(dx, dy),
            Connectivity::Cardinal => (dx + dy) * STRAIGHT,
        }
    }
}

/// Octile distance in fixed point for offsets `dx`, `dy` (both non-negative).
#[inline]
pub fn octile_cost(dx: Cost, dy: Cost) -> Cost {
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    lo * DIAGONAL + (hi - lo) * STRAIGHT
}

/// One of the eight king moves.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// +x
    East = 0,
    /// +x +y
    SouthEast = 1,
    /// +y
    South = 2,
    /// -x +y
    SouthWest = 3,
    /// -x
    West = 4,
    /// -x -y
    NorthWest = 5,
    /// -y
    North = 6,
    /// +x -y
    NorthEast = 7,
}

impl Direction {
    /// The directions whose bits are set in `mask` (bit `k` is `Direction::ALL[k]`, as in
    /// a layer's legal moves), in index order.
    pub(crate) fn in_mask(mut mask: u8) -> impl Iterator<Item = Direction> {
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let k = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                Direction::ALL[k]
            })
        })
    }

    /// All eight directions, clockwise from east (with y growing downwards).
    pub const ALL: [Direction; 8] = [
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
        Direction::North,
        Direction::NorthEast,
    ];
    /// The four straight directions.
    pub const CARDINAL: [Direction; 4] = [
        Direction::East,
        Direction::South,
        Direction::West,
        Direction::North,
    ];

    /// Cell offset of one step.
    #[inline]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::East => (1, 0),
            Direction::SouthEast => (1, 1),
            Direction::South => (0, 1),
            Direction::SouthWest => (-1, 1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, -1),
            Direction::North => (0, -1),
            Direction::NorthEast => (1, -1),
        }
    }

    /// Direction of a unit offset, `None` for `(0, 0)` or longer offsets.
    pub const fn from_delta(dx: i32, dy: i32) -> Option<Direction> {
        Some(match (dx, dy) {
            (1, 0) => Direction::East,
            (1, 1) => Direction::SouthEast,
            (0, 1) => Direction::South,
            (-1, 1) => Direction::SouthWest,
            (-1, 0) => Direction::West,
            (-1, -1) => Direction::NorthWest,
            (0, -1) => Direction::North,
            (1, -1) => Direction::NorthEast,
            _ => return None,
        })
    }

    /// True for the four diagonal moves.
    #[inline]
    pub const fn is_diagonal(self) -> bool {
        (self as u8) & 1 == 1
    }

    /// Fixed-point cost of one step.
    #[inline]
    pub const fn cost(self) -> Cost {
        if self.is_diagonal() {
            DIAGONAL
        } else {
            STRAIGHT
        }
    }

    /// Direction turned by `eighths` steps of 45 degrees clockwise (negative: counter-clockwise).
    #[inline]
    pub const fn rotate(self, eighths: i32) -> Direction {
        Direction::ALL[((self as i32 + eighths).rem_euclid(8)) as usize]
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        self.rotate(4)
    }

    /// For a diagonal, its two straight components (x part, y part).
    #[inline]
    pub const fn components(self) -> (Direction, Direction) {
        let (dx, dy) = self.delta();
        let h = if dx > 0 {
            Direction::East
        } else {
            Direction::West
        };
        let v = if dy > 0 {
            Direction::South
        } else {
            Direction::North
        };
        (h, v)
    }
}

/// Exact octile length (grid units) of a cell path: the sum of its step lengths.
pub fn path_length(path: &[Cell]) -> f64 {
    path.windows(2)
        .map(|w| {
            let dx = (w[1].x - w[0].x).abs() as f64;
            let dy = (w[1].y - w[0].y).abs() as f64;
            (dx * dx + dy * dy).sqrt()
        })
        // A fold from +0.0: the float `sum` of no steps is -0.0.
        .fold(0.0, |a, b| a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_cost_approximates_sqrt2_within_3e9() {
        let ratio = DIAGONAL as f64 / STRAIGHT as f64;
        assert!((ratio - std::f64::consts::SQRT_2).abs() < 3e-9);
    }

    #[test]
    fn octile_cost_mixes_diagonal_and_straight_steps() {
        assert_eq!(octile_cost(3, 5), 3 * DIAGONAL + 2 * STRAIGHT);
        assert_eq!(octile_cost(5, 3), octile_cost(3, 5));
        assert_eq!(octile_cost(0, 0), 0);
    }

    #[test]
    fn directions_round_trip_through_deltas_and_rotation() {
        for d in Direction::ALL {
            let (dx, dy) = d.delta();
            assert_eq!(Direction::from_delta(dx, dy), Some(d));
            assert_eq!(d.opposite().opposite(), d);
            assert_eq!(d.rotate(8), d);
        }
        assert_eq!(Direction::East.rotate(-1), Direction::NorthEast);
        assert_eq!(
            Direction::SouthWest.components(),
            (Direction::West, Direction::South)
        );
    }

    #[test]
    fn grid_size_indexes_row_major() {
        let s = GridSize::new(7, 3);
        let c = Cell::new(5, 2);
        assert_eq!(s.index(c), 19);
        assert_eq!(s.cell(19), c);
        assert!(!s.contains(Cell::new(7, 0)));
        assert!(!s.contains(Cell::new(-1, 0)));
    }

    #[test]
    fn cell_arithmetic_never_overflows_for_extreme_coordinates() {
        let (lo, hi) = (Cell::new(i32::MIN, i32::MIN), Cell::new(i32::MAX, i32::MAX));
        assert_eq!(lo.chebyshev(hi), u32::MAX);
        assert_eq!(hi.step(Direction::SouthEast), hi);
        assert_eq!(lo.step(Direction::NorthWest), lo);
        assert_eq!(
            Connectivity::Cardinal.heuristic(lo, hi),
            2 * u64::from(u32::MAX) * STRAIGHT
        );
        assert!(Connectivity::Octile.heuristic(lo, hi) > 0);
        let s = GridSize::new(7, 3);
        assert_eq!(s.checked_index(Cell::new(5, 2)), Some(19));
        assert_eq!(s.checked_index(Cell::new(-1, 0)), None);
        assert_eq!(s.checked_index(Cell::new(7, 0)), None);
    }

    #[test]
    fn supported_sizes_stop_at_the_documented_limits() {
        assert!(GridSize::new(MAX_SIDE, 4).is_supported());
        assert!(!GridSize::new(MAX_SIDE + 1, 1).is_supported());
        assert!(!GridSize::new(1, MAX_SIDE + 1).is_supported());
        assert!(GridSize::new(1 << 16, 1 << 15).is_supported());
        assert!(!GridSize::new(1 << 16, (1 << 15) + 1).is_supported());
        assert_eq!(
            GridSize::new(u32::MAX, u32::MAX).cell_count(),
            u64::from(u32::MAX) * u64::from(u32::MAX)
        );
    }

    #[test]
    fn path_length_counts_diagonals_as_sqrt2() {
        let p = [Cell::new(0, 0), Cell::new(1, 1), Cell::new(2, 1)];
        assert!((path_length(&p) - (1.0 + std::f64::consts::SQRT_2)).abs() < 1e-12);
    }
}
