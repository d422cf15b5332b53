//! Cells that became passable or cheaper, kept until every path saw them, and which can shorten a path.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::components::{FoundPath, NavGrid, NavGridChanged};
use crate::grid::{Cell, Connectivity, Cost, DIAGONAL, STRAIGHT, cost_to_f64};
use crate::pipeline::repair::cannot_shorten;
use crate::scenario::{CellRect, ProfileId, Scenario};
use crate::shape::GridShape;

/// A lower bound (fixed point) on the cost of the cheapest way from `cell` to the
/// nearest cell of `rect` on an open map of weight 1: the octile distance on squares,
/// the king-move distance on hexagons (a hexagonal step moves a tile at most one column
/// and one row).
fn to_rect(shape: GridShape, cell: Cell, rect: CellRect) -> Cost {
    let clamp = |v: i32, lo: i32, hi: i32| v.clamp(lo, (hi - 1).max(lo));
    let near = Cell::new(
        clamp(cell.x, rect.min.x, rect.max.x),
        clamp(cell.y, rect.min.y, rect.max.y),
    );
    match shape {
        GridShape::Square => Connectivity::Octile.heuristic(cell, near),
        GridShape::Hex(_) => Cost::from(cell.chebyshev(near)) * STRAIGHT,
    }
}

/// The anchor cells of an agent of `diameter` whose footprint may cover `cell`: exactly
/// those on squares, a rectangle holding them on hexagons.
pub(crate) fn anchors_over(shape: GridShape, cell: Cell, diameter: u32) -> CellRect {
    let (before, after) = shape.reach(diameter);
    let c = |v: i32, by: i64| {
        (i64::from(v) + by).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    };
    CellRect {
        min: Cell::new(c(cell.x, -after), c(cell.y, -after)),
        max: Cell::new(c(cell.x, before + 1), c(cell.y, before + 1)),
    }
}

/// What a shortcut check needs to know of a unit besides its path.
pub(crate) struct Walker<'a> {
    pub(crate) grid: &'a NavGrid,
    /// The index in the path of the unit's anchor cell, when the unit stands on its path.
    pub(crate) on: Option<usize>,
    pub(crate) diameter: u32,
    pub(crate) connectivity: Connectivity,
}

/// The openings of one layer (profile, diameter) and move set that may shorten a path.
#[derive(Default)]
pub(crate) struct Openings {
    /// Cells with the generation of their change: obstacles removed that free at least one
    /// cell of the layer and that [`cannot_shorten`] does not rule out, and every cell
    /// whose terrain changed.
    cells: Vec<(u64, Cell)>,
    /// Per change with such cells: its generation, their bounding box and their range in
    /// `cells`.
    areas: Vec<(u64, CellRect, Range<usize>)>,
}

/// Openings kept at most: beyond, they are forgotten (see [`Opened::collect`]).
const MAX_OPENINGS: usize = 16_384;

/// The cells the logged changes opened or made cheaper, sorted by layer, kept until
/// every answered request has been reviewed against them ([`Opened::forget`]).
#[derive(Default)]
pub(crate) struct Opened {
    /// Obstacle cells the log removed that are free now, with their change's generation.
    cells: Vec<(u64, Cell)>,
    set: HashSet<Cell>,
    /// Cells whose terrain changed, with their change's generation.
    terrain: Vec<(u64, Cell)>,
    /// Per (profile, diameter, octile moves): what may shorten a path.
    layers: HashMap<(ProfileId, u32, bool), Openings>,
    /// Nearest reachable cell to a partial path's requested goal on the current map, by
    /// (profile, diameter, component, requested goal).
    nearest: HashMap<(ProfileId, u32, u32, Cell), Option<Cell>>,
    /// The newest generation of the openings forgotten for want of room: a path that has
    /// not seen it may be shortened anywhere.
    overflow: u64,
}

