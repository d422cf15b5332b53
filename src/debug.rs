//! Debug drawing with Bevy gizmos: paths, obstacles and clearance of the [`NavGrid`].

use bevy::gizmos::config::{GizmoConfig, GizmoConfigGroup};
use bevy::prelude::*;

use crate::components::{NavGrid, PathResult, Replanning};
use crate::grid::Cell;
use crate::plugin::TilepathSystems;

/// Draws the plugin's state with the [`TilepathGizmos`] gizmo group, in
/// [`TilepathSystems::Debug`] of [`Update`] (gizmos are drawn per rendered frame, whatever
/// schedule [`crate::plugin::TilepathPlugin`] runs in). Needs Bevy's `GizmoPlugin` (part
/// of `DefaultPlugins`). [`TilepathDebugCounts`] tells what the last drawing frame drew.
///
/// Drawing is off by default; turn it on at run time:
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
///
/// fn toggle(mut store: ResMut<GizmoConfigStore>) {
///     let (config, options) = store.config_mut::<TilepathGizmos>();
///     config.enabled = !config.enabled;
///     options.clearance_diameter = 3;
/// }
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct TilepathDebugPlugin;

/// The gizmo group of [`TilepathDebugPlugin`] (disabled by default) and what it draws.
#[derive(Clone, Debug, PartialEq, Reflect, GizmoConfigGroup)]
#[reflect(Default, Debug, PartialEq)]
pub struct TilepathGizmos {
    /// Draw every found path (waypoint polyline and goal) and mark units waiting for a
    /// path (pending or re-planning).
    pub paths: bool,
    /// Draw obstacle cells.
    pub obstacles: bool,
    /// Draw the cells that are free but blocked for agents of `clearance_diameter`.
    pub clearance: bool,
    /// Agent diameter whose extra blocked cells `clearance` shows.
    pub clearance_diameter: u32,
    /// At most this many cells are drawn per kind (obstacles, clearance), to keep large
    /// maps responsive.
    pub max_cells: usize,
    /// Colour of paths (a provisional detour, [`FoundPath::provisional`], is drawn in
    /// `pending_color`).
    ///
    /// [`FoundPath::provisional`]: crate::components::FoundPath::provisional
    pub path_color: Color,
    /// Colour of obstacle cells.
    pub obstacle_color: Color,
    /// Colour of clearance-blocked cells.
    pub clearance_color: Color,
    /// Colour of units waiting for a path (pending or re-planning), and of the
    /// provisional detours some of them walk meanwhile.
    pub pending_color: Color,
}

impl Default for TilepathGizmos {
    fn default() -> Self {
        Self {
            paths: true,
            obstacles: true,
            clearance: false,
            clearance_diameter: 3,
            max_cells: 65_536,
            path_color: Color::srgb(0.2, 0.9, 0.3),
            obstacle_color: Color::srgb(0.9, 0.2, 0.2),
            clearance_color: Color::srgb(0.95, 0.6, 0.1),
            pending_color: Color::srgb(0.95, 0.9, 0.2),
        }
    }
}

/// What [`TilepathDebugPlugin`] drew in its last run (all zero while drawing is off).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct TilepathDebugCounts {
    /// Found paths drawn (polyline and goal circle).
    pub paths: usize,
    /// Units drawn as waiting for a path (pending or re-planning).
    pub waiting: usize,
    /// Obstacle cells drawn.
    pub obstacle_cells: usize,
    /// Clearance-blocked cells drawn.
    pub clearance_cells: usize,
}

impl Plugin for TilepathDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TilepathDebugCounts>()
            .register_type::<TilepathDebugCounts>()
            .insert_gizmo_config(
                TilepathGizmos::default(),
                GizmoConfig {
                    enabled: false,
                    ..default()
                },
            )
            .register_type::<TilepathGizmos>()
            .add_systems(Update, draw_tilepath_gizmos.in_set(TilepathSystems::Debug));
    }
}

fn draw_tilepath_gizmos(
    grid: Option<Res<NavGrid>>,
    results: Query<(&PathResult, Option<&GlobalTransform>, Has<Replanning>)>,
    mut gizmos: Gizmos<TilepathGizmos>,
    mut counts: ResMut<TilepathDebugCounts>,
) {
    let mut drawn = TilepathDebugCounts::default();
    if gizmos.config.enabled
        && let Some(grid) = grid
    {
        draw(&grid, &results, &mut gizmos, &mut drawn);
    }
    counts.set_if_neq(drawn);
}

fn draw(
    grid: &NavGrid,
    results: &Query<(&PathResult, Option<&GlobalTransform>, Has<Replanning>)>,
    gizmos: &mut Gizmos<TilepathGizmos>,
    drawn: &mut TilepathDebugCounts,
) {
    let options = gizmos.config_ext.clone();
    let size = grid.size();
    let tile = grid.tile_size();
    let cells =
        (0..size.height as i32).flat_map(|y| (0..size.width as i32).map(move |x| Cell::new(x, y)));
    if options.obstacles {
        let obstacles = grid.scenario().obstacles();
        for cell in cells
            .clone()
            .filter(|&c| obstacles.get_or(c, true))
            .take(options.max_cells)
        {
            gizmos.rect_2d(
                Isometry2d::from_translation(grid.cell_to_world(cell)),
                tile * 0.9,
                options.obstacle_color,
            );
            drawn.obstacle_cells += 1;
        }
    }
    if options.clearance
        && let Some(layer) = grid.scenario().layer(options.clearance_diameter)
    {
        let obstacles = grid.scenario().obstacles();
        for cell in cells
            .filter(|&c| layer.is_blocked(c) && !obstacles.get_or(c, true))
            .take(options.max_cells)
        {
            gizmos.cross_2d(
                Isometry2d::from_translation(grid.cell_to_world(cell)),
                tile.min_element() * 0.25,
                options.clearance_color,
            );
            drawn.clearance_cells += 1;
        }
    }
    if options.paths {
        let radius = tile.min_element() * 0.3;
        for (result, transform, replanning) in results {
            if let PathResult::Found(path) = result
                && let Some(&goal) = path.waypoints.last()
            {
                let color = if path.provisional {
                    options.pending_color
                } else {
                    options.path_color
                };
                gizmos.linestrip_2d(path.waypoints.iter().copied(), color);
                gizmos.circle_2d(Isometry2d::from_translation(goal), radius, color);
                drawn.paths += 1;
            }
            if (result.is_pending() || replanning)
                && let Some(t) = transform
            {
                gizmos.circle_2d(
                    Isometry2d::from_translation(t.translation().truncate()),
                    radius,
                    options.pending_color,
                );
                drawn.waiting += 1;
            }
        }
    }
}
