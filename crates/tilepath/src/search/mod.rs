//! Pathfinders: one reusable engine, many algorithms, typed results.
//!
//! Layering (checked by `tests/module_graph.rs`, which rejects any import cycle between
//! the core's files):
//!
//! - `costs`: step costs as the searches see them (unit costs or a profile's terrain
//!   weights) and the heuristic's scale. It imports no algorithm.
//! - `state`: what every search shares, the per-cell records (cost, parent direction,
//!   closed flag, generation stamp), the [`IndexedHeap`], limits and path building. It
//!   imports no algorithm.
//! - `heap`, `radix`: the open lists ([`IndexedHeap`], [`RadixQueue`]); A\* and
//!   Dijkstra run on either ([`OpenList`]).
//! - `astar`, `jps`, `uninformed`, `evasion`: one algorithm family each, with its own
//!   state struct for the buffers only it needs, taking the shared state explicitly.
//!   `jps` holds online JPS and, in `jps::plus`, JPS+, which reads the jump table a
//!   [`Layer`](crate::scenario::Layer) keeps ([`JumpTable`](crate::scenario::JumpTable)).
//! - `carry`: the three passes that carry a growing search's labels over map edits,
//!   behind a small `Labels` trait that A\* and the distance field implement; no
//!   algorithm.
//! - `ends`: a query's ends on a layer (bounds, blocked starts and goals moved to the
//!   nearest standable or reachable cell, reachability by components); no algorithm.
//! - `pathfinder`: checks a query, holds the shared state and one state per family, and
//!   dispatches; it is the only module that imports the algorithms, and none imports it.
//! - `field`: [`DistanceField`], one exact Dijkstra from a shared goal read by many
//!   units; its own state, like an algorithm family.
//! - `landmark`: a [`DistanceField`] frozen as a lower bound for searches to cells near
//!   its goal ([`Pathfinder::find_guided`]); imports the field only.
//! - `congestion`: how crowded cells have been lately ([`Congestion`]); no algorithm.
//! - `units`: other units as costly cells ([`UnitCells`], [`AvoidUnits`]), what a search
//!   around them prices in ([`Around`], congestion included) and the step costs that do
//!   it for [`Pathfinder::find_around_with`]; imports `congestion`, no algorithm.
//! - `validate`: the movement rules ([`validate_path`]), the one implementation used by
//!   evasion's final check, the tests and the benchmark runner.

mod astar;
mod carry;
mod congestion;
mod costs;
mod ends;
mod evasion;
mod field;
mod heap;
mod jps;
mod landmark;
mod options;
mod pathfinder;
mod query;
mod radix;
mod state;
mod uninformed;
mod units;
mod validate;

pub use congestion::Congestion;
pub use field::DistanceField;
pub use heap::IndexedHeap;
pub use options::SearchOptions;
pub use pathfinder::{PathStats, Pathfinder, Progress};
pub use query::{Algorithm, Limit, Limits, OpenList, PathError, PathQuery, UnknownAlgorithm};
pub use radix::RadixQueue;
pub use units::{Around, AvoidUnits, UnitCells, UnitKind};
pub use validate::{InvalidPath, validate_path};
