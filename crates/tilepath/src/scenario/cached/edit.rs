//! Incremental edits of a cached map: obstacles and terrain, applied to every built layer.

use super::{CachedScenario, LoggedEdit};
use crate::grid::{Cell, GridSize};
use crate::scenario::clearance;
use crate::scenario::profile::TerrainId;
use crate::scenario::rect::CellRect;
use crate::shape::GridShape;

/// One edit of a [`CachedScenario`].
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapEdit {
    /// Sets (`true`) or clears the obstacle bit of a cell.
    Obstacle(Cell, bool),
    /// Sets the terrain id of a cell.
    Terrain(Cell, TerrainId),
}

/// What one batch of edits changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapChange {
    /// Bounding box of the cells whose obstacle bit or terrain id changed.
    pub cells: CellRect,
    /// The scenario generation after the change.
    pub generation: u64,
    /// True when some terrain id changed: step costs may differ even where no cell
    /// became blocked or free.
    pub terrain: bool,
    /// The work of bringing the map up to date: the cells whose clearance or layer
    /// bits were recomputed, plus the cells the components' updates labelled or
    /// searched, the jump-table entries recomputed and the landmark values visited. A
    /// measure of the edit's cost that is the same on every machine (each unit is a few
    /// nanoseconds of work), which an expansion budget can charge.
    pub work: u64,
    /// The shape of the map's grid.
    pub shape: GridShape,
}

impl MapChange {
    /// The cells whose footprint for an agent of `diameter` meets [`MapChange::cells`]
    /// (all of them, and on squares exactly them): the only cells whose freedom for that
    /// diameter may have changed. That is `cells` grown the other way round by the
    /// footprint's [reach](GridShape::reach), clipped to `size` (a diameter of 0 counts
    /// as 1). O(1), never overflows.
    pub fn affected(&self, diameter: u32, size: GridSize) -> CellRect {
        Self::affected_area(self.shape, self.cells, diameter, size)
    }

    pub(super) fn affected_area(
        shape: GridShape,
        cells: CellRect,
        diameter: u32,
        size: GridSize,
    ) -> CellRect {
        let (before, after) = shape.reach(diameter);
        cells.grow_clip(after, before, size)
    }

    /// The cells whose legal moves for an agent of `diameter` an edit of `cell` may
    /// change: those whose freedom may change ([`MapChange::affected`]) and their
    /// neighbours (a move onto a freed cell, a diagonal past a freed corner). For
    /// searches and fields carried over edits. O(1).
    pub(crate) fn moves_area(
        shape: GridShape,
        cell: Cell,
        diameter: u32,
        size: GridSize,
    ) -> CellRect {
        Self::affected_area(shape, CellRect::from_cell(cell), diameter, size).expand_clip(1, size)
    }
}

impl CachedScenario {
    /// Sets one obstacle; see [`CachedScenario::apply_edits`].
    pub fn set_obstacle(&mut self, cell: Cell, blocked: bool) -> Option<MapChange> {
        self.apply_edits([MapEdit::Obstacle(cell, blocked)])
    }

    /// Sets one cell's terrain; see [`CachedScenario::apply_edits`].
    pub fn set_terrain(&mut self, cell: Cell, terrain: TerrainId) -> Option<MapChange> {
        self.apply_edits([MapEdit::Terrain(cell, terrain)])
    }

    /// Applies obstacle edits in order; see [`CachedScenario::apply_edits`].
    pub fn apply(&mut self, edits: impl IntoIterator<Item = (Cell, bool)>) -> Option<MapChange> {
        self.apply_edits(edits.into_iter().map(|(c, b)| MapEdit::Obstacle(c, b)))
    }

