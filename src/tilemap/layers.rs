//! What the tilemap sync knows between frames: layers, blocking tiles, counts and terrain.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;

use super::shape::Coverage;
use crate::components::GridLayout;
use crate::grid::{Cell, GridSize};
use crate::scenario::{BitGrid, MapEdit, TerrainId};

/// A cell of a layer's terrain array where no tile defines terrain.
const NO_TERRAIN: u16 = u16::MAX;

/// What the sync knows of one collision layer.
#[derive(Default)]
pub(super) struct LayerInfo {
    /// The cells its map covers.
    pub(super) coverage: Coverage,
    /// The grid that holds them.
    pub(super) size: GridSize,
    /// World `z` of the tilemap: higher layers give the terrain.
    pub(super) z: f32,
    /// Terrain per cell of the layer (row-major over `size`), [`NO_TERRAIN`] where its
    /// tile defines none; empty until a tile of the layer defines terrain.
    pub(super) terrain: Vec<u16>,
}

impl LayerInfo {
    pub(super) fn terrain_at(&self, cell: Cell) -> Option<TerrainId> {
        if !self.size.contains(cell) {
            return None;
        }
        let t = *self.terrain.get(self.size.index(cell))?;
        (t != NO_TERRAIN).then_some(t as TerrainId)
    }

    pub(super) fn set_terrain(&mut self, cell: Cell, terrain: Option<TerrainId>) {
        if !self.size.contains(cell) || (terrain.is_none() && self.terrain.is_empty()) {
            return;
        }
        if self.terrain.is_empty() {
            self.terrain = vec![NO_TERRAIN; self.size.area()];
        }
        self.terrain[self.size.index(cell)] = terrain.map_or(NO_TERRAIN, u16::from);
    }
}

/// What the sync knows between frames.
#[derive(Default)]
pub(crate) struct LayerSync {
    /// Known collision layers.
    pub(super) layers: EntityHashMap<LayerInfo>,
    /// Known layers, topmost first (largest `z`, then highest entity index).
    pub(super) order: Vec<Entity>,
    /// Every blocking tile: its layer and cell.
    pub(super) blocking: EntityHashMap<(Entity, Cell)>,
    /// Every tile that defines terrain: its layer, cell and terrain.
    pub(super) terrain_tiles: EntityHashMap<(Entity, Cell, TerrainId)>,
    /// Number of blocking tiles per cell (row-major over `size`).
    pub(super) counts: Vec<u32>,
    /// Cells no layer's map covers (row-major over `size`): obstacles.
    pub(super) holes: Vec<bool>,
    /// The coverages the holes were worked out from, sorted.
    pub(super) coverages: Vec<Coverage>,
    /// A buffer for this frame's coverages.
    pub(super) next_coverages: Vec<Coverage>,
    /// The grid's layout (its primary layer's).
    pub(super) layout: Option<GridLayout>,
    pub(super) size: GridSize,
    /// Cells whose count changed since the last flush.
    pub(super) touched: Vec<Cell>,
    /// Cells whose terrain may have changed since the last flush.
    pub(super) terrain_touched: Vec<Cell>,
    /// The terrain of every cell must be read again (the layers' order changed).
    pub(super) terrain_all: bool,
    pub(super) rescan: Vec<Entity>,
    pub(super) tiles: Vec<Entity>,
    pub(super) gone: Vec<Entity>,
    pub(super) warned_manual: bool,
}

impl LayerSync {
    pub(super) fn bump(&mut self, cell: Cell, up: bool) {
        if self.size.contains(cell) {
            let count = &mut self.counts[self.size.index(cell)];
            *count = if up {
                count.saturating_add(1)
            } else {
                count.saturating_sub(1)
            };
            self.touched.push(cell);
        }
    }

    /// Records whether `tile` blocks, and where.
    pub(super) fn set_tile(&mut self, tile: Entity, now: Option<(Entity, Cell)>) {
        let before = match now {
            Some(v) => self.blocking.insert(tile, v),
            None => self.blocking.remove(&tile),
        };
        if before == now {
            return;
        }
        if let Some((_, cell)) = before {
            self.bump(cell, false);
        }
        if let Some((_, cell)) = now {
            self.bump(cell, true);
        }
    }

    /// Records which terrain `tile` defines, and where.
    pub(super) fn set_tile_terrain(
        &mut self,
        tile: Entity,
        now: Option<(Entity, Cell, TerrainId)>,
    ) {
        let before = match now {
            Some(v) => self.terrain_tiles.insert(tile, v),
            None => self.terrain_tiles.remove(&tile),
        };
        if before == now {
            return;
        }
        if let Some((layer, cell, _)) = before {
            if let Some(info) = self.layers.get_mut(&layer) {
                info.set_terrain(cell, None);
            }
            self.terrain_touched.push(cell);
        }
        if let Some((layer, cell, terrain)) = now {
            if let Some(info) = self.layers.get_mut(&layer) {
                info.set_terrain(cell, Some(terrain));
            }
            self.terrain_touched.push(cell);
        }
    }

