//! What a run measures, frame by frame: arrivals, overlapping discs (counted over a bucket
//! grid, O(n) per frame), motion after arrival and stalls; and the ideal free-flow time.

use bevy::math::Vec2;
use bevy_tilepath::prelude::Cell;
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::search::{PathQuery, Pathfinder};
use bevy_tilepath::tilepath::grid::cost_to_f64;

use crate::Limits;
use crate::progress::Progress;
use crate::scenarios::Scenario;

/// Two discs overlap when they are closer than their radii's sum by more than this many tiles.
pub const TOLERANCE: f32 = 0.05;
/// Seconds without any unit moving after which a run that is not done stops early.
pub const STALL_SECS: f64 = 10.0;
/// An arrived unit settled short of its goal when it stands more than this many tiles
/// from it.
pub const SHORT: f32 = 1.0;
/// A unit moved in a frame when its position changed by more than this many tiles.
const MOVED: f32 = 1e-4;

/// What one run of one scenario measured.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Units with an order.
    pub movers: usize,
    /// All units (with the parked ones).
    pub units: usize,
    /// The ideal time, simulated seconds (see the scenario's `ideal_note`).
    pub ideal_s: f64,
    /// Simulated seconds until every unit with an order had arrived at once; `None` when
    /// that did not happen before the limit.
    pub arrived_s: Option<f64>,
    /// The limit of the run, simulated seconds.
    pub limit_s: f64,
    /// Simulated seconds the run lasted (the limit, or less when all arrived or nothing
    /// moved for [`STALL_SECS`]).
    pub ran_s: f64,
    /// The run stopped because nothing moved for [`STALL_SECS`].
    pub stalled: bool,
    /// Units with an order that had not arrived when the run ended.
    pub deadlocks: usize,
    /// Pairs of overlapping discs, summed over the frames.
    pub overlap_pair_frames: u64,
    /// The deepest overlap seen, tiles.
    pub worst_overlap: f32,
    /// Mean speed of the arrived units over one more second after the run, as a fraction
    /// of the top speed.
    pub jitter: f64,
    /// Units with an order that count as arrived more than [`SHORT`] tiles from the end of
    /// their path (they settled in the crowd short of it), and the farthest of them, tiles.
    pub settled_short: usize,
    pub farthest_short: f32,
    /// Mean and longest milliseconds per frame of the crowd's movement (ours: the `Steer`
    /// set; northstar: its `PathingSet` and the mover).
    pub steer_ms: f64,
    pub steer_max_ms: f64,
    /// Frames run after the order.
    pub frames: u32,
    /// Wall-clock seconds of the run (map, order, frames).
    pub wall_s: f64,
    /// Leg scenarios: legs finished at their goal, legs abandoned, the longest finished
    /// leg (simulated seconds); 0 elsewhere.
    pub legs: u64,
    pub abandoned: u64,
    pub longest_leg_s: f64,
    /// Unit-seconds stalled by the progress rule (`progress.rs`), and the longest stall
    /// of one unit, seconds.
    pub stalled_unit_s: f64,
    pub longest_stall_s: f64,
    /// Instances merged into this outcome (seeds).
    pub runs: u32,
}

impl Outcome {
    /// Merges the run of another seed of the same scenario: counts and times add up,
    /// worst cases and the ideal take the larger, "all arrived" the later (or none).
    pub fn merge(&mut self, o: &Outcome) {
        self.movers += o.movers;
        self.units += o.units;
        self.ideal_s = self.ideal_s.max(o.ideal_s);
        self.arrived_s = self.arrived_s.zip(o.arrived_s).map(|(a, b)| a.max(b));
        self.limit_s = self.limit_s.max(o.limit_s);
        self.ran_s += o.ran_s;
        self.stalled |= o.stalled;
        self.deadlocks += o.deadlocks;
        self.overlap_pair_frames += o.overlap_pair_frames;
        self.worst_overlap = self.worst_overlap.max(o.worst_overlap);
        self.jitter = self.jitter.max(o.jitter);
        self.settled_short += o.settled_short;
        self.farthest_short = self.farthest_short.max(o.farthest_short);
        let frames = f64::from(self.frames + o.frames).max(1.0);
        self.steer_ms =
            (self.steer_ms * f64::from(self.frames) + o.steer_ms * f64::from(o.frames)) / frames;
        self.steer_max_ms = self.steer_max_ms.max(o.steer_max_ms);
        self.frames += o.frames;
        self.wall_s += o.wall_s;
        self.legs += o.legs;
        self.abandoned += o.abandoned;
        self.longest_leg_s = self.longest_leg_s.max(o.longest_leg_s);
        self.stalled_unit_s += o.stalled_unit_s;
        self.longest_stall_s = self.longest_stall_s.max(o.longest_stall_s);
        self.runs += o.runs;
    }

