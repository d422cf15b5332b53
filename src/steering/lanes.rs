//! Lanes in counter-flow: units meeting oncoming ones keep right, or fall back to let them by.

use super::frame::{Mover, SteerBuffers, per_agent};
use crate::components::NavGrid;
use crate::crowd::{AvoidScratch, AvoidanceSettings, Crowd, CrowdAgent, Vector};

/// Oncoming units whose centres are at most this many tiles ahead make a unit keep right.
const LOOK_AHEAD: f32 = 4.0;

/// How far, in tiles, a unit looks sideways for walls to tell which half of a corridor
/// it walks in.
const SIDE_REACH: f32 = 6.0;

/// Units nearer their goal than this many tiles do not keep lanes (they push their way
/// in among the units already there), and make no one else keep them.
const NEAR_GOAL: f32 = 6.0;

/// Neighbours a unit reads to find oncoming ones and the unit it follows.
const LOOKED_AT: usize = 24;

/// The fraction of its speed at which a unit falls back out of the way of oncoming ones.
const FALL_BACK_SPEED: f32 = 0.35;

/// What one unit saw around it this frame.
#[derive(Clone, Copy, Default)]
struct Scan {
    /// Its preferred direction and its right.
    ahead: Vector,
    right: Vector,
    /// An oncoming walking unit within [`LOOK_AHEAD`] ahead; one in its own lane, close.
    oncoming: bool,
    blocked: bool,
    /// It walks in the left half of the free width around it.
    wrong_side: bool,
    /// The walking unit going its way right in front of it, in its lane.
    leader: Option<u32>,
    /// It falls back.
    back: bool,
    /// The neighbours it read (nearest first, [`LOOKED_AT`] at most, within the lane
    /// look's distance), for avoidance to use again; `near_len` of them, `None` when it
    /// read none.
    near: [u32; LOOKED_AT],
    near_len: Option<u8>,
}

/// The lanes of one frame, reused across frames.
#[derive(Default)]
pub(crate) struct Lanes {
    scans: Vec<Scan>,
    /// Scratch: a chain of leaders being resolved, and where each unit's walk stands.
    chain: Vec<usize>,
    state: Vec<Walk>,
}

/// Where a unit stands in the walk along the chains of leaders.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Walk {
    #[default]
    New,
    OnChain,
    Done,
}

impl Lanes {
    /// True when agent `k` keeps a lane this frame (its preferred velocity is the lane's;
    /// it makes no headway while it gives way).
    pub(super) fn active(&self, k: usize) -> bool {
        self.scans.get(k).is_some_and(|s| s.oncoming || s.back)
    }

    /// The neighbours agent `k` read this frame, nearest first, when it read them: the
    /// first `max_neighbours` of them are those avoidance reads, when its
    /// `neighbour_distance` is at most [`LOOK_AHEAD`] and `max_neighbours` at most
    /// [`LOOKED_AT`] (the lane look then reads with the same distance, more of them).
    pub(super) fn neighbours(&self, k: usize, avoidance: &AvoidanceSettings) -> Option<&[u32]> {
        let shared =
            avoidance.neighbour_distance <= LOOK_AHEAD && avoidance.max_neighbours <= LOOKED_AT;
        let scan = self.scans.get(k).filter(|_| shared)?;
        Some(&scan.near[..usize::from(scan.near_len?)])
    }

    /// True when agent `k` falls back this frame.
    pub(super) fn falls_back(&self, k: usize) -> bool {
        self.scans.get(k).is_some_and(|s| s.back)
    }

