//! Distance fields: one exact Dijkstra from a shared goal that answers every unit sent there.

use super::carry;
use super::heap::IndexedHeap;
use super::query::PathError;
use crate::grid::{Cell, Cost, Direction, GridSize};
use crate::scenario::{CachedScenario, Layer, ProfileId, Weights};
use crate::shape::{GridShape, Hexagons, Shape, Squares};

/// Flag bit of a settled distance (its value is final).
const SETTLED: Cost = 1 << 63;
/// An unreached cell.
const UNKNOWN: Cost = Cost::MAX >> 1;

/// The exact travel cost from every cell to one goal, for agents of one diameter and
/// profile: a Dijkstra run backwards from the goal (step costs are symmetric), grown in
/// slices and read by descending it.
///
/// When many units share a goal, one field replaces one search per unit: a unit's path
/// is read off the field by following, from its cell, the direction each settled cell
/// keeps toward the neighbour that gave it its distance, O(path length), and costs
/// exactly what its own optimal search would. The field only needs to grow until every waiting unit's cell is settled
/// ([`DistanceField::is_settled`]).
///
/// Memory: 9 bytes per cell (distance and direction) plus the open list (4 bytes per cell
/// of heap positions and 16 bytes per open cell); about 13 bytes per cell, 3.3 MiB at
/// 512 × 512.
/// A field is tied to the map generation it was built on ([`DistanceField::generation`]);
/// after obstacle and terrain edits [`DistanceField::carry_over`] brings it up to date,
/// exactly.
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::search::DistanceField;
/// use tilepath::scenario::ProfileId;
///
/// let map = CachedScenario::from_ascii("
///     ......
///     .####.
///     ......
/// ").unwrap();
/// let mut field = DistanceField::new(&map, Cell::new(5, 1), ProfileId::DEFAULT, 1).unwrap();
/// while !field.grow(&map, 10) {}
/// let mut path = Vec::new();
/// let cost = field.path_from(&map, Cell::new(0, 1), &mut path).unwrap();
/// let mut pf = Pathfinder::new();
/// assert_eq!(cost, pf.find(&map, &PathQuery::new(Cell::new(0, 1), Cell::new(5, 1))).unwrap().cost);
/// assert_eq!(path.last(), Some(&Cell::new(5, 1)));
/// ```
#[derive(Clone, Debug)]
pub struct DistanceField {
    goal: Cell,
    profile: ProfileId,
    diameter: u32,
    generation: u64,
    /// [`CachedScenario::id`] of the map it grows on.
    map: u64,
    size: GridSize,
    dist: Vec<Cost>,
    /// Per cell: the direction toward the neighbour its distance came from.
    toward: Vec<u8>,
    open: IndexedHeap,
    done: bool,
    expanded: u64,
    /// Settled cells may be opened again: the field was carried over map edits.
    reopen: bool,
    /// Scratch of [`DistanceField::carry_over`].
    forgotten: Vec<u32>,
    /// Carry-overs that took back at least as much as the field had grown since the
    /// one before (see [`DistanceField::edit_setbacks`]).
    setbacks: u32,
    /// `expanded` at the last carry-over.
    mark: u64,
}

impl DistanceField {
    /// A field toward `goal` for agents of `diameter` moving with `profile`, with only
    /// the goal settled-to-be. Allocates its per-cell buffers, O(width × height).
    ///
    /// # Errors
    ///
    /// [`PathError::UnknownProfile`], [`PathError::InvalidDiameter`],
    /// [`PathError::OutOfBounds`] for an off-map goal and [`PathError::GoalBlocked`] when
    /// the agent cannot stand on it.
    pub fn new(
        map: &CachedScenario,
        goal: Cell,
        profile: ProfileId,
        diameter: u32,
    ) -> Result<Self, PathError> {
        map.weights(profile)
            .ok_or(PathError::UnknownProfile { profile })?;
        let layer = map
            .layer_for(profile, diameter)
            .ok_or(PathError::InvalidDiameter { diameter })?;
        let size = map.size();
        if !size.contains(goal) {
            return Err(PathError::OutOfBounds { cell: goal });
        }
        if layer.is_blocked(goal) {
            return Err(PathError::GoalBlocked {
                cell: goal,
                diameter,
            });
        }
        let mut open = IndexedHeap::default();
        open.reserve_nodes(size.area());
        let mut dist = vec![UNKNOWN; size.area()];
        let toward = vec![0; size.area()];
        let g = size.index(goal);
        dist[g] = 0;
        open.push(g as u32, 0, 0);
        Ok(Self {
            goal,
            profile,
            diameter,
            generation: map.generation(),
            map: map.id(),
            size,
            dist,
            toward,
            open,
            done: false,
            expanded: 0,
            reopen: false,
            forgotten: Vec::new(),
            setbacks: 0,
            mark: 0,
        })
    }

    /// The goal.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// The profile and diameter the field is for.
    pub fn agent(&self) -> (ProfileId, u32) {
        (self.profile, self.diameter)
    }