impl Opened {
    /// Adds the cells of `log` that became passable or whose terrain changed to those
    /// kept. Beyond [`MAX_OPENINGS`] of them, all are forgotten and [`Opened::shortcut`]
    /// answers true for every path that had not seen them.
    pub(crate) fn collect(&mut self, log: &[NavGridChanged], grid: &NavGrid) {
        let edited = log
            .iter()
            .any(|c| !c.cells.is_empty() || !c.terrain.is_empty());
        if !edited {
            return;
        }
        self.nearest.clear(); // reachability changed
        let (cells, terrain) = (self.cells.len(), self.terrain.len());
        for change in log {
            let opened = change
                .cells
                .iter()
                .filter(|&&c| !grid.scenario().is_obstacle(c));
            self.cells.extend(opened.map(|&c| (change.generation, c)));
            self.terrain
                .extend(change.terrain.iter().map(|&c| (change.generation, c)));
        }
        if self.cells.len() + self.terrain.len() > MAX_OPENINGS {
            let newest = self.cells.iter().chain(&self.terrain).map(|&(g, _)| g);
            self.overflow = self.overflow.max(newest.max().unwrap_or(0));
            self.cells.clear();
            self.terrain.clear();
            self.set.clear();
            self.layers.clear();
            return;
        }
        self.set.extend(self.cells[cells..].iter().map(|&(_, c)| c));
        // The layers in use judge the new openings on this frame's map (an opening
        // that cannot shorten a path then cannot later either: walls only lengthen
        // paths, and later openings are judged themselves).
        let keys: Vec<_> = self.layers.keys().copied().collect();
        for key in keys {
            let kept = self.openings(grid, key, &self.cells[cells..], &self.terrain[terrain..]);
            if let Some(layer) = self.layers.get_mut(&key) {
                layer.cells.extend(kept);
                layer.areas = areas(&layer.cells);
            }
        }
    }

    /// Forgets the openings of generation `floor` or older: every request has seen them.
    pub(crate) fn forget(&mut self, floor: u64) {
        let before = self.cells.len() + self.terrain.len();
        self.cells.retain(|&(g, _)| g > floor);
        self.terrain.retain(|&(g, _)| g > floor);
        if self.overflow <= floor {
            self.overflow = 0;
        }
        if self.cells.len() + self.terrain.len() != before {
            self.set.clear();
            self.set.extend(self.cells.iter().map(|&(_, c)| c));
            for layer in self.layers.values_mut() {
                layer.cells.retain(|&(g, _)| g > floor);
                layer.areas = areas(&layer.cells);
            }
        }
    }

    /// True when nothing was opened or made cheaper.
    pub(crate) fn is_empty(&self) -> bool {
        self.cells.is_empty() && self.terrain.is_empty()
    }

    /// True when `cell` is an obstacle cell that an edit kept here removed.
    pub(crate) fn contains(&self, cell: Cell) -> bool {
        self.set.contains(&cell)
    }

    /// The openings that may shorten a path on the layer of `profile` and `diameter` with
    /// `connectivity`, computed at its first use and kept up to date from then on.
    fn layer(
        &mut self,
        grid: &NavGrid,
        profile: ProfileId,
        diameter: u32,
        connectivity: Connectivity,
    ) -> &Openings {
        let octile = connectivity == Connectivity::Octile;
        let key = (profile, diameter, octile);
        if !self.layers.contains_key(&key) {
            let cells = self.openings(grid, key, &self.cells, &self.terrain);
            let areas = areas(&cells);
            self.layers.insert(key, Openings { cells, areas });
        }
        &self.layers[&key]
    }

    /// Of the opened `cells` and the `terrain` cells, those that may shorten a path on
    /// the layer of `key`, by generation.
    fn openings(
        &self,
        grid: &NavGrid,
        (profile, diameter, octile): (ProfileId, u32, bool),
        cells: &[(u64, Cell)],
        terrain: &[(u64, Cell)],
    ) -> Vec<(u64, Cell)> {
        let scenario = grid.scenario();
        let (Some(layer), Some(weights)) = (
            scenario.layer_for(profile, diameter),
            scenario.weights(profile),
        ) else {
            return Vec::new();
        };
        // Cells of the layer that a removed obstacle freed.
        let size = grid.size();
        let freed = |a: Cell| {
            !layer.is_blocked(a)
                && layer
                    .shape()
                    .footprint(a, diameter)
                    .grow_clip(0, 0, size)
                    .cells()
                    .any(|c| self.set.contains(&c))
        };
        let mut kept: Vec<(u64, Cell)> = Vec::new();
        for &(generation, c) in cells {
            let anchors = anchors_over(layer.shape(), c, diameter).grow_clip(0, 0, size);
            let mut freed_any = false;
            let mut may_help = false;
            for a in anchors.cells().filter(|&a| !layer.is_blocked(a)) {
                freed_any = true;
                if !cannot_shorten(layer, weights, a, octile, |x| x != a && freed(x)) {
                    may_help = true;
                    break;
                }
            }
            if freed_any && may_help {
                kept.push((generation, c));
            }
        }
        kept.extend(terrain.iter().copied());
        kept.sort_by_key(|&(generation, _)| generation);
        kept
    }

