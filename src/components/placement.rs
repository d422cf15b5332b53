//! Where a grid's cells lie in the world: square, isometric or hexagonal, and the steering plane.

use bevy::prelude::*;

use crate::grid::Cell;
use crate::shape::{GridShape, Hex, HexLayout};

/// √3 / 2.
const HALF_SQRT_3: f32 = 0.866_025_4;

/// How the cells of a [`NavGrid`](super::NavGrid) are drawn in the world, and so which
/// cells are neighbours ([`GridLayout::shape`]).
///
/// Square and isometric cells have the same 8 neighbours (cell `(x, y)` and
/// `(x ± 1, y ± 1)`) and paths cost the same: those layouts only place the cells.
/// Hexagonal cells have 6 neighbours (see [`GridShape::Hex`]).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::scenario::CachedScenario;
///
/// let map = CachedScenario::from_ascii("...\n...\n...").unwrap();
/// // Diamonds 64 wide and 32 high, cell (0, 0) centred on the world origin.
/// let grid = NavGrid::new(map, Vec2::ZERO, Vec2::new(64.0, 32.0))
///     .with_layout(GridLayout::Isometric);
/// // A step along x goes right and down, a step along y right and up.
/// assert_eq!(grid.cell_to_world(Cell::new(1, 0)), Vec2::new(32.0, -16.0));
/// assert_eq!(grid.cell_to_world(Cell::new(0, 1)), Vec2::new(32.0, 16.0));
/// assert_eq!(grid.world_to_cell(Vec2::new(60.0, 0.0)), Some(Cell::new(1, 1)));
/// // The diamond of cell (0, 0) ends half a tile left of its centre.
/// assert_eq!(grid.world_to_cell(Vec2::new(-31.0, 0.0)), Some(Cell::new(0, 0)));
/// assert_eq!(grid.world_to_cell(Vec2::new(-33.0, 0.0)), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Default, Debug, PartialEq, Hash)]
pub enum GridLayout {
    /// Axis-aligned rectangles: cell `(x, y)` lies `x` tile widths right of and `y` tile
    /// heights above cell `(0, 0)`. bevy_ecs_tilemap's square maps.
    #[default]
    Square,
    /// Diamonds `tile_size` wide and high, as bevy_ecs_tilemap draws isometric maps: a
    /// step along x moves `(w / 2, -h / 2)` in the world, a step along y `(w / 2, h / 2)`.
    /// Isometric diamond maps, and staggered ones, whose tiles the plugin converts to
    /// these cells (see [`crate::tilemap`]).
    Isometric,
    /// Hexagons, cell `(x, y)` being bevy_ecs_tilemap's `TilePos { x, y }` in the
    /// tilemap's coordinate system (one [`HexLayout`] per `HexCoordSystem`). Tile
    /// centres are `tile_size` apart as bevy_ecs_tilemap puts them: `tile_size.x` along a
    /// row with rows `3/4 tile_size.y` apart (row layouts, pointy top), or the other way
    /// round (column layouts, flat top).
    Hex(HexLayout),
}

impl GridLayout {
    /// The shape of the cells: [`GridShape::Hex`] for hexagons, square otherwise.
    pub const fn shape(self) -> GridShape {
        match self {
            GridLayout::Square | GridLayout::Isometric => GridShape::Square,
            GridLayout::Hex(layout) => GridShape::Hex(layout),
        }
    }
}

/// A grid's placement: its layout, the centre of cell `(0, 0)` and the tile size, with
/// the maps between the world and the steering plane worked out once.
///
/// The steering plane is the world with the cells made squares again: on square maps it
/// *is* the world; on isometric maps it shares the origin, and a cell is a square whose
/// side is the world length of a step along a grid axis, `|(w / 2, h / 2)|`. Steering
/// moves units in it, so that walls are cell edges and distances count the same along
/// both grid axes. On hexagonal maps it is the world too, and a tile's side in it is the
/// distance between neighbouring centres.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
pub(crate) struct Placement {
    pub(crate) origin: Vec2,
    pub(crate) tile_size: Vec2,
    pub(crate) layout: GridLayout,
    /// Distance between neighbouring cell centres in the plane, per axis.
    plane_tile: Vec2,
    /// Plane offsets to world offsets (isometric layout only).
    to_world: Mat2,
    /// World offsets to plane offsets: the inverse of `to_world`.
    to_plane: Mat2,
}

impl Placement {
    /// The placement of cell `(0, 0)`'s centre at `origin`, with tiles of `tile_size`
    /// laid out as `layout`.
    pub(crate) fn new(origin: Vec2, tile_size: Vec2, layout: GridLayout) -> Self {
        let (plane_tile, to_world) = match layout {
            GridLayout::Square => (tile_size, Mat2::IDENTITY),
            GridLayout::Isometric => {
                let half = tile_size * 0.5;
                let side = half.length();
                let axes = Mat2::from_cols(Vec2::new(half.x, -half.y), half);
                (Vec2::splat(side), axes * (1.0 / side))
            }
            GridLayout::Hex(layout) => {
                let step = if is_row(layout) {
                    tile_size.x
                } else {
                    tile_size.y
                };
                (Vec2::splat(step), Mat2::IDENTITY)
            }
        };
        Self {
            origin,
            tile_size,
            layout,
            plane_tile,
            to_world,
            to_plane: to_world.inverse(),
        }
    }

    /// Whether both placements are the same bit for bit (so that a NaN placement set
    /// again is no change).
    pub(crate) fn same_bits(&self, other: &Self) -> bool {
        let bits = |v: Vec2| [v.x.to_bits(), v.y.to_bits()];
        bits(self.origin) == bits(other.origin)
            && bits(self.tile_size) == bits(other.tile_size)
            && self.layout == other.layout
    }

