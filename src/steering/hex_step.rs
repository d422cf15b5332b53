//! Grid stepping on hexagonal maps: units move one tile per tick and hold the tiles they cover.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use super::Arrived;
use super::hex_sidestep::HexSidestep;
use super::occupancy::Occupancy;
use super::pose::{Poses, write_world};
use super::stepper::{Steppers, Turn, is_idle, take_result};
use crate::components::{HexGrid, Replanning};
use crate::grid::{Cell, GridSize};
use crate::main_thread::MainThread;
use crate::pipeline::hex_radius;
use crate::scenario::ProfileId;

/// The most steps a way around other units (or out of their way) may take.
const REACH: u32 = 6;

/// The most steps an arrived unit pushed off its goal searches for its way back.
const HOME_REACH: u32 = 12;

/// A grid-stepping unit this tick, in entity order (the order of the poses).
#[derive(Clone, Copy)]
struct Standing {
    /// Its hexagon radius (0: one tile).
    radius: u32,
    /// The tile it stands on, `None` off the map.
    tile: Option<Cell>,
}

/// Buffers of [`step_on_hexes`], reused every tick.
#[derive(Default)]
pub(crate) struct HexStepBuffers {
    poses: Poses,
    standing: Vec<Standing>,
    search: HexSidestep,
}

/// Moves grid-stepping units one tile on the [`HexGrid`] (see
/// [`GridStepper`](super::GridStepper)): the same turns as on square grids, with hexagon
/// footprints (a unit of diameter `d` covers the tiles within `d / 2` steps of its own)
/// and steps to the six neighbours.
pub(crate) fn step_on_hexes(
    _main: MainThread,
    grid: Option<Res<HexGrid>>,
    mut occupancy: ResMut<Occupancy>,
    mut commands: Commands,
    mut buffers: Local<HexStepBuffers>,
    mut set: ParamSet<(Steppers, TransformHelper)>,
) {
    let Some(grid) = grid else {
        return;
    };
    let b = &mut *buffers;
    b.poses.begin();
    for (entity, _, _, _, transform, _, _, _, parent) in set.p0().iter() {
        b.poses.add(entity, transform.translation, parent);
    }
    b.poses.finish_in_world(&set.p1());
    let mut units = set.p0();
    occupancy.clear(GridSize::new(grid.columns(), grid.rows()));
    b.standing.clear();
    for pose in &b.poses.poses {
        let diameter = units
            .get(pose.entity)
            .ok()
            .map_or(1, |(_, _, _, size, ..)| size.diameter());
        let radius = hex_radius(diameter);
        let tile = grid.world_to_tile(pose.at);
        if let Some(tile) = tile {
            occupancy.hold_cells(grid.tiles_within(grid.hex(tile), radius), pose.entity);
        }
        b.standing.push(Standing { radius, tile });
    }
    for k in 0..b.standing.len() {
        let entity = b.poses.poses[k].entity;
        let unit = b.standing[k];
        let search = &mut b.search;
        match begin_turn(
            &mut units,
            &grid,
            &occupancy,
            &mut commands,
            search,
            entity,
            unit,
        ) {
            Turn::Rest => {}
            Turn::Step(to) => move_unit(&mut units, &mut occupancy, &grid, b, k, to, true),
            Turn::Blocked { want, holder } => blocked(
                &mut units,
                &mut occupancy,
                &grid,
                &mut commands,
                b,
                k,
                want,
                holder,
            ),
        }
    }
}

/// True when tiles `a` and `b` are neighbours.
fn adjacent(grid: &HexGrid, a: Cell, b: Cell) -> bool {
    grid.hex(a).distance(grid.hex(b)) == 1
}

/// True when footprints of radii `ra` at `a` and `rb` at `b` share a tile.
fn overlaps(grid: &HexGrid, (a, ra): (Cell, u32), (b, rb): (Cell, u32)) -> bool {
    grid.hex(a).distance(grid.hex(b)) <= ra + rb
}

