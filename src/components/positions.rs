//! Where a [`NavGrid`]'s cells and agents are: world and steering-plane positions.

use bevy::prelude::*;

use super::grid::NavGrid;
use super::placement::{GridLayout, Placement};
use crate::grid::Cell;

/// How far from the map, in tiles beyond its width plus height, a position may lie before
/// [`NavGrid::agent_cell_anywhere`] moves it nearer.
const FAR_TILES: f64 = 1.0e6;

impl NavGrid {
    /// The same grid with its cells laid out as `layout` (same origin and tile size).
    pub fn with_layout(mut self, layout: GridLayout) -> Self {
        self.set_layout(layout);
        self
    }

    /// World position of the centre of cell `(0, 0)`.
    #[inline]
    pub fn origin(&self) -> Vec2 {
        self.placement.origin
    }

    /// The size of a tile in the world, per axis: the distance between neighbouring cell
    /// centres on square maps, the width and height of a diamond on isometric ones.
    #[inline]
    pub fn tile_size(&self) -> Vec2 {
        self.placement.tile_size
    }

    /// How the cells are drawn in the world.
    #[inline]
    pub fn layout(&self) -> GridLayout {
        self.placement.layout
    }

    /// The steering-plane position of the world position `world` (see
    /// [Positions of agents](NavGrid#positions-of-agents)): `world` itself on square maps.
    #[inline]
    pub fn world_to_plane(&self, world: Vec2) -> Vec2 {
        self.placement.plane_of(world)
    }

    /// The world position of the steering-plane position `plane`: the inverse of
    /// [`NavGrid::world_to_plane`].
    #[inline]
    pub fn plane_to_world(&self, plane: Vec2) -> Vec2 {
        self.placement.world_of(plane)
    }

    /// Distance between neighbouring cell centres in the steering plane, per axis:
    /// [`NavGrid::tile_size`] on square maps, the world length of a step along a grid
    /// axis on both axes on isometric ones.
    #[inline]
    pub fn plane_tile_size(&self) -> Vec2 {
        self.placement.plane_tile()
    }

    pub(crate) fn placement(&self) -> &Placement {
        &self.placement
    }

    /// The cell containing the world position `p`, or `None` when `p` is off the map or
    /// not finite.
    pub fn world_to_cell(&self, p: Vec2) -> Option<Cell> {
        self.plane_agent_cell(self.placement.plane_of(p), 1)
    }

    /// World position of the centre of `cell` (cells off the map are extrapolated).
    #[inline]
    pub fn cell_to_world(&self, cell: Cell) -> Vec2 {
        self.placement.world_of(self.placement.plane_center(cell))
    }

    /// Plane offset of the centre of an agent of `diameter` from the centre of its anchor
    /// cell: none for odd diameters and on hexagons (a footprint is centred on its tile),
    /// half a tile on x and y for even ones on squares.
    #[inline]
    fn agent_offset(&self, diameter: u32) -> Vec2 {
        let square = self.layout().shape().is_square();
        if square && diameter >= 2 && diameter.is_multiple_of(2) {
            self.placement.plane_tile() * 0.5
        } else {
            Vec2::ZERO
        }
    }

    /// World position of the centre of an agent of `diameter` anchored at `cell` (see
    /// [Positions of agents](NavGrid#positions-of-agents)): the cell's centre for odd
    /// diameters, half a tile up and right of it (in the steering plane) for even ones.
    #[inline]
    pub fn agent_center(&self, cell: Cell, diameter: u32) -> Vec2 {
        self.placement
            .world_of(self.plane_agent_center(cell, diameter))
    }

    /// The anchor cell of an agent of `diameter` whose centre is at the world position
    /// `p` (the inverse of [`NavGrid::agent_center`]), or `None` when that cell is off the
    /// map or `p` is not finite. For diameter 1 this is [`NavGrid::world_to_cell`].
    #[inline]
    pub fn agent_cell(&self, p: Vec2, diameter: u32) -> Option<Cell> {
        self.plane_agent_cell(self.placement.plane_of(p), diameter)
    }

    /// [`NavGrid::agent_center`] in the steering plane.
    #[inline]
    pub(crate) fn plane_agent_center(&self, cell: Cell, diameter: u32) -> Vec2 {
        self.placement.plane_center(cell) + self.agent_offset(diameter)
    }

    /// [`NavGrid::agent_cell`] from a steering-plane position.
    #[inline]
    pub(crate) fn plane_agent_cell(&self, plane: Vec2, diameter: u32) -> Option<Cell> {
        let cell = self.plane_agent_cell_anywhere(plane, diameter)?;
        let size = self.size();
        let on_map = cell.x >= 0
            && cell.y >= 0
            && (cell.x as i64) < i64::from(size.width)
            && (cell.y as i64) < i64::from(size.height);
        on_map.then_some(cell)
    }

    /// The anchor cell of an agent of `diameter` whose centre is at the finite world
    /// position `p`, on the map or not. A position more than [`FAR_TILES`] tiles from
    /// the map is first moved toward the map's centre along the line between them, to
    /// that distance: the cells nearest it lie in the same direction, and every
    /// projection stays finite. `None` only when `p` is not finite.
    pub(crate) fn agent_cell_anywhere(&self, p: Vec2, diameter: u32) -> Option<Cell> {
        if !p.is_finite() {
            return None;
        }
        let size = self.size();
        let centre =
            self.cell_to_world(Cell::new((size.width / 2) as i32, (size.height / 2) as i32));
        let tile = f64::from(self.tile_size().abs().max_element()).max(f64::MIN_POSITIVE);
        let span = f64::from(size.width) + f64::from(size.height);
        let reach = (span + FAR_TILES) * tile;
        let (dx, dy) = (
            f64::from(p.x) - f64::from(centre.x),
            f64::from(p.y) - f64::from(centre.y),
        );
        let length = dx.hypot(dy);
        let p = if length > reach {
            let k = reach / length;
            Vec2::new(
                (f64::from(centre.x) + dx * k) as f32,
                (f64::from(centre.y) + dy * k) as f32,
            )
        } else {
            p
        };
        self.plane_agent_cell_anywhere(self.placement.plane_of(p), diameter)
    }

    /// The anchor cell of an agent of `diameter` centred at the plane position `plane`,
    /// on the map or not (coordinates saturate at the `i32` range); `None` when `plane`
    /// is not finite.
    pub(crate) fn plane_agent_cell_anywhere(&self, plane: Vec2, diameter: u32) -> Option<Cell> {
        self.placement
            .plane_cell(plane - self.agent_offset(diameter))
    }
}
