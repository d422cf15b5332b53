//! BFS, DFS and iterative deepening (placeholder wiring; real implementations replace it).

use super::pathfinder::Scratch;
use super::query::{PathError, Query};
use crate::scenario::Layer;

pub(crate) fn bfs(s: &mut Scratch, layer: &Layer, query: &Query) -> Result<(), PathError> {
    super::astar::search(s, layer, query, super::astar::Mode::Dijkstra)
}

pub(crate) fn dfs(s: &mut Scratch, layer: &Layer, query: &Query) -> Result<(), PathError> {
    super::astar::search(s, layer, query, super::astar::Mode::Greedy)
}

pub(crate) fn iddfs(s: &mut Scratch, layer: &Layer, query: &Query) -> Result<(), PathError> {
    super::astar::search(s, layer, query, super::astar::Mode::Greedy)
}
