//! Grid shapes: which cells are neighbours, what a step costs, how far apart two cells are.
//!
//! This is the one place that knows what a neighbour is. A map of either shape stores
//! its cells the same way, by `(column, row)` ([`Cell`]), and every neighbour of a cell
//! lies among its eight king moves ([`Direction`]):
//!
//! - [`GridShape::Square`]: all eight (or the four straight ones for
//!   [`Connectivity::Cardinal`]); a diagonal step needs both straight cells it passes
//!   between to be free (no corner cutting) and costs [`DIAGONAL`](crate::grid::DIAGONAL).
//! - [`GridShape::Hex`]: six of the eight, which six depending on the
//!   [`HexLayout`] and the parity of the cell's row or column (the tile coordinates of
//!   bevy_ecs_tilemap's hexagonal maps). Every step costs [`STRAIGHT`] and needs only
//!   its target to be free.
//!
//! So the map, the search engine, distance fields, carry-over and clearance are written
//! once, over a move mask; the shape decides the mask, the step length and the
//! distance bound (the heuristic). What only square grids can do (jump points, jump and
//! landmark tables, evasion, depth-first searches, smoothing) says so where it is
//! chosen ([`crate::search::Algorithm`]).

mod fixed;
mod hex;
mod kind;

pub(crate) use fixed::{Hexagons, Shape, Squares};
pub use hex::{Hex, HexLayout};
pub use kind::GridShape;

use crate::grid::{Cell, Connectivity, Cost, Direction, STRAIGHT};
use crate::scenario::CellRect;

impl GridShape {
    /// True for [`GridShape::Square`].
    #[inline]
    pub const fn is_square(self) -> bool {
        matches!(self, GridShape::Square)
    }

    /// The moves that exist from `cell` on an open map, as a mask over
    /// [`Direction::ALL`] indices (bit `k` is `Direction::ALL[k]`). O(1).
    #[inline]
    pub const fn neighbours(self, cell: Cell) -> u8 {
        match self {
            GridShape::Square => 0xFF,
            GridShape::Hex(layout) => layout.moves(cell),
        }
    }

    /// True when a step in `d` from `cell` goes to a neighbour.
    #[inline]
    pub const fn is_neighbour(self, cell: Cell, d: Direction) -> bool {
        self.neighbours(cell) & (1 << d as u8) != 0
    }

    /// The length of one step in `d` in fixed point: [`STRAIGHT`], or
    /// [`DIAGONAL`](crate::grid::DIAGONAL) for a square diagonal.
    #[inline]
    pub const fn step_length(self, d: Direction) -> Cost {
        match self {
            GridShape::Square => d.cost(),
            GridShape::Hex(_) => STRAIGHT,
        }
    }

    /// The number of steps between two cells on an open map: the king-move
    /// (Chebyshev) distance on squares, the hexagonal distance on hexagons. A goal
    /// area of radius `r` holds the cells at most `r` steps from its centre.
    #[inline]
    pub fn steps(self, a: Cell, b: Cell) -> u32 {
        match self {
            GridShape::Square => Squares.steps(a, b),
            GridShape::Hex(layout) => Hexagons(layout).steps(a, b),
        }
    }

    /// The cost of the cheapest path between two cells on an open map of weight 1 under
    /// `connectivity` (square grids only): an admissible, consistent heuristic.
    #[inline]
    pub fn distance(self, connectivity: Connectivity, a: Cell, b: Cell) -> Cost {
        match self {
            GridShape::Square => Squares.distance(connectivity, a, b),
            GridShape::Hex(layout) => Hexagons(layout).distance(connectivity, a, b),
        }
    }

    /// The cost of the cheapest path from `cell` into the goal area of `radius` steps
    /// around `goal` on an open map: [`GridShape::distance`] to the area's nearest
    /// cell. Admissible and consistent, as a distance to a set.
    #[inline]
    pub fn distance_to_area(
        self,
        connectivity: Connectivity,
        cell: Cell,
        goal: Cell,
        radius: u32,
    ) -> Cost {
        match self {
            GridShape::Square => Squares.distance_to_area(connectivity, cell, goal, radius),
            GridShape::Hex(layout) => {
                Hexagons(layout).distance_to_area(connectivity, cell, goal, radius)
            }
        }
    }

