//! The maps shipped in `assets/maps/`, as the generators make them: shared by the
//! `make_maps` example (which writes them) and `tests/shipped_maps.rs` (which checks them).

use bevy_tilepath::tilepath::grid::GridSize;
use bevy_tilepath::tilepath::scenario::BitGrid;
use bevy_tilepath::tilepath::scenario::generate::{
    maze, open_field, random_rects, rooms, rts_level,
};

/// The shipped maps as (file name, bits).
pub fn shipped_maps() -> [(&'static str, BitGrid); 5] {
    [
        ("open.map", open_field(GridSize::new(64, 48), 1)),
        ("rects.map", random_rects(GridSize::new(64, 48), 1)),
        ("maze.map", maze(GridSize::new(64, 49), 2, 1)),
        ("rooms.map", rooms(GridSize::new(64, 48), 1)),
        ("rts.map", rts_level(GridSize::new(128, 96), 1)),
    ]
}
