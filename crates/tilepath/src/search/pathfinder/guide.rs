//! Which landmark bound guides a search, and which way round it runs.

use super::Pathfinder;
use crate::grid::{Cell, Cost};
use crate::scenario::{CachedScenario, Layer, Weights};
use crate::search::field::DistanceField;
use crate::search::landmark::{FieldBound, Frozen, Landmark, TableBound};
use crate::search::query::{Algorithm, PathQuery};

impl Pathfinder {
    /// The bound that guides the settled `query` besides the octile distance: `field`'s
    /// when it fits the query, the layer's table when the query may use it (see
    /// [`Pathfinder::table`]), the larger of the two when both do; `frozen` is the field
    /// bound a resumed search keeps.
    pub(super) fn guide<'g>(
        map: &CachedScenario,
        layer: &'g Layer,
        query: &PathQuery,
        weights: &Weights<'_>,
        field: Option<&'g DistanceField>,
        frozen: Option<Frozen>,
    ) -> Option<Landmark<'g>> {
        let field = field.and_then(|f| Self::landmark(map, f, query, weights, frozen));
        match (field, Self::table(map, layer, query, weights)) {
            (Some(f), Some(Landmark::Table(t))) => Some(Landmark::Both(f, t)),
            (Some(f), _) => Some(Landmark::Field(f)),
            (None, table) => table,
        }
    }

    /// The bound of `field` for the settled `query`, when the field fits it (see
    /// [`Pathfinder::find_guided`]); `frozen` is the bound a resumed search keeps.
    pub(super) fn landmark<'f>(
        map: &CachedScenario,
        field: &'f DistanceField,
        query: &PathQuery,
        weights: &Weights<'_>,
        frozen: Option<Frozen>,
    ) -> Option<FieldBound<'f>> {
        let fits = field.is_current(map)
            && field.agent() == (query.profile, query.diameter)
            && query.options.goal_radius == 0
            && matches!(
                Self::resolve(query, weights),
                Algorithm::AStar | Algorithm::Jps | Algorithm::JpsPlus
            );
        let divisor = weights.uniform().map_or(1, Cost::from);
        fits.then(|| FieldBound::new(field, query.goal, divisor, frozen))
            .flatten()
    }

    /// The landmark table of `layer` as the bound of the settled `query`, for
    /// [`Algorithm::Auto`] on a weighted layer to a single goal cell: the layer's table
    /// when built, else built now when `map` lets `Auto` build tables (see
    /// [`CachedScenario::set_auto_builds_landmarks`]), else none (plain A\*).
    pub(super) fn table<'l>(
        map: &CachedScenario,
        layer: &'l Layer,
        query: &PathQuery,
        weights: &Weights<'_>,
    ) -> Option<Landmark<'l>> {
        let fits = query.algorithm == Algorithm::Auto
            && layer.shape().is_square()
            && weights.uniform().is_none()
            && query.options.goal_radius == 0;
        if !fits {
            return None;
        }
        let table = match map.auto_builds_landmarks() {
            true => layer.build_landmarks(*weights),
            false => layer.landmarks(),
        }?;
        Some(Landmark::Table(TableBound::new(
            table,
            layer.build_interior(*weights),
            layer.size(),
            query.goal,
        )))
    }

    /// True when a search guided by the landmark table (alone, or with a complete field)
    /// should run from the goal of the settled `query` to its start. Costs and moves are
    /// symmetric, so either way finds a path of the same optimal cost; a search expands
    /// the cells whose bound toward its target falls short of their true cost, so it
    /// runs toward the end where the bound is tighter:
    ///
    /// 1. toward the end on cheaper terrain when the ends' weights differ: the bound
    ///    toward a road, along which the landmarks' own shortest paths run, is tighter;
    /// 2. otherwise toward the end nearer a landmark: with one at cost `r` from the
    ///    target `t`, the triangle inequality bounds every cell `x` by `d(x, t) - 2r`.
    pub(super) fn from_goal(weights: &Weights<'_>, layer: &Layer, query: &PathQuery) -> bool {
        let size = layer.size();
        let weight = |c: Cell| weights.at_index(size.index(c));
        let (wg, ws) = (weight(query.goal), weight(query.start));
        if wg != ws {
            return wg > ws;
        }
        let Some(table) = layer.landmarks() else {
            return false;
        };
        let near = |c: Cell| table.nearest(size.index(c));
        near(query.goal) > near(query.start)
    }
}
