//! The hexagonal pipeline: requests on a [`HexGrid`] queued, solved in slices within the frame budget, planned again after edits.

use std::collections::VecDeque;
use std::time::Instant;

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

mod claim;
mod start;

use claim::HexClaims;

use super::answer::{Answered, Answerer, Outbox, write_answer};
use crate::components::{
    FoundPath, HexGrid, PathFailure, PathGoal, PathRequest, PathResult, PathSolved, PathStatus,
    Replanning,
};
use crate::grid::Cell;
use crate::hex::{HexAlgorithm, HexPathError, HexPathfinder, HexQuery, HexStep};
use crate::main_thread::MainThread;
use crate::profiles::MovementProfiles;
use crate::scenario::ProfileId;
use crate::search::{Algorithm, Limit, PathError};
use crate::settings::{FrameBudget, TilepathSettings};
use crate::stats::TilepathStats;

/// Expansions per slice of a hexagonal search: the budget is checked between slices.
const SLICE: u64 = 1024;

/// Times edits may restart a search before it runs to its end in one frame, whatever
/// the budget.
const MAX_SETBACKS: u8 = 2;

/// A search that runs over several frames.
struct Running {
    entity: Entity,
    /// The request it answers (a changed request starts over).
    request: PathRequest,
    profile: ProfileId,
    from: Cell,
    /// The tile the search starts on: `from`, or the nearest tile the unit can stand on.
    start: Cell,
    /// The goal tile the request asked for.
    requested: Cell,
    /// The goal tile searched for: the claimed tile, if any, or `requested`.
    goal: Cell,
    /// The tile claimed for it, if any.
    claimed: Option<Cell>,
    /// Times edits made it start over.
    setbacks: u8,
    /// The grid generation it started on.
    generation: u64,
}

/// The hexagonal solver's state: its queue, its pathfinder (buffers reused by every
/// search) and the search it is in the middle of.
#[derive(Default)]
pub(crate) struct HexSolver {
    queue: VecDeque<Entity>,
    queued: EntityHashSet,
    finder: HexPathfinder,
    running: Option<Running>,
    claims: HexClaims,
    /// The grid generation the queue was last filled for.
    seen: Option<u64>,
    /// Runs of the solver: the frame a ticket records when its request is queued.
    frame: u64,
    /// Requests queued so far: the number a ticket draws when its request is queued.
    queued_count: u64,
}

impl HexSolver {
    /// Queues `entity`'s `request` (once) and marks its ticket queued for it.
    fn push(&mut self, entity: Entity, request: &PathRequest, status: &mut PathStatus) {
        if self.queued.insert(entity) {
            self.queue.push_back(entity);
        }
        if !status.is_queued() || status.request() != Some(request) {
            status.enqueue(self.frame, self.queued_count, request.clone());
            self.queued_count += 1;
        }
    }
}

/// The components the solver reads and writes on a unit.
type Units<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static PathRequest,
        &'static mut PathResult,
        &'static mut PathStatus,
        Has<Replanning>,
    ),
>;

