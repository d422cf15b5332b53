//! The neighbour index: a uniform grid of buckets as one sorted array, and the k-nearest neighbour query of one agent.

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
}

/// An indexed agent: its position and radius when indexed, and its index.
#[derive(Clone, Copy, Debug)]
struct Slot {
    position: Vector,
    radius: f32,
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

impl BucketGrid {
    /// Rebuilds the index for `agents`, with buckets of side `neighbour_distance` plus
    /// twice the largest radius (1 when that is not positive). O(n log n).
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
        let side = neighbour_distance + 2.0 * self.max_radius;
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
                index,
            }
        }));
    }

    /// The largest radius of the indexed agents.
    pub fn max_radius(&self) -> f32 {
        self.max_radius
    }

    /// The bucket of an agent, clamped one short of the `i32` range so that its
    /// neighbouring buckets exist.
    fn bucket_of(&self, agent: &CrowdAgent) -> (i32, i32) {
        let clamp = |v: f32| ((v / self.side).floor() as i32).clamp(i32::MIN + 1, i32::MAX - 1);
        (clamp(agent.position.x), clamp(agent.position.y))
    }

    /// Calls `visit(j)` for every indexed agent `j` in the 3 × 3 buckets around agent
    /// `i`'s bucket (`i` included), in a fixed order: by column, row, then index. Covers
    /// every agent whose indexed position is less than a bucket side away.
    #[inline]
    pub fn around(&self, i: usize, mut visit: impl FnMut(usize)) {
        self.around_slots(i, |slot| visit(slot.index as usize));
    }

    #[inline]
    fn around_slots(&self, i: usize, mut visit: impl FnMut(&Slot)) {
        let Some(Some((x, y))) = self.buckets.get(i).copied() else {
            return;
        };
        for column in x - 1..=x + 1 {
            let low = key(column, y - 1);
            let high = key(column, y + 1);
            let start = self.keys.partition_point(|&k| k < low);
            let end = start + self.keys[start..].partition_point(|&k| k <= high);
            for slot in &self.slots[start..end] {
                visit(slot);
            }
        }
    }

    /// Writes into `out` (cleared first) the at most `max` nearest neighbours of agent
    /// `i`: indexed agents `j ≠ i` whose discs are less than `neighbour_distance` apart
    /// (centre distance below `neighbour_distance + r_i + r_j`), ordered by
    /// [`Neighbour`]'s order (squared centre distance, key, index). Positions and radii
    /// are those of the last [`build`](Self::build). O(c · max) for c agents in the
    /// 3 × 3 buckets.
    pub fn nearest(
        &self,
        i: usize,
        agents: &[CrowdAgent],
        neighbour_distance: f32,
        max: usize,
        out: &mut Vec<Neighbour>,
    ) {
        out.clear();
        if max == 0 {
            return;
        }
        let agent = &agents[i];
        let reach = neighbour_distance + agent.radius;
        self.around_slots(i, |slot| {
            let j = slot.index as usize;
            if j == i {
                return;
            }
            let distance_squared = (slot.position - agent.position).length_squared();
            let reach = reach + slot.radius;
            // NaN (a stale index) counts as too far.
            if distance_squared.partial_cmp(&(reach * reach)) != Some(std::cmp::Ordering::Less) {
                return;
            }
            let candidate = Neighbour {
                distance_squared,
                key: agents[j].key,
                index: j as u32,
            };
            if out.len() == max {
                if !candidate.before(&out[max - 1]) {
                    return;
                }
                out.pop();
            }
            // Insertion into the sorted list.
            let mut at = out.len();
            while at > 0 && candidate.before(&out[at - 1]) {
                at -= 1;
            }
            out.insert(at, candidate);
        });
    }
}
