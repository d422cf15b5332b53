//! The weighted Dijkstra oracle: the terrain cost model of issue 10 written out plainly, sharing no code with the pathfinder.
//!
//! Test and example plumbing (the conformance test `tests/terrain.rs` through
//! `tests/common`, and the `terrain_maps` example that writes scen optima), not part of
//! the library. Nothing here uses the crate's layers, clearance, components, move
//! tables, `validate_path` or step-cost functions: only the grid types and the two
//! fixed-point step lengths, [`STRAIGHT`] and [`DIAGONAL`], which define the costs.
//!
//! The rules, as the issue states them:
//!
//! - each cell has a weight 1..=255, or 0 for blocked (an obstacle, or terrain the
//!   profile blocks);
//! - an agent of diameter `d` stands on `c` when every cell of the square from
//!   `c - (d - 1) / 2` to `c + d / 2` is on the map and not blocked;
//! - it moves to one of the 8 neighbours it can stand on; a diagonal step also needs
//!   both straight cells it passes between to be standable (no corner cutting);
//! - a step from `a` to `b` costs its length × `(w(a) + w(b)) / 2`.
#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use tilepath::grid::{Cell, Cost, DIAGONAL, GridSize, STRAIGHT};

/// Weight per cell (0 = blocked) and the cells an agent of one diameter stands on.
#[derive(Clone, Debug)]
pub struct WeightedGrid {
    size: GridSize,
    weight: Vec<u8>,
    diameter: u32,
    stands: Vec<bool>,
}

impl WeightedGrid {
    /// The grid of `size` where `weight(cell)` gives each cell's weight (0 = blocked),
    /// for agents of `diameter` (0 counts as 1). O(width × height × diameter²).
    pub fn new(size: GridSize, diameter: u32, weight: impl Fn(Cell) -> u8) -> Self {
        let weight: Vec<u8> = (0..size.area()).map(|i| weight(size.cell(i))).collect();
        let d = diameter.max(1) as i32;
        let (before, after) = ((d - 1) / 2, d / 2);
        let free = |x: i32, y: i32| {
            x >= 0
                && y >= 0
                && (x as u32) < size.width
                && (y as u32) < size.height
                && weight[y as usize * size.width as usize + x as usize] != 0
        };
        let stands = (0..size.area())
            .map(|i| {
                let c = size.cell(i);
                (c.y - before..=c.y + after)
                    .all(|y| (c.x - before..=c.x + after).all(|x| free(x, y)))
            })
            .collect();
        Self {
            size,
            weight,
            diameter: d as u32,
            stands,
        }
    }

    /// Map size.
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The weight of an on-map cell (0 = blocked); `None` off the map.
    pub fn weight(&self, c: Cell) -> Option<u8> {
        self.index(c).map(|i| self.weight[i])
    }

    /// True when the agent can stand on `c` (false off the map).
    pub fn stands(&self, c: Cell) -> bool {
        self.index(c).is_some_and(|i| self.stands[i])
    }

    fn index(&self, c: Cell) -> Option<usize> {
        (c.x >= 0 && c.y >= 0 && (c.x as u32) < self.size.width && (c.y as u32) < self.size.height)
            .then(|| c.y as usize * self.size.width as usize + c.x as usize)
    }

    /// The cost of stepping from `a` to `b`, or `None` when the step breaks a rule
    /// (not one king move, an end the agent cannot stand on, a cut corner).
    pub fn step(&self, a: Cell, b: Cell) -> Option<Cost> {
        let (dx, dy) = ((b.x - a.x).abs(), (b.y - a.y).abs());
        if dx.max(dy) != 1 || !self.stands(a) || !self.stands(b) {
            return None;
        }
        let diagonal = dx == 1 && dy == 1;
        if diagonal && !(self.stands(Cell::new(a.x, b.y)) && self.stands(Cell::new(b.x, a.y))) {
            return None;
        }
        let length = if diagonal { DIAGONAL } else { STRAIGHT };
        let (wa, wb) = (self.weight(a)?, self.weight(b)?);
        Some(length * (Cost::from(wa) + Cost::from(wb)) / 2)
    }

    /// The cost of a whole path from `start` to `goal`, or `None` when it is empty, ends
    /// elsewhere or breaks a rule (see [`WeightedGrid::step`]).
    pub fn path_cost(&self, path: &[Cell], start: Cell, goal: Cell) -> Option<Cost> {
        if path.first() != Some(&start) || path.last() != Some(&goal) || !self.stands(start) {
            return None;
        }
        path.windows(2)
            .try_fold(0, |sum: Cost, w| Some(sum + self.step(w[0], w[1])?))
    }

    /// Optimal cost from `start` to every cell, `None` where unreachable (or when the
    /// agent cannot stand on `start`): Dijkstra with a binary heap and lazy deletion.
    pub fn distances(&self, start: Cell) -> Vec<Option<Cost>> {
        let mut dist = vec![None; self.size.area()];
        let Some(s) = self.index(start).filter(|_| self.stands(start)) else {
            return dist;
        };
        let mut best = vec![Cost::MAX; self.size.area()];
        let mut heap = BinaryHeap::new();
        best[s] = 0;
        heap.push(Reverse((0, s)));
        while let Some(Reverse((d, i))) = heap.pop() {
            if dist[i].is_some() {
                continue;
            }
            dist[i] = Some(d);
            let c = self.size.cell(i);
            for (dx, dy) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let n = Cell::new(c.x + dx, c.y + dy);
                let Some(cost) = self.step(c, n) else {
                    continue;
                };
                let j = self.index(n).expect("a legal step stays on the map");
                if d + cost < best[j] {
                    best[j] = d + cost;
                    heap.push(Reverse((d + cost, j)));
                }
            }
        }
        dist
    }
}
