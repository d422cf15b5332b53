//! The map files in `assets/maps/` are exactly what the generators make
//! (`cargo run --example make_maps` rewrites them).

#[path = "../examples/support/shipped_maps.rs"]
mod shipped_maps;

use bevy_tilepath::tilepath::scenario::movingai::MovingAiMap;

#[test]
fn shipped_map_files_are_what_the_generators_make() {
    let files = [
        include_str!("../assets/maps/open.map"),
        include_str!("../assets/maps/rects.map"),
        include_str!("../assets/maps/maze.map"),
        include_str!("../assets/maps/rooms.map"),
        include_str!("../assets/maps/rts.map"),
    ];
    for ((name, bits), text) in shipped_maps::shipped_maps().into_iter().zip(files) {
        let parsed = MovingAiMap::parse(text).unwrap();
        assert!(
            parsed.into_bits() == bits,
            "{name} is stale: run the make_maps example"
        );
    }
}
