//! The HUD panel: unit counts, the profiles of the selection, path answers per second,
//! pathfinding time per frame, the algorithm and the overlay state, the controls, and
//! what each terrain costs each unit type.

use std::time::Duration;

use bevy::prelude::*;
use bevy_tilepath::debug::TilepathGizmos;
use bevy_tilepath::prelude::{TilepathSettings, TilepathSystems};

use crate::input::Selected;
use crate::sim::level::{FOREST, GRASS, ROAD, SWAMP, TileKind, WATER};
use crate::sim::script::Script;
use crate::sim::{SimStats, Unit, UnitKind};
use crate::view::{TEAM_COLORS, kind_color, path_color};

/// Seconds between two refreshes of the numbers.
const REFRESH: f32 = 0.5;
/// Every terrain with its name, for the cost table.
const TERRAINS: [(u8, &str); 5] = [
    (ROAD, "road"),
    (GRASS, "grass"),
    (FOREST, "forest"),
    (SWAMP, "swamp"),
    (WATER, "water"),
];
const TEXT: Color = Color::srgb(0.9, 0.92, 0.95);
const MUTED: Color = Color::srgb(0.6, 0.64, 0.7);

/// Adds the HUD.
pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HudClock>()
            .add_systems(Startup, setup_hud)
            .add_systems(Update, update_hud.after(TilepathSystems::Steer));
    }
}

#[derive(Component)]
struct StatsText;

/// Rolling window of the numbers shown.
#[derive(Resource, Default)]
struct HudClock {
    elapsed: f32,
    frames: u32,
    answers_at_start: u64,
    solve_sum: Duration,
    solve_peak: Duration,
}

fn line(text: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(text),
        TextFont::from_font_size(size),
        TextColor(color),
    )
}

fn setup_hud(mut commands: Commands) {
    let help = "left drag    select units\n\
                shift        add to selection\n\
                right click  move (formation, nearest ground)\n\
                W / E hold   paint / erase walls\n\
                A            next algorithm\n\
                D            debug overlay\n\
                R            random orders";
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                left: px(0.0),
                top: px(0.0),
                width: px(316.0),
                height: percent(100.0),
                flex_direction: FlexDirection::Column,
                row_gap: px(10.0),
                padding: UiRect::all(px(14.0)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.02, 0.03, 0.05, 0.85)),
        ))
        .with_children(|panel| {
            panel.spawn(line("bevy_tilepath RTS", 22.0, TEXT));
            panel.spawn((line("", 14.0, TEXT), StatsText));
            panel.spawn(line(help, 14.0, MUTED));
            panel
                .spawn(line("units: ", 14.0, MUTED))
                .with_children(|legend| {
                    legend.spawn(span("team 1  ", TEAM_COLORS[0]));
                    legend.spawn(span("team 2\n", TEAM_COLORS[1]));
                    legend.spawn(span("disc ", MUTED));
                    legend.spawn(span("infantry", path_color(UnitKind::Infantry)));
                    legend.spawn(span(", ring ", MUTED));
                    legend.spawn(span("hover", path_color(UnitKind::Hover)));
                    legend.spawn(span(",\nsquare ", MUTED));
                    legend.spawn(span("tank", path_color(UnitKind::Tank)));
                    legend.spawn(span(" (1, 2, 3 cells wide)", MUTED));
                });
            panel
                .spawn(line("terrain cost   inf hover tank\n", 14.0, MUTED))
                .with_children(|table| {
                    for (terrain, name) in TERRAINS {
                        let look = TileKind::ALL
                            .into_iter()
                            .find(|k| k.terrain() == terrain && !k.blocks())
                            .map_or(TEXT, |k| {
                                let [r, g, b] = kind_color(k);
                                Color::srgb_u8(r, g, b).mix(&Color::WHITE, 0.35)
                            });
                        table.spawn(span(format!("  {name:<12}"), look));
                        let costs: String = UnitKind::ALL
                            .iter()
                            .map(|k| match k.profile().weight(terrain) {
                                Some(w) => format!("{w:>5}"),
                                None => format!("{:>5}", "-"),
                            })
                            .collect();
                        table.spawn(span(format!("{costs}\n"), TEXT));
                    }
                    table.spawn(span("speed = top speed / cost; - = impassable", MUTED));
                });
        });
}

