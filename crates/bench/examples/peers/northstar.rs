//! bevy_northstar 0.7 as two runner peers: its grid A* and its refined HPA*.
//!
//! Northstar prices every step by the cell it enters, straight or diagonal alike, and
//! its octile-neighbourhood heuristic is scaled by 1,000 against unit step costs, so
//! even its A* is not optimal under our octile lengths: both peers report a length
//! ratio rather than mismatches.

use bevy::math::UVec3;
use bevy_northstar::prelude::{
    Grid, GridSettingsBuilder, Nav, OrdinalNeighborhood, PathfindArgs, filter,
};
use tilepath::grid::Cell;
use tilepath::scenario::Layer;

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
        let settings = GridSettingsBuilder::new_2d(size.width, size.height)
            .add_neighbor_filter(filter::NoCornerCutting)
            .build();
        let mut grid = Grid::<OrdinalNeighborhood>::new(&settings);
        for y in 0..size.height {
            for x in 0..size.width {
                let nav = if layer.is_free_xy(x, y) {
                    Nav::Passable(1)
                } else {
                    Nav::Impassable
                };
                grid.set_nav(UVec3::new(x, y, 0), nav);
            }
        }
        grid.build();
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
        let at = |c: Cell| UVec3::new(c.x as u32, c.y as u32, 0);
        let mut args = PathfindArgs::new(at(start), at(goal));
        if !self.hpa {
            args = args.astar();
        }
        let path = self.grid.pathfind(&mut args)?;
        let mut cells: Vec<Cell> = path
            .path()
            .iter()
            .map(|p| Cell::new(p.x as i32, p.y as i32))
            .collect();
        // Its paths may leave out the start cell; ours and the validator include it.
        if cells.first() != Some(&start) {
            cells.insert(0, start);
        }
        Some(cells)
    }
}
