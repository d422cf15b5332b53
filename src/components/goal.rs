//! Where a unit wants to go: [`PathGoal`].

use bevy::prelude::*;

use crate::grid::Cell;

/// Where a unit wants to go.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Debug, PartialEq)]
pub enum PathGoal {
    /// A cell of the [`NavGrid`](super::NavGrid) (a bevy_ecs_tilemap `TilePos`).
    Cell(Cell),
    /// A world position; the goal is the anchor cell of an agent centred there
    /// ([`NavGrid::agent_cell`](super::NavGrid::agent_cell) for the request's diameter).
    World(Vec2),
}

impl Default for PathGoal {
    fn default() -> Self {
        PathGoal::Cell(Cell::default())
    }
}

impl From<Cell> for PathGoal {
    fn from(cell: Cell) -> Self {
        PathGoal::Cell(cell)
    }
}

impl From<Vec2> for PathGoal {
    fn from(p: Vec2) -> Self {
        PathGoal::World(p)
    }
}
