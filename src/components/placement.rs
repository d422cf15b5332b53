//! Where a grid's cells lie in the world: square or isometric, and the steering plane.

use bevy::prelude::*;

use crate::grid::Cell;

/// How the cells of a [`NavGrid`](super::NavGrid) are drawn in the world.
///
/// Whatever the layout, a cell has the same 8 neighbours (cell `(x, y)` and
/// `(x ± 1, y ± 1)`) and paths cost the same: the layout only places the cells.
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
}

/// A grid's placement: its layout, the centre of cell `(0, 0)` and the tile size, with
/// the maps between the world and the steering plane worked out once.
///
/// The steering plane is the world with the cells made squares again: on square maps it
/// *is* the world; on isometric maps it shares the origin, and a cell is a square whose
/// side is the world length of a step along a grid axis, `|(w / 2, h / 2)|`. Steering
/// moves units in it, so that walls are cell edges and distances count the same along
/// both grid axes.
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
            GridLayout::Square => world,
            GridLayout::Isometric => self.origin + self.to_plane * (world - self.origin),
        }
    }

    /// The world position of the plane position `plane`.
    #[inline]
    pub(crate) fn world_of(&self, plane: Vec2) -> Vec2 {
        match self.layout {
            GridLayout::Square => plane,
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
        self.origin + Vec2::new(cell.x as f32, cell.y as f32) * self.plane_tile
    }

    /// The cell containing the plane position `plane`, on the map or not (coordinates
    /// saturate at the `i32` range); `None` when `plane` is not finite.
    #[inline]
    pub(crate) fn plane_cell(&self, plane: Vec2) -> Option<Cell> {
        let local = (plane - self.origin) / self.plane_tile + Vec2::splat(0.5);
        if !local.is_finite() {
            return None;
        }
        let f = local.floor();
        Some(Cell::new(f.x as i32, f.y as i32))
    }

    /// The world corners of the plane rectangle centred at `plane` with half sides
    /// `half`, closed (the first corner again at the end): a rectangle on square maps, a
    /// diamond on isometric ones.
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
