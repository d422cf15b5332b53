//! The Bevy plugin, headless: one test binary, one module per concern. Tests that need
//! bevy_ecs_tilemap (feature `tilemap`) or gizmos (feature `debug`) are gated; the rest
//! run with `--no-default-features`.

mod answers;
mod approach;
mod budget;
mod budget_bound;
mod carry_over;
mod common;
mod congestion;
mod contracts;
mod crowd;
mod debug;
mod detour;
mod exchange;
mod fields;
mod gaps;
mod goals;
mod grid_step;
mod head_on;
mod hex;
mod iso;
mod landmarks;
mod lanes;
mod live;
mod liveness;
mod lockstep;
mod matrix;
mod passage;
mod replan;
mod rest;
mod review;
mod schedule;
mod shaped;
mod soak;
mod solve;
mod stall;
mod starvation;
mod steer;
mod step_out;
// The stress harness (shared with crates/bench's `stress` example), run in short by
// `live` and `soak`.
#[path = "../stress/mod.rs"]
mod stress;
mod sync;
mod terrain;
#[cfg(feature = "tilemap")]
mod tilemaps;
mod units;
