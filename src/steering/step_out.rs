//! Grid steppers on cells blocked for them (a wall painted under them, or spawned in
//! one): the steps that lead them out.

use crate::components::NavGrid;
use crate::grid::Cell;
use crate::scenario::Layer;
use crate::shape::GridShape;

/// True when a unit on `at` may step to the neighbouring `want` on `layer`: the step
/// rule ([`Layer::can_step`]); for a unit on a cell blocked for it (a wall painted under it, or
/// spawned in one), any step onto a free cell, or one that brings it nearer to `start`
/// (its path's start, the free cell nearest to it): it walks out of the wall (see
/// [`way_out`]). Once on a free cell, every step keeps the rule.
pub(super) fn step_from(layer: &Layer, at: Cell, want: Cell, start: Cell) -> bool {
    if layer.is_blocked(at) {
        let shape = layer.shape();
        !layer.is_blocked(want) || shape.steps(want, start) < shape.steps(at, start)
    } else {
        layer.can_step(at, want)
    }
}

/// The cells strictly between `at` and `to` on the straight way from one to the other,
/// each a neighbour of the one before: on squares diagonal steps first, then straight
/// ones; on hexagons the tile under each of evenly spaced points of the segment between
/// their centres. A unit in a wall walks it to reach the start of its path (the free
/// cell nearest to it), as steering units do.
pub(super) fn way_out(grid: &NavGrid, at: Cell, to: Cell) -> impl Iterator<Item = Cell> + '_ {
    let shape = grid.layout().shape();
    let steps = shape.steps(at, to);
    let (from, end) = (grid.cell_to_world(at), grid.cell_to_world(to));
    let mut c = at;
    (1..steps).filter_map(move |k| {
        c = match shape {
            GridShape::Square => {
                Cell::new(c.x + (to.x - c.x).signum(), c.y + (to.y - c.y).signum())
            }
            GridShape::Hex(_) => {
                let p = grid.world_to_plane(from.lerp(end, k as f32 / steps as f32));
                grid.placement().plane_cell(p)?
            }
        };
        Some(c)
    })
}
