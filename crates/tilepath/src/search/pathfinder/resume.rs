//! Resuming suspended searches, on the same map or carried over its edits.

use super::{Edits, Pathfinder, Progress, Suspended};
use crate::grid::Cost;
use crate::scenario::{CachedScenario, Layer, Weights};
use crate::search::astar::{self, Mode};
use crate::search::costs::UnitCosts;
use crate::search::ends;
use crate::search::field::DistanceField;
use crate::search::query::{Algorithm, OpenList, PathError, PathQuery};
use crate::search::validate::validate_path;

impl Pathfinder {
    /// Goes on with the search a [`Pathfinder::start`] (or an earlier resume) left
    /// suspended, for at most `budget` more expansions. The answer is always for
    /// the map as it is now, edited since or not.
    ///
    /// When `map` was edited since (its generation differs), the search is carried over
    /// the edits where that is exact, and starts over otherwise:
    ///
    /// - A* and Dijkstra on the heap open list ([`OpenList::IndexedHeap`]), unguided,
    ///   on either grid shape, carry over obstacle and terrain edits that the map can
    ///   still list ([`CachedScenario::edits_since`]) when the query's ends settle as
    ///   before and the profile's weights keep the kind and heuristic scale the search
    ///   started with (uniform or not, the same smallest weight of the terrain on the
    ///   map): nodes near each edited cell whose move from their parent is gone or
    ///   costs another amount are forgotten with the nodes found through them, the
    ///   closed nodes around each edited cell relax their moves on the new map again and
    ///   closed nodes reached more cheaply are reopened. The path found is checked on
    ///   the map of that moment (free cells, legal moves, the cost the search gave it);
    ///   the search starts over in the rare case it fails, having passed through a cell
    ///   blocked since. Either way the cost equals a fresh search's on the edited map.
    ///   Edits that cut the way of more than 16,384 nodes (a wall next to the start of a
    ///   large search) start it over instead: repairing that much at once would cost a
    ///   frame.
    /// - Anything else starts over: terrain edits that change the weights' kind or
    ///   smallest weight (the heuristic must stay the one the search started with), a
    ///   resized map or a registered profile, another map object ([`CachedScenario::id`]), JPS and JPS+
    ///   (their jumps read the map), the radix open list, guided searches (by a field or
    ///   by the layer's landmark table: edits may change the table). An exact
    ///   search ([`Algorithm::Auto`], [`Algorithm::Jps`], [`Algorithm::JpsPlus`],
    ///   [`Algorithm::AStar`] on the radix queue, guided or not) that edits start over a
    ///   second time runs as an unguided A* on the heap from then on, with the same
    ///   optimal cost, so that it carries over later edits. [`Pathfinder::carried_over`],
    ///   [`Pathfinder::edit_restarts`] and [`Pathfinder::edit_setbacks`] tell what
    ///   happened; a caller that must answer on a map edited every frame finishes a
    ///   search set back twice without slicing it (the plugin does).
    ///
    /// This is what lets the plugin keep suspended searches while tiles change under
    /// them: the budget spent on a long search is not lost to the next door opening.
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::search::Progress;
    ///
    /// let mut map = CachedScenario::from_ascii("
    ///     ..........
    ///     .########.
    ///     ..........
    /// ").unwrap();
    /// let query = PathQuery::new(Cell::new(0, 2), Cell::new(9, 2)).algorithm(Algorithm::AStar);
    /// let mut pf = Pathfinder::new();
    /// assert!(matches!(pf.start(&map, &query, 3), Ok(Progress::Suspended { .. })));
    /// // A wall across the straight way while the search waits: it goes around on top.
    /// map.set_obstacle(Cell::new(5, 2), true);
    /// let Ok(Progress::Done(stats)) = pf.resume(&map, u32::MAX) else { panic!() };
    /// assert!(pf.carried_over());
    /// assert_eq!(stats.cost, Pathfinder::new().find(&map, &query).unwrap().cost);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Pathfinder::find`], and [`PathError::NothingToResume`] when no search is
    /// suspended.
    pub fn resume(&mut self, map: &CachedScenario, budget: u32) -> Result<Progress, PathError> {
        self.resume_with(map, budget, None)
    }

