//! The stress harness: an army of steering units on a generated map under tile edits.
//!
//! One harness, two modes ([`Mode`]):
//!
//! - **live edits** ([`live_edits`]): units of one size on `rts_level`, each sent to a new
//!   random free cell on arrival, random tiles flipped every frame (some under units);
//!   it measures waits, re-plans, repairs, frozen units and the plugin's time per stage;
//! - **soak** ([`soak`]): three unit sizes and movement profiles on `countryside`, a
//!   tenth of the army ordered to one point every `order_every` frames, walls built
//!   (never under a unit) and opened every frame; it watches for units inside blocked
//!   cells, frozen units, completed orders and memory.
//!
//! Both share what this module and its children hold: the app (the plugin in `Update`,
//! 16 ms of simulated time per frame), unit spawning, the random edits, the warm-up that
//! answers the first orders without budget, the per-frame [`Metrics`] and the report
//! ([`report`]). crates/bench's `stress` example runs them from the command line
//! (`cargo run --release -p tilepath_bench --example stress -- --mode live-edits|soak`);
//! the plugin tests run short versions (`tests/plugin/live.rs`, `tests/plugin/soak.rs`),
//! so the harness stays in the root crate.

#![allow(dead_code)]

pub mod live_edits;
pub mod metrics;
pub mod report;
pub mod soak;
pub mod watch;

use std::time::Duration;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Cell, FrameBudget, NavGrid, PathRequest, Steering, TilepathPlugin, TilepathSettings,
    TilepathSystems,
};
use bevy_tilepath::scenario::generate::SplitMix64;
use bevy_tilepath::stats::TilepathStats;

pub use metrics::Metrics;
use watch::{Before, remember_positions};

/// World units per cell.
pub const TILE: f32 = 16.0;
/// Simulated time per frame.
pub const FRAME: Duration = Duration::from_millis(16);

/// What a stress run does: what both modes share, and the mode.
#[derive(Clone, Debug)]
pub struct Config {
    /// Steering units.
    pub units: usize,
    /// Side of the square map, in cells.
    pub size: u32,
    /// Measured frames (after the warm-up that answers the first orders).
    pub frames: u32,
    /// Tiles flipped per frame: half of them (rounded down) free cells that become walls,
    /// the rest walls that open (see each mode for which).
    pub edits: usize,
    /// The plugin's budget per measured frame ([`TilepathSettings::budget`]): wall-clock
    /// time, or [`FrameBudget::Expansions`] for a run whose outcome does not depend on
    /// the machine.
    pub budget: FrameBudget,
    /// Seed of the map, the units, their goals and the edits.
    pub seed: u64,
    /// The scenario and its own settings.
    pub mode: Mode,
}

/// The two scenarios, with the settings only one of them has.
#[derive(Clone, Debug)]
pub enum Mode {
    /// Live map edits at army scale ([`live_edits`]).
    LiveEdits(live_edits::Options),
    /// The soak ([`soak`]).
    Soak(soak::Options),
}

impl Mode {
    /// The mode's name on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Mode::LiveEdits(_) => "live-edits",
            Mode::Soak(_) => "soak",
        }
    }
}

impl Config {
    /// The live-edits run of BENCHMARKS.md: 5,000 units on a 256 × 256 map, 600 frames,
    /// 20 flips a frame, 2 ms.
    pub fn live_edits() -> Self {
        Self {
            units: 5_000,
            size: 256,
            frames: 600,
            edits: 20,
            budget: FrameBudget::Time(Duration::from_millis(2)),
            seed: 11,
            mode: Mode::LiveEdits(live_edits::Options::default()),
        }
    }

    /// The soak of tests/README.md: 5,000 units on a 512 × 512 map, 2,000 frames, 20
    /// flips a frame, 2 ms.
    pub fn soak() -> Self {
        Self {
            units: 5_000,
            size: 512,
            frames: 2_000,
            edits: 20,
            budget: FrameBudget::Time(Duration::from_millis(2)),
            seed: 5,
            mode: Mode::Soak(soak::Options::default()),
        }
    }
}

/// What both modes keep between frames.
#[derive(Resource)]
pub struct Stress {
    /// Edits, orders and counts run only once the warm-up is over.
    pub on: bool,
    /// Plugin frames so far (counted like the plugin's queue: once per run of `Update`).
    pub frame: u64,
    /// Draws the goals, orders and edits.
    pub rng: SplitMix64,
    pub size: GridSize,
    /// Tiles flipped per frame.
    pub edits: usize,
}

/// The harness's systems, around the plugin's sets in `Update`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StressSystems {
    /// Counts the frame and remembers positions (before `SyncMap`).
    Prepare,
    /// The mode's orders and tile edits (after `Prepare`, before `SyncMap`).
    Edit,
    /// The shared per-frame counts (after `Steer`).
    Record,
    /// The mode's own counts and new goals (after `Record`).
    Count,
}

