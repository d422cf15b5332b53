//! Where the units stand, for the planner: the [`UnitMap`] rebuilt before every solve.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::pose::Poses;
use super::size::UnitSize;
use super::{Arrived, GridStepProgress, GridStepper, Steering, SteeringProgress};
use crate::components::{Footprint, NavGrid, PathRequest, PathResult, UnitMap};
use crate::grid::{Cell, Direction, GridSize};
use crate::main_thread::MainThread;
use crate::search::UnitKind;
use crate::settings::TilepathSettings;

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
        (
            Option<&'static SteeringProgress>,
            Option<&'static GridStepProgress>,
        ),
    ),
    Or<(With<Steering>, With<GridStepper>)>,
>;

/// The steering and grid-stepping units whose cell or kind may have changed since
/// [`mark_units`] last ran.
type Changed<'w, 's> = Query<
    'w,
    's,
    (),
    (
        Or<(With<Steering>, With<GridStepper>)>,
        Or<(
            bevy::prelude::Changed<Transform>,
            bevy::prelude::Changed<PathResult>,
            bevy::prelude::Changed<PathRequest>,
            bevy::prelude::Changed<Footprint>,
            Added<Arrived>,
            Added<Steering>,
            Added<GridStepper>,
        )>,
    ),
>;

/// The steering and grid-stepping units that are child entities (their parents may move
/// them without a change to their own `Transform`).
type Children<'w, 's> = Query<'w, 's, (), (Or<(With<Steering>, With<GridStepper>)>, With<ChildOf>)>;

/// Components whose removal may change a unit's cell or kind, or take it away.
type Gone<'w, 's> = (
    RemovedComponents<'w, 's, Arrived>,
    RemovedComponents<'w, 's, Steering>,
    RemovedComponents<'w, 's, GridStepper>,
    RemovedComponents<'w, 's, PathRequest>,
    RemovedComponents<'w, 's, Footprint>,
);

/// What [`mark_units`] last rebuilt the map for, and whether it marked a moving unit.
#[derive(Clone, Copy)]
pub(crate) struct LastMarks {
    size: GridSize,
    generation: u64,
    moving: bool,
}

/// True while steering or grid-stepping units exist, on the frame the last one goes (so
/// that [`mark_units`] clears its cells), and while congestion is left to cool: the run
/// condition of [`mark_units`].
pub(crate) fn units_to_mark(
    steering: Query<(), With<Steering>>,
    steppers: Query<(), With<GridStepper>>,
    mut gone: RemovedComponents<Steering>,
    mut gone_steppers: RemovedComponents<GridStepper>,
    map: Res<UnitMap>,
) -> bool {
    let gone = gone.read().count() + gone_steppers.read().count() > 0;
    gone || !steering.is_empty() || !steppers.is_empty() || !map.congestion().is_empty()
}

/// True when `cell` lies in a passage for an agent of `diameter` (on the map's walls): at
/// most half of the steps a cell has on an open map lead out of it (a corridor or a gap
/// one unit wide, a door). O(8).
fn narrow(grid: &NavGrid, cell: Cell, diameter: u32) -> bool {
    let Some(layer) = grid.scenario().layer(diameter) else {
        return false;
    };
    let all = layer.shape().neighbours(cell).count_ones();
    let open = Direction::ALL
        .into_iter()
        .filter(|d| {
            let (dx, dy) = d.delta();
            layer.can_step(cell, Cell::new(cell.x + dx, cell.y + dy))
        })
        .count() as u32;
    2 * open <= all
}

/// Seconds without a tile of progress after which a unit with an order crawls, for
/// [`CongestionSettings`](crate::settings::CongestionSettings).
pub(crate) const CRAWL_AFTER: f32 = 1.0;

/// Marks every steering and grid-stepping unit into the [`UnitMap`] at its anchor cell,
/// as wide as its request or its [`Footprint`](crate::components::Footprint) says:
/// standing when it has no [`PathRequest`](crate::components::PathRequest), or has
/// arrived and waits for no new answer; moving otherwise (a unit given an order this
/// frame is about to move). Runs first in the `Solve` set, after intake has marked new
/// orders pending.
///
/// Congestion (when on) first cools by the frame's time, then every moving unit that
/// has got no tile further along its path for [`CRAWL_AFTER`] seconds and stands in a
/// passage raises its cells.
///
/// Nothing is rebuilt in a frame where no unit can have another cell or kind than at the
/// last rebuild: every unit then stood (none was moving), none came, went or changed its
/// `Transform`, result, request, footprint or `Arrived`, none is a child entity, the map
/// kept its size and placement, and no congestion is left to cool. So an army at rest
/// costs a check of its change ticks.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mark_units(
    _main: MainThread,
    grid: Option<Res<NavGrid>>,
    time: Option<Res<Time>>,
    settings: Res<TilepathSettings>,
    mut map: ResMut<UnitMap>,
    units: Marked,
    helper: TransformHelper,
    (changed, children, mut gone): (Changed, Children, Gone),
    mut poses: Local<Poses>,
    mut last: Local<Option<LastMarks>>,
) {
    let Some(grid) = grid else {
        *last = None;
        return;
    };
    let size = grid.scenario().size();
    let generation = grid.whole_map_generation();
    // Read every removal (each reader keeps its own place in the log).
    let removed = gone.0.read().count()
        + gone.1.read().count()
        + gone.2.read().count()
        + gone.3.read().count()
        + gone.4.read().count()
        > 0;
    let quiet = last.is_some_and(|l| l.size == size && l.generation == generation && !l.moving)
        && !removed
        && changed.is_empty()
        && children.is_empty()
        && map.congestion().is_empty();
    if quiet {
        return;
    }
    let mut moving = false;
    let (cells, congestion) = map.parts_mut();
    cells.clear(size);
    let dt = time.map_or(0.0, |t| t.delta_secs());
    let on = settings.congestion.is_on();
    let (rise, fall) = settings.congestion.steps(dt);
    if on {
        congestion.resize(size);
        congestion.cool(fall);
    } else {
        congestion.clear();
    }
    poses.begin();
    for (entity, transform, parent, ..) in &units {
        poses.add(entity, transform.translation, parent);
    }
    poses.finish(&helper, grid.placement());
    for pose in &poses.poses {
        let Ok((_, _, _, size, result, arrived, (steering, stepper))) = units.get(pose.entity)
        else {
            continue;
        };
        let diameter = size.diameter();
        let waiting = result.is_some_and(PathResult::is_pending);
        let kind = if size.request.is_none() || (arrived && !waiting) {
            UnitKind::Standing
        } else {
            UnitKind::Moving
        };
        let Some(cell) = grid.plane_agent_cell(pose.at, diameter) else {
            continue;
        };
        cells.mark(cell, diameter, kind);
        moving |= kind == UnitKind::Moving;
        let stalled = steering.map_or(0.0, SteeringProgress::stalled_for)
            + stepper.map_or(0.0, |s| s.stalled_ticks() as f32 * dt);
        if on && kind == UnitKind::Moving && stalled >= CRAWL_AFTER && narrow(&grid, cell, diameter)
        {
            congestion.raise(cell, diameter, rise);
        }
    }
    *last = Some(LastMarks {
        size,
        generation,
        moving,
    });
}
