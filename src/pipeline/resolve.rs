//! Reading a request against the map (profile, start, goal, claimed cell, component), once for every stage.

use bevy::prelude::*;
use bevy::transform::helper::{ComputeGlobalTransformError, TransformHelper};

use crate::components::{NavGrid, PathFailure, PathGoal, PathRequest};
use crate::grid::Cell;
use crate::profiles::MovementProfiles;
use crate::scenario::{CellRect, Layer, ProfileId};
use crate::search::{Algorithm, PathQuery as SearchQuery, Pathfinder};
use crate::settings::TilepathSettings;

/// Where a unit's world position is read from: its own `Transform` (when the caller's
/// query has it) and whether it has a parent (then its ancestors' count too).
pub(crate) type Place<'a> = (Option<&'a Transform>, bool);

/// The world position of `entity`: its `Transform` composed with those of its `ChildOf`
/// ancestors, as of now (what `GlobalTransform` will hold after propagation). A unit
/// without a parent whose `Transform` the caller already holds (`place`) is read
/// straight from it; `None` when the caller holds neither.
///
/// # Errors
///
/// [`PathFailure::NoTransform`] when the entity or an ancestor has no `Transform` (or
/// the hierarchy is broken), [`PathFailure::InvalidPosition`] when the position is not
/// finite.
pub(crate) fn world_position(
    transforms: &TransformHelper,
    entity: Entity,
    place: Option<Place>,
) -> Result<Vec2, PathFailure> {
    let position = match place {
        Some((Some(transform), false)) => transform.translation.truncate(),
        _ => {
            let global = transforms.compute_global_transform(entity).map_err(
                |e: ComputeGlobalTransformError| {
                    debug!("no start position for {entity}: {e}");
                    PathFailure::NoTransform
                },
            )?;
            global.translation().truncate()
        }
    };
    if position.is_finite() {
        Ok(position)
    } else {
        Err(PathFailure::InvalidPosition)
    }
}

/// A request read against the current map: its profile and layer, where its unit stands
/// and where it goes. The one reading of a request, shared by intake's claims, the
/// solver and the retry of failures.
pub(crate) struct Resolved<'a> {
    pub(crate) profile: ProfileId,
    /// The layer of the request's profile and diameter (`None`: the diameter is not
    /// supported).
    pub(crate) layer: Option<&'a Layer>,
    /// The unit's anchor cell.
    pub(crate) from: Cell,
    /// The first cell of the path: `from`, or with [`PathRequest::nearest_start`] the
    /// nearest cell the unit can stand on when `from` is blocked (`from` when there is
    /// none).
    pub(crate) start: Cell,
    /// The requested goal as an anchor cell (it may lie off the map with
    /// [`PathRequest::nearest_goal`]).
    pub(crate) requested: Cell,
    /// The goal searched for: the claimed cell when the request claims its goal and has
    /// one, `requested` otherwise; and the goal radius that goes with it.
    pub(crate) goal: Cell,
    pub(crate) goal_radius: u32,
    /// The connected component of `start` on the layer (0: none, or no layer).
    pub(crate) label: u32,
    /// True when no cell of the goal area lies in `start`'s component.
    pub(crate) partial: bool,
}

