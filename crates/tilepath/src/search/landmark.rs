//! Landmark heuristics: a distance field or a layer's landmark table as a lower bound.
//!
//! Two kinds of landmark guide A*. A layer's [`Landmarks`] table (weighted layers,
//! [`Algorithm::Auto`](super::Algorithm::Auto)) bounds every query on it; its module
//! says why the bound stays valid under edits. A distance field bounds the searches to
//! cells near its goal, as follows.
//!
//! A field from a landmark `g` knows the exact cost `d(x, g)` from every settled cell to
//! `g`. Step costs are symmetric, so the triangle inequality gives, for a search to a
//! goal `s`, `d(x, s) >= d(x, g) - d(s, g)`: an admissible heuristic (the "ALT" bound of
//! Goldberg and Harrelson), and a consistent one, since `|d(x, g) - d(y, g)|` never
//! exceeds the step from `x` to `y`. When `s` lies near `g` (the distinct cells that the
//! units of one group order claim around its goal) the bound is nearly exact along the
//! whole way, so a search to `s` expands little more than its path, however winding the
//! map: the field does the long way once for the whole group.
//!
//! A field may still be growing. Its frontier (the smallest distance not yet settled) is
//! read once when a search starts and frozen: cells settled later, or not yet, count as
//! that frontier, which is below their true distance. The heuristic therefore stays the
//! same for the whole search, slices included, and stays consistent. A field complete
//! when the search starts has settled every cell of its component, so the bound holds
//! both ways, `d(x, s) >= |d(x, g) - d(s, g)|`, and the search may run either way round.
//!
//! A guided [`Algorithm::Auto`](super::Algorithm::Auto) search on a weighted layer reads
//! both, the field and the table, and takes the larger bound: the field is tight where
//! the way to the goal runs past the field's own goal, the table elsewhere, and the
//! larger of two consistent bounds is consistent.

use super::field::DistanceField;
use crate::grid::{Cell, Cost, GridSize};
use crate::scenario::{LANDMARKS, Landmarks, Stops};

/// A lower bound on the cost to one search's goal, besides the octile distance.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Landmark<'a> {
    /// A distance field from a cell near the goal.
    Field(FieldBound<'a>),
    /// The layer's landmark table (weighted costs).
    Table(TableBound<'a>),
    /// A field near the goal and the layer's table (a guided `Auto` search on a weighted
    /// layer): the larger of the two bounds, each a lower bound, so the larger one too.
    Both(FieldBound<'a>, TableBound<'a>),
}

impl Landmark<'_> {
    /// A lower bound on the cost from `cell` to the search's goal.
    #[inline]
    pub(crate) fn h(&self, cell: Cell) -> Cost {
        match self {
            Landmark::Field(f) => f.h(cell),
            Landmark::Table(t) => t.h(cell),
            Landmark::Both(f, t) => f.h(cell).max(t.h(cell)),
        }
    }

    /// Hints the cache with the table's values of the 3 × 3 block around `cell`, which
    /// expanding `cell` is about to read (nothing for a field alone, read far less).
    #[inline]
    pub(crate) fn prefetch_block(&self, cell: Cell) {
        if let Landmark::Table(t) | Landmark::Both(_, t) = self {
            let width = t.size.width as usize;
            t.table.prefetch_block(t.size.index(cell), width);
        }
    }

    /// True when the layer's table is (one of) the bound(s).
    #[inline]
    pub(crate) fn has_table(&self) -> bool {
        matches!(self, Landmark::Table(_) | Landmark::Both(..))
    }

    /// The interior bits of the table's layer (see `Layer::build_interior`), along which
    /// a table-guided search jumps; `None` for a field.
    #[inline]
    pub(crate) fn interior(&self) -> Option<&Stops> {
        match self {
            Landmark::Table(t) | Landmark::Both(_, t) => Some(t.interior),
            Landmark::Field(_) => None,
        }
    }

    /// What a suspended search keeps to resume with the same field; `None` for a table
    /// (a resumed search reads the layer's table again, unchanged while the map is).
    pub(crate) fn frozen(&self) -> Option<Frozen> {
        match self {
            Landmark::Field(f) | Landmark::Both(f, _) => Some(f.frozen()),
            Landmark::Table(_) => None,
        }
    }
}