/// Answers [`PathRequest`]s on the [`HexGrid`], oldest first, within the frame budget
/// ([`TilepathSettings::budget`]; at least one slice of 1,024 expansions a frame, so
/// every request is answered). New and changed requests are queued; after any change of
/// the grid (obstacles, terrain, profiles, placement) every request is planned again,
/// keeping its path meanwhile (marked [`Replanning`]). A search that spans frames
/// starts over when its request changes. When tiles change under it, it goes on, carried
/// over the edits ([`HexPathfinder::resume`](tilepath::hex::HexPathfinder::resume));
/// it starts over at once, ahead of the queue, when the whole map changes or the unit
/// can no longer stand on its claimed tile. After two setbacks (restarts, or carry-overs that
/// undid its progress) it runs to its end in one frame, so edits every frame cannot
/// starve it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_hex_paths(
    _main: MainThread,
    grid: Option<Res<HexGrid>>,
    settings: Res<TilepathSettings>,
    profiles: Res<MovementProfiles>,
    transforms: TransformHelper,
    changed: Query<Entity, Changed<PathRequest>>,
    asked: Query<Entity, Added<Replanning>>,
    mut units: Units,
    mut solver: Local<HexSolver>,
    mut solved: MessageWriter<PathSolved>,
    mut stats: ResMut<TilepathStats>,
    mut commands: Commands,
) {
    let solver = &mut *solver;
    solver.frame += 1;
    let Some(grid) = grid else {
        *solver = HexSolver {
            finder: std::mem::take(&mut solver.finder),
            frame: solver.frame,
            queued_count: solver.queued_count,
            ..HexSolver::default()
        };
        return;
    };
    if grid.is_added() || solver.seen != Some(grid.generation()) {
        solver.seen = Some(grid.generation());
        for (entity, request, result, mut status, _) in &mut units {
            if matches!(*result, PathResult::Found(_)) {
                commands.entity(entity).try_insert(Replanning);
                stats.replanned += 1;
                stats.total_replanned += 1;
            }
            solver.push(entity, request, &mut status);
        }
    }
    // Units that steering asks to plan again (grid steppers kept waiting), and new or
    // changed requests.
    for entity in asked.iter().chain(&changed) {
        if let Ok((_, request, _, mut status, _)) = units.get_mut(entity) {
            solver.push(entity, request, &mut status);
        }
    }
    for entity in &changed {
        if solver.running.as_ref().is_some_and(|r| r.entity == entity) {
            solver.running = None;
        }
    }
    claim_goals(solver, &grid, &profiles, &transforms, &changed, &mut units);

    let started = Instant::now();
    let mut spent: u64 = 0;
    let within_budget = |spent: u64| match settings.budget {
        FrameBudget::Expansions(n) => spent < u64::from(n.max(1)),
        FrameBudget::Time(limit) => spent == 0 || started.elapsed() < limit,
    };
    while within_budget(spent) {
        let (entity, setbacks) = match solver.running.take() {
            Some(running) if running.generation == grid.generation() => {
                solver.running = Some(running);
                (None, 0)
            }
            // Edits of tiles: the core carries the search over them (or starts it over
            // itself), and counts the setbacks. A claimed tile must still hold.
            Some(mut running)
                if grid.whole_map_generation() <= running.generation
                    && (running.claimed.is_none()
                        || grid.map(running.profile).is_some_and(|map| {
                            solver.claims.holds(&grid, map, running.entity)
                        })) =>
            {
                running.generation = grid.generation();
                if solver.queued.remove(&running.entity) {
                    solver.queue.retain(|&e| e != running.entity);
                }
                solver.running = Some(running);
                (None, 0)
            }
            // A new map, a move, or a claimed tile lost: the search starts over at once,
            // ahead of the queue.
            Some(stale) => {
                if solver.queued.remove(&stale.entity) {
                    solver.queue.retain(|&e| e != stale.entity);
                }
                (Some(stale.entity), stale.setbacks.saturating_add(1))
            }
            None => match solver.queue.pop_front() {
                Some(entity) => {
                    solver.queued.remove(&entity);
                    (Some(entity), 0)
                }
                None => break,
            },
        };
        if let Some(entity) = entity {
            let Ok((_, request, ..)) = units.get(entity) else {
                continue;
            };
            let request = request.clone();
            match begin(solver, &grid, &profiles, &transforms, entity, &request) {
                Ok(mut running) => {
                    running.setbacks = setbacks;
                    if let Ok((.., mut status, _)) = units.get_mut(entity)
                        && status.claimed_cell() != running.claimed
                    {
                        status.set_claimed_cell(running.claimed);
                    }
                    solver.running = Some(running);
                }
                Err(failure) => {
                    finish(
                        &mut units,
                        &mut commands,
                        &mut solved,
                        &mut stats,
                        entity,
                        solver.queued.contains(&entity),
                        Err(failure),
                    );
                    continue;
                }
            }
        }
        let Some(running) = solver.running.take() else {
            continue;
        };
        let Some(map) = grid.map(running.profile) else {
            let failure = PathFailure::UnknownProfile;
            finish(
                &mut units,
                &mut commands,
                &mut solved,
                &mut stats,
                running.entity,
                solver.queued.contains(&running.entity),
                Err(failure),
            );
            continue;
        };
        let (before, restarts) = (solver.finder.expansions(), solver.finder.edit_restarts());
        // The progress guarantee: a search that edits set back twice runs to its end.
        let setbacks = u32::from(running.setbacks) + solver.finder.edit_setbacks();
        let slice = if setbacks >= u32::from(MAX_SETBACKS) {
            u64::MAX
        } else {
            SLICE
        };
        let step = solver.finder.resume(map, slice);
        // A restart (before any expansion of this slice) counts expansions from 0.
        let expanded = if solver.finder.edit_restarts() == restarts {
            solver.finder.expansions() - before
        } else {
            solver.finder.expansions()
        };
        spent += expanded.max(1);
        stats.expanded += expanded;
        stats.total_expanded += expanded;
        let outcome = match step {
            Ok(HexStep::Suspended) => {
                solver.running = Some(running);
                continue;
            }
            Ok(HexStep::Found) => Ok(found_path(&solver.finder, &grid, &running)),
            Err(e) => Err(failure_of(e, &running.request)),
        };
        finish(
            &mut units,
            &mut commands,
            &mut solved,
            &mut stats,
            running.entity,
            solver.queued.contains(&running.entity),
            outcome,
        );
    }
    stats.pending = solver.queue.len() + usize::from(solver.running.is_some());
    stats.solve_time = started.elapsed();
    stats.pathfinders = 1;
    stats.pathfinder_bytes = solver.finder.memory_bytes();
}

