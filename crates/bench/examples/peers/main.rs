//! The MovingAI runner with bevy_northstar 0.7 beside ours: every option of the core's
//! runner (`cargo run --release -p tilepath_bench --no-default-features --example movingai --
//! --help`) plus two peers,
//! `ns-astar` (northstar's grid A*) and `ns-hpa` (its default mode, HPA* with refined
//! paths), on the same free cells with octile moves that never cut a corner. Their
//! grid build (and HPA*'s chunk graph) is reported as `prep_ms`, apart from the
//! queries; every path is checked by our validator and, since neither is optimal under
//! octile costs, reported with its `length_ratio` to the optimum.
//!
//! ```text
//! cargo run --release -p tilepath_bench --example peers -- --algo jps-plus --algo ns-astar \
//!     --algo ns-hpa --sample 5 ../shared/movingai/scen/maze512-4-0.map.scen
//! ```

#[path = "../movingai/runner.rs"]
mod runner;

mod northstar;

/// The peers this runner adds to the core's.
static NORTHSTAR: [&dyn runner::ExternalPeer; 2] = [&northstar::NS_ASTAR, &northstar::NS_HPA];

fn main() -> std::process::ExitCode {
    runner::main_with(&NORTHSTAR)
}
