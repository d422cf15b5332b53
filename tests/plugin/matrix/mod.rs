//! The bad-input matrix: one table of rows, each a bad input beside healthy units, each
//! asserting a typed failure or a valid answer and that the healthy units are still served.
//!
//! Every row runs on every layout of [`crate::common::shapes`] (square, isometric and
//! two hexagonal layouts), but the tilemap rows, which build their own tilemaps and run
//! once.
//!
//! A row builds its scene (a map and the bad input; its subject is one unit), runs
//! frames (with an optional action after the first one, for inputs that go bad while a
//! search runs), checks the subject's answer, optionally repairs a map-wide bad input
//! (the healthy units cannot be served on a map that is not there), lets the queue settle
//! and then asserts that every healthy unit has a valid shortest path. Rows run one after the other and every
//! failure is collected, so one run lists all the rows that break.

mod huge;
mod inputs;
mod loads;
#[cfg(feature = "tilemap")]
mod tilemaps;
mod walking;
mod world;

use std::panic::{AssertUnwindSafe, catch_unwind};

use bevy::prelude::*;
use bevy_tilepath::components::PathStatus;
use bevy_tilepath::grid::{Connectivity, GridSize};
use bevy_tilepath::prelude::{
    Cell, FoundPath, GridLayout, NavGrid, PathFailure, PathRequest, PathResult, ProfileId,
};
use bevy_tilepath::scenario::{BitGrid, CachedScenario};
use bevy_tilepath::search::validate_path;

use crate::common::{app, bits_of, shapes};
use crate::shaped::shortest_on;

/// Side of a tile of the row maps, in world units.
pub const TILE: f32 = 16.0;
/// Frames a row runs before its subject is checked (requests settle sooner).
const FRAMES: usize = 40;

/// The standard 24x16 map: a wall at x = 11 from y = 0 to 10 (a 5-cell gap above it), a
/// closed room at x 18..=22, y 2..=6 (its inside cannot be reached), a 2x2 block at
/// (5..=6, 12..=13). `walls[y][x]`.
pub fn walls() -> Vec<Vec<bool>> {
    let mut walls = vec![vec![false; 24]; 16];
    for row in walls.iter_mut().take(11) {
        row[11] = true;
    }
    for (y, row) in walls.iter_mut().enumerate().take(7).skip(2) {
        for (x, cell) in row.iter_mut().enumerate().take(23).skip(18) {
            *cell |= y == 2 || y == 6 || x == 18 || x == 22;
        }
    }
    for row in walls.iter_mut().take(14).skip(12) {
        row[5..=6].fill(true);
    }
    walls
}

/// A cell inside the closed room of [`walls`]: free, reachable from nowhere outside.
pub const IN_ROOM: Cell = Cell::new(20, 4);

/// The healthy units of a row on the standard map: `(start, goal, diameter)`.
pub const HEALTHY: [(Cell, Cell, u32); 3] = [
    (Cell::new(1, 1), Cell::new(22, 14), 1),
    (Cell::new(1, 8), Cell::new(20, 12), 2),
    (Cell::new(3, 3), Cell::new(14, 8), 3),
];

