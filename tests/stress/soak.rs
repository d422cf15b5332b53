//! The soak scenario: an army of three unit sizes and movement profiles on a generated
//! countryside map, group orders every second and tile edits every frame, and what it
//! watches (panics, units inside blocked cells, frozen units, pending requests, arrivals,
//! completed orders, memory, solve times). `crates/bench/examples/soak/main.rs` runs it
//! from the command line (`cargo run --release -p tilepath_bench --example soak`); the
//! plugin tests run a short version (`tests/plugin/soak.rs`), so it stays in this crate.
//!
//! # What is measured
//!
//! - **Inside a blocked cell**: after a frame, a unit whose anchor cell is blocked for its
//!   diameter and profile ([`NavGrid::is_blocked_for`]: a wall or a terrain its profile
//!   forbids within its footprint). Walls are never built under a unit's footprint (the
//!   bad-input matrix covers walls painted on units), so every such unit-frame is a unit
//!   that walked into a wall.
//! - **Frozen unit-frame**: as in `live_edits` (`tests/stress/watch.rs`): a unit that
//!   did not move, has not arrived and has no path to follow (failed, or waiting for a
//!   re-plan); one still waiting for the first answer to a new order is counted apart.
//! - **Arrival**: a unit gained `Arrived`; an **order completed** is an arrival at the
//!   end of a complete (not partial) path: on the order's point or the cell claimed for
//!   the unit around it.
//! - **Pending**: [`TilepathStats::pending`] after each frame, and of those the requests
//!   that need an answer: every queued ticket outside the improvement lane
//!   ([`QueueLane::Improvement`]: re-plans that may only shorten a valid path wait
//!   behind everything else).
//! - **Peak memory**: the process's peak resident set (`VmHWM`).

#![allow(dead_code)]

use std::time::Duration;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Arrived, Cell, MovementProfiles, NavGrid, PathRequest, PathResult, PathStatus, ProfileId,
    QueueLane, Replanning, Scenario, Steering, TilepathPlugin, TilepathSettings, TilepathStats,
    TilepathSystems,
};
use bevy_tilepath::scenario::generate::{self, SplitMix64};
use bevy_tilepath::tilepath::scenario::movingai_terrain::TerrainSpec;

#[path = "watch.rs"]
pub mod watch;
use bevy_tilepath::prelude::{FrameBudget, GroupOrders};
use watch::{Before, Motion, ms, quantile, remember_positions};

/// World units per cell.
pub const TILE: f32 = 16.0;
/// Simulated time per frame.
pub const FRAME: Duration = Duration::from_millis(16);

/// The three kinds of unit: name of the movement profile, its terrain weights (MovingAI
/// characters: road, field, forest, swamp, water), diameter, speed in cells per second.
pub const KINDS: [(&str, &str, u32, f32); 3] = [
    ("infantry", ".=2,R=1,F=4,S=7,W=x", 1, 4.0),
    ("cavalry", ".=1,R=1,F=6,S=x,W=x", 2, 7.0),
    ("tank", ".=2,R=1,F=x,S=x,W=x", 3, 5.0),
];

/// What the soak runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub units: usize,
    /// Side of the square countryside map, in cells.
    pub size: u32,
    pub frames: u32,
    /// Tiles flipped per frame: half become walls (never under a unit), half of the walls
    /// built earlier open again.
    pub edits: usize,
    /// Every `order_every` frames one group of units (every [`GROUPS`]-th unit, in
    /// turn) is ordered to a random point: each unit gets `PathRequest::new(point)` and
    /// the plugin claims distinct cells around it.
    pub order_every: u32,
    /// Wall-clock solve budget per frame.
    pub budget: Duration,
    /// Count the budget in expansions instead ([`FrameBudget::Expansions`]):
    /// the outcome then does not depend on the machine.
    pub expansions: Option<u32>,
    pub seed: u64,
    /// How the units of a group order (claimed cells around one point) share work:
    /// [`GroupOrders::SharedApproach`] reads the long way off one field per kind and
    /// searches only the last stretch (not exact).
    pub group_orders: GroupOrders,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            units: 5_000,
            size: 512,
            frames: 2_000,
            edits: 20,
            order_every: 60,
            budget: Duration::from_millis(2),
            expansions: None,
            seed: 5,
            group_orders: GroupOrders::SharedFields,
        }
    }
}

/// One unit of the soak.
#[derive(Component, Clone, Copy)]
pub struct Soldier {
    pub index: u32,
    pub kind: usize,
    pub profile: ProfileId,
}

