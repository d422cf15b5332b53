//! Mouse and keyboard: box selection, move orders, live wall painting, and the algorithm,
//! overlay and random-order keys.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_tilepath::debug::TilepathGizmos;
use bevy_tilepath::prelude::{Algorithm, Cell, TilepathSettings};

use crate::sim::script::Script;
use crate::sim::{MoveOrder, SimSystems, TILE, Unit, WallEdit};

/// Marks a selected unit.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Selected;

/// The algorithms key A cycles through (the tree searches DFS and IDDFS are left out:
/// their paths are long detours by design). `Auto` runs A* on this map: its terrain
/// weighs differently for every unit type.
pub const ALGORITHMS: [Algorithm; 7] = [
    Algorithm::Auto,
    Algorithm::AStar,
    Algorithm::Jps,
    Algorithm::BestFirst,
    Algorithm::Dijkstra,
    Algorithm::Bfs,
    Algorithm::Evasion,
];

/// Pointer state shared with the drawing.
#[derive(Resource, Debug, Default)]
pub struct Selection {
    drag_start: Option<Vec2>,
    cursor: Option<Vec2>,
    /// A drag box to show regardless of the mouse (used by the screenshot script).
    pub shown_box: Option<(Vec2, Vec2)>,
    /// The last move target and when it was given (seconds since start).
    pub last_target: Option<(Cell, f32)>,
    /// The wall brush cell and whether it paints (true) or erases.
    pub brush: Option<(Cell, bool)>,
    last_brush: Option<Cell>,
}

impl Selection {
    /// The rectangle being dragged, as two opposite corners in world units.
    pub fn drag_box(&self) -> Option<(Vec2, Vec2)> {
        self.shown_box
            .or_else(|| Some((self.drag_start?, self.cursor?)))
    }
}

/// Adds selection, orders, wall painting and the option keys.
pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        // The plugin's debug overlay starts hidden (the view draws the selection's paths);
        // D shows it, with the clearance of tanks instead of the walls.
        let overlay = TilepathGizmos {
            obstacles: false,
            clearance: true,
            clearance_diameter: 3,
            ..default()
        };
        app.insert_gizmo_config(
            overlay,
            GizmoConfig {
                enabled: false,
                ..default()
            },
        )
        .init_resource::<Selection>()
        .add_systems(
            Update,
            (
                track_cursor,
                select_units,
                order_units,
                paint_walls,
                option_keys,
            )
                .chain()
                .in_set(SimSystems::Input),
        );
    }
}

fn track_cursor(
    mut selection: ResMut<Selection>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
) {
    let (camera, transform) = *camera;
    selection.cursor = window
        .cursor_position()
        .and_then(|p| camera.viewport_to_world_2d(transform, p).ok());
}

fn cell_at(p: Vec2) -> Cell {
    Cell::new((p.x / TILE).round() as i32, (p.y / TILE).round() as i32)
}

/// Left drag selects the units inside the box; a click selects the unit under the cursor.
/// Shift adds to the selection.
fn select_units(
    mut commands: Commands,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut selection: ResMut<Selection>,
    units: Query<(Entity, &Unit, &Transform, Has<Selected>)>,
) {
    if mouse.just_pressed(MouseButton::Left) {
        selection.drag_start = selection.cursor;
    }
    if !mouse.just_released(MouseButton::Left) {
        return;
    }
    let (Some(start), Some(end)) = (selection.drag_start.take(), selection.cursor) else {
        return;
    };
    let add = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let (lo, hi) = (start.min(end), start.max(end));
    let click = (hi - lo).max_element() < 3.0;
    let mut nearest: Option<(f32, Entity)> = None;
    for (entity, unit, transform, selected) in &units {
        let p = transform.translation.truncate();
        let inside = if click {
            let d = p.distance(end);
            if d <= unit.diameter as f32 * TILE / 2.0 + 2.0 && nearest.is_none_or(|n| d < n.0) {
                nearest = Some((d, entity));
            }
            false
        } else {
            p.cmpge(lo).all() && p.cmple(hi).all()
        };
        if inside && !selected {
            commands.entity(entity).insert(Selected);
        } else if !inside && selected && !add {
            commands.entity(entity).remove::<Selected>();
        }
    }
    if let Some((_, entity)) = nearest {
        commands.entity(entity).insert(Selected);
    }
}

/// Right click sends the selection to the cell under the cursor.
fn order_units(
    mouse: Res<ButtonInput<MouseButton>>,
    time: Res<Time>,
    mut selection: ResMut<Selection>,
    selected: Query<Entity, With<Selected>>,
    mut orders: MessageWriter<MoveOrder>,
) {
    if !mouse.just_pressed(MouseButton::Right) {
        return;
    }
    let Some(cursor) = selection.cursor else {
        return;
    };
    let units: Vec<Entity> = selected.iter().collect();
    if units.is_empty() {
        return;
    }
    let target = cell_at(cursor);
    orders.write(MoveOrder { units, target });
    selection.last_target = Some((target, time.elapsed_secs()));
}

/// While W (paint) or E (erase) is held, the cells under the cursor become walls or
/// ground; fast strokes are filled in cell by cell.
fn paint_walls(
    keys: Res<ButtonInput<KeyCode>>,
    mut selection: ResMut<Selection>,
    mut edits: MessageWriter<WallEdit>,
) {
    let paint = keys.pressed(KeyCode::KeyW);
    let erase = keys.pressed(KeyCode::KeyE);
    let Some(cursor) = selection.cursor.filter(|_| paint || erase) else {
        selection.brush = None;
        selection.last_brush = None;
        return;
    };
    let cell = cell_at(cursor);
    let from = selection.last_brush.unwrap_or(cell);
    let steps = from.chebyshev(cell).max(1) as i32;
    for i in 0..=steps {
        let t = i as f32 / steps as f32;
        let c = Cell::new(
            (from.x as f32 + (cell.x - from.x) as f32 * t).round() as i32,
            (from.y as f32 + (cell.y - from.y) as f32 * t).round() as i32,
        );
        edits.write(WallEdit {
            cell: c,
            blocked: paint,
        });
    }
    selection.brush = Some((cell, paint));
    selection.last_brush = Some(cell);
}

/// A cycles the algorithm, D toggles the plugin's debug overlay, R toggles random orders.
fn option_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut settings: ResMut<TilepathSettings>,
    mut gizmos: ResMut<GizmoConfigStore>,
    script: Option<ResMut<Script>>,
) {
    if keys.just_pressed(KeyCode::KeyA) {
        let i = ALGORITHMS
            .iter()
            .position(|&a| a == settings.defaults.algorithm)
            .map_or(0, |i| (i + 1) % ALGORITHMS.len());
        settings.defaults.algorithm = ALGORITHMS[i];
    }
    if keys.just_pressed(KeyCode::KeyD) {
        let (config, _) = gizmos.config_mut::<TilepathGizmos>();
        config.enabled = !config.enabled;
    }
    if keys.just_pressed(KeyCode::KeyR)
        && let Some(mut script) = script
    {
        script.config.enabled = !script.config.enabled;
    }
}
