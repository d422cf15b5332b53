//! Scripted play: random groups sent to random goals, and walls built across their paths
//! and torn down again, so paths must be re-planned while units walk.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_tilepath::prelude::{Cell, NavGrid, PathResult};
use bevy_tilepath::scenario::Scenario;
use bevy_tilepath::scenario::generate::SplitMix64;

use super::{MoveOrder, PAINT_MARGIN, SimSystems, Unit, UnitOrder, WallEdit};

/// What the script does and how often.
#[derive(Clone, Debug)]
pub struct ScriptConfig {
    /// Seed of every random choice.
    pub seed: u64,
    /// Frames between two orders (0: no orders).
    pub order_every: u64,
    /// Frames between two wall actions (0: no walls).
    pub wall_every: u64,
    /// Smallest and largest group.
    pub group: (usize, usize),
    /// Goals lie within this many cells (per axis) of the group; `None`: anywhere.
    pub max_distance: Option<i32>,
    /// No new orders or walls from this frame on (`u64::MAX`: never stop).
    pub stop_at: u64,
    /// Length of a wall segment in cells.
    pub wall_length: i32,
    /// The script acts only while this is true.
    pub enabled: bool,
    /// Every this many orders (0: never), the target is a cell the group's leader cannot
    /// reach (water, a wall or a closed area), like a right click there.
    pub unreachable_every: u32,
}

impl Default for ScriptConfig {
    fn default() -> Self {
        Self {
            seed: 11,
            order_every: 60,
            wall_every: 90,
            group: (12, 60),
            max_distance: None,
            stop_at: u64::MAX,
            wall_length: 9,
            enabled: true,
            unreachable_every: 4,
        }
    }
}

/// Runs a [`ScriptConfig`] in `Update`, before the simulation applies orders and edits.
pub struct ScriptPlugin(pub ScriptConfig);

impl Plugin for ScriptPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Script {
            rng: SplitMix64::new(self.0.seed),
            config: self.0.clone(),
            frame: 0,
            walls: VecDeque::new(),
            scratch: Vec::new(),
            orders: 0,
        })
        .add_systems(Update, run_script.in_set(SimSystems::Input));
    }
}

/// The script's state.
#[derive(Resource)]
pub struct Script {
    rng: SplitMix64,
    /// What the script does; may be changed while it runs.
    pub config: ScriptConfig,
    frame: u64,
    walls: VecDeque<Vec<Cell>>,
    scratch: Vec<(f32, Entity)>,
    orders: u32,
}

fn run_script(
    mut script: ResMut<Script>,
    grid: Option<Res<NavGrid>>,
    units: Query<(Entity, &Unit, &Transform, &UnitOrder, Option<&PathResult>)>,
    mut orders: MessageWriter<MoveOrder>,
    mut walls: MessageWriter<WallEdit>,
) {
    let script = &mut *script;
    script.frame += 1;
    let frame = script.frame;
    let Some(grid) = grid else {
        return;
    };
    if frame >= script.config.stop_at || !script.config.enabled {
        return;
    }
    let every = script.config.order_every;
    if every > 0
        && frame % every == 2 % every
        && let Some(order) = random_order(script, &grid, &units)
    {
        orders.write(order);
    }
    let every = script.config.wall_every;
    if every > 0 && frame % every == every / 2 {
        if script.walls.len() >= 2
            && let Some(old) = script.walls.pop_front()
        {
            walls.write_batch(old.into_iter().map(|cell| WallEdit {
                cell,
                blocked: false,
            }));
        }
        if let Some(segment) = wall_across_a_path(script, &grid, &units) {
            walls.write_batch(segment.iter().map(|&cell| WallEdit {
                cell,
                blocked: true,
            }));
            script.walls.push_back(segment);
        }
    }
}

