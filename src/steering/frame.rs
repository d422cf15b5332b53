//! One frame of steering: what it reads of each unit, what it wants, and the moves.

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, TaskPool};

use super::avoid::Avoidance;
use super::exchange::ExchangeKey;
use super::pose::Poses;
use super::size::UnitSize;
use super::walls::{Lattice, Walls};
use super::{Arrived, Steering, SteeringProgress};
use crate::components::{NavGrid, PathResult, PathStatus, Replanning};
use crate::crowd::{AvoidScratch, Crowd, CrowdAgent, Vector};
use crate::grid::Cell;
use crate::scenario::ProfileId;

/// What steering reads and writes of a unit.
pub(super) type Units<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Steering,
        Option<Ref<'static, PathResult>>,
        UnitSize,
        &'static mut Transform,
        &'static mut SteeringProgress,
        Has<Arrived>,
        Has<Replanning>,
        Option<&'static ChildOf>,
        Option<&'static PathStatus>,
    ),
>;

/// A steering unit this frame: what it wants and where it ends up.
#[derive(Clone, Copy)]
pub(super) struct Mover {
    /// Index of its pose.
    pub(super) pose: usize,
    pub(super) diameter: u32,
    /// The profile whose layer keeps it out of walls.
    pub(super) profile: ProfileId,
    /// The cell it walks toward when it stands where it cannot stand.
    pub(super) escape: Cell,
    /// It follows a path (not arrived, not waiting for one).
    pub(super) following: bool,
    /// It has a [`PathRequest`](crate::components::PathRequest) or a
    /// [`Footprint`](crate::components::Footprint), so its movement profile is known and
    /// the crowd may push it; a unit without either is an obstacle the crowd does not
    /// move.
    pub(super) pushable: bool,
    pub(super) avoidance: Avoidance,
    /// Its move this frame, world units: first what path following wants, then what
    /// avoidance allows.
    pub(super) wanted: Vec2,
    /// What path following alone wanted.
    pub(super) followed: Vec2,
    /// The waypoint path following heads for after its move, and whether that move
    /// ends on the goal.
    pub(super) next: usize,
    pub(super) at_goal: bool,
    /// Seconds it has made no headway toward its next waypoint.
    pub(super) stalled: f32,
    /// Seconds it has barely moved, whatever its paths.
    pub(super) still: f32,
    /// Seconds since it last got half a tile closer to its goal.
    pub(super) slow: f32,
    /// It has barely moved for [`GIVE_UP_AFTER`] seconds and touches another unit, or
    /// made no headway for [`SETTLE_AFTER`] seconds and touches a standing one.
    pub(super) walled_in: bool,
    /// The end of its path (plane position; NaN without a path).
    pub(super) goal: Vec2,
    /// Tiles from the end of its path, straight (0 without a path to follow).
    pub(super) to_goal: f32,
    /// Its top step this frame in the cell it stands in (world units), and that cell's
    /// slowness.
    pub(super) max_step: f32,
    pub(super) slow_here: f32,
    /// Its move this frame is the right of way's (it gives way, or waits for one giving
    /// way to it): no waypoint, stall or arrival counts.
    pub(super) giving_way: bool,
    /// It gave way and walks back to its path.
    pub(super) returning: bool,
    /// Which units it may exchange claimed goal cells with (`None`: none).
    pub(super) exchange: Option<ExchangeKey>,
    /// It waits for a new path (it carries [`Replanning`]), or exchanged its goal this
    /// frame: it exchanges nothing (more).
    pub(super) exchanging: bool,
    /// It stands off the goal it arrived on, and may walk back to it (see
    /// `crowd::give_way`).
    pub(super) walk_back: bool,
    /// It rests beyond the reach of every unit that moves this frame, read only as an
    /// obstacle that does not move (see [`super::rest`]).
    pub(super) fixed: bool,
    /// Where it ends the frame.
    pub(super) end: Vec2,
}

/// Buffers of the steering system, reused every frame.
#[derive(Default)]
pub(crate) struct SteerBuffers {
    pub(super) poses: Poses,
    pub(super) movers: Vec<Mover>,
    pub(super) crowd: Crowd,
    /// Avoidance scratch, one per thread; `scratch` serves the neighbour queries.
    pub(super) scratches: Vec<AvoidScratch>,
    pub(super) scratch: AvoidScratch,
    pub(super) velocities: Vec<Vector>,
    pub(super) agents: Vec<CrowdAgent>,
    /// For each agent, its mover.
    pub(super) owners: Vec<usize>,
    pub(super) corrections: Vec<Vector>,
    /// Holding back: each agent's start and end of the frame, in cells, and whether it
    /// stays at its start.
    pub(super) starts: Vec<Vector>,
    pub(super) ends: Vec<Vector>,
    pub(super) held: Vec<bool>,
    /// The goal exchanges of the frame: each walker and the standing unit it exchanges
    /// claimed cells with.
    pub(super) exchanges: Vec<(Entity, Entity)>,
}

/// Agents per thread below which the per-agent work of a frame runs on one thread.
const AGENTS_PER_TASK: usize = 512;

/// Fills `out` (one item per agent) by `work(first, chunk, scratch)` over chunks of
/// agents, on up to `max_threads` threads of the `ComputeTaskPool` (at least
/// [`AGENTS_PER_TASK`] agents a thread), one scratch of `scratches` per chunk. Each item
/// must depend only on what the frame read before, so the result does not depend on the
/// thread count.
pub(super) fn per_agent<T: Send>(
    max_threads: usize,
    out: &mut [T],
    scratches: &mut Vec<AvoidScratch>,
    work: impl Fn(usize, &mut [T], &mut AvoidScratch) + Sync,
) {
    let n = out.len();
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    let threads = pool
        .thread_num()
        .min(max_threads)
        .clamp(1, n.div_ceil(AGENTS_PER_TASK).max(1));
    if scratches.len() < threads {
        scratches.resize_with(threads, AvoidScratch::default);
    }
    if threads == 1 {
        work(0, out, &mut scratches[0]);
        return;
    }
    let chunk = n.div_ceil(threads);
    pool.scope(|scope| {
        for (i, (out, scratch)) in out.chunks_mut(chunk).zip(scratches.iter_mut()).enumerate() {
            let work = &work;
            scope.spawn(async move { work(i * chunk, out, scratch) });
        }
    });
}

/// The end of a move of `step` from `from` for unit `m`, in pieces of less than half a
/// tile, each sliding along the walls of the unit's layer.
pub(super) fn slide(grid: &NavGrid, m: &Mover, from: Vec2, step: Vec2, cell_span: f32) -> Vec2 {
    let Some(layer) = grid.scenario().layer_for(m.profile, m.diameter) else {
        return from;
    };
    if !(step.is_finite() && step != Vec2::ZERO) {
        return from;
    }
    let pieces = (step.length() / (0.45 * cell_span)).ceil().clamp(1.0, 64.0) as u32;
    let piece = step / pieces as f32;
    let walls = Walls {
        grid,
        layer,
        lattice: Lattice::new(grid, m.diameter),
        diameter: m.diameter,
        escape: m.escape,
    };
    let mut p = from;
    for _ in 0..pieces {
        p = walls.slide(p, piece);
    }
    p
}
