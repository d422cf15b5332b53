//! Grid steppers: the component, and what their turns share on square and hexagonal maps.

use bevy::prelude::*;

use super::Arrived;
use super::size::UnitSize;
use crate::components::{FoundPath, PathResult, Replanning};
use crate::grid::Cell;
use crate::scenario::ProfileId;
use crate::shape::GridShape;

/// Moves the unit one cell per step along its found path's cells, holding the cells it
/// stands on in the [`Occupancy`](super::Occupancy), so that two grid-stepping units never hold one cell:
/// for tick- and turn-based games, instead of [`Steering`](super::Steering).
///
/// On hexagonal maps the unit steps to one of the six neighbouring tiles and holds the
/// tiles within `diameter / 2` steps of its own; the turns below are the same. Wide units can still lock up: in dense two-way traffic through gaps as narrow as
/// they are, and next to crowded goals whose tiles arrived units hold.
///
/// Every run of the plugin's schedule is a tick (put the plugin in your tick schedule
/// with [`TilepathPlugin::in_schedule`](crate::plugin::TilepathPlugin::in_schedule)).
/// Units take their turns in entity order. On its turn a unit whose next cell is free
/// (no wall, no corner cut, no other unit's footprint) jumps to that cell's centre
/// ([`NavGrid::agent_center`](crate::components::NavGrid::agent_center)). When it is held:
/// - by units with nothing to do (no found path, or arrived), each takes a step toward
///   the nearest free cell off this unit's next three cells (within 6 cells), and this
///   unit moves on when that made room;
/// - otherwise this unit waits; after `patience` ticks of waiting it walks the fewest
///   steps around the units in its way to a cell further along its path, within 6 cells
///   if there is such a way; when the unit in its way waits for this unit's cell (two
///   units face each other in a corridor), after `4 × patience` ticks the unit of the
///   larger entity (after `6 × patience` the other) walks to the nearest cell off the
///   other's next 16 cells, within 6 cells, or else within 32 steps (out of the far end
///   of a long corridor, at most 512 cells searched), and comes back onto its path once
///   the other has passed. A one-tile unit back from a refuge further than 6 cells
///   walks to the cell of its path it left (or one of the next 16) through free cells;
///   when units stand on every such way it takes the shortest one and waits on it, so
///   that the cell it wants next is always one step away and the rules here see whom it
///   faces.
///
/// Right of way in narrow passages: a path cell is one lane wide when no cell beside it
/// (but the path's cells before and after it) can be stepped to. Two units that face
/// each other where either stands in a one-lane stretch do not wait for entity order:
/// the one further into its stretch (counted back along its path, at most 16 cells; ties
/// to the smaller entity) goes on, and the other walks off its way after `2 × patience`
/// ticks (the first after `6 × patience` only if the other could not). A unit about to
/// enter a one-lane stretch (its next 16 cells) that another unit is crossing toward it
/// waits at the entrance.
///
/// Queues that meet head-on (at a one-tile gap in a wall, say): a one-tile unit that
/// should walk off the other's way but finds no free cell to go to, because one-tile
/// units waiting behind it hold every cell around it, backs into its queue. It takes
/// the fewest steps from its cell, the first off the other's next 16 cells, through
/// cells those units hold, to a free cell, within 6 cells: each unit on that way steps
/// one cell along it, the last onto the free cell, and the unit steps onto the first;
/// each unit so moved steps back onto the cell it left before its way goes on.
/// A unit's footprint is the cells it holds (on hexagons, the tiles within `d / 2`
/// steps, not their bounding square) whenever the rules above ask whether a cell is off
/// another unit's way.
///
/// A tick that could change nothing is skipped: when every unit stood settled after the
/// last tick (arrived on its goal, or without a path) and none came, went or changed its
/// `Transform`, result, request, footprint or markers since, on the same map, and none is
/// a child entity. An army that has arrived costs a check of its change ticks.
///
/// A unit on the last cell of its path gets [`Arrived`]; the marker goes when its
/// [`PathResult`] changes. An arrived unit that stepped aside next to its goal steps
/// back onto it when that cell is free, `patience` ticks later. A unit waiting `16 × patience` ticks gets
/// [`Replanning`] (its request is planned again from where it stands). Units are
/// positioned by their world position (their `Transform` through their `ChildOf`
/// ancestors); a unit standing off the cells of its path first walks back onto it. A
/// unit on a cell blocked for it (a wall painted under it, or spawned in one), whose
/// path starts on the nearest free cell, walks straight out to that cell (diagonal steps
/// first), through the wall where it stands deep in one; every step once it is out keeps
/// the rules above.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
/// app.insert_resource(NavGrid::from_ascii("......", Vec2::ZERO, Vec2::ONE).unwrap());
/// let unit = app
///     .world_mut()
///     .spawn((Transform::default(), PathRequest::new(Cell::new(5, 0)), GridStepper::default()))
///     .id();
/// for _ in 0..8 {
///     app.update();
/// }
/// assert_eq!(app.world().get::<Transform>(unit).unwrap().translation.x, 5.0);
/// assert!(app.world().get::<Arrived>(unit).is_some());
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(GridStepProgress)]
pub struct GridStepper {
    /// Ticks per step: 1 (or 0) steps every tick, 2 every other tick. Default 1.
    pub ticks_per_step: u32,
    /// Ticks a blocked unit waits before it walks around the units in its way (0 counts
    /// as 1). Default 2.
    pub patience: u32,
}