/// The units of one team nearest to a random unit, sent to a random free cell.
fn random_order(
    script: &mut Script,
    grid: &NavGrid,
    units: &Query<(Entity, &Unit, &Transform, &UnitOrder, Option<&PathResult>)>,
) -> Option<MoveOrder> {
    let count = units.iter().len();
    if count == 0 {
        return None;
    }
    let pick = script.rng.below(count as u32) as usize;
    let (_, leader, anchor, ..) = units.iter().nth(pick)?;
    let (team, anchor) = (leader.team, anchor.translation.truncate());
    let leader = *leader;
    let (lo, hi) = script.config.group;
    let size = script.rng.range(lo as i32, hi.max(lo) as i32) as usize;
    script.scratch.clear();
    script.scratch.extend(
        units
            .iter()
            .filter(|(_, unit, ..)| unit.team == team)
            .map(|(e, _, t, ..)| (t.translation.truncate().distance_squared(anchor), e)),
    );
    script
        .scratch
        .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let members: Vec<Entity> = script.scratch.iter().take(size).map(|&(_, e)| e).collect();
    let from = grid.agent_cell(anchor, leader.diameter)?;
    let layer = grid.scenario().layer_for(leader.profile, leader.diameter)?;
    let map = grid.size();
    script.orders += 1;
    let every = script.config.unreachable_every;
    let unreachable = every > 0 && script.orders.is_multiple_of(every);
    for _ in 0..64 {
        let target = match script.config.max_distance {
            Some(d) => Cell::new(
                from.x + script.rng.range(-d, d),
                from.y + script.rng.range(-d, d),
            ),
            None => Cell::new(
                script.rng.below(map.width) as i32,
                script.rng.below(map.height) as i32,
            ),
        };
        // A goal the leader can reach (the others get slots they can reach around it),
        // or on purpose one it cannot: they go to the nearest ground they can reach.
        if layer.components().connected(from, target) != unreachable && map.contains(target) {
            return Some(MoveOrder {
                units: members,
                target,
            });
        }
    }
    None
}

/// A straight wall segment across the path of a walking unit, somewhere between a third
/// and two thirds of the way, made of cells that are free now and that the simulation
/// accepts (not too close to a unit or a goal). The best of 32 random tries.
fn wall_across_a_path(
    script: &mut Script,
    grid: &NavGrid,
    units: &Query<(Entity, &Unit, &Transform, &UnitOrder, Option<&PathResult>)>,
) -> Option<Vec<Cell>> {
    let walking: Vec<&[Cell]> = units
        .iter()
        .filter(|(_, _, _, order, _)| order.active())
        .filter_map(|(.., result)| result?.found().map(|p| &p.cells[..]))
        .filter(|cells| cells.len() >= 12)
        .collect();
    if walking.is_empty() {
        return None;
    }
    let accepted = |cell: Cell| {
        grid.size().contains(cell)
            && !grid.scenario().is_obstacle(cell)
            && !units.iter().any(|(_, unit, transform, order, _)| {
                let near =
                    |at: Cell, margin: i32| at.chebyshev(cell) as i32 <= unit.radius() + margin;
                grid.agent_cell(transform.translation.truncate(), unit.diameter)
                    .is_some_and(|at| near(at, PAINT_MARGIN))
                    || order
                        .goal
                        .filter(|_| order.active())
                        .is_some_and(|goal| near(goal, 1))
            })
    };
    let half = script.config.wall_length / 2;
    let mut best: Vec<Cell> = Vec::new();
    for _ in 0..32 {
        let cells = walking[script.rng.below(walking.len() as u32) as usize];
        let third = cells.len() / 3;
        let centre = cells[third + script.rng.below(third as u32 + 1) as usize];
        let horizontal = script.rng.chance(1, 2);
        let segment: Vec<Cell> = (-half..=half)
            .map(|i| {
                if horizontal {
                    Cell::new(centre.x + i, centre.y)
                } else {
                    Cell::new(centre.x, centre.y + i)
                }
            })
            .filter(|&c| accepted(c))
            .collect();
        if segment.len() > best.len() {
            best = segment;
        }
    }
    (!best.is_empty()).then_some(best)
}