fn span(text: impl Into<String>, color: Color) -> impl Bundle {
    (
        TextSpan::new(text),
        TextFont::from_font_size(14.0),
        TextColor(color),
    )
}

#[allow(clippy::too_many_arguments)]
fn update_hud(
    time: Res<Time<Real>>,
    stats: Res<SimStats>,
    settings: Res<TilepathSettings>,
    gizmos: Res<GizmoConfigStore>,
    script: Option<Res<Script>>,
    mut clock: ResMut<HudClock>,
    units: Query<(), With<Unit>>,
    selected: Query<&Unit, With<Selected>>,
    mut text: Single<&mut Text, With<StatsText>>,
) {
    clock.elapsed += time.delta_secs();
    clock.frames += 1;
    clock.solve_sum += stats.solve_time;
    clock.solve_peak = clock.solve_peak.max(stats.solve_time);
    if clock.elapsed < REFRESH && !text.0.is_empty() {
        return;
    }
    let secs = clock.elapsed.max(1e-3);
    let answers = stats.answers - clock.answers_at_start;
    let frames = clock.frames.max(1);
    let solve_ms = clock.solve_sum.as_secs_f64() * 1000.0 / f64::from(frames);
    let peak_ms = clock.solve_peak.as_secs_f64() * 1000.0;
    let frame_ms = secs * 1000.0 / frames as f32;
    let (overlay, _) = gizmos.config::<TilepathGizmos>();
    let on_off = |b: bool| if b { "on" } else { "off" };
    // The profiles of the selection, by name.
    let mut by_kind = [0usize; 3];
    for unit in &selected {
        by_kind[unit.kind as usize] += 1;
    }
    let profiles: Vec<String> = UnitKind::ALL
        .iter()
        .zip(by_kind)
        .filter(|&(_, n)| n > 0)
        .map(|(k, n)| format!("{n} {}", k.name()))
        .collect();
    let last_order = match (stats.last_order, stats.last_order_frames) {
        (None, _) => "-".to_string(),
        (Some((_, _, units)), Some(frames)) => format!("{units} units, all moving in {frames} fr"),
        (Some((_, at, units)), None) => {
            format!("{units} units, waiting {} fr", stats.frames - at)
        }
    };
    let profiles = if profiles.is_empty() {
        "-".to_string()
    } else {
        profiles.join(", ")
    };
    text.0 = format!(
        "units     {:>5}  selected {:>4}\n\
         profiles  {profiles}\n\
         walking   {:>5}  arrived {:>5}\n\
         orders    {:>5}  in walls {:>4}\n\
         overlaps  {:>5}  stuck {:>7}\n\
         last order {last_order}\n\
         answers   {:>5}  per s {:>7.0}\n\
         re-plans  {:>5}  edits {:>7}\n\
         pathfinding {solve_ms:.2} ms/frame\n\
         \x20           peak {peak_ms:.2} ms\n\
         frame     {frame_ms:.1} ms ({:.0} fps)\n\
         walls     +{} / -{}\n\n\
         algorithm {:<10} [A]\n\
         overlay   {:<10} [D]\n\
         random    {:<10} [R]",
        units.iter().len(),
        selected.iter().len(),
        stats.moving,
        stats.arrivals,
        stats.orders,
        stats.in_walls,
        stats.overlaps,
        stats.stuck,
        stats.answers,
        answers as f32 / secs,
        stats.replans,
        stats.edit_replans,
        frames as f32 / secs,
        stats.cells_walled,
        stats.cells_cleared,
        settings.defaults.algorithm.name(),
        on_off(overlay.enabled),
        on_off(script.is_some_and(|s| s.config.enabled)),
    );
    *clock = HudClock {
        answers_at_start: stats.answers,
        ..default()
    };
}
