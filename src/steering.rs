//! Steering: units walk their found paths at the speed the terrain allows, with arrival
//! slow-down and separation, never stepping into a cell blocked for their diameter and
//! movement profile.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use crate::components::{NavGrid, PathProgress, PathRequest, PathResult, Replanning};
use crate::grid::{Cell, Connectivity};
use crate::scenario::{Layer, Weights};

/// Moves the entity along its [`PathResult`] waypoints.
///
/// All distances are in world units, `speed` in world units per second.
///
/// `speed` is the top speed, on terrain of weight 1. A unit moves at `speed / w`, where
/// `w` is the weight its movement profile (the one its path was planned with, see
/// [`crate::components::FoundPath::profile`]) gives the terrain of the cell its centre
/// is in (its anchor cell, [`NavGrid::agent_cell`]; a cell whose terrain the profile
/// blocks counts as weight 1). The speed changes exactly where the unit crosses into
/// another cell, also within a frame, so walking a step from cell `a` to cell `b` takes
/// `length × (w(a) + w(b)) / 2 / speed`: the cost the search minimised
/// ([`crate::components::FoundPath::cost`] cells take `cost × tile / speed` seconds on
/// a straight path of square tiles).
///
/// The unit's
/// position is its world position (its `Transform` composed with those of its `ChildOf`
/// ancestors, computed when steering runs); moves are written back to its local
/// `Transform`, so a unit parented to a moving entity walks in world space. The unit's
/// centre is its agent centre ([`NavGrid::agent_center`]): for even diameters, a cell
/// corner.
///
/// The unit slows down inside `arrival_radius` of its goal, and is pushed away from other
/// steering units closer than `separation_radius` (the push grows to
/// `separation_strength × speed` at zero distance, and never exceeds three quarters of
/// the unit's step along its path, so a crowd slows a unit down but cannot stop it; the
/// whole move is capped at the speed of the cell the unit stands in, so a crowd cannot
/// push a unit through mud at road speed either).
///
/// Walls: the unit's whole footprint, a square of [`PathRequest::diameter`] tiles
/// centred on it, stays out of cells blocked for its diameter and movement profile, not
/// only its centre: a move never makes the footprint overlap a blocked cell it did not
/// already overlap (nor crosses the corner between two blocked anchor cells). A blocked
/// move slides along the free axis, or steps toward the centre of the unit's cell (which
/// lines it up with a corridor as wide as it is), or stays. A unit whose footprint
/// already overlaps a wall (one painted next to it) can only move out of it. A unit
/// whose own cell is blocked for it (a wall painted on it) gets a path from the nearest
/// cell it can stand on ([`crate::components::FoundPath::start`]): it walks straight
/// there first, through blocked cells only while they bring it nearer, then follows the
/// path.
///
/// While a re-plan is pending ([`Replanning`]) the unit keeps walking its old path, or
/// the provisional detour the plugin spliced around a new wall that cut it
/// ([`FoundPath::provisional`](crate::components::FoundPath::provisional)). If a new wall
/// crosses the path it follows, the unit walks up to the last free cell before it and
/// waits there (it never enters the blocked cell) until the new path arrives. A unit
/// that gets no closer to its next waypoint for `replan_after` seconds (pushed behind a
/// wall corner, say) gets the [`Replanning`] marker, so the plugin plans the same request
/// again from where it stands; the plugin never touches the [`PathRequest`] itself.
/// Units whose result is `Pending` (a new or changed request) or `Failed` keep still, as
/// do units whose `speed` is NaN, infinite or not positive (a NaN or infinite
/// `separation_strength`, `separation_radius` or `arrival_radius` counts as 0). On
/// reaching the last waypoint (or, in a crowd, its cell when others hold it back) the
/// unit gets the [`Arrived`] marker and stops; the marker goes as soon as its
/// [`PathResult`] changes (a new order makes it `Pending`, a new path or a failure
/// replaces it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(SteeringProgress, PathProgress)]
pub struct Steering {
    /// Top speed, world units per second.
    pub speed: f32,
    /// Distance from the goal at which the unit starts to slow down.
    pub arrival_radius: f32,
    /// Other units closer than this push the unit away.
    pub separation_radius: f32,
    /// Strength of the push, as a fraction of `speed` at zero distance.
    pub separation_strength: f32,
    /// Seconds without getting closer to the next waypoint before the unit asks for a
    /// new path; zero, negative or infinite never asks.
    pub replan_after: f32,
}

