//! Jump point search (placeholder wiring; the block-based implementation replaces it).

use super::pathfinder::Scratch;
use super::query::{PathError, Query};
use crate::scenario::Layer;

/// Per-pathfinder JPS buffers.
#[derive(Debug, Default)]
pub(crate) struct JpsScratch;

pub(crate) fn search(s: &mut Scratch, layer: &Layer, query: &Query) -> Result<(), PathError> {
    super::astar::search(s, layer, query, super::astar::Mode::AStar)
}