    /// The map generation the field was built on.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Cells settled so far.
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// True when every cell reachable from the goal is settled.
    pub fn is_complete(&self) -> bool {
        self.done
    }

    /// True when `map` is still the map the field was built on (the same map object,
    /// [`CachedScenario::id`], at the same generation and size): only then are its
    /// distances and paths valid.
    pub fn is_current(&self, map: &CachedScenario) -> bool {
        self.map == map.id() && self.generation == map.generation() && self.size == map.size()
    }

    /// Times a [`DistanceField::carry_over`] forgot at least as many cells as the field
    /// had settled since the carry-over before it: edits that undid its growth. A field
    /// carried over such edits every frame may never reach a cell; the plugin takes the
    /// requests that waited on it through a setback off shared fields.
    pub fn edit_setbacks(&self) -> u32 {
        self.setbacks
    }

    /// Settles up to `budget` more cells, nearest first; returns true when the field is
    /// complete (or `map` is not the map it was built on, so growing it is pointless).
    /// Allocates nothing.
    pub fn grow(&mut self, map: &CachedScenario, budget: u32) -> bool {
        if self.done || !self.is_current(map) {
            return true;
        }
        let (Some(layer), Some(weights)) = (
            map.layer_for(self.profile, self.diameter),
            map.weights(self.profile),
        ) else {
            return true;
        };
        match layer.shape() {
            GridShape::Square => self.settle(Squares, layer, weights, budget),
            GridShape::Hex(layout) => self.settle(Hexagons(layout), layer, weights, budget),
        }
    }

    /// [`DistanceField::grow`] on the layer's shape `shape`, decided once per call.
    fn settle(
        &mut self,
        shape: impl Shape,
        layer: &Layer,
        weights: Weights<'_>,
        budget: u32,
    ) -> bool {
        let w = self.size.width as i32;
        for _ in 0..budget {
            let Some(i) = self.open.pop() else {
                self.done = true;
                return true;
            };
            let d = self.dist[i as usize];
            self.dist[i as usize] = d | SETTLED;
            self.expanded += 1;
            let c = self.size.cell(i as usize);
            let mut moves = layer.moves_on(shape, c, true);
            while moves != 0 {
                let k = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let dir = Direction::ALL[k];
                let (dx, dy) = dir.delta();
                let n = (i as i64 + i64::from(dy * w + dx)) as usize;
                let old = self.dist[n];
                if old & SETTLED != 0 && !self.reopen {
                    continue;
                }
                let nd = d + weights.step(i as usize, n, dir);
                if nd < old & !SETTLED {
                    // A settled cell gets here only after edits (`carry_over`).
                    self.dist[n] = nd;
                    self.toward[n] = dir.opposite() as u8;
                    self.open.decrease_key(n as u32, nd, 0);
                }
            }
        }
        if self.open.is_empty() {
            self.done = true;
        }
        self.done
    }

    /// The smallest distance not settled yet: every cell that is not settled is at least
    /// this far from the goal, and every settled one at most. Very large once the field
    /// is complete. O(1).
    pub fn frontier(&self) -> Cost {
        self.open.peek_key().map_or(UNKNOWN, |(key, _)| key)
    }

    /// True when the exact cost from `cell` to the goal is known.
    pub fn is_settled(&self, cell: Cell) -> bool {
        self.distance(cell).is_some()
    }

    /// The exact cost from `cell` to the goal, once settled; `None` before, or when the
    /// cell cannot reach the goal (then it never settles).
    ///
    /// A settled cell's cost is final when it is no larger than [`DistanceField::frontier`]:
    /// any other way to the goal runs through an open cell, at least that far. That
    /// always holds while the field grows on one map; after
    /// [`DistanceField::carry_over`] opened cells again, a settled cell beyond the
    /// frontier may still get cheaper and waits until the growth passes it.
    pub fn distance(&self, cell: Cell) -> Option<Cost> {
        self.size
            .contains(cell)
            .then(|| self.dist[self.size.index(cell)])
            .filter(|d| d & SETTLED != 0)
            .map(|d| d & !SETTLED)
            .filter(|&d| !self.reopen || d <= self.frontier())
    }

    /// Writes into `out` (cleared first) an optimal path from `cell` to the goal by
    /// descending the field, and returns its cost. `None` when `cell` is not settled or
    /// `map` is not the field's map. O(path length), no allocation beyond `out`'s
    /// growth.
    pub fn path_from(&self, map: &CachedScenario, cell: Cell, out: &mut Vec<Cell>) -> Option<Cost> {
        out.clear();
        let total = self.distance(cell)?;
        if !self.is_current(map) {
            return None;
        }
        let mut c = cell;
        out.push(c);
        while c != self.goal {
            let dir = Direction::ALL[usize::from(self.toward[self.size.index(c)])];
            c = c.step(dir);
            out.push(c);
        }
        Some(total)
    }