    /// Legs finished per simulated minute of all the runs merged.
    pub fn legs_per_minute(&self) -> f64 {
        if self.ran_s > 0.0 {
            self.legs as f64 * 60.0 / self.ran_s
        } else {
            0.0
        }
    }
}

/// Pairs of discs closer than their radii's sum by more than [`TOLERANCE`], found through
/// a grid of square buckets as wide as the largest disc (each pair is tested once).
/// Buffers are reused from frame to frame.
pub struct Overlaps {
    side: f32,
    columns: usize,
    rows: usize,
    starts: Vec<u32>,
    order: Vec<u32>,
    keys: Vec<u32>,
}

impl Overlaps {
    /// For a map of `width` × `height` tiles and discs of at most `max_radius` tiles.
    pub fn new(width: u32, height: u32, max_radius: f32) -> Self {
        let side = (2.0 * max_radius).max(0.5);
        let columns = (width as f32 / side).ceil() as usize + 1;
        let rows = (height as f32 / side).ceil() as usize + 1;
        Overlaps {
            side,
            columns,
            rows,
            starts: vec![0; columns * rows + 1],
            order: Vec::new(),
            keys: Vec::new(),
        }
    }

    fn bucket(&self, p: Vec2) -> (usize, usize) {
        let q = (p / self.side).floor();
        (
            (q.x.max(0.0) as usize).min(self.columns - 1),
            (q.y.max(0.0) as usize).min(self.rows - 1),
        )
    }

    /// The number of overlapping pairs among discs at `pos` (tiles, cell centres at
    /// integers) of `radii`, and the deepest overlap (0 without one). A counting sort by
    /// bucket, then each disc against the discs of its own and the 4 following buckets.
    pub fn count(&mut self, pos: &[Vec2], radii: &[f32]) -> (u64, f32) {
        self.keys.clear();
        self.starts.fill(0);
        for &p in pos {
            let (x, y) = self.bucket(p);
            let key = (y * self.columns + x) as u32;
            self.keys.push(key);
            self.starts[key as usize + 1] += 1;
        }
        for i in 1..self.starts.len() {
            self.starts[i] += self.starts[i - 1];
        }
        self.order.clear();
        self.order.resize(pos.len(), 0);
        let mut fill = self.starts.clone();
        for (i, &key) in self.keys.iter().enumerate() {
            self.order[fill[key as usize] as usize] = i as u32;
            fill[key as usize] += 1;
        }
        let (mut pairs, mut worst) = (0, 0.0f32);
        let mut test = |i: usize, j: usize| {
            let depth = radii[i] + radii[j] - pos[i].distance(pos[j]);
            if depth > TOLERANCE {
                pairs += 1;
                worst = worst.max(depth);
            }
        };
        for (i, &p) in pos.iter().enumerate() {
            let (bx, by) = self.bucket(p);
            // Own bucket (later discs only), then east, north-west, north, north-east.
            let own = by * self.columns + bx;
            for &j in &self.order[self.starts[own] as usize..self.starts[own + 1] as usize] {
                if (j as usize) > i {
                    test(i, j as usize);
                }
            }
            for (dx, dy) in [(1i64, 0i64), (-1, 1), (0, 1), (1, 1)] {
                let (x, y) = (bx as i64 + dx, by as i64 + dy);
                if x < 0 || y < 0 || x >= self.columns as i64 || y >= self.rows as i64 {
                    continue;
                }
                let b = y as usize * self.columns + x as usize;
                for &j in &self.order[self.starts[b] as usize..self.starts[b + 1] as usize] {
                    test(i, j as usize);
                }
            }
        }
        (pairs, worst)
    }
}