    /// [`Pathfinder::resume`] for a search started with [`Pathfinder::start_guided`]:
    /// hand it the same field, grown since or not (the search keeps the bound it froze
    /// when it started). A search started without a field goes on without one; a guided
    /// search handed another field, or none, starts over with what it is handed, and so
    /// does a guided search on an edited map.
    ///
    /// # Errors
    ///
    /// As [`Pathfinder::resume`].
    pub fn resume_guided(
        &mut self,
        map: &CachedScenario,
        field: &DistanceField,
        budget: u32,
    ) -> Result<Progress, PathError> {
        self.resume_with(map, budget, Some(field))
    }

    /// True while a search waits for [`Pathfinder::resume`].
    pub fn is_suspended(&self) -> bool {
        self.suspended.is_some()
    }

    /// True when the current (or last) search went on across map edits since its last
    /// restart, instead of starting over (see [`Pathfinder::resume`]).
    pub fn carried_over(&self) -> bool {
        self.edits.carried
    }

    /// Times map edits made the current (or last) search start over (see
    /// [`Pathfinder::resume`]); 0 for a search that never met an edit.
    pub fn edit_restarts(&self) -> u32 {
        u32::from(self.edits.restarts)
    }

    /// Times map edits set the current (or last) search back: each restart, and each
    /// carry-over that forgot at least as many nodes as the search had expanded since
    /// the edits before (so that resuming it made no headway). A search resumed in slices
    /// on a map whose every edit sets it back never ends; this count is what tells the
    /// caller to stop slicing it.
    pub fn edit_setbacks(&self) -> u32 {
        self.edits.setbacks
    }

    fn resume_with(
        &mut self,
        map: &CachedScenario,
        budget: u32,
        field: Option<&DistanceField>,
    ) -> Result<Progress, PathError> {
        let suspended = self.suspended.take().ok_or(PathError::NothingToResume)?;
        let moved = suspended.map != map.id();
        if moved || suspended.generation != map.generation() || suspended.size != map.size() {
            if let Some(query) = self.carry_over(map, &suspended) {
                let (weights, layer) = Self::agent(map, &query)?;
                self.edits.carried = true;
                let forgotten = self.astar.forgotten();
                let progress = self.state.expanded().saturating_sub(self.edits.mark);
                if forgotten > 0 && forgotten >= progress as usize {
                    self.edits.setbacks += 1;
                }
                self.edits.mark = self.state.expanded();
                self.state.set_slice(budget);
                return self.step(map, layer, weights, suspended.original, query, true, None);
            }
            return self.start_over(map, &suspended.original, budget, field);
        }
        let query = suspended.query;
        let (weights, layer) = Self::agent(map, &query)?;
        let guide = match (suspended.guide, field) {
            (None, _) if suspended.table => Self::table(map, layer, &query, &weights),
            (None, _) => None,
            (Some(frozen), Some(f))
                if f.goal() == frozen.landmark && f.generation() == frozen.generation =>
            {
                Self::guide(map, layer, &query, &weights, Some(f), Some(frozen))
            }
            // The heuristic must stay the one the search started with.
            (Some(_), _) => return self.start_with(map, &suspended.original, budget, field),
        };
        // The same kinds of bound as when it started, or it starts over.
        let same = guide.and_then(|g| g.frozen()).is_some() == suspended.guide.is_some()
            && guide.is_some_and(|g| g.has_table()) == suspended.table;
        if !same {
            return self.start_with(map, &suspended.original, budget, field);
        }
        self.state.set_slice(budget);
        self.step(map, layer, weights, suspended.original, query, true, guide)
    }

