//! The reusable pathfinder: query checks, dispatch to the algorithms, buffers kept between queries.

use super::astar::{self, AStarState};
use super::costs::{Step, StepCosts, UnitCosts};
use super::ends;
use super::evasion::{self, EvasionState};
use super::field::DistanceField;
use super::jps::{self, JpsState};
use super::landmark::{Frozen, Landmark};
use super::query::{Algorithm, OpenList, PathError, PathQuery};
use super::state::SearchState;
use super::uninformed::{self, UninformedState};
use crate::grid::{Cell, Connectivity, Cost};
use crate::scenario::{CachedScenario, Layer, Weights};
use crate::smoothing;

mod around;
mod guide;
mod resume;

/// What a successful search reports; the cells are in [`Pathfinder::path`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathStats {
    /// Fixed-point cost of the cell path under the query's profile (see
    /// [`crate::scenario::MovementProfile`]); the octile length in fixed point
    /// ([`crate::grid::STRAIGHT`] per straight step) where every weight is 1.
    /// [`crate::grid::cost_to_f64`] converts it.
    pub cost: Cost,
    /// Octile length in cells (straight step 1, diagonal √2), whatever the weights.
    pub length: f64,
    /// Length of the smoothed waypoint polyline (equals `length` without smoothing).
    pub smoothed_length: f64,
    /// Nodes expanded (cells taken off the open list, or traced for evasion).
    pub expanded: u32,
    /// The cell the path starts from: the query's start, or the nearest standable cell
    /// when the start was blocked and [`PathQuery::nearest_start`] allowed moving it.
    pub start: Cell,
    /// The cell the path ends on: the goal, a cell of the goal area
    /// ([`PathQuery::goal_radius`]), or the nearest reachable cell
    /// ([`PathQuery::nearest_goal`]).
    pub reached: Cell,
}

/// A pathfinder that owns all its search buffers and reuses them between queries.
/// Keep one per thread; the map ([`CachedScenario`]) is shared read-only.
///
/// Buffers are sized lazily: the per-cell records every search uses on the first query
/// on a map of a given size, the per-cell buffers that only some algorithms need when
/// that algorithm first runs on it, and the lists (open list, queue, stack, traces,
/// path, waypoints) by growth to the largest query answered so far. A *warm*
/// pathfinder, one that has answered queries at least as large on the map with the
/// same algorithm, allocates nothing per query: the zero-garbage A* this crate grew
/// from, with reused collections, an indexed heap, ties toward lower h and step limits.
///
/// # Memory
///
/// [`Pathfinder::memory_bytes`] sums the capacities. Each algorithm's per-cell buffers,
/// allocated the first time it runs on a map at least that large:
///
/// | algorithm | per-cell buffers | bytes per cell |
/// |---|---|---|
/// | A*, JPS, Dijkstra, best-first | records 8, heap positions 4 | 12 |
/// | JPS+ | records 8 (its open list keeps no positions; its jump table, 16 bytes per cell, is the map's) | 8 |
/// | BFS | records 8, levels 4 | 12 |
/// | DFS, IDDFS | records 8 | 8 |
/// | evasion | records 8, path positions 4 | 12 |
///
/// Above the per-cell buffers come the lists (open list, queue, stack, traces, path),
/// which grow with the largest query and stay small next to the map.
/// Each algorithm adds its own per-cell buffer once, so a pathfinder that has run every
/// algorithm holds about 20 bytes per cell (records 8, heap positions 4, BFS levels 4,
/// evasion positions 4). The record packs the cost `g` (up to 48 bits), the parent
/// as a direction (3 bits), a closed flag and a generation stamp into one `u64`;
/// parents as directions rather than ids are what make 8 bytes enough.
///
/// ```
/// use tilepath::prelude::*;
///
/// let map = CachedScenario::from_ascii("
///     ......
///     .####.
///     ......
/// ").unwrap();
/// let mut pf = Pathfinder::new();
/// let stats = pf.find(&map, &PathQuery::new(Cell::new(0, 1), Cell::new(5, 1))).unwrap();
/// assert_eq!(pf.path().first(), Some(&Cell::new(0, 1)));
/// assert_eq!(pf.path().last(), Some(&Cell::new(5, 1)));
/// // No corner cutting: around the wall by straight steps only.
/// assert_eq!(stats.length, 7.0);
/// ```
#[derive(Debug, Default)]
pub struct Pathfinder {
    state: SearchState,
    astar: AStarState,
    jps: JpsState,
    uninformed: UninformedState,
    evasion: EvasionState,
    waypoints: Vec<Cell>,
    smoothed: bool,
    suspended: Option<Suspended>,
    edits: Edits,
    /// The current search runs from the query's goal to its start (see
    /// [`Pathfinder::from_goal`]); its path is turned round when found.
    reversed: bool,
}