/// What a row expects of its subject.
pub enum Expect {
    /// The request fails with exactly this failure.
    Fails(PathFailure),
    /// The request fails with a failure of this kind (named for the report).
    FailsWith(&'static str, fn(&PathFailure) -> bool),
    /// A complete path, valid for the request's diameter and profile on the current map.
    Found,
    /// A valid path to the reachable cell nearest to a goal that cannot be reached.
    Partial,
    /// Custom assertions (named for the report).
    Holds(&'static str, fn(&mut Scene, Entity)),
}

/// One row of the matrix.
pub struct Row {
    pub name: &'static str,
    /// Builds the map and the bad input; returns the subject unit.
    pub setup: fn(&mut Scene) -> Entity,
    /// Runs after the first frame (inputs that go bad while a search runs).
    pub during: Option<fn(&mut Scene, Entity)>,
    pub expect: Expect,
    /// Makes a map-wide bad input usable again before the healthy units are checked.
    pub repair: Option<fn(&mut Scene)>,
}

impl Row {
    pub fn new(name: &'static str, setup: fn(&mut Scene) -> Entity, expect: Expect) -> Self {
        Self {
            name,
            setup,
            during: None,
            expect,
            repair: None,
        }
    }

    pub fn during(mut self, action: fn(&mut Scene, Entity)) -> Self {
        self.during = Some(action);
        self
    }

    pub fn repair(mut self, action: fn(&mut Scene)) -> Self {
        self.repair = Some(action);
        self
    }
}

/// A row's app and where its map lies.
pub struct Scene {
    pub app: App,
    /// How the cells of the row's maps are laid out.
    pub layout: GridLayout,
    /// World centre of cell (0, 0) and cell spacing of the map the units are placed on.
    pub origin: Vec2,
    pub tile: Vec2,
    /// Healthy units spawned after the setup: `(start, goal, diameter)`.
    pub plan: Vec<(Cell, Cell, u32)>,
    healthy: Vec<(Entity, Cell, u32)>,
}

impl Scene {
    fn new(layout: GridLayout) -> Self {
        Self {
            app: app(),
            layout,
            origin: Vec2::ZERO,
            tile: Vec2::splat(TILE),
            plan: HEALTHY.to_vec(),
            healthy: Vec::new(),
        }
    }

    /// Inserts the standard map as a hand-made [`NavGrid`] at [`Scene::origin`].
    pub fn grid(&mut self) {
        let grid = self.make_grid(&walls());
        self.app.insert_resource(grid);
    }

    /// A grid of `walls` placed at [`Scene::origin`] / [`Scene::tile`], laid out as
    /// [`Scene::layout`].
    pub fn make_grid(&self, walls: &[Vec<bool>]) -> NavGrid {
        self.place(CachedScenario::from_bits(bits_of(walls)).unwrap())
    }

    /// `map` as a grid placed at [`Scene::origin`] / [`Scene::tile`], laid out as
    /// [`Scene::layout`].
    pub fn place(&self, map: CachedScenario) -> NavGrid {
        NavGrid::new(map, self.origin, self.tile).with_layout(self.layout)
    }

    /// World centre of an agent of `diameter` anchored at `cell` on a grid placed at
    /// [`Scene::origin`] / [`Scene::tile`] and laid out as [`Scene::layout`] (whether
    /// or not such a grid exists).
    pub fn center(&self, cell: Cell, diameter: u32) -> Vec2 {
        let one = CachedScenario::from_bits(BitGrid::new(GridSize::new(1, 1), false)).unwrap();
        self.place(one).agent_center(cell, diameter)
    }

    /// Spawns a unit of `diameter` on `cell` with `request`.
    pub fn unit(&mut self, cell: Cell, diameter: u32, request: PathRequest) -> Entity {
        let at = self.center(cell, diameter);
        self.at(at, request.diameter(diameter))
    }

    /// Spawns a unit at the world position `at` with `request`.
    pub fn at(&mut self, at: Vec2, request: PathRequest) -> Entity {
        self.spawn((Transform::from_translation(at.extend(1.0)), request))
    }

    pub fn spawn(&mut self, bundle: impl Bundle) -> Entity {
        self.app.world_mut().spawn(bundle).id()
    }

    /// Runs `n` frames.
    pub fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.app.update();
        }
    }

    /// Runs frames until no request waits (at most `max`); returns the frames run.
    pub fn settle(&mut self, max: usize) -> usize {
        for frame in 1..=max {
            self.app.update();
            let mut q = self.app.world_mut().query::<(&PathResult, &PathStatus)>();
            if q.iter(self.app.world())
                .all(|(r, t)| !r.is_pending() && !t.is_queued())
            {
                return frame;
            }
        }
        max
    }

    pub fn result(&self, unit: Entity) -> &PathResult {
        self.app
            .world()
            .get::<PathResult>(unit)
            .unwrap_or_else(|| panic!("{unit} has no PathResult"))
    }

    /// The unit's path, checked valid for its request on the current grid.
    pub fn valid_path(&self, unit: Entity) -> FoundPath {
        let PathResult::Found(path) = self.result(unit) else {
            panic!("{unit}: expected a path, got {:?}", self.result(unit));
        };
        let request = self.app.world().get::<PathRequest>(unit).unwrap();
        let grid = self.app.world().resource::<NavGrid>();
        let layer = grid
            .scenario()
            .layer_for(path.profile, request.diameter)
            .expect("a path implies a layer");
        let checked = validate_path(
            layer,
            &path.cells,
            path.start,
            path.reached,
            Connectivity::Octile,
        );
        assert_eq!(checked, Ok(()), "{unit}: invalid path {path:?}");
        let walked = grid.layout().shape().path_length(&path.cells);
        assert!(
            (f64::from(path.length) - walked).abs() < 1e-3,
            "{unit}: length {} of cells {walked}",
            path.length
        );
        assert!(!path.waypoints.is_empty(), "{path:?}");
        assert!(path.waypoints.iter().all(|w| w.is_finite()), "{path:?}");
        path.clone()
    }

