//! Debug drawing with Bevy gizmos: each unit's path in its own colour, obstacles, clearance.

use bevy::gizmos::config::GizmoConfigGroup;
use bevy::prelude::*;

use crate::components::{NavGrid, PathRequest, PathResult, PathStatus, Replanning};
use crate::grid::Cell;
use crate::main_thread::MainThread;
use crate::plugin::TilepathSystems;

/// Draws the plugin's state with the [`TilepathGizmos`] gizmo group, in
/// [`TilepathSystems::Debug`] of [`Update`] (gizmos are drawn per rendered frame, whatever
/// schedule [`crate::plugin::TilepathPlugin`] runs in). Needs Bevy's `GizmoPlugin` (part
/// of `DefaultPlugins`).
///
/// # On as soon as it is added
///
/// Adding the plugin is enough: it draws from the first frame, each unit's path, goal and
/// claimed goal cell in the unit's own colour, plus the obstacle cells. The
/// [`TilepathGizmos`] group in Bevy's `GizmoConfigStore` turns it off and on at run time
/// and says what to draw and in which colours; its `GizmoConfig` sets the line width:
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::debug::TilepathGizmos;
///
/// fn toggle(keys: Res<ButtonInput<KeyCode>>, mut store: ResMut<GizmoConfigStore>) {
///     if keys.just_pressed(KeyCode::F3) {
///         let (config, options) = store.config_mut::<TilepathGizmos>();
///         config.enabled = !config.enabled;
///         options.obstacles = false;
///     }
/// }
/// ```
///
/// To start with the drawing off, or restyled, insert the group yourself, before or after
/// adding the plugin (a group inserted before it is kept):
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::debug::{PathColors, TilepathGizmos};
///
/// App::new()
///     .add_plugins((DefaultPlugins, TilepathPlugin::default(), TilepathDebugPlugin))
///     .insert_gizmo_config(
///         TilepathGizmos { path_colors: PathColors::Single(Color::WHITE), ..default() },
///         GizmoConfig { enabled: false, ..default() },
///     );
/// ```
///
/// # Colours
///
/// By default ([`PathColors::PerUnit`]) each unit's marks take a colour derived from its
/// [`Entity`] ([`PathColors::color_of`]): the same in every frame, and far apart for
/// entities spawned one after another, so a crowd's paths can be told apart.
/// [`PathColors::Single`] draws every unit in one colour, and a [`PathDebugColor`] on a
/// unit overrides both for that unit. Two marks keep a colour of their own, that of units
/// being planned ([`TilepathGizmos::pending_color`]): the circle on a unit waiting for a
/// path, and the line of a provisional detour
/// ([`FoundPath::provisional`](crate::components::FoundPath::provisional)).
#[derive(Clone, Copy, Debug, Default)]
pub struct TilepathDebugPlugin;

/// How [`TilepathDebugPlugin`] colours the marks of each unit (its path, waypoints, goal
/// and claimed cell). A [`PathDebugColor`] on a unit takes precedence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
pub enum PathColors {
    /// Each unit in its own colour, derived from its entity ([`PathColors::color_of`]).
    #[default]
    PerUnit,
    /// Every unit in this colour.
    Single(Color),
}

impl PathColors {
    /// The colour of `entity`'s marks. For [`PathColors::PerUnit`] the hue walks the
    /// circle by the golden ratio with the entity's index (lightness and chroma fixed, in
    /// Oklch): it never changes while the entity lives, and entities spawned one after
    /// another get hues about 137° apart. Games can tint their own unit markers with it.
    pub fn color_of(&self, entity: Entity) -> Color {
        match *self {
            Self::PerUnit => {
                // 2^32 / φ: consecutive indices land far apart on the hue circle.
                const GOLDEN: u32 = 2_654_435_769;
                let turn = entity.index_u32().wrapping_mul(GOLDEN) as f32 / 4_294_967_296.0;
                Oklcha::lch(0.78, 0.13, turn * 360.0).into()
            }
            Self::Single(color) => color,
        }
    }
}

/// Draws this unit's marks in this colour, whatever [`TilepathGizmos::path_colors`] says.
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct PathDebugColor(pub Color);

