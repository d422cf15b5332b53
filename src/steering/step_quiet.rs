//! Quiet ticks of grid stepping: when every grid stepper stood settled after a tick and
//! nothing a tick reads has changed since, the next tick would change nothing either,
//! so it is skipped (the [`Occupancy`](super::Occupancy) stays as that tick left it).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::stepper::Steppers;
use super::{Arrived, GridStepProgress, GridStepper};
use crate::components::{Footprint, NavGrid, PathRequest, PathResult, Replanning};
use crate::grid::{Cell, GridSize};

/// The grid steppers a change since the last tick concerns (of what a tick reads: a
/// tick's own moves are not seen).
pub(crate) type StepChanged<'w, 's> = Query<
    'w,
    's,
    (),
    (
        With<GridStepper>,
        Or<(
            Changed<Transform>,
            Changed<PathResult>,
            Changed<GridStepper>,
            Changed<PathRequest>,
            Changed<Footprint>,
            Added<Arrived>,
            Added<Replanning>,
        )>,
    ),
>;

/// What else changed since the last tick: removals, and child entities.
#[derive(SystemParam)]
pub(crate) struct StepChanges<'w, 's> {
    children: Query<'w, 's, (), (With<GridStepper>, With<ChildOf>)>,
    arrived: RemovedComponents<'w, 's, Arrived>,
    steppers: RemovedComponents<'w, 's, GridStepper>,
    requests: RemovedComponents<'w, 's, PathRequest>,
    footprints: RemovedComponents<'w, 's, Footprint>,
}

impl StepChanges<'_, '_> {
    /// True when something a tick reads may have changed, `changed` the units of
    /// [`StepChanged`] (read once a tick: each removal is seen once). A child entity may
    /// be moved by its parent unseen, so one always counts.
    fn any(&mut self, changed: &StepChanged) -> bool {
        let removed = self.arrived.read().count()
            + self.steppers.read().count()
            + self.requests.read().count()
            + self.footprints.read().count();
        removed > 0 || !changed.is_empty() || !self.children.is_empty()
    }
}

/// The map a quiet tick was on: its size and generation (any edit changes it).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Quiet(Option<(GridSize, u64)>);

impl Quiet {
    /// True when this tick can be skipped: the last one ended quiet, on the same map,
    /// and nothing changed since.
    pub(super) fn skip(
        &mut self,
        grid: &NavGrid,
        changes: &mut StepChanges,
        units: &StepChanged,
    ) -> bool {
        let changed = changes.any(units);
        let same = self.0 == Some((grid.size(), grid.generation()));
        if changed || !same {
            self.0 = None;
        }
        !changed && same
    }

    /// Ends a tick: quiet when no unit moved and every unit is settled
    /// ([`all_settled`]).
    pub(super) fn end(&mut self, grid: &NavGrid, moved: bool, all_settled: bool) {
        self.0 = (!moved && all_settled).then(|| (grid.size(), grid.generation()));
    }
}

/// True when every unit of `at` (each entity and its anchor cell) is [`settled`].
pub(super) fn all_settled(
    units: &Steppers,
    mut at: impl Iterator<Item = (Entity, Option<Cell>)>,
) -> bool {
    at.all(|(entity, anchor)| {
        units
            .get(entity)
            .is_ok_and(|(_, _, result, _, _, progress, arrived, ..)| {
                settled(result.as_deref(), progress, arrived, anchor)
            })
    })
}

/// True when a unit on `at` has nothing left to do on its own: it has no path (none, or
/// one still pending, or a failure), or it arrived on its path's last cell with no
/// detour left.
fn settled(
    result: Option<&PathResult>,
    progress: &GridStepProgress,
    arrived: bool,
    at: Option<Cell>,
) -> bool {
    match result.and_then(PathResult::found) {
        None => true,
        Some(path) => {
            arrived
                && progress.detour.is_empty()
                && progress.next >= path.cells.len()
                && at.is_some()
                && at == path.cells.last().copied()
        }
    }
}