    /// Length of a path of neighbouring cells in grid units (1 per straight or
    /// hexagonal step, √2 per square diagonal). O(len).
    pub fn path_length(self, path: &[Cell]) -> f64 {
        match self {
            GridShape::Square => crate::grid::path_length(path),
            GridShape::Hex(_) => path.len().saturating_sub(1) as f64,
        }
    }

    /// How far the footprint of an agent of `diameter` reaches from the cell it stands
    /// on, toward −x/−y and toward +x/+y: `((d - 1) / 2, d / 2)` on squares (a `d × d`
    /// square), `(d / 2, d / 2)` on hexagons (the cells within `d / 2` steps, whose
    /// tile positions lie in that square). A diameter of 0 is treated as 1.
    #[inline]
    pub fn reach(self, diameter: u32) -> (i64, i64) {
        let d = i64::from(diameter.max(1));
        match self {
            GridShape::Square => ((d - 1) / 2, d / 2),
            GridShape::Hex(_) => (d / 2, d / 2),
        }
    }

    /// The smallest rectangle of cells holding the footprint of an agent of `diameter`
    /// standing on `cell`: the footprint itself on squares (see
    /// [`footprint`](crate::scenario::footprint)), the square of tiles within `d / 2`
    /// columns and rows of `cell` on hexagons. O(1), never overflows.
    pub fn footprint(self, cell: Cell, diameter: u32) -> CellRect {
        match self {
            GridShape::Square => crate::scenario::footprint(cell, diameter),
            GridShape::Hex(_) => {
                let (before, after) = self.reach(diameter);
                let at = |v: i32, by: i64| {
                    (i64::from(v) + by).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
                };
                CellRect {
                    min: Cell::new(at(cell.x, -before), at(cell.y, -before)),
                    max: Cell::new(at(cell.x, after + 1), at(cell.y, after + 1)),
                }
            }
        }
    }

    /// True when the footprint of an agent of `diameter` standing on `anchor` covers
    /// `cell`: a cell of [`GridShape::footprint`], and on hexagons at most `d / 2` steps
    /// away.
    #[inline]
    pub fn covers(self, anchor: Cell, diameter: u32, cell: Cell) -> bool {
        self.footprint(anchor, diameter).contains(cell)
            && match self {
                GridShape::Square => true,
                GridShape::Hex(_) => self.steps(anchor, cell) <= Self::hex_radius(diameter),
            }
    }

    /// The radius, in tiles, of the disc an agent of `diameter` fills for crowds: half
    /// its diameter, shrunk where needed so that two agents of any diameters standing on
    /// cells whose footprints share no cell never overlap. On squares that is half the
    /// diameter. On hexagons an agent of radius `r ≥ 1` ([`GridShape::hex_radius`]) gets
    /// at most `D(r + 1) − ½`, where `D(n)` is the least distance between tiles `n`
    /// steps apart (`n √3 / 2` for even `n`, `√(3n² + 1) / 2` for odd): a tile and its
    /// six neighbours (diameter 3) get √3 − ½ ≈ 1.23, so that such an agent and a
    /// one-tile agent two steps away just touch. A diameter of 0 is treated as 1.
    pub fn body_radius(self, diameter: u32) -> f64 {
        let half = f64::from(diameter.max(1)) * 0.5;
        let r = Self::hex_radius(diameter);
        match self {
            GridShape::Square => half,
            GridShape::Hex(_) if r == 0 => half,
            GridShape::Hex(_) => {
                let n = f64::from(r) + 1.0;
                let least = if (r + 1).is_multiple_of(2) {
                    n * 3f64.sqrt() / 2.0
                } else {
                    (3.0 * n * n + 1.0).sqrt() / 2.0
                };
                half.min(least - 0.5)
            }
        }
    }

