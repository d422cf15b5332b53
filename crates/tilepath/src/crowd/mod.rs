//! Local avoidance and hard separation for crowds of disc-shaped units (ORCA).

mod agent;
mod hold;
mod neighbours;
mod orca;
mod program;
mod separate;
mod vector;
mod walls;

#[cfg(test)]
mod tests;

pub use agent::{AvoidanceSettings, CrowdAgent};
pub use separate::OVERLAP_TOLERANCE;
pub use vector::Vector;
pub use walls::{MAX_WALL_REACH, WALL_MARGIN};

use crate::grid::Cell;
use neighbours::{BucketGrid, Neighbour};
use program::HalfPlane;

/// The neighbour index of one step and the avoidance solver (ORCA), reused across steps:
/// once its buffers have grown to the crowd, nothing is allocated.
///
/// Units are discs moving in the plane of the grid, in cells: cell `(x, y)` covers the
/// square `[x, x + 1) × [y, y + 1)`, velocities are in cells per second. Each step:
///
/// 1. [`Crowd::index`] buckets the agents;
/// 2. [`Crowd::avoid`] gives each agent the velocity nearest its preferred one that avoids
///    its neighbours (optimal reciprocal collision avoidance, ORCA: van den Berg, Guy, Lin
///    and Manocha, "Reciprocal n-body collision avoidance", 2011) and the blocked
///    cells around it; calls for different agents are independent and may run on
///    different threads;
/// 3. the caller moves the agents, indexes them again and [`Crowd::separate`] (or
///    [`Crowd::separate_with_walls`]) pushes apart the discs that still overlap;
/// 4. where separation leaves a pair overlapping, [`Crowd::hold_back`] undoes the moves
///    that caused it.
///
/// Everything is `f32` in a fixed order of operations and ties are broken by each agent's
/// [`key`](CrowdAgent::key), so results are bit-identical whatever the thread count.
///
/// # Example
///
/// Two agents walking at each other pass side by side.
///
/// ```
/// use tilepath::crowd::{AvoidScratch, AvoidanceSettings, Crowd, CrowdAgent, Vector};
///
/// let mut agents = [
///     CrowdAgent::new(Vector::new(2.0, 5.0), 0.4, 2.0, 1),
///     CrowdAgent::new(Vector::new(8.0, 5.0), 0.4, 2.0, 2),
/// ];
/// let settings = AvoidanceSettings::default();
/// let (mut crowd, mut scratch) = (Crowd::new(), AvoidScratch::default());
/// let mut velocities = [Vector::ZERO; 2];
/// let mut corrections = [Vector::ZERO; 2];
/// let dt = 0.1;
/// for _ in 0..60 {
///     agents[0].preferred = Vector::new(2.0, 0.0);
///     agents[1].preferred = Vector::new(-2.0, 0.0);
///     crowd.index(&agents, &settings);
///     for i in 0..2 {
///         velocities[i] = crowd.avoid(i, &agents, |_| false, &settings, dt, &mut scratch);
///     }
///     for (agent, v) in agents.iter_mut().zip(velocities) {
///         agent.velocity = v;
///         agent.position += v * dt;
///     }
///     crowd.index(&agents, &settings);
///     crowd.separate(&agents, 4, &mut corrections);
///     for (agent, c) in agents.iter_mut().zip(corrections) {
///         agent.position += c;
///     }
///     let gap = (agents[1].position - agents[0].position).length() - 0.8;
///     assert!(gap > -tilepath::crowd::OVERLAP_TOLERANCE);
/// }
/// // They swapped sides.
/// assert!(agents[0].position.x > 8.0 && agents[1].position.x < 2.0);
/// ```
#[derive(Default, Debug, Clone)]
pub struct Crowd {
    /// The buckets of the last [`Crowd::index`].
    grid: BucketGrid,
    /// Separation: current positions, summed corrections and their counts of one pass,
    /// and which agents a wall pushed in the last pass.
    positions: Vec<Vector>,
    corrections: Vec<Vector>,
    counts: Vec<u32>,
    pinned: Vec<bool>,
    /// Separation: the pairs close enough to collide during the passes.
    pairs: Vec<(u32, u32)>,
    /// Separation: the blocked flags of the cells around one agent.
    bits: Vec<bool>,
    /// Separation: which agents start a step near a wall (see `separate`).
    near_wall: Vec<bool>,
    /// Holding back: how far each agent's start and end lie from its indexed position,
    /// and the agents newly held whose pairs are still to check.
    reach: Vec<f32>,
    queue: Vec<u32>,
}

/// Per-thread scratch of [`Crowd::avoid`]: the neighbours and half-planes of one agent.
/// Keep one per thread and reuse it.
#[derive(Default, Debug, Clone)]
pub struct AvoidScratch {
    neighbours: Vec<Neighbour>,
    planes: Vec<HalfPlane>,
    projected: Vec<HalfPlane>,
    bits: Vec<bool>,
}

impl Crowd {
    /// An empty crowd index.
    pub fn new() -> Self {
        Self::default()
    }

    /// Indexes `agents` for [`avoid`](Self::avoid) and [`separate`](Self::separate): a
    /// uniform grid of buckets of side `neighbour_distance` plus twice the largest radius,
    /// stored as one array sorted by bucket (no hashing). Agents with a non-finite number
    /// or a negative radius or speed are left out. O(n log n).
    pub fn index(&mut self, agents: &[CrowdAgent], settings: &AvoidanceSettings) {
        self.grid.build(agents, settings.neighbour_distance);
    }