/// Counters of the measured frames.
#[derive(Resource, Clone, Debug, Default)]
pub struct Metrics {
    pub frames: u32,
    /// Unit-frames inside a blocked cell (see the module docs), and the first few.
    pub in_blocked: u64,
    pub blocked_examples: Vec<(u32, Entity, Cell)>,
    pub frozen: u64,
    /// Unit-frames waiting for the first answer to a new order (result `Pending`).
    pub ordered: u64,
    pub idle: u64,
    pub pending: usize,
    pub max_pending: usize,
    /// Of the pending requests, those that need an answer (not re-plans in the
    /// improvement lane, which only may shorten a path that is still valid).
    pub needing_answer: usize,
    pub max_needing_answer: usize,
    pub arrivals: u64,
    pub completed: u64,
    pub orders: u64,
    pub walls_built: u64,
    pub walls_opened: u64,
    /// Answers of the solver (paths and failures), paths repaired in place, and cells
    /// the solver expanded.
    pub answers: u64,
    pub repairs: u64,
    pub expanded: u64,
    /// Solve time of every measured frame.
    pub solve_times: Vec<Duration>,
}

/// The army is ordered in this many groups, one at a time.
pub const GROUPS: u32 = 10;

/// What the scenario keeps between frames.
#[derive(Resource)]
struct Soak {
    on: bool,
    frame: u64,
    rng: SplitMix64,
    size: GridSize,
    edits: usize,
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

/// The scenario's app: `plugins` (`MinimalPlugins` with the task pool you want), the
/// plugin, the map with its profiles, the units and their first goals.
pub fn build(config: &Config, plugins: PluginGroupBuilder) -> App {
    let mut app = App::new();
    app.add_plugins((plugins, TilepathPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
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
        (0..size.area())
            .map(|i| size.cell(i))
            .filter(|&c| !layer.is_blocked(c))
            .collect()
    });
    for index in 0..config.units {
        let kind = index % KINDS.len();
        let (name, _, diameter, speed) = KINDS[kind];
        let cells = &free[kind];
        let start = cells[rng.below(cells.len() as u32) as usize];
        let goal = cells[rng.below(cells.len() as u32) as usize];
        app.world_mut().spawn((
            Transform::from_translation(grid.agent_center(start, diameter).extend(1.0)),
            PathRequest::new(goal).diameter(diameter).profile(name),
            Steering::with_speed(speed * TILE),
            Soldier {
                index: index as u32,
                kind,
                profile: ids[kind],
            },
            Before::default(),
        ));
    }
    app.insert_resource(grid);
    app.insert_resource(profiles);
    app.insert_resource(Soak {
        on: false,
        frame: 0,
        rng,
        size,
        edits: config.edits,
        order_every: config.order_every.max(1),
        free,
        orders: 0,
        built: Vec::new(),
        occupied: vec![false; size.area()],
    });
    app.init_resource::<Metrics>();
    app.add_systems(
        Update,
        (
            (count_frame, remember_positions, give_orders, edit_map)
                .chain()
                .before(TilepathSystems::SyncMap),
            count_units.after(TilepathSystems::Steer),
        ),
    );
    app
}

/// Answers the first orders with no budget, then sets the configured budget and starts
/// the orders, edits and counts. Returns the warm-up frames.
pub fn warm_up(app: &mut App, config: &Config) -> u32 {
    let frames = watch::answer_first_orders(app);
    app.insert_resource(TilepathSettings {
        budget: match config.expansions {
            Some(n) => FrameBudget::Expansions(n),
            None => FrameBudget::Time(config.budget),
        },
        group_orders: config.group_orders,
        ..default()
    });
    app.world_mut().resource_mut::<Soak>().on = true;
    frames
}

fn count_frame(mut soak: ResMut<Soak>) {
    soak.frame += 1;
}

/// Every `order_every` frames, orders the next group of units to a random point where
/// the widest kind can stand.
fn give_orders(
    mut soak: ResMut<Soak>,
    mut units: Query<(&Soldier, &mut PathRequest)>,
    mut metrics: ResMut<Metrics>,
) {
    if !soak.on || !soak.frame.is_multiple_of(u64::from(soak.order_every)) {
        return;
    }
    let soak = &mut *soak;
    let group = soak.orders % GROUPS;
    soak.orders += 1;
    let points = &soak.free[KINDS.len() - 1];
    let point = points[soak.rng.below(points.len() as u32) as usize];
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
    mut soak: ResMut<Soak>,
    mut grid: ResMut<NavGrid>,
    units: Query<(&Transform, &PathRequest), With<Soldier>>,
    mut metrics: ResMut<Metrics>,
) {
    if !soak.on {
        return;
    }
    let soak = &mut *soak;
    let size = soak.size;
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
    let walls = soak.edits / 2;
    let mut edits: Vec<(Cell, bool)> = Vec::with_capacity(soak.edits);
    for _ in 0..walls * 50 {
        if edits.len() == walls {
            break;
        }
        let c = Cell::new(
            soak.rng.below(size.width) as i32,
            soak.rng.below(size.height) as i32,
        );
        if !soak.occupied[size.index(c)]
            && !grid.scenario().is_obstacle(c)
            && edits.iter().all(|&(e, _)| e != c)
        {
            edits.push((c, true));
        }
    }
    let openings = (soak.edits - edits.len()).min(soak.built.len());
    for _ in 0..openings {
        let i = soak.rng.below(soak.built.len() as u32) as usize;
        let c = soak.built.swap_remove(i);
        edits.push((c, false));
    }
    for &(c, wall) in &edits {
        if wall {
            soak.built.push(c);
            metrics.walls_built += 1;
        } else {
            metrics.walls_opened += 1;
        }
    }
    grid.apply_edits(edits);
}

/// What [`count_units`] reads of a unit.
type UnitState = (
    Entity,
    &'static Soldier,
    &'static Transform,
    &'static Before,
    &'static PathRequest,
    &'static PathResult,
    &'static PathStatus,
    Has<Replanning>,
    Option<Ref<'static, Arrived>>,
);

/// Counts blocked, frozen and idle unit-frames, arrivals, completed orders, pending
/// requests and the frame's solve time.
fn count_units(
    soak: Res<Soak>,
    grid: Res<NavGrid>,
    stats: Res<TilepathStats>,
    units: Query<UnitState>,
    mut metrics: ResMut<Metrics>,
) {
    if !soak.on {
        return;
    }
    let metrics = &mut *metrics;
    metrics.frames += 1;
    let mut needing_answer = 0;
    for (entity, soldier, transform, before, request, result, ticket, replanning, arrived) in &units
    {
        needing_answer +=
            usize::from(ticket.is_queued() && ticket.lane() != QueueLane::Improvement);
        let position = transform.translation;
        let cell = grid.agent_cell(position.truncate(), request.diameter);
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
        match watch::motion(position, before, arrived.is_some(), replanning, result) {
            Motion::Moving => {}
            Motion::Idle => metrics.idle += 1,
            Motion::Ordered => metrics.ordered += 1,
            Motion::Frozen => metrics.frozen += 1,
        }
    }
    metrics.pending = stats.pending;
    metrics.max_pending = metrics.max_pending.max(stats.pending);
    metrics.needing_answer = needing_answer;
    metrics.max_needing_answer = metrics.max_needing_answer.max(needing_answer);
    metrics.answers += (stats.solved + stats.failed) as u64;
    metrics.repairs += stats.repaired as u64;
    metrics.expanded += stats.expanded;
    metrics.solve_times.push(stats.solve_time);
}

/// The scenario's counters.
pub fn metrics(app: &App) -> &Metrics {
    app.world().resource::<Metrics>()
}

/// Prints the figures of a run: `panics` counted by the caller, `memory` the peak
/// resident set in kB at some frames.
pub fn report(m: &Metrics, panics: u32, memory: &[(u32, u64)]) {
    println!("panics: {panics}");
    println!(
        "unit-frames inside a blocked cell for their footprint: {}{}",
        m.in_blocked,
        if m.blocked_examples.is_empty() {
            String::new()
        } else {
            format!(" (first: {:?})", m.blocked_examples)
        }
    );
    println!(
        "frozen unit-frames: {}; waiting for a new order's first answer: {}; \
         idle unit-frames (a path, held back): {}",
        m.frozen, m.ordered, m.idle
    );
    println!(
        "pending requests: max {}, at the end {}; of those needing an answer (not \
         improvements of valid paths): max {}, at the end {}",
        m.max_pending, m.pending, m.max_needing_answer, m.needing_answer
    );
    println!(
        "unit orders given: {}; arrivals: {}; orders completed (arrived at the end of a complete path): {}",
        m.orders, m.arrivals, m.completed
    );
    println!("walls built: {}, opened: {}", m.walls_built, m.walls_opened);
    let frames = f64::from(m.frames.max(1));
    println!(
        "solver answers: {} ({:.1} per frame, {:.0} cells expanded per answer); paths \
         repaired in place: {}",
        m.answers,
        m.answers as f64 / frames,
        m.expanded as f64 / m.answers.max(1) as f64,
        m.repairs
    );
    for (frame, kb) in memory {
        println!(
            "peak memory at frame {frame}: {:.1} MiB",
            *kb as f64 / 1024.0
        );
    }
    if let [(_, first), .., (_, last)] = memory {
        println!(
            "peak memory growth: {:+.2} %",
            (*last as f64 / (*first).max(1) as f64 - 1.0) * 100.0
        );
    }
    println!(
        "solve time per frame: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        ms(quantile(&m.solve_times, 0.5)),
        ms(quantile(&m.solve_times, 0.99)),
        ms(quantile(&m.solve_times, 1.0)),
    );
}
