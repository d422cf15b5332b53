//! bevy_northstar 0.7's grid as the `army`, `peers` and `crowd` programs build it, and its paths as our cells.

use bevy::math::UVec3;
use bevy_northstar::prelude::{Grid, GridSettingsBuilder, Nav, OrdinalNeighborhood, filter};
use tilepath::grid::Cell;

/// A built `width` × `height` octile grid that forbids corner cutting
/// (`filter::NoCornerCutting`: a diagonal step needs both orthogonal neighbours free, our
/// rule), with `nav(x, y)` for each cell.
pub fn grid(width: u32, height: u32, nav: impl Fn(u32, u32) -> Nav) -> Grid<OrdinalNeighborhood> {
    build(
        GridSettingsBuilder::new_2d(width, height),
        width,
        height,
        nav,
    )
}

/// The same grid with northstar's local collision avoidance on (`enable_collision`): its
/// agents with `Blocking` stand in each other's way, and each looks `avoidance_distance`
/// cells ahead on its path for them (the `crowd` program).
pub fn colliding_grid(
    width: u32,
    height: u32,
    avoidance_distance: u32,
    nav: impl Fn(u32, u32) -> Nav,
) -> Grid<OrdinalNeighborhood> {
    let settings = GridSettingsBuilder::new_2d(width, height)
        .enable_collision()
        .avoidance_distance(avoidance_distance);
    build(settings, width, height, nav)
}

fn build(
    settings: GridSettingsBuilder,
    width: u32,
    height: u32,
    nav: impl Fn(u32, u32) -> Nav,
) -> Grid<OrdinalNeighborhood> {
    let settings = settings
        .add_neighbor_filter(filter::NoCornerCutting)
        .build();
    let mut grid = Grid::<OrdinalNeighborhood>::new(&settings);
    for y in 0..height {
        for x in 0..width {
            grid.set_nav(UVec3::new(x, y, 0), nav(x, y));
        }
    }
    grid.build();
    grid
}

/// Northstar's position of `cell`.
pub fn position(cell: Cell) -> UVec3 {
    UVec3::new(cell.x as u32, cell.y as u32, 0)
}

/// A northstar path as our cells from `start`, and whether `start` was put in front: its
/// paths may leave out the start cell, ours and the validator include it.
pub fn cells(path: &[UVec3], start: Cell) -> (Vec<Cell>, bool) {
    let mut cells: Vec<Cell> = path
        .iter()
        .map(|p| Cell::new(p.x as i32, p.y as i32))
        .collect();
    let prepended = cells.first() != Some(&start);
    if prepended {
        cells.insert(0, start);
    }
    (cells, prepended)
}
