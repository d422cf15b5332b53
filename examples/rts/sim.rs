//! The RTS simulation, with or without a window: level, units, move orders, live wall
//! edits and statistics. `main.rs` adds rendering and input on top; `run_headless` drives
//! it with scripted orders (also used by `tests/rts_headless.rs`).

#[path = "formation.rs"]
pub mod formation;
#[path = "headless.rs"]
pub mod headless;
#[path = "level.rs"]
pub mod level;
#[path = "script.rs"]
pub mod script;

use std::time::Duration;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::crowd::OVERLAP_TOLERANCE;
use bevy_tilepath::prelude::{
    Algorithm, Arrived, Cell, CollisionLayer, Footprint, MovementProfile, MovementProfiles,
    NavGrid, PathRequest, PathResult, PathSolved, ProfileId, Steering, TilepathSettings,
    TilepathSystems,
};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::scenario::generate::SplitMix64;
use bevy_tilepath::stats::TilepathStats;
use bevy_tilepath::steering::SteeringProgress;

use bevy_tilepath::prelude::RequestDefaults;
use formation::{FormationPlanner, Member};
use level::{FOREST, GRASS, LEVEL_SEED, LEVEL_SIZE, Level, ROAD, SWAMP, TileKind, WATER};

/// World units per cell.
pub const TILE: f32 = 8.0;

/// A unit counts as arrived within this fraction of a cell of its goal's centre.
const ARRIVAL_TOLERANCE: f32 = 0.5;

/// Cells around a unit (beyond its footprint) where walls may not be painted.
pub const PAINT_MARGIN: i32 = 2;

/// What the simulation is started with.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Number of units (split over two teams).
    pub units: usize,
    /// Seed of the unit sizes.
    pub seed: u64,
    /// Algorithm of the path requests.
    pub algorithm: Algorithm,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            units: 500,
            seed: 7,
            algorithm: Algorithm::Auto,
        }
    }
}

/// The unit types: each has its own size, speed and movement profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// One cell wide, slow, goes almost anywhere: forest 2, swamp 3, no water.
    Infantry,
    /// Two cells wide, fast over water and swamp: water 2, no forest.
    Hover,
    /// Three cells wide, fast on roads: grass 2, swamp 5, no forest, no water.
    Tank,
}

impl UnitKind {
    /// Every kind.
    pub const ALL: [UnitKind; 3] = [UnitKind::Infantry, UnitKind::Hover, UnitKind::Tank];

    /// The name of the kind and of its movement profile.
    pub const fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Hover => "hover",
            UnitKind::Tank => "tank",
        }
    }

    /// Agent diameter in cells.
    pub const fn diameter(self) -> u32 {
        match self {
            UnitKind::Infantry => 1,
            UnitKind::Hover => 2,
            UnitKind::Tank => 3,
        }
    }

    /// Top speed (on weight 1, roads), world units per second.
    pub const fn speed(self) -> f32 {
        match self {
            UnitKind::Infantry => 40.0,
            UnitKind::Hover => 60.0,
            UnitKind::Tank => 72.0,
        }
    }

    /// How the kind reads the terrain.
    pub fn profile(self) -> MovementProfile {
        let profile = MovementProfile::new().with_weight(ROAD, 1);
        match self {
            UnitKind::Infantry => profile
                .with_weight(GRASS, 1)
                .with_weight(FOREST, 2)
                .with_weight(SWAMP, 3)
                .with_blocked(WATER),
            UnitKind::Hover => profile
                .with_weight(GRASS, 1)
                .with_weight(SWAMP, 1)
                .with_weight(WATER, 2)
                .with_blocked(FOREST),
            UnitKind::Tank => profile
                .with_weight(GRASS, 2)
                .with_weight(SWAMP, 5)
                .with_blocked(FOREST)
                .with_blocked(WATER),
        }
    }

    /// The movement profiles of every kind, by name (and the plugin's default).
    pub fn profiles() -> MovementProfiles {
        UnitKind::ALL
            .iter()
            .fold(MovementProfiles::default(), |p, k| {
                p.with(k.name(), k.profile())
            })
    }
}

