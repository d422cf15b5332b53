//! Where a unit stands on its found path, from its position and its [`PathProgress`].

use bevy::prelude::*;

use super::context::Context;
use crate::components::{FoundPath, NavGrid, PathProgress};
use crate::grid::Cell;
use crate::pipeline::resolve::{Place, world_position};

/// Where a unit is along its path.
pub(super) struct OnPath {
    /// The unit's anchor cell, when its position is known and on the map.
    pub(super) at: Option<Cell>,
    /// The index of the unit's cell in the path's cells, when it stands on one.
    pub(super) on: Option<usize>,
    /// The index from which cuts matter: the unit's cell or the cell before the waypoint
    /// its steering heads for, whichever comes first (0 when neither is known).
    pub(super) ahead: usize,
}

/// Where the unit `entity` (at `place`, with steering `progress`) stands on `path`.
pub(super) fn locate(
    cx: &Context<'_, '_, '_>,
    grid: &NavGrid,
    entity: Entity,
    place: Place,
    path: &FoundPath,
    progress: Option<&PathProgress>,
    diameter: u32,
) -> OnPath {
    let at: Option<Cell> = world_position(cx.transforms, entity, Some(place))
        .ok()
        .and_then(|p| grid.agent_cell(p, diameter));
    let hint = progress.and_then(|p| next_cell(grid, path, p, diameter));
    let on = at.and_then(|c| {
        // Usually next to the waypoint the unit heads for.
        let near = hint.map_or(0..0, |h| h..(h + 3).min(path.cells.len()));
        near.clone()
            .find(|&i| path.cells[i] == c)
            .or_else(|| path.cells.iter().position(|&x| x == c))
    });
    let ahead = match (on, hint) {
        (Some(i), Some(h)) => i.min(h),
        (Some(i), None) => i,
        (None, Some(h)) => h,
        (None, None) => 0,
    };
    OnPath { at, on, ahead }
}

/// The index in `path.cells` of the cell before the waypoint the unit heads for, when
/// its steering follows `path`.
fn next_cell(
    grid: &NavGrid,
    path: &FoundPath,
    progress: &PathProgress,
    diameter: u32,
) -> Option<usize> {
    let previous = progress.next_waypoint.checked_sub(1)?;
    if path.waypoints.len() == path.cells.len() {
        return Some(previous.min(path.cells.len().saturating_sub(1)));
    }
    let cell = grid.agent_cell(*path.waypoints.get(previous)?, diameter)?;
    path.cells.iter().position(|&c| c == cell)
}
