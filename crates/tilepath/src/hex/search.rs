//! Exact searches on hexagonal maps: A*, Dijkstra and breadth-first, sliced, allocation-free.

use std::fmt;

use super::carry::{self, Growth};
use super::coord::Hex;
use super::map::{HexMap, MAX_HEX_RADIUS};
use super::records::Records;
use crate::grid::Cost;

/// Which search a [`HexQuery`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HexAlgorithm {
    /// A* with the hex distance times the map's smallest weight: optimal, and expands
    /// the fewest hexagons of the three. The default.
    #[default]
    AStar,
    /// Dijkstra: optimal; expands every hexagon cheaper than the goal. A reference.
    Dijkstra,
    /// Breadth-first: the fewest steps, ignoring weights.
    BreadthFirst,
}

/// One search on a [`HexMap`]: from `start` to `goal` for an agent of `radius`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexQuery {
    /// Where the agent stands.
    pub start: Hex,
    /// Where it goes.
    pub goal: Hex,
    /// The agent covers the hexagons within `radius` steps of its centre (0: one hexagon).
    pub radius: u32,
    /// Which search runs.
    pub algorithm: HexAlgorithm,
    /// Most hexagons the search may expand, over all its slices (`None`: no limit).
    pub max_expansions: Option<u64>,
    /// When the goal cannot be reached (or stood on), go to the reachable hexagon
    /// nearest to it instead: the fewest steps from the goal, then the cheapest. The
    /// search then expands every hexagon the start reaches.
    pub nearest_goal: bool,
}

impl HexQuery {
    /// An A* query from `start` to `goal` for a one-hexagon agent, without limit.
    pub const fn new(start: Hex, goal: Hex) -> Self {
        Self {
            start,
            goal,
            radius: 0,
            algorithm: HexAlgorithm::AStar,
            max_expansions: None,
            nearest_goal: false,
        }
    }
}

/// Why a hexagonal search gave no path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexPathError {
    /// The agent cannot stand on its start: a blocked hexagon within its radius, or the
    /// start is off the map.
    StartBlocked {
        /// The start.
        hex: Hex,
    },
    /// The agent cannot stand on its goal (as for the start).
    GoalBlocked {
        /// The goal.
        hex: Hex,
    },
    /// The radius is above [`MAX_HEX_RADIUS`].
    InvalidRadius {
        /// The requested radius.
        radius: u32,
    },
    /// Every hexagon reachable from the start was expanded: the goal cannot be reached.
    NotFound,
    /// The query's `max_expansions` stopped the search.
    LimitReached {
        /// Hexagons expanded.
        expansions: u64,
    },
    /// [`HexPathfinder::resume`] without a suspended search.
    NothingToResume,
}

impl fmt::Display for HexPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexPathError::StartBlocked { hex } => {
                write!(f, "the agent cannot stand on its start {hex:?}")
            }
            HexPathError::GoalBlocked { hex } => {
                write!(f, "the agent cannot stand on its goal {hex:?}")
            }
            HexPathError::InvalidRadius { radius } => {
                write!(f, "radius {radius} is above {MAX_HEX_RADIUS}")
            }
            HexPathError::NotFound => write!(f, "the goal cannot be reached"),
            HexPathError::LimitReached { expansions } => {
                write!(
                    f,
                    "the limit stopped the search after {expansions} expansions"
                )
            }
            HexPathError::NothingToResume => write!(f, "no search to resume"),
        }
    }
}

impl std::error::Error for HexPathError {}

/// Where a sliced search stands after [`HexPathfinder::resume`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexStep {
    /// The path is ready: [`HexPathfinder::path`], [`HexPathfinder::cost`].
    Found,
    /// The slice's budget ran out; resume it later, on the same map, edited since or
    /// not.
    Suspended,
}

