//! Drawing: the tile atlas and unit sprite made in code, the tilemap's render components,
//! the camera, and gizmos for selections, paths and the wall brush.

use bevy::asset::RenderAssetUsages;
use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::render::sync_world::SyncToRenderWorld;
use bevy_ecs_tilemap::FrustumCulling;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::{PathResult, TilepathSystems};
use bevy_tilepath::steering::SteeringProgress;

use crate::input::{Selected, Selection};
use crate::sim::level::TileKind;
use crate::sim::{Sim, SimSystems, TILE, Unit, UnitKind, UnitOrder};

/// Pixels per tile in the atlas (one pixel per world unit).
const TILE_PX: u32 = TILE as u32;
/// Side of the unit sprite image in pixels.
const UNIT_PX: u32 = 32;
/// World units left around the map inside the view.
const MARGIN: f32 = 6.0;
/// Width of the HUD panel on the left, in world units at the fitted zoom.
pub const PANEL: f32 = 350.0;

/// Team colours (team 0, team 1).
pub const TEAM_COLORS: [Color; 2] = [Color::srgb(0.35, 0.7, 1.0), Color::srgb(1.0, 0.62, 0.25)];
const SELECTED_COLOR: Color = Color::srgb(1.0, 1.0, 0.55);

/// Colour of the remaining path of a selected unit of `kind`.
pub fn path_color(kind: UnitKind) -> Color {
    match kind {
        UnitKind::Infantry => Color::srgba(1.0, 1.0, 0.6, 0.6),
        UnitKind::Hover => Color::srgba(0.55, 1.0, 1.0, 0.7),
        UnitKind::Tank => Color::srgba(1.0, 0.5, 0.45, 0.8),
    }
}
const DRAG_COLOR: Color = Color::srgb(0.5, 1.0, 0.6);
const BRUSH_COLOR: Color = Color::srgb(1.0, 0.45, 0.35);
const ERASE_COLOR: Color = Color::srgb(0.6, 0.9, 1.0);

/// Adds the visuals.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(Color::srgb(0.06, 0.07, 0.09)))
            .add_systems(Startup, setup_view.after(crate::sim::SimStartup))
            .add_systems(
                Update,
                (
                    dress_units,
                    draw_overlay.after(TilepathSystems::Steer),
                    tint_units.after(SimSystems::Input),
                ),
            );
    }
}

/// The unit sprite images, per kind.
#[derive(Resource)]
struct UnitImages([Handle<Image>; 3]);

fn rgba(c: [u8; 3]) -> [u8; 4] {
    [c[0], c[1], c[2], 255]
}

/// A pseudo-random bit pattern per tile pixel (the same in every tile of a kind).
fn speckle(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77) ^ salt;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^ (h >> 12)
}

/// The base colour of a terrain kind, also used by the HUD's legend.
pub fn kind_color(kind: TileKind) -> [u8; 3] {
    match kind {
        TileKind::Grass => [58, 96, 54],
        TileKind::GrassDark => [50, 86, 48],
        TileKind::Rock => [128, 122, 116],
        TileKind::Water => [40, 88, 158],
        TileKind::Wall => [188, 96, 62],
        TileKind::Road => [170, 148, 104],
        TileKind::Forest => [26, 60, 32],
        TileKind::Swamp => [92, 96, 52],
        TileKind::Bridge => [128, 88, 52],
    }
}

