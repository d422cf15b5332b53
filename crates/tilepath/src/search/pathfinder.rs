//! The reusable pathfinder: per-query scratch kept between queries, algorithm dispatch.

use std::collections::VecDeque;
use std::time::Instant;

use super::heap::IndexedHeap;
use super::query::{Algorithm, Limit, PathError, PathQuery};
use super::{astar, evasion, jps, uninformed};
use crate::grid::{Cell, Connectivity, Cost, DIAGONAL, Direction, GridSize, STRAIGHT};
use crate::scenario::{CachedScenario, Layer};
use crate::smoothing;

/// What a successful search reports; the cells are in [`Pathfinder::path`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathStats {
    /// Fixed-point octile cost of the cell path (see [`crate::grid::STRAIGHT`]).
    pub cost: Cost,
    /// Octile length in cells (straight step 1, diagonal √2).
    pub length: f64,
    /// Length of the smoothed waypoint polyline (equals `length` without smoothing).
    pub smoothed_length: f64,
    /// Nodes expanded (cells taken off the open list, or traced for evasion).
    pub expanded: u32,
}

/// Per-cell cost and parent, side by side so a relaxation writes one cache line.
#[derive(Clone, Copy, Debug)]
struct Node {
    g: Cost,
    parent: u32,
}

const UNTOUCHED: Node = Node {
    g: 0,
    parent: u32::MAX,
};

/// Search state that survives between queries. Every cell has a stamp: equal to
/// `generation` means seen this query (open), `generation + 1` means closed; any
/// other value means untouched, so a new query resets everything by adding 2.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub size: GridSize,
    generation: u32,
    stamp: Vec<u32>,
    nodes: Vec<Node>,
    pub heap: IndexedHeap,
    pub queue: VecDeque<u32>,
    pub stack: Vec<(u32, u8)>,
    pub depth: Vec<u32>,
    pub path: Vec<Cell>,
    pub waypoints: Vec<Cell>,
    pub expanded: u32,
    max_expanded: u32,
    deadline: Option<Instant>,
    pub jps: jps::JpsScratch,
    pub evasion: evasion::EvasionScratch,
}