/// The scenario's app: `plugins` (`MinimalPlugins` with the task pool you want), the
/// plugin in `Update`, the mode's map, its units with their first goals, and the systems
/// that edit and count. Run [`warm_up`] next.
pub fn build(config: &Config, plugins: PluginGroupBuilder) -> App {
    let mut app = App::new();
    app.add_plugins((plugins, TilepathPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
    let rng = match &config.mode {
        Mode::LiveEdits(options) => live_edits::populate(&mut app, config, options),
        Mode::Soak(options) => soak::populate(&mut app, config, options),
    };
    app.insert_resource(Stress {
        on: false,
        frame: 0,
        rng,
        size: GridSize::new(config.size, config.size),
        edits: config.edits,
    });
    app.insert_resource(Metrics::new());
    metrics::add_systems(&mut app);
    app.configure_sets(
        Update,
        (
            (StressSystems::Prepare, StressSystems::Edit)
                .chain()
                .before(TilepathSystems::SyncMap),
            (StressSystems::Record, StressSystems::Count)
                .chain()
                .after(TilepathSystems::Steer),
        ),
    );
    app.add_systems(
        Update,
        (count_frame, remember_positions)
            .chain()
            .in_set(StressSystems::Prepare),
    );
    match &config.mode {
        Mode::LiveEdits(_) => live_edits::add_systems(&mut app),
        Mode::Soak(_) => soak::add_systems(&mut app),
    }
    app
}

/// Answers the first orders with no budget (the measured frames start with every unit
/// walking), then sets the configured budget and the mode's settings and starts the
/// edits, orders and counts. Returns the warm-up frames.
pub fn warm_up(app: &mut App, config: &Config) -> u32 {
    let frames = watch::answer_first_orders(app);
    let mut settings = TilepathSettings {
        budget: config.budget,
        ..default()
    };
    match &config.mode {
        Mode::LiveEdits(options) => options.configure(&mut settings),
        Mode::Soak(options) => options.configure(&mut settings),
    }
    app.insert_resource(settings);
    app.world_mut().resource_mut::<Stress>().on = true;
    frames
}

/// Runs one measured frame.
pub fn step(app: &mut App) {
    app.update();
}

/// The scenario's counters.
pub fn metrics(app: &App) -> &Metrics {
    app.world().resource::<Metrics>()
}

/// The plugin's counters.
pub fn stats(app: &App) -> &TilepathStats {
    app.world().resource::<TilepathStats>()
}

fn count_frame(mut stress: ResMut<Stress>) {
    stress.frame += 1;
}

/// Spawns a steering unit at the center of its footprint anchored on `start`, going for
/// `request` at `speed` cells per second, with `extra` components.
pub fn spawn_unit(
    app: &mut App,
    grid: &NavGrid,
    start: Cell,
    request: PathRequest,
    speed: f32,
    extra: impl Bundle,
) {
    app.world_mut().spawn((
        Transform::from_translation(grid.agent_center(start, request.diameter).extend(1.0)),
        request,
        Steering::with_speed(speed * TILE),
        Before::default(),
        extra,
    ));
}

/// The cells of `size` that `blocked` leaves free, in row-major order.
pub fn free_cells(size: GridSize, blocked: impl Fn(Cell) -> bool) -> Vec<Cell> {
    (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| !blocked(c))
        .collect()
}

/// A uniformly random cell of `size`.
pub fn random_cell(rng: &mut SplitMix64, size: GridSize) -> Cell {
    let x = rng.below(size.width) as i32;
    let y = rng.below(size.height) as i32;
    Cell::new(x, y)
}

/// Adds up to `n` edits `(cell, blocked)` to `edits`: random cells that `fits` accepts
/// and `edits` does not hold yet, drawn at most `n * tries` times.
pub fn draw_edits(
    rng: &mut SplitMix64,
    size: GridSize,
    (n, tries): (usize, usize),
    blocked: bool,
    edits: &mut Vec<(Cell, bool)>,
    fits: impl Fn(Cell) -> bool,
) {
    let mut found = 0;
    for _ in 0..n * tries {
        if found == n {
            break;
        }
        let c = random_cell(rng, size);
        if fits(c) && edits.iter().all(|&(e, _)| e != c) {
            edits.push((c, blocked));
            found += 1;
        }
    }
}

/// Counts `edits` into [`Metrics::walls_built`] and [`Metrics::walls_opened`] and
/// applies them to the map in one edit.
pub fn apply_edits(grid: &mut NavGrid, edits: Vec<(Cell, bool)>, metrics: &mut Metrics) {
    for &(_, blocked) in &edits {
        if blocked {
            metrics.walls_built += 1;
        } else {
            metrics.walls_opened += 1;
        }
    }
    grid.apply_edits(edits);
}