/// Runs searches on hexagonal maps, reusing its buffers: after the first query on a map
/// of a given size, a query allocates nothing. The open list is the crate's
/// [`IndexedHeap`](crate::search::IndexedHeap) (decrease-key in place, ties toward lower h); the per-hexagon records
/// carry a generation stamp, so nothing is cleared between queries.
///
/// Step costs are in half steps: a step between hexagons of weights `a` and `b` costs
/// `a + b`, so a path of `n` steps on weight 1 costs `2 n` ([`HexPathfinder::steps`]
/// divides by 2).
///
/// Complexity: `O(n log n)` for `n` hexagons expanded (A* and Dijkstra), `O(n)`
/// breadth-first; each hexagon is expanded at most once, the heuristic being consistent.
///
/// ```
/// use tilepath::hex::{Hex, HexLayout, HexMap, HexPathfinder, HexQuery};
///
/// let layout = HexLayout::Row;
/// let map = HexMap::from_ascii(layout, "
///     .....
///     .###.
///     .....
/// ").unwrap();
/// let mut finder = HexPathfinder::new();
/// let query = HexQuery::new(layout.hex(1, 0), layout.hex(1, 2));
/// finder.find(&map, &query).unwrap();
/// assert_eq!(finder.path().first(), Some(&layout.hex(1, 0)));
/// assert_eq!(finder.path().last(), Some(&layout.hex(1, 2)));
/// assert_eq!(finder.steps(), (finder.path().len() - 1) as f64);
/// ```
#[derive(Debug, Default)]
pub struct HexPathfinder {
    records: Records,
    /// The breadth-first queue and its head.
    fifo: Vec<u32>,
    head: usize,
    path: Vec<Hex>,
    cost: Cost,
    expansions: u64,
    /// The suspended search.
    active: Option<Active>,
    /// Breadth-first searches take hexagons from `fifo` until edits are carried over,
    /// from the heap (keyed by cost) after.
    fifo_mode: bool,
    /// With `nearest_goal`: the expanded hexagon nearest to the goal so far (steps to
    /// the goal, cost, index).
    nearest: Option<(u32, Cost, usize)>,
    /// What edits did to the current search.
    edits: Edits,
    /// Scratch of the carry-over.
    forgotten: Vec<u32>,
}

/// A started search: its query, the map it stands on and the heuristic's scale.
#[derive(Clone, Copy, Debug)]
struct Active {
    query: HexQuery,
    /// [`HexMap::id`] and [`HexMap::generation`] of the map its labels are for.
    map: u64,
    generation: u64,
    /// The smallest weight when it started: the heuristic stays the same while it runs.
    min_weight: u8,
}

/// What edits did to the current search (see [`HexPathfinder::resume`]).
#[derive(Clone, Copy, Debug, Default)]
struct Edits {
    carried: bool,
    restarts: u32,
    setbacks: u32,
    /// Expansions at the last carry-over.
    mark: u64,
}

impl HexPathfinder {
    /// A pathfinder with empty buffers (they grow with the first query).
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `query` to its end.
    ///
    /// # Errors
    ///
    /// As [`HexPathfinder::start`] and [`HexPathfinder::resume`].
    pub fn find(&mut self, map: &HexMap, query: &HexQuery) -> Result<&[Hex], HexPathError> {
        self.start(map, query)?;
        match self.resume(map, u64::MAX)? {
            HexStep::Found => Ok(&self.path),
            HexStep::Suspended => Err(HexPathError::NothingToResume),
        }
    }

    /// Starts `query` without expanding anything; [`HexPathfinder::resume`] runs it.
    ///
    /// # Errors
    ///
    /// [`HexPathError::InvalidRadius`], [`HexPathError::StartBlocked`],
    /// [`HexPathError::GoalBlocked`].
    pub fn start(&mut self, map: &HexMap, query: &HexQuery) -> Result<(), HexPathError> {
        self.active = None;
        self.path.clear();
        self.cost = 0;
        self.expansions = 0;
        self.edits = Edits::default();
        if query.radius > MAX_HEX_RADIUS {
            return Err(HexPathError::InvalidRadius {
                radius: query.radius,
            });
        }
        let start = map
            .index(query.start)
            .filter(|_| map.can_stand(query.start, query.radius))
            .ok_or(HexPathError::StartBlocked { hex: query.start })?;
        if !query.nearest_goal && !map.can_stand(query.goal, query.radius) {
            return Err(HexPathError::GoalBlocked { hex: query.goal });
        }
        self.records.begin(map.len());
        self.fifo.clear();
        self.head = 0;
        self.records.open(start, 0, u8::MAX);
        self.nearest = None;
        let active = Active {
            query: *query,
            map: map.id(),
            generation: map.generation(),
            min_weight: map.min_weight(),
        };
        self.fifo_mode = query.algorithm == HexAlgorithm::BreadthFirst;
        if self.fifo_mode {
            self.fifo.push(start as u32);
        } else {
            let h = h(map, &active, start);
            self.records.heap.push(start as u32, h, h);
        }
        self.active = Some(active);
        Ok(())
    }

