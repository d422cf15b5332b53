//! The soak mode: three unit sizes and profiles on `countryside`, group orders and edits.
//!
//! A third of the units is each of [`KINDS`] (infantry 1 cell wide, cavalry 2, tanks 3,
//! each with its own terrain costs) on `countryside(size, seed)`; every `order_every`
//! frames one group of the army (every [`GROUPS`]-th unit, in turn) is sent to a random
//! point, so each unit gets a new order every [`GROUPS`] orders; every frame half the
//! flipped tiles become walls (never under a unit) and half are walls built earlier that
//! open again. The plugin tests run a short version (`tests/plugin/soak.rs`).
//!
//! # What is measured
//!
//! Besides what every mode counts ([`Metrics`](super::Metrics), frozen unit-frames among
//! them):
//!
//! - **Inside a blocked cell**: after a frame, a unit whose anchor cell is blocked for its
//!   diameter and profile ([`NavGrid::is_blocked_for`]: a wall or a terrain its profile
//!   forbids within its footprint). Walls are never built under a unit's footprint (the
//!   bad-input matrix covers walls painted on units), so every such unit-frame is a unit
//!   that walked into a wall.
//! - **Arrival**: a unit gained `Arrived`; an **order completed** is an arrival at the
//!   end of a complete (not partial) path: on the order's point or the cell claimed for
//!   the unit around it.
//! - **Pending**: `TilepathStats::pending` after each frame, and of those the requests
//!   that need an answer: every queued ticket outside the improvement lane
//!   ([`QueueLane::Improvement`]: re-plans that may only shorten a valid path wait
//!   behind everything else).
//! - **Peak memory**: the process's peak resident set (`VmHWM`), read by the caller.

use bevy::prelude::*;
use bevy_tilepath::components::{PathStatus, QueueLane};
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Arrived, Cell, GroupOrders, MovementProfiles, NavGrid, PathRequest, PathResult, ProfileId,
    TilepathSettings,
};
use bevy_tilepath::scenario::Scenario;
use bevy_tilepath::scenario::generate::{self, SplitMix64};
use bevy_tilepath::tilepath::scenario::movingai_terrain::TerrainSpec;

use super::{Config, Metrics, Stress, StressSystems, TILE};

/// The three kinds of unit: name of the movement profile, its terrain weights (MovingAI
/// characters: road, field, forest, swamp, water), diameter, speed in cells per second.
pub const KINDS: [(&str, &str, u32, f32); 3] = [
    ("infantry", ".=2,R=1,F=4,S=7,W=x", 1, 4.0),
    ("cavalry", ".=1,R=1,F=6,S=x,W=x", 2, 7.0),
    ("tank", ".=2,R=1,F=x,S=x,W=x", 3, 5.0),
];

/// The army is ordered in this many groups, one at a time.
pub const GROUPS: u32 = 10;

/// What only the soak mode has.
#[derive(Clone, Debug)]
pub struct Options {
    /// Every `order_every` frames one group of units (every [`GROUPS`]-th unit, in
    /// turn) is ordered to a random point: each unit gets `PathRequest::new(point)` and
    /// the plugin claims distinct cells around it.
    pub order_every: u32,
    /// How the units of a group order (claimed cells around one point) share work:
    /// [`GroupOrders::SharedApproach`] reads the long way off one field per kind and
    /// searches only the last stretch (not exact).
    pub group_orders: GroupOrders,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            order_every: 60,
            group_orders: GroupOrders::SharedFields,
        }
    }
}

impl Options {
    /// Puts these options into the measured frames' settings.
    pub(super) fn configure(&self, settings: &mut TilepathSettings) {
        settings.group_orders = self.group_orders;
    }
}

/// One unit of the soak.
#[derive(Component, Clone, Copy)]
pub struct Soldier {
    pub index: u32,
    pub kind: usize,
    pub profile: ProfileId,
}

/// What only the soak keeps between frames.
#[derive(Resource)]
struct Soak {
    order_every: u32,
    /// Cells free for each kind (terrain only, before any edit): starts are drawn here,
    /// order points among the cells of the widest kind.
    free: [Vec<Cell>; 3],
    /// Orders given so far.
    orders: u32,
    /// Walls this scenario built and has not opened yet.
    built: Vec<Cell>,
    /// Cells covered by a unit's footprint this frame (row-major), rebuilt each frame.
    occupied: Vec<bool>,
}

/// The map with its profiles, and the units with random goals where their kind can
/// stand. Returns the random numbers that draw the rest of the run.
pub(super) fn populate(app: &mut App, config: &Config, options: &Options) -> SplitMix64 {
    let size = GridSize::new(config.size, config.size);
    let land = generate::countryside(size, config.seed);
    let mut map = land.into_scenario().expect("a supported map size");
    let mut profiles = MovementProfiles::default();
    let mut ids = [ProfileId::DEFAULT; 3];
    for (kind, &(name, spec, ..)) in KINDS.iter().enumerate() {
        let spec: TerrainSpec = spec.parse().expect("a valid spec");
        ids[kind] = profiles.insert(name, spec.profile()).expect("a free id");
        map.set_profile(ids[kind], spec.profile());
    }
    let mut rng = SplitMix64::new(config.seed ^ 0x50A4);
    let grid = NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE));
    let free: [Vec<Cell>; 3] = std::array::from_fn(|kind| {
        let layer = grid.scenario().layer_for(ids[kind], KINDS[kind].2).unwrap();
        super::free_cells(size, |c| layer.is_blocked(c))
    });
    for index in 0..config.units {
        let kind = index % KINDS.len();
        let (name, _, diameter, speed) = KINDS[kind];
        let cells = &free[kind];
        let start = cells[rng.below(cells.len() as u32) as usize];
        let goal = cells[rng.below(cells.len() as u32) as usize];
        let soldier = Soldier {
            index: index as u32,
            kind,
            profile: ids[kind],
        };
        let request = PathRequest::new(goal).diameter(diameter).profile(name);
        super::spawn_unit(app, &grid, start, request, speed, soldier);
    }
    app.insert_resource(grid);
    app.insert_resource(profiles);
    app.insert_resource(Soak {
        order_every: options.order_every.max(1),
        free,
        orders: 0,
        built: Vec::new(),
        occupied: vec![false; size.area()],
    });
    rng
}

