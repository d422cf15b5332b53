//! Line-of-sight smoothing (placeholder wiring; string pulling replaces it).

use crate::grid::Cell;
use crate::scenario::Layer;

/// Writes the smoothed waypoints of `path` into `out`.
pub fn smooth(_layer: &Layer, path: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    out.extend_from_slice(path);
}
