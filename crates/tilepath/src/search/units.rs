//! Other units as a planner sees them: the cells they hold and the price of entering one.

use crate::grid::{Cell, Cost, Direction, GridSize, STRAIGHT};
use crate::scenario::footprint_on;
use crate::search::congestion::Congestion;
use crate::search::costs::StepCosts;

/// Which other units a search steers around ([`Pathfinder::find_around`]), after the
/// blocking tiers of classic RTS engines.
///
/// Units are costly cells, not walls: entering a cell held by a counted unit costs a
/// penalty on top of the step, so a path goes around units where the way around is
/// shorter than the penalty, and through them where it is not (a parked unit in the only
/// corridor does not make the goal unreachable; it is asked to make room instead).
///
/// [`Pathfinder::find_around`]: crate::search::Pathfinder::find_around
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AvoidUnits {
    /// Other units are not seen: the path is the one of the map alone.
    Ignore,
    /// Units that stand (arrived, idle, without orders) are avoided; moving ones are not,
    /// since they will have moved on by the time the unit gets there. The default.
    #[default]
    Standing,
    /// Every other unit is avoided, moving or not (for short re-plans of a unit blocked
    /// by traffic).
    All,
}

/// What holds a cell, as [`UnitCells`] records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitKind {
    /// A unit on the move.
    Moving = 1,
    /// A unit that stands still.
    Standing = 2,
}

impl AvoidUnits {
    /// True when a cell held by a unit of `kind` is avoided.
    pub fn avoids(self, kind: UnitKind) -> bool {
        match self {
            AvoidUnits::Ignore => false,
            AvoidUnits::Standing => kind == UnitKind::Standing,
            AvoidUnits::All => true,
        }
    }
}

/// The cells held by units on a map: each cell records the most settled unit over it
/// ([`UnitKind::Standing`] wins over [`UnitKind::Moving`]), so marking is independent of
/// the order units are marked in.
///
/// Built afresh as often as units move: [`UnitCells::clear`] costs O(cells marked since
/// the last clear), [`UnitCells::mark`] O(min(diameter², map cells)); 1 byte per map cell, allocated by
/// the first clear for a size and kept.
///
/// ```
/// use tilepath::grid::{Cell, GridSize};
/// use tilepath::search::{AvoidUnits, UnitCells, UnitKind};
///
/// let mut units = UnitCells::new();
/// units.clear(GridSize::new(8, 8));
/// units.mark(Cell::new(3, 3), 2, UnitKind::Standing);
/// units.mark(Cell::new(4, 4), 1, UnitKind::Moving);
/// assert_eq!(units.kind(Cell::new(4, 4)), Some(UnitKind::Standing));
/// assert_eq!(units.kind(Cell::new(2, 2)), None);
/// // A path that crosses the unit's footprint, seen by an agent of diameter 1.
/// let path = [Cell::new(1, 4), Cell::new(2, 4), Cell::new(3, 4), Cell::new(4, 4)];
/// assert_eq!(units.first_crossed(&path, 1, AvoidUnits::Standing), Some(2));
/// assert_eq!(units.first_crossed(&path, 1, AvoidUnits::Ignore), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct UnitCells {
    size: GridSize,
    kinds: Vec<u8>,
    /// Indices of the cells marked since the last clear.
    marked: Vec<u32>,
}

impl UnitCells {
    /// An empty record; [`UnitCells::clear`] sizes it.
    pub fn new() -> Self {
        Self::default()
    }

    /// The size of the map it is for.
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Forgets every unit, for a map of `size` (buffers are kept).
    pub fn clear(&mut self, size: GridSize) {
        if size != self.size || self.kinds.len() != size.area() {
            self.size = size;
            self.kinds.clear();
            self.kinds.resize(size.area(), 0);
        } else {
            for &i in &self.marked {
                self.kinds[i as usize] = 0;
            }
        }
        self.marked.clear();
    }

    /// Records a unit of `kind` and `diameter` standing at anchor cell `anchor` (its
    /// footprint, see [`footprint`](crate::scenario::footprint); cells off the map are
    /// left out). O(min(diameter², map cells)).
    pub fn mark(&mut self, anchor: Cell, diameter: u32, kind: UnitKind) {
        for c in footprint_on(anchor, diameter, self.size).cells() {
            let i = self.size.index(c);
            if self.kinds[i] == 0 {
                self.marked.push(i as u32);
            }
            self.kinds[i] = self.kinds[i].max(kind as u8);
        }
    }

    /// What holds `cell` (`None` when nothing does, or off the map).
    pub fn kind(&self, cell: Cell) -> Option<UnitKind> {
        if !self.size.contains(cell) {
            return None;
        }
        match self.kinds.get(self.size.index(cell))? {
            1 => Some(UnitKind::Moving),
            2 => Some(UnitKind::Standing),
            _ => None,
        }
    }

    /// True when no unit is recorded.
    pub fn is_empty(&self) -> bool {
        self.marked.is_empty()
    }

    /// True when an agent of `diameter` anchored at `anchor` would overlap a unit that
    /// `avoid` counts. O(min(diameter², map cells)).
    pub fn blocks(&self, anchor: Cell, diameter: u32, avoid: AvoidUnits) -> bool {
        if avoid == AvoidUnits::Ignore || self.is_empty() {
            return false;
        }
        footprint_on(anchor, diameter, self.size)
            .cells()
            .any(|c| self.kind(c).is_some_and(|k| avoid.avoids(k)))
    }

