//! The lab's screen: panel layout, labels, map images and the gizmo overlay.

use bevy::asset::RenderAssetUsages;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_tilepath::grid::{Cell, GridSize};
use bevy_tilepath::search::{Algorithm, Limit, PathError};

use crate::model::{Lab, PANELS, PanelResult};

pub const WINDOW: Vec2 = Vec2::new(1280.0, 672.0);
pub const HEADER_H: f32 = 64.0;
pub const COLUMNS: usize = 4;
pub const PANEL: Vec2 = Vec2::new(320.0, 304.0);
pub const LABEL_H: f32 = 62.0;
pub const PAD: f32 = 8.0;

pub const FREE: [u8; 3] = [26, 30, 40];
pub const WALL: [u8; 3] = [128, 136, 154];
pub const EXPLORED: [u8; 3] = [36, 82, 124];
pub const PATH: [u8; 3] = [255, 196, 46];
pub const START: [u8; 3] = [72, 222, 112];
pub const GOAL: [u8; 3] = [244, 72, 92];
pub const SMOOTHED: [u8; 3] = [120, 232, 255];
pub const MUTED: [u8; 3] = [150, 158, 174];
pub const FAILED: [u8; 3] = [255, 128, 110];

pub fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

/// Where the panels and their maps sit, in window pixels from the top left.
pub struct Layout {
    cell: f32,
    map_px: Vec2,
}

impl Layout {
    pub fn new(size: GridSize) -> Self {
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
    pub fn cell_at(&self, cursor: Vec2, size: GridSize) -> Option<Cell> {
        (0..PANELS.len()).find_map(|panel| {
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
pub enum LabText {
    Title,
    Help,
    PanelName(usize),
    PanelStats(usize),
}

/// A panel's map sprite.
#[derive(Component)]
pub struct PanelSprite(usize);
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

pub fn setup(mut commands: Commands, mut config: ResMut<GizmoConfigStore>) {
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
    for panel in 0..PANELS.len() {
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
pub fn refresh(
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
    pixels.resize(PANELS.len(), Vec::new());
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
                let algorithm = PANELS[panel];
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
        Algorithm::Auto => "Auto",
        Algorithm::AStar => "A*",
        Algorithm::Jps => "JPS",
        Algorithm::JpsPlus => "JPS+",
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

pub fn draw_overlay(lab: Res<Lab>, mut gizmos: Gizmos) {
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