impl Scratch {
    /// Prepares for a new query on a map of `size`; allocates only when the map grew.
    pub(crate) fn begin(&mut self, size: GridSize, query: &PathQuery) {
        let n = size.area();
        if self.nodes.len() < n {
            self.stamp.resize(n, 0);
            self.nodes.resize(n, UNTOUCHED);
            self.depth.resize(n, 0);
            self.heap.reserve_nodes(n);
            // Outputs can be as long as the map; reserving here keeps later queries allocation-free.
            self.path.reserve(n.saturating_sub(self.path.len()));
            self.stack.reserve(n.saturating_sub(self.stack.len()));
            self.waypoints
                .reserve(n.saturating_sub(self.waypoints.len()));
        }
        self.size = size;
        if self.generation >= u32::MAX - 4 {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 2;
        self.heap.clear();
        self.queue.clear();
        self.stack.clear();
        self.path.clear();
        self.waypoints.clear();
        self.expanded = 0;
        self.max_expanded = query.limits.max_expanded;
        self.deadline = query.limits.time_budget.map(|b| Instant::now() + b);
    }

    /// Starts a fresh round inside one query (iterative deepening): all cells untouched again.
    pub fn restart_round(&mut self) {
        if self.generation >= u32::MAX - 4 {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 2;
    }

    #[inline]
    pub fn index(&self, cell: Cell) -> u32 {
        self.size.index(cell) as u32
    }

    #[inline]
    pub fn cell(&self, index: u32) -> Cell {
        // 32-bit division: node ids are u32, and it is several times cheaper than 64-bit.
        let w = self.size.width;
        Cell::new((index % w) as i32, (index / w) as i32)
    }

    /// Id offsets of one step in each of [`Direction::ALL`], to be added with wrapping.
    pub fn step_offsets(&self) -> [u32; 8] {
        let w = self.size.width as i32;
        Direction::ALL.map(|d| {
            let (dx, dy) = d.delta();
            (dy * w + dx) as u32
        })
    }

    /// True when the node was seen (opened or closed) in this query.
    #[inline]
    pub fn is_seen(&self, i: u32) -> bool {
        self.stamp[i as usize] >= self.generation
    }

    /// True when the node was closed in this query.
    #[inline]
    pub fn is_closed(&self, i: u32) -> bool {
        self.stamp[i as usize] == self.generation + 1
    }

    /// Marks the node seen (open) with cost `g` and `parent`.
    #[inline]
    pub fn open(&mut self, i: u32, g: Cost, parent: u32) {
        self.stamp[i as usize] = self.generation;
        self.nodes[i as usize] = Node { g, parent };
    }

    /// Gives a seen node a better cost `g` through `parent`.
    #[inline]
    pub fn relink(&mut self, i: u32, g: Cost, parent: u32) {
        let node = &mut self.nodes[i as usize];
        node.g = g;
        node.parent = parent;
    }

    /// Marks the node closed.
    #[inline]
    pub fn close(&mut self, i: u32) {
        self.stamp[i as usize] = self.generation + 1;
    }

    /// Cost of the best known way to a seen node.
    #[inline]
    pub fn g(&self, i: u32) -> Cost {
        self.nodes[i as usize].g
    }

    /// Parent of a seen node (`u32::MAX` for the start), or any per-node number an
    /// algorithm keeps there (evasion stores path positions).
    #[inline]
    pub fn parent(&self, i: u32) -> u32 {
        self.nodes[i as usize].parent
    }

    /// Sets the number kept in the parent slot of a node.
    #[inline]
    pub fn set_parent(&mut self, i: u32, parent: u32) {
        self.nodes[i as usize].parent = parent;
    }

    /// Counts one expansion and enforces the limits.
    #[inline]
    pub fn tick(&mut self) -> Result<(), PathError> {
        self.expanded += 1;
        if self.expanded > self.max_expanded {
            return Err(PathError::LimitReached {
                limit: Limit::Expanded,
                expanded: self.expanded - 1,
            });
        }
        if let Some(deadline) = self.deadline
            && self.expanded & 255 == 0
            && Instant::now() >= deadline
        {
            return Err(PathError::LimitReached {
                limit: Limit::Time,
                expanded: self.expanded,
            });
        }
        Ok(())
    }

    /// Writes the path ending at `goal` into `self.path` by following parents from the goal
    /// back to a node whose parent is `u32::MAX`. Consecutive nodes may be a straight or
    /// diagonal line apart (jump points); the cells between them are filled in.
    pub fn build_path(&mut self, goal: u32) {
        self.path.clear();
        let mut i = goal;
        loop {
            let c = self.cell(i);
            if let Some(&last) = self.path.last() {
                let (dx, dy) = ((c.x - last.x).signum(), (c.y - last.y).signum());
                let mut p: Cell = last;
                while p.chebyshev(c) > 1 {
                    p = Cell::new(p.x + dx, p.y + dy);
                    self.path.push(p);
                }
            }
            self.path.push(c);
            let p = self.parent(i);
            if p == u32::MAX {
                break;
            }
            i = p;
        }
        self.path.reverse();
    }

    /// Cells touched by the last query (seen or closed), for visualisation.
    pub fn explored(&self) -> impl Iterator<Item = Cell> + '_ {
        let size = self.size;
        self.stamp[..size.area()]
            .iter()
            .enumerate()
            .filter(move |(_, s)| **s >= self.generation)
            .map(move |(i, _)| size.cell(i))
    }
}

/// A pathfinder that owns all its search buffers and reuses them: after the first
/// query on a map (warm-up), queries allocate nothing. Keep one per thread; the map
/// ([`CachedScenario`]) is shared read-only.
///
/// ```
/// use tilepath::prelude::*;
///
/// let map = CachedScenario::from_ascii("
///     ......
///     .####.
///     ......
/// ").unwrap();
/// let mut pf = Pathfinder::new();
/// let stats = pf.find(&map, &PathQuery::new(Cell::new(0, 1), Cell::new(5, 1))).unwrap();
/// assert_eq!(pf.path().first(), Some(&Cell::new(0, 1)));
/// assert_eq!(pf.path().last(), Some(&Cell::new(5, 1)));
/// // No corner cutting: around the wall by straight steps only.
/// assert_eq!(stats.length, 7.0);
/// ```
#[derive(Debug, Default)]
pub struct Pathfinder {
    scratch: Scratch,
    smoothed: bool,
}

impl Pathfinder {
    /// An empty pathfinder; buffers grow on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers `query` on `map`. On success the cells are in [`Pathfinder::path`].
    ///
    /// Checks, in order: diameter, bounds, start and goal blocked, components
    /// (unreachable answered in O(1)); then runs the query's algorithm.
    pub fn find(
        &mut self,
        map: &CachedScenario,
        query: &PathQuery,
    ) -> Result<PathStats, PathError> {
        self.smoothed = false;
        let size = map.size();
        // Resets stamps and outputs in O(1), so a rejected query leaves nothing stale behind.
        self.scratch.begin(size, query);
        let layer = map
            .layer(query.diameter)
            .ok_or(PathError::InvalidDiameter {
                diameter: query.diameter,
            })?;
        for cell in [query.start, query.goal] {
            if !size.contains(cell) {
                return Err(PathError::OutOfBounds { cell });
            }
        }
        if layer.is_blocked(query.start) {
            return Err(PathError::StartBlocked {
                cell: query.start,
                diameter: query.diameter,
            });
        }
        if layer.is_blocked(query.goal) {
            return Err(PathError::GoalBlocked {
                cell: query.goal,
                diameter: query.diameter,
            });
        }
        if !layer.components().connected(query.start, query.goal) {
            return Err(PathError::Unreachable);
        }
        if query.start == query.goal {
            self.scratch.path.push(query.start);
        } else {
            self.run(layer, query)?;
        }
        debug_assert_eq!(self.scratch.path.first(), Some(&query.start));
        debug_assert_eq!(self.scratch.path.last(), Some(&query.goal));
        let (cost, length) = path_cost(&self.scratch.path);
        let smoothed_length = if query.smooth {
            self.smoothed = true;
            smoothing::smooth(layer, &self.scratch.path, &mut self.scratch.waypoints);
            crate::grid::path_length(&self.scratch.waypoints)
        } else {
            length
        };
        Ok(PathStats {
            cost,
            length,
            smoothed_length,
            expanded: self.scratch.expanded,
        })
    }

