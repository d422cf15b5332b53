//! Distance fields on hexagonal maps: one Dijkstra from a shared goal, read by many agents.

use super::coord::Hex;
use super::map::{HexMap, MAX_HEX_RADIUS};
use super::records::Records;
use super::search::HexPathError;
use crate::grid::Cost;

/// The exact cost from every hexagon to one goal, for agents of one radius: a Dijkstra
/// grown outwards from the goal, which a whole group ordered to that goal reads instead
/// of each running its own search. Costs are in half steps, as
/// [`HexPathfinder::cost`](super::HexPathfinder::cost); steps cost the same both ways,
/// so the cost to the goal is the cost from it.
///
/// [`HexField::grow`] settles hexagons in order of cost, any number at a time (a frame
/// budget); a hexagon's distance is known once settled. Buffers are reused by the next
/// [`HexField::reset`]: no allocation once warm. `O(n log n)` for `n` hexagons settled.
///
/// ```
/// use tilepath::hex::{Hex, HexField, HexLayout, HexMap};
///
/// let map = HexMap::from_ascii(HexLayout::Row, "
///     .....
///     .##..
///     .....
/// ").unwrap();
/// let mut field = HexField::new();
/// field.reset(&map, Hex::new(0, 0), 0).unwrap();
/// field.grow(&map, u64::MAX);
/// assert_eq!(field.distance(Hex::new(0, 0)), Some(0));
/// assert_eq!(field.distance(Hex::new(4, 0)), Some(8)); // 4 steps of weight 1
/// assert_eq!(field.distance(Hex::new(1, 1)), None); // blocked
/// let way: Vec<Hex> = field.descend(Hex::new(4, 2)).collect();
/// assert_eq!(way.last(), Some(&Hex::new(0, 0)));
/// ```
#[derive(Debug, Default)]
pub struct HexField {
    goal: Hex,
    radius: u32,
    generation: u64,
    /// Costs from the goal and ways back to it; closed means settled.
    records: Records,
    /// Box width and origin of the map it was reset on, to index without the map.
    width: usize,
    min: Hex,
    len: usize,
}

impl HexField {
    /// An empty field (no goal until [`HexField::reset`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a field toward `goal` for agents of `radius` on `map`, nothing settled.
    ///
    /// # Errors
    ///
    /// [`HexPathError::InvalidRadius`] above [`MAX_HEX_RADIUS`];
    /// [`HexPathError::GoalBlocked`] when an agent of `radius` cannot stand on `goal`.
    /// The field is then empty.
    pub fn reset(&mut self, map: &HexMap, goal: Hex, radius: u32) -> Result<(), HexPathError> {
        let n = map.len();
        self.records.begin(n);
        self.goal = goal;
        self.radius = radius;
        self.generation = map.generation();
        self.width = map.extent().0 as usize;
        self.min = map.min();
        self.len = n;
        if radius > MAX_HEX_RADIUS {
            return Err(HexPathError::InvalidRadius { radius });
        }
        let start = map
            .index(goal)
            .filter(|_| map.can_stand(goal, radius))
            .ok_or(HexPathError::GoalBlocked { hex: goal })?;
        self.records.open(start, 0, u8::MAX);
        self.records.heap.push(start as u32, 0, 0);
        Ok(())
    }

    /// Settles at most `budget` more hexagons; returns how many it settled. 0 means the
    /// field is complete (or was never started, or `map` is not the map, unedited, it
    /// was reset on: reset it then).
    pub fn grow(&mut self, map: &HexMap, budget: u64) -> u64 {
        if map.generation() != self.generation || map.len() != self.len {
            return 0;
        }
        let mut settled = 0;
        while settled < budget {
            let Some(i) = self.records.heap.pop() else {
                break;
            };
            let i = i as usize;
            self.records.close(i);
            settled += 1;
            let (g, wi) = (self.records.g[i], Cost::from(map.weight_at(i)));
            for (n, d) in map.neighbours(i) {
                if self.records.is_closed(n) || u32::from(map.clearance_at(n)) <= self.radius {
                    continue;
                }
                let ng = g + wi + Cost::from(map.weight_at(n));
                let fresh = !self.records.is_seen(n);
                if fresh || ng < self.records.g[n] {
                    self.records.open(n, ng, d as u8);
                    if fresh {
                        self.records.heap.push(n as u32, ng, 0);
                    } else {
                        self.records.heap.decrease_key(n as u32, ng, 0);
                    }
                }
            }
        }
        settled
    }

    /// True when every hexagon the goal reaches is settled.
    pub fn is_complete(&self) -> bool {
        self.records.heap.is_empty()
    }

    /// The goal.
    pub fn goal(&self) -> Hex {
        self.goal
    }

    /// The exact cost from `hex` to the goal (half steps), or `None` when `hex` is not
    /// settled (yet): blocked, too narrow for the radius, unreachable, or not reached.
    pub fn distance(&self, hex: Hex) -> Option<Cost> {
        let i = self.index(hex)?;
        self.records.is_closed(i).then(|| self.records.g[i])
    }

    /// The hexagons from `hex` down to the goal along the field, `hex` first (empty when
    /// `hex` is not settled). Every step of it is optimal: its cost is
    /// [`HexField::distance`]. Allocates nothing.
    pub fn descend(&self, hex: Hex) -> impl Iterator<Item = Hex> + '_ {
        let mut at = self.distance(hex).map(|_| hex);
        std::iter::from_fn(move || {
            let here = at?;
            let i = self.index(here)?;
            at = self.records.parent(here, i);
            Some(here)
        })
    }

    fn index(&self, hex: Hex) -> Option<usize> {
        if self.width == 0 {
            return None;
        }
        let q = i64::from(hex.q) - i64::from(self.min.q);
        let r = i64::from(hex.r) - i64::from(self.min.r);
        let height = (self.len / self.width) as i64;
        (q >= 0 && r >= 0 && q < self.width as i64 && r < height)
            .then(|| r as usize * self.width + q as usize)
    }
}
