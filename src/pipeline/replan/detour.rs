//! Where a unit stands on its path, and provisional detours around cuts ahead of it.

use bevy::prelude::*;

use super::{Context, ReplanState, unit_position};
use crate::components::{FoundPath, NavGrid, PathProgress, PathRequest};
use crate::grid::Cell;
use crate::pipeline::repair::{self, Spliced};

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
    place: (Option<&Transform>, bool),
    path: &FoundPath,
    progress: Option<&PathProgress>,
    diameter: u32,
) -> OnPath {
    let at: Option<Cell> =
        unit_position(cx.transforms, entity, place).and_then(|p| grid.agent_cell(p, diameter));
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

impl ReplanState {
    /// A provisional detour ([`FoundPath::provisional`]) around the first cut of `path`
    /// after `path.cells[on]`, where the unit stands: whatever detour the repairer
    /// splices in, exact or not, for a request that is planned again anyway. `None`
    /// when nothing ahead is cut, the repair budget is spent or no detour was found.
    pub(super) fn detour(
        &mut self,
        grid: &NavGrid,
        request: &PathRequest,
        path: &FoundPath,
        on: usize,
    ) -> Option<FoundPath> {
        if self.repair_left == 0 {
            return None;
        }
        let layer = grid.scenario().layer_for(path.profile, request.diameter)?;
        let cut = repair::cut(layer, &path.cells, on)?;
        let left = &mut self.repair_left;
        let (Spliced::Exact(mut detour) | Spliced::Detour(mut detour)) =
            self.repairer.splice(grid, path, request, on, cut, left)?;
        detour.provisional = true;
        Some(detour)
    }

    /// For a request already waiting in the urgent lane to be planned again, whose unit
    /// walks `path` meanwhile: a provisional detour when a new wall cut that path ahead of
    /// the unit (see [`ReplanState::detour`]), so that it does not wait at the wall.
    pub(super) fn detour_while_queued(
        &mut self,
        cx: &Context<'_, '_, '_>,
        entity: Entity,
        place: (Option<&Transform>, bool),
        request: &PathRequest,
        path: &FoundPath,
        progress: Option<&PathProgress>,
    ) -> Option<FoundPath> {
        let grid = cx.grid?;
        let changed = path.generation < grid.generation();
        if cx.everything || cx.whole_map || !changed || !self.walled {
            return None;
        }
        if !self.near_cut(grid, &path.cells, request.diameter) {
            return None;
        }
        let on = locate(cx, grid, entity, place, path, progress, request.diameter).on?;
        self.detour(grid, request, path, on)
    }
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
