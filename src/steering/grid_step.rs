//! Grid stepping: units that move one whole cell per tick and hold the cells they stand on.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::Arrived;
use super::occupancy::Occupancy;
use super::passage;
use super::pose::{Poses, write_position};
use super::sidestep::{Reach, Sidestep};
use super::step_out::{step_from, way_out};
use super::step_quiet::{Quiet, StepChanged, StepChanges, all_settled};
use super::stepper::{
    Steppers, Turn, Way, WayAhead, is_idle, next_of, overlaps, profile_of, take_result,
};
use crate::components::{NavGrid, Replanning};
use crate::grid::Cell;
use crate::main_thread::MainThread;
use crate::scenario::ProfileId;
use crate::shape::GridShape;
use crate::stats::TilepathStats;

#[derive(Clone, Copy)]
struct Standing {
    diameter: u32,
    /// Its anchor cell, `None` off the map.
    anchor: Option<Cell>,
}

/// Buffers of [`step_on_grid`], reused every tick.
#[derive(Default)]
pub(crate) struct StepBuffers {
    poses: Poses,
    standing: Vec<Standing>,
    sidestep: Sidestep,
    /// Whether a unit moved this tick, and whether the last tick ended quiet.
    moved: bool,
    quiet: Quiet,
}

/// Moves grid-stepping units one cell (see [`GridStepper`](super::GridStepper)).
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_on_grid(
    _main: MainThread,
    grid: Option<Res<NavGrid>>,
    mut occupancy: ResMut<Occupancy>,
    mut commands: Commands,
    mut buffers: Local<StepBuffers>,
    mut set: ParamSet<(Steppers, TransformHelper, StepChanged)>,
    mut changes: StepChanges,
    mut stats: ResMut<TilepathStats>,
) {
    let Some(grid) = grid else {
        return;
    };
    let b = &mut *buffers;
    if b.quiet.skip(&grid, &mut changes, &set.p2()) {
        return;
    }
    b.moved = false;
    b.poses.begin();
    for (entity, _, _, _, transform, _, _, _, parent) in set.p0().iter() {
        b.poses.add(entity, transform.translation, parent);
    }
    b.poses.finish(&set.p1(), grid.placement());
    stats.steered += b.poses.poses.len();
    let mut units = set.p0();
    occupancy.clear(grid.size(), grid.layout().shape());
    b.standing.clear();
    for pose in &b.poses.poses {
        let diameter = units
            .get(pose.entity)
            .ok()
            .map_or(1, |(_, _, _, size, ..)| size.diameter());
        let anchor = grid.plane_agent_cell(pose.at, diameter);
        if let Some(anchor) = anchor {
            occupancy.hold(anchor, diameter, pose.entity);
        }
        b.standing.push(Standing { diameter, anchor });
    }
    for k in 0..b.standing.len() {
        let entity = b.poses.poses[k].entity;
        let turn = begin_turn(
            &mut units,
            &grid,
            &occupancy,
            &mut commands,
            entity,
            b.standing[k],
        );
        match turn {
            Turn::Rest => {}
            Turn::Step(to) => match oncoming(&units, &occupancy, &grid, b, k) {
                None => move_unit(&mut units, &mut occupancy, &grid, b, k, to, true),
                holder => blocked(
                    &mut units,
                    &mut occupancy,
                    &grid,
                    &mut commands,
                    b,
                    k,
                    to,
                    holder,
                ),
            },
            Turn::Blocked { want, holder } => {
                blocked(
                    &mut units,
                    &mut occupancy,
                    &grid,
                    &mut commands,
                    b,
                    k,
                    want,
                    holder,
                );
            }
        }
    }
    let at = (b.poses.poses.iter().zip(&b.standing)).map(|(pose, unit)| (pose.entity, unit.anchor));
    b.quiet.end(&grid, b.moved, all_settled(&units, at));
}

