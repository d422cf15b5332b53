//! The neighbour index: a uniform grid of buckets as one sorted array, and the k-nearest neighbour query of one agent.

use super::vector::floor_i32;
use super::{CrowdAgent, Vector};

/// Agents bucketed by position: `entries` holds `(bucket key, agent index)` sorted, so a
/// bucket is a contiguous range and a column of three buckets one binary search apart;
/// `keys` and `slots` are the same in two arrays, the agents' positions and radii copied
/// beside their indices so that a query reads memory in order.
#[derive(Default, Debug, Clone)]
pub(crate) struct BucketGrid {
    /// Side of a bucket in cells.
    side: f32,
    /// The largest radius of a valid agent.
    max_radius: f32,
    /// `(bucket key, agent index)` of every valid agent, sorted.
    entries: Vec<(u64, u32)>,
    /// The bucket keys of `entries`.
    keys: Vec<u64>,
    /// The agents of `entries`, in the same order.
    slots: Vec<Slot>,
    /// The bucket of each agent (`None` for invalid agents).
    buckets: Vec<Option<(i32, i32)>>,
    /// Where the buckets start in `slots` when the agents' buckets span a box of at most
    /// 16 buckets per agent or `DENSE_BUCKETS`: bucket `(x, y)` of the box from `low` with `rows` rows is
    /// `starts[(x - low.0) * rows + (y - low.1)]..` up to the next one, so a column of
    /// buckets is one read instead of a binary search. Empty otherwise.
    starts: Vec<u32>,
    low: (i32, i32),
    high: (i32, i32),
}

/// An indexed agent: its position and radius when indexed, and its index.
#[derive(Clone, Copy, Debug)]
struct Slot {
    position: Vector,
    radius: f32,
    key: u64,
    index: u32,
}

/// A neighbour found by [`BucketGrid::nearest`]: its squared centre distance, key and index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Neighbour {
    pub distance_squared: f32,
    pub key: u64,
    pub index: u32,
}

impl Neighbour {
    /// The order of neighbours: by distance, then key, then index (total on valid agents).
    #[inline]
    fn before(&self, other: &Neighbour) -> bool {
        (self.distance_squared, self.key, self.index)
            < (other.distance_squared, other.key, other.index)
    }
}

/// The key of bucket `(x, y)`: both coordinates with the sign bit flipped, so that keys
/// sort by column, then row, and the rows of a column are contiguous.
#[inline]
fn key(x: i32, y: i32) -> u64 {
    (u64::from(x as u32 ^ 0x8000_0000) << 32) | u64::from(y as u32 ^ 0x8000_0000)
}

/// Buckets a table of bucket starts may have whatever the number of agents (1 MiB): a
/// 1,024 × 1,024-cell map with the default settings.
const DENSE_BUCKETS: i64 = 1 << 18;

impl BucketGrid {
    /// Rebuilds the index for `agents`, with buckets of side half of `neighbour_distance`
    /// plus twice the largest radius (the farthest a neighbour can be, so that a query
    /// reads at most 5 × 5 buckets and, once it has its neighbours, only the few nearest;
    /// 1 when that is not positive). O(n log n).
    pub fn build(&mut self, agents: &[CrowdAgent], neighbour_distance: f32) {
        let neighbour_distance = if neighbour_distance.is_finite() {
            neighbour_distance.max(0.0)
        } else {
            0.0
        };
        self.max_radius = agents
            .iter()
            .filter(|a| a.is_valid())
            .fold(0.0f32, |max, a| max.max(a.radius));
        let side = (neighbour_distance + 2.0 * self.max_radius) / 2.0;
        self.side = if side.is_finite() && side > 1e-3 {
            side
        } else {
            1.0
        };
        self.entries.clear();
        self.buckets.clear();
        for (index, agent) in agents.iter().enumerate() {
            let bucket = agent.is_valid().then(|| self.bucket_of(agent));
            if let Some((x, y)) = bucket {
                self.entries.push((key(x, y), index as u32));
            }
            self.buckets.push(bucket);
        }
        self.entries.sort_unstable();
        self.keys.clear();
        self.keys.extend(self.entries.iter().map(|e| e.0));
        self.slots.clear();
        self.slots.extend(self.entries.iter().map(|&(_, index)| {
            let agent = &agents[index as usize];
            Slot {
                position: agent.position,
                radius: agent.radius,
                key: agent.key,
                index,
            }
        }));
        self.build_starts();
    }

    /// Fills `starts` when the box of the agents' buckets holds at most 16 buckets per
    /// agent, or `DENSE_BUCKETS`; clears it otherwise.
    fn build_starts(&mut self) {
        self.starts.clear();
        let mut buckets = self.buckets.iter().flatten();
        let Some(&first) = buckets.next() else {
            return;
        };
        let (low, high) = buckets.fold((first, first), |(l, h), &(x, y)| {
            ((l.0.min(x), l.1.min(y)), (h.0.max(x), h.1.max(y)))
        });
        let columns = i64::from(high.0) - i64::from(low.0) + 1;
        let rows = i64::from(high.1) - i64::from(low.1) + 1;
        if columns * rows > (16 * self.slots.len() as i64).max(DENSE_BUCKETS) {
            return;
        }
        (self.low, self.high) = (low, high);
        self.starts.resize((columns * rows) as usize + 1, 0);
        for i in 0..self.buckets.len() {
            if let Some((x, y)) = self.buckets[i] {
                let b = self.dense_index(x, y);
                self.starts[b + 1] += 1;
            }
        }
        for b in 1..self.starts.len() {
            self.starts[b] += self.starts[b - 1];
        }
    }

