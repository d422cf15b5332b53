//! Where a tilemap's tiles lie on the grid and in the world, per map type.

use bevy::prelude::*;
use bevy_ecs_tilemap::anchor::TilemapAnchor;
use bevy_ecs_tilemap::map::{
    HexCoordSystem, IsoCoordSystem, TilemapGridSize, TilemapSize, TilemapTileSize, TilemapType,
};
use bevy_ecs_tilemap::tiles::TilePos;

use super::CollisionLayerError;
use crate::components::{GridLayout, Placement};
use crate::grid::{Cell, GridSize};
use crate::shape::HexLayout;

/// The grid layout that models tilemaps of `map_type`: one per map type, hexagonal
/// coordinate systems included.
pub(super) fn layout_of(map_type: TilemapType) -> GridLayout {
    match map_type {
        TilemapType::Square => GridLayout::Square,
        TilemapType::Isometric(_) => GridLayout::Isometric,
        TilemapType::Hexagon(system) => GridLayout::Hex(hex_layout(system)),
    }
}

/// The [`HexLayout`] of bevy_ecs_tilemap's hexagonal coordinate system `system`.
fn hex_layout(system: HexCoordSystem) -> HexLayout {
    match system {
        HexCoordSystem::Row => HexLayout::Row,
        HexCoordSystem::RowEven => HexLayout::RowEven,
        HexCoordSystem::RowOdd => HexLayout::RowOdd,
        HexCoordSystem::Column => HexLayout::Column,
        HexCoordSystem::ColumnEven => HexLayout::ColumnEven,
        HexCoordSystem::ColumnOdd => HexLayout::ColumnOdd,
    }
}

/// Whether a layer of `map_type` can join a grid whose primary layer (the lowest
/// entity index among all collision layers) is of `primary` (`None` before there is
/// one): both must be drawn in the same layout, else a
/// [`CollisionLayerError::LayoutMismatch`].
pub(super) fn fit(
    map_type: TilemapType,
    primary: Option<TilemapType>,
) -> Result<(), CollisionLayerError> {
    match primary {
        Some(primary) if layout_of(primary) != layout_of(map_type) => {
            Err(CollisionLayerError::LayoutMismatch(map_type))
        }
        _ => Ok(()),
    }
}

/// The cells a collision layer's map covers: its tile positions, seen as cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Coverage {
    width: u32,
    height: u32,
    /// Staggered isometric: tile `(x, y)` is cell `(x, x + y)`.
    staggered: bool,
}

impl Coverage {
    /// The coverage of a map of `size` tiles of `map_type`.
    pub(super) fn new(map_type: TilemapType, size: TilemapSize) -> Self {
        Self {
            width: size.x,
            height: size.y,
            staggered: map_type == TilemapType::Isometric(IsoCoordSystem::Staggered),
        }
    }

    /// The smallest grid that holds every covered cell.
    pub(super) fn bounds(&self) -> GridSize {
        if self.staggered && self.width > 0 && self.height > 0 {
            GridSize::new(self.width, self.width.saturating_add(self.height - 1))
        } else {
            GridSize::new(self.width, self.height)
        }
    }

    /// The cell of the tile at `(x, y)`.
    pub(super) fn cell(&self, x: u32, y: u32) -> Cell {
        let x = i32::try_from(x).unwrap_or(i32::MAX);
        let y = i32::try_from(y).unwrap_or(i32::MAX);
        if self.staggered {
            Cell::new(x, x.saturating_add(y))
        } else {
            Cell::new(x, y)
        }
    }

    /// True when a tile of the map lies on `cell`.
    pub(super) fn covers(&self, cell: Cell) -> bool {
        let y = if self.staggered {
            i64::from(cell.y) - i64::from(cell.x)
        } else {
            i64::from(cell.y)
        };
        cell.x >= 0
            && i64::from(cell.x) < i64::from(self.width)
            && y >= 0
            && y < i64::from(self.height)
    }
}

/// What places a layer in the world.
pub(super) struct Projection<'a> {
    pub(super) map_type: TilemapType,
    pub(super) map_size: TilemapSize,
    pub(super) grid_size: Option<&'a TilemapGridSize>,
    pub(super) tile_size: Option<&'a TilemapTileSize>,
    pub(super) anchor: Option<&'a TilemapAnchor>,
}

impl Projection<'_> {
    /// The grid's placement when this layer, whose world transform is `global`, places
    /// it: the centre of cell (0, 0) where bevy_ecs_tilemap draws tile (0, 0), the
    /// tilemap's grid size as the tile size, both through `global` (translation and
    /// scale).
    pub(super) fn placement(&self, global: GlobalTransform) -> Placement {
        let map_size = TilemapSize::new(self.map_size.x.max(1), self.map_size.y.max(1));
        let tile_size = self
            .tile_size
            .copied()
            .unwrap_or(TilemapTileSize::new(1.0, 1.0));
        let grid_size = self.grid_size.copied().unwrap_or_else(|| tile_size.into());
        let anchor = self.anchor.copied().unwrap_or_default();
        let local = TilePos::new(0, 0).center_in_world(
            &map_size,
            &grid_size,
            &tile_size,
            &self.map_type,
            &anchor,
        );
        let scale = global.scale().truncate();
        Placement::new(
            global.transform_point(local.extend(0.0)).truncate(),
            scale * Vec2::from(grid_size),
            layout_of(self.map_type),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staggered_tiles_are_diamond_cells_as_bevy_ecs_tilemap_projects_them() {
        let staggered = TilemapType::Isometric(IsoCoordSystem::Staggered);
        let diamond = TilemapType::Isometric(IsoCoordSystem::Diamond);
        let size = TilemapSize::new(5, 3);
        let grid = TilemapGridSize::new(64.0, 32.0);
        let tile = TilemapTileSize::new(64.0, 32.0);
        let coverage = Coverage::new(staggered, size);
        assert_eq!(coverage.bounds(), GridSize::new(5, 7));
        let anchor = TilemapAnchor::None;
        for (x, y) in (0..5).flat_map(|x| (0..3).map(move |y| (x, y))) {
            let cell = coverage.cell(x, y);
            assert!(coverage.covers(cell));
            // The diamond tile at the cell's coordinates is drawn where the staggered
            // tile is.
            let at = TilePos::new(x, y).center_in_world(&size, &grid, &tile, &staggered, &anchor);
            let big = TilemapSize::new(5, 7);
            let same = TilePos::new(cell.x as u32, cell.y as u32)
                .center_in_world(&big, &grid, &tile, &diamond, &anchor);
            assert!(at.distance(same) < 1e-3, "tile ({x}, {y})");
        }
        let covered = (0..5)
            .flat_map(|x| (0..7).map(move |y| Cell::new(x, y)))
            .filter(|&c| coverage.covers(c))
            .count();
        assert_eq!(covered, 15, "one cell per tile");
    }
}