/// Takes note of a new result or arrival and counts the tick; returns what the unit
/// wants.
fn begin_turn(
    units: &mut Steppers,
    grid: &NavGrid,
    occupancy: &Occupancy,
    commands: &mut Commands,
    entity: Entity,
    unit: Standing,
) -> Turn {
    let Ok((_, stepper, result, size, _, mut progress, arrived, replanning, _)) =
        units.get_mut(entity)
    else {
        return Turn::Rest;
    };
    let (Some(result), Some(at)) = (result, unit.anchor) else {
        return Turn::Rest;
    };
    let Some((path, arrived)) = take_result(&result, &mut progress, arrived, at, commands, entity)
    else {
        return Turn::Rest;
    };
    let shape = grid.layout().shape();
    let left = progress.detour.len() + path.cells.len().saturating_sub(progress.next);
    let goal = (!arrived && left > 0)
        .then(|| path.cells.last().copied())
        .flatten();
    progress.track(goal, left);
    if progress.detour.is_empty() && progress.next >= path.cells.len() {
        if !arrived {
            commands.entity(entity).insert(Arrived);
        }
        // A unit that stepped aside goes back to its goal when it is free, after
        // `patience` ticks (time for the unit it made room for to pass).
        let home = path.cells[path.cells.len() - 1];
        if at == home {
            progress.waited = 0;
            return Turn::Rest;
        }
        progress.waited += 1;
        // Pushed further off (it made room twice, or its way back is held): after
        // `4 × patience` ticks it asks for a path home from where it stands.
        let patience = stepper.patience.max(1);
        if shape.steps(at, home) > 1
            && progress.waited > 4 * patience
            && !replanning
            && size.request.is_some()
        {
            commands.entity(entity).insert(Replanning);
            progress.waited = 0;
            return Turn::Rest;
        }
        let back = progress.waited > stepper.patience
            && shape.steps(at, home) == 1
            && occupancy.is_free_for(home, unit.diameter, entity)
            && grid
                .scenario()
                .layer_for(path.profile, unit.diameter)
                .is_some_and(|layer| layer.can_step(at, home));
        return if back { Turn::Step(home) } else { Turn::Rest };
    }
    progress.ticks += 1;
    if progress.ticks < stepper.ticks_per_step {
        return Turn::Rest;
    }
    let Some(&want) = progress
        .detour
        .first()
        .or_else(|| path.cells.get(progress.next))
    else {
        return Turn::Rest;
    };
    let layer = grid.scenario().layer_for(path.profile, unit.diameter);
    // Deep in a wall (painted over it, or spawned in it): straight out toward the path.
    let want = match layer {
        Some(layer) if layer.is_blocked(at) && shape.steps(at, want) > 1 => {
            progress.detour.splice(0..0, way_out(grid, at, want));
            progress.detour[0]
        }
        _ => want,
    };
    let free_here = layer
        .is_some_and(|layer| shape.steps(at, want) <= 1 && step_from(layer, at, want, path.start));
    if free_here && occupancy.is_free_for(want, unit.diameter, entity) {
        Turn::Step(want)
    } else {
        Turn::Blocked {
            want,
            holder: occupancy.blocker(want, unit.diameter, entity),
        }
    }
}

/// Moves unit `k` to `to`: its cells, its `Transform`; when `own_turn`, its progress
/// along its detour or path too.
fn move_unit(
    units: &mut Steppers,
    occupancy: &mut Occupancy,
    grid: &NavGrid,
    b: &mut StepBuffers,
    k: usize,
    to: Cell,
    own_turn: bool,
) {
    let pose = b.poses.poses[k];
    let unit = b.standing[k];
    let Ok((_, _, _, _, mut transform, mut progress, ..)) = units.get_mut(pose.entity) else {
        return;
    };
    b.moved = true;
    if let Some(at) = unit.anchor {
        occupancy.release(at, unit.diameter, pose.entity);
    }
    occupancy.hold(to, unit.diameter, pose.entity);
    b.standing[k].anchor = Some(to);
    write_position(
        &mut transform,
        pose.parent.as_ref(),
        grid.placement(),
        grid.plane_agent_center(to, unit.diameter),
    );
    if own_turn {
        progress.stepped();
    }
}

