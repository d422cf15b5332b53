//! Evasion tracer (placeholder wiring; the semi-analytical implementation replaces it).

use super::pathfinder::Scratch;
use super::query::{PathError, Query};
use crate::scenario::Layer;

/// Per-pathfinder evasion buffers.
#[derive(Debug, Default)]
pub(crate) struct EvasionScratch;

pub(crate) fn search(s: &mut Scratch, layer: &Layer, query: &Query) -> Result<(), PathError> {
    super::astar::search(s, layer, query, super::astar::Mode::Greedy)
}