/// Follows a run frame by frame: the positions (tiles) and arrivals of every unit.
pub struct Tracker {
    dt: f64,
    radii: Vec<f32>,
    movers: Vec<bool>,
    prev: Vec<Vec2>,
    overlaps: Overlaps,
    still_frames: u32,
    progress: Progress,
    pub out: Outcome,
}

impl Tracker {
    /// For the units of `scenario` (the first frame's positions are `start`), frames of
    /// `dt` seconds.
    pub fn new(scenario: &Scenario, start: &[Vec2], dt: f64) -> Self {
        let radii: Vec<f32> = scenario
            .units
            .iter()
            .map(|u| u.diameter as f32 / 2.0)
            .collect();
        let size = scenario.bits.size();
        let max_radius = radii.iter().copied().fold(0.5, f32::max);
        Tracker {
            dt,
            movers: scenario.units.iter().map(|u| !u.parked).collect(),
            prev: start.to_vec(),
            overlaps: Overlaps::new(size.width, size.height, max_radius),
            still_frames: 0,
            progress: Progress::new(&scenario.bits, scenario.units.len(), dt),
            radii,
            out: Outcome {
                movers: scenario.movers(),
                units: scenario.units.len(),
                runs: 1,
                ..Outcome::default()
            },
        }
    }

    /// Records a frame after the order: positions, cells, current goals (`None` once
    /// arrived or without an order) and arrivals (leg scenarios: all legs done) of every
    /// unit (in the scenario's order) and the frame's movement milliseconds. True when
    /// the run is over: every unit with an order arrived, or nothing moved for
    /// [`STALL_SECS`].
    pub fn frame(
        &mut self,
        pos: &[Vec2],
        cells: &[Option<Cell>],
        goals: &[Option<Cell>],
        arrived: &[bool],
        ms: f64,
    ) -> bool {
        for (i, (&cell, &goal)) in cells.iter().zip(goals).enumerate() {
            self.progress.observe(i, cell, goal);
        }
        self.out.stalled_unit_s = self.progress.stalled_s;
        self.out.longest_stall_s = self.progress.longest_s;
        let out = &mut self.out;
        out.frames += 1;
        out.steer_ms += ms;
        out.steer_max_ms = out.steer_max_ms.max(ms);
        let (pairs, worst) = self.overlaps.count(pos, &self.radii);
        out.overlap_pair_frames += pairs;
        out.worst_overlap = out.worst_overlap.max(worst);
        let moved = pos
            .iter()
            .zip(&self.prev)
            .any(|(p, q)| p.distance(*q) > MOVED);
        self.prev.copy_from_slice(pos);
        self.still_frames = if moved { 0 } else { self.still_frames + 1 };
        let waiting = self
            .movers
            .iter()
            .zip(arrived)
            .filter(|(m, a)| **m && !**a)
            .count();
        out.ran_s = f64::from(out.frames) * self.dt;
        out.deadlocks = waiting;
        if waiting == 0 {
            out.arrived_s = Some(out.ran_s);
            return true;
        }
        if f64::from(self.still_frames) * self.dt >= STALL_SECS {
            out.stalled = true;
            return true;
        }
        false
    }