    /// Forgets every blocking and terrain tile of `layer`.
    pub(super) fn forget_layer_tiles(&mut self, layer: Entity) {
        self.tiles.clear();
        self.tiles.extend(
            self.blocking
                .iter()
                .filter(|(_, (l, _))| *l == layer)
                .map(|(tile, _)| *tile),
        );
        let tiles = std::mem::take(&mut self.tiles);
        for &tile in &tiles {
            self.set_tile(tile, None);
        }
        self.tiles = tiles;
        self.tiles.clear();
        self.tiles.extend(
            self.terrain_tiles
                .iter()
                .filter(|(_, (l, ..))| *l == layer)
                .map(|(tile, _)| *tile),
        );
        let tiles = std::mem::take(&mut self.tiles);
        for &tile in &tiles {
            self.set_tile_terrain(tile, None);
        }
        self.tiles = tiles;
    }

    /// The terrain of `cell`: that of the topmost layer defining one there, else 0.
    pub(super) fn terrain(&self, cell: Cell) -> TerrainId {
        self.order
            .iter()
            .filter_map(|layer| self.layers.get(layer))
            .find_map(|info| info.terrain_at(cell))
            .unwrap_or(0)
    }

    /// Sorts the layers topmost first; true when two layers that both define terrain
    /// changed places.
    pub(super) fn reorder(&mut self) -> bool {
        let before: Vec<Entity> = self
            .order
            .iter()
            .copied()
            .filter(|l| self.layers.get(l).is_some_and(|i| !i.terrain.is_empty()))
            .collect();
        self.order.clear();
        self.order.extend(self.layers.keys().copied());
        let layers = &self.layers;
        self.order.sort_unstable_by(|a, b| {
            let (za, zb) = (layers[a].z, layers[b].z);
            zb.total_cmp(&za)
                .then((b.index_u32(), b.to_bits()).cmp(&(a.index_u32(), a.to_bits())))
        });
        let after = self.order.iter().filter(|l| before.contains(l)).copied();
        !after.eq(before.iter().copied())
    }

    /// Recomputes the counts for a new size from the blocking tiles, and the holes from
    /// the layers' coverages.
    pub(super) fn resize(&mut self, size: GridSize) {
        self.holes.clear();
        self.holes.extend(
            (0..size.area()).map(|i| !self.coverages.iter().any(|c| c.covers(size.cell(i)))),
        );
        self.size = size;
        self.counts.clear();
        self.counts.resize(size.area(), 0);
        for (_, cell) in self.blocking.values() {
            if size.contains(*cell) {
                self.counts[size.index(*cell)] += 1;
            }
        }
        self.touched.clear();
    }

    pub(super) fn obstacle_bits(&self) -> BitGrid {
        let mut bits = BitGrid::new(self.size, false);
        for (i, &count) in self.counts.iter().enumerate() {
            if count > 0 || self.holes[i] {
                bits.set(self.size.cell(i), true);
            }
        }
        bits
    }

    /// The cells no layer's map covers, or `None` when every cell is covered.
    pub(super) fn hole_bits(&self) -> Option<BitGrid> {
        let mut bits = BitGrid::new(self.size, false);
        for (i, _) in self.holes.iter().enumerate().filter(|(_, h)| **h) {
            bits.set(self.size.cell(i), true);
        }
        (bits.count_ones() > 0).then_some(bits)
    }

    /// The terrain of every cell, row-major, or `None` when no tile defines any.
    pub(super) fn terrain_grid(&self) -> Option<Vec<TerrainId>> {
        if self.terrain_tiles.is_empty() {
            return None;
        }
        Some(
            (0..self.size.area())
                .map(|i| self.terrain(self.size.cell(i)))
                .collect(),
        )
    }

    /// The map edits of the cells touched since the last flush (all cells' terrain when
    /// the layer order changed); forgets them.
    pub(super) fn take_edits(&mut self) -> Vec<MapEdit> {
        let size = self.size;
        let mut edits: Vec<MapEdit> = self
            .touched
            .drain(..)
            .map(|c| {
                let i = size.index(c);
                MapEdit::Obstacle(c, self.counts[i] > 0 || self.holes[i])
            })
            .collect();
        if std::mem::take(&mut self.terrain_all) {
            self.terrain_touched.clear();
            edits.extend((0..size.area()).map(|i| {
                let c = size.cell(i);
                MapEdit::Terrain(c, self.terrain(c))
            }));
        } else {
            edits.extend(
                self.terrain_touched
                    .iter()
                    .filter(|c| size.contains(**c))
                    .map(|&c| MapEdit::Terrain(c, self.terrain(c))),
            );
            self.terrain_touched.clear();
        }
        edits
    }

    pub(super) fn reset(&mut self) {
        self.layers.clear();
        self.order.clear();
        self.blocking.clear();
        self.terrain_tiles.clear();
        self.counts.clear();
        self.holes.clear();
        self.coverages.clear();
        self.layout = None;
        self.touched.clear();
        self.terrain_touched.clear();
        self.terrain_all = false;
        self.size = GridSize::default();
    }
}