    /// The plane position of the world position `world`.
    #[inline]
    pub(crate) fn plane_of(&self, world: Vec2) -> Vec2 {
        match self.layout {
            GridLayout::Square | GridLayout::Hex(_) => world,
            GridLayout::Isometric => self.origin + self.to_plane * (world - self.origin),
        }
    }

    /// The world position of the plane position `plane`.
    #[inline]
    pub(crate) fn world_of(&self, plane: Vec2) -> Vec2 {
        match self.layout {
            GridLayout::Square | GridLayout::Hex(_) => plane,
            GridLayout::Isometric => self.origin + self.to_world * (plane - self.origin),
        }
    }

    /// Distance between neighbouring cell centres in the plane, per axis.
    #[inline]
    pub(crate) fn plane_tile(&self) -> Vec2 {
        self.plane_tile
    }

    /// The plane position of `cell`'s centre (cells off the map are extrapolated).
    #[inline]
    pub(crate) fn plane_center(&self, cell: Cell) -> Vec2 {
        let GridLayout::Hex(layout) = self.layout else {
            return self.origin + Vec2::new(cell.x as f32, cell.y as f32) * self.plane_tile;
        };
        // Where bevy_ecs_tilemap's `TilePos::center_in_world` puts the tile.
        let hex = layout.hex(cell.x, cell.y);
        let (q, r) = (hex.q as f32, hex.r as f32);
        let g = self.tile_size;
        let offset = if is_row(layout) {
            Vec2::new(g.x * (q + 0.5 * r), 0.75 * g.y * r)
        } else {
            Vec2::new(0.75 * g.x * q, g.y * (0.5 * q + r))
        };
        self.origin + offset
    }

    /// The cell containing the plane position `plane`, on the map or not (coordinates
    /// saturate at the `i32` range); `None` when `plane` is not finite.
    #[inline]
    pub(crate) fn plane_cell(&self, plane: Vec2) -> Option<Cell> {
        if let GridLayout::Hex(layout) = self.layout {
            return hex_cell(layout, plane - self.origin, self.tile_size);
        }
        let local = (plane - self.origin) / self.plane_tile + Vec2::splat(0.5);
        if !local.is_finite() {
            return None;
        }
        let f = local.floor();
        Some(Cell::new(f.x as i32, f.y as i32))
    }

    /// The six world corners of the hexagon of `cell`, scaled by `scale` around its
    /// centre (1: the hexagon bevy_ecs_tilemap draws the tile in), closed (the first
    /// corner again at the end); `None` on maps that are not hexagonal.
    #[cfg_attr(not(feature = "debug"), allow(dead_code))]
    pub(crate) fn hex_outline(&self, cell: Cell, scale: f32) -> Option<[Vec2; 7]> {
        let GridLayout::Hex(layout) = self.layout else {
            return None;
        };
        let centre = self.plane_center(cell);
        let g = self.tile_size * scale;
        // Row layouts: flat sides `g.x` apart, corner to corner `g.y`; columns the other
        // way round.
        let (turn, radius) = if is_row(layout) {
            (
                std::f32::consts::FRAC_PI_6,
                Vec2::new(g.x / (2.0 * HALF_SQRT_3), g.y * 0.5),
            )
        } else {
            (0.0, Vec2::new(g.x * 0.5, g.y / (2.0 * HALF_SQRT_3)))
        };
        Some(std::array::from_fn(|i| {
            let angle = std::f32::consts::FRAC_PI_3 * (i % 6) as f32 + turn;
            centre + Vec2::new(angle.cos(), angle.sin()) * radius
        }))
    }

    /// The world corners of the plane rectangle centred at `plane` with half sides
    /// `half`, closed (the first corner again at the end): a rectangle on square and
    /// hexagonal maps, a diamond on isometric ones.
    #[cfg_attr(not(feature = "debug"), allow(dead_code))]
    pub(crate) fn world_outline(&self, plane: Vec2, half: Vec2) -> [Vec2; 5] {
        let corner = |x: f32, y: f32| self.world_of(plane + Vec2::new(x, y) * half);
        let first = corner(-1.0, -1.0);
        [
            first,
            corner(1.0, -1.0),
            corner(1.0, 1.0),
            corner(-1.0, 1.0),
            first,
        ]
    }
}

/// True for the layouts whose tiles touch along rows (pointy-top hexagons).
fn is_row(layout: HexLayout) -> bool {
    matches!(
        layout,
        HexLayout::Row | HexLayout::RowEven | HexLayout::RowOdd
    )
}

/// The tile whose hexagon holds the offset `p` from tile `(0, 0)`'s centre, as
/// bevy_ecs_tilemap's `TilePos::from_world_pos` finds it (cube rounding of the axial
/// coordinates), on the map or not; `None` when `p` is not finite or absurdly far.
fn hex_cell(layout: HexLayout, p: Vec2, g: Vec2) -> Option<Cell> {
    let (q, r) = if is_row(layout) {
        let r = p.y / (0.75 * g.y);
        (p.x / g.x - 0.5 * r, r)
    } else {
        let q = p.x / (0.75 * g.x);
        (q, p.y / g.y - 0.5 * q)
    };
    if !(q.is_finite() && r.is_finite()) || q.abs() > 1e9 || r.abs() > 1e9 {
        return None;
    }
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    let (x, y) = layout.position(Hex::new(rq as i32, rr as i32));
    Some(Cell::new(x, y))
}
