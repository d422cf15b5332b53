//! Pathfinders: one reusable engine, many algorithms, typed results.

mod astar;
mod evasion;
mod heap;
mod jps;
mod pathfinder;
mod query;
mod uninformed;

pub use heap::IndexedHeap;
pub use pathfinder::{PathStats, Pathfinder};
pub use query::{Algorithm, Limit, Limits, PathError, Query, UnknownAlgorithm};
