//! Pathfinders: one reusable engine, many algorithms, typed results.

mod astar;
mod evasion;
mod heap;
mod jps;
mod pathfinder;
mod query;
mod state;
mod uninformed;
mod validate;

pub use heap::IndexedHeap;
pub use pathfinder::{PathStats, Pathfinder};
pub use query::{Algorithm, Limit, Limits, PathError, PathQuery, UnknownAlgorithm};
pub use validate::{InvalidPath, validate_path};
