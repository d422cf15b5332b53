//! What a search is asked (query, algorithm, limits) and how it can fail.

use crate::grid::{Cell, Connectivity};
use crate::scenario::ProfileId;
use crate::search::SearchOptions;
use crate::shape::GridShape;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The algorithms of the [`crate::search::Pathfinder`].
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The fastest exact search for the query: on octile queries whose layer is uniform
    /// (every passable cell weighs the same, as on maps without terrain),
    /// [`Algorithm::JpsPlus`] when the layer's jump table is already built and
    /// [`Algorithm::Jps`] when it is not (Auto never builds a jump table). On a weighted
    /// layer, to a single goal cell, A\* bounded by the layer's
    /// [`Landmarks`](crate::scenario::Landmarks) as well as by the octile distance; the
    /// first such query on a layer builds its landmark table
    /// ([`Layer::build_landmarks`](crate::scenario::Layer::build_landmarks): 17 Dijkstra
    /// searches over the layer, 64 bytes per cell), which edits keep valid, unless the
    /// map says otherwise
    /// ([`CachedScenario::set_auto_builds_landmarks`](crate::scenario::CachedScenario::set_auto_builds_landmarks):
    /// then plain A\* until a table is built ahead or installed from a
    /// [`LandmarkBuild`](crate::scenario::LandmarkBuild)). That search
    /// runs toward the end where the bound is tighter, turning the path round when it
    /// runs from the goal: toward the end on cheaper terrain when the ends' weights
    /// differ (from a swamp goal toward a road start), else toward the end nearer a
    /// landmark; and it prunes and jumps as JPS does where the terrain is locally
    /// uniform (its interior bits, [`Layer::build_interior`](crate::scenario::Layer::build_interior),
    /// built with the table: 2 bits per cell). [`Algorithm::AStar`] otherwise. Optimal.
    /// The default.
    #[default]
    Auto,
    /// A* with the octile heuristic (times the profile's smallest weight present on the
    /// map), ties toward lower h. Optimal on any layer.
    AStar,
    /// Jump point search with block-based jumping on bit rows. Optimal. Needs octile
    /// moves over a uniform layer: on a cardinal query or a layer whose passable cells
    /// weigh differently it runs [`Algorithm::AStar`] instead (same optimal cost).
    Jps,
    /// Preprocessed jump point search (JPS+, Harabor and Grastien 2014): the same
    /// search as [`Algorithm::Jps`], but every jump is one read of the layer's
    /// [`JumpTable`](crate::scenario::JumpTable) (8 distances per cell, 16 bytes per
    /// cell, shared by every pathfinder) instead of a scan. Optimal. The first query on
    /// a layer builds its table, O(width × height); build it ahead with
    /// [`CachedScenario::build_jump_tables`](crate::scenario::CachedScenario::build_jump_tables).
    /// Map edits update built tables incrementally. Same fallback as `Jps`: on a cardinal
    /// query, a goal area or a non-uniform layer it runs [`Algorithm::AStar`] (and builds
    /// no table).
    JpsPlus,
    /// Dijkstra: A* without a heuristic. Optimal, explores the most.
    Dijkstra,
    /// Breadth-first search: fewest steps, not shortest length.
    Bfs,
    /// Depth-first search bounded by [`PathQuery::radius`]. Finds some path, usually long.
    Dfs,
    /// Iterative-deepening DFS: grows the radius until a path is found or a limit ends it.
    Iddfs,
    /// Greedy best-first: follows the heuristic only. Fast, not optimal.
    BestFirst,
    /// The semi-analytical tracer: straight line plus obstacle-contour detours.
    Evasion,
}

impl Algorithm {
    /// Every algorithm, in a stable order.
    pub const ALL: [Algorithm; 10] = [
        Algorithm::Auto,
        Algorithm::AStar,
        Algorithm::Jps,
        Algorithm::JpsPlus,
        Algorithm::Dijkstra,
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::Iddfs,
        Algorithm::BestFirst,
        Algorithm::Evasion,
    ];

