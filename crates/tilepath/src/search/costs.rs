//! Step costs as the searches see them: unit octile costs, or a profile's terrain weights.

use crate::grid::{Cost, Direction};
use crate::scenario::Weights;

/// The cost of a step between two neighbouring node ids, and the factor that keeps the
/// octile heuristic admissible. Implemented by [`UnitCosts`] (every cell weighs 1, the
/// fast path of uniform layers) and by [`Weights`] (a profile's terrain weights).
pub(crate) trait StepCosts: Copy {
    /// Cost of a step in direction `d` from node `from` to its neighbour `to`.
    fn step(&self, from: u32, to: u32, d: Direction) -> Cost;

    /// Smallest weight of a passable cell: every step costs at least its length times
    /// this, so the octile distance times it is an admissible, consistent heuristic.
    fn heuristic_scale(&self) -> Cost;
}

/// Unit weights: a straight step costs [`crate::grid::STRAIGHT`], a diagonal one
/// [`crate::grid::DIAGONAL`]. Used on uniform layers, where weights scale every path
/// alike and so do not change which paths are shortest.
#[derive(Clone, Copy, Debug)]
pub(crate) struct UnitCosts;

impl StepCosts for UnitCosts {
    #[inline(always)]
    fn step(&self, _: u32, _: u32, d: Direction) -> Cost {
        d.cost()
    }

    #[inline(always)]
    fn heuristic_scale(&self) -> Cost {
        1
    }
}

impl StepCosts for Weights<'_> {
    #[inline(always)]
    fn step(&self, from: u32, to: u32, d: Direction) -> Cost {
        Weights::step(self, from as usize, to as usize, d)
    }

    #[inline(always)]
    fn heuristic_scale(&self) -> Cost {
        Cost::from(self.min())
    }
}

/// How a resumable search left off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The path is in the shared state.
    Found,
    /// The slice's expansions are spent; resuming goes on where it stopped.
    Suspended,
}