/// A unit: its kind, size in cells and team.
#[derive(Component, Clone, Copy, Debug)]
pub struct Unit {
    /// What kind of unit.
    pub kind: UnitKind,
    /// Agent diameter in cells (that of the kind).
    pub diameter: u32,
    /// Team 0 starts top left, team 1 bottom right.
    pub team: u8,
    /// The id of the kind's profile in [`MovementProfiles`].
    pub profile: ProfileId,
}

impl Unit {
    /// Chebyshev radius of the unit's footprint in cells.
    pub fn radius(&self) -> i32 {
        (self.diameter / 2) as i32
    }
}

/// The unit's current move order.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct UnitOrder {
    /// Order number (0 = never ordered).
    pub id: u32,
    /// The unit's own slot of the formation.
    pub goal: Option<Cell>,
    /// The unit reached its slot.
    pub arrived: bool,
    /// The first answer to this order has not come yet (later answers are re-plans).
    pub awaiting_answer: bool,
    /// The unit got no formation slot and was sent to the order's target: `goal` becomes
    /// the cell the plugin's answer reaches.
    pub nearest: bool,
}

impl UnitOrder {
    /// True while the unit is walking to a goal.
    pub fn active(&self) -> bool {
        self.goal.is_some() && !self.arrived
    }
}

/// Send a group to a target cell; each unit gets its own slot around it.
#[derive(Message, Clone, Debug)]
pub struct MoveOrder {
    /// The units.
    pub units: Vec<Entity>,
    /// Where the group gathers.
    pub target: Cell,
}

/// Turn a cell into a wall or back into ground.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallEdit {
    /// The cell.
    pub cell: Cell,
    /// True to build a wall, false to clear the cell.
    pub blocked: bool,
}

/// The simulation's shared state.
#[derive(Resource)]
pub struct Sim {
    /// The level as loaded.
    pub level: Level,
    /// The tilemap entity (with `CollisionLayer` and `TileStorage`).
    pub tilemap: Entity,
    planner: FormationPlanner,
    members: Vec<Member>,
    member_entities: Vec<Entity>,
    goals: Vec<Option<Cell>>,
    keep_clear: Vec<u32>,
    keep_clear_stamp: u32,
    next_order: u32,
}

/// Counters and timings.
#[derive(Resource, Clone, Debug, Default)]
pub struct SimStats {
    /// Frames simulated.
    pub frames: u64,
    /// Move orders with at least one unit given a slot.
    pub orders: u32,
    /// Units given a slot, over all orders.
    pub units_ordered: u64,
    /// Units of orders that found no formation slot (no reachable free cell within
    /// `formation::SEARCH_RADIUS` of the target): they are sent to the target itself and
    /// the plugin's default options take them to the nearest reachable cell around it.
    pub units_without_slot: u64,
    /// Orders whose target the leader of the group could not reach (water, a wall, a
    /// closed area): the formation slots and the plugin's nearest reachable goals still
    /// move the units to the nearest reachable ground.
    pub orders_to_unreachable: u32,
    /// Units that reached their slot.
    pub arrivals: u64,
    /// Answers to path requests (first answers and re-plans).
    pub answers: u64,
    /// Answers after a unit's first for its order: re-plans after map edits or stalls.
    pub replans: u64,
    /// Answers that were failures.
    pub failures: u64,
    /// Found paths the plugin sent back for re-planning because a wall edit crossed them.
    pub edit_replans: u64,
    /// Cells turned into walls / cleared.
    pub cells_walled: u64,
    /// Cells cleared.
    pub cells_cleared: u64,
    /// Wall edits refused because a unit or a unit's goal was too close.
    pub edits_refused: u64,
    /// Units whose footprint overlaps an obstacle or a terrain their profile blocks, this
    /// frame.
    pub in_walls: usize,
    /// Largest `in_walls` seen.
    pub max_in_walls: usize,
    /// Pairs of units whose discs (their diameter in tiles) overlap by more than the
    /// plugin's tolerance ([`OVERLAP_TOLERANCE`]), this frame.
    pub overlaps: usize,
    /// Largest `overlaps` seen.
    pub max_overlaps: usize,
    /// Units on the way that have made no headway for a second or more, this frame.
    pub stuck: usize,
    /// Largest `stuck` seen.
    pub max_stuck: usize,
    /// Units on the way to a goal, this frame.
    pub moving: usize,
    /// Time spent in the plugin's solve step this frame.
    pub solve_time: Duration,
    /// Sum of `solve_time` over all frames.
    pub solve_total: Duration,
    /// Largest `solve_time`.
    pub solve_max: Duration,
    /// The last order: its id, the frame it was given in and its units.
    pub last_order: Option<(u32, u64, u64)>,
    /// Frames from the last order until every one of its units had its path (1 when all
    /// were answered in the frame of the order); `None` while some still wait.
    pub last_order_frames: Option<u64>,
    /// Largest frames-until-every-unit-has-its-path over the orders timed (an order that
    /// a later one replaced before all its units were answered is not timed).
    pub order_frames_max: u64,
    /// Sum of those frames, for the mean.
    pub order_frames_sum: u64,
    /// Orders timed.
    pub orders_timed: u32,
}