/// What a sliced search answered so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// The search ended with a path; the cells are in [`Pathfinder::path`].
    Done(PathStats),
    /// The slice's budget is spent; [`Pathfinder::resume`] goes on.
    Suspended {
        /// Nodes expanded so far, all slices together.
        expanded: u32,
    },
}

/// A search waiting for [`Pathfinder::resume`]: the query as asked, the query as it
/// runs (ends settled), the map it runs on and the landmark bound it was guided by.
#[derive(Clone, Copy, Debug)]
struct Suspended {
    original: PathQuery,
    query: PathQuery,
    generation: u64,
    /// [`CachedScenario::id`] of the map it runs on.
    map: u64,
    size: crate::grid::GridSize,
    guide: Option<Frozen>,
    /// It runs with its layer's landmark table.
    table: bool,
    /// How it counts costs ([`Pathfinder::cost_scale`]).
    scale: Option<u8>,
}

/// How the current search fared with map edits (see [`Pathfinder::resume`]).
#[derive(Clone, Copy, Debug, Default)]
struct Edits {
    /// The search was carried over edits: its path is checked before it is answered.
    carried: bool,
    /// Times edits made it start over.
    restarts: u8,
    /// Times edits set it back: restarts, and carry-overs that forgot at least as many
    /// nodes as it had expanded since the edits before (see
    /// [`Pathfinder::edit_setbacks`]).
    setbacks: u32,
    /// Nodes expanded when edits last reached it.
    mark: u32,
}

impl Pathfinder {
    /// An empty pathfinder; buffers grow on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers `query` on `map`. On success the cells are in [`Pathfinder::path`].
    ///
    /// Checks, in order: profile, diameter, bounds, start and goal blocked (moved to the
    /// nearest standable or reachable cell when the query allows it), components
    /// (unreachable answered in O(1)); then runs the query's algorithm.
    ///
    /// # Errors
    ///
    /// The typed failures of [`PathError`]: a bad query (profile, diameter, bounds,
    /// blocked ends), [`PathError::Unreachable`] without searching,
    /// [`PathError::LimitReached`] when a limit stops the search, and
    /// [`PathError::NotFound`] from the bounded [`Algorithm::Dfs`] when no path fits its
    /// radius.
    pub fn find(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
    ) -> Result<PathStats, PathError> {
        match self.start(map, query, u32::MAX)? {
            Progress::Done(stats) => Ok(stats),
            // An unbounded slice ends only when the search does (or a limit stops it).
            Progress::Suspended { expanded } => Err(PathError::NotFound { expanded }),
        }
    }

    /// Starts `query` on `map` and expands at most `budget` nodes before yielding
    /// ([`Progress::Suspended`]); [`Pathfinder::resume`] goes on from where it stopped,
    /// so a search larger than a frame's budget is spread over several frames without
    /// starting over, and ends with the answer of [`Pathfinder::find`]: exactly that
    /// answer for A*, Dijkstra and best-first; for JPS and JPS+ a path of the same cost
    /// and ends, which may break ties between equal paths otherwise and expand other
    /// nodes (see below).
    ///
    /// A*, Dijkstra, best-first, JPS and JPS+ (and [`Algorithm::Auto`]) yield between
    /// expansions, and every node they expand counts as one: a slice of `budget` expands
    /// at most `budget` nodes (the overrun constant is 0). A JPS diagonal walk that
    /// meets a jump point once the budget is spent leaves it on the open list for the
    /// next slice instead of expanding it. The other algorithms run to the end in one
    /// slice. Limits apply to the whole search, all slices together; the time
    /// budget runs from this call.
    ///
    /// # Errors
    ///
    /// As [`Pathfinder::find`].
    pub fn start(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
        budget: u32,
    ) -> Result<Progress, PathError> {
        self.start_with(map, query, budget, None)
    }

