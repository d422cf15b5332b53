//! RTS showcase: several hundred units of three types on a generated bevy_ecs_tilemap
//! battlefield of roads, grass, forest, swamp and a river with bridges. Each type has its
//! own movement profile: infantry (1 cell) walks nearly anywhere but not through water,
//! hovercraft (2 cells) glide over water and swamp but not through forest, tanks
//! (3 cells) are fast on roads, slow on grass and swamp, and stop at forest and water.
//! Box selection, formation moves and walls painted live while units re-route.
//!
//! ```text
//! cargo run --release --example rts
//! cargo run --release --example rts -- --units 800 --algorithm jps
//! cargo run --release --example rts -- --headless 1800
//! cargo run --release --example rts -- --screenshot docs/rts.png
//! ```
//!
//! Left drag selects, right click sends the selection into a formation around the cell
//! (every unit gets its own free slot, in rings, reachable for its size and profile; a
//! click on water, a wall or inside a closed area moves the selection to the nearest
//! ground each unit can reach, and a unit with no slot nearby is sent to the clicked cell
//! itself, which the plugin's default nearest-reachable goal turns into the nearest cell
//! it can reach);
//! the selection's paths are drawn in the colour of their unit type and the HUD names
//! the profiles selected and what each terrain costs them. Hold W or E to
//! paint or erase walls; A cycles the algorithm, D toggles the plugin's debug overlay,
//! R toggles random orders. `--headless N` (or `RTS_HEADLESS=N`) runs N scripted frames
//! without a window, prints a summary and exits non-zero if a unit ever stood in a wall
//! or a reachable order was not completed. `--screenshot PATH` (or `RTS_SCREENSHOT=PATH`)
//! saves a screenshot a few seconds into a scripted order and exits.

mod hud;
mod input;
#[path = "../support/screenshot.rs"]
mod screenshot;
mod sim;
mod view;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_ecs_tilemap::prelude::TilemapPlugin;
use bevy_tilepath::prelude::{
    Cell, NavGrid, PathResult, TilepathDebugPlugin, TilepathPlugin, TilepathSettings,
};

use bevy_tilepath::prelude::FrameBudget;
use input::{InputPlugin, Selected, Selection};
use screenshot::save_screenshot_and_exit;
use sim::headless::{HeadlessConfig, run_headless};
use sim::script::{ScriptConfig, ScriptPlugin};
use sim::{MoveOrder, Sim, SimConfig, SimPlugin, TILE, Unit, UnitKind, UnitOrder, WallEdit};

const USAGE: &str = "usage: rts [--units N] [--seed N] [--algorithm NAME] \
                     [--headless FRAMES] [--screenshot PATH]";

/// Command line options.
struct Options {
    sim: SimConfig,
    headless: Option<u64>,
    screenshot: Option<PathBuf>,
}

impl Options {
    fn parse() -> Result<Options, String> {
        let mut options = Options {
            sim: SimConfig::default(),
            headless: std::env::var("RTS_HEADLESS")
                .ok()
                .map(|v| v.parse().map_err(|_| format!("bad RTS_HEADLESS `{v}`")))
                .transpose()?,
            screenshot: std::env::var_os("RTS_SCREENSHOT").map(PathBuf::from),
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or(format!("{arg} needs a value"));
            match arg.as_str() {
                "--units" => {
                    let v = value()?;
                    options.sim.units = v.parse().map_err(|_| format!("bad unit count `{v}`"))?;
                }
                "--seed" => {
                    let v = value()?;
                    options.sim.seed = v.parse().map_err(|_| format!("bad seed `{v}`"))?;
                }
                "--algorithm" => {
                    options.sim.algorithm = value()?.parse().map_err(|e| format!("{e}"))?;
                }
                "--headless" => {
                    let v = value()?;
                    options.headless =
                        Some(v.parse().map_err(|_| format!("bad frame count `{v}`"))?);
                }
                "--screenshot" => options.screenshot = Some(PathBuf::from(value()?)),
                "-h" | "--help" => return Err(String::new()),
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(options)
    }
}

fn main() -> ExitCode {
    let options = match Options::parse() {
        Ok(options) => options,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(frames) = options.headless {
        let mut config = HeadlessConfig::new(frames, options.sim.units);
        config.script.seed = options.sim.seed.wrapping_mul(31).wrapping_add(11);
        config.sim = options.sim;
        let summary = run_headless(&config);
        println!("{summary}");
        return if summary.passed() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }

    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "bevy_tilepath RTS".into(),
                    resolution: WindowResolution::new(1280, 720),
                    ..default()
                }),
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    )
    .add_plugins((
        TilemapPlugin,
        TilepathPlugin::default(),
        TilepathDebugPlugin,
        SimPlugin(options.sim),
        ScriptPlugin(ScriptConfig {
            enabled: false,
            group: (20, 80),
            ..default()
        }),
        InputPlugin,
        view::ViewPlugin,
        hud::HudPlugin,
    ));
    if let Some(path) = options.screenshot {
        // Software renderers draw few frames per second; let each frame solve more so
        // the scripted order is under way when the picture is taken.
        app.world_mut().resource_mut::<TilepathSettings>().budget =
            FrameBudget::Time(Duration::from_millis(50));
        app.insert_resource(Showcase { path, step: 0 })
            .add_systems(Update, showcase.in_set(sim::SimSystems::Input));
    }
    app.run();
    ExitCode::SUCCESS
}

