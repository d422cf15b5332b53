//! A frame's jobs: the requests taken from the queue, what each needs, the budget they
//! run under, and the path a finished search answers with.

use std::time::Instant;

use bevy::prelude::*;

use crate::components::{FoundPath, NavGrid};
use crate::grid::{Cell, Connectivity, Cost, cost_to_f64};
use crate::pipeline::resolve::Ends;
use crate::scenario::ProfileId;
use crate::search::{
    Algorithm, AvoidUnits, Limits, PathQuery as SearchQuery, PathStats, Pathfinder,
};

/// What is left of the frame's budget.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Budget {
    /// Wall-clock: work until this instant (`None`: no end).
    Time {
        /// When the frame's solve time is spent.
        deadline: Option<Instant>,
    },
    /// Expansions left to spend this frame.
    Expansions {
        /// Expansions left.
        left: u64,
    },
}

/// One request taken from the queue this frame.
#[derive(Debug)]
pub(crate) struct Job {
    pub(crate) entity: Entity,
    pub(crate) order: u64,
    pub(crate) work: Work,
    /// What the answer reports about its ends (kept while the search is suspended).
    pub(crate) ends: Ends,
    /// For the last stretch of a shared approach resumed from an earlier frame: the
    /// descent read off the field before it (the search's query starts at its end).
    pub(crate) approach: Option<Box<Approach>>,
    /// Map edits set back work on this request before: it runs its own search, shared
    /// fields and approaches left aside (see [`Pace`]).
    pub(crate) solo: bool,
    /// The oldest request of the frame, set back twice: its search runs to the end this
    /// frame, whatever the budget (see [`Pace`]).
    pub(crate) whole: bool,
    /// For a resumed search: its pathfinder's `edit_setbacks` before this frame.
    pub(crate) setbacks: u32,
    /// Which other units its path goes around ([`PathRequest::avoid_units`](crate::components::PathRequest::avoid_units)).
    pub(crate) avoid: AvoidUnits,
}

impl Job {
    /// The query its answer is for: the unit's own (for the last stretch of a shared
    /// approach, the stretch's).
    pub(crate) fn query(&self) -> &SearchQuery {
        match &self.work {
            Work::Search { query, .. } | Work::Field { query, .. } => query,
        }
    }
}

/// How a request's work is paced, by the times map edits set it back (its ticket's
/// count): the progress guarantee of
/// [`TilepathSettings`](crate::settings::TilepathSettings).
pub(crate) struct Pace;

impl Pace {
    /// From this many setbacks on a request runs its own search.
    pub(crate) const SOLO: u8 = 2;
    /// From this many setbacks on, the oldest request's search runs to its end in the
    /// frame it is served.
    pub(crate) const WHOLE: u8 = 3;
}

/// A shared approach whose last stretch is searched across frames (see
/// [`GroupOrders::SharedApproach`](crate::settings::GroupOrders::SharedApproach)):
/// the descent read off the field, from the unit's cell to the hand-over cell where the
/// search starts, and its cost.
#[derive(Clone, Debug)]
pub(crate) struct Approach {
    pub(crate) descent: Vec<Cell>,
    pub(crate) cost: Cost,
}

impl Approach {
    /// True when the descent is still walkable for an agent of `diameter` moving with
    /// `profile` on `grid` (a map edit may have cut it while the search waited).
    pub(crate) fn walkable(&self, grid: &NavGrid, profile: ProfileId, diameter: u32) -> bool {
        let Some(layer) = grid.scenario().layer_for(profile, diameter) else {
            return false;
        };
        self.descent.first().is_some_and(|&c| !layer.is_blocked(c))
            && self.descent.windows(2).all(|w| layer.can_step(w[0], w[1]))
    }
}

/// What a job needs.
#[derive(Debug)]
pub(crate) enum Work {
    /// A search: new (`resumed` is `None`) or suspended in an earlier frame (its pathfinder
    /// is in `Solvers::resumed` at that index; the query is the one it started with).
    Search {
        query: SearchQuery,
        resumed: Option<usize>,
    },
    /// A path read off the shared field with this index.
    Field { field: usize, query: SearchQuery },
}

/// What a field is for: requests with this goal, profile and diameter share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FieldKey {
    pub(crate) goal: Cell,
    pub(crate) profile: ProfileId,
    pub(crate) diameter: u32,
}

impl FieldKey {
    /// The key of a field toward `goal` that could serve `query` exactly as its own
    /// search would, when the query allows: an exact algorithm, octile moves, no limits,
    /// a single goal cell.
    pub(crate) fn of(query: &SearchQuery, goal: Cell) -> Option<Self> {
        let exact = matches!(
            query.algorithm,
            Algorithm::Auto
                | Algorithm::AStar
                | Algorithm::Jps
                | Algorithm::JpsPlus
                | Algorithm::Dijkstra
        );
        (exact
            && query.options.connectivity == Connectivity::Octile
            && query.limits == Limits::UNLIMITED
            && query.options.goal_radius == 0)
            .then_some(Self {
                goal,
                profile: query.profile,
                diameter: query.diameter,
            })
    }
}

/// The [`FoundPath`] of the search that just ended on `pathfinder` with `stats`.
pub(crate) fn found_path(
    pathfinder: &Pathfinder,
    grid: &NavGrid,
    query: &SearchQuery,
    stats: &PathStats,
    ends: Ends,
) -> FoundPath {
    FoundPath {
        cells: pathfinder.path().to_vec(),
        from: ends.from,
        start: stats.start,
        requested: ends.requested,
        reached: stats.reached,
        partial: ends.partial,
        waypoints: pathfinder
            .waypoints()
            .iter()
            .map(|&cell| grid.agent_center(cell, query.diameter))
            .collect(),
        length: stats.length as f32,
        cost: cost_to_f64(stats.cost) as f32,
        profile: query.profile,
        generation: grid.generation(),
        expanded: stats.expanded,
        approached: false,
        provisional: false,
    }
}