    /// Answers `query` like [`Pathfinder::find`], with `field` as a landmark: its exact
    /// distances to its own goal `g` bound the cost to the query's goal `s` from below
    /// (`d(x, s) >= d(x, g) - d(s, g)`, see the `landmark` module), which A* uses beside
    /// the octile distance. The answer is the same optimal cost as without the field;
    /// when `s` lies near `g` the search expands little more than its path, on any map.
    /// This is how the units of one group order that end on distinct cells around a
    /// shared goal (claimed cells, formation slots) share the work of one field.
    ///
    /// The field is used when it fits: built on this map (same generation), for the
    /// query's profile and diameter, the goal settled in it, a single goal cell (no
    /// goal area), and an A*, JPS or `Auto` query (run as A*). Otherwise the query runs
    /// as [`Pathfinder::find`] would run it. The field may still be growing: its
    /// frontier bounds the cells it has not settled. An `Auto` query on a weighted layer
    /// reads the layer's landmark table too and takes the larger of the two bounds; with
    /// a complete field it may then run from the query's goal, by the rule of
    /// [`Algorithm::Auto`] (the path is turned round).
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::scenario::ProfileId;
    /// use tilepath::search::DistanceField;
    ///
    /// let map = CachedScenario::from_ascii("
    ///     ..........
    ///     .########.
    ///     .#......#.
    ///     .#.####.#.
    ///     .#......#.
    ///     ..........
    /// ").unwrap();
    /// // One field toward the group's goal (9, 5)...
    /// let mut field = DistanceField::new(&map, Cell::new(9, 5), ProfileId::DEFAULT, 1).unwrap();
    /// while !field.grow(&map, 64) {}
    /// // ...guides a unit's search to its own cell (8, 5) next to it.
    /// let query = PathQuery::new(Cell::new(2, 2), Cell::new(8, 5)).algorithm(Algorithm::AStar);
    /// let mut pf = Pathfinder::new();
    /// let guided = pf.find_guided(&map, &query, &field).unwrap();
    /// let plain = pf.find(&map, &query).unwrap();
    /// assert_eq!(guided.cost, plain.cost);
    /// assert!(guided.expanded <= plain.expanded);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Pathfinder::find`].
    pub fn find_guided(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
        field: &DistanceField,
    ) -> Result<PathStats, PathError> {
        match self.start_with(map, query, u32::MAX, Some(field))? {
            Progress::Done(stats) => Ok(stats),
            Progress::Suspended { expanded } => Err(PathError::NotFound { expanded }),
        }
    }

    /// [`Pathfinder::start`] guided by `field` as in [`Pathfinder::find_guided`]; resume
    /// it with [`Pathfinder::resume_guided`] and the same field (grown or not).
    ///
    /// # Errors
    ///
    /// As [`Pathfinder::find`].
    pub fn start_guided(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
        field: &DistanceField,
        budget: u32,
    ) -> Result<Progress, PathError> {
        self.start_with(map, query, budget, Some(field))
    }

    fn start_with(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
        budget: u32,
        field: Option<&DistanceField>,
    ) -> Result<Progress, PathError> {
        self.smoothed = false;
        self.suspended = None;
        self.reversed = false;
        self.edits = Edits::default();
        let size = map.size();
        let max_weight = map.profile(query.profile).map_or(1, |p| p.max_weight());
        // Resets stamps and outputs in O(1), so a rejected query leaves nothing stale behind.
        self.state.begin(size, &query.limits, max_weight);
        self.waypoints.clear();
        let (weights, layer) = Self::agent(map, query)?;
        let mut settled = ends::settle(layer, query)?;
        // Auto runs JPS+ where online JPS would run and the layer's table is built; the
        // choice is pinned in the query so that a resumed search keeps it.
        if settled.algorithm == Algorithm::Auto
            && Self::resolve(&settled, &weights) == Algorithm::Jps
            && layer.jump_table().is_some()
        {
            settled.algorithm = Algorithm::JpsPlus;
        }
        if settled.in_goal_area_on(layer.shape(), settled.start) {
            self.state.path.push(settled.start);
            return Ok(Progress::Done(self.finish(layer, weights, &settled)));
        }
        self.state.set_slice(budget);
        let mut run = settled;
        let mut guide = Self::guide(map, layer, &settled, &weights, field, None);
        let tabled = guide.is_some_and(|g| g.has_table());
        let turns = match guide {
            Some(Landmark::Table(_)) => true,
            Some(Landmark::Both(f, _)) => f.is_two_sided(),
            _ => false,
        };
        if turns && Self::from_goal(&weights, layer, &settled) {
            // The bound is read toward the other end.
            self.reversed = true;
            run = settled.turned_round();
            guide = Self::guide(map, layer, &run, &weights, field, None);
        }
        if run.open_list == OpenList::Auto {
            // Pinned in the query that runs, so that a resumed search keeps it.
            run.open_list = if tabled {
                OpenList::Radix
            } else {
                OpenList::IndexedHeap
            };
        }
        self.step(map, layer, weights, *query, run, false, guide)
    }

