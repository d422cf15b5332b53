//! Searches that steer around other units: A* with units priced in.

use super::{Edits, PathStats, Pathfinder};
use crate::grid::Cost;
use crate::scenario::{CachedScenario, Layer};
use crate::search::astar::{self, Mode};
use crate::search::costs::{StepCosts, UnitCosts};
use crate::search::ends;
use crate::search::query::{Algorithm, OpenList, PathError, PathQuery};
use crate::search::units::{AroundUnits, AvoidUnits, UnitCells, penalty};

impl Pathfinder {
    /// Answers `query` like [`Pathfinder::find`], with the units of `units` that `avoid`
    /// counts priced in: entering a cell where the agent's footprint overlaps one costs
    /// `penalty_tiles` straight steps on the profile's cheapest terrain on top of the
    /// step (see [`AvoidUnits`]). The path is the cheapest under those costs (A\* on the
    /// binary heap, whatever the query's algorithm and open list; the heuristic of plain
    /// A\* stays admissible, penalties only add), so it never crosses a unit where a way
    /// around costs less than the penalties it saves. The cost in the returned
    /// [`PathStats`] is the path's own, without penalties.
    ///
    /// With [`AvoidUnits::Ignore`], an empty `units`, or `units` recorded for a map of
    /// another size, it is [`Pathfinder::find`].
    ///
    /// Complexity: that of A\* on a map whose costly cells are the units' cells, within
    /// the query's limits.
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::search::{AvoidUnits, UnitCells, UnitKind};
    ///
    /// let map = CachedScenario::from_ascii("
    ///     .........
    ///     .........
    ///     .........
    /// ").unwrap();
    /// let mut units = UnitCells::new();
    /// units.clear(map.size());
    /// units.mark(Cell::new(4, 1), 1, UnitKind::Standing);
    /// let query = PathQuery::new(Cell::new(0, 1), Cell::new(8, 1));
    /// let mut pf = Pathfinder::new();
    /// pf.find_around(&map, &query, &units, AvoidUnits::Standing, 8.0).unwrap();
    /// assert!(!pf.path().contains(&Cell::new(4, 1)));
    /// // Moving units are not avoided by `Standing`.
    /// units.clear(map.size());
    /// units.mark(Cell::new(4, 1), 1, UnitKind::Moving);
    /// pf.find_around(&map, &query, &units, AvoidUnits::Standing, 8.0).unwrap();
    /// assert!(pf.path().contains(&Cell::new(4, 1)));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Pathfinder::find`].
    pub fn find_around(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
        units: &UnitCells,
        avoid: AvoidUnits,
        penalty_tiles: f32,
    ) -> Result<PathStats, PathError> {
        if avoid == AvoidUnits::Ignore || units.is_empty() || units.size() != map.size() {
            return self.find(map, query);
        }
        self.smoothed = false;
        self.suspended = None;
        self.edits = Edits::default();
        let max_weight = map.profile(query.profile).map_or(1, |p| p.max_weight());
        self.state.begin(map.size(), &query.limits, max_weight);
        self.waypoints.clear();
        let (weights, layer) = Self::agent(map, query)?;
        let mut settled = ends::settle(layer, query)?;
        // Penalised steps are not what the radix queue's buckets are sized for.
        settled.algorithm = Algorithm::AStar;
        settled.open_list = OpenList::IndexedHeap;
        if settled.in_goal_area_on(layer.shape(), settled.start) {
            self.state.path.push(settled.start);
            return Ok(self.finish(layer, weights, &settled));
        }
        self.state.set_slice(u32::MAX);
        let around = |scale: Cost| (units, avoid, query.diameter, penalty(penalty_tiles, scale));
        let found = if weights.unit_steps() {
            self.search_around(layer, UnitCosts, around(1), &settled)
        } else {
            let scale = StepCosts::heuristic_scale(&weights);
            self.search_around(layer, weights, around(scale), &settled)
        };
        match found {
            Ok(()) => Ok(self.finish(layer, weights, &settled)),
            Err(e) => {
                self.state.path.clear();
                Err(e)
            }
        }
    }

    fn search_around<C: StepCosts>(
        &mut self,
        layer: &Layer,
        inner: C,
        (units, avoid, diameter, penalty): (&UnitCells, AvoidUnits, u32, Cost),
        query: &PathQuery,
    ) -> Result<(), PathError> {
        let costs = AroundUnits {
            inner,
            units,
            avoid,
            diameter,
            penalty,
        };
        let (s, a) = (&mut self.state, &mut self.astar);
        astar::search(s, a, layer, query, Mode::AStar, costs, false, None).map(|_| ())
    }
}