/// One atlas tile. Tiles are nearly flat (the map is drawn slightly scaled, where fine
/// patterns would shimmer); rocks and walls get a darker rim so single cells read;
/// forests, swamps, water and bridges get a faint texture so they read as terrain.
fn tile_pixel(kind: TileKind, x: u32, y: u32) -> [u8; 4] {
    let rim = x == TILE_PX - 1 || y == 0;
    let base = kind_color(kind);
    let shade = |c: [u8; 3], f: f32| {
        rgba([
            (c[0] as f32 * f).min(255.0) as u8,
            (c[1] as f32 * f).min(255.0) as u8,
            (c[2] as f32 * f).min(255.0) as u8,
        ])
    };
    match kind {
        TileKind::Grass | TileKind::GrassDark | TileKind::Road => rgba(base),
        TileKind::Rock => rgba(if rim { [96, 92, 88] } else { base }),
        TileKind::Water => shade(
            base,
            if (x + 2 * y).is_multiple_of(7) {
                1.25
            } else {
                1.0
            },
        ),
        TileKind::Wall => rgba(if rim || x == 0 || y == TILE_PX - 1 {
            [92, 44, 30]
        } else {
            base
        }),
        TileKind::Forest => {
            // Round tree crowns: lighter pixels on two offset circles.
            let crown = |cx: f32, cy: f32| {
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                dx * dx + dy * dy < 4.0
            };
            if crown(2.5, 2.5) || crown(6.0, 6.0) {
                shade(base, 1.45)
            } else {
                rgba(base)
            }
        }
        TileKind::Swamp => shade(
            base,
            if speckle(x, y, 7).is_multiple_of(5) {
                0.72
            } else {
                1.0
            },
        ),
        TileKind::Bridge => shade(base, if y.is_multiple_of(3) { 0.7 } else { 1.0 }),
    }
}

fn image(width: u32, height: u32, data: Vec<u8>) -> Image {
    let mut image = Image::new_fill(
        Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &[0, 0, 0, 0],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    );
    image.data = Some(data);
    image
}

/// The tile atlas: one row of tiles, in the order of their [`TileKind::atlas_index`].
fn tile_atlas() -> Image {
    let kinds = TileKind::ALL;
    debug_assert!(
        kinds
            .iter()
            .enumerate()
            .all(|(i, k)| k.atlas_index() == i as u32)
    );
    let width = TILE_PX * kinds.len() as u32;
    let mut data = Vec::with_capacity((width * TILE_PX * 4) as usize);
    for y in 0..TILE_PX {
        for kind in kinds {
            for x in 0..TILE_PX {
                data.extend_from_slice(&tile_pixel(kind, x, y));
            }
        }
    }
    image(width, TILE_PX, data)
}

/// A white unit sprite with a dark rim and soft edge, tinted per unit: a disc for
/// infantry, a ring around a dot for hovercraft, a square with a turret for tanks.
fn unit_image(kind: UnitKind) -> Image {
    let mut data = Vec::with_capacity((UNIT_PX * UNIT_PX * 4) as usize);
    let c = (UNIT_PX as f32 - 1.0) / 2.0;
    for y in 0..UNIT_PX {
        for x in 0..UNIT_PX {
            let (dx, dy) = ((x as f32 - c) / (c + 0.5), (y as f32 - c) / (c + 0.5));
            let round = (dx * dx + dy * dy).sqrt();
            // Distance to the outline: 1 on it, 0 in the middle.
            let (d, inner_hole) = match kind {
                UnitKind::Infantry => (round, false),
                UnitKind::Hover => (round, (0.3..0.55).contains(&round)),
                UnitKind::Tank => (dx.abs().max(dy.abs()) * 1.05, false),
            };
            let alpha = if inner_hole {
                0.0
            } else {
                ((1.0 - d) * 16.0).clamp(0.0, 1.0)
            };
            let turret = kind == UnitKind::Tank && round < 0.38;
            let shade = if d > 0.74 {
                0.3
            } else if turret {
                0.62
            } else {
                1.0 - 0.2 * d
            };
            let v = (shade * 255.0) as u8;
            data.extend_from_slice(&[v, v, v, (alpha * 255.0) as u8]);
        }
    }
    image(UNIT_PX, UNIT_PX, data)
}