    /// Applies obstacle and terrain edits in order; returns what changed, or `None` when
    /// no edit changed anything (edits off the map or equal to the current state are
    /// ignored). A batch that changes a cell and then changes it back still counts.
    ///
    /// What is local and what is not, with `B` a box of changed cells: the changed
    /// cells are grouped into boxes at least 126 cells apart on one axis (at most 16;
    /// more, or boxes that would cost more than one box around all the changed cells,
    /// make that one box), and each box is brought up to date in turn:
    ///
    /// - True clearance (the map's, and that of each profile that blocks terrain and has
    ///   a built layer): exactly the cells of `B` grown by `CLEARANCE_CAP - 1` toward
    ///   −x and −y are recomputed, O((w(B) + 62) × (h(B) + 62)).
    /// - Layer bits, per built layer of diameter `d`: exactly
    ///   [`MapChange::affected`]`(d)` is re-tested, O((w(B) + d) × (h(B) + d)).
    /// - Weights: a terrain edit changes step costs at once (searches read the terrain
    ///   ids directly); each profile's smallest and uniform weight is recomputed from
    ///   per-terrain cell counts, O(256) per profile.
    /// - Components, per built layer: local for most edits, see
    ///   [`Components::update`](crate::scenario::Components::update). A cluster of
    ///   flipped cells is settled from the ring of cells around it, or from short
    ///   searches around it, when it cannot split or join components, or splits off a
    ///   small part; otherwise every component that holds a cell whose freedom changed,
    ///   or a free 4-neighbour of one, is flooded again with a fresh label:
    ///   O(width × height) per built layer on a mostly open map. When fresh labels would
    ///   run out, everything is relabelled, also O(width × height). A terrain edit that
    ///   changes only weights floods nothing.
    ///
    /// Allocates the terrain ids (1 byte per cell) on the first terrain other than 0,
    /// and one list of flipped cells and one of boxes per call; flood stacks are kept
    /// between calls.
    pub fn apply_edits(&mut self, edits: impl IntoIterator<Item = MapEdit>) -> Option<MapChange> {
        let mut bbox: Option<CellRect> = None;
        let mut areas: Vec<CellRect> = Vec::new();
        let mut obstacles = false;
        let mut terrain = false;
        let mut reweighed: Vec<Cell> = Vec::new();
        for edit in edits {
            let cell = match edit {
                MapEdit::Obstacle(cell, blocked) => {
                    if !self.size.contains(cell) || self.base.get_or(cell, true) == blocked {
                        continue;
                    }
                    self.base.set(cell, blocked);
                    self.log.record(LoggedEdit {
                        generation: self.generation + 1,
                        cell,
                        terrain: false,
                    });
                    obstacles = true;
                    cell
                }
                MapEdit::Terrain(cell, id) => {
                    if !self.size.contains(cell) || self.terrain(cell) == id {
                        continue;
                    }
                    if self.terrain.is_empty() {
                        self.terrain = vec![0; self.size.area()];
                    }
                    let i = self.size.index(cell);
                    self.terrain_counts[self.terrain[i] as usize] -= 1;
                    self.terrain_counts[id as usize] += 1;
                    self.terrain[i] = id;
                    self.log.record(LoggedEdit {
                        generation: self.generation + 1,
                        cell,
                        terrain: true,
                    });
                    terrain = true;
                    reweighed.push(cell);
                    cell
                }
            };
            match bbox.as_mut() {
                Some(b) => b.include(cell),
                None => bbox = Some(CellRect::from_cell(cell)),
            }
            include_in_areas(&mut areas, cell);
        }
        let mut change = MapChange {
            cells: bbox?,
            generation: self.generation + 1,
            terrain,
            work: 0,
            shape: self.shape,
        };
        let areas = settle_areas(self.shape, areas, change.cells, self.size);
        if obstacles {
            for &area in &areas {
                change.work +=
                    clearance::update_for(self.shape, &self.base, &mut self.clearance, area)
                        .cell_count();
            }
        }
        if terrain {
            self.refresh_profile_weights();
        }
        let mut changed = Vec::new();
        for slot in self.profiles.iter_mut().flatten() {
            // Weight-only terrain edits leave the freedom of cells alone.
            if obstacles || (terrain && slot.profile.blocks_any()) {
                for &area in &areas {
                    change.work += slot.update(
                        self.shape,
                        &self.base,
                        &self.clearance,
                        &self.terrain,
                        area,
                        &mut changed,
                    );
                }
            }
            if terrain {
                change.work += slot.reweigh(self.size, &self.terrain, &reweighed);
            }
        }
        self.generation = change.generation;
        Some(change)
    }
}

/// Cells between two edited areas below which they are brought up to date together: an
/// edit changes the clearance of cells up to `CLEARANCE_CAP - 1` away and the layer bits
/// of cells a footprint away, so areas farther apart than this never touch one another's
/// cells or read them.
const AREA_GAP: i32 = 2 * clearance::CLEARANCE_CAP as i32;

/// The most separate areas one call updates; a call with edits in more places updates
/// their bounding box.
const MAX_AREAS: usize = 16;

/// Adds `cell` to the area it lies within [`AREA_GAP`] of, or starts a new one.
fn include_in_areas(areas: &mut Vec<CellRect>, cell: Cell) {
    if areas.len() > MAX_AREAS {
        return;
    }
    match areas
        .iter_mut()
        .find(|a| near(**a, CellRect::from_cell(cell)))
    {
        Some(area) => area.include(cell),
        None => areas.push(CellRect::from_cell(cell)),
    }
}

/// True when `a` and `b` are less than [`AREA_GAP`] cells apart on both axes.
fn near(a: CellRect, b: CellRect) -> bool {
    let apart = |lo_a: i32, hi_a: i32, lo_b: i32, hi_b: i32| {
        i64::from(lo_b) - i64::from(hi_a) >= i64::from(AREA_GAP)
            || i64::from(lo_a) - i64::from(hi_b) >= i64::from(AREA_GAP)
    };
    !(apart(a.min.x, a.max.x, b.min.x, b.max.x) || apart(a.min.y, a.max.y, b.min.y, b.max.y))
}

/// The areas one call brings up to date, one after the other: the edited areas, merged
/// until no two are near each other (so that updating one never reads or writes the
/// cells of another), when that is less work than their bounding box `all`; `all`
/// otherwise.
fn settle_areas(
    shape: GridShape,
    mut areas: Vec<CellRect>,
    all: CellRect,
    size: GridSize,
) -> Vec<CellRect> {
    if areas.len() > MAX_AREAS {
        return vec![all];
    }
    let mut merged = true;
    while merged {
        merged = false;
        'outer: for i in 0..areas.len() {
            for j in i + 1..areas.len() {
                if near(areas[i], areas[j]) {
                    let b = areas.swap_remove(j);
                    areas[i].include(b.min);
                    areas[i].include(Cell::new(b.max.x - 1, b.max.y - 1));
                    merged = true;
                    break 'outer;
                }
            }
        }
    }
    let work = |a: CellRect| clearance::affected_for(shape, a, size).cell_count();
    if areas.iter().map(|&a| work(a)).sum::<u64>() < work(all) {
        areas
    } else {
        vec![all]
    }
}