impl Default for Steering {
    fn default() -> Self {
        Self {
            speed: 64.0,
            arrival_radius: 8.0,
            separation_radius: 8.0,
            separation_strength: 0.5,
            replan_after: 1.0,
        }
    }
}

impl Steering {
    /// The numbers steering uses: a NaN or infinite `speed`, `separation_strength`,
    /// `separation_radius` or `arrival_radius` counts as 0 (an infinite step cannot be
    /// checked against walls, and `0 × ∞` would make the unit's position NaN).
    fn sanitized(&self) -> Self {
        let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
        Self {
            speed: finite(self.speed),
            arrival_radius: finite(self.arrival_radius),
            separation_radius: finite(self.separation_radius),
            separation_strength: finite(self.separation_strength),
            replan_after: self.replan_after,
        }
    }

    /// Default steering with the given top speed (world units per second).
    pub fn with_speed(speed: f32) -> Self {
        Self {
            speed,
            ..Self::default()
        }
    }
}

/// Marker: the unit reached the end of its current path.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct Arrived;

/// How a steering unit follows its path: the waypoint it heads for and how long it has
/// made no headway (added with [`Steering`]). Steering keeps the unit's [`PathProgress`],
/// which the re-planner reads, equal to [`SteeringProgress::next_waypoint`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct SteeringProgress {
    next: usize,
    closest: f32,
    stalled: f32,
}

impl Default for SteeringProgress {
    fn default() -> Self {
        Self {
            next: 0,
            closest: f32::INFINITY,
            stalled: 0.0,
        }
    }
}

impl SteeringProgress {
    /// Index of the waypoint the unit is heading for.
    pub fn next_waypoint(&self) -> usize {
        self.next
    }

    /// Seconds the unit has spent without getting closer to its next waypoint.
    pub fn stalled_secs(&self) -> f32 {
        self.stalled
    }

    /// Starts following a new path at waypoint `next`.
    fn restart(&mut self, next: usize) {
        *self = Self {
            next,
            ..Self::default()
        };
    }

    /// Records the waypoint now headed for and the distance to it after a frame of `dt`
    /// seconds; true when the unit has now been stuck for `patience` seconds (the count
    /// starts again).
    fn stuck(
        &mut self,
        next: usize,
        distance: f32,
        tolerance: f32,
        dt: f32,
        patience: f32,
    ) -> bool {
        if next != self.next || distance < self.closest - tolerance {
            self.next = next;
            self.closest = distance;
            self.stalled = 0.0;
            return false;
        }
        self.stalled += dt;
        if patience > 0.0 && patience.is_finite() && self.stalled >= patience {
            self.closest = f32::INFINITY;
            self.stalled = 0.0;
            return true;
        }
        false
    }
}

/// Positions of the steering units of this frame, bucketed by square cells of side
/// `cell` (the largest separation radius) for neighbour queries. Buffers are reused.
#[derive(Default)]
pub(crate) struct SpatialHash {
    cell: f32,
    points: Vec<(Entity, Vec2)>,
    keys: Vec<((i32, i32), u32)>,
}

impl SpatialHash {
    fn key(&self, p: Vec2) -> (i32, i32) {
        (
            (p.x / self.cell).floor() as i32,
            (p.y / self.cell).floor() as i32,
        )
    }

    fn rebuild(&mut self, cell: f32, points: impl Iterator<Item = (Entity, Vec2)>) {
        self.cell = cell.max(1e-3);
        self.points.clear();
        self.points.extend(points);
        self.keys.clear();
        for (i, &(_, p)) in self.points.iter().enumerate() {
            let key = self.key(p);
            self.keys.push((key, i as u32));
        }
        self.keys.sort_unstable();
    }

    /// Calls `f` for every point within one bucket of `p` (a superset of those within `cell`).
    fn for_each_near(&self, p: Vec2, mut f: impl FnMut(Entity, Vec2)) {
        let (kx, ky) = self.key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let key = (kx.saturating_add(dx), ky.saturating_add(dy));
                let start = self.keys.partition_point(|(k, _)| *k < key);
                for &(_, i) in self.keys[start..].iter().take_while(|(k, _)| *k == key) {
                    let (e, q) = self.points[i as usize];
                    f(e, q);
                }
            }
        }
    }
}