/// Camera fitted to the map with room for the HUD panel on the left, and render
/// components for the simulation's tilemap.
fn setup_view(mut commands: Commands, sim: Res<Sim>, mut images: ResMut<Assets<Image>>) {
    let size = sim.level.size();
    let map = Vec2::new(size.width as f32, size.height as f32) * TILE;
    let view = Vec2::new(map.x + PANEL + 2.0 * MARGIN, map.y + 2.0 * MARGIN);
    let left = -TILE / 2.0 - MARGIN - PANEL;
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: view.x,
                min_height: view.y,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(left + view.x / 2.0, map.y / 2.0 - TILE / 2.0, 0.0),
    ));

    let atlas = images.add(tile_atlas());
    commands.entity(sim.tilemap).insert((
        TilemapTexture::Single(atlas),
        TilemapType::Square,
        TilemapSpacing::default(),
        TilemapRenderSettings::default(),
        TilemapAnchor::None,
        MaterialTilemapHandle::<StandardTilemapMaterial>::default(),
        GlobalTransform::default(),
        Visibility::default(),
        InheritedVisibility::default(),
        ViewVisibility::default(),
        FrustumCulling::default(),
        SyncToRenderWorld,
    ));
    commands.insert_resource(UnitImages(UnitKind::ALL.map(|k| images.add(unit_image(k)))));
}

/// Gives new units their sprite.
fn dress_units(
    mut commands: Commands,
    images: Option<Res<UnitImages>>,
    units: Query<(Entity, &Unit), Added<Unit>>,
) {
    let Some(images) = images else {
        return;
    };
    for (entity, unit) in &units {
        commands.entity(entity).insert(Sprite {
            image: images.0[unit.kind as usize].clone(),
            color: TEAM_COLORS[unit.team as usize % 2],
            custom_size: Some(Vec2::splat(unit.diameter as f32 * TILE)),
            ..default()
        });
    }
}

/// Selected units are drawn brighter.
fn tint_units(mut units: Query<(&Unit, &mut Sprite, Has<Selected>)>) {
    for (unit, mut sprite, selected) in &mut units {
        let base = TEAM_COLORS[unit.team as usize % 2];
        let color = if selected {
            base.mix(&Color::WHITE, 0.45)
        } else {
            base
        };
        if sprite.color != color {
            sprite.color = color;
        }
    }
}

/// What [`draw_overlay`] reads of a selected unit.
type SelectedUnit = (
    &'static Unit,
    &'static Transform,
    &'static UnitOrder,
    Option<&'static PathResult>,
    Option<&'static SteeringProgress>,
);

/// Rings and remaining paths of the selected units, the drag box, the move target and
/// the wall brush.
fn draw_overlay(
    mut gizmos: Gizmos,
    selection: Res<Selection>,
    time: Res<Time>,
    selected: Query<SelectedUnit, With<Selected>>,
) {
    for (unit, transform, order, result, progress) in &selected {
        let p = transform.translation.truncate();
        gizmos
            .circle_2d(
                Isometry2d::from_translation(p),
                unit.diameter as f32 * TILE / 2.0 + 1.5,
                SELECTED_COLOR,
            )
            .resolution(12);
        if !order.active() {
            continue;
        }
        if let (Some(PathResult::Found(path)), Some(progress)) = (result, progress) {
            let next = progress.next_waypoint().min(path.waypoints.len());
            gizmos.linestrip_2d(
                std::iter::once(p).chain(path.waypoints[next..].iter().copied()),
                path_color(unit.kind),
            );
        }
        if let Some(goal) = order.goal {
            let g = crate::sim::cell_center(goal);
            gizmos.rect_2d(
                Isometry2d::from_translation(g),
                Vec2::splat(unit.diameter as f32 * TILE * 0.5),
                path_color(unit.kind),
            );
        }
    }
    if let Some((a, b)) = selection.drag_box() {
        gizmos.rect_2d(
            Isometry2d::from_translation((a + b) / 2.0),
            (b - a).abs(),
            DRAG_COLOR,
        );
    }
    if let Some((target, at)) = selection.last_target {
        let age = time.elapsed_secs() - at;
        if (0.0..1.0).contains(&age) {
            let c = crate::sim::cell_center(target);
            gizmos.circle_2d(
                Isometry2d::from_translation(c),
                TILE * (1.0 + 3.0 * age),
                DRAG_COLOR.with_alpha(1.0 - age),
            );
        }
    }
    if let Some((cell, painting)) = selection.brush {
        gizmos.rect_2d(
            Isometry2d::from_translation(crate::sim::cell_center(cell)),
            Vec2::splat(TILE),
            if painting { BRUSH_COLOR } else { ERASE_COLOR },
        );
    }
}
