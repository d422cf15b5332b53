//! Congestion: how crowded cells have been lately, as a planner prices it.

use crate::grid::{Cell, Cost, GridSize};
use crate::scenario::footprint_on;

/// How crowded each cell of a map has been lately: a level per cell, from 0 (clear) to
/// [`Congestion::FULL`], that units crawling over the cell raise
/// ([`Congestion::raise`]) and time lowers again ([`Congestion::cool`]).
///
/// A search around units ([`Pathfinder::find_around_with`]) adds a price to entering a
/// congested cell, in proportion to its level, so that new paths take a parallel way
/// where one exists while a passage is jammed, and take the passage again once it has
/// cleared. Unlike [`UnitCells`](super::UnitCells), which says where units stand now,
/// congestion outlives the units that caused it.
///
/// Costs: [`Congestion::raise`] O(min(diameter², map cells)), [`Congestion::cool`] O(cells
/// congested), [`Congestion::level`] O(1); 2 bytes per map cell, allocated by the first
/// [`Congestion::resize`] for a size and kept.
///
/// ```
/// use tilepath::grid::{Cell, GridSize};
/// use tilepath::search::Congestion;
///
/// let mut congestion = Congestion::new();
/// congestion.resize(GridSize::new(8, 8));
/// congestion.raise(Cell::new(3, 3), 1, Congestion::FULL / 2);
/// assert_eq!(congestion.level(Cell::new(3, 3)), Congestion::FULL / 2);
/// congestion.cool(Congestion::FULL);
/// assert!(congestion.is_empty());
/// ```
///
/// [`Pathfinder::find_around_with`]: crate::search::Pathfinder::find_around_with
#[derive(Clone, Debug, Default)]
pub struct Congestion {
    size: GridSize,
    levels: Vec<u16>,
    /// Indices of the cells whose level is above 0.
    hot: Vec<u32>,
}

impl Congestion {
    /// The level of a fully congested cell (the highest).
    pub const FULL: u16 = u16::MAX;

    /// A record of no map, with nothing congested.
    pub(crate) const EMPTY: Self = Self {
        size: GridSize::new(0, 0),
        levels: Vec::new(),
        hot: Vec::new(),
    };

    /// An empty record; [`Congestion::resize`] sizes it.
    pub fn new() -> Self {
        Self::default()
    }

    /// The size of the map it is for.
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Makes it a record for a map of `size`: a new size forgets every level, the same
    /// size keeps them. O(map cells) on a new size, O(1) otherwise.
    pub fn resize(&mut self, size: GridSize) {
        if size != self.size || self.levels.len() != size.area() {
            self.size = size;
            self.levels.clear();
            self.levels.resize(size.area(), 0);
            self.hot.clear();
        }
    }

    /// Forgets every level (buffers are kept). O(cells congested).
    pub fn clear(&mut self) {
        for &i in &self.hot {
            self.levels[i as usize] = 0;
        }
        self.hot.clear();
    }

    /// Raises the level of every cell under a unit of `diameter` at anchor cell `anchor`
    /// by `by`, up to [`Congestion::FULL`] (cells off the map are left out; the order of
    /// raises does not matter). O(min(diameter², map cells)).
    pub fn raise(&mut self, anchor: Cell, diameter: u32, by: u16) {
        if by == 0 {
            return;
        }
        for c in footprint_on(anchor, diameter, self.size).cells() {
            let i = self.size.index(c);
            if self.levels[i] == 0 {
                self.hot.push(i as u32);
            }
            self.levels[i] = self.levels[i].saturating_add(by);
        }
    }

    /// Lowers every level by `by` (down to 0, where a cell is clear again). O(cells
    /// congested).
    pub fn cool(&mut self, by: u16) {
        if by == 0 {
            return;
        }
        let levels = &mut self.levels;
        self.hot.retain(|&i| {
            let level = &mut levels[i as usize];
            *level = level.saturating_sub(by);
            *level > 0
        });
    }

    /// The level of `cell` (0 off the map).
    pub fn level(&self, cell: Cell) -> u16 {
        if !self.size.contains(cell) {
            return 0;
        }
        self.levels.get(self.size.index(cell)).copied().unwrap_or(0)
    }

    /// The highest level under an agent of `diameter` anchored at `anchor`.
    /// O(min(diameter², map cells)).
    pub fn level_under(&self, anchor: Cell, diameter: u32) -> u16 {
        if self.is_empty() {
            return 0;
        }
        footprint_on(anchor, diameter, self.size)
            .cells()
            .map(|c| self.levels[self.size.index(c)])
            .max()
            .unwrap_or(0)
    }

    /// True when no cell is congested.
    pub fn is_empty(&self) -> bool {
        self.hot.is_empty()
    }

    /// Indices of the cells of `path` after its start where an agent of `diameter`
    /// would stand on a congested cell, in order. O(path length × diameter²).
    pub fn crossed<'a>(
        &'a self,
        path: &'a [Cell],
        diameter: u32,
    ) -> impl Iterator<Item = usize> + 'a {
        path.iter()
            .enumerate()
            .skip(1)
            .filter(move |&(_, &c)| self.level_under(c, diameter) > 0)
            .map(|(i, _)| i)
    }

    /// What entering a cell of `level` costs on top of its step, when a fully congested
    /// one costs `full` (in proportion, rounded down).
    pub(crate) fn price(level: u16, full: Cost) -> Cost {
        ((u128::from(full) * u128::from(level)) / u128::from(Self::FULL)) as Cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raises_add_up_to_full_and_cooling_clears_in_order() {
        let mut c = Congestion::new();
        c.resize(GridSize::new(16, 16));
        c.raise(Cell::new(2, 2), 2, 40_000);
        c.raise(Cell::new(3, 3), 1, 40_000);
        assert_eq!(c.level(Cell::new(3, 3)), Congestion::FULL);
        assert_eq!(c.level(Cell::new(2, 2)), 40_000);
        assert_eq!(c.level_under(Cell::new(2, 2), 2), Congestion::FULL);
        c.cool(40_000);
        assert_eq!(c.level(Cell::new(2, 2)), 0);
        assert_eq!(c.level(Cell::new(3, 3)), Congestion::FULL - 40_000);
        assert!(!c.is_empty());
        c.cool(Congestion::FULL);
        assert!(c.is_empty() && c.level(Cell::new(3, 3)) == 0);
        // A raise after cooling is recorded again.
        c.raise(Cell::new(3, 3), 1, 1);
        assert_eq!(c.hot.len(), 1);
    }

    #[test]
    fn a_unit_wider_than_the_map_raises_the_map_and_no_more() {
        let size = GridSize::new(32, 32);
        let mut c = Congestion::new();
        c.resize(size);
        c.raise(Cell::new(-5, 40), u32::MAX, 7);
        c.raise(Cell::new(0, 0), 100_000, 7);
        assert_eq!(c.hot.len(), size.area());
        assert_eq!(c.level(Cell::new(31, 31)), 14);
        assert_eq!(c.level(Cell::new(32, 0)), 0);
        c.resize(GridSize::new(8, 8));
        assert!(c.is_empty() && c.level(Cell::new(1, 1)) == 0);
    }

    #[test]
    fn the_price_is_in_proportion_to_the_level() {
        assert_eq!(Congestion::price(0, 1000), 0);
        assert_eq!(Congestion::price(Congestion::FULL, 1000), 1000);
        assert_eq!(Congestion::price(Congestion::FULL / 2, 1000), 499);
        assert_eq!(Congestion::price(Congestion::FULL, Cost::MAX), Cost::MAX);
    }
}