impl Default for GridStepper {
    fn default() -> Self {
        Self {
            ticks_per_step: 1,
            patience: 2,
        }
    }
}

/// Where a grid-stepping unit is along its path (added with [`GridStepper`]).
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct GridStepProgress {
    /// Index in the path's cells of the cell the unit steps to next.
    pub(super) next: usize,
    /// Cells to walk before `next` (a way around other units), in order.
    pub(super) detour: Vec<Cell>,
    /// Ticks spent waiting for a cell.
    pub(super) waited: u32,
    /// Ticks since the last step.
    pub(super) ticks: u32,
    /// The progress rule: the least count of cells left to walk (detour and path)
    /// since the unit last got a cell further, the ticks since, and the goal they count
    /// toward (kept across new paths to it).
    pub(super) best: Option<usize>,
    pub(super) stalled: u32,
    pub(super) goal: Option<Cell>,
    /// Whether the unit walked off its path to a refuge, to let another pass, and has
    /// not found its way back onto it yet.
    pub(super) gave_way: bool,
}

impl GridStepProgress {
    /// Takes note of a step the unit took on its turn: onto the next cell of its detour,
    /// else of its path; the wait and the tick count start again.
    pub(super) fn stepped(&mut self) {
        if self.detour.is_empty() {
            self.next += 1;
        } else {
            self.detour.remove(0);
        }
        self.waited = 0;
        self.ticks = 0;
    }

    /// Index in [`FoundPath::cells`](crate::components::FoundPath::cells) of the cell the
    /// unit steps to next (after its detour, if it walks one).
    pub fn next_cell(&self) -> usize {
        self.next
    }

    /// Ticks the unit has waited for a cell held by another unit or blocked by a wall.
    pub fn waited_ticks(&self) -> u32 {
        self.waited
    }

    /// Ticks the unit, while it had an order, has not got a cell closer to its goal
    /// along its way (the cells left on its detour and path have not dropped below the
    /// fewest left so far), however it stepped meanwhile (side steps, refuges, detours,
    /// being pushed back and forth); 0 once it arrives. Kept across new paths to the
    /// same goal (a longer new path counts as no progress until it is walked below that
    /// count). Ticks times the tick's length compare with
    /// `after` of [`StallSettings`](crate::settings::StallSettings).
    pub fn stalled_ticks(&self) -> u32 {
        self.stalled
    }

    /// Records a tick of the progress rule with `left` cells still to walk toward
    /// `goal` (`None`: arrived or no order, which ends any stall). O(1).
    pub(super) fn track(&mut self, goal: Option<Cell>, left: usize) {
        if goal.is_none() || goal != self.goal {
            (self.goal, self.best, self.stalled) = (goal, goal.map(|_| left), 0);
        } else if self.best.is_none() {
            // The first tick on a new path: its length is the baseline.
            self.best = Some(left);
        } else if self.best.is_some_and(|best| left < best) {
            (self.best, self.stalled) = (Some(left), 0);
        } else {
            self.stalled = self.stalled.saturating_add(1);
        }
    }
}

