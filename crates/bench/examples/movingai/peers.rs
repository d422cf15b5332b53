//! The peers run beside ours: the `pathfinding` crate's A* (same moves, same fixed-point weighted costs) and `grid_pathfinding`'s JPS.

use std::cell::Cell as Counter;

use smallvec::SmallVec;
use tilepath::grid::{Cell, Connectivity, Cost, Direction};
use tilepath::scenario::{Layer, Weights};
use tilepath::search::validate_path;

/// A peer from another crate, run on the same problems and checked like every answer
/// (the `peers` example adds bevy_northstar this way, so the `movingai` runner builds
/// without bevy). Uniform costs only: the runner refuses it with `--terrain`.
pub trait ExternalPeer: Sync {
    /// Its `--algo` name.
    fn name(&self) -> &'static str;
    /// True when its paths are claimed optimal under our octile costs, so that a
    /// longer path counts as a mismatch; otherwise the runner reports the length ratio.
    fn optimal(&self) -> bool;
    /// Builds the peer's structures for `layer`'s free cells (timed as preprocessing).
    fn prepare(&self, layer: &Layer) -> Box<dyn PeerSolver>;
}

/// A prepared peer: answers one query with the cells of its path, start and goal
/// included, or `None`.
pub trait PeerSolver {
    fn find(&mut self, start: Cell, goal: Cell) -> Option<Vec<Cell>>;
}

/// The legal moves of every cell as a bit mask over [`Direction::ALL`], decided by
/// [`validate_path`] on each one-step path (the one implementation of the move rules).
/// Built once per map, untimed, so the peer's successor function is a table lookup
/// like ours.
pub fn move_table(layer: &Layer) -> Vec<u8> {
    let size = layer.size();
    (0..size.area())
        .map(|i| {
            let c = size.cell(i);
            Direction::ALL
                .iter()
                .enumerate()
                .filter(|&(_, &d)| {
                    let n = c.step(d);
                    validate_path(layer, &[c, n], c, n, Connectivity::Octile).is_ok()
                })
                .fold(0u8, |mask, (k, _)| mask | (1 << k))
        })
        .collect()
}

/// Step costs for the peer A*: plain octile lengths, or a profile's terrain weights
/// (the same [`Weights::step`] and heuristic scale our A* uses).
#[derive(Clone, Copy)]
pub enum PeerCosts<'a> {
    /// Every cell weighs 1: straight [`tilepath::grid::STRAIGHT`], diagonal
    /// [`tilepath::grid::DIAGONAL`], octile heuristic.
    Unit,
    /// Length × mean weight of the two cells; heuristic octile × smallest weight.
    Weighted(Weights<'a>),
}

/// The `pathfinding` crate's A* over the same moves and costs as ours; `expanded`
/// counts its successor calls (one per node it expands, since it skips stale heap
/// entries before asking for successors).
pub fn pf_astar(
    layer: &Layer,
    moves: &[u8],
    costs: PeerCosts<'_>,
    start: Cell,
    goal: Cell,
    expanded: &mut u32,
) -> Option<Vec<Cell>> {
    let calls = Counter::new(0u32);
    let path = match costs {
        PeerCosts::Unit => run(layer, moves, start, goal, &calls, 1, |_, _, d| d.cost()),
        PeerCosts::Weighted(w) => run(
            layer,
            moves,
            start,
            goal,
            &calls,
            w.min().into(),
            |a, b, d| w.step(a, b, d),
        ),
    };
    *expanded = calls.get();
    path
}

fn run(
    layer: &Layer,
    moves: &[u8],
    start: Cell,
    goal: Cell,
    calls: &Counter<u32>,
    scale: Cost,
    step: impl Fn(usize, usize, Direction) -> Cost,
) -> Option<Vec<Cell>> {
    let size = layer.size();
    let successors = |c: &Cell| {
        calls.set(calls.get() + 1);
        let mut out: SmallVec<[(Cell, Cost); 8]> = SmallVec::new();
        let from = size.index(*c);
        let mut mask = moves[from];
        while mask != 0 {
            let d = Direction::ALL[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            let n = c.step(d);
            out.push((n, step(from, size.index(n), d)));
        }
        out
    };
    pathfinding::prelude::astar(
        &start,
        successors,
        |c| Connectivity::Octile.heuristic(*c, goal) * scale,
        |c| *c == goal,
    )
    .map(|(path, _)| path)
}

/// `grid_pathfinding`'s grid of the layer's blocked cells.
pub fn gp_grid(layer: &Layer) -> grid_pathfinding::PathingGrid {
    use grid_util::grid::Grid;
    let size = layer.size();
    let mut bools =
        grid_util::grid::BoolGrid::new(size.width as usize, size.height as usize, false);
    for y in 0..size.height {
        for x in 0..size.width {
            if !layer.is_free_xy(x, y) {
                bools.set(x as usize, y as usize, true);
            }
        }
    }
    let mut g = grid_pathfinding::PathingGrid::new(size.width as usize, size.height as usize, true);
    g.grid = bools;
    g.update_all_neighbours();
    g.generate_components();
    g
}

/// `grid_pathfinding`'s JPS (unweighted, and it lets diagonals cut corners).
pub fn gp_jps(grid: &grid_pathfinding::PathingGrid, start: Cell, goal: Cell) -> Option<Vec<Cell>> {
    use grid_util::point::Point;
    grid.get_path_single_goal(
        Point::new(start.x, start.y),
        Point::new(goal.x, goal.y),
        false,
    )
    .map(|p| p.into_iter().map(|q| Cell::new(q.x, q.y)).collect())
}