    /// The weights of `query`'s profile and the layer of its agent on `map`.
    ///
    /// # Errors
    ///
    /// [`PathError::UnknownProfile`] and [`PathError::InvalidDiameter`].
    fn agent<'m>(
        map: &'m CachedScenario,
        query: &PathQuery,
    ) -> Result<(Weights<'m>, &'m Layer), PathError> {
        let profile = query.profile;
        let weights = map
            .weights(profile)
            .ok_or(PathError::UnknownProfile { profile })?;
        let layer = map
            .layer_for(profile, query.diameter)
            .ok_or(PathError::InvalidDiameter {
                diameter: query.diameter,
            })?;
        Ok((weights, layer))
    }

    /// Runs one slice of the settled `query` (asked as `original`) and turns its outcome
    /// into [`Progress`], remembering a suspended search.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        map: &CachedScenario,
        layer: &Layer,
        weights: Weights<'_>,
        original: PathQuery,
        query: PathQuery,
        resume: bool,
        guide: Option<Landmark<'_>>,
    ) -> Result<Progress, PathError> {
        match self.run(layer, weights, &query, resume, guide) {
            Ok(Step::Found)
                if self.edits.carried && !self.carried_path_holds(layer, weights, &query) =>
            {
                // `astar::repair` leaves no way through a cell blocked since; starting
                // over keeps the answer exact should that ever fail.
                debug_assert!(false, "a carried search found a path the map no longer has");
                self.start_over(map, &original, self.state.slice_left(), None)
            }
            Ok(Step::Found) if self.reversed => {
                self.state.path.reverse();
                let query = query.turned_round();
                Ok(Progress::Done(self.finish(layer, weights, &query)))
            }
            Ok(Step::Found) => Ok(Progress::Done(self.finish(layer, weights, &query))),
            Ok(Step::Suspended) => {
                self.suspended = Some(Suspended {
                    original,
                    query,
                    generation: map.generation(),
                    map: map.id(),
                    size: map.size(),
                    guide: guide.and_then(|g| g.frozen()),
                    table: guide.is_some_and(|g| g.has_table()),
                    scale: Self::cost_scale(&weights),
                });
                Ok(Progress::Suspended {
                    expanded: self.state.expanded(),
                })
            }
            Err(e) => {
                self.state.path.clear();
                Err(e)
            }
        }
    }

    /// The statistics (and smoothed waypoints) of the path in the shared state.
    fn finish(&mut self, layer: &Layer, weights: Weights<'_>, query: &PathQuery) -> PathStats {
        debug_assert_eq!(self.state.path.first(), Some(&query.start));
        debug_assert!(
            self.state
                .path
                .last()
                .is_some_and(|&c| query.in_goal_area_on(layer.shape(), c))
        );
        let (cost, length) = weights.path_cost_and_length(&self.state.path);
        let cost = cost.unwrap_or(Cost::MAX);
        let smoothed_length = if query.options.smooth && layer.shape().is_square() {
            self.smoothed = true;
            smoothing::smooth_weighted(layer, weights, &self.state.path, &mut self.waypoints);
            crate::grid::path_length(&self.waypoints)
        } else {
            length
        };
        PathStats {
            cost,
            length,
            smoothed_length,
            expanded: self.state.expanded(),
            start: query.start,
            reached: self.state.path.last().copied().unwrap_or(query.goal),
        }
    }

    /// The algorithm that runs for `query` on a layer with `weights`: [`Algorithm::Auto`]
    /// resolved, and [`Algorithm::Jps`] and [`Algorithm::JpsPlus`] replaced by A* where
    /// they would not be exact (cardinal moves, a goal area, or a layer whose passable
    /// cells weigh differently). `Auto` resolves to `Jps` here, which does not look at
    /// the layer; [`Pathfinder::find`] runs it as `JpsPlus` on a layer whose jump table
    /// is built ([`crate::scenario::Layer::jump_table`]), with the same costs.
    ///
    /// On hexagonal grids ([`Weights::shape`]) only A\*, Dijkstra and best-first run:
    /// every other algorithm runs as A\*, with the same optimal costs (breadth-first's
    /// included, every hexagonal step being as long as the next).
    pub fn resolve(query: &PathQuery, weights: &Weights<'_>) -> Algorithm {
        if !weights.shape().is_square() {
            return match query.algorithm {
                Algorithm::Dijkstra | Algorithm::BestFirst => query.algorithm,
                _ => Algorithm::AStar,
            };
        }
        let jps_fits = query.options.connectivity == Connectivity::Octile
            && weights.uniform().is_some()
            && query.options.goal_radius == 0;
        match query.algorithm {
            Algorithm::Auto | Algorithm::Jps if jps_fits => Algorithm::Jps,
            Algorithm::JpsPlus if jps_fits => Algorithm::JpsPlus,
            Algorithm::Auto | Algorithm::Jps | Algorithm::JpsPlus => Algorithm::AStar,
            other => other,
        }
    }

    /// How a search with `weights` counts costs: `None` on the unit-cost engine
    /// ([`Weights::unit_steps`]), otherwise the smallest weight, the scale of its
    /// heuristic. A terrain edit can change it (the map's cheapest or last differing
    /// terrain painted over); a suspended search is carried over edits only while it is
    /// unchanged.
    fn cost_scale(weights: &Weights<'_>) -> Option<u8> {
        (!weights.unit_steps()).then(|| weights.min())
    }

    /// Runs the query's algorithm on its own state and the shared one: the unit-cost
    /// engine on uniform layers (weights there scale every path alike), the weighted one
    /// otherwise; a guided query runs A* with its landmark.
    fn run(
        &mut self,
        layer: &Layer,
        weights: Weights<'_>,
        query: &PathQuery,
        resume: bool,
        guide: Option<Landmark<'_>>,
    ) -> Result<Step, PathError> {
        if weights.unit_steps() {
            self.run_with(layer, UnitCosts, weights, query, resume, guide)
        } else {
            self.run_with(layer, weights, weights, query, resume, guide)
        }
    }

    fn run_with(
        &mut self,
        layer: &Layer,
        costs: impl StepCosts,
        weights: Weights<'_>,
        query: &PathQuery,
        resume: bool,
        guide: Option<Landmark<'_>>,
    ) -> Result<Step, PathError> {
        let s = &mut self.state;
        let a = &mut self.astar;
        let found = |r: Result<(), PathError>| r.map(|()| Step::Found);
        let (astar, dijkstra, greedy) = (
            astar::Mode::AStar,
            astar::Mode::Dijkstra,
            astar::Mode::Greedy,
        );
        if guide.is_some() {
            return astar::search(s, a, layer, query, astar, costs, resume, guide);
        }
        match Self::resolve(query, &weights) {
            Algorithm::AStar | Algorithm::Auto => {
                astar::search(s, a, layer, query, astar, costs, resume, None)
            }
            Algorithm::Dijkstra => astar::search(s, a, layer, query, dijkstra, costs, resume, None),
            Algorithm::BestFirst => astar::search(s, a, layer, query, greedy, costs, resume, None),
            Algorithm::Jps => jps::search(s, &mut self.jps, layer, query, resume),
            Algorithm::JpsPlus => {
                let table = layer.build_jump_table();
                jps::plus::search(s, &mut self.jps, layer, table, query, resume)
            }
            Algorithm::Bfs => found(uninformed::bfs(s, &mut self.uninformed, layer, query)),
            Algorithm::Dfs => found(uninformed::dfs(s, &mut self.uninformed, layer, query)),
            Algorithm::Iddfs => found(uninformed::iddfs(s, &mut self.uninformed, layer, query)),
            Algorithm::Evasion => found(evasion::search(s, &mut self.evasion, layer, query)),
        }
    }

    /// Cells of the last found path, start and goal included; empty after a failure.
    pub fn path(&self) -> &[Cell] {
        &self.state.path
    }

    /// Smoothed waypoints of the last path when the query asked for smoothing,
    /// otherwise the cell path itself.
    pub fn waypoints(&self) -> &[Cell] {
        if self.smoothed {
            &self.waypoints
        } else {
            &self.state.path
        }
    }

    /// Nodes expanded by the last query, found or not.
    pub fn last_expanded(&self) -> u32 {
        self.state.expanded()
    }

    /// Cells the last query touched (opened, closed or traced), for debug views.
    pub fn explored(&self) -> impl Iterator<Item = Cell> + '_ {
        self.state.explored()
    }

    /// Bytes of heap memory held by the pathfinder's buffers: the capacity of every
    /// buffer times its element size (the shared per-cell records, the heap, the
    /// per-algorithm buffers, path and waypoints). O(1). The table in the type's docs
    /// gives the per-cell figures; the struct itself (a few hundred bytes) is not counted.
    pub fn memory_bytes(&self) -> usize {
        self.state.memory_bytes()
            + self.astar.memory_bytes()
            + self.jps.memory_bytes()
            + self.uninformed.memory_bytes()
            + self.evasion.memory_bytes()
            + self.waypoints.capacity() * size_of::<Cell>()
    }
}