    fn run(&mut self, layer: &Layer, query: &PathQuery) -> Result<(), PathError> {
        let s = &mut self.scratch;
        match query.algorithm {
            Algorithm::AStar => astar::search(s, layer, query, astar::Mode::AStar),
            Algorithm::Dijkstra => astar::search(s, layer, query, astar::Mode::Dijkstra),
            Algorithm::BestFirst => astar::search(s, layer, query, astar::Mode::Greedy),
            Algorithm::Jps if query.connectivity == Connectivity::Octile => {
                jps::search(s, layer, query)
            }
            Algorithm::Jps => astar::search(s, layer, query, astar::Mode::AStar),
            Algorithm::Bfs => uninformed::bfs(s, layer, query),
            Algorithm::Dfs => uninformed::dfs(s, layer, query),
            Algorithm::Iddfs => uninformed::iddfs(s, layer, query),
            Algorithm::Evasion => evasion::search(s, layer, query),
        }
    }

    /// Cells of the last found path, start and goal included; empty after a failure.
    pub fn path(&self) -> &[Cell] {
        &self.scratch.path
    }

    /// Smoothed waypoints of the last path when the query asked for smoothing,
    /// otherwise the cell path itself.
    pub fn waypoints(&self) -> &[Cell] {
        if self.smoothed {
            &self.scratch.waypoints
        } else {
            &self.scratch.path
        }
    }

    /// Nodes expanded by the last query, found or not.
    pub fn last_expanded(&self) -> u32 {
        self.scratch.expanded
    }

    /// Cells the last query touched (opened, closed or traced), for debug views.
    pub fn explored(&self) -> impl Iterator<Item = Cell> + '_ {
        self.scratch.explored()
    }
}

/// Fixed-point cost and exact octile length (straight steps + √2 × diagonal steps) of a
/// cell path whose steps are king moves.
pub(crate) fn path_cost(path: &[Cell]) -> (Cost, f64) {
    let diagonal = path
        .windows(2)
        .filter(|w| w[0].x != w[1].x && w[0].y != w[1].y)
        .count();
    let straight = path.len().saturating_sub(1) - diagonal;
    (
        straight as Cost * STRAIGHT + diagonal as Cost * DIAGONAL,
        straight as f64 + diagonal as f64 * std::f64::consts::SQRT_2,
    )
}
