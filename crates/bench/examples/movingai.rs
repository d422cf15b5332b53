//! MovingAI benchmark runner: correctness against the stored optima and speed against peers.
//!
//! ```text
//! cargo run --release -p tilepath_bench --no-default-features --example movingai -- \
//!     [--algo NAME]... [--diameter D] [--maps DIR]
//!     [--terrain SPEC] [--reference stored|dijkstra] [--tolerance X]
//!     [--check] [--smooth] [--families] [--limit N] [--sample N] SCEN...
//! ```
//!
//! NAME is one of our algorithms (`auto`, `astar`, `jps`, `jps-plus`, `dijkstra`, `bfs`,
//! `dfs`, `iddfs`, `best-first`, `evasion`), optionally with the open list of A\* and
//! Dijkstra after a colon (`astar:heap`, `astar:radix`; see `OpenList`), or a peer run
//! side by side on the same queries and the same layer: `pf-astar` (the `pathfinding` crate's A*, same fixed-point costs,
//! weighted ones with `--terrain`, successors in a stack-allocated `SmallVec`; its
//! expansions are its successor calls) and `gp-jps` (the `grid_pathfinding` crate's JPS,
//! unweighted, so not with `--terrain`). The `peers` example is this runner plus
//! bevy_northstar's searches (`ns-astar`, `ns-hpa`), behind the crate's `bevy` feature:
//! `--no-default-features` builds this runner without compiling bevy (it also runs with it).
//! One line per scen file and algorithm, then one `TOTAL` line per algorithm;
//! `prep_ms` is the preprocessing before the first query where there is one (the JPS+
//! table, Auto's landmark table on a weighted layer, a peer's grid), timed apart from
//! the queries; `length_ratio` is a non-optimal algorithm's mean path length over the
//! optimum; `ns_per_expanded` is the query time
//! over the expansions (all queries of the line). `--families` adds one `FAMILY` line per
//! MovingAI map family and algorithm before the `TOTAL` lines (`bg512`, `mazes`, `random`,
//! `rooms`, `street`; any other map is its own family).
//! `--sample N` keeps every N-th problem of each file (an even spread over the length
//! buckets); `--limit N` keeps the first N (the shortest).
//!
//! `--terrain SPEC` reads each map character as its own terrain id and weighs it by
//! SPEC, comma-separated `CHAR=WEIGHT` pairs with WEIGHT 1..=255 or `x` (blocked), e.g.
//! `'.=3,R=1,F=5,S=9,W=x'`; characters not listed keep the MovingAI rule (`.`, `G`, `S`
//! weigh 1, the rest is blocked). See `tilepath::scenario::movingai_terrain`. Costs are
//! then weighted: a step costs its length × the mean weight of its two cells.
//!
//! `--reference` chooses what counts as optimal: `stored`, the scen file's 9th column
//! (with `--terrain`, the weighted optimum), compared within `--tolerance` (default
//! 0.005); or `dijkstra`, our Dijkstra's fixed-point cost, compared exactly. Default:
//! `stored` at diameter 1 without `--terrain`, `dijkstra` otherwise. Every path of every
//! algorithm is checked with `validate_path` on the query's layer (profile and
//! diameter) and its reported cost against the cost recomputed from its cells.
//! `--check` exits with status 1 on any mismatch of an optimal algorithm of ours, or any
//! invalid path or wrong reported cost of any algorithm of ours.
//! Our pathfinders are warmed up on every problem of the file before the timed pass,
//! so the timed queries measure a warm pathfinder (`allocs_per_query` should be 0).
//!
//! `--memory SIZE` instead measures [`Pathfinder::memory_bytes`] of a warm pathfinder
//! per algorithm (default: all of ours) on a generated SIZE × SIZE clutter map
//! (`generate::random_rects`, seed 1) after 8 queries between far-apart free cells,
//! and prints bytes per cell and MiB.
//!
//! `--jump-tables` instead measures the JPS+ jump table of each SCEN's map (layer of
//! `--diameter`): build time, bytes per cell, time per single-cell edit of the
//! incremental update (2,000 random flips, checked against a fresh build at the end),
//! and the time of a whole `CachedScenario::apply` with and without the table.

#[path = "movingai/runner.rs"]
mod runner;

fn main() -> std::process::ExitCode {
    runner::main_with(&[])
}
