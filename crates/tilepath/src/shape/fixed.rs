//! Grid shapes fixed for a whole search: the per-node rules of a search's inner loop
//! without [`GridShape`]'s match.
//!
//! [`GridShape`] is itself a [`Shape`] that matches on every call. A search engine
//! generic over [`Shape`] matches once where it starts instead ([`GridShape::Square`]
//! runs it on [`Squares`], [`GridShape::Hex`] on [`Hexagons`]), so its per-node loop is
//! compiled once per shape with the shape's rules inlined. [`GridShape`]'s methods
//! answer through these two, so each rule is written once.

use super::hex::HexLayout;
use super::kind::GridShape;
use crate::grid::{Cell, Connectivity, Cost, Direction, STRAIGHT};

/// The rules of a grid shape that a search reads per node. Every method is O(1).
pub(crate) trait Shape: Copy {
    /// The same shape as a [`GridShape`].
    fn grid_shape(self) -> GridShape;

    /// The moves allowed from `cell`, whose 3 × 3 block of blocked bits is `around` (bit
    /// `3 (dy + 1) + dx + 1` holds the cell at offset `(dx, dy)`), as a mask over
    /// [`Direction::ALL`](crate::grid::Direction::ALL) indices, for the connectivity
    /// `octile` (square grids only): a table lookup and a mask.
    fn legal(self, around: u16, cell: Cell, octile: bool) -> u8;

    /// The number of steps between two cells: [`GridShape::steps`].
    fn steps(self, a: Cell, b: Cell) -> u32;

    /// The cheapest cost between two cells on an open map of weight 1:
    /// [`GridShape::distance`].
    fn distance(self, connectivity: Connectivity, a: Cell, b: Cell) -> Cost;

    /// The cheapest cost from `cell` into the goal area of `radius` steps around `goal`:
    /// [`GridShape::distance_to_area`].
    fn distance_to_area(
        self,
        connectivity: Connectivity,
        cell: Cell,
        goal: Cell,
        radius: u32,
    ) -> Cost;
}

/// [`GridShape::Square`], fixed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Squares;

/// [`GridShape::Hex`] of one layout, fixed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hexagons(pub(crate) HexLayout);

impl Shape for Squares {
    #[inline(always)]
    fn grid_shape(self) -> GridShape {
        GridShape::Square
    }

    #[inline(always)]
    fn legal(self, around: u16, _: Cell, octile: bool) -> u8 {
        let moves = SQUARE_LEGAL[usize::from(around & 0x1ff)];
        if octile { moves } else { moves & 0x55 }
    }

    #[inline(always)]
    fn steps(self, a: Cell, b: Cell) -> u32 {
        a.chebyshev(b)
    }

    #[inline(always)]
    fn distance(self, connectivity: Connectivity, a: Cell, b: Cell) -> Cost {
        connectivity.heuristic(a, b)
    }

    #[inline(always)]
    fn distance_to_area(
        self,
        connectivity: Connectivity,
        cell: Cell,
        goal: Cell,
        radius: u32,
    ) -> Cost {
        let r = i64::from(radius);
        let clamp = |v: i32, g: i32| i64::from(v).clamp(i64::from(g) - r, i64::from(g) + r) as i32;
        let near = Cell::new(clamp(cell.x, goal.x), clamp(cell.y, goal.y));
        connectivity.heuristic(cell, near)
    }
}

impl Shape for Hexagons {
    #[inline(always)]
    fn grid_shape(self) -> GridShape {
        GridShape::Hex(self.0)
    }

    #[inline(always)]
    fn legal(self, around: u16, cell: Cell, _: bool) -> u8 {
        FREE[usize::from(around & 0x1ff)] & self.0.moves(cell)
    }

    #[inline(always)]
    fn steps(self, a: Cell, b: Cell) -> u32 {
        self.0.steps((a.x, a.y), (b.x, b.y))
    }

    #[inline(always)]
    fn distance(self, _: Connectivity, a: Cell, b: Cell) -> Cost {
        Cost::from(self.steps(a, b)) * STRAIGHT
    }

    #[inline(always)]
    fn distance_to_area(self, _: Connectivity, cell: Cell, goal: Cell, radius: u32) -> Cost {
        Cost::from(self.steps(cell, goal).saturating_sub(radius)) * STRAIGHT
    }
}

/// The shape decided on every call: one match, then the fixed shape's rule.
impl Shape for GridShape {
    #[inline(always)]
    fn grid_shape(self) -> GridShape {
        self
    }

    #[inline(always)]
    fn legal(self, around: u16, cell: Cell, octile: bool) -> u8 {
        match self {
            GridShape::Square => Squares.legal(around, cell, octile),
            GridShape::Hex(layout) => Hexagons(layout).legal(around, cell, octile),
        }
    }

    #[inline(always)]
    fn steps(self, a: Cell, b: Cell) -> u32 {
        GridShape::steps(self, a, b)
    }

    #[inline(always)]
    fn distance(self, connectivity: Connectivity, a: Cell, b: Cell) -> Cost {
        GridShape::distance(self, connectivity, a, b)
    }

    #[inline(always)]
    fn distance_to_area(
        self,
        connectivity: Connectivity,
        cell: Cell,
        goal: Cell,
        radius: u32,
    ) -> Cost {
        GridShape::distance_to_area(self, connectivity, cell, goal, radius)
    }
}