/// A unit whose next cell is taken or blocked: an idle holder steps aside; otherwise it
/// waits, walks around, or backs off (see [`GridStepper`](super::GridStepper)).
#[allow(clippy::too_many_arguments)]
fn blocked(
    units: &mut Steppers,
    occupancy: &mut Occupancy,
    grid: &NavGrid,
    commands: &mut Commands,
    b: &mut StepBuffers,
    k: usize,
    want: Cell,
    holder: Option<Entity>,
) {
    let entity = b.poses.poses[k].entity;
    let unit = b.standing[k];
    let Some(at) = unit.anchor else {
        return;
    };
    let shape = grid.layout().shape();
    let keep_clear = (want, unit.diameter);
    // Idle holders step aside, off the next cells of this unit's way.
    let mut holder = holder;
    let ahead = way_ahead(units, b, entity, 3);
    let mut moved = false;
    while let Some(h) = holder
        && let Some(i) = b.poses.index_of(h)
        && is_idle(units, h)
        && let Some(to) = aside(units, occupancy, grid, &mut *b, i, |c, d| {
            !overlaps(shape, (c, d), keep_clear)
                && ahead.iter().all(|&r| !overlaps(shape, (c, d), r))
        })
    {
        move_unit(units, occupancy, grid, b, i, to, false);
        moved = true;
        holder = occupancy.blocker(want, unit.diameter, entity);
    }
    if moved && holder.is_none() && shape.steps(at, want) <= 1 {
        move_unit(units, occupancy, grid, b, k, want, true);
        return;
    }
    let Ok((_, stepper, Some(result), size, _, progress, _, replanning, _)) = units.get(entity)
    else {
        return;
    };
    let Some(path) = result.found() else {
        return;
    };
    let Some(layer) = grid.scenario().layer_for(path.profile, unit.diameter) else {
        return;
    };
    let rest = path.cells.get(progress.next..).unwrap_or_default();
    let patience = stepper.patience.max(1);
    let waited = progress.waited + 1;
    let next = progress.next;
    let facing = holder.filter(|&h| wants_cell(units, b, shape, h, at, unit));
    let ask_replan = waited >= 16 * patience && !replanning && size.request.is_some();
    let open = |c: Cell| occupancy.is_free_for(c, unit.diameter, entity);
    // Walk around the units in the way, to a cell further along the path.
    let mut detour: Option<(usize, Way)> = None;
    let mut back: Option<(usize, Way)> = None;
    let off_path = shape.steps(at, want) > 1;
    if waited.is_multiple_of(patience) || off_path {
        let ahead = &rest[..rest.len().min(9)];
        let rejoin = |c: Cell| ahead.iter().position(|&p| p == c).map(|i| next + i);
        detour = b
            .sidestep
            .find(layer, at, Reach::NEAR, rejoin, open)
            .map(|i| (i, b.sidestep.cells().iter().copied().collect()));
    }
    if detour.is_none() && off_path && progress.gave_way && unit.diameter == 1 {
        // Back from a refuge further than a sidestep reaches: onto the cell it left (the
        // one before `next`) or one further along.
        let from = next.saturating_sub(1);
        let ahead = path.cells.get(from..).unwrap_or_default();
        let ahead = &ahead[..ahead.len().min(passage::LOOKAHEAD)];
        let rejoin = |c: Cell| ahead.iter().position(|&p| p == c).map(|i| from + i);
        detour = b
            .sidestep
            .find(layer, at, Reach::FAR, rejoin, open)
            .map(|i| (i, b.sidestep.cells().iter().copied().collect()));
        if detour.is_none() {
            // Units stand on every way back: it takes the shortest one, whoever stands on
            // it, and waits; its next cell is then one step away, so the rules above see
            // whom it faces.
            back = b
                .sidestep
                .find(layer, at, Reach::FAR, rejoin, |_| true)
                .map(|i| (i, b.sidestep.cells().iter().copied().collect()));
        }
    }
    // Two units facing each other: one walks to the nearest cell off the other's way.
    // In a one-lane stretch the one that gives way (see `passage::gives_way`) does at
    // once; elsewhere the unit of the larger entity first, the other if that one has not.
    let mut refuge: Option<Way> = None;
    if detour.is_none()
        && let Some(h) = facing
        && waited >= refuge_after(units, grid, b, k, h) * patience
    {
        let theirs = way_ahead(units, b, h, 16);
        let off_their_way = |c: Cell| {
            let mine = (c, unit.diameter);
            theirs
                .iter()
                .all(|&r| !overlaps(shape, mine, r))
                .then_some(())
        };
        let near = b.sidestep.find(layer, at, Reach::NEAR, off_their_way, open);
        refuge = if near.is_some()
            || (b.sidestep)
                .find(layer, at, Reach::FAR, off_their_way, open)
                .is_some()
        {
            Some(b.sidestep.cells().iter().copied().collect())
        } else {
            make_room(units, occupancy, grid, b, k, h, &theirs).map(|c| Way::from_slice(&[c]))
        };
    }
    if ask_replan {
        commands.entity(entity).insert(Replanning);
    }
    let Ok((_, _, _, _, _, mut progress, ..)) = units.get_mut(entity) else {
        return;
    };
    progress.waited = waited;
    progress.ticks = 0;
    if let Some((index, way)) = detour {
        progress.detour.clear();
        progress.detour.extend_from_slice(&way);
        progress.next = index + 1;
        progress.gave_way = false;
        let first = progress.detour[0];
        move_unit(units, occupancy, grid, b, k, first, true);
    } else if let Some(way) = refuge {
        // The way back onto the path is found once the other has passed.
        progress.gave_way = true;
        progress.detour.clear();
        progress.detour.extend_from_slice(&way);
        let first = progress.detour[0];
        move_unit(units, occupancy, grid, b, k, first, true);
    } else if let Some((index, way)) = back {
        progress.detour.clear();
        progress.detour.extend_from_slice(&way);
        progress.next = index + 1;
    }
}

