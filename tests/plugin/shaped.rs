//! Helpers of the suites that loop over every grid layout ([`shapes`]): the level's
//! units placed by the grid's own positions, and the oracle's shortest length on a
//! grid of any layout.
// Each feature set compiles a different subset of the tests, which use different helpers.
#![allow(dead_code)]

use bevy::prelude::*;
use bevy_tilepath::prelude::{Algorithm, Cell, NavGrid, PathGoal, PathRequest, Steering};
use bevy_tilepath::scenario::Layer;

use crate::common::{Rng, Unit, level_grid, moves, oracle};

/// The length of a shortest path from `start` to `goal` on `layer` of `grid` (the
/// independent [`oracle`] over the [`moves`] of the grid's layout, weight 1), `None` when
/// unreachable.
pub fn shortest_on(grid: &NavGrid, layer: &Layer, start: Cell, goal: Cell) -> Option<f64> {
    oracle(start, |c| c == goal, moves(grid.layout(), layer, |_| 1.0))
}

/// Inserts `grid` and spawns `n` units on it ([`spawn_units_at`]).
pub fn spawn_units_on(
    app: &mut App,
    grid: NavGrid,
    n: usize,
    seed: u64,
    free_starts: bool,
    steering: bool,
) -> Vec<Unit> {
    let units = spawn_units_at(app, &grid, n, seed, free_starts, steering);
    app.insert_resource(grid);
    units
}

/// Spawns `n` units on `grid` (not inserted): random starts (free for their diameter
/// when `free_starts`), goals and diameters (every fifth unit two cells wide), A*, JPS
/// and Dijkstra in turn, every seventh goal a world position; every position is the
/// grid's own ([`NavGrid::agent_center`]), a few world units off the centre.
pub fn spawn_units_at(
    app: &mut App,
    grid: &NavGrid,
    n: usize,
    seed: u64,
    free_starts: bool,
    steering: bool,
) -> Vec<Unit> {
    let mut rng = Rng(seed);
    let size = grid.size();
    let (w, h) = (size.width as usize, size.height as usize);
    let mut units = Vec::with_capacity(n);
    for i in 0..n {
        let diameter = if i % 5 == 4 { 2 } else { 1 };
        let algorithm = [Algorithm::AStar, Algorithm::Jps, Algorithm::Dijkstra][i % 3];
        let start = loop {
            let c = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
            if !free_starts || !grid.is_blocked(c, diameter) {
                break c;
            }
        };
        let goal = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
        let offset = Vec2::new(rng.below(7) as f32 - 3.0, rng.below(7) as f32 - 3.0);
        let target: PathGoal = if i % 7 == 0 {
            (grid.agent_center(goal, diameter) + offset).into()
        } else {
            goal.into()
        };
        let at = grid.agent_center(start, diameter) + offset;
        let mut unit = app.world_mut().spawn((
            Transform::from_translation(at.extend(1.0)),
            // Exact goals: these scenes check every answer against the oracle, failures
            // included.
            PathRequest::new(target)
                .algorithm(algorithm)
                .diameter(diameter)
                .exact(),
        ));
        if steering {
            unit.insert(Steering {
                speed: 48.0,
                arrival_radius: 8.0,
                ..Steering::default()
            });
        }
        units.push(Unit {
            entity: unit.id(),
            diameter,
            goal,
        });
    }
    units
}

/// [`spawn_units_on`] the 64x64 level laid out as `layout`.
pub fn spawn_level_units(
    app: &mut App,
    layout: bevy_tilepath::prelude::GridLayout,
    n: usize,
    seed: u64,
    free_starts: bool,
) -> Vec<Unit> {
    spawn_units_on(app, level_grid(layout), n, seed, free_starts, false)
}