/// The simulation's system sets in `Update`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SimSystems {
    /// Systems that write [`MoveOrder`]s and [`WallEdit`]s (input, script); before the
    /// plugin's map sync.
    Input,
}

/// The simulation's startup systems (level, then units).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SimStartup;

/// Adds the simulation (needs `TilepathPlugin`; works with `MinimalPlugins`).
pub struct SimPlugin(pub SimConfig);

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        let config = self.0.clone();
        let level = Level::generate(LEVEL_SIZE, LEVEL_SEED);
        info!("level: {}", level.source);
        app.insert_resource(TilepathSettings {
            defaults: RequestDefaults {
                algorithm: config.algorithm,
                ..default()
            },
            ..default()
        })
        .insert_resource(UnitKind::profiles())
        .insert_resource(SimSeed(config.seed, config.units))
        .insert_resource(PendingLevel(Some(level)))
        .init_resource::<SimStats>()
        .add_message::<MoveOrder>()
        .add_message::<WallEdit>()
        .configure_sets(Update, SimSystems::Input.before(TilepathSystems::SyncMap))
        .add_systems(
            Startup,
            (spawn_level, spawn_units).chain().in_set(SimStartup),
        )
        .add_systems(
            Update,
            (
                apply_wall_edits
                    .after(SimSystems::Input)
                    .before(TilepathSystems::SyncMap),
                apply_move_orders
                    .after(TilepathSystems::SyncMap)
                    .before(TilepathSystems::Replan),
                track_units.after(TilepathSystems::Steer),
            ),
        );
    }
}

#[derive(Resource)]
struct SimSeed(u64, usize);

#[derive(Resource)]
struct PendingLevel(Option<Level>);

/// Spawns the tilemap: one tile entity per cell. Its collision layer blocks rock and
/// wall textures and reads the terrain from the texture index.
fn spawn_level(mut commands: Commands, mut pending: ResMut<PendingLevel>) {
    let Some(level) = pending.0.take() else {
        return;
    };
    let size = level.size();
    let map_size = TilemapSize {
        x: size.width,
        y: size.height,
    };
    let tilemap = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(map_size);
    for y in 0..size.height {
        for x in 0..size.width {
            let cell = Cell::new(x as i32, y as i32);
            let position = TilePos { x, y };
            let tile = commands.spawn(TileBundle {
                position,
                tilemap_id: TilemapId(tilemap),
                texture_index: TileTextureIndex(level.kind(cell).atlas_index()),
                ..default()
            });
            storage.set(&position, tile.id());
        }
    }
    commands.entity(tilemap).insert((
        storage,
        map_size,
        TilemapGridSize { x: TILE, y: TILE },
        TilemapTileSize { x: TILE, y: TILE },
        Transform::default(),
        CollisionLayer::from_texture_indices(TileKind::BLOCKING)
            .with_terrain_textures(TileKind::terrain_table()),
    ));
    commands.insert_resource(Sim {
        level,
        tilemap,
        planner: FormationPlanner::default(),
        members: Vec::new(),
        member_entities: Vec::new(),
        goals: Vec::new(),
        keep_clear: Vec::new(),
        keep_clear_stamp: 0,
        next_order: 1,
    });
}

/// World position of the centre of `cell` (the tilemap sits at the origin, anchor `None`).
pub fn cell_center(cell: Cell) -> Vec2 {
    Vec2::new(cell.x as f32, cell.y as f32) * TILE
}