/// A layer's landmark table with the goal's values read once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableBound<'a> {
    table: &'a Landmarks,
    interior: &'a Stops,
    size: GridSize,
    goal: [u32; LANDMARKS],
}

impl<'a> TableBound<'a> {
    /// The bound of `table` (of a layer of `size`) for a search to `goal` (on the map).
    /// Every landmark is read: on the countryside maps, reading the 4 or 8 with the
    /// largest bound between start and goal (ALT's "active" landmarks) expanded more
    /// nodes than it saved time per node.
    pub(crate) fn new(
        table: &'a Landmarks,
        interior: &'a Stops,
        size: GridSize,
        goal: Cell,
    ) -> Self {
        Self {
            table,
            interior,
            size,
            goal: *table.row(size.index(goal)),
        }
    }

    #[inline]
    fn h(&self, cell: Cell) -> Cost {
        Landmarks::bound(self.table.row(self.size.index(cell)), &self.goal)
    }
}

/// A distance field frozen as a heuristic for one search, in the search's cost units.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldBound<'a> {
    field: &'a DistanceField,
    /// The field's frontier when the search started (field units).
    bound: Cost,
    /// The field distance of the search's goal (field units).
    goal: Cost,
    /// Field units per search unit: the uniform weight on uniform layers (whose searches
    /// count unit costs), 1 on weighted ones.
    divisor: Cost,
    /// The field was complete when the search started: every cell of the goal's
    /// component is settled, so the bound holds both ways, `|d(x, g) - d(s, g)|`.
    two_sided: bool,
}

/// What a suspended guided search remembers of its landmark, to check on resume that
/// it is handed the same field and to freeze the same bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frozen {
    pub(crate) landmark: Cell,
    pub(crate) generation: u64,
    pub(crate) bound: Cost,
}

impl<'a> FieldBound<'a> {
    /// The landmark of `field` for a search to `goal` whose costs are the field's divided
    /// by `divisor`, with the frontier frozen now (or at `frozen`, for a resumed search).
    /// `None` when `goal` is not settled in the field (the bound would not be valid).
    pub(crate) fn new(
        field: &'a DistanceField,
        goal: Cell,
        divisor: Cost,
        frozen: Option<Frozen>,
    ) -> Option<Self> {
        let bound = frozen.map_or_else(|| field.frontier(), |f| f.bound);
        let goal = field.distance(goal).filter(|&d| d <= bound)?;
        Some(Self {
            field,
            bound,
            goal,
            divisor: divisor.max(1),
            // Complete now, and already when the search started: a resumed search keeps
            // the frontier it froze, below a field's completed one if it grew since.
            two_sided: field.is_complete() && bound == field.frontier(),
        })
    }

    /// What a suspended search keeps to resume with the same heuristic.
    pub(crate) fn frozen(&self) -> Frozen {
        Frozen {
            landmark: self.field.goal(),
            generation: self.field.generation(),
            bound: self.bound,
        }
    }

    /// A lower bound on the cost from `cell` to the search's goal.
    #[inline]
    fn h(&self, cell: Cell) -> Cost {
        if self.two_sided {
            let d = self.field.distance(cell).unwrap_or(self.goal);
            return d.abs_diff(self.goal) / self.divisor;
        }
        let d = self
            .field
            .distance(cell)
            .unwrap_or(self.bound)
            .min(self.bound);
        d.saturating_sub(self.goal) / self.divisor
    }

    /// True when the bound holds both ways (see [`FieldBound::two_sided`]).
    pub(crate) fn is_two_sided(&self) -> bool {
        self.two_sided
    }
}
