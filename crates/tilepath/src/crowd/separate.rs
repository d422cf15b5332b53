//! Hard separation: Jacobi passes of pairwise projection that push overlapping discs apart after a step's move, and optionally out of blocked cells.

use super::agent::share;
use super::{Crowd, CrowdAgent, Vector, walls};
use crate::grid::Cell;

/// After [`Crowd::avoid`], a move and [`Crowd::separate_with_walls`] with 8 passes, the
/// crowds of the crate's property tests (20 to 60 agents of radius 0.3 to 1 crossing a
/// 28-cell map at up to 4 cells/s in steps of 0.05 s, with and without walls) never
/// overlap each other or a blocked cell by more than this many cells (an overlap is the
/// radius sum minus the centre distance). Separation converges geometrically, so fewer
/// passes leave more: with 4 passes the worst pair overlap seen was about 0.06 cells in
/// dense crowds pressed against walls. In a jam (units pushing into a packed block)
/// passes propagate a push one neighbour at a time and leave more; there
/// [`Crowd::hold_back`] keeps every pair within this tolerance.
pub const OVERLAP_TOLERANCE: f32 = 0.05;

/// Over-relaxation of the averaged Jacobi corrections: an agent in several overlapping
/// pairs moves by this times the mean of their corrections (1.5 converged fastest of 1,
/// 1.5 and 2 on the crowds of the property tests; 2 oscillates). An agent in one pair
/// takes that pair's correction as it is, which resolves the pair exactly.
const RELAXATION: f32 = 1.5;

/// How much farther than its radius an agent looks for walls at the start of a step, in
/// cells; separation then checks walls for it only if it starts that near one or its
/// corrections take it more than `MOVED_FAR` (squared) away.
const NEAR_WALL: f32 = 1.0;
const MOVED_FAR: f32 = 0.9 * 0.9;

impl Crowd {
    /// Hard separation: writes into `out[i]` the correction to add to agent `i`'s
    /// position so that no two discs overlap, from `iterations` Jacobi passes of pairwise
    /// projection over the indexed neighbours. In a pass every overlapping pair is
    /// projected apart along the line between their centres by their overlap, split by
    /// [`responsibility`](CrowdAgent::responsibility) (agent `i` takes
    /// `own / (own + other)`); coincident pairs split along the x axis, the smaller
    /// `(key, index)` toward −x. The corrections of one pass are computed from the
    /// positions before it (Jacobi); an agent in one overlapping pair then takes its
    /// correction, an agent in several moves by 1.5 times the mean of their corrections
    /// (over-relaxed averaging, which neither overshoots in dense clusters like a plain
    /// sum nor converges as slowly as a plain mean). Passes stop
    /// early when nothing overlaps. Each pass converges part of the way: see
    /// [`OVERLAP_TOLERANCE`] for what 8 passes achieve.
    ///
    /// `agents[i].position` is the position after this step's move: call
    /// [`index`](Self::index) with the moved agents first. Agents left out of the index
    /// get no correction. Deterministic and single-threaded. O(iterations · p) for p
    /// pairs of agents that are near enough to touch.
    ///
    /// # Panics
    ///
    /// If `out.len() != agents.len()`.
    pub fn separate(&mut self, agents: &[CrowdAgent], iterations: u32, out: &mut [Vector]) {
        self.separate_inner(agents, iterations, None, out);
    }

    /// [`separate`](Self::separate), and at the end of every pass each disc is pushed out
    /// of the wall segments (runs of faces between blocked and free cells, as in
    /// [`avoid`](Self::avoid)) it overlaps, so that walls win over neighbours; in the
    /// next pass an agent a wall pushed does not move for its neighbours (they take the
    /// whole correction), so crowds pressed against a wall converge as fast as in the
    /// open. `blocked(i, cell)` says whether `cell` is blocked for agent `i` (agents may
    /// walk on different layers). A disc whose centre is inside a blocked cell is not
    /// moved by the walls.
    ///
    /// # Panics
    ///
    /// If `out.len() != agents.len()`.
    pub fn separate_with_walls(
        &mut self,
        agents: &[CrowdAgent],
        iterations: u32,
        blocked: impl Fn(usize, Cell) -> bool,
        out: &mut [Vector],
    ) {
        self.separate_inner(agents, iterations, Some(&blocked), out);
    }