/// True when `request` claims its goal tile (see [`PathRequest::claim_goal`]).
fn claims_goal(request: &PathRequest) -> bool {
    request.claim_goal && request.options.goal_radius == 0
}

/// Where `entity` stands, the goal tile of `request` and its profile, or why not.
fn endpoints(
    grid: &HexGrid,
    profiles: &MovementProfiles,
    transforms: &TransformHelper,
    entity: Entity,
    request: &PathRequest,
) -> Result<(Cell, Cell, ProfileId), PathFailure> {
    let position = transforms
        .compute_global_transform(entity)
        .map_err(|_| PathFailure::NoTransform)?
        .translation()
        .truncate();
    if !position.is_finite() {
        return Err(PathFailure::InvalidPosition);
    }
    let from = grid
        .world_to_tile(position)
        .ok_or(PathFailure::StartOffMap { position })?;
    let goal = match request.goal {
        PathGoal::Cell(cell) => Some(cell).filter(|&c| grid.contains(c)),
        PathGoal::World(world) if !world.is_finite() => return Err(PathFailure::InvalidGoal),
        PathGoal::World(world) => grid.world_to_tile(world),
    }
    .ok_or(PathFailure::GoalOffMap { goal: request.goal })?;
    let profile = profiles
        .resolve(request.profile.as_deref())
        .filter(|&p| grid.map(p).is_some())
        .ok_or(PathFailure::UnknownProfile)?;
    Ok((from, goal, profile))
}

/// Claims goal tiles for the requests that changed this frame and claim their goal,
/// the units nearest their goal first; requests that no longer claim give theirs up, and
/// so do units whose request is gone.
fn claim_goals(
    solver: &mut HexSolver,
    grid: &HexGrid,
    profiles: &MovementProfiles,
    transforms: &TransformHelper,
    changed: &Query<Entity, Changed<PathRequest>>,
    units: &mut Units,
) {
    solver.claims.retain(grid, |e| {
        units.get(e).is_ok_and(|(_, r, ..)| claims_goal(r))
    });
    let mut claimants = Vec::new();
    for entity in changed {
        solver.claims.release(grid, entity);
        let Ok((_, request, _, mut status, _)) = units.get_mut(entity) else {
            continue;
        };
        if status.claimed_cell().is_some() {
            status.set_claimed_cell(None);
        }
        if !claims_goal(request) {
            continue;
        }
        if let Ok((from, goal, profile)) = endpoints(grid, profiles, transforms, entity, request) {
            let distance = grid.hex(from).distance(grid.hex(goal));
            claimants.push((
                distance,
                entity,
                goal,
                profile,
                hex_radius(request.diameter),
            ));
        }
    }
    claimants.sort_unstable_by_key(|&(distance, entity, ..)| (distance, entity));
    for (_, entity, goal, profile, radius) in claimants {
        let Some(map) = grid.map(profile) else {
            continue;
        };
        let cell = solver.claims.claim(grid, map, entity, goal, radius);
        if let Ok((.., mut status, _)) = units.get_mut(entity) {
            status.set_claimed_cell(cell);
        }
    }
}