    /// After the run: the mean speed over `seconds` of the units arrived at its start
    /// (`trace` yields each frame's positions), as a fraction of `speed` tiles/s.
    pub fn jitter(
        &mut self,
        arrived: &[bool],
        speed: f64,
        seconds: f64,
        trace: impl Iterator<Item = Vec<Vec2>>,
    ) {
        let watched: Vec<usize> = (0..arrived.len())
            .filter(|&i| self.movers[i] && arrived[i])
            .collect();
        let mut path = 0.0;
        for pos in trace {
            for &i in &watched {
                path += f64::from(pos[i].distance(self.prev[i]));
            }
            self.prev.copy_from_slice(&pos);
        }
        if !watched.is_empty() && seconds > 0.0 {
            self.out.jitter = path / watched.len() as f64 / seconds / speed;
        }
    }

    /// At the end of the run: how many arrived units (`arrived`, positions `pos`) stand
    /// more than [`SHORT`] tiles from their goal (`goals`, tiles; `None` for units without
    /// an order), and the farthest.
    pub fn settled(&mut self, pos: &[Vec2], arrived: &[bool], goals: &[Option<Vec2>]) {
        for ((p, &done), goal) in pos.iter().zip(arrived).zip(goals) {
            if let (true, Some(goal)) = (done, goal) {
                let off = p.distance(*goal);
                if off > SHORT {
                    self.out.settled_short += 1;
                    self.out.farthest_short = self.out.farthest_short.max(off);
                }
            }
        }
    }

    /// Timed leg runs, whose units are never all done: the deadlocked units are those
    /// stalled by the progress rule for the last [`STALL_SECS`] of the run.
    pub fn stuck_units(&mut self) {
        self.out.deadlocks = self.progress.stuck(STALL_SECS);
    }

    /// Closes the outcome: the mean movement time per frame.
    pub fn finish(mut self) -> Outcome {
        if self.out.frames > 0 {
            self.out.steer_ms /= f64::from(self.out.frames);
        }
        self.out
    }
}

/// The ideal time of `trips` (start, end, diameter) on `map` at `speed` tiles/s: the
/// longest shortest path (octile lengths, the core's A*) over the speed, and for a
/// scenario with a gap of `gap` cells at least `trips / (gap × speed)`.
pub fn ideal(
    map: &CachedScenario,
    trips: &[(Cell, Cell, u32)],
    speed: f64,
    gap: Option<u32>,
) -> f64 {
    let mut pathfinder = Pathfinder::new();
    let longest = trips
        .iter()
        .filter_map(|&(start, end, diameter)| {
            let query = PathQuery::new(start, end).diameter(diameter);
            pathfinder
                .find(map, &query)
                .ok()
                .map(|stats| cost_to_f64(stats.cost))
        })
        .fold(0.0, f64::max);
    let free_flow = longest / speed;
    match gap {
        Some(lanes) => free_flow.max(trips.len() as f64 / (f64::from(lanes) * speed)),
        None => free_flow,
    }
}

/// The cap of a leg run given `--legs N`: 36,000 frames of 1/60 s.
pub const LEGS_CAP_S: f64 = 600.0;

/// The limit of a leg run: its fixed time when timed, else [`LEGS_CAP_S`]; at most
/// `--seconds`.
pub fn leg_limit(scenario: &Scenario, limits: &Limits) -> f64 {
    let s = scenario.timed_s.unwrap_or(LEGS_CAP_S);
    limits.seconds.map_or(s, |m| s.min(m))
}

/// The ideal time of a leg run given `--legs N`: the longest sum over a unit's legs of
/// the shortest path lengths over `speed` tiles/s; 0 (none) for a timed run.
pub fn legs_ideal(scenario: &Scenario, speed: f64) -> f64 {
    if scenario.timed_s.is_some() {
        return 0.0;
    }
    let map = scenario.map();
    let mut pathfinder = Pathfinder::new();
    let mut longest = 0.0f64;
    for (unit, goals) in scenario.units.iter().zip(&scenario.legs) {
        let mut from = unit.start;
        let mut sum = 0.0;
        for &goal in goals {
            let query = PathQuery::new(from, goal).diameter(unit.diameter);
            if let Ok(stats) = pathfinder.find(&map, &query) {
                sum += cost_to_f64(stats.cost);
            }
            from = goal;
        }
        longest = longest.max(sum);
    }
    longest / speed
}