    fn spawn_healthy(&mut self) {
        for (start, goal, diameter) in self.plan.clone() {
            let unit = self.unit(start, diameter, PathRequest::new(goal));
            self.healthy.push((unit, goal, diameter));
        }
    }

    /// Asserts every healthy unit has a complete shortest path from its cell to its goal.
    fn assert_healthy_served(&self) {
        let grid = self.app.world().resource::<NavGrid>();
        for &(unit, goal, diameter) in &self.healthy {
            let path = self.valid_path(unit);
            let layer = grid
                .scenario()
                .layer_for(ProfileId::DEFAULT, diameter)
                .unwrap();
            assert!(
                !path.partial,
                "healthy {unit} d{diameter}: partial {path:?}"
            );
            assert_eq!(path.reached, goal, "healthy {unit} d{diameter}");
            assert_eq!(path.start, path.from, "healthy {unit} d{diameter}");
            let best = shortest_on(grid, layer, path.start, goal).unwrap();
            assert!(
                (f64::from(path.length) - best).abs() < 1e-3,
                "healthy {unit} d{diameter}: length {} vs {best}",
                path.length
            );
        }
    }
}

/// Runs one row on a map laid out as `layout`; panics (with the reason) when it does not
/// hold.
fn run(row: &Row, layout: GridLayout) {
    let mut scene = Scene::new(layout);
    let subject = (row.setup)(&mut scene);
    scene.spawn_healthy();
    scene.app.update();
    if let Some(during) = row.during {
        during(&mut scene, subject);
    }
    scene.settle(FRAMES);
    match &row.expect {
        Expect::Fails(failure) => {
            assert_eq!(scene.result(subject), &PathResult::Failed(*failure));
        }
        Expect::FailsWith(kind, accepts) => match scene.result(subject) {
            PathResult::Failed(f) if accepts(f) => {}
            other => panic!("expected a failure {kind}, got {other:?}"),
        },
        Expect::Found => {
            let path = scene.valid_path(subject);
            assert!(!path.partial, "{path:?}");
        }
        Expect::Partial => {
            let path = scene.valid_path(subject);
            assert!(path.partial, "{path:?}");
        }
        Expect::Holds(_, check) => check(&mut scene, subject),
    }
    if let Some(repair) = row.repair {
        repair(&mut scene);
    }
    scene.settle(FRAMES);
    scene.assert_healthy_served();
}

fn describe(expect: &Expect) -> String {
    match expect {
        Expect::Fails(f) => format!("fails {f:?}"),
        Expect::FailsWith(kind, _) => format!("fails {kind}"),
        Expect::Found => "valid path".to_string(),
        Expect::Partial => "valid partial path".to_string(),
        Expect::Holds(what, _) => what.to_string(),
    }
}

#[test]
fn bad_input_matrix() {
    // (row, whether it runs on every layout): the tilemap rows build their own maps.
    let mut rows: Vec<(Row, bool)> = Vec::new();
    let every = |rows: Vec<Row>| rows.into_iter().map(|r| (r, true));
    rows.extend(every(inputs::rows()));
    rows.extend(every(world::rows()));
    rows.extend(every(walking::rows()));
    rows.extend(every(huge::rows()));
    rows.extend(every(loads::rows()));
    #[cfg(feature = "tilemap")]
    rows.extend(tilemaps::rows().into_iter().map(|r| (r, false)));
    let mut failed = Vec::new();
    let mut runs = 0;
    for layout in shapes() {
        for (row, _) in rows
            .iter()
            .filter(|(_, every)| *every || layout == GridLayout::Square)
        {
            runs += 1;
            let started = std::time::Instant::now();
            let name = format!("{layout:?}");
            match catch_unwind(AssertUnwindSafe(|| run(row, layout))) {
                Ok(()) => println!(
                    "  ok   {name:<18} {:<58} {} ({} ms)",
                    row.name,
                    describe(&row.expect),
                    started.elapsed().as_millis()
                ),
                Err(panic) => {
                    let reason = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    println!("  FAIL {name:<18} {:<58} {reason}", row.name);
                    failed.push(format!("{name}: {}", row.name));
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "bad-input matrix: {} of {runs} runs failed: {failed:?}",
        failed.len(),
    );
    assert!(rows.len() >= 40, "{} rows", rows.len());
    println!(
        "bad-input matrix: {} rows, {runs} runs on {} layouts, all passed",
        rows.len(),
        shapes().len()
    );
}