    /// Expands at most `budget` more hexagons of the started search. The answer is
    /// always for the map as it is now, edited since the search started or not.
    ///
    /// When `map` was edited since the last slice ([`HexMap::set_weights`]), the search
    /// is carried over the edits instead of starting over: labels whose way ran through
    /// a changed hexagon are forgotten and found again from their neighbours, and the
    /// hexagons next to the edits offer their steps again, opening closed hexagons that
    /// got cheaper. Obstacle and terrain edits alike; the cost found equals a fresh
    /// search's on the edited map. The search starts over instead when the start (or,
    /// without `nearest_goal`, the goal) can no longer be stood on, when the map no longer lists its edits (more
    /// than [`EDIT_LOG_CAP`](crate::scenario::EDIT_LOG_CAP) since), when a terrain
    /// cheaper than any before appeared (A*'s heuristic would overestimate), when
    /// `map` is another map, and when the edits cut the way of more than 16,384
    /// hexagons (a wall next to the start of a large search: repairing that much at
    /// once would cost a frame). [`HexPathfinder::carried_over`],
    /// [`HexPathfinder::edit_restarts`] and [`HexPathfinder::edit_setbacks`] tell what
    /// happened.
    ///
    /// ```
    /// use tilepath::hex::{HexLayout, HexMap, HexPathfinder, HexQuery, HexStep};
    ///
    /// let layout = HexLayout::Row;
    /// let mut map = HexMap::from_ascii(layout, "
    ///     .........
    ///     .#######.
    ///     .........
    /// ").unwrap();
    /// let query = HexQuery::new(layout.hex(0, 2), layout.hex(8, 2));
    /// let mut finder = HexPathfinder::new();
    /// finder.start(&map, &query).unwrap();
    /// assert_eq!(finder.resume(&map, 3), Ok(HexStep::Suspended));
    /// // A wall across the bottom row while the search waits: it goes around on top.
    /// map.set_weights([(layout.hex(4, 2), 0)]);
    /// assert_eq!(finder.resume(&map, u64::MAX), Ok(HexStep::Found));
    /// assert!(finder.carried_over());
    /// let mut fresh = HexPathfinder::new();
    /// fresh.find(&map, &query).unwrap();
    /// assert_eq!(finder.cost(), fresh.cost());
    /// ```
    ///
    /// # Errors
    ///
    /// [`HexPathError::NotFound`] (never with `nearest_goal`: the start itself is
    /// reachable), [`HexPathError::LimitReached`], as [`HexPathfinder::start`] when an
    /// edit made it start over, and [`HexPathError::NothingToResume`] without a started
    /// search. A search that ended (found or failed) cannot be resumed.
    pub fn resume(&mut self, map: &HexMap, budget: u64) -> Result<HexStep, HexPathError> {
        let Some(mut active) = self.active else {
            return Err(HexPathError::NothingToResume);
        };
        if (active.map, active.generation) != (map.id(), map.generation())
            || self.records.len() != map.len()
        {
            if self.carry_over(map, &active) {
                let forgotten = self.forgotten.len() as u64;
                if forgotten > 0 && forgotten >= self.expansions - self.edits.mark {
                    self.edits.setbacks += 1;
                }
                self.edits.carried = true;
                self.edits.mark = self.expansions;
                active.generation = map.generation();
                self.active = Some(active);
            } else {
                let edits = self.edits;
                self.start(map, &active.query)?;
                self.edits = Edits {
                    carried: false,
                    restarts: edits.restarts + 1,
                    setbacks: edits.setbacks + 1,
                    mark: 0,
                };
                active = self.active.expect("a started search");
            }
        }
        let query = active.query;
        let goal = map.index(query.goal);
        let unit = query.algorithm == HexAlgorithm::BreadthFirst;
        let mut spent = 0u64;
        loop {
            if spent >= budget {
                return Ok(HexStep::Suspended);
            }
            let next = if self.fifo_mode {
                self.fifo.get(self.head).map(|&i| {
                    self.head += 1;
                    i
                })
            } else {
                self.records.heap.pop()
            };
            let Some(i) = next else {
                self.active = None;
                return match self.nearest {
                    Some((_, _, best)) if query.nearest_goal => {
                        self.build_path(map, best);
                        Ok(HexStep::Found)
                    }
                    _ => Err(HexPathError::NotFound),
                };
            };
            let i = i as usize;
            if query.nearest_goal {
                self.note_nearest(map, &query, i);
            }
            if Some(i) == goal {
                self.active = None;
                self.build_path(map, i);
                return Ok(HexStep::Found);
            }
            if query.max_expansions.is_some_and(|m| self.expansions >= m) {
                self.active = None;
                return Err(HexPathError::LimitReached {
                    expansions: self.expansions,
                });
            }
            self.records.close(i);
            self.expansions += 1;
            spent += 1;
            let g = self.records.g[i];
            let wi = Cost::from(map.weight_at(i));
            for (n, d) in map.neighbours(i) {
                if map.clearance_at(n) as u32 <= query.radius {
                    continue;
                }
                let step = if unit {
                    2
                } else {
                    wi + Cost::from(map.weight_at(n))
                };
                let ng = g + step;
                let fresh = !self.records.is_seen(n);
                // A closed hexagon is never reached more cheaply, but after edits.
                if !fresh && ng >= self.records.g[n] {
                    continue;
                }
                if self.fifo_mode {
                    self.records.open(n, ng, d as u8);
                    self.fifo.push(n as u32);
                    continue;
                }
                let h = h(map, &active, n);
                let key = match query.algorithm {
                    HexAlgorithm::AStar => ng + h,
                    _ => ng,
                };
                if fresh {
                    self.records.open(n, ng, d as u8);
                    self.records.heap.push(n as u32, key, h);
                } else {
                    self.records.offer(n, ng, d as u8, key, h);
                }
            }
        }
    }

