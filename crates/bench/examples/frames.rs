//! What the plugin costs a frame when it has little or nothing to do: CPU per
//! `App::update` of `MinimalPlugins` alone, and with `TilepathPlugin` added, with no map,
//! with a 512 × 512 map, with that map and 5,000 units whose paths are found (no
//! steering: they stand), and with 5,000 steering units or grid steppers that have
//! arrived (each sent to the cell it stands on, side by side). The rows run one after another in one process, in alternation,
//! and each row's figure is its median over the rounds.
//!
//! `cargo run --release -p tilepath_bench --example frames [-- ROUNDS]`

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::{
    Arrived, Cell, GridStepper, NavGrid, PathRequest, PathResult, Steering, TilepathPlugin,
};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::tilepath::grid::GridSize;
use bevy_tilepath::tilepath::scenario::BitGrid;
use tilepath_bench::{process_cpu, task_pool};

/// Frames timed per row and round, after as many to settle.
const FRAMES: u32 = 2_000;
/// Units in the rows that have them.
const UNITS: i32 = 5_000;
/// The side of the map.
const SIDE: u32 = 512;

/// One row of the table: what the app holds.
#[derive(Clone, Copy)]
enum Setup {
    Bare,
    PluginNoMap,
    PluginMap,
    PluginUnits,
    SteeringArrived,
    SteppersArrived,
}

impl Setup {
    const ALL: [Setup; 6] = [
        Setup::Bare,
        Setup::PluginNoMap,
        Setup::PluginMap,
        Setup::PluginUnits,
        Setup::SteeringArrived,
        Setup::SteppersArrived,
    ];

    fn name(self) -> &'static str {
        match self {
            Setup::Bare => "MinimalPlugins, 5,000 entities",
            Setup::PluginNoMap => "+ TilepathPlugin, no map",
            Setup::PluginMap => "+ a 512 × 512 NavGrid",
            Setup::PluginUnits => "+ 5,000 units with found paths",
            Setup::SteeringArrived => "5,000 steering units, all arrived (instead)",
            Setup::SteppersArrived => "5,000 grid steppers, all arrived (instead)",
        }
    }
}

fn app(setup: Setup) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(task_pool(1)));
    if !matches!(setup, Setup::Bare) {
        app.add_plugins(TilepathPlugin::default());
    }
    if !matches!(setup, Setup::Bare | Setup::PluginNoMap) {
        let bits = BitGrid::new(GridSize::new(SIDE, SIDE), false);
        let map = CachedScenario::from_bits(bits).expect("an open map");
        app.insert_resource(NavGrid::new(map, Vec2::ZERO, Vec2::ONE));
    }
    if matches!(setup, Setup::SteeringArrived | Setup::SteppersArrived) {
        // Steering's timers run on simulated time: 16 ms a frame.
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )));
    }
    let row = SIDE as i32 - 12;
    for i in 0..UNITS {
        let (x, y) = (i % row, i / row);
        let mut unit = app
            .world_mut()
            .spawn(Transform::from_xyz(x as f32, y as f32, 0.0));
        match setup {
            Setup::PluginUnits => {
                unit.insert(PathRequest::new(Cell::new(x + 10, y)));
            }
            Setup::SteeringArrived => {
                unit.insert((
                    Transform::from_xyz(x as f32 + 0.5, y as f32 + 0.5, 0.0),
                    PathRequest::new(Cell::new(x, y)),
                    Steering::with_speed(4.0),
                ));
            }
            Setup::SteppersArrived => {
                unit.insert((
                    Transform::from_xyz(x as f32 + 0.5, y as f32 + 0.5, 0.0),
                    PathRequest::new(Cell::new(x, y)),
                    GridStepper::default(),
                ));
            }
            _ => {}
        }
    }
    app
}

/// CPU per frame of `frames` updates of `app`.
fn per_frame(app: &mut App, frames: u32) -> Duration {
    let started = process_cpu();
    for _ in 0..frames {
        app.update();
    }
    process_cpu().saturating_sub(started) / frames
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let mut apps: Vec<App> = Setup::ALL.iter().map(|&s| app(s)).collect();
    for app in &mut apps {
        per_frame(app, FRAMES);
    }
    for (setup, app) in Setup::ALL.into_iter().zip(&mut apps) {
        let world = app.world_mut();
        let mut results = world.query::<(&PathResult, Has<Arrived>)>();
        let (found, arrived) = results.iter(world).fold((0, 0), |(f, a), (r, arrived)| {
            (
                f + usize::from(r.found().is_some()),
                a + usize::from(arrived),
            )
        });
        match setup {
            Setup::PluginUnits => {
                assert_eq!(
                    found, UNITS as usize,
                    "every unit has its path before timing"
                )
            }
            Setup::SteeringArrived | Setup::SteppersArrived => {
                assert_eq!(arrived, UNITS as usize, "every unit arrived before timing")
            }
            _ => {}
        }
    }
    let mut times = vec![Vec::new(); apps.len()];
    for _ in 0..rounds {
        for (k, app) in apps.iter_mut().enumerate() {
            times[k].push(per_frame(app, FRAMES));
        }
    }
    println!("| app | µs of CPU per frame (median of {rounds}) | range |");
    println!("|---|---:|---:|");
    for (setup, mut t) in Setup::ALL.into_iter().zip(times) {
        t.sort_unstable();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        println!(
            "| {} | {:.0} | {:.0}-{:.0} |",
            setup.name(),
            us(t[t.len() / 2]),
            us(t[0]),
            us(t[t.len() - 1])
        );
    }
}
