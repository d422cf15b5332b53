//! Holding back: the moves of a step that would leave two discs overlapping more than a tolerance, and more than they did before the step, are undone.

use super::{Crowd, CrowdAgent, Vector};

impl Crowd {
    /// Undoes the moves that would deepen an overlap: agent `i` steps from `from[i]` to
    /// `to[i]`, and this sets `held[i]` for every agent that must stay at `from[i]`
    /// instead, so that at the end no two agents' discs overlap by more than
    /// `tolerance`, or by more than they did at `from` when that was already more. It
    /// returns how many agents are held.
    ///
    /// Separation converges only part of the way in a dense jam (units pushing into a
    /// packed block propagate their push one neighbour per pass), so this is what makes
    /// non-overlap hard: if no two discs overlapped by more than `tolerance` at the start
    /// of the step, none does at its end.
    ///
    /// Which agents are held: first both agents of every pair that overlaps too much
    /// with both at `to`; then, for each held agent at `from`, every agent not held yet
    /// that it overlaps too much at `to`, until no agent is added. Each step adds agents
    /// by a test that no later step changes, so the set does not depend on the order of
    /// the agents; it only grows, so it ends (at worst with everybody held, which
    /// satisfies the rule).
    ///
    /// `agents` are those of the last [`index`](Self::index) call (their radii, and the
    /// positions the index holds, which may be anywhere, usually `to` before a
    /// separation's corrections). Agents the index left out are never held and hold
    /// nobody. O(m · k) for m agents checked (n plus those held) and k agents within the
    /// reach of one.
    ///
    /// # Example
    ///
    /// Two discs of radius 0.5 one cell apart, each stepping 0.3 toward the other: both
    /// moves are undone. A third one stepping away is not held.
    ///
    /// ```
    /// use tilepath::crowd::{AvoidanceSettings, Crowd, CrowdAgent, OVERLAP_TOLERANCE, Vector};
    ///
    /// let from = [Vector::new(1.0, 1.0), Vector::new(2.0, 1.0), Vector::new(5.0, 1.0)];
    /// let to = [Vector::new(1.3, 1.0), Vector::new(1.7, 1.0), Vector::new(5.5, 1.0)];
    /// let agents: Vec<CrowdAgent> = (0..3)
    ///     .map(|i| CrowdAgent::new(to[i], 0.5, 4.0, i as u64))
    ///     .collect();
    /// let mut crowd = Crowd::new();
    /// crowd.index(&agents, &AvoidanceSettings::default());
    /// let mut held = [false; 3];
    /// let count = crowd.hold_back(&agents, &from, &to, OVERLAP_TOLERANCE, &mut held);
    /// assert_eq!((count, held), (2, [true, true, false]));
    /// ```
    ///
    /// # Panics
    ///
    /// If `from`, `to` or `held` is not as long as `agents`.
    pub fn hold_back(
        &mut self,
        agents: &[CrowdAgent],
        from: &[Vector],
        to: &[Vector],
        tolerance: f32,
        held: &mut [bool],
    ) -> usize {
        let n = agents.len();
        assert!(
            from.len() == n && to.len() == n && held.len() == n,
            "one start, end and flag per agent"
        );
        held.fill(false);
        // How far each agent's start and end lie from its indexed position: a pair can
        // overlap only if their indexed positions are nearer than their radii and both
        // of these apart.
        let Crowd {
            grid, reach, queue, ..
        } = self;
        reach.clear();
        reach.extend((0..n).map(|i| {
            let (a, b) = (from[i] - agents[i].position, to[i] - agents[i].position);
            let r = a.length().max(b.length());
            if agents[i].is_valid() && r.is_finite() {
                r
            } else {
                0.0
            }
        }));
        let farthest = reach.iter().fold(0.0f32, |m, &r| m.max(r));
        let widest = grid.max_radius();
        queue.clear();
        let mut count = 0;
        // Whether the pair (i, j) breaks the rule with agent `i` at `at` and `j` at its
        // end (agent `i` at its start after it is held; its end in the first round).
        let breaks = |i: usize, at: Vector, j: usize| {
            let sum = agents[i].radius + agents[j].radius;
            let now = sum - (at - to[j]).length();
            now > tolerance && now > sum - (from[i] - from[j]).length()
        };
        // The first round (`first`) checks the pairs (i, j > i) at their ends whoever is
        // held already, so that it holds the same agents in any order; later rounds the
        // pairs of a held agent with the others not held yet.
        let mut visit = |i: usize, first: bool, held: &mut [bool], queue: &mut Vec<u32>| {
            let radius = agents[i].radius + widest + reach[i] + farthest;
            let at = if first { to[i] } else { from[i] };
            grid.within(i, agents[i].position, radius, |j| {
                if j == i || (first && j < i) || j >= n || !agents[j].is_valid() {
                    return;
                }
                if (!first && held[j]) || !breaks(i, at, j) {
                    return;
                }
                for k in [i, j] {
                    if !held[k] {
                        held[k] = true;
                        count += 1;
                        queue.push(k as u32);
                    }
                }
            });
        };
        for (i, agent) in agents.iter().enumerate() {
            if agent.is_valid() {
                visit(i, true, held, queue);
            }
        }
        while let Some(k) = queue.pop() {
            visit(k as usize, false, held, queue);
        }
        count
    }
}
