//! Crowd test helpers: seeded random crowds and maps, one simulation step, and the
//! overlap measures the property tests check.

#![allow(dead_code)]

use tilepath::crowd::{AvoidScratch, AvoidanceSettings, Crowd, CrowdAgent, Vector};
use tilepath::grid::Cell;
use tilepath::scenario::generate::SplitMix64;

/// A uniform `f32` in `[low, high)`.
pub fn uniform(rng: &mut SplitMix64, low: f32, high: f32) -> f32 {
    low + (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * (high - low)
}

/// A square map of `side` cells, blocked outside and where `walls` says.
#[derive(Clone, Debug)]
pub struct Map {
    pub side: i32,
    pub walls: Vec<bool>,
}

impl Map {
    /// No walls at all (and nothing outside either).
    pub fn open(side: i32) -> Self {
        Self {
            side,
            walls: Vec::new(),
        }
    }

    /// A walled square with random pillars and wall pieces (about `percent` % of cells).
    pub fn walled(side: i32, percent: u32, rng: &mut SplitMix64) -> Self {
        let mut walls = vec![false; (side * side) as usize];
        for y in 0..side {
            for x in 0..side {
                let border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
                walls[(y * side + x) as usize] = border || rng.chance(percent, 100);
            }
        }
        Self { side, walls }
    }

    pub fn blocked(&self, cell: Cell) -> bool {
        if self.walls.is_empty() {
            return false;
        }
        !(0..self.side).contains(&cell.x)
            || !(0..self.side).contains(&cell.y)
            || self.walls[(cell.y * self.side + cell.x) as usize]
    }

    /// How far a disc overlaps the blocked cells (0 when it does not).
    pub fn wall_overlap(&self, centre: Vector, radius: f32) -> f32 {
        let mut worst = 0.0f32;
        let (x0, x1) = (
            (centre.x - radius).floor() as i32,
            (centre.x + radius).floor() as i32,
        );
        let (y0, y1) = (
            (centre.y - radius).floor() as i32,
            (centre.y + radius).floor() as i32,
        );
        for y in y0..=y1 {
            for x in x0..=x1 {
                if !self.blocked(Cell::new(x, y)) {
                    continue;
                }
                let nearest = Vector::new(
                    centre.x.clamp(x as f32, x as f32 + 1.0),
                    centre.y.clamp(y as f32, y as f32 + 1.0),
                );
                let inside = nearest == centre;
                let overlap = if inside {
                    2.0 * radius
                } else {
                    radius - (nearest - centre).length()
                };
                worst = worst.max(overlap);
            }
        }
        worst
    }

    /// A random free point where a disc of `radius` fits.
    pub fn free_point(&self, radius: f32, rng: &mut SplitMix64) -> Vector {
        loop {
            let p = Vector::new(
                uniform(rng, 0.0, self.side as f32),
                uniform(rng, 0.0, self.side as f32),
            );
            if self.wall_overlap(p, radius + 0.05) == 0.0 {
                return p;
            }
        }
    }
}

/// A random crowd of `n` agents that do not overlap each other or the walls, each with a
/// goal somewhere else on the map.
pub fn crowd(map: &Map, n: usize, rng: &mut SplitMix64) -> (Vec<CrowdAgent>, Vec<Vector>) {
    let mut agents: Vec<CrowdAgent> = Vec::new();
    let mut goals = Vec::new();
    while agents.len() < n {
        let radius = uniform(rng, 0.3, 1.0);
        let p = map.free_point(radius, rng);
        if agents
            .iter()
            .any(|a| (a.position - p).length() < a.radius + radius + 0.05)
        {
            continue;
        }
        let key = rng.next_u64();
        let mut agent = CrowdAgent::new(p, radius, uniform(rng, 1.0, 4.0), key);
        if rng.chance(1, 5) {
            agent.responsibility = 8.0;
        }
        agents.push(agent);
        goals.push(map.free_point(radius, rng));
    }
    (agents, goals)
}

/// The velocity toward `goal` at full speed, arriving exactly.
pub fn toward(agent: &CrowdAgent, goal: Vector, dt: f32) -> Vector {
    let offset = goal - agent.position;
    (offset / dt).clamp_length_max(agent.max_speed)
}

/// Reusable buffers of one simulation.
#[derive(Default)]
pub struct Sim {
    pub crowd: Crowd,
    pub scratch: AvoidScratch,
    pub velocities: Vec<Vector>,
    pub corrections: Vec<Vector>,
}

impl Sim {
    /// One step: preferred velocities toward the goals, avoid, move, separate.
    pub fn step(
        &mut self,
        map: &Map,
        agents: &mut [CrowdAgent],
        goals: &[Vector],
        settings: &AvoidanceSettings,
        dt: f32,
        iterations: u32,
    ) {
        for (agent, &goal) in agents.iter_mut().zip(goals) {
            agent.preferred = toward(agent, goal, dt);
        }
        self.crowd.index(agents, settings);
        self.velocities.clear();
        for i in 0..agents.len() {
            let v = self.crowd.avoid(
                i,
                agents,
                |c| map.blocked(c),
                settings,
                dt,
                &mut self.scratch,
            );
            self.velocities.push(v);
        }
        for (agent, &v) in agents.iter_mut().zip(&self.velocities) {
            agent.velocity = v;
            agent.position += v * dt;
        }
        self.crowd.index(agents, settings);
        self.corrections.clear();
        self.corrections.resize(agents.len(), Vector::ZERO);
        self.crowd.separate_with_walls(
            agents,
            iterations,
            |_, c| map.blocked(c),
            &mut self.corrections,
        );
        for (agent, &c) in agents.iter_mut().zip(&self.corrections) {
            agent.position += c;
        }
    }
}

/// The largest overlap of two discs of the crowd, with the pair.
pub fn worst_pair_overlap(agents: &[CrowdAgent]) -> (f32, usize, usize) {
    let mut worst = (0.0, 0, 0);
    for i in 0..agents.len() {
        for j in i + 1..agents.len() {
            let overlap = agents[i].radius + agents[j].radius
                - (agents[j].position - agents[i].position).length();
            if overlap > worst.0 {
                worst = (overlap, i, j);
            }
        }
    }
    worst
}