/// True when a unit of `radius` on `profile` may stand on `tile` (walls only).
fn stands(grid: &HexGrid, profile: ProfileId, tile: Cell, radius: u32) -> bool {
    grid.map(profile)
        .is_some_and(|map| map.can_stand(grid.hex(tile), radius))
}

/// True when no unit but `unit` holds a tile of the footprint of `radius` at `tile`.
fn free_for(grid: &HexGrid, occupancy: &Occupancy, tile: Cell, radius: u32, unit: Entity) -> bool {
    occupancy
        .blocker_of(grid.tiles_within(grid.hex(tile), radius), unit)
        .is_none()
}

/// Takes note of a new result or arrival and counts the tick; returns what the unit
/// wants.
fn begin_turn(
    units: &mut Steppers,
    grid: &HexGrid,
    occupancy: &Occupancy,
    commands: &mut Commands,
    search: &mut HexSidestep,
    entity: Entity,
    unit: Standing,
) -> Turn {
    let Ok((_, stepper, result, _, _, mut progress, arrived, replanning, _)) =
        units.get_mut(entity)
    else {
        return Turn::Rest;
    };
    let (Some(result), Some(at)) = (result, unit.tile) else {
        return Turn::Rest;
    };
    let Some((path, arrived)) = take_result(&result, &mut progress, arrived, at, commands, entity)
    else {
        return Turn::Rest;
    };
    if progress.detour.is_empty() && progress.next >= path.cells.len() {
        if !arrived {
            commands.entity(entity).insert(Arrived);
        }
        // A unit that stepped aside walks back to its goal, after `patience` ticks
        // (time for the unit it made room for to pass), when a way there is free.
        let home = path.cells[path.cells.len() - 1];
        if at == home {
            progress.waited = 0;
            return Turn::Rest;
        }
        progress.waited += 1;
        if progress.waited <= stepper.patience {
            return Turn::Rest;
        }
        let open = |tile: Cell| {
            stands(grid, path.profile, tile, unit.radius)
                && free_for(grid, occupancy, tile, unit.radius, entity)
        };
        if search
            .find(grid, at, HOME_REACH, |c| (c == home).then_some(()), open)
            .is_some()
        {
            return Turn::Step(search.way[0]);
        }
        // No free way back: after a while it asks for a path home, which it then walks
        // as any other, other units making room.
        if progress.waited >= 4 * stepper.patience.max(1) && !replanning {
            commands.entity(entity).insert(Replanning);
        }
        return Turn::Rest;
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
    // Deep in a wall (painted over it, or spawned in it): straight out toward the path.
    let in_wall = !stands(grid, path.profile, at, unit.radius);
    let want = if in_wall && !adjacent(grid, at, want) {
        progress.detour.splice(0..0, way_out(grid, at, want));
        progress.detour.first().copied().unwrap_or(want)
    } else {
        want
    };
    // Out of a wall, any step nearer to the path's start (the nearest free tile) will do.
    let nearer = |t: Cell| {
        let start = grid.hex(path.start);
        grid.hex(t).distance(start) < grid.hex(at).distance(start)
    };
    let open = adjacent(grid, at, want)
        && (stands(grid, path.profile, want, unit.radius) || (in_wall && nearer(want)));
    if open && free_for(grid, occupancy, want, unit.radius, entity) {
        Turn::Step(want)
    } else {
        Turn::Blocked {
            want,
            holder: occupancy.blocker_of(grid.tiles_within(grid.hex(want), unit.radius), entity),
        }
    }
}

/// The tiles strictly between `at` and `to` on the straight line from one to the other
/// (each the tile under an evenly spaced point of the segment between their centres,
/// so that each is a neighbour of the one before): the way a unit off its path goes
/// back to it, and a unit in a wall walks to the start of its path (the free tile
/// nearest to it), as steering units do.
fn way_out(grid: &HexGrid, at: Cell, to: Cell) -> impl Iterator<Item = Cell> + '_ {
    let (from, end) = (grid.tile_to_world(at), grid.tile_to_world(to));
    let steps = grid.hex(at).distance(grid.hex(to));
    (1..steps).filter_map(move |k| grid.world_to_tile(from.lerp(end, k as f32 / steps as f32)))
}