/// The gizmo group of [`TilepathDebugPlugin`] (enabled when the plugin is added) and what
/// it draws.
#[derive(Clone, Debug, PartialEq, Reflect, GizmoConfigGroup)]
#[reflect(Default, Debug, PartialEq)]
pub struct TilepathGizmos {
    /// Draw each found path (waypoint line, circle on its last waypoint) and a circle on
    /// each unit waiting for a path (pending or re-planning).
    /// Default: `true`.
    pub paths: bool,
    /// Draw a dot on every waypoint of each found path (every cell's centre unless the
    /// request smooths its path). Default: `false`.
    pub waypoints: bool,
    /// Draw a square around the footprint on each unit's claimed goal cell
    /// ([`PathStatus::claimed_cell`]). Default: `true`.
    pub claims: bool,
    /// Draw obstacle cells. Default: `true`.
    pub obstacles: bool,
    /// Draw the cells that are free but blocked for agents of `clearance_diameter`.
    /// Default: `false`.
    pub clearance: bool,
    /// Agent diameter whose extra blocked cells `clearance` shows. Default: `3`.
    pub clearance_diameter: u32,
    /// At most this many cells are drawn per kind (obstacles, clearance), to keep large
    /// maps responsive. Default: `65_536`.
    pub max_cells: usize,
    /// The colour of each unit's path, waypoints, goal and claimed cell (see
    /// [`PathColors`]). Default: [`PathColors::PerUnit`].
    pub path_colors: PathColors,
    /// Colour of obstacle cells. Default: red, `Color::srgb(0.9, 0.2, 0.2)`.
    pub obstacle_color: Color,
    /// Colour of clearance-blocked cells. Default: orange, `Color::srgb(0.95, 0.6, 0.1)`.
    pub clearance_color: Color,
    /// Colour of units waiting for a path (pending or re-planning) and of the provisional
    /// detours some of them walk meanwhile. Default: yellow, `Color::srgb(0.95, 0.9, 0.2)`.
    pub pending_color: Color,
}

impl Default for TilepathGizmos {
    fn default() -> Self {
        Self {
            paths: true,
            waypoints: false,
            claims: true,
            obstacles: true,
            clearance: false,
            clearance_diameter: 3,
            max_cells: 65_536,
            path_colors: PathColors::PerUnit,
            obstacle_color: Color::srgb(0.9, 0.2, 0.2),
            clearance_color: Color::srgb(0.95, 0.6, 0.1),
            pending_color: Color::srgb(0.95, 0.9, 0.2),
        }
    }
}

/// What [`TilepathDebugPlugin`] drew in its last run (all zero while drawing is off).
/// Hidden from the docs: only tests read it.
#[doc(hidden)]
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct TilepathDebugCounts {
    /// Found paths drawn (polyline and goal circle).
    pub paths: usize,
    /// Units drawn as waiting for a path (pending or re-planning).
    pub waiting: usize,
    /// Waypoint dots drawn, over all paths.
    pub waypoints: usize,
    /// Claimed goal cells drawn.
    pub claims: usize,
    /// Obstacle cells drawn.
    pub obstacle_cells: usize,
    /// Clearance-blocked cells drawn.
    pub clearance_cells: usize,
}

impl Plugin for TilepathDebugPlugin {
    fn build(&self, app: &mut App) {
        // `init_gizmo_group` keeps a group the app inserted before: enabled by default.
        app.init_resource::<TilepathDebugCounts>()
            .register_type::<TilepathDebugCounts>()
            .init_gizmo_group::<TilepathGizmos>()
            .register_type::<TilepathGizmos>()
            .register_type::<PathColors>()
            .register_type::<PathDebugColor>()
            .add_systems(Update, draw_tilepath_gizmos.in_set(TilepathSystems::Debug));
    }
}

/// What the drawing reads of each unit.
type Units<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static PathResult,
        Option<&'static PathStatus>,
        Option<&'static PathRequest>,
        Option<&'static PathDebugColor>,
        Option<&'static GlobalTransform>,
        Has<Replanning>,
    ),
>;