/// The scripted scene of `--screenshot`.
#[derive(Resource)]
struct Showcase {
    path: PathBuf,
    step: u8,
}

/// Seconds into the run at which the showcase orders, builds a wall and shoots.
const SHOW_ORDER: f32 = 1.0;
const SHOW_WALL: f32 = 2.5;
const SHOW_SHOOT: f32 = 9.0;

/// Sends a group of each team across the river (the first one selected, so its paths
/// show: hovercraft straight over the water, tanks along the road to a bridge), walls
/// off part of an infantry path, shows a selection box and saves a screenshot.
#[allow(clippy::too_many_arguments)]
fn showcase(
    mut commands: Commands,
    time: Res<Time>,
    mut show: ResMut<Showcase>,
    sim: Option<Res<Sim>>,
    grid: Option<Res<NavGrid>>,
    mut selection: ResMut<Selection>,
    units: Query<(Entity, &Unit, &Transform, &UnitOrder, Option<&PathResult>)>,
    mut orders: MessageWriter<MoveOrder>,
    mut walls: MessageWriter<WallEdit>,
) {
    let Some(sim) = sim.filter(|_| grid.is_some()) else {
        return;
    };
    let t = time.elapsed_secs();
    let size = sim.level.size();
    let [base_a, base_b] = sim.level.bases();
    let nearest = |from: Cell, team: u8, kind: Option<UnitKind>, count: usize| {
        let p = sim::cell_center(from);
        let mut near: Vec<(f32, Entity)> = units
            .iter()
            .filter(|(_, u, ..)| u.team == team && kind.is_none_or(|k| u.kind == k))
            .map(|(e, _, t, ..)| (t.translation.truncate().distance_squared(p), e))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        near.into_iter()
            .take(count)
            .map(|(_, e)| e)
            .collect::<Vec<_>>()
    };
    match show.step {
        0 if t >= SHOW_ORDER => {
            // A mixed group, so that every unit type's way shows.
            let group: Vec<Entity> = [
                (UnitKind::Infantry, 30),
                (UnitKind::Hover, 12),
                (UnitKind::Tank, 10),
            ]
            .into_iter()
            .flat_map(|(kind, n)| nearest(base_a, 0, Some(kind), n))
            .collect();
            for &e in &group {
                commands.entity(e).insert(Selected);
            }
            let target = Cell::new(size.width as i32 * 3 / 4, size.height as i32 * 2 / 3);
            orders.write(MoveOrder {
                units: group,
                target,
            });
            selection.last_target = Some((target, t));
            orders.write(MoveOrder {
                units: nearest(base_b, 1, None, 90),
                target: Cell::new(size.width as i32 / 4, size.height as i32 / 2),
            });
            show.step = 1;
        }
        1 if t >= SHOW_WALL => {
            let crossing = units
                .iter()
                .filter(|(_, u, _, o, _)| u.team == 0 && u.kind == UnitKind::Infantry && o.active())
                .filter_map(|(.., r)| r?.found())
                .find(|p| p.cells.len() > 40);
            if let Some(path) = crossing {
                let c = path.cells[path.cells.len() * 3 / 5];
                walls.write_batch((-6..=6).map(|i| WallEdit {
                    cell: Cell::new(c.x + i, c.y + i / 3),
                    blocked: true,
                }));
            }
            show.step = 2;
        }
        2 if t >= SHOW_SHOOT => {
            let (lo, hi) = units
                .iter()
                .filter(|(_, u, _, o, _)| u.team == 1 && o.active())
                .map(|(_, _, t, ..)| t.translation.truncate())
                .fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
            if lo.x <= hi.x {
                selection.shown_box =
                    Some((lo - Vec2::splat(2.0 * TILE), hi + Vec2::splat(2.0 * TILE)));
            }
            show.step = 3;
        }
        3 => {
            save_screenshot_and_exit(&mut commands, show.path.clone());
            show.step = 4;
        }
        _ => {}
    }
}
