//! The grid shape as a value: square, or hexagonal in one of the tile layouts.

use super::hex::HexLayout;

/// The shape of a grid's cells: which cells are neighbours and what a step costs.
///
/// ```
/// use tilepath::grid::{Cell, Direction};
/// use tilepath::shape::{GridShape, HexLayout};
///
/// let hex = GridShape::Hex(HexLayout::RowOdd);
/// // On an even row of odd-offset rows the two diagonals toward +x are not neighbours.
/// assert_eq!(hex.neighbours(Cell::new(2, 2)).count_ones(), 6);
/// assert!(!hex.is_neighbour(Cell::new(2, 2), Direction::NorthEast));
/// assert_eq!(hex.steps(Cell::new(0, 0), Cell::new(3, 0)), 3);
/// assert_eq!(GridShape::Square.steps(Cell::new(0, 0), Cell::new(3, 3)), 3);
/// ```
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GridShape {
    /// Square cells with eight neighbours. The default.
    #[default]
    Square,
    /// Hexagonal cells with six neighbours, laid out as the tile positions of `HexLayout`.
    Hex(HexLayout),
}