/// A refuge for unit `k` of diameter 1, facing unit `h` (whose next cells are
/// `theirs`), when the units queued behind it box it in: the fewest steps from its cell,
/// the first off `theirs`, through cells held by waiting units of diameter 1 (not `h`)
/// to a free cell. Those units each step one cell along the way, the last onto the
/// free cell; returns the way's first cell, now free. One [`Sidestep`] search and one
/// step per unit on the way.
fn make_room(
    units: &mut Steppers,
    occupancy: &mut Occupancy,
    grid: &NavGrid,
    b: &mut StepBuffers,
    k: usize,
    h: Entity,
    theirs: &WayAhead,
) -> Option<Cell> {
    let (me, unit) = (b.poses.poses[k].entity, b.standing[k]);
    let at = unit.anchor.filter(|_| unit.diameter == 1)?;
    let shape = grid.layout().shape();
    let layer_of = |e: Entity| grid.scenario().layer_for(profile_of(units, e), 1);
    let layer = layer_of(me)?;
    let queued = |f: Entity| {
        f != h
            && b.poses
                .index_of(f)
                .is_some_and(|i| b.standing[i].diameter == 1)
            && !is_idle(units, f)
            && units
                .get(f)
                .is_ok_and(|(.., progress, _, _, _)| progress.waited > 0)
    };
    let off = |c: Cell| theirs.iter().all(|&r| !overlaps(shape, (c, 1), r));
    let open =
        |c: Cell| (shape.steps(at, c) != 1 || off(c)) && occupancy.holder(c).is_none_or(&queued);
    let free = |c: Cell| occupancy.holder(c).is_none().then_some(());
    let mut search = std::mem::take(&mut b.sidestep);
    let found = search.find(layer, at, Reach::NEAR, free, open).is_some();
    let way: Way = search.cells().iter().copied().collect();
    b.sidestep = search;
    let first = *way.first().filter(|_| found)?;
    // Every unit on the way must be able to take its step before any moves.
    let steps_ok = way.windows(2).all(|w| {
        occupancy
            .holder(w[0])
            .is_none_or(|f| layer_of(f).is_some_and(|l| l.can_step(w[0], w[1])))
    });
    if !steps_ok {
        return None;
    }
    for w in way.windows(2).rev() {
        if let Some(i) = occupancy.holder(w[0]).and_then(|f| b.poses.index_of(f)) {
            move_unit(units, occupancy, grid, b, i, w[1], false);
            // It steps back onto the cell it made room from before its way goes on, so
            // that the cell it wants next is always one step away.
            if let Ok((.., mut progress, _, _, _)) = units.get_mut(b.poses.poses[i].entity) {
                progress.detour.insert(0, w[0]);
            }
        }
    }
    occupancy.holder(first).is_none().then_some(first)
}

/// Ticks (in `patience`) unit `k`, facing unit `h`, waits before it walks off `h`'s way:
/// 2 when they meet in a one-lane stretch and `k` gives way; 6 when `h` gives way (`k`
/// goes only if `h` cannot); elsewhere 4 for the larger entity, 6 for the other.
fn refuge_after(units: &Steppers, grid: &NavGrid, b: &StepBuffers, k: usize, h: Entity) -> u32 {
    let me = b.poses.poses[k].entity;
    let (mine, theirs) = (
        lane_depth(units, grid, b, me),
        lane_depth(units, grid, b, h),
    );
    if mine + theirs == 0 {
        return if h < me { 4 } else { 6 };
    }
    if passage::gives_way((mine, me), (theirs, h)) {
        2
    } else {
        6
    }
}

