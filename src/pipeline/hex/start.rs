//! Where a hexagonal search starts: the unit's own tile, or the nearest it can stand on.

use crate::components::HexGrid;
use crate::grid::Cell;
use crate::hex::HexMap;

/// The tile a search for a unit of hexagon `radius` on tile `from` starts on: `from`
/// when the unit can stand there; else, when `nearest` allows it, the tile it can stand
/// on nearest to `from` (fewest steps; among those, the first row by row); else `None`
/// (the search then fails with `StartBlocked`). O(1) when it can stand on `from`, else
/// O(columns × rows).
pub(super) fn start_tile(
    grid: &HexGrid,
    map: &HexMap,
    from: Cell,
    radius: u32,
    nearest: bool,
) -> Option<Cell> {
    let centre = grid.hex(from);
    if map.can_stand(centre, radius) || !nearest {
        return Some(from);
    }
    (0..grid.rows())
        .flat_map(|y| (0..grid.columns()).map(move |x| Cell::new(x as i32, y as i32)))
        .filter(|&c| map.can_stand(grid.hex(c), radius))
        .min_by_key(|&c| (grid.hex(c).distance(centre), c.y, c.x))
        .or(Some(from))
}