/// The rectangle (inclusive corners) of anchor cells that a one-tile square centred on
/// `p` overlaps, with a small tolerance so that touching edges do not count. A unit
/// whose centre is at `p` covers, in world space, exactly the footprints of these
/// anchors: its footprint (its diameter in tiles, centred on `p`) is clear of blocked
/// cells when all of them are free on its layer.
fn overlapped(lattice: &Lattice, p: Vec2) -> (Cell, Cell) {
    const EPS: f32 = 1e-3;
    let u = (p - lattice.corner) / lattice.tile;
    let lo = (u - Vec2::splat(0.5 - EPS)).floor();
    let hi = (u + Vec2::splat(0.5 - EPS)).floor();
    (
        Cell::new(lo.x as i32, lo.y as i32),
        Cell::new(hi.x as i32, hi.y as i32),
    )
}

/// Where a unit may not go: its layer, its anchor lattice and the cell it escapes
/// toward when it stands where it cannot stand (the first cell of its path).
#[derive(Clone, Copy)]
struct Walls<'a> {
    grid: &'a NavGrid,
    layer: &'a Layer,
    lattice: Lattice,
    diameter: u32,
    escape: Cell,
}

impl Walls<'_> {
    /// True when a unit whose centre is at `from` may move to `to` (a short move: less
    /// than half a tile).
    ///
    /// - From a blocked anchor cell (a wall appeared on the unit, or it was pushed
    ///   there), it may stay in that cell, enter a free one, or enter a blocked one that
    ///   is nearer (octile) to its escape cell: it walks out toward its path.
    /// - Otherwise it may stay in its anchor cell or enter a neighbouring free one,
    ///   diagonally only between two free ones, and its footprint may not overlap a
    ///   blocked cell it did not already overlap: a unit never pushes its footprint
    ///   further into a wall, and one that overlaps a wall (a wall painted next to it)
    ///   can only move out of it.
    fn may_move(&self, from: Vec2, to: Vec2) -> bool {
        let (grid, layer) = (self.grid, self.layer);
        let Some(target) = grid.agent_cell(to, self.diameter) else {
            return false;
        };
        let Some(current) = grid.agent_cell(from, self.diameter) else {
            return !layer.is_blocked(target);
        };
        if current.chebyshev(target) > 1 {
            return false;
        }
        if layer.is_blocked(current) {
            let d = |c: Cell| Connectivity::Octile.heuristic(c, self.escape);
            return target == current || !layer.is_blocked(target) || d(target) < d(current);
        }
        if target != current {
            if layer.is_blocked(target) {
                return false;
            }
            if target.x != current.x
                && target.y != current.y
                && (layer.is_blocked(Cell::new(target.x, current.y))
                    || layer.is_blocked(Cell::new(current.x, target.y)))
            {
                return false;
            }
        }
        let (was_lo, was_hi) = overlapped(&self.lattice, from);
        let (lo, hi) = overlapped(&self.lattice, to);
        let inside_before =
            |c: Cell| c.x >= was_lo.x && c.x <= was_hi.x && c.y >= was_lo.y && c.y <= was_hi.y;
        (lo.y..=hi.y).all(|y| {
            (lo.x..=hi.x).all(|x| {
                let c = Cell::new(x, y);
                !layer.is_blocked(c) || inside_before(c)
            })
        })
    }

    /// One small move with sliding: the full step, else its x part, else its y part (each
    /// only when it is at least a fifth of the step), else a step of the same length
    /// toward the centre of the unit's anchor cell (which lines a unit up with a
    /// corridor it could not enter off-centre), else none.
    fn slide(&self, from: Vec2, step: Vec2) -> Vec2 {
        let length = step.length();
        let useful = |part: f32| part.abs() >= 0.2 * length;
        let mut candidates = [None; 4];
        candidates[0] = Some(from + step);
        if useful(step.x) {
            candidates[1] = Some(from + Vec2::new(step.x, 0.0));
        }
        if useful(step.y) {
            candidates[2] = Some(from + Vec2::new(0.0, step.y));
        }
        if let Some(cell) = self.grid.agent_cell(from, self.diameter)
            && !self.layer.is_blocked(cell)
        {
            let centre = self.grid.agent_center(cell, self.diameter);
            let to_centre = centre - from;
            candidates[3] = Some(from + to_centre.clamp_length_max(length));
        }
        for candidate in candidates.into_iter().flatten() {
            if candidate != from && self.may_move(from, candidate) {
                return candidate;
            }
        }
        from
    }
}

