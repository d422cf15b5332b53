//! Algorithm comparison lab: every algorithm of `Algorithm::ALL` side by side on one map.
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

#[path = "support/screenshot.rs"]
mod screenshot;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::asset::RenderAssetUsages;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_tilepath::grid::{Cell, GridSize};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::scenario::generate::{SplitMix64, rts_bases};
use bevy_tilepath::scenario::movingai::MovingAiMap;
use bevy_tilepath::search::{Algorithm, Limit, Limits, PathError, PathStats, Pathfinder};
use screenshot::save_screenshot_and_exit;

const WINDOW: Vec2 = Vec2::new(1280.0, 672.0);
const HEADER_H: f32 = 64.0;
const COLUMNS: usize = 4;
const PANEL: Vec2 = Vec2::new(320.0, 304.0);
const LABEL_H: f32 = 62.0;
const PAD: f32 = 8.0;
const SCREENSHOT_FRAMES: u32 = 30;

const BACKGROUND: [u8; 3] = [14, 16, 22];
const FREE: [u8; 3] = [26, 30, 40];
const WALL: [u8; 3] = [128, 136, 154];
const EXPLORED: [u8; 3] = [36, 82, 124];
const PATH: [u8; 3] = [255, 196, 46];
const START: [u8; 3] = [72, 222, 112];
const GOAL: [u8; 3] = [244, 72, 92];
const SMOOTHED: [u8; 3] = [120, 232, 255];
const MUTED: [u8; 3] = [150, 158, 174];
const FAILED: [u8; 3] = [255, 128, 110];

/// The shipped maps: command-line name, title, MovingAI text.
const MAP_FILES: [(&str, &str, &str); 5] = [
    (
        "open",
        "open field",
        include_str!("../assets/maps/open.map"),
    ),
    (
        "rects",
        "random rectangles",
        include_str!("../assets/maps/rects.map"),
    ),
    ("maze", "maze", include_str!("../assets/maps/maze.map")),
    (
        "rooms",
        "rooms, hollow obstacles",
        include_str!("../assets/maps/rooms.map"),
    ),
    ("rts", "rts level", include_str!("../assets/maps/rts.map")),
];
const MAP_KEYS: [KeyCode; 5] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
];

fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

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
struct Options {
    map: usize,
    smooth: bool,
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

/// One selectable map with its current start and goal.
struct MapEntry {
    name: &'static str,
    map: CachedScenario,
    start: Cell,
    goal: Cell,
}

/// What one algorithm did on the current query.
struct PanelResult {
    algorithm: Algorithm,
    outcome: Result<PathStats, PathError>,
    micros: f64,
    waypoints: Vec<Cell>,
}

/// The lab state: maps, the shared pathfinder and the last results.
#[derive(Resource)]
struct Lab {
    maps: Vec<MapEntry>,
    current: usize,
    smooth: bool,
    pathfinder: Pathfinder,
    results: Vec<PanelResult>,
    rng: SplitMix64,
    dirty: bool,
}

impl Lab {
    fn new(options: &Options) -> Result<Self, String> {
        let mut maps = Vec::new();
        for (key, name, text) in MAP_FILES {
            let bits = MovingAiMap::parse(text)
                .map_err(|e| format!("{name}: {e}"))?
                .into_bits();
            let map = CachedScenario::from_bits(bits).map_err(|e| format!("{name}: {e}"))?;
            let size = map.size();
            let (w, h) = (size.width as i32, size.height as i32);
            let (start_hint, goal_hint) = if key == "rts" {
                rts_bases(size)
            } else {
                (Cell::new(2, 2), Cell::new(w - 3, h - 3))
            };
            let start = nearest_free(&map, start_hint, None).unwrap_or(start_hint);
            let goal = nearest_free(&map, goal_hint, Some(start)).unwrap_or(start);
            maps.push(MapEntry {
                name,
                map,
                start,
                goal,
            });
        }
        Ok(Self {
            maps,
            current: options.map,
            smooth: options.smooth,
            pathfinder: Pathfinder::new(),
            results: Algorithm::ALL
                .iter()
                .map(|&algorithm| PanelResult {
                    algorithm,
                    outcome: Err(PathError::Unreachable),
                    micros: 0.0,
                    waypoints: Vec::new(),
                })
                .collect(),
            rng: SplitMix64::new(0x1ab),
            dirty: true,
        })
    }

    fn entry(&self) -> &MapEntry {
        &self.maps[self.current]
    }