    /// The name used on command lines and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::AStar => "astar",
            Algorithm::Jps => "jps",
            Algorithm::JpsPlus => "jps-plus",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::Bfs => "bfs",
            Algorithm::Dfs => "dfs",
            Algorithm::Iddfs => "iddfs",
            Algorithm::BestFirst => "best-first",
            Algorithm::Evasion => "evasion",
        }
    }

    /// True when the algorithm always returns a shortest path.
    pub const fn is_optimal(self) -> bool {
        matches!(
            self,
            Algorithm::Auto
                | Algorithm::AStar
                | Algorithm::Jps
                | Algorithm::JpsPlus
                | Algorithm::Dijkstra
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is not one of [`Algorithm::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown algorithm `{}` (expected one of:", self.0)?;
        for a in Algorithm::ALL {
            write!(f, " {a}")?;
        }
        write!(f, ")")
    }
}

impl std::error::Error for UnknownAlgorithm {}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| {
                a.name() == s
                    || (s == "a*" && *a == Algorithm::AStar)
                    || (s == "best_first" && *a == Algorithm::BestFirst)
                    || ((s == "jps+" || s == "jps_plus") && *a == Algorithm::JpsPlus)
            })
            .ok_or(UnknownAlgorithm(s))
    }
}

/// The open list of [`Algorithm::AStar`] and [`Algorithm::Dijkstra`] (and of `Auto`,
/// `Jps` and `JpsPlus` where they run A\*). Both lists pop in the same total order, f
/// (g for Dijkstra), then lower h, then lower node id, so the expansions, the path and
/// its cost are the same with either; only the time differs. JPS, JPS+ and best-first
/// always use the indexed heap (best-first's keys are not monotone).
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OpenList {
    /// The search picks: the radix queue for A\* guided by a weighted layer's landmark
    /// table ([`Algorithm::Auto`] there), whose many open cells with spread-out keys it
    /// keeps with fewer instructions and cache misses, and the indexed heap otherwise.
    /// The default.
    #[default]
    Auto,
    /// [`IndexedHeap`](crate::search::IndexedHeap): a 4-ary heap with decrease-key in
    /// place, O(log n) per push and pop, 4 bytes per cell for its positions.
    IndexedHeap,
    /// [`RadixQueue`](crate::search::RadixQueue): a monotone radix heap on the integer
    /// key with lazy deletion, O(1) per push and amortised O(log k + 64) per pop (k the
    /// entries sharing the smallest key), nothing per cell.
    Radix,
}

impl OpenList {
    /// Every choice: the search's pick and both open lists.
    pub const ALL: [OpenList; 3] = [OpenList::Auto, OpenList::IndexedHeap, OpenList::Radix];

    /// The name used on command lines and in reports: `auto`, `heap` or `radix`.
    pub const fn name(self) -> &'static str {
        match self {
            OpenList::Auto => "auto",
            OpenList::IndexedHeap => "heap",
            OpenList::Radix => "radix",
        }
    }
}

/// Bounds on one search. The default is unbounded.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Give up after expanding this many nodes.
    pub max_expanded: u32,
    /// Give up when the search has run this long (checked every 256 expansions).
    pub time_budget: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Self::UNLIMITED
    }
}

impl Limits {
    /// No bound.
    pub const UNLIMITED: Limits = Limits {
        max_expanded: u32::MAX,
        time_budget: None,
    };
}

/// Which limit stopped a search.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`Limits::max_expanded`].
    Expanded,
    /// [`Limits::time_budget`].
    Time,
}

/// One pathfinding question.
///
/// ```
/// use tilepath::prelude::*;
/// let q = PathQuery::new(Cell::new(0, 0), Cell::new(5, 3)).algorithm(Algorithm::Jps).diameter(3);
/// assert_eq!(q.diameter, 3);
/// ```
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathQuery {
    /// Where the agent stands.
    pub start: Cell,
    /// Where it wants to be.
    pub goal: Cell,
    /// Agent footprint: the `diameter × diameter` square of [`crate::scenario::footprint`] (1 = one cell).
    pub diameter: u32,
    /// The movement profile: which terrain the agent may enter and what each costs.
    pub profile: ProfileId,
    /// The algorithm to run.
    pub algorithm: Algorithm,
    /// The open list of A\* and Dijkstra ([`OpenList`]); the answer is the same with
    /// either.
    #[cfg_attr(feature = "serde", serde(default))]
    pub open_list: OpenList,
    /// How the search moves and where it may end (connectivity, smoothing, goal area,
    /// nearest-cell fallbacks). Default: [`SearchOptions::EXACT`].
    pub options: SearchOptions,
    /// Search bounds.
    pub limits: Limits,
    /// Bound for [`Algorithm::Dfs`]: cells farther than this (Chebyshev) from the start
    /// are not entered. `None` means the whole map. Ignored by the other algorithms.
    pub radius: Option<u32>,
}

impl PathQuery {
    /// [`Algorithm::Auto`] from `start` to `goal` for a one-cell agent with the default
    /// profile, octile moves, no limits.
    pub fn new(start: Cell, goal: Cell) -> Self {
        Self {
            start,
            goal,
            diameter: 1,
            profile: ProfileId::DEFAULT,
            algorithm: Algorithm::Auto,
            open_list: OpenList::default(),
            options: SearchOptions::EXACT,
            limits: Limits::UNLIMITED,
            radius: None,
        }
    }

    /// Sets the options ([`PathQuery::options`]).
    pub fn options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets the goal area's radius ([`SearchOptions::goal_radius`]).
    pub fn goal_radius(mut self, radius: u32) -> Self {
        self.options.goal_radius = radius;
        self
    }

    /// Plans to the nearest reachable cell when the goal area cannot be reached
    /// ([`SearchOptions::nearest_goal`]).
    pub fn nearest_goal(mut self, on: bool) -> Self {
        self.options.nearest_goal = on;
        self
    }

    /// Plans from the nearest standable cell when the start is blocked
    /// ([`SearchOptions::nearest_start`]).
    pub fn nearest_start(mut self, on: bool) -> Self {
        self.options.nearest_start = on;
        self
    }

    /// True when `cell` is in the goal area on a square grid: within
    /// [`SearchOptions::goal_radius`] king moves of the goal.
    #[inline]
    pub fn in_goal_area(&self, cell: Cell) -> bool {
        self.in_goal_area_on(GridShape::Square, cell)
    }

    /// True when `cell` is in the goal area on a grid of `shape`: within
    /// [`SearchOptions::goal_radius`] steps of the goal ([`GridShape::steps`]).
    #[inline]
    pub fn in_goal_area_on(&self, shape: GridShape, cell: Cell) -> bool {
        shape.steps(cell, self.goal) <= self.options.goal_radius
    }

    /// The same query from its goal to its start (for settled ends of a single goal
    /// cell: costs and moves are symmetric, so it has the same optimal cost).
    pub(crate) fn turned_round(mut self) -> Self {
        debug_assert_eq!(self.options.goal_radius, 0);
        std::mem::swap(&mut self.start, &mut self.goal);
        self
    }

    /// Sets the algorithm.
    pub fn algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// Sets the open list of A\* and Dijkstra.
    pub fn open_list(mut self, open_list: OpenList) -> Self {
        self.open_list = open_list;
        self
    }

    /// Sets the agent diameter.
    pub fn diameter(mut self, diameter: u32) -> Self {
        self.diameter = diameter;
        self
    }

    /// Sets the movement profile.
    pub fn profile(mut self, profile: ProfileId) -> Self {
        self.profile = profile;
        self
    }

    /// Sets the connectivity.
    pub fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.options.connectivity = connectivity;
        self
    }

    /// Sets the limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the DFS radius.
    pub fn radius(mut self, radius: Option<u32>) -> Self {
        self.radius = radius;
        self
    }

    /// Turns line-of-sight smoothing on or off.
    pub fn smooth(mut self, smooth: bool) -> Self {
        self.options.smooth = smooth;
        self
    }
}

/// Why a search returned no path.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathError {
    /// The start or goal cell is off the map.
    OutOfBounds {
        /// The offending cell.
        cell: Cell,
    },
    /// The agent diameter is 0 or larger than [`crate::scenario::MAX_DIAMETER`].
    InvalidDiameter {
        /// The requested diameter.
        diameter: u32,
    },
    /// An agent of this diameter cannot stand on its start cell: a wall (or a terrain
    /// its profile blocks) is inside its footprint there (the map edge counts as a wall).
    StartBlocked {
        /// The start cell.
        cell: Cell,
        /// The agent's diameter.
        diameter: u32,
    },
    /// An agent of this diameter cannot stand on the goal cell: a wall (or a terrain
    /// its profile blocks) is inside its footprint there (the map edge counts as a wall).
    GoalBlocked {
        /// The goal cell.
        cell: Cell,
        /// The agent's diameter.
        diameter: u32,
    },
    /// The query's movement profile is not registered on the map.
    UnknownProfile {
        /// The requested profile.
        profile: ProfileId,
    },
    /// Start and goal are in different connected components: no path exists.
    Unreachable,
    /// [`crate::search::Pathfinder::resume`] was called with no search suspended.
    NothingToResume,
    /// A limit stopped the search before it found a path.
    LimitReached {
        /// Which limit.
        limit: Limit,
        /// Nodes expanded when it stopped.
        expanded: u32,
    },
    /// The search ended without a path although start and goal are connected. Only
    /// [`Algorithm::Dfs`] with a [`PathQuery::radius`] returns it in normal use (the
    /// path leaves the radius square); every other algorithm is complete and finds a
    /// path whenever one exists, so from them it would report a broken internal
    /// invariant (checked rather than panicking).
    NotFound {
        /// Nodes expanded before giving up.
        expanded: u32,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::OutOfBounds { cell } => write!(f, "cell {cell} is off the map"),
            PathError::InvalidDiameter { diameter } => {
                write!(f, "agent diameter {diameter} is not supported")
            }
            PathError::StartBlocked { cell, diameter } => write!(
                f,
                "an agent of diameter {diameter} cannot stand on its start cell {cell}"
            ),
            PathError::GoalBlocked { cell, diameter } => write!(
                f,
                "an agent of diameter {diameter} cannot stand on its goal cell {cell}"
            ),
            PathError::UnknownProfile { profile } => {
                write!(f, "{profile} is not registered on the map")
            }
            PathError::Unreachable => write!(f, "the goal cannot be reached from the start"),
            PathError::NothingToResume => write!(f, "no suspended search to resume"),
            PathError::LimitReached { limit, expanded } => {
                write!(
                    f,
                    "search stopped by its {limit:?} limit after {expanded} expansions"
                )
            }
            PathError::NotFound { expanded } => {
                write!(
                    f,
                    "the algorithm gave up after {expanded} expansions although a path exists"
                )
            }
        }
    }
}

impl std::error::Error for PathError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_parses_from_its_name() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
        }
        assert!(
            "warp"
                .parse::<Algorithm>()
                .unwrap_err()
                .to_string()
                .contains("jps")
        );
    }
}