/// Anchor cells of one diameter in world space, for finding where a straight move
/// crosses from one cell into the next.
#[derive(Clone, Copy)]
struct Lattice {
    /// World position of the corner of anchor cell (0, 0) with the smallest coordinates.
    corner: Vec2,
    tile: Vec2,
}

impl Lattice {
    fn new(grid: &NavGrid, diameter: u32) -> Self {
        let tile = grid.tile_size();
        Self {
            corner: grid.agent_center(Cell::new(0, 0), diameter) - tile * 0.5,
            tile,
        }
    }

    /// World distance from `at` along the unit vector `dir` to the next line between
    /// anchor cells strictly ahead (infinite when `dir` is zero or the tiles are
    /// degenerate). A point on a line counts as being in the cell ahead of it.
    fn exit_distance(&self, at: Vec2, dir: Vec2) -> f32 {
        let u = (at - self.corner) / self.tile;
        let du = dir / self.tile;
        let axis = |u: f32, du: f32| {
            if du > 0.0 {
                (u.floor() + 1.0 - u) / du
            } else if du < 0.0 {
                (u - (u.ceil() - 1.0)) / -du
            } else {
                f32::INFINITY
            }
        };
        let d = axis(u.x, du.x).min(axis(u.y, du.y));
        if d.is_finite() { d } else { f32::INFINITY }
    }
}

/// How much slower than its top speed a unit moves, per world position: the weight of its
/// anchor cell under its profile (1 off the map, where the profile is unknown and on
/// terrain it blocks).
#[derive(Clone, Copy)]
struct Slowness<'a> {
    grid: &'a NavGrid,
    weights: Option<Weights<'a>>,
    diameter: u32,
}

impl Slowness<'_> {
    fn at(&self, p: Vec2) -> f32 {
        let Some(weights) = &self.weights else {
            return 1.0;
        };
        if weights.uniform() == Some(1) {
            return 1.0;
        }
        self.grid
            .agent_cell(p, self.diameter)
            .and_then(|c| weights.at(c))
            .filter(|&w| w > 0)
            .map_or(1.0, f32::from)
    }
}

/// Most pieces (straight moves within one cell) path following cuts a frame into.
const MAX_PIECES: usize = 64;

/// Where path following takes a unit at `pos` this frame of `dt` seconds (before
/// separation), and whether that point is the final waypoint. The move is cut into
/// pieces at the lines between anchor cells; each piece goes at the top speed divided by
/// the slowness of its cell (read at the piece's middle, so a piece that starts on a
/// line or a corner counts for the cell it enters).
fn follow(
    path: &[Vec2],
    next: &mut usize,
    pos: Vec2,
    steering: &Steering,
    dt: f32,
    lattice: &Lattice,
    slowness: &Slowness,
) -> (Vec2, bool) {
    let last = path.len() - 1;
    *next = (*next).min(last);
    let speed = steering.speed.max(0.0);
    let min_piece = 1e-4 * lattice.tile.abs().min_element();
    let mut time = dt;
    let mut at = pos;
    for _ in 0..MAX_PIECES {
        let target = path[*next];
        let d = at.distance(target);
        if d <= 0.0 {
            if *next == last {
                return (target, true);
            }
            *next += 1;
            continue;
        }
        let slow = if *next == last && steering.arrival_radius > 0.0 && d < steering.arrival_radius
        {
            (d / steering.arrival_radius).max(0.25)
        } else {
            1.0
        };
        let dir = (target - at) / d;
        let piece = lattice.exit_distance(at, dir).max(min_piece).min(d);
        let v = speed * slow / slowness.at(at + dir * (piece * 0.5));
        if !(v > 0.0 && time > 0.0) {
            return (at, false);
        }
        let reach = v * time;
        if reach < piece {
            return (at + dir * reach, false);
        }
        time -= piece / v;
        if piece < d {
            at += dir * piece;
        } else if *next == last {
            return (target, true);
        } else {
            at = target;
            *next += 1;
        }
    }
    (at, false)
}

