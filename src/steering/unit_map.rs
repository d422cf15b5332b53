//! Where the units stand, for the planner: the [`UnitMap`] rebuilt before every solve.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::pose::Poses;
use super::size::UnitSize;
use super::{Arrived, GridStepper, Steering};
use crate::components::{NavGrid, PathResult, UnitMap};
use crate::main_thread::MainThread;
use crate::search::UnitKind;

/// A unit as the planner sees it.
type Marked<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Transform,
        Option<&'static ChildOf>,
        UnitSize,
        Option<&'static PathResult>,
        Has<Arrived>,
    ),
    Or<(With<Steering>, With<GridStepper>)>,
>;

/// True while steering or grid-stepping units exist, and on the frame the last one goes
/// (so that [`mark_units`] clears its cells): the run condition of [`mark_units`].
pub(crate) fn units_to_mark(
    steering: Query<(), With<Steering>>,
    steppers: Query<(), With<GridStepper>>,
    mut gone: RemovedComponents<Steering>,
    mut gone_steppers: RemovedComponents<GridStepper>,
) -> bool {
    let gone = gone.read().count() + gone_steppers.read().count() > 0;
    gone || !steering.is_empty() || !steppers.is_empty()
}

/// Marks every steering and grid-stepping unit into the [`UnitMap`] at its anchor cell,
/// as wide as its request or its [`Footprint`](crate::components::Footprint) says:
/// standing when it has no [`PathRequest`](crate::components::PathRequest), or has
/// arrived and waits for no new answer; moving otherwise (a unit given an order this
/// frame is about to move). Runs first in the `Solve` set, after intake has marked new
/// orders pending.
pub(crate) fn mark_units(
    _main: MainThread,
    grid: Option<Res<NavGrid>>,
    mut map: ResMut<UnitMap>,
    units: Marked,
    helper: TransformHelper,
    mut poses: Local<Poses>,
) {
    let Some(grid) = grid else {
        return;
    };
    let cells = map.cells_mut();
    cells.clear(grid.scenario().size());
    poses.begin();
    for (entity, transform, parent, ..) in &units {
        poses.add(entity, transform.translation, parent);
    }
    poses.finish(&helper, grid.placement());
    for pose in &poses.poses {
        let Ok((_, _, _, size, result, arrived)) = units.get(pose.entity) else {
            continue;
        };
        let diameter = size.diameter();
        let waiting = result.is_some_and(PathResult::is_pending);
        let kind = if size.request.is_none() || (arrived && !waiting) {
            UnitKind::Standing
        } else {
            UnitKind::Moving
        };
        if let Some(cell) = grid.plane_agent_cell(pose.at, diameter) {
            cells.mark(cell, diameter, kind);
        }
    }
}