/// A grid-stepping unit this tick, in entity order (the order of the poses).
/// What grid stepping reads and writes of a unit.
pub(super) type Steppers<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static GridStepper,
        Option<Ref<'static, PathResult>>,
        UnitSize,
        &'static mut Transform,
        &'static mut GridStepProgress,
        Has<Arrived>,
        Has<Replanning>,
        Option<&'static ChildOf>,
    ),
>;

/// What a unit does on its turn, decided before anything moves.
pub(super) enum Turn {
    /// Nothing: no path, arrived, or not its tick.
    Rest,
    /// Step to the cell (the next of its detour or its path).
    Step(Cell),
    /// The cell is taken or blocked: `holder` holds it (when a unit does).
    Blocked { want: Cell, holder: Option<Entity> },
}

/// True when `entity` has nothing to do: no found path, or arrived.
pub(super) fn is_idle(units: &Steppers, entity: Entity) -> bool {
    units
        .get(entity)
        .is_ok_and(|(_, _, result, _, _, _, arrived, ..)| {
            arrived || result.is_none_or(|r| r.found().is_none())
        })
}

/// Takes in a unit's result as its turn begins: a changed result starts its progress
/// over (just past the cell `at` it stands on, when the new path holds it) and takes its
/// [`Arrived`] away. Returns the found path and whether the unit still counts as
/// arrived, or `None` without a path.
pub(super) fn take_result<'r>(
    result: &'r Ref<PathResult>,
    progress: &mut GridStepProgress,
    arrived: bool,
    at: Cell,
    commands: &mut Commands,
    entity: Entity,
) -> Option<(&'r FoundPath, bool)> {
    let PathResult::Found(path) = &**result else {
        if result.is_changed() {
            *progress = GridStepProgress {
                goal: progress.goal,
                best: progress.best,
                stalled: progress.stalled,
                ..default()
            };
            if arrived {
                commands.entity(entity).remove::<Arrived>();
            }
        }
        return None;
    };
    if !result.is_changed() {
        return Some((path, arrived));
    }
    let on = path.cells.iter().position(|&c| c == at);
    *progress = GridStepProgress {
        next: on.map_or(0, |i| i + 1),
        // The stall goes on along the new path to the same goal: progress is measured
        // against the fewest cells left on any of its paths to it.
        goal: progress.goal,
        best: progress.best,
        stalled: progress.stalled,
        ..default()
    };
    if arrived {
        commands.entity(entity).remove::<Arrived>();
    }
    Some((path, false))
}

/// The profile of unit `e`'s found path (the default without one).
pub(super) fn profile_of(units: &Steppers, e: Entity) -> ProfileId {
    units
        .get(e)
        .ok()
        .and_then(|(_, _, result, ..)| result.and_then(|r| r.found().map(|p| p.profile)))
        .unwrap_or(ProfileId::DEFAULT)
}

/// The cell unit `h` steps to next (of its detour, else of its path).
pub(super) fn next_of(units: &Steppers, h: Entity) -> Option<Cell> {
    let (_, _, Some(result), _, _, progress, ..) = units.get(h).ok()? else {
        return None;
    };
    let path = result.found()?;
    progress
        .detour
        .first()
        .or_else(|| path.cells.get(progress.next))
        .copied()
}

/// The footprints of the next cells of a unit's way, inline up to the 16 a caller asks
/// for (no allocation per blocked unit).
pub(super) type WayAhead = smallvec::SmallVec<[Spot; 16]>;

/// A footprint: the anchor cell of a unit and its diameter.
pub(super) type Spot = (Cell, u32);

/// The cells of a way to a refuge, inline up to 16.
pub(super) type Way = smallvec::SmallVec<[Cell; 16]>;

/// True when the footprints of two units share a cell: their squares overlap on square
/// grids; on hexagons their anchors are at most the sum of their radii
/// ([`GridShape::hex_radius`]) steps apart. O(1).
pub(super) fn overlaps(shape: GridShape, a: Spot, b: Spot) -> bool {
    match shape {
        GridShape::Square => {
            let (a, b) = (shape.footprint(a.0, a.1), shape.footprint(b.0, b.1));
            a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
        }
        GridShape::Hex(_) => {
            let reach =
                u64::from(GridShape::hex_radius(a.1)) + u64::from(GridShape::hex_radius(b.1));
            u64::from(shape.steps(a.0, b.0)) <= reach
        }
    }
}
