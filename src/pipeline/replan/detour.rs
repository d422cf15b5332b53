//! Provisional detours around cuts ahead of a unit, while its re-plan waits.

use bevy::prelude::*;

use super::ReplanState;
use super::context::Context;
use super::locate::locate;
use crate::components::{FoundPath, NavGrid, PathProgress, PathRequest};
use crate::pipeline::repair::{self, Spliced};
use crate::pipeline::resolve::Place;

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
    /// walks `path` meanwhile: a provisional detour when a wall newer than generation
    /// `since` cut that path ahead of the unit (see [`ReplanState::detour`]), so that it
    /// does not wait at the wall.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn detour_while_queued(
        &mut self,
        cx: &Context<'_, '_, '_>,
        entity: Entity,
        place: Place,
        request: &PathRequest,
        path: &FoundPath,
        progress: Option<&PathProgress>,
        since: u64,
    ) -> Option<FoundPath> {
        let grid = cx.grid?;
        let changed = path.generation < grid.generation();
        if cx.everything || cx.whole_map || !changed {
            return None;
        }
        if !self
            .marks
            .near_cut(grid, &path.cells, request.diameter, since)
        {
            return None;
        }
        let on = locate(cx, grid, entity, place, path, progress, request.diameter).on?;
        self.detour(grid, request, path, on)
    }
}
