//! bevy_northstar 0.7 as two runner peers: its grid A* and its refined HPA*.
//!
//! Northstar prices every step by the cell it enters, straight or diagonal alike, and
//! its octile-neighbourhood heuristic is scaled by 1,000 against unit step costs, so
//! even its A* is not optimal under our octile lengths: both peers report a length
//! ratio rather than mismatches.

use bevy_northstar::prelude::{Grid, Nav, OrdinalNeighborhood, PathfindArgs};
use tilepath::grid::Cell;
use tilepath::scenario::Layer;
use tilepath_bench::northstar::{cells, grid, position};

use crate::runner::{ExternalPeer, PeerSolver};

/// One of northstar's search modes.
pub struct Northstar {
    hpa: bool,
}

/// Northstar's A* over the grid (`PathfindMode::AStar`).
pub static NS_ASTAR: Northstar = Northstar { hpa: false };
/// Northstar's default mode: HPA* over 16-cell chunks, refined (`PathfindMode::Refined`).
pub static NS_HPA: Northstar = Northstar { hpa: true };

impl ExternalPeer for Northstar {
    fn name(&self) -> &'static str {
        if self.hpa { "ns-hpa" } else { "ns-astar" }
    }

    fn optimal(&self) -> bool {
        false
    }

    fn prepare(&self, layer: &Layer) -> Box<dyn PeerSolver> {
        let size = layer.size();
        let grid = grid(size.width, size.height, |x, y| {
            if layer.is_free_xy(x, y) {
                Nav::Passable(1)
            } else {
                Nav::Impassable
            }
        });
        Box::new(Solver {
            grid,
            hpa: self.hpa,
        })
    }
}

struct Solver {
    grid: Grid<OrdinalNeighborhood>,
    hpa: bool,
}

impl PeerSolver for Solver {
    fn find(&mut self, start: Cell, goal: Cell) -> Option<Vec<Cell>> {
        let mut args = PathfindArgs::new(position(start), position(goal));
        if !self.hpa {
            args = args.astar();
        }
        let path = self.grid.pathfind(&mut args)?;
        Some(cells(path.path(), start).0)
    }
}
