//! The lab's state: the shipped maps, the shared pathfinder and every algorithm's last result.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_tilepath::grid::{Cell, GridSize};
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::scenario::generate::{SplitMix64, rts_bases};
use bevy_tilepath::scenario::movingai::MovingAiMap;
use bevy_tilepath::search::{Algorithm, Limits, PathError, PathQuery, PathStats, Pathfinder};

use crate::view::{EXPLORED, FREE, GOAL, PATH, START, WALL};
use crate::{MAP_FILES, Options};

/// The algorithms with a panel: every one of `Algorithm::ALL` except `Auto`, which on
/// these maps (no terrain, so every layer is uniform) is exactly `Jps`, and `JpsPlus`,
/// the same search with its jumps read from a precomputed table (same costs, nearly the
/// same jump points: its panel would repeat the JPS one).
pub const PANELS: [Algorithm; 8] = [
    Algorithm::AStar,
    Algorithm::Jps,
    Algorithm::Dijkstra,
    Algorithm::Bfs,
    Algorithm::Dfs,
    Algorithm::Iddfs,
    Algorithm::BestFirst,
    Algorithm::Evasion,
];
// Every algorithm but `Auto` and `JpsPlus` has a panel (a new algorithm must get one).
const _: () = assert!(PANELS.len() + 2 == Algorithm::ALL.len());

/// One selectable map with its current start and goal.
pub struct MapEntry {
    pub name: &'static str,
    pub map: CachedScenario,
    pub start: Cell,
    pub goal: Cell,
}

/// What one algorithm did on the current query.
pub struct PanelResult {
    pub algorithm: Algorithm,
    pub outcome: Result<PathStats, PathError>,
    pub micros: f64,
    pub waypoints: Vec<Cell>,
}

/// The lab state: maps, the shared pathfinder and the last results.
#[derive(Resource)]
pub struct Lab {
    pub maps: Vec<MapEntry>,
    pub current: usize,
    pub smooth: bool,
    pub pathfinder: Pathfinder,
    pub results: Vec<PanelResult>,
    pub rng: SplitMix64,
    pub dirty: bool,
}

impl Lab {
    pub fn new(options: &Options) -> Result<Self, String> {
        let mut maps = Vec::new();
        for (key, name, text) in MAP_FILES {
            let bits = MovingAiMap::parse(text)
                .map_err(|e| format!("{name}: {e}"))?
                .into_bits();
            let map = CachedScenario::from_bits(bits).map_err(|e| format!("{name}: {e}"))?;
            let size = map.size();
            let (w, h) = (size.width as i32, size.height as i32);
            let (start_hint, goal_hint) = if key == "rts" {
                rts_bases(size)
            } else {
                (Cell::new(2, 2), Cell::new(w - 3, h - 3))
            };
            let start = nearest_free(&map, start_hint, None).unwrap_or(start_hint);
            let goal = nearest_free(&map, goal_hint, Some(start)).unwrap_or(start);
            maps.push(MapEntry {
                name,
                map,
                start,
                goal,
            });
        }
        Ok(Self {
            maps,
            current: options.map,
            smooth: options.smooth,
            pathfinder: Pathfinder::new(),
            results: PANELS
                .iter()
                .map(|&algorithm| PanelResult {
                    algorithm,
                    outcome: Err(PathError::Unreachable),
                    micros: 0.0,
                    waypoints: Vec::new(),
                })
                .collect(),
            rng: SplitMix64::new(0x1ab),
            dirty: true,
        })
    }

    pub fn entry(&self) -> &MapEntry {
        &self.maps[self.current]
    }

    /// Runs every algorithm on the current query and paints its panel into `pixels`.
    pub fn run_all(&mut self, pixels: &mut [Vec<u8>]) {
        let Lab {
            maps,
            current,
            smooth,
            pathfinder,
            results,
            ..
        } = self;
        let entry = &maps[*current];
        let size = entry.map.size();
        for (result, pixels) in results.iter_mut().zip(pixels.iter_mut()) {
            let query = PathQuery::new(entry.start, entry.goal)
                .algorithm(result.algorithm)
                .smooth(*smooth)
                .limits(Limits {
                    max_expanded: 4_000_000,
                    time_budget: Some(Duration::from_millis(100)),
                });
            let t = Instant::now();
            result.outcome = pathfinder.find(&entry.map, &query);
            let mut best = t.elapsed();
            if best < Duration::from_millis(2) {
                for _ in 0..9 {
                    let t = Instant::now();
                    result.outcome = pathfinder.find(&entry.map, &query);
                    best = best.min(t.elapsed());
                }
            }
            result.micros = best.as_secs_f64() * 1e6;
            result.waypoints.clear();
            result.waypoints.extend_from_slice(pathfinder.waypoints());

            paint_map(&entry.map, pixels);
            for cell in pathfinder.explored() {
                put(pixels, size, cell, EXPLORED);
            }
            for &cell in pathfinder.path() {
                put(pixels, size, cell, PATH);
            }
            put(pixels, size, entry.start, START);
            put(pixels, size, entry.goal, GOAL);
        }
    }
}
/// The free cell nearest to `hint` (connected to `anchor` when given).
fn nearest_free(map: &CachedScenario, hint: Cell, anchor: Option<Cell>) -> Option<Cell> {
    let size = map.size();
    (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| match anchor {
            Some(a) => map.connected(a, c, 1),
            None => map.connected(c, c, 1),
        })
        .min_by_key(|c| {
            let (dx, dy) = (c.x - hint.x, c.y - hint.y);
            dx * dx + dy * dy
        })
}
fn paint_map(map: &CachedScenario, pixels: &mut Vec<u8>) {
    let size = map.size();
    pixels.clear();
    let bits = map.obstacles();
    for y in 0..size.height {
        for x in 0..size.width {
            let c = if bits.get_or(Cell::new(x as i32, y as i32), true) {
                WALL
            } else {
                FREE
            };
            pixels.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
}

fn put(pixels: &mut [u8], size: GridSize, cell: Cell, c: [u8; 3]) {
    if size.contains(cell) {
        let i = size.index(cell) * 4;
        pixels[i..i + 3].copy_from_slice(&c);
    }
}
/// Picks a random connected start and goal at least a third of the map apart.
pub fn random_pair(lab: &mut Lab) {
    let current = lab.current;
    let Lab { maps, rng, .. } = lab;
    let entry = &mut maps[current];
    let size = entry.map.size();
    let far = (size.width + size.height) / 3;
    let mut random_cell = || Cell::new(rng.below(size.width) as i32, rng.below(size.height) as i32);
    for _ in 0..10_000 {
        let (a, b) = (random_cell(), random_cell());
        if a.x.abs_diff(b.x) + a.y.abs_diff(b.y) >= far && entry.map.connected(a, b, 1) {
            entry.start = a;
            entry.goal = b;
            return;
        }
    }
}