    fn separate_inner(
        &mut self,
        agents: &[CrowdAgent],
        iterations: u32,
        blocked: Option<&dyn Fn(usize, Cell) -> bool>,
        out: &mut [Vector],
    ) {
        assert_eq!(out.len(), agents.len(), "one correction per agent");
        let Crowd {
            grid,
            positions,
            corrections,
            counts,
            pinned,
            pairs,
            bits,
            near_wall,
            ..
        } = self;
        positions.clear();
        positions.extend(agents.iter().map(|a| a.position));
        corrections.clear();
        corrections.resize(agents.len(), Vector::ZERO);
        counts.clear();
        counts.resize(agents.len(), 0);
        pinned.clear();
        pinned.resize(agents.len(), false);
        // Pairs that touch or may come to touch during the passes.
        let slack = grid.max_radius();
        pairs.clear();
        for (i, agent) in agents.iter().enumerate() {
            let radius = agent.radius + 2.0 * slack;
            grid.within(i, agent.position, radius, |j| {
                if j <= i || j >= agents.len() || !agents[j].is_valid() {
                    return;
                }
                let other = &agents[j];
                let reach = agent.radius + other.radius + slack;
                if (other.position - agent.position).length_squared() < reach * reach {
                    pairs.push((i as u32, j as u32));
                }
            });
        }
        // Walls are looked at only for agents that start near one or move far: an agent
        // whose disc, grown by `NEAR_WALL`, meets no wall and that moves less than that
        // cannot meet one (walls are the faces of the blocked cells that face free space,
        // so the nearest of them is as far as the blocked cells are).
        near_wall.clear();
        if let Some(blocked) = blocked {
            near_wall.extend(agents.iter().enumerate().map(|(i, agent)| {
                let reach = agent.radius - walls::WALL_MARGIN + NEAR_WALL;
                let blocked = |c: Cell| blocked(i, c);
                let mut near = !agent.position.is_finite() || blocked(agent.position.cell());
                walls::for_each_wall(agent.position, reach, &blocked, bits, |_, _| near = true);
                near
            }));
        }
        for _ in 0..iterations {
            let mut moved = false;
            for &(i, j) in pairs.iter() {
                let (i, j) = (i as usize, j as usize);
                let (a, b) = (&agents[i], &agents[j]);
                let offset = positions[j] - positions[i];
                let distance = offset.length();
                let overlap = a.radius + b.radius - distance;
                if overlap.is_nan() || overlap <= 0.0 {
                    continue;
                }
                let direction = if distance > 0.0 {
                    offset / distance
                } else if (a.key, i) < (b.key, j) {
                    Vector::new(1.0, 0.0)
                } else {
                    Vector::new(-1.0, 0.0)
                };
                let own = match (pinned[i], pinned[j]) {
                    (true, false) => 0.0,
                    (false, true) => 1.0,
                    _ => share(a.responsibility, b.responsibility),
                };
                corrections[i] -= direction * (overlap * own);
                corrections[j] += direction * (overlap * (1.0 - own));
                counts[i] += 1;
                counts[j] += 1;
                moved = true;
            }
            for ((position, correction), count) in positions
                .iter_mut()
                .zip(corrections.iter_mut())
                .zip(counts.iter_mut())
            {
                match *count {
                    0 => {}
                    1 => *position += *correction,
                    n => *position += *correction * (RELAXATION / n as f32),
                }
                *correction = Vector::ZERO;
                *count = 0;
            }
            if let Some(blocked) = blocked {
                for (i, agent) in agents.iter().enumerate() {
                    let far = (positions[i] - agent.position).length_squared() >= MOVED_FAR;
                    if agent.is_valid() && (near_wall[i] || far) {
                        let blocked = |c: Cell| blocked(i, c);
                        let pushed = push_out_of_walls(
                            &mut positions[i],
                            agent.radius - walls::WALL_MARGIN,
                            &blocked,
                            bits,
                        );
                        pinned[i] = pushed;
                        moved |= pushed;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        for ((correction, position), agent) in out.iter_mut().zip(positions.iter()).zip(agents) {
            *correction = *position - agent.position;
        }
    }
}

/// Pushes a disc of `radius` at `centre` off every wall segment it overlaps, nearest
/// segments as found first; true when it moved.
fn push_out_of_walls(
    centre: &mut Vector,
    radius: f32,
    blocked: &dyn Fn(Cell) -> bool,
    bits: &mut Vec<bool>,
) -> bool {
    let start = *centre;
    let mut position = start;
    walls::for_each_wall(start, radius, &blocked, bits, |nearest, _| {
        let away = position - nearest;
        let distance = away.length();
        if distance < radius && distance > 0.0 {
            position += away * ((radius - distance) / distance);
        }
    });
    *centre = position;
    position != start
}
