//! Fuzzing on stable Rust: seeded, bounded loops over every reader and over edits and queries.
//!
//! One test per target (`movingai_maps`, `movingai_scens`, `ascii_maps`,
//! `terrain_specs`, `map_edits`, `path_queries`); each replays its corpus in
//! `tests/fuzz_corpus/<target>/` first and prints `fuzz <target>: N inputs, K failures`
//! to stderr past the output capture. See `harness` for the bounds and the environment
//! variables that raise them.

#[path = "../common/mod.rs"]
mod common;

mod cases;
mod edits;
mod harness;
mod parsers;
mod queries;