/// Reads `request` against the map: see [`Resolved`]. `position` is the unit's world
/// position (or why it has none); `claimed` the goal cell claimed for it, if any.
///
/// # Errors
///
/// Why the request cannot be planned before any search: an unknown profile, no
/// position, a start or goal off the map (a goal only without
/// [`PathRequest::nearest_goal`]), a non-finite goal.
pub(crate) fn resolve<'a>(
    grid: &'a NavGrid,
    request: &PathRequest,
    claimed: Option<Cell>,
    position: Result<Vec2, PathFailure>,
    profiles: &MovementProfiles,
) -> Result<Resolved<'a>, PathFailure> {
    let profile = profiles
        .resolve(request.profile.as_deref())
        .ok_or(PathFailure::UnknownProfile)?;
    let position = position?;
    let diameter = request.diameter;
    let from = grid
        .agent_cell(position, diameter)
        .ok_or(PathFailure::StartOffMap { position })?;
    let off_map = PathFailure::GoalOffMap { goal: request.goal };
    let requested = match request.goal {
        PathGoal::Cell(cell) if grid.size().contains(cell) || request.options.nearest_goal => cell,
        PathGoal::Cell(_) => return Err(off_map),
        PathGoal::World(p) if !p.is_finite() => return Err(PathFailure::InvalidGoal),
        PathGoal::World(p) if request.options.nearest_goal => grid
            .agent_cell_anywhere(p, diameter)
            .ok_or(PathFailure::InvalidGoal)?,
        PathGoal::World(p) => grid.agent_cell(p, diameter).ok_or(off_map)?,
    };
    let (goal, goal_radius) = match claimed {
        Some(cell) if request.claim_goal && request.options.goal_radius == 0 => (cell, 0),
        _ => (requested, request.options.goal_radius),
    };
    let layer = grid.scenario().layer_for(profile, diameter);
    let mut start = from;
    let mut label = 0;
    let mut partial = false;
    if let Some(layer) = layer {
        if request.options.nearest_start && layer.is_blocked(from) {
            start = layer.nearest_free(from, |_| true).unwrap_or(from);
        }
        label = layer.components().label(start);
        let radius = request.options.goal_radius;
        let r = i64::from(radius);
        let area = CellRect::from_cell(requested).grow_clip(r, r, grid.size());
        let in_area = |c: &Cell| layer.shape().steps(*c, requested) <= radius;
        partial = label != 0
            && !area
                .cells()
                .filter(in_area)
                .any(|c| layer.components().label(c) == label);
    }
    Ok(Resolved {
        profile,
        layer,
        from,
        start,
        requested,
        goal,
        goal_radius,
        label,
        partial,
    })
}

/// Turns a request into a search query and what its answer reports about its ends, or
/// says why the input is unusable. `position` is the entity's world position (or why it
/// has none); `claimed` the goal cell claimed for it, if any.
///
/// With [`PathRequest::nearest_start`] a blocked start is moved to the nearest standable
/// cell here; with [`PathRequest::nearest_goal`] an off-map goal is kept (the search
/// plans to the reachable cell nearest to it) and the answer is marked partial when the
/// goal area is not reachable from the start (a look at the components, no search).
pub(crate) fn prepare(
    grid: &NavGrid,
    request: &PathRequest,
    claimed: Option<Cell>,
    position: Result<Vec2, PathFailure>,
    settings: &TilepathSettings,
    profiles: &MovementProfiles,
) -> Result<(SearchQuery, Ends), PathFailure> {
    let resolved = resolve(grid, request, claimed, position, profiles)?;
    let query = SearchQuery::new(resolved.start, resolved.goal)
        .algorithm(request.algorithm.unwrap_or(settings.defaults.algorithm))
        .diameter(request.diameter)
        .options(request.options.goal_radius(resolved.goal_radius))
        .limits(request.limits.unwrap_or(settings.defaults.limits))
        .profile(resolved.profile);
    if settings.jump_tables
        && query.algorithm == Algorithm::Auto
        && let (Some(layer), Some(weights)) =
            (resolved.layer, grid.scenario().weights(resolved.profile))
        && Pathfinder::resolve(&query, &weights) == Algorithm::Jps
    {
        // Once per layer and map: Auto runs JPS+ on layers whose table is built.
        layer.build_jump_table();
    }
    Ok((
        query,
        Ends {
            from: resolved.from,
            requested: resolved.requested,
            partial: resolved.partial,
        },
    ))
}

/// What a path reports about its ends beyond the search's own answer: the unit's cell,
/// the requested goal and whether it is out of reach (see [`FoundPath`](crate::components::FoundPath)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ends {
    pub(crate) from: Cell,
    pub(crate) requested: Cell,
    pub(crate) partial: bool,
}