    /// Index in `starts` of bucket `(x, y)`, which must lie in the box.
    #[inline]
    fn dense_index(&self, x: i32, y: i32) -> usize {
        let rows = (self.high.1 - self.low.1 + 1) as usize;
        (x - self.low.0) as usize * rows + (y - self.low.1) as usize
    }

    /// The largest radius of the indexed agents.
    pub fn max_radius(&self) -> f32 {
        self.max_radius
    }

    /// The bucket of an agent, clamped one short of the `i32` range so that its
    /// neighbouring buckets exist.
    fn bucket_of(&self, agent: &CrowdAgent) -> (i32, i32) {
        (self.row_of(agent.position.x), self.row_of(agent.position.y))
    }

    /// The bucket row (or column) of coordinate `v`.
    #[inline]
    fn row_of(&self, v: f32) -> i32 {
        floor_i32(v / self.side).clamp(i32::MIN + 1, i32::MAX - 1)
    }

    /// The agents in column `column` of buckets, rows `low..=high`, in index order.
    #[inline]
    fn column(&self, column: i32, low: i32, high: i32) -> &[Slot] {
        if !self.starts.is_empty() {
            let (low, high) = (low.max(self.low.1), high.min(self.high.1));
            if column < self.low.0 || column > self.high.0 || low > high {
                return &[];
            }
            let start = self.starts[self.dense_index(column, low)] as usize;
            let end = self.starts[self.dense_index(column, high) + 1] as usize;
            return &self.slots[start..end];
        }
        let (low, high) = (key(column, low), key(column, high));
        let start = self.keys.partition_point(|&k| k < low);
        let end = start + self.keys[start..].partition_point(|&k| k <= high);
        &self.slots[start..end]
    }

    /// Calls `visit(j)` for every indexed agent `j` whose bucket meets the square of
    /// half-side `radius` around `centre` (agent `i` included), when agent `i` is indexed,
    /// in a fixed order: by column, row, then index. Covers every agent whose indexed
    /// position is within `radius` of `centre` on both axes.
    #[inline]
    pub fn within(&self, i: usize, centre: Vector, radius: f32, mut visit: impl FnMut(usize)) {
        if !matches!(self.buckets.get(i), Some(Some(_))) || radius.is_nan() {
            return;
        }
        let (x0, x1) = (
            self.row_of(centre.x - radius),
            self.row_of(centre.x + radius),
        );
        let (y0, y1) = (
            self.row_of(centre.y - radius),
            self.row_of(centre.y + radius),
        );
        for column in x0..=x1 {
            for slot in self.column(column, y0, y1) {
                visit(slot.index as usize);
            }
        }
    }

    /// Writes into `out` (cleared first) the at most `max` nearest neighbours of agent
    /// `i`: indexed agents `j ≠ i` whose discs are less than `neighbour_distance` apart
    /// (centre distance below `neighbour_distance + r_i + r_j`), ordered by
    /// [`Neighbour`]'s order (squared centre distance, key, index). Positions and radii
    /// are those of the last [`build`](Self::build).
    ///
    /// Columns of buckets are read from the agent's outward, and once `max` neighbours
    /// are found only the buckets nearer than the farthest of them: the answer is the
    /// first `max` of a total order, so the reading order does not change it.
    /// O(c · max) for c agents in the buckets read.
    pub fn nearest(
        &self,
        i: usize,
        agents: &[CrowdAgent],
        neighbour_distance: f32,
        max: usize,
        out: &mut Vec<Neighbour>,
    ) {
        out.clear();
        if max == 0 || !matches!(self.buckets.get(i), Some(Some(_))) {
            return;
        }
        let agent = &agents[i];
        let reach = neighbour_distance + agent.radius;
        let far = reach + self.max_radius;
        if far.is_nan() || !agent.position.is_finite() {
            return;
        }
        let p = agent.position;
        let home = self.row_of(p.x);
        let span = (self.row_of(p.x + far) - home).max(home - self.row_of(p.x - far));
        // Distances are compared with a little slack so that rounding never leaves out
        // a bucket holding a neighbour.
        let slack = 1e-4 * (1.0 + far);
        for step in 0..=2 * span {
            let column = if step % 2 == 1 {
                home - (step + 1) / 2
            } else {
                home + step / 2
            };
            let left = column as f32 * self.side;
            let gap = (left - p.x).max(p.x - (left + self.side)).max(0.0) - slack;
            let bound = match out.len() == max {
                true => out[max - 1].distance_squared,
                false => far * far,
            };
            if gap > 0.0 && gap * gap > bound {
                continue;
            }
            let rise = (bound - gap.max(0.0).powi(2)).max(0.0).sqrt() + slack;
            let (low, high) = (self.row_of(p.y - rise), self.row_of(p.y + rise));
            for slot in self.column(column, low, high) {
                let j = slot.index as usize;
                if j == i {
                    continue;
                }
                let distance_squared = (slot.position - p).length_squared();
                let reach = reach + slot.radius;
                // NaN (a stale index) counts as too far.
                if distance_squared.partial_cmp(&(reach * reach)) != Some(std::cmp::Ordering::Less)
                {
                    continue;
                }
                let candidate = Neighbour {
                    distance_squared,
                    key: slot.key,
                    index: j as u32,
                };
                if out.len() == max {
                    if !candidate.before(&out[max - 1]) {
                        continue;
                    }
                    out.pop();
                }
                // Insertion into the sorted list.
                let mut at = out.len();
                while at > 0 && candidate.before(&out[at - 1]) {
                    at -= 1;
                }
                out.insert(at, candidate);
            }
        }
    }
}