/// Steering of a unit of `kind`: its top speed (the terrain slows it down further); units
/// avoid each other as discs of their diameter (the plugin's default).
pub fn steering_for(kind: UnitKind) -> Steering {
    Steering {
        speed: kind.speed(),
        arrival_radius: TILE,
        ..Steering::default()
    }
}

/// The level as the pathfinder sees it, with the units' profiles registered.
pub fn level_map(level: &Level, profiles: &MovementProfiles) -> Option<CachedScenario> {
    let mut map = CachedScenario::from_bits_and_terrain(level.bits(), level.terrain())
        .map_err(|e| error!("the level is empty: {e}"))
        .ok()?;
    for (id, named) in profiles.iter() {
        map.set_profile(id, named.profile.clone());
    }
    Some(map)
}

/// Spawns the units in formation around the two bases: 60 % infantry, 20 % hovercraft,
/// 20 % tanks.
fn spawn_units(
    mut commands: Commands,
    seed: Res<SimSeed>,
    profiles: Res<MovementProfiles>,
    mut sim: ResMut<Sim>,
) {
    let sim = &mut *sim;
    let Some(map) = level_map(&sim.level, &profiles) else {
        return;
    };
    let mut rng = SplitMix64::new(seed.0);
    let total = seed.1;
    let bases = sim.level.bases();
    sim.planner.start(map.size());
    let mut kinds = Vec::new();
    for (team, &base) in bases.iter().enumerate() {
        let count = total / 2 + if team == 0 { total % 2 } else { 0 };
        kinds.clear();
        kinds.extend((0..count).map(|_| match rng.below(10) {
            0 | 1 => UnitKind::Tank,
            2 | 3 => UnitKind::Hover,
            _ => UnitKind::Infantry,
        }));
        kinds.sort_by_key(|k| std::cmp::Reverse(k.diameter()));
        sim.members.clear();
        sim.members.extend(kinds.iter().map(|k| Member {
            start: base,
            diameter: k.diameter(),
            profile: profiles.id(k.name()).unwrap_or_default(),
        }));
        sim.planner.assign(&map, base, &sim.members, &mut sim.goals);
        for ((member, goal), &kind) in sim.members.iter().zip(&sim.goals).zip(&kinds) {
            let Some(cell) = *goal else {
                continue;
            };
            // Even diameters stand on a cell corner (see `NavGrid::agent_center`).
            let even = member.diameter.is_multiple_of(2);
            let p = cell_center(cell) + Vec2::splat(if even { TILE / 2.0 } else { 0.0 });
            commands.spawn((
                Unit {
                    kind,
                    diameter: member.diameter,
                    team: team as u8,
                    profile: member.profile,
                },
                UnitOrder::default(),
                steering_for(kind),
                Footprint::new(member.diameter).profile(kind.name()),
                Transform::from_xyz(p.x, p.y, 2.0 - 0.2 * member.diameter as f32),
            ));
        }
    }
}

/// Applies wall edits to the tiles (their texture, which the collision layer reads),
/// refusing cells too close to a unit or to a unit's goal so that no unit ever stands in
/// a wall. A cleared wall shows the level's terrain again.
fn apply_wall_edits(
    mut edits: MessageReader<WallEdit>,
    mut sim: ResMut<Sim>,
    mut stats: ResMut<SimStats>,
    units: Query<(&Unit, &Transform, &UnitOrder)>,
    storages: Query<&TileStorage>,
    mut textures: Query<&mut TileTextureIndex>,
) {
    if edits.is_empty() {
        return;
    }
    let sim = &mut *sim;
    let size = sim.level.size();
    let Ok(storage) = storages.get(sim.tilemap) else {
        edits.clear();
        return;
    };
    if sim.keep_clear.len() != size.area() {
        sim.keep_clear = vec![0; size.area()];
        sim.keep_clear_stamp = 0;
    }
    sim.keep_clear_stamp = sim.keep_clear_stamp.wrapping_add(1);
    if sim.keep_clear_stamp == 0 {
        sim.keep_clear.fill(0);
        sim.keep_clear_stamp = 1;
    }
    let stamp = sim.keep_clear_stamp;
    let mut mark = |center: Cell, r: i32| {
        for y in center.y - r..=center.y + r {
            for x in center.x - r..=center.x + r {
                let c = Cell::new(x, y);
                if size.contains(c) {
                    sim.keep_clear[size.index(c)] = stamp;
                }
            }
        }
    };
    for (unit, transform, order) in &units {
        let p = transform.translation.truncate();
        let here = Cell::new((p.x / TILE).round() as i32, (p.y / TILE).round() as i32);
        mark(here, unit.radius() + PAINT_MARGIN);
        if let Some(goal) = order.goal.filter(|_| order.active()) {
            mark(goal, unit.radius() + 1);
        }
    }
    for edit in edits.read() {
        let cell = edit.cell;
        if !size.contains(cell) {
            continue;
        }
        let Some(tile) = storage.get(&TilePos::new(cell.x as u32, cell.y as u32)) else {
            continue;
        };
        let Ok(mut texture) = textures.get_mut(tile) else {
            continue;
        };
        if TileKind::index_blocks(texture.0) == edit.blocked {
            continue;
        }
        if edit.blocked {
            if sim.keep_clear[size.index(cell)] == stamp {
                stats.edits_refused += 1;
                continue;
            }
            texture.0 = TileKind::Wall.atlas_index();
            stats.cells_walled += 1;
        } else {
            texture.0 = sim.level.cleared(cell).atlas_index();
            stats.cells_cleared += 1;
        }
    }
}