/// Starts the search of `request` for `entity`, or says why it cannot run. A claiming
/// request goes to its claimed tile, claimed again when the unit can no longer stand
/// there (or had none).
fn begin(
    solver: &mut HexSolver,
    grid: &HexGrid,
    profiles: &MovementProfiles,
    transforms: &TransformHelper,
    entity: Entity,
    request: &PathRequest,
) -> Result<Running, PathFailure> {
    let (from, requested, profile) = endpoints(grid, profiles, transforms, entity, request)?;
    let mut goal = requested;
    let map = grid.map(profile).ok_or(PathFailure::UnknownProfile)?;
    let radius = hex_radius(request.diameter);
    let mut claimed = None;
    if claims_goal(request) {
        claimed = match solver.claims.of(entity) {
            Some(cell) if solver.claims.holds(grid, map, entity) => Some(cell),
            _ => solver.claims.claim(grid, map, entity, goal, radius),
        };
        goal = claimed.unwrap_or(goal);
    }
    let algorithm = match request.algorithm {
        Some(Algorithm::Dijkstra) => HexAlgorithm::Dijkstra,
        Some(Algorithm::Bfs) => HexAlgorithm::BreadthFirst,
        _ => HexAlgorithm::AStar,
    };
    let limit = request.limits.map_or(u32::MAX, |l| l.max_expanded);
    let start =
        start::start_tile(grid, map, from, radius, request.options.nearest_start).unwrap_or(from);
    let query = HexQuery {
        start: grid.hex(start),
        goal: grid.hex(goal),
        radius,
        algorithm,
        max_expansions: (limit != u32::MAX).then_some(u64::from(limit)),
        nearest_goal: request.options.nearest_goal,
    };
    solver
        .finder
        .start(map, &query)
        .map_err(|e| failure_of(e, request))?;
    Ok(Running {
        entity,
        request: request.clone(),
        profile,
        from,
        start,
        requested,
        goal,
        claimed,
        setbacks: 0,
        generation: grid.generation(),
    })
}

/// The hexagon radius of a unit `diameter` tiles wide: 0 for 1 (one tile), 1 for 2 and
/// 3 (a tile and its six neighbours), and so on.
pub(crate) fn hex_radius(diameter: u32) -> u32 {
    diameter.max(1) / 2
}

/// The [`PathFailure`] of a hexagonal search error.
fn failure_of(error: HexPathError, request: &PathRequest) -> PathFailure {
    let diameter = request.diameter.max(1);
    let error = match error {
        HexPathError::StartBlocked { hex } => PathError::StartBlocked {
            cell: Cell::new(hex.q, hex.r),
            diameter,
        },
        HexPathError::GoalBlocked { hex } => PathError::GoalBlocked {
            cell: Cell::new(hex.q, hex.r),
            diameter,
        },
        HexPathError::InvalidRadius { .. } => PathError::InvalidDiameter { diameter },
        HexPathError::NotFound => PathError::Unreachable,
        HexPathError::LimitReached { expansions } => PathError::LimitReached {
            limit: Limit::Expanded,
            expanded: u32::try_from(expansions).unwrap_or(u32::MAX),
        },
        HexPathError::NothingToResume => PathError::NothingToResume,
    };
    PathFailure::Search(error)
}

/// The found path of the pathfinder's finished search.
fn found_path(finder: &HexPathfinder, grid: &HexGrid, running: &Running) -> FoundPath {
    let cells: Vec<Cell> = finder
        .path()
        .iter()
        .filter_map(|&hex| grid.cell(hex))
        .collect();
    let reached = cells.last().copied().unwrap_or(running.start);
    // Waypoints: the centres where the path turns (a straight run between two hexagon
    // centres crosses only the hexagons of the run).
    let mut waypoints = Vec::with_capacity(cells.len());
    let hexes = finder.path();
    for (i, &cell) in cells.iter().enumerate() {
        let step = |a: usize, b: usize| (hexes[b].q - hexes[a].q, hexes[b].r - hexes[a].r);
        let turns = i == 0 || i + 1 == cells.len() || step(i - 1, i) != step(i, i + 1);
        if turns {
            waypoints.push(grid.tile_to_world(cell));
        }
    }
    FoundPath {
        from: running.from,
        start: running.start,
        requested: running.requested,
        reached,
        partial: reached != running.goal,
        length: cells.len().saturating_sub(1) as f32,
        cost: finder.steps() as f32,
        profile: running.profile,
        generation: grid.generation(),
        expanded: u32::try_from(finder.expansions()).unwrap_or(u32::MAX),
        approached: false,
        provisional: false,
        cells,
        waypoints,
    }
}

/// Writes the answer for `entity` (see [`write_answer`]); its ticket stays queued when
/// the request was queued again while it was solved (`still_queued`).
fn finish(
    units: &mut Units,
    commands: &mut Commands,
    solved: &mut MessageWriter<PathSolved>,
    stats: &mut TilepathStats,
    entity: Entity,
    still_queued: bool,
    outcome: Result<FoundPath, PathFailure>,
) {
    let Ok((_, _, mut result, mut status, replanning)) = units.get_mut(entity) else {
        return;
    };
    let unit = Answered {
        entity,
        result: &mut result,
        status: &mut status,
        replanning,
    };
    let mut out = Outbox {
        commands,
        solved,
        stats,
    };
    write_answer(unit, outcome, Answerer::Solver { still_queued }, &mut out);
}