/// Where a steering unit is this frame.
#[derive(Clone, Copy)]
pub(crate) struct Pose {
    entity: Entity,
    /// World position of the unit's centre.
    world: Vec2,
    /// The parent's world transform, for writing moves back (`None` for root entities).
    parent: Option<GlobalTransform>,
}

/// What steering reads and writes of a unit.
type Units<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Steering,
        Option<Ref<'static, PathResult>>,
        Option<&'static PathRequest>,
        &'static mut Transform,
        &'static mut SteeringProgress,
        Has<Arrived>,
        Has<Replanning>,
        Option<&'static ChildOf>,
    ),
>;

/// Buffers of the steering system, reused every frame.
#[derive(Default)]
pub(crate) struct SteerBuffers {
    hash: SpatialHash,
    poses: Vec<Pose>,
    parents: Vec<(Entity, Entity)>,
}

/// World positions of every steering unit (and its parent's world transform), from its
/// `Transform` and those of its ancestors as of now.
fn collect_poses(set: &mut ParamSet<(Units, TransformHelper)>, buffers: &mut SteerBuffers) {
    buffers.poses.clear();
    buffers.parents.clear();
    for (entity, _, _, _, transform, _, _, _, parent) in set.p0().iter() {
        match parent {
            None => buffers.poses.push(Pose {
                entity,
                world: transform.translation.truncate(),
                parent: None,
            }),
            Some(parent) => buffers.parents.push((entity, parent.parent())),
        }
    }
    let helper = set.p1();
    for &(entity, parent) in &buffers.parents {
        if let (Ok(global), Ok(parent)) = (
            helper.compute_global_transform(entity),
            helper.compute_global_transform(parent),
        ) {
            buffers.poses.push(Pose {
                entity,
                world: global.translation().truncate(),
                parent: Some(parent),
            });
        }
    }
    buffers.poses.sort_unstable_by_key(|pose| pose.entity);
}

