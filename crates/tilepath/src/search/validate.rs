//! Path validation: the rules every returned path obeys, checkable by anyone.

use crate::grid::{Cell, Connectivity, Direction};
use crate::scenario::Layer;
use std::fmt;

/// Why a cell path breaks the movement rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidPath {
    /// The path has no cells.
    Empty,
    /// The first cell is not the expected start.
    WrongStart,
    /// The last cell is not the expected goal.
    WrongGoal,
    /// Step `index` enters a cell blocked for the agent.
    Blocked {
        /// Index of the offending cell in the path.
        index: usize,
    },
    /// Step `index` is not a single king move (or is diagonal on a cardinal grid).
    NotAdjacent {
        /// Index of the offending cell in the path.
        index: usize,
    },
    /// Step `index` is a diagonal that cuts a blocked corner.
    CutsCorner {
        /// Index of the offending cell in the path.
        index: usize,
    },
}

impl fmt::Display for InvalidPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidPath::Empty => write!(f, "empty path"),
            InvalidPath::WrongStart => write!(f, "path does not begin at the start"),
            InvalidPath::WrongGoal => write!(f, "path does not end at the goal"),
            InvalidPath::Blocked { index } => write!(f, "cell {index} of the path is blocked"),
            InvalidPath::NotAdjacent { index } => write!(f, "step to cell {index} is not one move"),
            InvalidPath::CutsCorner { index } => write!(f, "step to cell {index} cuts a corner"),
        }
    }
}

impl std::error::Error for InvalidPath {}

/// Checks that `path` goes from `start` to `goal` by single moves of `connectivity`
/// over cells free in `layer`, with no diagonal squeezing past a blocked corner. O(len).
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::search::{validate_path, InvalidPath};
/// let map = CachedScenario::from_ascii(".#\n..").unwrap();
/// let layer = map.layer(1).unwrap();
/// let cut = [Cell::new(0, 0), Cell::new(1, 1)];
/// assert_eq!(
///     validate_path(layer, &cut, cut[0], cut[1], Connectivity::Octile),
///     Err(InvalidPath::CutsCorner { index: 1 })
/// );
/// ```
pub fn validate_path(
    layer: &Layer,
    path: &[Cell],
    start: Cell,
    goal: Cell,
    connectivity: Connectivity,
) -> Result<(), InvalidPath> {
    let (&first, &last) = path.first().zip(path.last()).ok_or(InvalidPath::Empty)?;
    if first != start {
        return Err(InvalidPath::WrongStart);
    }
    if last != goal {
        return Err(InvalidPath::WrongGoal);
    }
    if layer.is_blocked(first) {
        return Err(InvalidPath::Blocked { index: 0 });
    }
    for (i, w) in path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let index = i + 1;
        let (dx, dy) = ((b.x - a.x).abs(), (b.y - a.y).abs());
        let diagonal = dx == 1 && dy == 1;
        let shape = layer.shape();
        let neighbour =
            Direction::from_delta(b.x - a.x, b.y - a.y).is_some_and(|d| shape.is_neighbour(a, d));
        if !neighbour || (diagonal && shape.is_square() && connectivity == Connectivity::Cardinal) {
            return Err(InvalidPath::NotAdjacent { index });
        }
        if layer.is_blocked(b) {
            return Err(InvalidPath::Blocked { index });
        }
        if diagonal
            && shape.is_square()
            && (layer.is_blocked(Cell::new(a.x, b.y)) || layer.is_blocked(Cell::new(b.x, a.y)))
        {
            return Err(InvalidPath::CutsCorner { index });
        }
    }
    Ok(())
}