/// Octile legal moves for every 3 × 3 block of blocked bits: a step onto a free cell,
/// a diagonal only when both straight cells it passes between are free.
static SQUARE_LEGAL: [u8; 512] = table(true);
/// The directions whose target is free, for every 3 × 3 block of blocked bits.
static FREE: [u8; 512] = table(false);

const fn free_in(around: usize, dx: i32, dy: i32) -> bool {
    (around >> (3 * (dy + 1) + dx + 1)) & 1 == 0
}

const fn table(corner_rule: bool) -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut around = 0;
    while around < 512 {
        let mut moves = 0u8;
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = Direction::ALL[d].delta();
            let corners = !corner_rule
                || dx == 0
                || dy == 0
                || (free_in(around, dx, 0) && free_in(around, 0, dy));
            if free_in(around, dx, dy) && corners {
                moves |= 1 << d;
            }
            d += 1;
        }
        table[around] = moves;
        around += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Direction;

    /// The steps between two cells from their definition: king moves on squares, the
    /// axial distance of the two tiles' hexagons on hexagons.
    fn oracle_steps(shape: GridShape, a: Cell, b: Cell) -> u32 {
        match shape {
            GridShape::Square => a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)),
            GridShape::Hex(l) => l.hex(a.x, a.y).distance(l.hex(b.x, b.y)),
        }
    }

    /// The legal moves from their definition: a move to a neighbour (one step away) onto
    /// a free cell; on squares a diagonal needs both straight cells it passes between
    /// free, and only straight moves are legal under `Cardinal`.
    fn oracle_legal(shape: GridShape, around: u16, c: Cell, octile: bool) -> u8 {
        let free = |dx: i32, dy: i32| around & (1 << (3 * (dy + 1) + dx + 1)) == 0;
        let mut mask = 0;
        for (k, d) in Direction::ALL.into_iter().enumerate() {
            let (dx, dy) = d.delta();
            let legal = oracle_steps(shape, c, c.step(d)) == 1
                && free(dx, dy)
                && match shape {
                    GridShape::Square => !d.is_diagonal() || (octile && free(dx, 0) && free(0, dy)),
                    GridShape::Hex(_) => true,
                };
            mask |= u8::from(legal) << k;
        }
        mask
    }

    fn check_legal(fixed: impl Shape) {
        let shape = fixed.grid_shape();
        for around in 0..512u16 {
            for c in [(0, 0), (1, 0), (0, 1), (1, 1), (-3, 5)].map(|(x, y)| Cell::new(x, y)) {
                for octile in [true, false] {
                    let want = oracle_legal(shape, around, c, octile);
                    let why = format!("{shape:?} around {around:#011b} at {c} octile {octile}");
                    assert_eq!(fixed.legal(around, c, octile), want, "{why}");
                    assert_eq!(shape.legal(around, c, octile), want, "{why}");
                }
            }
        }
    }

    #[test]
    fn fixed_shapes_allow_the_moves_of_their_definition_on_every_block_and_parity() {
        check_legal(Squares);
        for layout in HexLayout::ALL {
            check_legal(Hexagons(layout));
        }
    }

    fn check_distances(fixed: impl Shape) {
        let shape = fixed.grid_shape();
        for goal in [(0, 0), (1, 0), (0, 1), (3, -2)].map(|(x, y)| Cell::new(x, y)) {
            for radius in 0..4u32 {
                // The goal area: on either shape its cells lie within `radius` columns
                // and rows of the goal.
                let r = radius as i32;
                let area: Vec<Cell> = (-r..=r)
                    .flat_map(|dy| (-r..=r).map(move |dx| Cell::new(goal.x + dx, goal.y + dy)))
                    .filter(|&c| oracle_steps(shape, c, goal) <= radius)
                    .collect();
                for c in (-7..8).flat_map(|y| (-7..8).map(move |x| Cell::new(x, y))) {
                    let why = format!("{shape:?} from {c} to {goal} radius {radius}");
                    let steps = oracle_steps(shape, c, goal);
                    assert_eq!(fixed.steps(c, goal), steps, "{why}");
                    assert_eq!(shape.steps(c, goal), steps, "{why}");
                    for k in [Connectivity::Octile, Connectivity::Cardinal] {
                        let d = fixed.distance(k, c, goal);
                        assert_eq!(shape.distance(k, c, goal), d, "{why} {k:?}");
                        if !shape.is_square() {
                            assert_eq!(d, Cost::from(steps) * STRAIGHT, "{why}");
                        }
                        let nearest = area.iter().map(|&a| fixed.distance(k, c, a)).min();
                        let to_area = fixed.distance_to_area(k, c, goal, radius);
                        assert_eq!(Some(to_area), nearest, "{why} {k:?}");
                        assert_eq!(shape.distance_to_area(k, c, goal, radius), to_area);
                    }
                }
            }
        }
    }

    #[test]
    fn fixed_shapes_measure_steps_and_the_distance_to_the_nearest_cell_of_a_goal_area() {
        check_distances(Squares);
        for layout in HexLayout::ALL {
            check_distances(Hexagons(layout));
        }
    }
}