/// Gives every unit of each order its own slot around the target and a path request.
fn apply_move_orders(
    mut commands: Commands,
    mut orders: MessageReader<MoveOrder>,
    grid: Option<Res<NavGrid>>,
    mut sim: ResMut<Sim>,
    mut stats: ResMut<SimStats>,
    mut units: Query<(Entity, &Unit, &Transform, &mut UnitOrder)>,
) {
    let Some(grid) = grid else {
        orders.clear();
        return;
    };
    let sim = &mut *sim;
    for order in orders.read() {
        sim.member_entities.clear();
        sim.member_entities.extend(order.units.iter().copied());
        sim.member_entities.sort_unstable();
        sim.member_entities.dedup();
        sim.planner.start(grid.size());
        for (entity, unit, transform, current) in &units {
            if sim.member_entities.binary_search(&entity).is_ok() {
                continue;
            }
            let keep = match current.goal {
                Some(goal) if !current.arrived => Some(goal),
                _ => grid.agent_cell(transform.translation.truncate(), unit.diameter),
            };
            if let Some(cell) = keep {
                sim.planner.reserve(cell, unit.radius());
            }
        }
        sim.members.clear();
        sim.member_entities.retain(|&entity| {
            let Ok((_, unit, transform, _)) = units.get(entity) else {
                return false;
            };
            let Some(start) = grid.agent_cell(transform.translation.truncate(), unit.diameter)
            else {
                return false;
            };
            sim.members.push(Member {
                start,
                diameter: unit.diameter,
                profile: unit.profile,
            });
            true
        });
        let unreachable = sim.members.first().is_some_and(|m| {
            grid.scenario()
                .layer_for(m.profile, m.diameter)
                .is_some_and(|layer| !layer.components().connected(m.start, order.target))
        });
        stats.orders_to_unreachable += u32::from(unreachable);
        sim.planner
            .assign(grid.scenario(), order.target, &sim.members, &mut sim.goals);
        let id = sim.next_order;
        let mut given = 0;
        for (&entity, goal) in sim.member_entities.iter().zip(&sim.goals) {
            let Ok((_, unit, _, mut current)) = units.get_mut(entity) else {
                continue;
            };
            // Without a slot, the order's target itself: the plugin plans to the nearest
            // reachable cell around it (nearest-goal and claimed cells are on by
            // default), and the unit's goal becomes that cell when the answer comes.
            let nearest = goal.is_none();
            let goal = goal.unwrap_or(order.target);
            stats.units_without_slot += u64::from(nearest);
            *current = UnitOrder {
                id,
                goal: Some(goal),
                arrived: false,
                awaiting_answer: true,
                nearest,
            };
            commands.entity(entity).insert(
                PathRequest::new(goal)
                    .diameter(unit.diameter)
                    .profile(unit.kind.name())
                    .smooth(true),
            );
            given += 1;
        }
        if given > 0 {
            sim.next_order += 1;
            stats.orders += 1;
            stats.units_ordered += given;
            stats.last_order = Some((id, stats.frames, given));
            stats.last_order_frames = None;
        }
    }
}

