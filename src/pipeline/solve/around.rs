//! Answers planned again around the units and the congestion they cross
//! ([`PathRequest::avoid_units`], [`CongestionSettings`]).
//!
//! [`PathRequest::avoid_units`]: crate::components::PathRequest::avoid_units
//! [`CongestionSettings`]: crate::settings::CongestionSettings

use crate::components::{FoundPath, NavGrid};
use crate::grid::{Cell, cost_to_f64};
use crate::search::{Around, Limits, PathQuery as SearchQuery, Pathfinder, SearchOptions};
use crate::smoothing;

/// Cells of the old path kept free of re-planning on each side of the crossed units,
/// beyond the penalty's worth: room for the way around to leave and rejoin it.
const MARGIN: usize = 2;

/// Expansions a stretch's search may use; past them the answer keeps its stretch.
const STRETCH_EXPANSIONS: u32 = 32_768;

/// The buffers of the stretches planned again, reused every frame.
#[derive(Default)]
pub(super) struct Detour {
    pathfinder: Pathfinder,
    cells: Vec<Cell>,
    smoothed: Vec<Cell>,
}

/// Plans the stretch of `path` (the answer to `query`) that crosses what `around`
/// prices in (the units it counts, congested cells) again around them: from `MARGIN` +
/// the dearer penalty's worth of cells before the first crossed cell to as many after
/// the last, exactly for that stretch under [`Pathfinder::find_around_with`]'s costs,
/// and splices it in (waypoints, length and cost follow). Returns the expansions spent
/// (0 when the path crosses nothing priced).
pub(super) fn around_units(
    detour: &mut Detour,
    grid: &NavGrid,
    around: &Around,
    query: &SearchQuery,
    path: &mut FoundPath,
) -> u64 {
    let map = grid.scenario();
    let diameter = query.diameter;
    let units = around
        .counts_units(map.size())
        .then(|| around.units.crossed(&path.cells, diameter, around.avoid))
        .into_iter()
        .flatten();
    let jammed = around
        .counts_congestion(map.size())
        .then(|| around.congestion.crossed(&path.cells, diameter))
        .into_iter()
        .flatten();
    let (mut first, mut last) = (usize::MAX, 0);
    for i in units.chain(jammed) {
        (first, last) = (first.min(i), last.max(i));
    }
    if first == usize::MAX {
        return 0;
    }
    let dearer = around.penalty_tiles.max(around.congestion_tiles);
    let margin = MARGIN + dearer.clamp(0.0, 64.0).ceil() as usize;
    let a = first.saturating_sub(margin);
    let b = (last + margin).min(path.cells.len() - 1);
    let options = SearchOptions {
        connectivity: query.options.connectivity,
        ..SearchOptions::EXACT
    };
    let stretch = SearchQuery::new(path.cells[a], path.cells[b])
        .diameter(diameter)
        .profile(query.profile)
        .options(options)
        .limits(Limits {
            max_expanded: STRETCH_EXPANSIONS,
            time_budget: None,
        });
    let pf = &mut detour.pathfinder;
    let found = pf.find_around_with(map, &stretch, around);
    let expanded = u64::from(pf.last_expanded());
    if found.is_err() || pf.path().len() < 2 {
        return expanded;
    }
    detour.cells.clear();
    detour.cells.extend_from_slice(&path.cells[..a]);
    detour.cells.extend_from_slice(pf.path());
    detour.cells.extend_from_slice(&path.cells[b + 1..]);
    if detour.cells == path.cells {
        return expanded;
    }
    let (Some(layer), Some(weights)) = (
        map.layer_for(query.profile, diameter),
        map.weights(query.profile),
    ) else {
        return expanded;
    };
    path.cells.clone_from(&detour.cells);
    let waypoints = if query.options.smooth {
        smoothing::smooth_weighted(layer, weights, &path.cells, &mut detour.smoothed);
        &detour.smoothed[..]
    } else {
        &path.cells[..]
    };
    path.waypoints.clear();
    path.waypoints
        .extend(waypoints.iter().map(|&c| grid.agent_center(c, diameter)));
    path.length = map.shape().path_length(&path.cells) as f32;
    path.cost = weights
        .path_cost(&path.cells)
        .map_or(f32::INFINITY, |c| cost_to_f64(c) as f32);
    path.expanded = path.expanded.saturating_add(pf.last_expanded());
    expanded
}
