//! Searches that steer around other units: A* with units priced in.

use super::{Edits, PathStats, Pathfinder};
use crate::grid::Cost;
use crate::scenario::{CachedScenario, Layer};
use crate::search::astar::{self, Mode};
use crate::search::congestion::Congestion;
use crate::search::costs::{StepCosts, UnitCosts};
use crate::search::ends;
use crate::search::query::{Algorithm, OpenList, PathError, PathQuery};
use crate::search::units::{Around, AroundUnits, AvoidUnits, UnitCells, penalty};

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
        self.find_around_with(map, query, &Around::units(units, avoid, penalty_tiles))
    }

    /// Answers `query` like [`Pathfinder::find_around`], with what `around` prices in:
    /// the units it counts and, where cells are congested, congestion's price in
    /// proportion to each cell's level ([`Around`]). The path is the cheapest under the
    /// terrain's costs plus those prices (A\* on the binary heap, the heuristic
    /// admissible since prices only add); the cost in the returned [`PathStats`] is the
    /// path's own, without them.
    ///
    /// With [`AvoidUnits::Ignore`], or nothing to price on a map of this size, it is
    /// [`Pathfinder::find`].
    ///
    /// Complexity: that of A\* on a map whose costly cells are the units' and the
    /// congested ones, within the query's limits.
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::search::{Around, AvoidUnits, Congestion, UnitCells};
    ///
    /// let map = CachedScenario::from_ascii("
    ///     .........
    ///     .#######.
    ///     .........
    /// ").unwrap();
    /// let (mut units, mut congestion) = (UnitCells::new(), Congestion::new());
    /// units.clear(map.size());
    /// congestion.resize(map.size());
    /// // A jam along the top row: the way along the bottom is taken while it lasts.
    /// for x in 2..7 {
    ///     congestion.raise(Cell::new(x, 0), 1, Congestion::FULL);
    /// }
    /// let query = PathQuery::new(Cell::new(1, 0), Cell::new(7, 0));
    /// let mut pf = Pathfinder::new();
    /// let mut path_with = |congestion: &Congestion| -> Vec<Cell> {
    ///     let around = Around {
    ///         units: &units,
    ///         avoid: AvoidUnits::Standing,
    ///         penalty_tiles: 8.0,
    ///         congestion,
    ///         congestion_tiles: 4.0,
    ///     };
    ///     pf.find_around_with(&map, &query, &around).unwrap();
    ///     pf.path().to_vec()
    /// };
    /// assert!(path_with(&congestion).contains(&Cell::new(4, 2)));
    /// // Once the jam has cleared, the straight way again.
    /// congestion.cool(Congestion::FULL);
    /// let path = path_with(&congestion);
    /// assert!(path.contains(&Cell::new(4, 0)));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Pathfinder::find`].
    pub fn find_around_with(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
        around: &Around,
    ) -> Result<PathStats, PathError> {
        let (units, congestion) = (
            around.counts_units(map.size()).then_some(around.units),
            around
                .counts_congestion(map.size())
                .then_some(around.congestion),
        );
        if units.is_none() && congestion.is_none() {
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
        let priced = Priced {
            units,
            congestion,
            around,
            diameter: query.diameter,
            width: map.size().width,
        };
        let found = if weights.unit_steps() {
            self.search_around(layer, priced.costs(UnitCosts, 1), &settled)
        } else {
            let scale = StepCosts::heuristic_scale(&weights);
            self.search_around(layer, priced.costs(weights, scale), &settled)
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
        costs: AroundUnits<C>,
        query: &PathQuery,
    ) -> Result<(), PathError> {
        let (s, a) = (&mut self.state, &mut self.astar);
        astar::search(s, a, layer, query, Mode::AStar, costs, false, None).map(|_| ())
    }
}

/// What a search around units counts, before the step costs it wraps are known.
struct Priced<'a> {
    units: Option<&'a UnitCells>,
    congestion: Option<&'a Congestion>,
    around: &'a Around<'a>,
    diameter: u32,
    width: u32,
}

impl<'a> Priced<'a> {
    /// `inner`'s steps with the prices in, on a profile whose cheapest step is `scale`.
    fn costs<C>(&self, inner: C, scale: Cost) -> AroundUnits<'a, C> {
        AroundUnits {
            inner,
            units: self.units,
            avoid: self.around.avoid,
            diameter: self.diameter,
            penalty: penalty(self.around.penalty_tiles, scale),
            congestion: self.congestion,
            congested: penalty(self.around.congestion_tiles, scale),
            width: self.width,
        }
    }
}
