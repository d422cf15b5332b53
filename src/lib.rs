//! Exact grid pathfinding for [Bevy](https://bevy.org) tile games, RTS first.
//!
//! Add [`TilepathPlugin`], give it a map (bevy_ecs_tilemap layers marked with a
//! [`CollisionLayer`], or a [`NavGrid`] you insert), put a [`PathRequest`] on a unit and read
//! its [`PathResult`]; a [`Steering`] component walks the path at the speed the terrain
//! allows. Requests are solved in parallel within a per-frame budget, paths are re-planned
//! when the map changes, and every request gets an answer.
//!
//! Under the plugin is [`tilepath`], a core crate without bevy that you can use on its own:
//! an octile grid without corner cutting, a cached map (1 bit per cell, a clearance map for
//! wide units, connected components for instant "unreachable") and one reusable engine that
//! runs A\*, JPS, JPS+, Dijkstra, BFS, DFS, iterative deepening, greedy best-first and the
//! semi-analytical "evasion" tracer, plus line-of-sight smoothing, without allocating per
//! query.
//!
//! # Quick start
//!
//! ```rust
//! # mod game {
//! use bevy::prelude::*;
//! use bevy_tilepath::prelude::*;
//!
//! fn main() {
//!     App::new()
//!         .add_plugins((DefaultPlugins, TilepathPlugin::default()))
//!         .add_systems(Startup, setup)
//!         .add_systems(Update, report.after(TilepathSystems::Solve))
//!         .run();
//! }
//!
//! fn setup(mut commands: Commands) {
//!     // With bevy_ecs_tilemap, put `CollisionLayer` on a tilemap and `BlocksPath` on its
//!     // wall tiles instead; without it, insert the grid yourself (row y = 0 comes first):
//!     let map = "
//!         ..........
//!         .######...
//!         ......#...
//!         ..........";
//!     // The world position of cell (0, 0)'s centre, and the tile size.
//!     let grid = NavGrid::from_ascii(map, Vec2::ZERO, Vec2::splat(16.0)).unwrap();
//!     commands.insert_resource(grid);
//!     commands.spawn((
//!         Transform::from_xyz(0.0, 0.0, 0.0), // cell (0, 0)
//!         PathRequest::new(Cell::new(9, 3)),
//!         Steering::with_speed(80.0), // optional: walk the path
//!     ));
//! }
//!
//! fn report(results: Query<(Entity, &PathResult), Changed<PathResult>>) {
//!     for (unit, result) in &results {
//!         match result {
//!             PathResult::Pending => {}
//!             PathResult::Found(path) => info!("{unit}: {} cells to {}", path.cells.len(), path.reached),
//!             PathResult::Failed(why) => warn!("{unit}: no path: {why}"),
//!         }
//!     }
//! }
//! # pub fn check() {
//! #     let mut app = App::new();
//! #     app.add_plugins((MinimalPlugins, TilepathPlugin::default()))
//! #         .add_systems(Startup, setup)
//! #         .add_systems(Update, report.after(TilepathSystems::Solve));
//! #     app.update();
//! #     let mut results = app.world_mut().query::<&PathResult>();
//! #     let path = results.single(app.world()).unwrap().found().unwrap();
//! #     assert_eq!(path.cells.first(), Some(&Cell::new(0, 0)));
//! #     assert_eq!(path.reached, Cell::new(9, 3));
//! # }
//! # }
//! # fn main() {
//! #     game::check();
//! # }
//! ```
//!
//! A game adds `DefaultPlugins`; headless (a server, a test) `MinimalPlugins` is enough. The
//! sections below are the guide; each links to the module or type whose docs hold the
//! details. Measurements (the army benchmark, live map edits at army scale, the MovingAI maps
//! and peer crates) are in `BENCHMARKS.md` at the repository root, the test reports in
//! `tests/README.md`.
//!
//! # Requests and results
//!
//! A [`PathRequest`] names a goal ([`PathGoal::Cell`] or [`PathGoal::World`]) and options:
//! algorithm, diameter, limits, smoothing, connectivity, movement profile, goal area and the
//! three goal options below. It requires a [`PathResult`]: `Pending`,
//! `Found(`[`FoundPath`]`)` (cells, waypoints, length, cost, profile, where the path starts
//! and ends) or `Failed(`[`PathFailure`]`)` with a typed reason; a [`PathSolved`] message
//! announces each answer. The [`PathRequest`] docs say when a request is planned again (a
//! *different* value; writing an equal one every frame does nothing) and what removing it
//! removes.
//!
//! ```rust
//! use bevy::prelude::*;
//! use bevy_tilepath::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
//! // With bevy_ecs_tilemap: put `CollisionLayer` on a tilemap and `BlocksPath` on wall tiles
//! // (or give the layer a texture-index rule). Without tilemaps, insert the grid yourself:
//! app.insert_resource(
//!     NavGrid::from_ascii(
//!         "
//!         ..........
//!         .######...
//!         ......#...
//!         ..........
//!         ",
//!         Vec2::ZERO, // world position of cell (0, 0)'s centre
//!         Vec2::splat(16.0), // tile size
//!     )
//!     .unwrap(),
//! );
//! let unit = app
//!     .world_mut()
//!     .spawn((
//!         Transform::from_xyz(0.0, 0.0, 0.0),
//!         PathRequest::new(Cell::new(9, 3)).algorithm(Algorithm::Jps).smooth(true),
//!         Steering::with_speed(80.0), // optional: walk the path
//!     ))
//!     .id();
//! app.update();
//! match app.world().get::<PathResult>(unit).unwrap() {
//!     PathResult::Found(path) => assert_eq!(path.cells.last(), Some(&Cell::new(9, 3))),
//!     other => panic!("expected a path, got {other:?}"),
//! }
//! ```
//!
//! ## Goals
//!
//! Three options, all on by default, keep units moving where a plain search fails:
//! [`nearest_goal`](search::SearchOptions::nearest_goal) (a goal blocked for the agent, in
//! another connected component or off the map: the path ends on the nearest reachable cell,
//! [`FoundPath::partial`]), [`nearest_start`](search::SearchOptions::nearest_start) (a unit
//! that cannot stand on its own cell starts from the nearest cell it can stand on) and
//! [`claim_goal`](components::PathRequest::claim_goal) (units sent to one cell end on
//! distinct cells around it, and trade them in crowds: see
//! [Goal exchange](components::PathRequest#goal-exchange) and
//! [`goal_group`](components::PathRequest::goal_group)). [`PathRequest::exact`] turns the three off;
//! [`goal_radius`](search::SearchOptions::goal_radius) turns the goal into an area, for
//! attack-move and gathering orders. The first two, with the connectivity and smoothing,
//! are the request's [`SearchOptions`](search::SearchOptions), the type a core
//! [`PathQuery`](search::PathQuery) holds too (which starts with them off). The rules are in
//! [Goals](components::PathRequest#goals-that-cannot-be-reached-blocked-starts-shared-goals).
//!
//! ## Re-plans
//!
//! Re-plans keep the old answer. When a map edit cuts a found path ahead of its unit, a
//! steering unit stalls, or you insert [`Replanning`], the request is queued again while its
//! [`PathResult`] stays `Found`, so the unit keeps walking; a cut is first repaired in place
//! or bridged by a provisional detour (see [Map edits](#map-edits)). The plugin never writes
//! to your [`PathRequest`]; its [`PathStatus`](components::PathStatus) says whether it
//! waits in the queue, in which lane, since when, and which goal cell it claimed.
//!
//! ## Paths in a crowd
//!
//! A path is first the cheapest on the map alone. If it crosses units it avoids
//! ([`PathRequest::avoid_units`](components::PathRequest::avoid_units)) or congested
//! cells ([`CongestionSettings`](settings::CongestionSettings)), its stretch from a few
//! cells before the first such cell to a few after the last is planned again by exact
//! A\*, with a price on each: the stretch is then the cheapest under the terrain's costs
//! plus those prices, as they stood when it was planned. So "optimal" means optimal on
//! the map while no unit is in the way, and optimal under the prices of the moment
//! across a crowd; the path's [`FoundPath::cost`] is its terrain cost, without prices.
//! Paths already given are not planned again when units move or congestion changes;
//! units that stall ask for new ones. [`AvoidUnits::Ignore`](search::AvoidUnits::Ignore)
//! or [`CongestionSettings::OFF`](settings::CongestionSettings::OFF) leave the prices
//! out.
//!
//! ## Settings
//!
//! [`TilepathSettings`] (kept if you insert it before adding the plugin) groups them by
//! concern: the [`FrameBudget`] (time, or expansions for lockstep games), requests per
//! frame and the thread cap, [`RequestDefaults`] (algorithm, [`Algorithm::Auto`] and exact
//! by default, and limits), how [`GroupOrders`] share work and the [`FieldSettings`] they
//! use, [`ReplanSettings`] (re-planning on map edits), JPS+ tables, when landmark tables
//! are built ([`LandmarkTables`](settings::LandmarkTables): in the background by default)
//! the crowd ([`CrowdSettings`](settings::CrowdSettings)), when a unit counts as stalled
//! ([`StallSettings`](settings::StallSettings)) and the congestion new paths see
//! ([`CongestionSettings`](settings::CongestionSettings)). Each field's docs end with its
//! default.
//!
//! # Pipeline
//!
//! The plugin's systems run in five chained [`TilepathSystems`] sets, in [`Update`] or in the
//! schedule given to [`TilepathPlugin::in_schedule`] (`FixedUpdate` plans and steers on the
//! fixed step). Each stage works on what the one before it left:
//!
//! 1. [`SyncMap`](plugin::TilepathSystems::SyncMap): the map catches up with the world. The
//!    [`tilemap`] module folds every [`CollisionLayer`] (obstacles and terrain) into the
//!    [`NavGrid`] incrementally; the [`NavGrid`] itself (in `components::grid`) applies the
//!    edits, logs each change with its [generation](components::NavGrid#generation), and
//!    registers the [`MovementProfiles`] ([`profiles`]) on its map; last, the frame's
//!    changes are announced as [`NavGridChanged`] messages and a new map gets its JPS+
//!    tables (`pipeline::changes`), and the weighted layers' landmark tables are built on
//!    the async compute pool and installed when ready (`pipeline::tables`).
//! 2. [`Replan`](plugin::TilepathSystems::Replan): decide what to plan, in the private
//!    `pipeline` module. *Intake* (`pipeline::intake`) puts new and changed requests and
//!    inserted [`Replanning`] markers in the queue (`pipeline::queue`: three lanes, oldest
//!    first in each); *re-planning* (`pipeline::replan`) finds the paths the frame's
//!    changes cut or could shorten, repairs
//!    cuts in place or gives provisional detours (`pipeline::repair`), queues the rest in
//!    their lane and retries failures an edit may fix; *claims* (`pipeline::claim`) hand
//!    goal cells to new requests.
//! 3. [`Solve`](plugin::TilepathSystems::Solve): record where units stand and where
//!    they crawl ([`UnitMap`](components::UnitMap), `steering::unit_map`), then answer the queue within the budget, oldest
//!    first, in parallel on the compute task pool, each solver thread reusing its own
//!    [`Pathfinder`](search::Pathfinder); answers do not depend on the thread count
//!    (`pipeline::solve`). Each request is *resolved* first (`pipeline::resolve`: profile,
//!    start, goal, component) into a job (`solve::jobs`); the solver threads and the
//!    searches suspended until the next frame live in `solve::solvers`, the shared goal
//!    fields and shared approaches in `solve::fields`; answers that cross units or
//!    congestion are planned again around them in `solve::around`. Every answer, the re-planner's
//!    repairs included, is written by `pipeline::answer`: [`PathResult`], the request's
//!    status, [`PathSolved`] and [`TilepathStats`].
//! 4. [`Steer`](plugin::TilepathSystems::Steer): [`steering`] moves every unit with a
//!    [`Steering`] along its path (`steering::system`, `steering::follow`; units at rest
//!    left out in `steering::rest`; the crowd in
//!    `steering::crowd` and `steering::lanes`; right of way in narrow passages in
//!    `steering::passage` and `steering::right_of_way`; goal exchange in
//!    `steering::exchange`), steps every [`GridStepper`](steering::GridStepper)
//!    (`steering::grid_step`, sidesteps and refuges in `steering::sidestep`), marks stalled units
//!    [`Replanning`] and arrived ones [`Arrived`](steering::Arrived).
//! 5. [`Debug`](plugin::TilepathSystems::Debug): [`debug`] draws paths, obstacles and
//!    clearance with gizmos (always in [`Update`], whatever the plugin's schedule).
//!
//! ## Ordering your systems
//!
//! Order your own systems against these sets as the [`TilepathSystems`] docs say.
//!
//! # Positions and wide units
//!
//! Positions are world positions: a unit's or tilemap's `Transform` composed with those of
//! its `ChildOf` ancestors, read when the plugin runs, so units riding a moving entity and
//! maps under a translated parent get the right cells without `TransformPlugin` or ordering
//! against propagation; steering writes moves back into the local `Transform`. An agent of
//! diameter `d` covers a `d × d` square of cells around its anchor cell, the map edge
//! counting as a wall; [`NavGrid::agent_cell`] and [`NavGrid::agent_center`] are the one
//! conversion between the two (see [Positions of
//! agents](components::NavGrid#positions-of-agents) and [`PathRequest::diameter`]). On
//! hexagonal maps it covers the tiles within `d / 2` steps of its tile.
//!
//! # Grid shapes
//!
//! One pipeline serves every [`GridLayout`](components::GridLayout): the layout places the cells, and its
//! [shape](shape::GridShape) says which cells are neighbours. Square and isometric cells
//! have eight neighbours; hexagonal cells have six. Everything else is written once.
//! What only one shape can do:
//!
//! | option | `Square` | `Isometric` | `Hex(_)` |
//! |---|---|---|---|
//! | neighbours | 8, no corner cutting | 8, no corner cutting | 6 |
//! | `Connectivity::Cardinal` | 4 straight moves | 4 straight moves | falls back to the 6 moves |
//! | wide units, diameter `d` | `d × d` cells | `d × d` cells | tiles within `d / 2` steps |
//! | goal areas, radius `r` | `(2r + 1)²` cells | `(2r + 1)²` cells | tiles within `r` steps |
//! | `Algorithm` | all | all | A\*, Dijkstra, best-first; the others run as A\* |
//! | `Auto` speed-ups: JPS, JPS+ tables, landmark tables | yes | yes | no: A\*, same costs |
//! | smoothed waypoints | yes | yes | falls back to tile centres |
//! | steering keeps the footprint off walls | the square footprint | the square footprint | the tile (the layer keeps its disc clear) |
//! | crowd avoidance and separation see | units and walls | units and walls | units; each move's step rule keeps off walls |
//! | claims, queue lanes, budgets, re-plans, repairs, shared fields, crowds, [`GridStepper`](steering::GridStepper), gizmos | yes | yes | yes |
//!
//! An option in the table that falls back still answers: the request is solved as the
//! last column says, never refused.
//!
//! # Map edits
//!
//! Tiles gaining or losing [`BlocksPath`](tilemap::BlocksPath), texture and terrain changes
//! and despawns (see the [`tilemap` docs](tilemap#edits)), or [`NavGrid::apply_edits`] and
//! [`NavGrid::apply_map_edits`] on a hand-made grid, update the cached map incrementally, are
//! announced as [`NavGridChanged`] messages (any number of readers), bump
//! [`NavGrid::generation`] and re-plan the paths they concern, reviewed round-robin within
//! [`review_budget`](settings::ReplanSettings::review_budget) cells a frame (bound in
//! [`TilepathSettings`]). What the edits re-plan:
//!
//! - **Walls, only ahead.** A new wall concerns a found path only when a step of the path
//!   *ahead of its unit* is no longer allowed on the unit's layer (a cell blocked for its
//!   footprint, or a diagonal past a blocked corner): from the unit's own cell, or from the
//!   cell before the waypoint its [`PathProgress`](components::PathProgress) heads for
//!   when that comes earlier. Cells walked past do not count, nor does a wall beside the path
//!   that leaves every step allowed.
//! - **Exact repairs in place.** A cut path of an exact request (A\*, JPS, Dijkstra or
//!   `Auto`, no limits) whose unit stands on it is repaired in the re-planning step by a
//!   small search from a few cells before the cut to a few cells after it, and the detour is
//!   spliced in only when it costs *exactly* what the cut stretch did. The repaired path is
//!   then optimal: walls only remove moves, and every cell opened since the path was planned
//!   was checked against what is left of it (below). A repair answers in the frame the
//!   review finds the cut ([`TilepathStats::repaired`](stats::TilepathStats::repaired)), within
//!   [`ReplanSettings::repair_budget`] expansions per frame, outside the solve budget.
//! - **Provisional detours.** When only a dearer detour is found, the request is queued (with
//!   [`Replanning`]) and the unit walks that detour meanwhile: [`FoundPath::provisional`],
//!   valid on the current map, no [`PathSolved`] until the re-plan's answer replaces it. A
//!   unit stops at a wall only when no detour was found or the frame's repair budget is
//!   spent; [`Steering`] then walks it to the last free cell before the wall, never into it.
//! - **Failures retried only when the answer can change.** After an obstacle or terrain edit
//!   a failed request is retried only when the answer would now differ, which is checked
//!   before searching: `StartBlocked` when the unit's cell is free now, `GoalBlocked` when
//!   the goal's footprint is free, `Unreachable` when the start's and goal's components are
//!   one now (or the goal got walled over). A new map, resize or move, and a change of the
//!   profiles, retry every failure that depends on the map ([`PathFailure::depends_on_map`]).
//! - **Opening a shortcut re-routes the units it helps.** When cells become passable or their
//!   terrain changes, a found path is planned again if a route through an opened cell could
//!   be cheaper than what is left of it: octile distance from the unit to the cell plus from
//!   the cell to the path's end, times the profile's smallest weight, less what one diagonal
//!   step past the cell's corner saves, below the remaining cost of the path (for a partial
//!   path: if a reachable cell nearer to its requested goal exists now). A door opened in a
//!   wall re-routes the walkers on the long detour and no one else.
//! - **Openings that cannot help are ignored.** An opened cell that frees no cell of the
//!   unit's layer is not counted, nor one whose 3 × 3 block has no other opened cell and in
//!   which, between any two free cells, the cheapest way inside the block costs the same
//!   without it (a cell inside a thick wall, one on a straight wall edge): every route
//!   through it can be bent around it at no cost.
//! - **Lanes.** The queue serves requests that need an answer first (new or changed requests,
//!   retried failures, near cuts, stalls). Behind them, under load, wait the re-plans of
//!   paths cut farther than [`ReplanSettings::defer_cuts_beyond`] cells ahead of their unit
//!   ([`QueueLane::Deferred`]): the unit walks on, and the re-plan becomes urgent when it
//!   comes that near to the cut. Last come the re-plans that may only *improve* a still valid
//!   path (the shortcut bound above), without [`Replanning`] ([`QueueLane::Improvement`]); a
//!   path repaired while waiting there costs what the old one had left and is not proven
//!   optimal until that improvement answers.
//!
//! # Frame budgets, sliced searches and shared fields
//!
//! - The solve step takes requests from the queue in batches (64, then twice as many each
//!   time, at most [`TilepathSettings::max_requests_per_frame`] in all) while the budget
//!   lasts, so a long queue costs a frame only the requests it gets to.
//! - A search that does not finish within [`FrameBudget::Time`] is suspended
//!   (its pathfinder kept, at most one per solver thread) and resumed next frame where it
//!   stopped. The core API is [`Pathfinder::start`](search::Pathfinder::start)`(map, query,
//!   budget)` / [`resume`](search::Pathfinder::resume)`(map, budget)`, which ends exactly
//!   like `find`. [`TilepathStats::solve_times`](stats::TilepathStats::solve_times) is a
//!   histogram of per-frame solve times,
//!   [`TilepathStats::plugin_time`](stats::TilepathStats::plugin_time) the whole plugin's
//!   time per frame.
//! - Map edits do not throw that work away. The core map logs its recent cell edits
//!   ([`CachedScenario::edits_since`](scenario::CachedScenario::edits_since)), and a
//!   suspended A\* or Dijkstra search resumed on an edited map is carried over them, on
//!   every grid shape, obstacle and terrain edits alike: nodes whose way ran through a cell
//!   blocked since, a diagonal whose corner closed or a step whose cost changed are
//!   forgotten with every node found through them, each forgotten free node takes the best
//!   cost its closed neighbours offer, and closed nodes next to edited cells relax their
//!   moves again, reopening closed nodes that get cheaper (A\* with a consistent heuristic
//!   stays exact with reopening). The path found is checked against the map before it is
//!   answered. Shared fields are carried over the same way
//!   ([`DistanceField::carry_over`](search::DistanceField::carry_over)). JPS and JPS+
//!   searches, terrain edits that change a profile's smallest weight (the scale of A\*'s
//!   heuristic), resized maps and new profiles start over. Edits that cut the
//!   way of more than 16,384 cells of a search or field (a wall next to its start or goal)
//!   start it over in slices too, because repairing it would take one long step outside any
//!   budget. A [`NavGrid`] inserted in place of another is a new map
//!   ([`CachedScenario::id`](scenario::CachedScenario::id)): its suspended searches and
//!   fields are dropped and every path is planned again.
//! - Every waiting request is answered, at any budget and any edit rate: requests are served
//!   oldest first, the oldest makes progress every frame, and edits that keep setting a
//!   request back make it run its own search, then run it to its end (the [progress
//!   guarantee](settings::TilepathSettings#progress-guarantee), with its bound;
//!   [`TilepathStats::whole`](stats::TilepathStats::whole) counts such searches).
//! - [`FrameBudget::Expansions`] counts the budget in expansions instead of time:
//!   answers, and the frame each arrives in, then depend only on the requests and the map.
//! - Shared goal fields: group orders to one cell are answered from one exact distance field
//!   ([`FieldSettings::min_requests`], [`FieldSettings::max_fields`]).
//! - [`GroupOrders::SharedApproach`] (not the default: it gives up exactness): the units
//!   of a group order read the long way off one field and search only the last stretch, at
//!   most `2 d(s, g)` above their own optimum, marked [`FoundPath::approached`].
//!
//! # Terrain and movement profiles
//!
//! Every cell has a terrain id ([`TerrainId`](scenario::TerrainId), a `u8`, 0 unless set),
//! and every unit type reads terrain through a movement profile: a weight 1..=255 per
//! terrain, or blocked. A step from cell `a` to its neighbour `b` costs its length (1 or √2)
//! × `(w(a) + w(b)) / 2`, exactly (the core's model,
//! [`MovementProfile`](scenario::MovementProfile)); a cell whose terrain the profile blocks
//! is an obstacle for it, for every cell of the unit's footprint.
//!
//! ```rust
//! use bevy::prelude::*;
//! use bevy_tilepath::prelude::*;
//!
//! const GRASS: TerrainId = 0;
//! const FOREST: TerrainId = 1;
//! const WATER: TerrainId = 2;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, TilepathPlugin::default()));
//! // The profiles of the game, by name ("default" always exists: every terrain weighs 1).
//! app.insert_resource(
//!     MovementProfiles::default()
//!         .with("infantry", MovementProfile::new().with_weight(FOREST, 3).with_blocked(WATER))
//!         .with("vehicle", MovementProfile::new().with_blocked(FOREST).with_blocked(WATER)),
//! );
//! let mut grid = NavGrid::from_ascii(&vec![".".repeat(12); 9].join("\n"), Vec2::ZERO, Vec2::ONE).unwrap();
//! // A forest wall at x = 5..=6, open only in the top row.
//! let forest = (0..8).flat_map(|y| [5, 6].map(|x| MapEdit::Terrain(Cell::new(x, y), FOREST)));
//! grid.apply_map_edits(forest);
//! app.insert_resource(grid);
//! let goal = Cell::new(11, 0);
//! let soldier = app.world_mut().spawn((Transform::default(), PathRequest::new(goal).profile("infantry"))).id();
//! // (No claim: it would take a cell next to the soldier's, see "Goals" above.)
//! let truck = app.world_mut().spawn((Transform::default(), PathRequest::new(goal).profile("vehicle").claim_goal(false))).id();
//! app.update();
//! let path = |unit| app.world().get::<PathResult>(unit).unwrap().found().unwrap().clone();
//! assert_eq!(path(soldier).cost, 4.0 + 2.0 + 3.0 + 2.0 + 4.0); // straight through the forest
//! assert!(path(truck).cells.contains(&Cell::new(5, 8))); // around it, through the top row
//! ```
//!
//! - [`MovementProfiles`] holds the named profiles (adding, changing or removing one re-plans
//!   the paths planned with it); [`PathRequest::profile`] names one, resolved when the
//!   request is solved. [`FoundPath::cost`] is the path's cost under its profile,
//!   [`FoundPath::length`] its geometric length.
//! - Terrain comes from tilemaps ([`Terrain`](tilemap::Terrain) components or a layer's
//!   texture table; several layers combine by the rule in the [`tilemap`
//!   docs](tilemap#terrain)) or from [`NavGrid::apply_map_edits`] (`MapEdit::Terrain` and
//!   `MapEdit::Obstacle`); [`NavGrid::terrain`], [`NavGrid::weight`] and
//!   [`NavGrid::is_blocked_for`] read it. Which paths a terrain edit re-plans:
//!   [`NavGrid::apply_map_edits`].
//! - [`Steering`] follows the terrain: a unit crosses each step in the time its cost says, so
//!   the cost the search minimised is the travel time the player sees.
//!
//! # Tilemaps, steering, debug drawing and statistics
//!
//! - [`tilemap`]: a [`CollisionLayer`] on a bevy_ecs_tilemap tilemap,
//!   [`BlocksPath`](tilemap::BlocksPath) or a texture rule for walls,
//!   [`Terrain`](tilemap::Terrain) or a texture table for terrain; square, isometric
//!   (diamond and staggered) and hexagonal (all six coordinate systems) tilemaps are
//!   read, each as its [`GridLayout`](components::GridLayout) ([Grid shapes](#grid-shapes)).
//!   [`TilePosExt::to_cell_in`](tilemap::TilePosExt::to_cell_in) and
//!   [`CellExt::to_tile_pos_in`](tilemap::CellExt::to_tile_pos_in) convert between `TilePos` and
//!   [`Cell`](grid::Cell) (the orphan rule forbids `From`/`TryFrom` impls between two foreign
//!   crates' types). The [`plugin`] docs hold a complete tilemap example.
//! - [`Steering`]: arrival slow-down, crowds ([`crowd`] avoidance, no overlap), footprints
//!   kept out of blocked cells, stalled units planning again, paths around standing units
//!   ([`PathRequest::avoid_units`](components::PathRequest::avoid_units)); or
//!   [`GridStepper`](steering::GridStepper): a cell per tick, cells held, for turn games.
//! - [`TilepathDebugPlugin`](debug::TilepathDebugPlugin) draws once added: each unit's path and
//!   goal in its own colour, blocked cells; [`TilepathGizmos`](debug::TilepathGizmos) restyles it.
//! - [`TilepathStats`] counts each frame's answers, failures, waiting requests, re-plans,
//!   repairs, expanded cells, solve time and the pathfinders' and fields' memory, plus
//!   running totals, for HUDs and budget tuning.
//!
//! # Memory
//!
//! The searches allocate nothing per query once warm: each solver thread's
//! [`Pathfinder`](search::Pathfinder) reuses its buffers, and the plugin keeps at most
//! [`TilepathSettings::max_threads`] of them, about 12 bytes per map cell each for A\*
//! ([`TilepathStats::pathfinder_bytes`](stats::TilepathStats::pathfinder_bytes) says how much
//! they hold); a shared field holds about 13 bytes per cell. But each answer is a new
//! [`FoundPath`] with its own `cells` and `waypoints` vectors, and each map change a
//! [`NavGridChanged`] with its cell lists. [`PathRequest`] is `Clone`, not `Copy` (its
//! profile name is a `Cow<'static, str>`): queueing it copies the request, which allocates
//! only for a profile name that is an owned `String`.
//!
//! # Features and headless use
//!
//! Everything works headless (`MinimalPlugins`), which is how the tests run it. The plugin's
//! features, both on by default: `tilemap` (the bevy_ecs_tilemap integration) and `debug`
//! (gizmos); and, off by default, `tiled` (maps loaded by bevy_ecs_tiled 0.13: Tiled custom
//! properties become collision layers, obstacles and terrain, see `tilemap::TiledProperties`);
//! `cargo build -p bevy_tilepath --no-default-features` builds the plugin with a
//! hand-made [`NavGrid`] only. The core's value types (`Cell`, `Algorithm`, `Limits`,
//! `Connectivity`, ...) derive `Reflect` through its `bevy_reflect` feature (the small
//! reflection crate only, not bevy), which the plugin turns on and registers, so inspectors
//! can edit a request's goal.
//!
//! # The core, without bevy
//!
//! The core is its own crate, [`tilepath`] (dependency: smallvec; optional features `serde`
//! and `bevy_reflect`). The plugin re-exports it as `bevy_tilepath::tilepath`, its modules as
//! [`grid`], [`shape`], [`scenario`], [`search`] and [`smoothing`]. The [`prelude`] holds the names a
//! game writes (the plugin, its settings, requests, results, the map, profiles, unit
//! components and tilemap markers, including the core's [`Cell`](grid::Cell) and
//! [`Algorithm`](search::Algorithm)); the core's search API is imported from its modules:
//!
//! ```rust
//! use bevy_tilepath::grid::Cell;
//! use bevy_tilepath::scenario::CachedScenario;
//! use bevy_tilepath::search::{Algorithm, PathError, PathQuery, Pathfinder};
//!
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
//! | [`Algorithm`](search::Algorithm) | optimal | use it for |
//! |---|---|---|
//! | `AStar` | yes | any map, any diameter, octile or 4-connected |
//! | `Jps` | yes | large or open octile maps: block-based jumps over 64-cell words; no table, so maps that change every frame cost nothing extra |
//! | `JpsPlus` | yes | every jump read from a per-layer table (16 bytes per cell, built once in O(cells), updated in place on edits): faster than `Jps` on maps with rooms and open ground, about the same on one-cell mazes and random clutter |
//! | `Auto` | yes | the plugin's default: JPS (JPS+ once the layer's table is built) where every passable cell weighs the same for the request's profile, A\* otherwise |
//! | `Dijkstra` | yes | a reference; explores everything closer than the goal |
//! | `Bfs` | fewest steps | unit-cost thinking; reports the octile cost of its path |
//! | `Dfs` | no | bounded exploration (`PathQuery::radius`); demonstrations |
//! | `Iddfs` | no | DFS with a growing radius until found or a limit ends it |
//! | `BestFirst` | no | fast greedy answers on open maps |
//! | `Evasion` | no | open fields with few big obstacles: straight line plus contour detours, touches few cells (12 bytes per cell, like A\*) |
//!
//! [`PathRequest::algorithm`](components::PathRequest::algorithm) takes the same enum, so
//! a query and a request name algorithms alike. Games want the exact ones; `BestFirst`
//! gives cheap answers that are not optimal; the others serve the lab and teaching. The
//! plugin answers every one of them with the same budgets, claims and re-planning.
//!
//! All of them share one engine and its guarantees: no allocation per query after warm-up,
//! limits on expansions and time, typed errors (`OutOfBounds`, `InvalidDiameter`,
//! `StartBlocked`, `GoalBlocked`, `Unreachable`, `LimitReached`, `NotFound`), paths that are
//! valid for the agent's diameter, and optional line-of-sight smoothing.
//!
//! # Architecture
//!
//! Two crates in one workspace; the arrows are dependencies:
//!
//! ```text
//!  your game ──► bevy_tilepath (plugin: ., src/)  ──► bevy 0.19
//!                     │                           ──► bevy_ecs_tilemap 0.19  (feature "tilemap")
//!                     │                           ──► bevy_ecs_tiled 0.13    (feature "tiled")
//!                     ▼
//!               tilepath (core: crates/tilepath)  ──► smallvec
//!                                                 ··► serde, bevy_reflect   (optional features)
//! ```
//!
//! | crate | modules | depends on bevy? |
//! |---|---|---|
//! | `tilepath` | `grid` (cells, directions, fixed-point octile costs), `shape` (which cells are neighbours: squares or hexagons) | no |
//! | `tilepath` | `scenario` (trait, `CachedScenario`: bits, clearance, per-diameter layers, components; MovingAI and ASCII readers; generators) | no |
//! | `tilepath` | `search` (indexed heap, `Pathfinder` engine, one file per algorithm family, validation) | no |
//! | `tilepath` | `smoothing` (supercover line of sight, string pulling), `crowd` (ORCA avoidance, separation) | no |
//! | `bevy_tilepath` | `plugin`, `settings`, `components`, `profiles`, `pipeline` (private), `stats`, `steering`, `tilemap` (feature `tilemap`), `debug` (feature `debug`) | yes |
//!
//! The map ([`CachedScenario`](scenario::CachedScenario)) is shared read-only (layers are
//! built on first use behind a `OnceLock`); search scratch lives in the
//! [`Pathfinder`](search::Pathfinder) (generation-stamped, O(1) reset), never in the map.
//!
//! | feature | where |
//! |---|---|
//! | octile moves without corner cutting, optional 4-connected | `grid::Connectivity` |
//! | agents of any diameter up to 63 cells | `scenario::Layer`, clearance map |
//! | instant "unreachable" | `scenario::Components` (4-connected labels, incrementally updated) |
//! | incremental map edits | `CachedScenario::apply` (clearance and layer bits of a rectangle around the edits; components touching a changed cell are flooded again, up to the whole map) |
//! | terrain costs per unit type | `scenario::MovementProfile`; in the plugin `MovementProfiles`, `PathRequest::profile`, `tilemap::Terrain` and texture tables, terrain-aware steering |
//! | zero allocation per query | `search::Pathfinder` (checked by `crates/tilepath/tests/allocations.rs` and the runner) |
//!
//! # Fast debug builds in your game
//!
//! The search is slow without optimisation. In your game's `Cargo.toml`, keep both crates
//! optimised in debug builds (the rest of your game stays quick to compile):
//!
//! ```toml
//! [profile.dev.package.bevy_tilepath]
//! opt-level = 3
//!
//! [profile.dev.package.tilepath]
//! opt-level = 3
//! ```
//!
//! [`TilepathPlugin`]: plugin::TilepathPlugin
//! [`TilepathPlugin::in_schedule`]: plugin::TilepathPlugin::in_schedule
//! [`TilepathSystems`]: plugin::TilepathSystems
//! [`TilepathSettings`]: settings::TilepathSettings
//! [`FrameBudget`]: settings::FrameBudget
//! [`RequestDefaults`]: settings::RequestDefaults
//! [`GroupOrders`]: settings::GroupOrders
//! [`FieldSettings`]: settings::FieldSettings
//! [`ReplanSettings`]: settings::ReplanSettings
//! [`FrameBudget::Time`]: settings::FrameBudget::Time
//! [`FrameBudget::Expansions`]: settings::FrameBudget::Expansions
//! [`TilepathSettings::max_requests_per_frame`]: settings::TilepathSettings::max_requests_per_frame
//! [`TilepathSettings::max_threads`]: settings::TilepathSettings::max_threads
//! [`FieldSettings::min_requests`]: settings::FieldSettings::min_requests
//! [`FieldSettings::max_fields`]: settings::FieldSettings::max_fields
//! [`GroupOrders::SharedApproach`]: settings::GroupOrders::SharedApproach
//! [`ReplanSettings::repair_budget`]: settings::ReplanSettings::repair_budget
//! [`ReplanSettings::defer_cuts_beyond`]: settings::ReplanSettings::defer_cuts_beyond
//! [`Algorithm::Auto`]: search::Algorithm::Auto
//! [`NavGrid`]: components::NavGrid
//! [`NavGrid::agent_cell`]: components::NavGrid::agent_cell
//! [`NavGrid::agent_center`]: components::NavGrid::agent_center
//! [`NavGrid::apply_edits`]: components::NavGrid::apply_edits
//! [`NavGrid::apply_map_edits`]: components::NavGrid::apply_map_edits
//! [`NavGrid::generation`]: components::NavGrid::generation
//! [`NavGrid::terrain`]: components::NavGrid::terrain
//! [`NavGrid::weight`]: components::NavGrid::weight
//! [`NavGrid::is_blocked_for`]: components::NavGrid::is_blocked_for
//! [`NavGridChanged`]: components::NavGridChanged
//! [`PathRequest`]: components::PathRequest
//! [`PathRequest::exact`]: components::PathRequest::exact
//! [`PathRequest::diameter`]: components::PathRequest::diameter
//! [`PathRequest::profile`]: components::PathRequest::profile
//! [`PathGoal::Cell`]: components::PathGoal::Cell
//! [`PathGoal::World`]: components::PathGoal::World
//! [`PathResult`]: components::PathResult
//! [`FoundPath`]: components::FoundPath
//! [`FoundPath::partial`]: components::FoundPath::partial
//! [`FoundPath::provisional`]: components::FoundPath::provisional
//! [`FoundPath::approached`]: components::FoundPath::approached
//! [`FoundPath::cost`]: components::FoundPath::cost
//! [`FoundPath::length`]: components::FoundPath::length
//! [`PathFailure`]: components::PathFailure
//! [`PathFailure::depends_on_map`]: components::PathFailure::depends_on_map
//! [`PathSolved`]: components::PathSolved
//! [`QueueLane::Deferred`]: components::QueueLane::Deferred
//! [`QueueLane::Improvement`]: components::QueueLane::Improvement
//! [`Replanning`]: components::Replanning
//! [`MovementProfiles`]: profiles::MovementProfiles
//! [`TilepathStats`]: stats::TilepathStats
//! [`Steering`]: steering::Steering
//! [`CollisionLayer`]: tilemap::CollisionLayer
//! [`Update`]: bevy::prelude::Update
#![warn(missing_docs)]

pub use tilepath;
/// The core's modules: `bevy_tilepath::grid::Cell` and `tilepath::grid::Cell` are one type.
pub use tilepath::{crowd, grid, scenario, search, shape, smoothing};

pub mod components;
#[cfg(feature = "debug")]
pub mod debug;
mod main_thread;
mod pipeline;
pub mod plugin;
pub mod prelude;
pub mod profiles;
pub mod settings;
pub mod stats;
pub mod steering;
#[cfg(feature = "tilemap")]
pub mod tilemap;