    /// True when the current (or last) search went on across map edits since its last
    /// restart, instead of starting over (see [`HexPathfinder::resume`]).
    pub fn carried_over(&self) -> bool {
        self.edits.carried
    }

    /// Times map edits made the current (or last) search start over (see
    /// [`HexPathfinder::resume`]); 0 for a search that never met an edit.
    pub fn edit_restarts(&self) -> u32 {
        self.edits.restarts
    }

    /// Times map edits set the current (or last) search back: each restart, and each
    /// carry-over that forgot at least as many hexagons as the search had expanded
    /// since the edits before. A search resumed in slices on a map whose every edit sets
    /// it back never ends; this count tells the caller to stop slicing it.
    pub fn edit_setbacks(&self) -> u32 {
        self.edits.setbacks
    }

    /// Brings the labels of `active` up to date with the edits of `map` since, when
    /// that is exact (see [`HexPathfinder::resume`]); false to start over.
    fn carry_over(&mut self, map: &HexMap, active: &Active) -> bool {
        let query = &active.query;
        if active.map != map.id()
            || self.records.len() != map.len()
            || !map.can_stand(query.start, query.radius)
            || (!query.nearest_goal && !map.can_stand(query.goal, query.radius))
            || (query.algorithm == HexAlgorithm::AStar && map.min_weight() < active.min_weight)
        {
            return false;
        }
        let Some(edited) = map.edits_since(active.generation) else {
            return false;
        };
        if self.fifo_mode {
            // The queue is in order of steps; the carried labels are not.
            for &i in &self.fifo[self.head..] {
                self.records.heap.push(i, self.records.g[i as usize], 0);
            }
            self.fifo_mode = false;
        }
        let growth = Growth {
            radius: query.radius,
            unit: query.algorithm == HexAlgorithm::BreadthFirst,
            key: |i: usize, g: Cost| {
                let h = h(map, active, i);
                (g + h, h)
            },
        };
        if !carry::carry_over(&mut self.records, map, &growth, edited, &mut self.forgotten) {
            return false;
        }
        if query.nearest_goal {
            // The costs of closed hexagons changed: find the nearest among them again.
            self.nearest = None;
            for i in 0..map.len() {
                if self.records.is_closed(i) {
                    self.note_nearest(map, query, i);
                }
            }
        }
        true
    }

    /// With `nearest_goal`: keeps the expanded hexagon `i` when it is nearer to the goal
    /// than the best so far (fewer steps, then cheaper).
    fn note_nearest(&mut self, map: &HexMap, query: &HexQuery, i: usize) {
        let near = (map.hex(i).distance(query.goal), self.records.g[i], i);
        if self
            .nearest
            .is_none_or(|best| (near.0, near.1) < (best.0, best.1))
        {
            self.nearest = Some(near);
        }
    }

    /// The last path found, start first (empty after a failure).
    pub fn path(&self) -> &[Hex] {
        &self.path
    }

    /// The cost of the last path in half steps (see [`HexPathfinder`]).
    pub fn cost(&self) -> Cost {
        self.cost
    }

    /// The cost of the last path in steps of weight 1 (a breadth-first path: its steps).
    pub fn steps(&self) -> f64 {
        self.cost as f64 / 2.0
    }

    /// Hexagons the last search expanded.
    pub fn expansions(&self) -> u64 {
        self.expansions
    }

    /// Bytes held by the buffers (capacity).
    pub fn memory_bytes(&self) -> usize {
        self.records.memory_bytes()
            + self.fifo.capacity() * size_of::<u32>()
            + self.path.capacity() * size_of::<Hex>()
    }

    fn build_path(&mut self, map: &HexMap, goal: usize) {
        self.path.clear();
        self.cost = self.records.g[goal];
        let mut at = Some(map.hex(goal));
        while let Some(hex) = at {
            self.path.push(hex);
            at = map.index(hex).and_then(|i| self.records.parent(hex, i));
        }
        self.path.reverse();
    }
}

/// The heuristic of `active` at hexagon `i`: every step costs at least twice the smallest
/// weight when the search started (0 but for A*).
#[inline]
fn h(map: &HexMap, active: &Active, i: usize) -> Cost {
    match active.query.algorithm {
        HexAlgorithm::AStar => {
            Cost::from(map.hex(i).distance(active.query.goal)) * 2 * Cost::from(active.min_weight)
        }
        _ => 0,
    }
}