    /// True when a cell opened after generation `since` (when `path` was planned or last
    /// reviewed) could make it cheaper, or when openings it had not seen were forgotten
    /// for want of room (see [`Opened::collect`]): for a path
    /// to its goal, when the cheapest conceivable route through an opened cell (octile
    /// distances from the unit to the cell and from the cell to the path's end, times the
    /// profile's smallest weight, less what a diagonal step past the cell's corner saves)
    /// costs less than what is left of the path; for a partial
    /// path, when a reachable cell nearer to the requested goal exists now. Opened
    /// obstacle cells that free no cell of the unit's layer, or that [`cannot_shorten`]
    /// any path, are left out. Each change's bounding box is tried first (against the
    /// path's whole cost, then its remaining cost), its cells only when the box passes.
    pub(crate) fn shortcut(&mut self, path: &FoundPath, walker: &Walker, since: u64) -> bool {
        if since < self.overflow {
            return true;
        }
        if self.is_empty() {
            return false;
        }
        let grid = walker.grid;
        let openings = self.layer(grid, path.profile, walker.diameter, walker.connectivity);
        if !openings
            .areas
            .iter()
            .any(|(generation, ..)| *generation > since)
        {
            return false;
        }
        let scenario = grid.scenario();
        let (Some(layer), Some(weights)) = (
            scenario.layer_for(path.profile, walker.diameter),
            scenario.weights(path.profile),
        ) else {
            return false;
        };
        if path.partial {
            let label = layer.components().label(path.reached);
            if label == 0 {
                return true;
            }
            let key = (path.profile, walker.diameter, label, path.requested);
            let nearest = *self
                .nearest
                .entry(key)
                .or_insert_with(|| layer.nearest_reachable(path.reached, path.requested));
            let d = |c: Cell| {
                layer
                    .shape()
                    .distance(Connectivity::Octile, c, path.requested)
            };
            return nearest.is_some_and(|n| d(n) < d(path.reached));
        }
        let on = walker.on.unwrap_or(0);
        let from = path.cells.get(on).copied().unwrap_or(path.start);
        let goal = path.reached;
        let min_weight = Cost::from(weights.min().max(1));
        // A route may pass an opened cell as the corner of a diagonal step without
        // entering it: its two ends are each one straight step from the cell, so the
        // route costs at least the octile bound through the cell minus two straight steps
        // plus one diagonal.
        let shape = layer.shape();
        let corner = match walker.connectivity {
            Connectivity::Octile if shape.is_square() => (2 * STRAIGHT - DIAGONAL) * min_weight,
            _ => 0,
        };
        let reach = i64::from(walker.diameter / 2);
        let bound = |area: CellRect| {
            let area = CellRect {
                min: Cell::new(
                    (i64::from(area.min.x) - reach) as i32,
                    (i64::from(area.min.y) - reach) as i32,
                ),
                max: Cell::new(
                    (i64::from(area.max.x) + reach) as i32,
                    (i64::from(area.max.y) + reach) as i32,
                ),
            };
            ((to_rect(shape, from, area) + to_rect(shape, goal, area)) * min_weight)
                .saturating_sub(corner)
        };
        let total = f64::from(path.cost);
        let mut remaining: Option<Cost> = None;
        for (generation, area, cells) in &openings.areas {
            if *generation <= since || cost_to_f64(bound(*area)) >= total + 1e-3 {
                continue;
            }
            let remaining = *remaining
                .get_or_insert_with(|| weights.path_cost(&path.cells[on..]).unwrap_or(Cost::MAX));
            if bound(*area) >= remaining {
                continue;
            }
            let helps = openings.cells[cells.clone()].iter().any(|&(_, c)| {
                grid.weight(c, path.profile).is_some()
                    && bound(anchors_over(shape, c, walker.diameter)) < remaining
            });
            if helps {
                return true;
            }
        }
        false
    }
}

/// Per generation of `cells` (sorted by generation): their bounding box and their range.
fn areas(cells: &[(u64, Cell)]) -> Vec<(u64, CellRect, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < cells.len() {
        let generation = cells[start].0;
        let end = start + cells[start..].partition_point(|&(g, _)| g == generation);
        let mut area = CellRect::from_cell(cells[start].1);
        for &(_, c) in &cells[start..end] {
            area.include(c);
        }
        out.push((generation, area, start..end));
        start = end;
    }
    out
}