/// How deep unit `e` stands in a one-lane stretch of its path ([`passage::depth`]); 0
/// on a detour or without a path.
fn lane_depth(units: &Steppers, grid: &NavGrid, b: &StepBuffers, e: Entity) -> usize {
    let (Some(i), Ok((_, _, Some(result), _, _, progress, ..))) =
        (b.poses.index_of(e), units.get(e))
    else {
        return 0;
    };
    let Some(path) = result.found() else {
        return 0;
    };
    let layer = grid
        .scenario()
        .layer_for(path.profile, b.standing[i].diameter);
    match (layer, progress.next.checked_sub(1)) {
        (Some(layer), Some(here)) if progress.detour.is_empty() => {
            passage::depth(layer, &path.cells, here)
        }
        _ => 0,
    }
}

/// The unit that crosses, toward unit `k`, the one-lane stretch `k` is about to enter
/// (the first of its next [`passage::LOOKAHEAD`] cells): `k` waits at the entrance.
fn oncoming(
    units: &Steppers,
    occupancy: &Occupancy,
    grid: &NavGrid,
    b: &StepBuffers,
    k: usize,
) -> Option<Entity> {
    let me = b.poses.poses[k].entity;
    let at = b.standing[k].anchor?;
    let (_, _, Some(result), _, _, progress, ..) = units.get(me).ok()? else {
        return None;
    };
    let path = result.found()?;
    if !progress.detour.is_empty() {
        return None;
    }
    let layer = grid
        .scenario()
        .layer_for(path.profile, b.standing[k].diameter)?;
    let cells = &path.cells;
    passage::entering(layer, cells, progress.next).find_map(|i| {
        let h = occupancy.holder(cells[i]).filter(|&h| h != me)?;
        let behind = if i == progress.next { at } else { cells[i - 1] };
        let next = next_of(units, h)?;
        (next == behind && !is_idle(units, h)).then_some(h)
    })
}

/// True when unit `h` wants to step onto the footprint of the unit at `at`.
fn wants_cell(
    units: &Steppers,
    b: &StepBuffers,
    shape: GridShape,
    h: Entity,
    at: Cell,
    unit: Standing,
) -> bool {
    let Some(i) = b.poses.index_of(h) else {
        return false;
    };
    let Ok((_, _, Some(result), _, _, progress, ..)) = units.get(h) else {
        return false;
    };
    let Some(path) = result.found() else {
        return false;
    };
    let next = progress
        .detour
        .first()
        .or_else(|| path.cells.get(progress.next));
    next.is_some_and(|&c| overlaps(shape, (c, b.standing[i].diameter), (at, unit.diameter)))
}

/// The footprints of the next `n` cells of unit `h`'s way (its detour, then its path).
fn way_ahead(units: &Steppers, b: &StepBuffers, h: Entity, n: usize) -> WayAhead {
    let (Some(i), Ok((_, _, Some(result), _, _, progress, ..))) =
        (b.poses.index_of(h), units.get(h))
    else {
        return WayAhead::new();
    };
    let Some(path) = result.found() else {
        return WayAhead::new();
    };
    let d = b.standing[i].diameter;
    progress
        .detour
        .iter()
        .chain(path.cells.get(progress.next..).unwrap_or_default())
        .take(n)
        .map(|&c| (c, d))
        .collect()
}

/// The first step of unit `h` toward the nearest cell that `keep` accepts (given the
/// cell and the unit's diameter), through free cells, within the reach of a
/// [`Sidestep`].
fn aside(
    units: &Steppers,
    occupancy: &Occupancy,
    grid: &NavGrid,
    b: &mut StepBuffers,
    h: usize,
    keep: impl Fn(Cell, u32) -> bool,
) -> Option<Cell> {
    let entity = b.poses.poses[h].entity;
    let unit = b.standing[h];
    let at = unit.anchor?;
    let profile = units
        .get(entity)
        .ok()
        .and_then(|(_, _, result, ..)| result.and_then(|r| r.found().map(|p| p.profile)))
        .unwrap_or(ProfileId::DEFAULT);
    let layer = grid.scenario().layer_for(profile, unit.diameter)?;
    let open = |c: Cell| occupancy.is_free_for(c, unit.diameter, entity);
    let goal = |c: Cell| keep(c, unit.diameter).then_some(());
    b.sidestep.find(layer, at, Reach::NEAR, goal, open)?;
    b.sidestep.cells().first().copied()
}