    /// Index of the first cell of `path` after its start where an agent of `diameter`
    /// would overlap a unit that `avoid` counts (its start is where the agent stands:
    /// the units it overlaps there are not in its way). O(path length × diameter²).
    pub fn first_crossed(&self, path: &[Cell], diameter: u32, avoid: AvoidUnits) -> Option<usize> {
        self.crossed(path, diameter, avoid).next()
    }

    /// Indices of the cells of `path` after its start where an agent of `diameter` would
    /// overlap a unit that `avoid` counts, in order.
    pub fn crossed<'a>(
        &'a self,
        path: &'a [Cell],
        diameter: u32,
        avoid: AvoidUnits,
    ) -> impl Iterator<Item = usize> + 'a {
        path.iter()
            .enumerate()
            .skip(1)
            .filter(move |&(_, &c)| self.blocks(c, diameter, avoid))
            .map(|(i, _)| i)
    }
}

/// What a search around units ([`Pathfinder::find_around_with`]) prices in on top of
/// the terrain: the units of `units` that `avoid` counts, entering a cell of one costing
/// `penalty_tiles` straight steps on the profile's cheapest terrain, and the cells of
/// `congestion`, entering a fully congested one costing `congestion_tiles` straight steps
/// (a less congested one in proportion to its level).
///
/// With [`AvoidUnits::Ignore`] neither is priced in: the path is the map's alone.
///
/// [`Pathfinder::find_around_with`]: crate::search::Pathfinder::find_around_with
#[derive(Clone, Copy, Debug)]
pub struct Around<'a> {
    /// The cells units hold.
    pub units: &'a UnitCells,
    /// Which of them are priced in.
    pub avoid: AvoidUnits,
    /// What entering a counted unit's cell costs, in straight steps.
    pub penalty_tiles: f32,
    /// How congested cells have been lately ([`Congestion`]).
    pub congestion: &'a Congestion,
    /// What entering a fully congested cell costs, in straight steps (0: congestion is
    /// not priced in).
    pub congestion_tiles: f32,
}

impl<'a> Around<'a> {
    /// Units only, with no congestion.
    pub fn units(units: &'a UnitCells, avoid: AvoidUnits, penalty_tiles: f32) -> Self {
        static NONE: Congestion = Congestion::EMPTY;
        Self {
            units,
            avoid,
            penalty_tiles,
            congestion: &NONE,
            congestion_tiles: 0.0,
        }
    }

    /// True when units of `units` count on a map of `size`.
    pub fn counts_units(&self, size: GridSize) -> bool {
        self.avoid != AvoidUnits::Ignore && !self.units.is_empty() && self.units.size() == size
    }

    /// True when congestion counts on a map of `size`.
    pub fn counts_congestion(&self, size: GridSize) -> bool {
        self.avoid != AvoidUnits::Ignore
            && penalty(self.congestion_tiles, 1) > 0
            && !self.congestion.is_empty()
            && self.congestion.size() == size
    }
}

/// Step costs with units and congestion priced in: `inner`'s step, plus `penalty` when
/// the agent's footprint at the step's end overlaps a unit that `avoid` counts, plus
/// congestion's price of the highest level under it. Prices are never negative, so
/// `inner`'s heuristic stays admissible and consistent.
#[derive(Clone, Copy)]
pub(crate) struct AroundUnits<'u, C> {
    pub(crate) inner: C,
    /// The units (`None` when they do not count).
    pub(crate) units: Option<&'u UnitCells>,
    pub(crate) avoid: AvoidUnits,
    pub(crate) diameter: u32,
    pub(crate) penalty: Cost,
    /// Congestion (`None` when it does not count) and the price of a full cell.
    pub(crate) congestion: Option<&'u Congestion>,
    pub(crate) congested: Cost,
    pub(crate) width: u32,
}

impl<C: StepCosts> StepCosts for AroundUnits<'_, C> {
    #[inline]
    fn step(&self, from: u32, to: u32, d: Direction) -> Cost {
        let mut cost = self.inner.step(from, to, d);
        let w = self.width.max(1);
        let at = Cell::new((to % w) as i32, (to / w) as i32);
        if let Some(units) = self.units
            && units.blocks(at, self.diameter, self.avoid)
        {
            cost = cost.saturating_add(self.penalty);
        }
        if let Some(congestion) = self.congestion {
            let level = congestion.level_under(at, self.diameter);
            cost = cost.saturating_add(Congestion::price(level, self.congested));
        }
        cost
    }

    #[inline]
    fn heuristic_scale(&self) -> Cost {
        self.inner.heuristic_scale()
    }
}

/// The penalty of entering a unit's cell, worth `tiles` straight steps on the cheapest
/// terrain of a profile whose smallest weight is `min_weight` (on uniform layers the
/// searches count steps at weight 1).
pub(crate) fn penalty(tiles: f32, min_weight: Cost) -> Cost {
    let tiles = if tiles.is_finite() {
        tiles.max(0.0)
    } else {
        0.0
    };
    ((f64::from(tiles) * STRAIGHT as f64) as Cost).saturating_mul(min_weight.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_wider_than_the_map_marks_the_map_and_no_more() {
        let size = GridSize::new(64, 64);
        let mut units = UnitCells::new();
        units.clear(size);
        units.mark(Cell::new(10, 50), u32::MAX, UnitKind::Standing);
        units.mark(Cell::new(-1, -1), 100_000, UnitKind::Moving);
        assert_eq!(units.marked.len(), size.area());
        assert_eq!(units.kind(Cell::new(63, 0)), Some(UnitKind::Standing));
        assert!(units.blocks(Cell::new(0, 63), u32::MAX, AvoidUnits::All));
        units.clear(size);
        assert!(units.is_empty() && units.kind(Cell::new(63, 0)).is_none());
    }
}
