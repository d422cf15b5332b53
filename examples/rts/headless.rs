//! Headless runs: the simulation under `MinimalPlugins` with a fixed time step, scripted
//! orders and wall edits, and a summary that says whether every unit stayed out of walls
//! and every reachable order was completed.

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::{FrameBudget, NavGrid, PathResult, TilepathPlugin, TilepathSettings};
use bevy_tilepath::steering::SteeringProgress;

use super::script::{ScriptConfig, ScriptPlugin};
use super::{SimConfig, SimPlugin, SimStats, Unit, UnitOrder};

/// Simulated time per frame.
pub const FRAME_TIME: Duration = Duration::from_nanos(16_666_667);

/// A headless run.
#[derive(Clone, Debug)]
pub struct HeadlessConfig {
    /// The simulation.
    pub sim: SimConfig,
    /// The script (its `stop_at` is set to `frames`).
    pub script: ScriptConfig,
    /// Frames with scripted orders and wall edits.
    pub frames: u64,
    /// After `frames`, keep simulating (without new orders) at most this many frames
    /// until every reachable order is completed.
    pub settle_frames: u64,
    /// Solve every pending request in the frame it is queued (an expansion budget no
    /// request reaches, not a time budget), which makes the run independent of the
    /// machine's speed: background landmark tables are installed a fixed number of
    /// frames after their build began, as under any expansion budget.
    pub unbounded_solving: bool,
}

impl HeadlessConfig {
    /// A run of `frames` scripted frames with `units` units, default script and simulation.
    pub fn new(frames: u64, units: usize) -> Self {
        Self {
            sim: SimConfig { units, ..default() },
            script: ScriptConfig::default(),
            frames,
            settle_frames: 7200,
            unbounded_solving: false,
        }
    }
}

/// What a headless run measured.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Units simulated.
    pub units: usize,
    /// Scripted frames.
    pub frames: u64,
    /// Extra frames run until the last orders were completed.
    pub settle_frames: u64,
    /// The simulation's counters at the end (orders, arrivals, answers, re-plans, wall
    /// edits, units in walls, solve times).
    pub sim: SimStats,
    /// Orders whose units (those still under that order and able to reach their slot)
    /// all arrived.
    pub orders_completed: u32,
    /// Orders whose every unit was given a later order before arriving.
    pub orders_superseded: u32,
    /// Units still walking at the end to a slot they can reach (must be 0).
    pub unfinished_reachable: usize,
    /// Units whose slot a wall made unreachable.
    pub unreachable: usize,
    /// A few of the unfinished reachable units, described.
    pub stuck: Vec<String>,
    /// Wall-clock time of the first frame (startup: spawning the level, building the grid).
    pub startup: Duration,
    /// Mean and largest wall-clock time of the other frames.
    pub frame_mean: Duration,
    /// Largest frame time after the first.
    pub frame_max: Duration,
    /// Mean time of the plugin's solve step per frame.
    pub solve_mean: Duration,
}

impl Summary {
    /// No unit ever stood in a wall and every reachable order was completed.
    pub fn passed(&self) -> bool {
        self.sim.max_in_walls == 0 && self.unfinished_reachable == 0
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "rts headless: {} units, {} frames (+{} to settle)",
            self.units, self.frames, self.settle_frames
        )?;
        writeln!(
            f,
            "  orders issued        {} ({} unit slots), completed {}, superseded {}",
            self.sim.orders, self.sim.units_ordered, self.orders_completed, self.orders_superseded
        )?;
        writeln!(
            f,
            "  orders to unreachable ground {} (units sent to the plugin's nearest reachable cell: {})",
            self.sim.orders_to_unreachable, self.sim.units_without_slot
        )?;
        writeln!(f, "  units arrived        {}", self.sim.arrivals)?;
        writeln!(
            f,
            "  frames until every unit of an order has its path: mean {:.1}, max {} ({} orders)",
            self.sim.order_frames_sum as f64 / f64::from(self.sim.orders_timed.max(1)),
            self.sim.order_frames_max,
            self.sim.orders_timed
        )?;
        writeln!(
            f,
            "  unfinished reachable {} (unreachable after wall edits: {})",
            self.unfinished_reachable, self.unreachable
        )?;
        for unit in &self.stuck {
            writeln!(f, "    {unit}")?;
        }
        writeln!(
            f,
            "  path answers         {} (re-plans {} of which {} after wall edits, failures {})",
            self.sim.answers, self.sim.replans, self.sim.edit_replans, self.sim.failures
        )?;
        writeln!(
            f,
            "  wall edits           {} cells walled, {} cleared",
            self.sim.cells_walled, self.sim.cells_cleared
        )?;
        writeln!(f, "  max units in walls   {}", self.sim.max_in_walls)?;
        writeln!(
            f,
            "  crowd                max overlapping pairs {}, max stuck units {}",
            self.sim.max_overlaps, self.sim.max_stuck
        )?;
        writeln!(
            f,
            "  frame time           startup {:.1} ms, mean {:.3} ms, max {:.3} ms",
            ms(self.startup),
            ms(self.frame_mean),
            ms(self.frame_max)
        )?;
        write!(
            f,
            "  pathfinding / frame  mean {:.3} ms, max {:.3} ms  => {}",
            ms(self.solve_mean),
            ms(self.sim.solve_max),
            if self.passed() { "PASS" } else { "FAIL" }
        )
    }
}

