//! How a search moves and where it may end: the options a query and a plugin request share.

use crate::grid::Connectivity;

/// How a search moves (octile or 4-connected, smoothed or not) and what it does when its
/// ends are unusable. [`PathQuery`](crate::search::PathQuery) holds one, and so does the
/// Bevy plugin's `PathRequest`: the same fields with the same meaning.
///
/// The [`Default`] is [`SearchOptions::EXACT`]: the path goes from exactly the start to
/// exactly the goal, or the search fails (`StartBlocked`, `GoalBlocked`, `Unreachable`).
/// [`SearchOptions::NEAREST`] turns both fallbacks on, as units want: plan from the
/// nearest standable cell and to the nearest reachable one. `PathQuery::new` starts from
/// `EXACT`, the plugin's `PathRequest::new` from `NEAREST`.
///
/// ```
/// use tilepath::prelude::*;
/// assert_eq!(SearchOptions::default(), SearchOptions::EXACT);
/// let unit = SearchOptions::NEAREST;
/// assert!(unit.nearest_goal && unit.nearest_start);
/// let q = PathQuery::new(Cell::new(0, 0), Cell::new(5, 3)).options(unit.goal_radius(2));
/// assert_eq!(q.options.goal_radius, 2);
/// assert!(q.options.nearest_goal);
/// ```
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// Octile or 4-connected moves. Default: [`Connectivity::Octile`].
    pub connectivity: Connectivity,
    /// Also compute line-of-sight smoothed waypoints
    /// ([`crate::search::Pathfinder::waypoints`]). Default: `false`.
    pub smooth: bool,
    /// Arrive within this many cells (Chebyshev) of the goal: the search stops at the
    /// first cell of the square `goal ± goal_radius` it reaches (for A*, Dijkstra and
    /// Auto the cheapest one; JPS and JPS+ run A* for it). Default: 0, the goal cell itself.
    pub goal_radius: u32,
    /// When no cell of the goal area can be reached (blocked for the agent, in another
    /// component, or off the map for the plugin), plan to the reachable cell nearest to
    /// the goal instead ([`crate::scenario::Layer::nearest_reachable`]);
    /// [`PathStats::reached`](crate::search::PathStats::reached) says where. Off: such
    /// searches fail with `GoalBlocked` or `Unreachable`. Default: `false`.
    pub nearest_goal: bool,
    /// When the agent cannot stand on its start cell, plan from the standable cell
    /// nearest to it ([`crate::scenario::Layer::nearest_free`]);
    /// [`PathStats::start`](crate::search::PathStats::start) says which. Off: such
    /// searches fail with `StartBlocked`. Default: `false`.
    pub nearest_start: bool,
}

impl SearchOptions {
    /// Octile moves, no smoothing, the goal cell itself, no fallbacks: the default.
    pub const EXACT: Self = Self {
        connectivity: Connectivity::Octile,
        smooth: false,
        goal_radius: 0,
        nearest_goal: false,
        nearest_start: false,
    };

    /// [`SearchOptions::EXACT`] with [`nearest_goal`](Self::nearest_goal) and
    /// [`nearest_start`](Self::nearest_start) on: what the plugin's requests start from.
    pub const NEAREST: Self = Self {
        nearest_goal: true,
        nearest_start: true,
        ..Self::EXACT
    };

    /// Sets the connectivity.
    pub fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// Turns line-of-sight smoothing on or off.
    pub fn smooth(mut self, smooth: bool) -> Self {
        self.smooth = smooth;
        self
    }

    /// Sets the goal area's radius in cells.
    pub fn goal_radius(mut self, radius: u32) -> Self {
        self.goal_radius = radius;
        self
    }

    /// Turns the nearest-goal fallback on or off.
    pub fn nearest_goal(mut self, on: bool) -> Self {
        self.nearest_goal = on;
        self
    }

    /// Turns the nearest-start fallback on or off.
    pub fn nearest_start(mut self, on: bool) -> Self {
        self.nearest_start = on;
        self
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self::EXACT
    }
}
