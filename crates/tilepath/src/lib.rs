//! Exact grid pathfinding that allocates nothing per query once warm, with no engine
//! attached.
//!
//! `tilepath` answers "how do I get from here to there on this tile map" for agents one
//! cell wide or wider, on octile grids without corner cutting, with optional terrain
//! costs. Its only required dependency is `smallvec`: use it in a game server, a tool, another
//! engine, or under the Bevy plugin `bevy_tilepath`, which is built on it. The common
//! imports are in the [`prelude`].
//!
//! # A first path
//!
//! ```
//! use tilepath::prelude::*;
//!
//! // `#` is a wall, `.` is free (MovingAI characters work too).
//! let map = CachedScenario::from_ascii(
//!     "
//!     ........
//!     .######.
//!     ........
//!     ",
//! )
//! .unwrap();
//! let mut pathfinder = Pathfinder::new(); // keep one per thread; it reuses its buffers
//! let query = PathQuery::new(Cell::new(0, 1), Cell::new(7, 1)).algorithm(Algorithm::Jps);
//! let stats = pathfinder.find(&map, &query).unwrap();
//! assert_eq!(stats.length, 9.0); // around the wall: no corner cutting
//! assert_eq!(pathfinder.path().len(), 10);
//! // An agent 3 cells wide does not fit anywhere on this map.
//! assert_eq!(pathfinder.find(&map, &query.diameter(3)), Err(PathError::StartBlocked { cell: Cell::new(0, 1), diameter: 3 }));
//! ```
//!
//! # The grid
//!
//! A [`Cell`](grid::Cell) is a column and a row (`y` grows downwards in map files); cells
//! off the map count as blocked. Agents make the eight king moves
//! ([`Connectivity::Octile`](grid::Connectivity::Octile), the default), a diagonal only
//! when both straight cells it passes between are free (no corner cutting), or straight
//! moves only ([`Connectivity::Cardinal`](grid::Connectivity::Cardinal)). Costs are
//! integers ([`Cost`](grid::Cost)): [`STRAIGHT`](grid::STRAIGHT) per straight step and
//! [`DIAGONAL`](grid::DIAGONAL) per diagonal one, so comparisons are exact, every search
//! is deterministic and the optimal algorithms agree to the unit.
//! [`cost_to_f64`](grid::cost_to_f64) converts a cost to cells.
//!
//! # Maps
//!
//! A map is any [`Scenario`](scenario::Scenario): a closure
//! ([`FnScenario`](scenario::FnScenario)), a parsed file, a game's own storage. Searches
//! run on a [`CachedScenario`](scenario::CachedScenario), which reads a scenario once into
//! one bit per cell and keeps beside it:
//!
//! - the *true clearance* of every cell ([`scenario::clearance`]), so that whether an
//!   agent of any diameter fits on a cell is one lookup;
//! - per movement profile and agent diameter, a [`Layer`](scenario::Layer), built on
//!   first use: the cells that agent cannot stand on (row-major and transposed bits) and
//!   its connected [`Components`](scenario::Components), so that an unreachable goal is
//!   answered in O(1), before any search;
//! - optionally, a terrain id per cell and the registered movement profiles (see
//!   [Terrain and movement profiles](#terrain-and-movement-profiles)).
//!
//! What each of these costs in memory is listed under
//! [`CachedScenario`'s memory](scenario::CachedScenario#memory). Sizes are checked before
//! anything proportional to them is allocated: at most [`MAX_SIDE`](grid::MAX_SIDE) cells
//! a side and [`MAX_CELLS`](grid::MAX_CELLS) cells in all.
//!
//! ## Layers and diameters
//!
//! An agent of diameter `d` anchored on a cell occupies the `d × d` square of
//! [the footprint rule](scenario#footprints) ([`footprint`](scenario::footprint)) and
//! fits where that square is on the map and free. So a 2-wide agent passes a 2-wide
//! corridor but not a 1-wide one. Layers, and so searches, exist for diameters 1 to
//! [`MAX_DIAMETER`](scenario::MAX_DIAMETER);
//! [`Scenario::is_blocked`](scenario::Scenario::is_blocked) on a cached map answers any
//! diameter exactly, and [`CachedScenario::connected`](scenario::CachedScenario::connected)
//! whether two cells are connected for a diameter.
//!
//! ## Terrain and movement profiles
//!
//! Each cell may carry a [`TerrainId`](scenario::TerrainId); a map without terrain has id
//! 0 everywhere and stores none. A [`MovementProfile`](scenario::MovementProfile) gives
//! every terrain a weight 1..=255 or blocks it; its docs state the cost model. A map holds
//! any number of profiles by [`ProfileId`](scenario::ProfileId), registered with
//! [`set_profile`](scenario::CachedScenario::set_profile) (`ProfileId::DEFAULT` weighs
//! everything 1), and a query names its profile with
//! [`PathQuery::profile`](search::PathQuery::profile).
//!
//! ```
//! use tilepath::prelude::*;
//! use tilepath::scenario::{BitGrid, MovementProfile, ProfileId};
//!
//! // A field (0) with a forest band (1) and a river (2) with one ford (field).
//! let rows = ["0001110000", "0001110000", "2222222022", "0000000000"];
//! let terrain: Vec<u8> = rows.concat().bytes().map(|b| b - b'0').collect();
//! let mut map = CachedScenario::from_bits_and_terrain(BitGrid::new(GridSize::new(10, 4), false), terrain).unwrap();
//! let infantry = ProfileId(1);
//! map.set_profile(infantry, MovementProfile::new().with_weight(1, 4).with_blocked(2));
//! let mut pathfinder = Pathfinder::new();
//! let query = PathQuery::new(Cell::new(0, 0), Cell::new(9, 0)).profile(infantry);
//! let stats = pathfinder.find(&map, &query).unwrap();
//! // Around the forest through row 1 would still cross it: the cheapest way is through it (3 cells at 4).
//! assert_eq!(stats.cost, 3 * 4 * 66_922 + 6 * 66_922);
//! // Crossing the river needs the ford at (7, 2).
//! let across = PathQuery::new(Cell::new(0, 0), Cell::new(0, 3)).profile(infantry);
//! pathfinder.find(&map, &across).unwrap();
//! assert!(pathfinder.path().contains(&Cell::new(7, 2)));
//! ```
//!
//! Which algorithms read the weights:
//!
//! - A\* and Dijkstra are exact on any profile (the heuristic is scaled as
//!   [`Algorithm::AStar`](search::Algorithm::AStar) says).
//! - JPS and JPS+ need a *uniform* layer, one whose passable cells all weigh the same (as
//!   on a map without terrain), and run A\* elsewhere; [`Algorithm::Auto`](search::Algorithm::Auto)
//!   picks accordingly, and [`Pathfinder::resolve`](search::Pathfinder::resolve) tells
//!   which algorithm a query runs.
//! - On a weighted layer, `Auto` runs A\* with a second lower bound: the layer's
//!   [`Landmarks`](scenario::Landmarks), costs from 16 far-apart cells (a differential
//!   heuristic). Its module docs prove why the bound stays admissible and consistent
//!   under every edit, and how edits that make moves cheaper repair it locally.
//! - BFS, DFS, IDDFS, best-first and evasion ignore the weights while they search, and
//!   report the weighted cost of the path they find.
//! - Smoothing on a weighted layer never raises the cost of the path
//!   ([`smooth_weighted`](smoothing::smooth_weighted)).
//!
//! ## Edits
//!
//! [`set_obstacle`](scenario::CachedScenario::set_obstacle),
//! [`set_terrain`](scenario::CachedScenario::set_terrain),
//! [`apply`](scenario::CachedScenario::apply) and
//! [`apply_edits`](scenario::CachedScenario::apply_edits) (with
//! [`MapEdit`](scenario::MapEdit)s) change a cached map, update every built layer and
//! jump table in place, and report a [`MapChange`](scenario::MapChange). `apply_edits`
//! lists what is local (clearance, layer bits, weights) and what may cost the whole map
//! (components); a jump table recomputes only the entries an edit can change
//! ([`JumpTable::update`](scenario::JumpTable::update)), and a landmark table only the
//! values a cheaper or new move lowers. Every change bumps the map's
//! [`generation`](scenario::CachedScenario::generation);
//! [`edits_since`](scenario::CachedScenario::edits_since) lists the cells edited after a
//! generation, which is what lets searches and distance fields carry over edits (see
//! [Sliced searches and edits](#sliced-searches-and-edits)), and
//! [`id`](scenario::CachedScenario::id) tells map objects apart.
//!
//! Searching never writes to the map: many threads may search one `&CachedScenario` at
//! once, each with its own [`Pathfinder`](search::Pathfinder); edits take `&mut`, between
//! searches.
//!
//! # Searching
//!
//! A [`PathQuery`](search::PathQuery) names the start and the goal, and optionally the
//! agent's diameter and profile, the algorithm, [`Limits`](search::Limits), the open list
//! of A\* and Dijkstra, and its [`SearchOptions`](search::SearchOptions): the
//! connectivity, smoothing, a goal area, and moving a blocked goal or start to the
//! nearest usable cell (off by default: [`SearchOptions::EXACT`](search::SearchOptions::EXACT)). [`Pathfinder::find`](search::Pathfinder::find) answers it with
//! [`PathStats`](search::PathStats) and the cells in
//! [`Pathfinder::path`](search::Pathfinder::path), or a [`PathError`](search::PathError);
//! its docs list the checks made before any search runs.
//!
//! A [`Pathfinder`](search::Pathfinder) owns every buffer its searches use and keeps them
//! between queries, so a *warm* one (its docs say when it is) allocates nothing per query;
//! [its memory section](search::Pathfinder#memory) says what it holds per cell. Keep one
//! per thread. Every path it returns obeys the movement rules that
//! [`validate_path`](search::validate_path) checks.
//!
//! ## Algorithms
//!
//! One engine runs them all, with the same checks, limits, errors and path rules. Below,
//! n is the number of nodes expanded, r a search radius in cells;
//! [`Algorithm::is_optimal`](search::Algorithm::is_optimal) tells the optimal ones.
//!
//! | [`Algorithm`](search::Algorithm) | returns | time | use it for |
//! |---|---|---|---|
//! | [`Auto`](search::Algorithm::Auto) (default) | a shortest path | that of the algorithm it picks | everyday queries |
//! | [`AStar`](search::Algorithm::AStar) | a shortest path, on any layer | O(n log n); O(n (log k + 64)) on the radix queue, k the open cells of one key | terrain weights, wide agents, 4-connected moves, goal areas |
//! | [`Jps`](search::Algorithm::Jps) | a shortest path | O(n log n) for n jump points, plus O(length / 64) word reads per straight jump | large or open uniform maps, also while they change every frame |
//! | [`JpsPlus`](search::Algorithm::JpsPlus) | a shortest path | O(n log n) for n jump points, O(1) per jump; O(width × height) once to build the layer's table | uniform maps searched many times between edits |
//! | [`Dijkstra`](search::Algorithm::Dijkstra) | a shortest path | as A\*, expanding every cell cheaper than the goal | a reference |
//! | [`Bfs`](search::Algorithm::Bfs) | the fewest steps, and the shortest of those | O(n) for the n cells fewer steps away than the goal | unweighted questions, test oracles |
//! | [`Dfs`](search::Algorithm::Dfs) | some path inside the square of [`radius`](search::PathQuery::radius) | O(min(map area, (2r + 1)²)) | "is there a way without leaving this room?" |
//! | [`Iddfs`](search::Algorithm::Iddfs) | some path | O(min(map area, (4r)²)), r the smallest radius whose square connects the ends | a path expected close by, with bounded work |
//! | [`BestFirst`](search::Algorithm::BestFirst) | some path, greedily | O(n log n) | quick answers on open maps |
//! | [`Evasion`](search::Algorithm::Evasion) | some path, close to shortest on open ground | O(line length + traced contour length) | open fields with few large obstacles |
//!
//! **A\*, Dijkstra and best-first** are one best-first engine with three priorities:
//! f = g + h with ties toward lower h (A\*), f = g (Dijkstra), f = h with ties toward
//! lower g (best-first), then lower node id, so every order is total. The octile
//! heuristic is consistent, so A\* and Dijkstra expand each cell at most once, and a
//! successor whose f equals the f being expanded is expanded next without going through
//! the open list. A\* and Dijkstra run on either open list of
//! [`OpenList`](search::OpenList), with the same expansions, path and cost.
//!
//! **JPS** is A\* over *jump points*: it searches only the turning points of canonical
//! paths (diagonal steps before straight ones between turns), with the pruning and
//! forced-neighbour rules of Harabor and Grastien's 2014 revision for moves without corner
//! cutting, and reads straight jumps 64 cells at a time from the layer's row-major and
//! transposed bits. **JPS+** reads every jump from the layer's
//! [`JumpTable`](scenario::JumpTable) instead: per free cell and direction, how far the
//! jump goes and whether it ends on a jump point or at a wall ([`Jump`](scenario::Jump)),
//! 16 bytes per cell, built once per layer (by the first `JpsPlus` query, or ahead with
//! [`CachedScenario::build_jump_tables`](scenario::CachedScenario::build_jump_tables)) and
//! shared by every pathfinder without a lock. Jumps longer than
//! [`MAX_JUMP`](scenario::MAX_JUMP) are cut into pieces, so any map size stays exact. The
//! goal is not in the table: a straight jump stops at the goal when it lies ahead within
//! the jump's reach, and a diagonal walk where it crosses the goal's row or column. Both
//! run A\* on cardinal queries, goal areas and non-uniform layers.
//!
//! **Evasion** heads for the goal along a 4-connected digital line. Where the line is
//! blocked, two wall followers trace the obstacle's contour, one on each hand, until each
//! stands on the line again beyond the collision; the side with the shorter detour plus
//! rest of the line wins and the walk goes on. Perpendicular steps are then merged into diagonals where no corner is cut,
//! loops are cut out, and the path is checked against the movement rules before it is
//! returned. Whenever start and goal are connected (which the pathfinder checks first), it
//! finds a path; it keeps no open list. In mazes, rooms and clutter it follows every corridor it meets
//! and its paths get long: use A\* or JPS there.
//!
//! **BFS, DFS and IDDFS** do not look at path costs to choose what to expand. BFS goes
//! level by level. DFS walks an explicit stack, trying first the direction nearest the
//! goal's bearing, and never enters a cell outside its radius square (`None`: the whole
//! map); beyond it, it fails with [`PathError::NotFound`](search::PathError::NotFound).
//! IDDFS runs DFS from the Chebyshev distance between the ends and doubles the radius
//! after each failed round, so the total work stays within a constant factor of the last
//! round.
//!
//! ## Limits and errors
//!
//! [`Limits`](search::Limits) bound the expansions and the time of one search; a search
//! they stop fails with [`PathError::LimitReached`](search::PathError::LimitReached),
//! saying which. Bad input is a typed error, never a panic: each variant of
//! [`PathError`](search::PathError) (queries) and [`MapError`](scenario::MapError) (map
//! readers and constructors) says when it is returned, and the file readers add
//! [`ScenError`](scenario::movingai::ScenError) and
//! [`TerrainSpecError`](scenario::movingai_terrain::TerrainSpecError).
//!
//! ## Sliced searches and edits
//!
//! [`Pathfinder::start`](search::Pathfinder::start) runs a search for a budget of
//! expansions and returns [`Progress::Suspended`](search::Progress::Suspended) when the
//! budget is spent (a slice expands at most its budget); [`Pathfinder::resume`](search::Pathfinder::resume)
//! goes on where it stopped, so a long search can be spread over frames and ends with the
//! answer of `find` (for JPS and JPS+ a path of the same cost, which may break ties
//! between equal paths otherwise). The map may be edited in between: `resume` always answers for the map as it is
//! now, carrying suspended A\* and Dijkstra searches on the indexed heap over obstacle
//! edits where that is exact (the answer costs what a fresh search on the edited map
//! costs) and starting the others over; its docs list the cases.
//!
//! ## Shared goals
//!
//! A [`DistanceField`](search::DistanceField) is one exact Dijkstra from a goal, grown in
//! slices, from which every unit sent to that goal reads its own optimal path in
//! O(path length). [`DistanceField::carry_over`](search::DistanceField::carry_over) brings
//! it up to date after obstacle and terrain edits, as `resume` does for a search, and
//! [`Pathfinder::find_guided`](search::Pathfinder::find_guided) uses it as an exact lower
//! bound for searches to cells near its goal.
//!
//! ## Smoothing
//!
//! With [`PathQuery::smooth`](search::PathQuery::smooth) the pathfinder also pulls the
//! cell path into straight segments, in
//! [`Pathfinder::waypoints`](search::Pathfinder::waypoints): every segment has supercover
//! line of sight ([`line_of_sight`](smoothing::line_of_sight)), so it crosses no blocked
//! cell, and the polyline is never longer than the cell path. The [`smoothing`] functions
//! do the same for any path and state the guarantees and complexity.
//!
//! # Crowds
//!
//! [`crowd`] moves disc-shaped units along their paths without walking through each
//! other or into walls: [`Crowd::avoid`](crowd::Crowd::avoid) gives each unit the
//! velocity nearest the one it wants that avoids its neighbours and the blocked cells
//! (ORCA, optimal reciprocal collision avoidance), one unit per call on any thread, and
//! [`Crowd::separate`](crowd::Crowd::separate) pushes apart the discs that still overlap
//! after the move; where a jam leaves some overlapping,
//! [`Crowd::hold_back`](crowd::Crowd::hold_back) undoes the moves that caused it. All
//! three are deterministic to the bit and allocate nothing once warm.
//!
//! # Hexagonal maps
//!
//! The same map, pathfinder, fields and carry-over run on hexagons:
//! [`CachedScenario::with_shape`](scenario::CachedScenario::with_shape) with
//! [`GridShape::Hex`](shape::GridShape::Hex) lays the `(column, row)` cells out in one of
//! bevy_ecs_tilemap's six hexagonal coordinate systems ([`HexLayout`](shape::HexLayout)),
//! and [`shape`] says which six of the eight king moves are neighbours. Every step costs
//! [`STRAIGHT`](grid::STRAIGHT) times the weights, an agent of diameter `d` covers the
//! cells within `d / 2` steps, and searches that only square grids support run as A\*
//! ([`Pathfinder::resolve`](search::Pathfinder::resolve)).
//!
//! # Reading and generating maps
//!
//! - ASCII: [`CachedScenario::from_ascii`](scenario::CachedScenario::from_ascii) and
//!   [`AsciiScenario`](scenario::AsciiScenario) read text maps;
//!   [`render`](scenario::render) draws a map with a path, for failure reports.
//! - MovingAI benchmark files: [`scenario::movingai`] reads `.map` grids and `.map.scen`
//!   problem lists and writes maps back; [`scenario::movingai_terrain`] reads a `.map`
//!   keeping each character as its own terrain, and `CHAR=WEIGHT` specs as movement
//!   profiles.
//! - Bits and terrain of your own: [`BitGrid`](scenario::BitGrid),
//!   [`CachedScenario::from_bits`](scenario::CachedScenario::from_bits),
//!   [`from_bits_and_terrain`](scenario::CachedScenario::from_bits_and_terrain) and
//!   [`from_scenario`](scenario::CachedScenario::from_scenario).
//! - Generators: [`scenario::generate`] makes open fields, clutter, mazes, rooms, RTS
//!   levels and weighted countryside, each a pure function of its size and seed.
//!
//! # Features
//!
//! - `serde`: `Serialize` and `Deserialize` on the plain value types: cells, sizes,
//!   directions, connectivity, queries, algorithms, open lists, limits, path errors,
//!   profile ids and map edits.
//! - `bevy_reflect`: `Reflect` on the same types and on
//!   [`MovementProfile`](scenario::MovementProfile), for engines built on
//!   `bevy_reflect` (the Bevy plugin turns it on); it brings the `bevy_reflect` crate
//!   only, not bevy.
//!
//! These docs state contracts and complexity. Measured times, memory and comparisons
//! with other implementations are kept beside the crate's README, in `BENCHMARKS.md`,
//! each with the command that produced it.
#![warn(missing_docs)]

pub mod crowd;
pub mod grid;
mod prefetch;
pub mod scenario;
pub mod search;
pub mod shape;
pub mod smoothing;
#[cfg(test)]
mod test_support;

/// The common imports: cells, the cached map, queries, the pathfinder and the crowd.
pub mod prelude {
    pub use crate::crowd::{AvoidanceSettings, Crowd, CrowdAgent, Vector};
    pub use crate::grid::{Cell, Connectivity, Cost, Direction, GridSize};
    pub use crate::scenario::{CachedScenario, Scenario};
    pub use crate::search::{
        Algorithm, Limits, OpenList, PathError, PathQuery, PathStats, Pathfinder, SearchOptions,
    };
}

/// The README's examples, run as doctests so that its quick start keeps compiling.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