/// Pairs of discs (centre, radius in world units) that overlap by more than
/// [`OVERLAP_TOLERANCE`] tiles: a sweep along x, O(n log n + pairs near each other).
fn count_overlaps(discs: &mut [(Vec2, f32)]) -> usize {
    discs.sort_unstable_by(|a, b| a.0.x.total_cmp(&b.0.x));
    let widest = discs.iter().map(|d| d.1).fold(0.0, f32::max);
    let mut count = 0;
    for (i, &(p, r)) in discs.iter().enumerate() {
        for &(q, s) in &discs[i + 1..] {
            if q.x - p.x > r + widest {
                break;
            }
            if r + s - p.distance(q) > OVERLAP_TOLERANCE * TILE {
                count += 1;
            }
        }
    }
    count
}

/// What [`track_units`] reads and writes of a unit.
type TrackedUnit = (
    &'static Unit,
    &'static Transform,
    &'static mut UnitOrder,
    Has<Arrived>,
    Option<&'static PathResult>,
    Option<&'static SteeringProgress>,
);

/// Counts answers, re-plans, arrivals and units standing in walls, and copies the
/// plugin's solve time. (Units that stall re-plan by themselves: see [`Steering`].)
fn track_units(
    grid: Option<Res<NavGrid>>,
    plugin: Res<TilepathStats>,
    mut stats: ResMut<SimStats>,
    mut answers: MessageReader<PathSolved>,
    mut units: Query<TrackedUnit>,
    mut discs: Local<Vec<(Vec2, f32)>>,
) {
    stats.frames += 1;
    stats.solve_time = plugin.solve_time;
    stats.solve_total += plugin.solve_time;
    stats.solve_max = stats.solve_max.max(plugin.solve_time);
    stats.edit_replans = plugin.total_replanned;
    for answer in answers.read() {
        stats.answers += 1;
        if answer.outcome.is_err() {
            stats.failures += 1;
        }
        if let Ok((_, _, mut order, _, result, _)) = units.get_mut(answer.entity) {
            if order.awaiting_answer {
                order.awaiting_answer = false;
            } else {
                stats.replans += 1;
            }
            if order.nearest
                && let Some(path) = result.and_then(PathResult::found)
            {
                order.goal = Some(path.reached);
            }
        }
    }
    let Some(grid) = grid else {
        return;
    };
    let (mut in_walls, mut moving, mut arrivals, mut waiting, mut stuck) = (0, 0, 0, 0, 0);
    let last = stats.last_order.map(|(id, ..)| id);
    discs.clear();
    for (unit, transform, mut order, plugin_arrived, _, progress) in &mut units {
        waiting += u32::from(Some(order.id) == last && order.awaiting_answer);
        let p = transform.translation.truncate();
        discs.push((p, unit.diameter as f32 * 0.5 * TILE));
        match grid.agent_cell(p, unit.diameter) {
            Some(cell) if !grid.is_blocked_for(cell, unit.diameter, unit.profile) => {}
            _ => in_walls += 1,
        }
        let Some(goal) = order.goal else {
            continue;
        };
        if order.arrived {
            continue;
        }
        let close = p.distance(grid.agent_center(goal, unit.diameter)) <= ARRIVAL_TOLERANCE * TILE;
        if close || (plugin_arrived && !order.awaiting_answer) {
            order.arrived = true;
            arrivals += 1;
            continue;
        }
        moving += 1;
        stuck += usize::from(progress.is_some_and(|p| p.stalled_secs() >= 1.0));
    }
    stats.overlaps = count_overlaps(&mut discs);
    stats.max_overlaps = stats.max_overlaps.max(stats.overlaps);
    stats.stuck = stuck;
    stats.max_stuck = stats.max_stuck.max(stuck);
    if let Some((_, given_at, _)) = stats.last_order
        && waiting == 0
        && stats.last_order_frames.is_none()
    {
        // The order was given before this frame's count (frames was incremented above).
        let frames = stats.frames - given_at;
        stats.last_order_frames = Some(frames);
        stats.order_frames_max = stats.order_frames_max.max(frames);
        stats.order_frames_sum += frames;
        stats.orders_timed += 1;
    }
    stats.arrivals += arrivals;
    stats.in_walls = in_walls;
    stats.max_in_walls = stats.max_in_walls.max(in_walls);
    stats.moving = moving;
}
