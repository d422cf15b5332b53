//! Algorithm comparison lab: every algorithm side by side on one map (`Algorithm::Auto`
//! has no panel: on these maps without terrain it runs JPS).
//!
//! ```text
//! cargo run --release --example lab
//! cargo run --release --example lab -- --map rooms --smooth --screenshot docs/lab.png
//! ```
//!
//! Keys 1-5 pick a map (open field, random rectangles, maze, rooms with hollow obstacles,
//! RTS level), S toggles line-of-sight smoothing, R picks a random start and goal; left
//! click sets the start, right click the goal. Each panel shows the cells its algorithm
//! explored, its path, its time, expansions and path length. One `Pathfinder` answers
//! every query. `--screenshot PATH` (or `LAB_SCREENSHOT=PATH`) saves a screenshot after a
//! few frames and exits.

#[path = "../support/screenshot.rs"]
mod screenshot;

mod model;
mod view;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResolution};
use screenshot::save_screenshot_and_exit;

use model::{Lab, random_pair};
use view::{Layout, WINDOW, draw_overlay, refresh, rgb, setup};

const SCREENSHOT_FRAMES: u32 = 30;
const BACKGROUND: [u8; 3] = [14, 16, 22];

/// The shipped maps: command-line name, title, MovingAI text.
pub const MAP_FILES: [(&str, &str, &str); 5] = [
    (
        "open",
        "open field",
        include_str!("../../assets/maps/open.map"),
    ),
    (
        "rects",
        "random rectangles",
        include_str!("../../assets/maps/rects.map"),
    ),
    ("maze", "maze", include_str!("../../assets/maps/maze.map")),
    (
        "rooms",
        "rooms, hollow obstacles",
        include_str!("../../assets/maps/rooms.map"),
    ),
    (
        "rts",
        "rts level",
        include_str!("../../assets/maps/rts.map"),
    ),
];
const MAP_KEYS: [KeyCode; 5] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
];

fn main() {
    let options = match Options::from_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            eprintln!(
                "usage: lab [--map open|rects|maze|rooms|rts|1-5] [--smooth] [--screenshot PATH]"
            );
            std::process::exit(2);
        }
    };
    let lab = match Lab::new(&options) {
        Ok(lab) => lab,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(1);
        }
    };
    App::new()
        .add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "bevy_tilepath lab".into(),
                        resolution: WindowResolution::new(WINDOW.x as u32, WINDOW.y as u32),
                        resizable: false,
                        ..default()
                    }),
                    ..default()
                })
                .set(ImagePlugin::default_nearest()),
        )
        .insert_resource(ClearColor(rgb(BACKGROUND)))
        .insert_resource(lab)
        .insert_resource(ScreenshotPlan {
            path: options.screenshot,
            frames: 0,
        })
        .add_systems(Startup, setup)
        .add_systems(Update, (input, refresh, draw_overlay, screenshot).chain())
        .run();
}

/// Command line options.
pub struct Options {
    pub map: usize,
    pub smooth: bool,
    screenshot: Option<PathBuf>,
}

impl Options {
    fn from_args() -> Result<Self, String> {
        let mut options = Options {
            map: 0,
            smooth: false,
            screenshot: std::env::var_os("LAB_SCREENSHOT").map(PathBuf::from),
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--smooth" => options.smooth = true,
                "--screenshot" => {
                    let path = args.next().ok_or("--screenshot needs a path")?;
                    options.screenshot = Some(PathBuf::from(path));
                }
                "--map" => {
                    let name = args.next().ok_or("--map needs a name or a number")?;
                    options.map = MAP_FILES
                        .iter()
                        .position(|(n, _, _)| *n == name)
                        .or_else(|| name.parse::<usize>().ok().and_then(|n| n.checked_sub(1)))
                        .filter(|&n| n < MAP_FILES.len())
                        .ok_or_else(|| format!("unknown map `{name}`"))?;
                }
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(options)
    }
}
/// When and where to save the screenshot.
#[derive(Resource)]
struct ScreenshotPlan {
    path: Option<PathBuf>,
    frames: u32,
}
fn input(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut lab: ResMut<Lab>,
) {
    if let Some(map) = MAP_KEYS.iter().position(|&k| keys.just_pressed(k)) {
        lab.current = map;
        lab.dirty = true;
    }
    if keys.just_pressed(KeyCode::KeyS) {
        lab.smooth = !lab.smooth;
        lab.dirty = true;
    }
    if keys.just_pressed(KeyCode::KeyR) {
        random_pair(&mut lab);
        lab.dirty = true;
    }
    let clicked = [MouseButton::Left, MouseButton::Right]
        .into_iter()
        .find(|&b| mouse.just_pressed(b));
    if let (Some(button), Some(cursor)) = (clicked, window.cursor_position()) {
        let size = lab.entry().map.size();
        if let Some(cell) = Layout::new(size).cell_at(cursor, size) {
            let current = lab.current;
            let entry = &mut lab.maps[current];
            if button == MouseButton::Left {
                entry.start = cell;
            } else {
                entry.goal = cell;
            }
            lab.dirty = true;
        }
    }
}
fn screenshot(mut commands: Commands, mut plan: ResMut<ScreenshotPlan>) {
    let Some(path) = plan.path.clone() else {
        return;
    };
    plan.frames += 1;
    if plan.frames != SCREENSHOT_FRAMES {
        return;
    }
    save_screenshot_and_exit(&mut commands, path);
}