    /// Brings the state of `suspended` (left on an earlier generation) up to date with
    /// the edits since, when that is exact (see [`Pathfinder::resume`]); returns the
    /// settled query to go on with, or `None` to start over.
    fn carry_over(&mut self, map: &CachedScenario, suspended: &Suspended) -> Option<PathQuery> {
        let query = suspended.query;
        if suspended.size != map.size()
            || suspended.map != map.id()
            || suspended.guide.is_some()
            || suspended.table
            || query.open_list == OpenList::Radix
        {
            return None;
        }
        let (weights, layer) = Self::agent(map, &query).ok()?;
        let mode = match Self::resolve(&query, &weights) {
            Algorithm::AStar => Mode::AStar,
            Algorithm::Dijkstra => Mode::Dijkstra,
            _ => return None,
        };
        // The costs and heuristic must stay those the open nodes were keyed with (this
        // also keeps `resolve`'s choice, which reads only whether the weights are uniform).
        if Self::cost_scale(&weights) != suspended.scale {
            return None;
        }
        let edits = map.edits_since(suspended.generation)?;
        // The ends must settle as they did: a start or goal blocked since, or a goal
        // that became reachable since, makes it another query.
        let settled = ends::settle(layer, &suspended.original).ok()?;
        if (settled.start, settled.goal, settled.options.goal_radius)
            != (query.start, query.goal, query.options.goal_radius)
        {
            return None;
        }
        let (s, a, cells) = (
            &mut self.state,
            &mut self.astar,
            edits.iter().map(|e| e.cell),
        );
        let carried = if weights.unit_steps() {
            astar::repair(s, a, layer, &query, mode, UnitCosts, cells)
        } else {
            astar::repair(s, a, layer, &query, mode, weights, cells)
        };
        carried.then_some(query)
    }

    /// Starts `original` over on `map` after edits, with `budget` expansions; a search
    /// of [`Algorithm::Auto`] started over before runs as A* (see [`Pathfinder::resume`]).
    pub(super) fn start_over(
        &mut self,
        map: &CachedScenario,
        original: &PathQuery,
        budget: u32,
        field: Option<&DistanceField>,
    ) -> Result<Progress, PathError> {
        let restarts = self.edits.restarts.saturating_add(1);
        let setbacks = self.edits.setbacks + 1;
        let mut query = *original;
        let mut field = field;
        if restarts > 1 {
            // An exact search runs as the search that carries over edits, same cost.
            match query.algorithm {
                Algorithm::Auto | Algorithm::Jps | Algorithm::JpsPlus | Algorithm::AStar => {
                    query.algorithm = Algorithm::AStar;
                    query.open_list = OpenList::IndexedHeap;
                    field = None;
                }
                Algorithm::Dijkstra => query.open_list = OpenList::IndexedHeap,
                _ => {}
            }
        }
        let progress = self.start_with(map, &query, budget, field);
        self.edits = Edits {
            carried: false,
            restarts,
            setbacks,
            mark: 0,
        };
        progress
    }

    /// True when the path the carried search found holds on `layer`: free cells, legal
    /// moves, and the cost the search gave its last cell (see [`Pathfinder::resume`]).
    pub(super) fn carried_path_holds(
        &self,
        layer: &Layer,
        weights: Weights<'_>,
        query: &PathQuery,
    ) -> bool {
        let path = &self.state.path;
        let Some(&last) = path.last() else {
            return false;
        };
        if validate_path(layer, path, query.start, last, query.options.connectivity).is_err() {
            return false;
        }
        // Unit-cost searches count steps; the weights scale them by the uniform weight.
        // Weighted searches (on hexagons even when uniform) count the weights already.
        let scale = match weights.uniform() {
            Some(w) if weights.unit_steps() => Cost::from(w),
            _ => 1,
        };
        let searched = self.state.g(self.state.index(last)) * scale;
        weights.path_cost_and_length(path).0 == Some(searched)
    }
}