/// Moves steering units along their paths (see [`Steering`]).
pub(crate) fn steer_units(
    time: Option<Res<Time>>,
    grid: Option<Res<NavGrid>>,
    mut commands: Commands,
    mut buffers: Local<SteerBuffers>,
    mut set: ParamSet<(Units, TransformHelper)>,
) {
    let (Some(time), Some(grid)) = (time, grid) else {
        return;
    };
    let dt = time.delta_secs();
    // A frame without time (the first one) moves nobody but still takes note of new paths.
    let moving = dt > 0.0 && dt.is_finite();
    let buffers = &mut *buffers;
    collect_poses(&mut set, buffers);
    let mut units = set.p0();
    let radius = units
        .iter()
        .map(|(_, s, ..)| s.separation_radius)
        .filter(|r| r.is_finite())
        .fold(0.0f32, f32::max);
    let SteerBuffers { hash, poses, .. } = buffers;
    hash.rebuild(
        radius,
        poses
            .iter()
            .filter(|pose| pose.world.is_finite())
            .map(|pose| (pose.entity, pose.world)),
    );
    let cell_span = grid.tile_size().abs().min_element();
    if !(cell_span > 0.0 && cell_span.is_finite()) {
        return;
    }

    for pose in poses.iter() {
        let Ok((
            entity,
            steering,
            result,
            request,
            mut transform,
            mut progress,
            arrived,
            replanning,
            _,
        )) = units.get_mut(pose.entity)
        else {
            continue;
        };
        let steering = &steering.sanitized();
        let pos = pose.world;
        let Some(result) = result else {
            continue;
        };
        if !pos.is_finite() {
            continue;
        }
        let mut arrived = arrived;
        let diameter = request.map_or(1, |r| r.diameter);
        let PathResult::Found(path) = &*result else {
            if result.is_changed() {
                progress.restart(1);
                // A new order (`Pending`) or a failure: the unit is no longer where its
                // order took it.
                if arrived {
                    commands.entity(entity).remove::<Arrived>();
                }
            }
            continue;
        };
        if result.is_changed() {
            // A unit that does not stand on the path's first cell (its own cell was
            // blocked, so the path starts at the nearest free one) walks there first.
            let first = if grid.agent_cell(pos, diameter) == path.cells.first().copied() {
                1
            } else {
                0
            };
            progress.restart(first);
            if arrived {
                commands.entity(entity).remove::<Arrived>();
                arrived = false;
            }
        }
        if arrived || path.waypoints.is_empty() || !moving {
            continue;
        }
        let Some(layer) = grid.scenario().layer_for(path.profile, diameter) else {
            continue;
        };
        let slowness = Slowness {
            grid: &grid,
            weights: grid.scenario().weights(path.profile),
            diameter,
        };
        let lattice = Lattice::new(&grid, diameter);

        let mut next = progress.next;
        let (along, at_goal) = follow(
            &path.waypoints,
            &mut next,
            pos,
            steering,
            dt,
            &lattice,
            &slowness,
        );
        let mut push = Vec2::ZERO;
        let r = steering.separation_radius;
        if r > 0.0 && steering.separation_strength != 0.0 {
            hash.for_each_near(pos, |other, q| {
                if other == entity {
                    return;
                }
                let away = pos - q;
                let d = away.length();
                if d >= r {
                    return;
                }
                let dir = if d > 1e-6 {
                    away / d
                } else if entity < other {
                    Vec2::X
                } else {
                    Vec2::NEG_X
                };
                push += dir * (1.0 - d / r);
            });
        }
        // The top step in the cell the unit stands in.
        let slow_here = slowness.at(pos);
        let max_step = steering.speed.max(0.0) * dt / slow_here;
        let forward = along - pos;
        let push = (push.clamp_length_max(1.0) * steering.separation_strength * max_step)
            .clamp_length_max(0.75 * forward.length());
        let wanted = (forward + push).clamp_length_max(forward.length().max(max_step));

        let substeps = (wanted.length() / (0.45 * cell_span))
            .ceil()
            .clamp(1.0, 64.0) as u32;
        let step = wanted / substeps as f32;
        let walls = Walls {
            grid: &grid,
            layer,
            lattice,
            diameter,
            escape: path.cells.first().copied().unwrap_or_default(),
        };
        let mut p = pos;
        for _ in 0..substeps {
            p = walls.slide(p, step);
        }
        if p != pos {
            write_position(&mut transform, pose.parent.as_ref(), p);
        }
        let target = path.waypoints[next.min(path.waypoints.len() - 1)];
        let tolerance = 0.01 * cell_span / slow_here;
        if progress.stuck(
            next,
            p.distance(target),
            tolerance,
            dt,
            steering.replan_after,
        ) && request.is_some()
            && !replanning
        {
            commands.entity(entity).insert(Replanning);
        }
        // Arrived: on the goal, or in the goal cell on the last leg and held back by the
        // crowd (separation from units already standing there).
        let goal = path.waypoints[path.waypoints.len() - 1];
        let last_leg = progress.next + 1 >= path.waypoints.len();
        let crowded = last_leg
            && p.distance(pos) < 0.1 * max_step
            && grid.agent_cell(p, diameter) == grid.agent_cell(goal, diameter);
        if (at_goal && p.distance(goal) <= 1e-3 * cell_span) || crowded {
            commands.entity(entity).insert(Arrived);
        }
    }
}

/// Moves `transform` so that its entity's world position is `world` on x and y (through
/// the parent's world transform for child entities; z is kept).
fn write_position(transform: &mut Transform, parent: Option<&GlobalTransform>, world: Vec2) {
    match parent {
        None => {
            transform.translation.x = world.x;
            transform.translation.y = world.y;
        }
        Some(parent) => {
            let affine = parent.affine();
            let current = affine.transform_point3(transform.translation);
            let local = affine.inverse().transform_point3(world.extend(current.z));
            if local.is_finite() {
                transform.translation = local;
            }
        }
    }
}

/// Publishes where each steering unit is along its path as its [`PathProgress`] (for the
/// re-planner, and for anyone else who reads it), when it changed.
pub(crate) fn publish_progress(
    mut units: Query<(&SteeringProgress, &mut PathProgress), Changed<SteeringProgress>>,
) {
    for (steering, mut progress) in &mut units {
        progress.set_if_neq(PathProgress {
            next_waypoint: steering.next,
        });
    }
}