    /// The neighbours agent `i` avoids, nearest first: at most `max_neighbours` valid
    /// agents whose discs are less than `neighbour_distance` apart from its disc, ordered
    /// by squared centre distance, then key, then index.
    ///
    /// # Panics
    ///
    /// If `i >= agents.len()`.
    pub fn neighbours<'s>(
        &self,
        i: usize,
        agents: &[CrowdAgent],
        settings: &AvoidanceSettings,
        scratch: &'s mut AvoidScratch,
    ) -> impl Iterator<Item = usize> + 's {
        self.grid.nearest(
            i,
            agents,
            settings.neighbour_distance,
            settings.max_neighbours,
            &mut scratch.neighbours,
        );
        scratch.neighbours.iter().map(|n| n.index as usize)
    }

    /// The velocity agent `i` takes this step of `dt` seconds.
    ///
    /// It is the velocity nearest the agent's [`preferred`](CrowdAgent::preferred) one,
    /// within its [`max_speed`](CrowdAgent::max_speed), that satisfies
    ///
    /// - one wall half-plane per wall segment within `radius + max_speed × wall_horizon`
    ///   (at most [`MAX_WALL_REACH`] beyond the radius): the straight runs of faces
    ///   between blocked and free cells (`blocked(cell)`), seen from the free side. With
    ///   `p` the segment's point nearest the centre, `d` its distance and `n` the unit
    ///   vector toward it and `radius` less [`WALL_MARGIN`]:
    ///   `v · n <= (d − radius) / wall_horizon`, or, when the disc
    ///   already overlaps it, `v · n <= max((d − radius) / dt, −max_speed)`;
    /// - one ORCA half-plane per neighbour ([`neighbours`](Self::neighbours), in that
    ///   order), with the agent's share `own / (own + other)` of
    ///   [`responsibility`](CrowdAgent::responsibility) when their relative velocity
    ///   leads to a collision within `time_horizon`; overlapping discs must separate
    ///   within `dt`.
    ///
    /// When they cannot all be met (the agent is squeezed), the wall half-planes are kept
    /// and the velocity that violates the neighbours' half-planes least is taken (RVO2's
    /// 3-D linear program); when the walls alone cannot be met, all are treated alike.
    ///
    /// It reads only `agents` and the index (call [`index`](Self::index) with these
    /// agents first): calls for different `i` may run on different threads, each with its
    /// own scratch, and the result is bit-identical whatever the order or thread count.
    /// O(c · k + k² + w) for c agents in the nearby buckets, k neighbours and w cells
    /// read around the agent. Gives [`Vector::ZERO`] when the agent has a non-finite
    /// number, a negative radius or speed, or when `dt` or a horizon is not positive and
    /// finite; never a non-finite velocity.
    ///
    /// # Panics
    ///
    /// If `i >= agents.len()`.
    pub fn avoid(
        &self,
        i: usize,
        agents: &[CrowdAgent],
        blocked: impl Fn(Cell) -> bool,
        settings: &AvoidanceSettings,
        dt: f32,
        scratch: &mut AvoidScratch,
    ) -> Vector {
        self.grid.nearest(
            i,
            agents,
            settings.neighbour_distance,
            settings.max_neighbours,
            &mut scratch.neighbours,
        );
        // Lent out while the scratch's other buffers are in use (no allocation).
        let neighbours = std::mem::take(&mut scratch.neighbours);
        let among = neighbours.iter().map(|n| n.index as usize);
        let v = self.avoid_among(i, agents, among, blocked, settings, dt, scratch);
        scratch.neighbours = neighbours;
        v
    }

    /// [`avoid`](Self::avoid) with agent `i`'s neighbours given: the indices
    /// [`neighbours`](Self::neighbours) gives, or the first `max_neighbours` of a longer
    /// list of the same order (for example one read with more neighbours and the same
    /// `neighbour_distance`, that another step of the frame already read). With those,
    /// the velocity is bit-identical to `avoid`'s; the index is not read.
    ///
    /// # Panics
    ///
    /// If `i` or a neighbour is not an index of `agents`.
    #[allow(clippy::too_many_arguments)]
    pub fn avoid_among(
        &self,
        i: usize,
        agents: &[CrowdAgent],
        neighbours: impl Iterator<Item = usize>,
        blocked: impl Fn(Cell) -> bool,
        settings: &AvoidanceSettings,
        dt: f32,
        scratch: &mut AvoidScratch,
    ) -> Vector {
        let agent = &agents[i];
        if !(agent.is_valid() && settings.is_valid() && dt.is_finite() && dt > 0.0) {
            return Vector::ZERO;
        }
        let AvoidScratch {
            planes,
            projected,
            bits,
            ..
        } = scratch;
        planes.clear();
        let reach = agent.radius + (agent.max_speed * settings.wall_horizon).min(MAX_WALL_REACH);
        walls::for_each_wall(
            agent.position,
            reach,
            &blocked,
            bits,
            |nearest, distance| {
                planes.push(walls::wall_half_plane(
                    agent.position,
                    nearest,
                    distance,
                    agent.radius - walls::WALL_MARGIN,
                    agent.max_speed,
                    settings.wall_horizon,
                    dt,
                ));
            },
        );
        let hard = planes.len();
        for j in neighbours.take(settings.max_neighbours) {
            let other = &agents[j];
            let agent_first = (agent.key, i) < (other.key, j);
            planes.push(orca::half_plane(
                agent,
                other,
                agent_first,
                settings.time_horizon,
                dt,
            ));
        }
        let v = program::solve(planes, hard, agent.max_speed, agent.preferred, projected)
            .clamp_length_max(agent.max_speed);
        if v.is_finite() { v } else { Vector::ZERO }
    }
}