/// Moves unit `k` to `to`: its tiles, its `Transform`; when `own_turn`, its progress
/// along its detour or path too.
fn move_unit(
    units: &mut Steppers,
    occupancy: &mut Occupancy,
    grid: &HexGrid,
    b: &mut HexStepBuffers,
    k: usize,
    to: Cell,
    own_turn: bool,
) {
    let pose = b.poses.poses[k];
    let unit = b.standing[k];
    let Ok((_, _, _, _, mut transform, mut progress, ..)) = units.get_mut(pose.entity) else {
        return;
    };
    if let Some(at) = unit.tile {
        occupancy.release_cells(grid.tiles_within(grid.hex(at), unit.radius), pose.entity);
    }
    occupancy.hold_cells(grid.tiles_within(grid.hex(to), unit.radius), pose.entity);
    b.standing[k].tile = Some(to);
    write_world(&mut transform, pose.parent.as_ref(), grid.tile_to_world(to));
    if own_turn {
        progress.stepped();
    }
}

/// A unit whose next tile is taken or blocked: an idle holder steps aside; otherwise it
/// waits, walks around, or backs off (see [`GridStepper`](super::GridStepper)).
#[allow(clippy::too_many_arguments)]
fn blocked(
    units: &mut Steppers,
    occupancy: &mut Occupancy,
    grid: &HexGrid,
    commands: &mut Commands,
    b: &mut HexStepBuffers,
    k: usize,
    want: Cell,
    holder: Option<Entity>,
) {
    let entity = b.poses.poses[k].entity;
    let unit = b.standing[k];
    let Some(at) = unit.tile else {
        return;
    };
    // Idle holders step aside, off the next tiles of this unit's way.
    let ahead = way_ahead(units, grid, b, entity, 3);
    let mut holder = holder;
    let mut moved = false;
    for _ in 0..=REACH {
        let Some(h) = holder else {
            break;
        };
        let Some(i) = b.poses.index_of(h).filter(|_| is_idle(units, h)) else {
            break;
        };
        let clear = |tile: Cell, radius: u32| {
            !overlaps(grid, (tile, radius), (want, unit.radius))
                && ahead.iter().all(|&a| !overlaps(grid, (tile, radius), a))
        };
        let Some(to) = aside(units, occupancy, grid, b, i, clear) else {
            break;
        };
        move_unit(units, occupancy, grid, b, i, to, false);
        moved = true;
        holder = occupancy.blocker_of(grid.tiles_within(grid.hex(want), unit.radius), entity);
    }
    if moved && holder.is_none() && adjacent(grid, at, want) {
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
    let rest = path.cells.get(progress.next..).unwrap_or_default();
    let patience = stepper.patience.max(1);
    let waited = progress.waited + 1;
    let next = progress.next;
    let profile = path.profile;
    // A holder that waits too (for this unit's tiles, or boxed in by others) will not
    // make room by itself.
    let facing = holder
        .filter(|&h| wants_tile(units, b, h, (at, unit.radius), grid) || is_waiting(units, h));
    let ask_replan = waited >= 16 * patience && !replanning && size.request.is_some();
    let open = |tile: Cell| {
        stands(grid, profile, tile, unit.radius)
            && free_for(grid, occupancy, tile, unit.radius, entity)
    };
    // Walk around the units in the way, to a tile further along the path.
    let mut detour = None;
    if waited.is_multiple_of(patience) || !adjacent(grid, at, want) {
        let ahead = &rest[..rest.len().min(9)];
        let rejoin = |c: Cell| ahead.iter().position(|&p| p == c).map(|i| next + i);
        detour = b.search.find(grid, at, REACH, rejoin, open);
    }
    // Two units facing each other (or waiting on each other): one walks to the nearest
    // tile off the other's way (the unit of the larger entity first, the other if that
    // one has not).
    let mut refuge = false;
    if detour.is_none()
        && let Some(h) = facing
        && waited >= if h < entity { 4 } else { 6 } * patience
    {
        let theirs = way_ahead(units, grid, b, h, 16);
        let off_their_way = |c: Cell| {
            theirs
                .iter()
                .all(|&t| !overlaps(grid, (c, unit.radius), t))
                .then_some(())
        };
        refuge = b
            .search
            .find(grid, at, REACH, off_their_way, open)
            .is_some();
    }
    if ask_replan {
        commands.entity(entity).insert(Replanning);
    }
    let Ok((_, _, _, _, _, mut progress, ..)) = units.get_mut(entity) else {
        return;
    };
    progress.waited = waited;
    progress.ticks = 0;
    if detour.is_some() || refuge {
        if let Some(index) = detour {
            progress.next = index + 1;
        }
        // After a refuge, the way back onto the path is found once the other has passed.
        progress.detour.clear();
        progress.detour.extend_from_slice(&b.search.way);
        let first = progress.detour[0];
        move_unit(units, occupancy, grid, b, k, first, true);
    }
}

/// True when `entity` is on its way but waited for a tile last turn.
fn is_waiting(units: &Steppers, entity: Entity) -> bool {
    !is_idle(units, entity)
        && units
            .get(entity)
            .is_ok_and(|(_, _, _, _, _, progress, ..)| progress.waited > 0)
}

/// True when unit `h` wants to step onto the footprint `mine`.
fn wants_tile(
    units: &Steppers,
    b: &HexStepBuffers,
    h: Entity,
    mine: (Cell, u32),
    grid: &HexGrid,
) -> bool {
    way_ahead(units, grid, b, h, 1)
        .first()
        .is_some_and(|&theirs| overlaps(grid, theirs, mine))
}

/// The footprints of the next tiles of a unit's way, inline up to the 16 a caller asks
/// for (no allocation per blocked unit).
type WayAhead = smallvec::SmallVec<[(Cell, u32); 16]>;

/// The footprints of the next `n` tiles of unit `h`'s way (its detour, then its path;
/// before them the tiles back to it, for a unit off it).
fn way_ahead(
    units: &Steppers,
    grid: &HexGrid,
    b: &HexStepBuffers,
    h: Entity,
    n: usize,
) -> WayAhead {
    let (Some(i), Ok((_, _, Some(result), _, _, progress, ..))) =
        (b.poses.index_of(h), units.get(h))
    else {
        return WayAhead::new();
    };
    let Some(path) = result.found() else {
        return WayAhead::new();
    };
    let Standing { radius, tile } = b.standing[i];
    let mut way = progress
        .detour
        .iter()
        .chain(path.cells.get(progress.next..).unwrap_or_default());
    let mut ahead = WayAhead::new();
    // A unit off its way (pushed aside, or back from a refuge) goes back to it in about
    // a straight line: those tiles are its way too.
    if let (Some(at), Some(&first)) = (tile, way.clone().next())
        && !adjacent(grid, at, first)
    {
        ahead.extend(way_out(grid, at, first).take(n).map(|c| (c, radius)));
    }
    while ahead.len() < n
        && let Some(&c) = way.next()
    {
        ahead.push((c, radius));
    }
    ahead
}

/// The first step of unit `h` toward the nearest tile that `keep` accepts (given the
/// tile and the unit's radius), through free tiles, within [`REACH`] steps.
fn aside(
    units: &Steppers,
    occupancy: &Occupancy,
    grid: &HexGrid,
    b: &mut HexStepBuffers,
    h: usize,
    keep: impl Fn(Cell, u32) -> bool,
) -> Option<Cell> {
    let entity = b.poses.poses[h].entity;
    let unit = b.standing[h];
    let at = unit.tile?;
    let profile = units
        .get(entity)
        .ok()
        .and_then(|(_, _, result, ..)| result.and_then(|r| r.found().map(|p| p.profile)))
        .unwrap_or(ProfileId::DEFAULT);
    let open = |tile: Cell| {
        stands(grid, profile, tile, unit.radius)
            && free_for(grid, occupancy, tile, unit.radius, entity)
    };
    let goal = |tile: Cell| keep(tile, unit.radius).then_some(());
    b.search.find(grid, at, REACH, goal, open)?;
    b.search.way.first().copied()
}