    /// Runs every algorithm on the current query and paints its panel into `pixels`.
    fn run_all(&mut self, pixels: &mut [Vec<u8>]) {
        let Lab {
            maps,
            current,
            smooth,
            pathfinder,
            results,
            ..
        } = self;
        let entry = &maps[*current];
        let size = entry.map.size();
        for (result, pixels) in results.iter_mut().zip(pixels.iter_mut()) {
            let query = bevy_tilepath::search::PathQuery::new(entry.start, entry.goal)
                .algorithm(result.algorithm)
                .smooth(*smooth)
                .limits(Limits {
                    max_expanded: 4_000_000,
                    time_budget: Some(Duration::from_millis(100)),
                });
            let t = Instant::now();
            result.outcome = pathfinder.find(&entry.map, &query);
            let mut best = t.elapsed();
            if best < Duration::from_millis(2) {
                for _ in 0..9 {
                    let t = Instant::now();
                    result.outcome = pathfinder.find(&entry.map, &query);
                    best = best.min(t.elapsed());
                }
            }
            result.micros = best.as_secs_f64() * 1e6;
            result.waypoints.clear();
            result.waypoints.extend_from_slice(pathfinder.waypoints());

            paint_map(&entry.map, pixels);
            for cell in pathfinder.explored() {
                put(pixels, size, cell, EXPLORED);
            }
            for &cell in pathfinder.path() {
                put(pixels, size, cell, PATH);
            }
            put(pixels, size, entry.start, START);
            put(pixels, size, entry.goal, GOAL);
        }
    }
}

/// The free cell nearest to `hint` (connected to `anchor` when given).
fn nearest_free(map: &CachedScenario, hint: Cell, anchor: Option<Cell>) -> Option<Cell> {
    let size = map.size();
    (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| match anchor {
            Some(a) => map.connected(a, c, 1),
            None => map.connected(c, c, 1),
        })
        .min_by_key(|c| {
            let (dx, dy) = (c.x - hint.x, c.y - hint.y);
            dx * dx + dy * dy
        })
}

fn paint_map(map: &CachedScenario, pixels: &mut Vec<u8>) {
    let size = map.size();
    pixels.clear();
    let bits = map.obstacles();
    for y in 0..size.height {
        for x in 0..size.width {
            let c = if bits.get_unchecked_cell(x, y) {
                WALL
            } else {
                FREE
            };
            pixels.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
}

fn put(pixels: &mut [u8], size: GridSize, cell: Cell, c: [u8; 3]) {
    if size.contains(cell) {
        let i = size.index(cell) * 4;
        pixels[i..i + 3].copy_from_slice(&c);
    }
}

/// Where the panels and their maps sit, in window pixels from the top left.
struct Layout {
    cell: f32,
    map_px: Vec2,
}

impl Layout {
    fn new(size: GridSize) -> Self {
        let area = Vec2::new(PANEL.x - 2.0 * PAD, PANEL.y - LABEL_H - PAD);
        let cell = (area.x / size.width as f32).min(area.y / size.height as f32);
        Self {
            cell,
            map_px: Vec2::new(size.width as f32, size.height as f32) * cell,
        }
    }

    fn panel_origin(panel: usize) -> Vec2 {
        let (col, row) = (panel % COLUMNS, panel / COLUMNS);
        Vec2::new(col as f32 * PANEL.x, HEADER_H + row as f32 * PANEL.y)
    }

    /// Top-left corner of the map of `panel`.
    fn map_origin(&self, panel: usize) -> Vec2 {
        let p = Self::panel_origin(panel);
        Vec2::new(p.x + (PANEL.x - self.map_px.x) / 2.0, p.y + LABEL_H)
    }

    /// The cell under a window position, if it lies on some panel's map.
    fn cell_at(&self, cursor: Vec2, size: GridSize) -> Option<Cell> {
        (0..Algorithm::ALL.len()).find_map(|panel| {
            let local = (cursor - self.map_origin(panel)) / self.cell;
            let cell = Cell::new(local.x.floor() as i32, local.y.floor() as i32);
            size.contains(cell).then_some(cell)
        })
    }

    /// World position of the centre of `cell` on `panel`.
    fn world(&self, panel: usize, cell: Cell) -> Vec2 {
        let p = self.map_origin(panel)
            + Vec2::new(cell.x as f32 + 0.5, cell.y as f32 + 0.5) * self.cell;
        to_world(p)
    }
}

fn to_world(window_px: Vec2) -> Vec2 {
    Vec2::new(window_px.x - WINDOW.x / 2.0, WINDOW.y / 2.0 - window_px.y)
}

/// Which text a label entity shows.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum LabText {
    Title,
    Help,
    PanelName(usize),
    PanelStats(usize),
}

/// A panel's map sprite.
#[derive(Component)]
struct PanelSprite(usize);

/// When and where to save the screenshot.
#[derive(Resource)]
struct ScreenshotPlan {
    path: Option<PathBuf>,
    frames: u32,
}

fn text(label: LabText, size: f32, color: [u8; 3], at: Vec2) -> impl Bundle {
    (
        Text::new(""),
        TextFont::from_font_size(size),
        TextColor(rgb(color)),
        Node {
            position_type: PositionType::Absolute,
            left: px(at.x),
            top: px(at.y),
            ..default()
        },
        label,
    )
}

fn setup(mut commands: Commands, mut config: ResMut<GizmoConfigStore>) {
    commands.spawn(Camera2d);
    let (gizmos, _) = config.config_mut::<DefaultGizmoConfigGroup>();
    gizmos.line.width = 2.0;
    commands.spawn(text(
        LabText::Title,
        18.0,
        [235, 238, 245],
        Vec2::new(12.0, 8.0),
    ));
    commands.spawn(text(LabText::Help, 13.0, MUTED, Vec2::new(12.0, 36.0)));
    let legend = [
        ("wall  ", WALL),
        ("explored  ", EXPLORED),
        ("path  ", PATH),
        ("smoothed  ", SMOOTHED),
        ("start  ", START),
        ("goal", GOAL),
    ];
    commands
        .spawn((
            Text::new("legend: "),
            TextFont::from_font_size(13.0),
            TextColor(rgb(MUTED)),
            Node {
                position_type: PositionType::Absolute,
                right: px(14.0),
                top: px(36.0),
                ..default()
            },
        ))
        .with_children(|parent| {
            for (name, color) in legend {
                let shown = if color == EXPLORED {
                    [84, 150, 214]
                } else {
                    color
                };
                parent.spawn((
                    TextSpan::new(name),
                    TextFont::from_font_size(13.0),
                    TextColor(rgb(shown)),
                ));
            }
        });
    for panel in 0..Algorithm::ALL.len() {
        let origin = Layout::panel_origin(panel);
        commands.spawn(text(
            LabText::PanelName(panel),
            16.0,
            [235, 238, 245],
            origin + Vec2::new(PAD + 2.0, 4.0),
        ));
        commands.spawn(text(
            LabText::PanelStats(panel),
            13.0,
            MUTED,
            origin + Vec2::new(PAD + 2.0, 25.0),
        ));
        commands.spawn((Sprite::default(), Transform::default(), PanelSprite(panel)));
    }
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

/// Picks a random connected start and goal at least a third of the map apart.
fn random_pair(lab: &mut Lab) {
    let current = lab.current;
    let Lab { maps, rng, .. } = lab;
    let entry = &mut maps[current];
    let size = entry.map.size();
    let far = (size.width + size.height) / 3;
    let mut random_cell = || Cell::new(rng.below(size.width) as i32, rng.below(size.height) as i32);
    for _ in 0..10_000 {
        let (a, b) = (random_cell(), random_cell());
        if a.x.abs_diff(b.x) + a.y.abs_diff(b.y) >= far && entry.map.connected(a, b, 1) {
            entry.start = a;
            entry.goal = b;
            return;
        }
    }
}

fn refresh(
    mut lab: ResMut<Lab>,
    mut images: ResMut<Assets<Image>>,
    mut sprites: Query<(&PanelSprite, &mut Sprite, &mut Transform)>,
    mut labels: Query<(&LabText, &mut Text, &mut TextColor)>,
    mut pixels: Local<Vec<Vec<u8>>>,
) {
    if !lab.dirty {
        return;
    }
    lab.dirty = false;
    pixels.resize(Algorithm::ALL.len(), Vec::new());
    lab.run_all(&mut pixels);
    let size = lab.entry().map.size();
    let layout = Layout::new(size);
    for (panel, mut sprite, mut transform) in &mut sprites {
        let data = std::mem::take(&mut pixels[panel.0]);
        let fits = images
            .get(&sprite.image)
            .is_some_and(|i| i.width() == size.width && i.height() == size.height);
        if fits && let Some(mut image) = images.get_mut(&sprite.image) {
            image.data = Some(data);
        } else {
            let mut image = Image::new_fill(
                Extent3d {
                    width: size.width,
                    height: size.height,
                    depth_or_array_layers: 1,
                },
                TextureDimension::D2,
                &[0, 0, 0, 255],
                TextureFormat::Rgba8UnormSrgb,
                RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
            );
            image.data = Some(data);
            sprite.image = images.add(image);
        }
        sprite.custom_size = Some(layout.map_px);
        let centre = layout.map_origin(panel.0) + layout.map_px / 2.0;
        transform.translation = to_world(centre).extend(0.0);
    }
    let best = lab
        .results
        .iter()
        .filter_map(|r| r.outcome.as_ref().ok().map(|s| s.length))
        .fold(f64::INFINITY, f64::min);
    let entry = lab.entry();
    for (label, mut text, mut color) in &mut labels {
        match *label {
            LabText::Title => {
                text.0 = format!(
                    "bevy_tilepath lab | {} {}x{} | start ({}, {}) goal ({}, {}) | smoothing {}",
                    entry.name,
                    size.width,
                    size.height,
                    entry.start.x,
                    entry.start.y,
                    entry.goal.x,
                    entry.goal.y,
                    if lab.smooth { "on" } else { "off" }
                );
            }
            LabText::Help => {
                text.0 = "keys 1-5: map  S: smoothing  R: random start/goal  \
                          left click: start  right click: goal"
                    .into();
            }
            LabText::PanelName(panel) => {
                let algorithm = Algorithm::ALL[panel];
                let tag = if algorithm.is_optimal() {
                    "  (optimal)"
                } else {
                    ""
                };
                text.0 = format!("{}{tag}", display_name(algorithm));
            }
            LabText::PanelStats(panel) => {
                let result = &lab.results[panel];
                let (line, ok) = stats_line(result, best, lab.smooth);
                text.0 = line;
                color.0 = rgb(if ok { MUTED } else { FAILED });
            }
        }
    }
}

fn display_name(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::AStar => "A*",
        Algorithm::Jps => "JPS",
        Algorithm::Dijkstra => "Dijkstra",
        Algorithm::Bfs => "BFS",
        Algorithm::Dfs => "DFS",
        Algorithm::Iddfs => "IDDFS",
        Algorithm::BestFirst => "Best-first",
        Algorithm::Evasion => "Evasion",
    }
}

fn format_micros(us: f64) -> String {
    if us < 10.0 {
        format!("{us:.1} us")
    } else if us < 10_000.0 {
        format!("{us:.0} us")
    } else {
        format!("{:.1} ms", us / 1000.0)
    }
}

/// The stats text of a panel and whether the search succeeded.
fn stats_line(result: &PanelResult, best: f64, smooth: bool) -> (String, bool) {
    let time = format_micros(result.micros);
    match &result.outcome {
        Ok(stats) => {
            let extra = (stats.length / best - 1.0) * 100.0;
            let vs_best = if extra > 0.05 {
                format!(" (+{extra:.0}%)")
            } else {
                String::new()
            };
            let smoothed = if smooth {
                format!("   smoothed {:.1}", stats.smoothed_length)
            } else {
                String::new()
            };
            (
                format!(
                    "{time}   {} expanded\nlength {:.1}{vs_best}{smoothed}",
                    stats.expanded, stats.length
                ),
                true,
            )
        }
        Err(error) => {
            let why = match error {
                PathError::NotFound { expanded } => {
                    format!("gave up after {expanded} expansions")
                }
                PathError::LimitReached {
                    limit: Limit::Time,
                    expanded,
                } => format!("time limit hit after {expanded} expansions"),
                PathError::LimitReached { expanded, .. } => {
                    format!("expansion limit hit ({expanded})")
                }
                PathError::Unreachable => "unreachable (no search)".into(),
                PathError::StartBlocked { .. } => "start is blocked".into(),
                PathError::GoalBlocked { .. } => "goal is blocked".into(),
                other => other.to_string(),
            };
            (format!("{time}\n{why}"), false)
        }
    }
}

fn draw_overlay(lab: Res<Lab>, mut gizmos: Gizmos) {
    let entry = lab.entry();
    let size = entry.map.size();
    let layout = Layout::new(size);
    let ring = (layout.cell * 1.6).max(4.0);
    for (panel, result) in lab.results.iter().enumerate() {
        let centre = layout.map_origin(panel) + layout.map_px / 2.0;
        gizmos.rect_2d(
            Isometry2d::from_translation(to_world(centre)),
            layout.map_px + Vec2::splat(3.0),
            rgb([52, 58, 72]),
        );
        if lab.smooth && result.outcome.is_ok() {
            gizmos.linestrip_2d(
                result.waypoints.iter().map(|&c| layout.world(panel, c)),
                rgb(SMOOTHED),
            );
            for &c in &result.waypoints {
                gizmos.circle_2d(
                    Isometry2d::from_translation(layout.world(panel, c)),
                    2.0,
                    rgb(SMOOTHED),
                );
            }
        }
        gizmos.circle_2d(
            Isometry2d::from_translation(layout.world(panel, entry.start)),
            ring,
            rgb(START),
        );
        gizmos.circle_2d(
            Isometry2d::from_translation(layout.world(panel, entry.goal)),
            ring,
            rgb(GOAL),
        );
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