    /// Bytes held by the field's buffers (capacities).
    pub fn memory_bytes(&self) -> usize {
        (self.dist.capacity() + self.forgotten.capacity() / 2) * size_of::<Cost>()
            + self.toward.capacity()
            + self.open.memory_bytes()
    }

    /// Brings the field up to date with the obstacle and terrain edits of `map` since it
    /// was built (or last carried over), keeping its distances exact, instead of
    /// building it again; returns false, leaving the field as it was, when that cannot
    /// be done: the map was resized, a profile was registered, the map no longer lists
    /// its edits ([`CachedScenario::edits_since`]) or the goal is now blocked. It also
    /// returns false, with the field half carried over, when the edits cut the way of
    /// more than 16,384 cells (a wall near the goal): repairing that much at once costs
    /// about what growing it again does, and growing goes in slices. Either way, build a
    /// new one.
    ///
    /// The same three passes as a suspended A* search carried over edits, on either grid
    /// shape: near each edited cell, cells whose way to the goal ran through a cell
    /// blocked since, a move no longer legal, or a step whose cost changed (a terrain
    /// painted over) are forgotten with every cell found through them; each forgotten
    /// free cell takes the best cost its settled neighbours offer; settled cells near the
    /// edits relax their moves again, and a settled cell reached more cheaply is opened
    /// again. The field then grows on from there ([`DistanceField::grow`]); see
    /// [`DistanceField::distance`] for which costs are final meanwhile. A field has no
    /// heuristic, so a terrain edit that changes the profile's smallest weight is carried
    /// too. O(e (d + 3)²) for e edited cells and diameter d, plus the forgotten cells,
    /// plus O(log n) per cell opened.
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::search::DistanceField;
    /// use tilepath::scenario::ProfileId;
    ///
    /// let mut map = CachedScenario::from_ascii("
    ///     ......
    ///     .####.
    ///     ......
    /// ").unwrap();
    /// let mut field = DistanceField::new(&map, Cell::new(5, 1), ProfileId::DEFAULT, 1).unwrap();
    /// while !field.grow(&map, 10) {}
    /// map.set_obstacle(Cell::new(2, 0), true);
    /// map.set_obstacle(Cell::new(2, 1), false);
    /// assert!(field.carry_over(&map));
    /// while !field.grow(&map, 10) {}
    /// let mut pf = Pathfinder::new();
    /// let fresh = pf.find(&map, &PathQuery::new(Cell::new(0, 0), Cell::new(5, 1))).unwrap();
    /// assert_eq!(field.distance(Cell::new(0, 0)), Some(fresh.cost));
    /// ```
    pub fn carry_over(&mut self, map: &CachedScenario) -> bool {
        if self.is_current(map) {
            return true;
        }
        if self.size != map.size() || self.map != map.id() {
            return false;
        }
        let (Some(layer), Some(weights), Some(edits)) = (
            map.layer_for(self.profile, self.diameter),
            map.weights(self.profile),
            map.edits_since(self.generation),
        ) else {
            return false;
        };
        if layer.is_blocked(self.goal) {
            return false;
        }
        let mut labels = Labels {
            dist: &mut self.dist,
            toward: &mut self.toward,
            open: &mut self.open,
            goal: self.size.index(self.goal) as u32,
        };
        let step = |from: u32, to: u32, d| weights.step(from as usize, to as usize, d);
        let edited = edits.iter().map(|e| e.cell);
        if !carry::carry_over(&mut labels, layer, true, step, edited, &mut self.forgotten) {
            return false;
        }
        let forgotten = self.forgotten.len() as u64;
        if forgotten > 0 && forgotten >= self.expanded - self.mark {
            self.setbacks += 1;
        }
        self.mark = self.expanded;
        self.reopen = true;
        self.done = self.open.is_empty();
        self.generation = map.generation();
        true
    }
}

/// A field's distances as [`carry::carry_over`] sees them: the goal has no way, settled
/// distances are final, opened cells go into the open list keyed by distance.
struct Labels<'f> {
    dist: &'f mut [Cost],
    toward: &'f mut [u8],
    open: &'f mut IndexedHeap,
    goal: u32,
}

impl carry::Labels for Labels<'_> {
    fn way(&self, i: u32) -> Option<Direction> {
        let known = self.dist[i as usize] != UNKNOWN;
        (known && i != self.goal).then(|| Direction::ALL[self.toward[i as usize] as usize])
    }

    fn final_cost(&self, i: u32) -> Option<Cost> {
        let d = self.dist[i as usize];
        (d & SETTLED != 0).then_some(d & !SETTLED)
    }

    fn cost(&self, i: u32) -> Option<Cost> {
        let d = self.dist[i as usize];
        (d != UNKNOWN).then_some(d & !SETTLED)
    }

    fn forget(&mut self, i: u32) {
        self.open.remove(i);
        self.dist[i as usize] = UNKNOWN;
    }

    fn offer(&mut self, i: u32, cost: Cost, way: Direction) {
        self.dist[i as usize] = cost;
        self.toward[i as usize] = way as u8;
        self.open.decrease_key(i, cost, 0);
    }
}
