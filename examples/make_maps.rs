//! Regenerates the shipped maps in `assets/maps/` with the crate's own generators.
//!
//! `cargo run --example make_maps` writes `open.map`, `rects.map`, `maze.map`, `rooms.map`
//! and `rts.map` (MovingAI format). The generators are deterministic, so running it again
//! rewrites the same files byte for byte.

use std::error::Error;
use std::path::Path;

#[path = "support/shipped_maps.rs"]
mod shipped_maps;

use bevy_tilepath::tilepath::scenario::movingai::to_movingai;
use shipped_maps::shipped_maps;

fn main() -> Result<(), Box<dyn Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join("maps");
    std::fs::create_dir_all(&dir)?;
    for (name, bits) in shipped_maps() {
        let path = dir.join(name);
        std::fs::write(&path, to_movingai(&bits))?;
        let size = bits.size();
        println!(
            "{}: {}x{}, {} obstacles",
            path.display(),
            size.width,
            size.height,
            bits.count_ones()
        );
    }
    Ok(())
}