/// The mode's systems: the orders and edits, and its own counts.
pub(super) fn add_systems(app: &mut App) {
    app.add_systems(
        Update,
        (
            (give_orders, edit_map).chain().in_set(StressSystems::Edit),
            count_soldiers.in_set(StressSystems::Count),
        ),
    );
}

/// Every `order_every` frames, orders the next group of units to a random point where
/// the widest kind can stand.
fn give_orders(
    mut stress: ResMut<Stress>,
    mut soak: ResMut<Soak>,
    mut units: Query<(&Soldier, &mut PathRequest)>,
    mut metrics: ResMut<Metrics>,
) {
    if !stress.on || !stress.frame.is_multiple_of(u64::from(soak.order_every)) {
        return;
    }
    let group = soak.orders % GROUPS;
    soak.orders += 1;
    let points = &soak.free[KINDS.len() - 1];
    let point = points[stress.rng.below(points.len() as u32) as usize];
    for (soldier, mut request) in &mut units {
        if soldier.index % GROUPS == group {
            request.goal = point.into();
            metrics.orders += 1;
        }
    }
}

/// Flips `edits` tiles: half become walls (never under a unit's footprint), the other
/// half are walls built earlier that open again.
fn edit_map(
    mut stress: ResMut<Stress>,
    mut soak: ResMut<Soak>,
    mut grid: ResMut<NavGrid>,
    units: Query<(&Transform, &PathRequest), With<Soldier>>,
    mut metrics: ResMut<Metrics>,
) {
    if !stress.on {
        return;
    }
    let (stress, soak) = (&mut *stress, &mut *soak);
    let size = stress.size;
    soak.occupied.fill(false);
    for (transform, request) in &units {
        let Some(anchor) = grid.agent_cell(transform.translation.truncate(), request.diameter)
        else {
            continue;
        };
        let d = request.diameter as i32;
        let low = (d - 1) / 2;
        for y in anchor.y - low..=anchor.y + d / 2 {
            for x in anchor.x - low..=anchor.x + d / 2 {
                let c = Cell::new(x, y);
                if size.contains(c) {
                    soak.occupied[size.index(c)] = true;
                }
            }
        }
    }
    let mut edits: Vec<(Cell, bool)> = Vec::with_capacity(stress.edits);
    let map = grid.scenario();
    let occupied = &soak.occupied;
    super::draw_edits(
        &mut stress.rng,
        size,
        (stress.edits / 2, 50),
        true,
        &mut edits,
        |c| !occupied[size.index(c)] && !map.is_obstacle(c),
    );
    let openings = (stress.edits - edits.len()).min(soak.built.len());
    for _ in 0..openings {
        let i = stress.rng.below(soak.built.len() as u32) as usize;
        let c = soak.built.swap_remove(i);
        edits.push((c, false));
    }
    soak.built
        .extend(edits.iter().filter(|&&(_, wall)| wall).map(|&(c, _)| c));
    super::apply_edits(&mut grid, edits, &mut metrics);
}

/// What [`count_soldiers`] reads of a unit.
type SoldierState = (
    Entity,
    &'static Soldier,
    &'static Transform,
    &'static PathRequest,
    &'static PathResult,
    &'static PathStatus,
    Option<Ref<'static, Arrived>>,
);

/// Counts unit-frames inside a blocked cell, arrivals, completed orders and the pending
/// requests that need an answer.
fn count_soldiers(
    stress: Res<Stress>,
    grid: Res<NavGrid>,
    units: Query<SoldierState>,
    mut metrics: ResMut<Metrics>,
) {
    if !stress.on {
        return;
    }
    let metrics = &mut *metrics;
    let mut needing_answer = 0;
    for (entity, soldier, transform, request, result, ticket, arrived) in &units {
        needing_answer +=
            usize::from(ticket.is_queued() && ticket.lane() != QueueLane::Improvement);
        let cell = grid.agent_cell(transform.translation.truncate(), request.diameter);
        if cell.is_none_or(|c| grid.is_blocked_for(c, request.diameter, soldier.profile)) {
            metrics.in_blocked += 1;
            if metrics.blocked_examples.len() < 8 {
                let c = cell.unwrap_or(Cell::new(i32::MIN, i32::MIN));
                metrics.blocked_examples.push((metrics.frames, entity, c));
            }
        }
        if let Some(arrived) = &arrived
            && arrived.is_added()
        {
            metrics.arrivals += 1;
            if result.found().is_some_and(|p| !p.partial) {
                metrics.completed += 1;
            }
        }
    }
    metrics.needing_answer = needing_answer;
    metrics.max_needing_answer = metrics.max_needing_answer.max(needing_answer);
}