    /// Lane formation: a walking unit with an oncoming walking unit ahead of it turns its
    /// preferred velocity to its right (the side it keeps is the same for everyone, so two
    /// streams settle into lanes side by side). One in the left half of the free width
    /// around it (a corridor) moves over while it slows down; when an oncoming unit stands
    /// right in front of it, or the unit going its way right in front of it falls back, it
    /// falls back too, on its right, and takes the standing units' share of the avoidance, so
    /// the oncoming stream has the lane and it joins its own lane once there is room.
    pub(super) fn keep_right(
        &mut self,
        grid: &NavGrid,
        max_threads: usize,
        b: &mut SteerBuffers,
        avoidance: &AvoidanceSettings,
        standing: f32,
    ) {
        let look = AvoidanceSettings {
            neighbour_distance: avoidance.neighbour_distance.min(LOOK_AHEAD),
            max_neighbours: LOOKED_AT,
            ..*avoidance
        };
        let scans = &mut self.scans;
        scans.clear();
        scans.resize(b.agents.len(), Scan::default());
        let SteerBuffers {
            crowd,
            agents,
            owners,
            movers,
            scratches,
            ..
        } = b;
        let view = View {
            grid,
            crowd,
            agents,
            owners,
            movers,
            look: &look,
        };
        per_agent(max_threads, scans, scratches, |first, out, scratch| {
            for (j, scan) in out.iter_mut().enumerate() {
                *scan = view.scan(first + j, scratch);
            }
        });
        // Falling back passes down each file of units on the wrong side, front to back: a
        // unit falls back when the leader it follows does. Each chain of leaders is walked
        // once (O(units)); a chain that loops without a unit falling back stays.
        let (scans, chain, state) = (&mut self.scans, &mut self.chain, &mut self.state);
        state.clear();
        state.resize(scans.len(), Walk::New);
        for k in 0..scans.len() {
            chain.clear();
            let mut at = k;
            let back = loop {
                if scans[at].back {
                    break true;
                }
                if state[at] != Walk::New || !scans[at].wrong_side {
                    break false;
                }
                state[at] = Walk::OnChain;
                chain.push(at);
                match scans[at].leader {
                    Some(j) => at = j as usize,
                    None => break false,
                }
            };
            for &c in chain.iter() {
                scans[c].back = back;
                state[c] = Walk::Done;
            }
        }
        for (k, s) in scans.iter().enumerate() {
            let agent = &mut b.agents[k];
            let speed = agent.preferred.length();
            if s.back {
                agent.preferred = (s.ahead * -0.7 + s.right * 0.7) * (FALL_BACK_SPEED * speed);
                agent.responsibility = standing;
            } else if s.oncoming && s.wrong_side {
                agent.preferred = (s.ahead * 0.25 + s.right * 0.75) * speed;
            } else if s.oncoming {
                agent.preferred = (s.ahead + s.right * 0.25).normalize_or_zero() * speed;
            }
        }
    }
}

/// What the scan of one unit reads: the frame's crowd, read-only, so units can be
/// scanned on any thread.
struct View<'a> {
    grid: &'a NavGrid,
    crowd: &'a Crowd,
    agents: &'a [CrowdAgent],
    owners: &'a [usize],
    movers: &'a [Mover],
    look: &'a AvoidanceSettings,
}

impl View<'_> {
    /// What agent `k` sees ahead of it (nothing when it does not walk, or walks near its
    /// goal).
    fn scan(&self, k: usize, scratch: &mut AvoidScratch) -> Scan {
        let m = &self.movers[self.owners[k]];
        let me = self.agents[k];
        let speed = me.preferred.length();
        if !m.following || speed <= 1e-3 || m.to_goal < NEAR_GOAL {
            return Scan::default();
        }
        let ahead = me.preferred * (1.0 / speed);
        let right = -ahead.perp();
        let mut scan = Scan {
            ahead,
            right,
            ..Scan::default()
        };
        let mut nearest = f32::INFINITY;
        let mut read = 0;
        for j in self.crowd.neighbours(k, self.agents, self.look, scratch) {
            scan.near[read] = j as u32;
            read += 1;
            let them = &self.movers[self.owners[j]];
            if !them.following || them.to_goal < NEAR_GOAL {
                continue;
            }
            let other = &self.agents[j];
            let offset = other.position - me.position;
            let along = offset.dot(ahead);
            let touch = me.radius + other.radius;
            let in_lane = offset.dot(right).abs() < 0.9 * touch;
            let heading = other.preferred.dot(ahead);
            let reach = other.preferred.length();
            if heading < -0.5 * reach && along > 0.0 && along <= LOOK_AHEAD {
                scan.oncoming = true;
                scan.blocked |= in_lane && along < touch + 1.0;
            } else if heading > 0.5 * reach
                && in_lane
                && along > 0.0
                && along < (touch + 0.6).min(nearest)
            {
                nearest = along;
                scan.leader = Some(j as u32);
            }
        }
        scan.near_len = Some(read as u8);
        if scan.oncoming || scan.leader.is_some() {
            let obstacles = self.grid.scenario().obstacles();
            let blocked = |p: Vector| obstacles.get_or(p.cell(), true);
            let free = |side: Vector| {
                let mut s = 0.0;
                while s < SIDE_REACH && !blocked(me.position + side * (s + 0.25)) {
                    s += 0.25;
                }
                s
            };
            scan.wrong_side = free(right) > free(-right);
        }
        scan.back = scan.wrong_side && scan.blocked;
        scan
    }
}