/// Builds the headless app: `MinimalPlugins`, the plugin, the simulation and the script.
pub fn headless_app(config: &HeadlessConfig) -> App {
    let mut app = App::new();
    let mut script = config.script.clone();
    script.stop_at = config.frames;
    app.add_plugins((
        MinimalPlugins,
        TilepathPlugin::default(),
        SimPlugin(config.sim.clone()),
        ScriptPlugin(script),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME_TIME));
    if config.unbounded_solving {
        app.world_mut().resource_mut::<TilepathSettings>().budget =
            FrameBudget::Expansions(u32::MAX);
    }
    app.finish();
    app.cleanup();
    app
}

/// Where the orders stand: units still walking to a slot they can reach, units whose
/// slot is unreachable, and per order id whether it is done (every unit under it arrived
/// or cannot arrive).
#[derive(Default)]
struct Tally {
    reachable: usize,
    stuck: Vec<String>,
    unreachable: usize,
    orders: BTreeMap<u32, bool>,
}

fn tally(world: &mut World) -> Tally {
    let mut query = world.query::<(
        &Unit,
        &Transform,
        &UnitOrder,
        Option<&PathResult>,
        Option<&SteeringProgress>,
    )>();
    let world = &*world;
    let mut tally = Tally::default();
    let Some(grid) = world.get_resource::<NavGrid>() else {
        return tally;
    };
    for (unit, transform, order, result, progress) in query.iter(world) {
        let Some(goal) = order.goal else {
            continue;
        };
        let here = grid.agent_cell(transform.translation.truncate(), unit.diameter);
        let reachable = here.is_some_and(|c| {
            grid.scenario()
                .layer_for(unit.profile, unit.diameter)
                .is_some_and(|layer| layer.components().connected(c, goal))
        });
        if !order.arrived {
            if reachable {
                tally.reachable += 1;
                if tally.stuck.len() < 5 {
                    let state = match result {
                        Some(PathResult::Found(p)) => format!(
                            "heading for waypoint {} of {:?}, no headway for {:.1} s",
                            progress.map_or(0, |p| p.next_waypoint()),
                            p.waypoints,
                            progress.map_or(0.0, |p| p.stalled_secs())
                        ),
                        Some(other) => format!("{other:?}"),
                        None => "no path".to_string(),
                    };
                    let around: String = here
                        .map(|c| {
                            (-2..=2)
                                .map(|dy| {
                                    (-2..=2)
                                        .map(|dx| {
                                            let n = bevy_tilepath::prelude::Cell::new(
                                                c.x + dx,
                                                c.y + dy,
                                            );
                                            if grid.is_blocked_for(n, unit.diameter, unit.profile) {
                                                '#'
                                            } else {
                                                '.'
                                            }
                                        })
                                        .collect::<String>()
                                })
                                .collect::<Vec<_>>()
                                .join("/")
                        })
                        .unwrap_or_default();
                    tally.stuck.push(format!(
                        "{} ({} cells wide) at {} (cell {here:?}, around {around}) going to {goal}: {state}",
                        unit.kind.name(),
                        unit.diameter,
                        transform.translation.truncate()
                    ));
                }
            } else {
                tally.unreachable += 1;
            }
        }
        *tally.orders.entry(order.id).or_insert(true) &= order.arrived || !reachable;
    }
    tally
}

/// Runs the simulation headless and returns what it measured.
pub fn run_headless(config: &HeadlessConfig) -> Summary {
    let mut app = headless_app(config);
    let mut summary = Summary {
        units: config.sim.units,
        frames: config.frames,
        ..default()
    };
    let mut total = Duration::ZERO;
    let mut timed = 0u32;
    let mut frame = 0u64;
    loop {
        if frame >= config.frames {
            if tally(app.world_mut()).reachable == 0
                || summary.settle_frames >= config.settle_frames
            {
                break;
            }
            summary.settle_frames += 1;
        }
        let started = Instant::now();
        app.update();
        let t = started.elapsed();
        if frame == 0 {
            summary.startup = t;
        } else {
            total += t;
            timed += 1;
            summary.frame_max = summary.frame_max.max(t);
        }
        frame += 1;
    }
    summary.frame_mean = total.checked_div(timed.max(1)).unwrap_or_default();
    let world = app.world_mut();
    let tally = tally(world);
    summary.unfinished_reachable = tally.reachable;
    summary.unreachable = tally.unreachable;
    summary.stuck = tally.stuck;
    summary.units = world.query::<&Unit>().iter(world).count();
    let stats = world.resource::<SimStats>().clone();
    summary.orders_completed = tally.orders.values().filter(|&&done| done).count() as u32;
    summary.orders_superseded = stats.orders.saturating_sub(tally.orders.len() as u32);
    summary.solve_mean = stats
        .solve_total
        .checked_div(stats.frames.max(1) as u32)
        .unwrap_or_default();
    summary.sim = stats;
    summary
}
