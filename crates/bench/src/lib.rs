//! The measurement programs of `tilepath` and `bevy_tilepath`, kept out of the published
//! crates with their heavy dependencies (bevy_northstar, the `pathfinding` and
//! `grid_pathfinding` peers, criterion). Nothing here is a library: the programs are this
//! crate's examples and bench, run from the workspace root:
//!
//! ```text
//! cargo run --release -p tilepath_bench --no-default-features --example movingai -- --help
//! cargo run --release -p tilepath_bench --no-default-features --example chart -- --help
//! cargo run --release -p tilepath_bench --example army -- --help
//! cargo run --release -p tilepath_bench --example live_edits -- --help
//! cargo run --release -p tilepath_bench --example soak -- --help
//! cargo run --release -p tilepath_bench --example peers -- --help
//! cargo bench -p tilepath_bench --bench plugin
//! ```
//!
//! `--no-default-features` leaves out the `bevy` feature, so the core's programs
//! (`movingai`, `chart`) build without compiling bevy; they also run with it.
//!
//! Shared code stays where the published crates' tests need it and is included by
//! `#[path]`: `crates/tilepath/examples/support/` (MovingAI loading, the counting
//! allocator), `examples/soak/scenario.rs`, `examples/live_edits/scenario.rs` and
//! `examples/support/watch.rs` (run in short by `tests/plugin`).
