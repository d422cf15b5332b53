//! Hexagonal maps: axial cells, terrain weights, clearance for wide agents, exact searches.
//!
//! A [`HexMap`] holds hexagons in axial coordinates ([`Hex`]); [`HexLayout`] converts the
//! six tile coordinate systems of bevy_ecs_tilemap's hexagonal maps (axial rows and
//! columns, even and odd offset rows and columns) once, when the map is built. A step
//! between neighbours `a` and `b` costs `(w(a) + w(b)) / 2`, as on square grids.
//! [`HexPathfinder`] runs A* (hex distance times the smallest weight: admissible and
//! consistent), Dijkstra or breadth-first on it, sliced and without allocating once
//! warm, for agents of any radius up to [`MAX_HEX_RADIUS`] (from the map's clearance).
//! [`HexField`] is one Dijkstra from a shared goal that a whole group reads: the exact
//! cost and an optimal way down from every hexagon. Both go on across edits of the map
//! ([`HexMap::set_weights`], obstacles and terrain): a suspended search resumes on the
//! edited map and a field is brought up to date ([`HexField::carry_over`]), exactly,
//! without starting over.
//!
//! Jump-point pruning is not used on hexagons: on a hexagonal grid two different step
//! orders between the same hexagons are usually both optimal, and no pruning rule
//! of JPS's kind is proven exact there, so every hexagonal search expands neighbours in
//! full.

mod carry;
mod coord;
mod field;
mod map;
mod records;
mod search;

pub use coord::{Hex, HexDirection, HexLayout};
pub use field::HexField;
pub use map::{HexMap, MAX_HEX_RADIUS};
pub use search::{HexAlgorithm, HexPathError, HexPathfinder, HexQuery, HexStep};