    /// The radius in steps of a hexagonal agent of `diameter`: `d / 2` (1 and 2 wide
    /// agents differ only on squares).
    #[inline]
    pub const fn hex_radius(diameter: u32) -> u32 {
        if diameter == 0 { 0 } else { diameter / 2 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{DIAGONAL, octile_cost};

    #[test]
    fn hex_bodies_never_overlap_on_disjoint_footprints() {
        // Axial hexagons of unit spacing (regular, pointy top): centre of (q, r).
        let centre = |q: i32, r: i32| {
            (
                f64::from(q) + 0.5 * f64::from(r),
                f64::from(r) * 0.75f64.sqrt(),
            )
        };
        let steps = |q: i32, r: i32| (q.abs() + r.abs() + (q + r).abs()) / 2;
        let shape = GridShape::Hex(HexLayout::RowOdd);
        for a in 1..=9u32 {
            for b in 1..=9u32 {
                let reach = (GridShape::hex_radius(a) + GridShape::hex_radius(b)) as i32;
                // Footprints of radii r1 and r2 on tiles k steps apart share no tile
                // when k > r1 + r2.
                let mut least = f64::INFINITY;
                for q in -20..=20 {
                    for r in -20..=20 {
                        if steps(q, r) > reach {
                            let (x, y) = centre(q, r);
                            least = least.min(x.hypot(y));
                        }
                    }
                }
                let bodies = shape.body_radius(a) + shape.body_radius(b);
                assert!(bodies <= least + 1e-9, "d {a} and {b}: {bodies} vs {least}");
            }
            let body = shape.body_radius(a);
            assert!(
                body <= f64::from(a) * 0.5 && body > 0.4 * f64::from(a),
                "d {a}: {body}"
            );
        }
        assert!((shape.body_radius(3) - (3f64.sqrt() - 0.5)).abs() < 1e-12);
        assert_eq!(GridShape::Square.body_radius(3), 1.5);
        assert_eq!(GridShape::Square.body_radius(0), 0.5);
    }

    #[test]
    fn hex_neighbours_are_the_six_axial_neighbours_in_every_layout() {
        for layout in HexLayout::ALL {
            let shape = GridShape::Hex(layout);
            for y in -3..4 {
                for x in -3..4 {
                    let c = Cell::new(x, y);
                    let mask = shape.neighbours(c);
                    assert_eq!(mask.count_ones(), 6, "{layout:?} {c}");
                    for d in Direction::in_mask(mask) {
                        assert_eq!(shape.steps(c, c.step(d)), 1, "{layout:?} {c} {d:?}");
                        // Neighbourhood is symmetric.
                        assert!(shape.is_neighbour(c.step(d), d.opposite()));
                    }
                }
            }
        }
    }

    #[test]
    fn square_moves_keep_the_corner_rule_and_hex_moves_do_not() {
        // Blocked: east and south of the centre; free: south-east.
        let around: u16 = (1 << 5) | (1 << 7);
        let c = Cell::new(0, 0);
        let se = 1 << Direction::SouthEast as u8;
        assert_eq!(GridShape::Square.legal(around, c, true) & se, 0);
        let hex = GridShape::Hex(HexLayout::Row);
        assert_eq!(GridShape::Hex(HexLayout::Row).neighbours(c) & se, 0);
        let sw = 1 << Direction::SouthWest as u8;
        assert_ne!(hex.legal(around, c, true) & sw, 0);
        assert_eq!(
            GridShape::Square.step_length(Direction::SouthWest),
            DIAGONAL
        );
        assert_eq!(hex.step_length(Direction::SouthWest), STRAIGHT);
        assert_eq!(octile_cost(1, 1), DIAGONAL);
    }

    #[test]
    fn steps_are_the_hex_distance_and_never_overflow() {
        for layout in HexLayout::ALL {
            let steps = |a: (i32, i32), b: (i32, i32)| {
                GridShape::Hex(layout).steps(Cell::new(a.0, a.1), Cell::new(b.0, b.1))
            };
            for (a, b) in [((-3, 4), (5, -2)), ((0, 0), (7, 7)), ((-1, -1), (2, 3))] {
                let want = layout.hex(a.0, a.1).distance(layout.hex(b.0, b.1));
                assert_eq!(steps(a, b), want, "{layout:?}");
            }
            let (min, max) = ((i32::MIN, i32::MIN), (i32::MAX, i32::MAX));
            assert_eq!(steps(min, max), u32::MAX, "{layout:?}");
            let far = steps((i32::MIN, i32::MAX), (0, 0));
            assert!(far > i32::MAX as u32, "{layout:?}: {far}");
        }
    }
}