fn draw_tilepath_gizmos(
    _main: MainThread,
    grid: Option<Res<NavGrid>>,
    units: Units,
    mut gizmos: Gizmos<TilepathGizmos>,
    mut counts: ResMut<TilepathDebugCounts>,
) {
    let mut drawn = TilepathDebugCounts::default();
    if gizmos.config.enabled
        && let Some(grid) = grid
    {
        draw_cells(&grid, &mut gizmos, &mut drawn);
        draw_units(&grid, &units, &mut gizmos, &mut drawn);
    }
    counts.set_if_neq(drawn);
}

/// The outline of a cell scaled by `scale` around its centre: its hexagon on
/// hexagonal maps, its square or diamond otherwise.
fn draw_cell(
    gizmos: &mut Gizmos<TilepathGizmos>,
    grid: &NavGrid,
    cell: Cell,
    scale: f32,
    color: Color,
) {
    let placement = grid.placement();
    match placement.hex_outline(cell, scale) {
        Some(corners) => gizmos.linestrip_2d(corners, color),
        None => gizmos.linestrip_2d(
            placement.world_outline(
                grid.plane_agent_center(cell, 1),
                grid.plane_tile_size() * scale * 0.5,
            ),
            color,
        ),
    }
}

/// Obstacle and clearance-blocked cells.
fn draw_cells(
    grid: &NavGrid,
    gizmos: &mut Gizmos<TilepathGizmos>,
    drawn: &mut TilepathDebugCounts,
) {
    let options = gizmos.config_ext.clone();
    let size = grid.size();
    let tile = grid.plane_tile_size();
    let cells =
        (0..size.height as i32).flat_map(|y| (0..size.width as i32).map(move |x| Cell::new(x, y)));
    if options.obstacles {
        let obstacles = grid.scenario().obstacles();
        for cell in cells
            .clone()
            .filter(|&c| obstacles.get_or(c, true) && !grid.is_outside(c))
            .take(options.max_cells)
        {
            draw_cell(gizmos, grid, cell, 0.9, options.obstacle_color);
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
}

/// Each unit's path, waypoints, goal and claimed cell in its colour; waiting units.
fn draw_units(
    grid: &NavGrid,
    units: &Units,
    gizmos: &mut Gizmos<TilepathGizmos>,
    drawn: &mut TilepathDebugCounts,
) {
    let options = gizmos.config_ext.clone();
    let tile = grid.plane_tile_size();
    let radius = tile.min_element() * 0.3;
    for (entity, result, ticket, request, own_color, transform, replanning) in units {
        let color = own_color.map_or_else(|| options.path_colors.color_of(entity), |c| c.0);
        if options.paths
            && let PathResult::Found(path) = result
            && let Some(&goal) = path.waypoints.last()
        {
            let line = if path.provisional {
                options.pending_color
            } else {
                color
            };
            gizmos.linestrip_2d(path.waypoints.iter().copied(), line);
            gizmos.circle_2d(Isometry2d::from_translation(goal), radius, color);
            drawn.paths += 1;
        }
        if options.waypoints
            && let PathResult::Found(path) = result
        {
            for &waypoint in &path.waypoints {
                gizmos
                    .circle_2d(Isometry2d::from_translation(waypoint), radius * 0.3, color)
                    .resolution(8);
            }
            drawn.waypoints += path.waypoints.len();
        }
        if options.claims
            && let Some(cell) = ticket.and_then(PathStatus::claimed_cell)
        {
            let diameter = request.map_or(1, |r| r.diameter.max(1));
            let shape = grid.layout().shape();
            if shape.is_square() {
                let half = (tile * diameter as f32 - tile * 0.2) * 0.5;
                gizmos.linestrip_2d(
                    grid.placement()
                        .world_outline(grid.plane_agent_center(cell, diameter), half),
                    color,
                );
            } else {
                let area = shape.footprint(cell, diameter).clip(grid.size());
                for c in area.cells().filter(|&c| shape.covers(cell, diameter, c)) {
                    draw_cell(gizmos, grid, c, 0.75, color);
                }
            }
            drawn.claims += 1;
        }
        if options.paths
            && (result.is_pending() || replanning)
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
