//! Distance fields on hexagonal maps: one Dijkstra from a shared goal, read by many agents.

use super::carry::{self, Growth};
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
    /// [`HexMap::id`] and [`HexMap::generation`] of the map its costs are for.
    map: u64,
    generation: u64,
    /// True once a carry-over may have opened settled hexagons again.
    reopen: bool,
    /// Scratch of [`HexField::carry_over`].
    forgotten: Vec<u32>,
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
        self.map = map.id();
        self.generation = map.generation();
        self.reopen = false;
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
    /// field is complete (or was never started, or `map` is not the map it was reset
    /// on, or was edited since: [`HexField::carry_over`] then, or reset it).
    pub fn grow(&mut self, map: &HexMap, budget: u64) -> u64 {
        if !self.is_current(map) {
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
                if u32::from(map.clearance_at(n)) <= self.radius {
                    continue;
                }
                let ng = g + wi + Cost::from(map.weight_at(n));
                let fresh = !self.records.is_seen(n);
                // A settled hexagon is never reached more cheaply, but after edits.
                if !fresh && ng >= self.records.g[n] {
                    continue;
                }
                if fresh {
                    self.records.open(n, ng, d as u8);
                    self.records.heap.push(n as u32, ng, 0);
                } else {
                    self.records.offer(n, ng, d as u8, ng, 0);
                }
            }
        }
        settled
    }

    /// Brings the field up to date with the edits of `map` since it was reset (or last
    /// carried over), keeping its costs exact, instead of growing it again from the
    /// goal; returns false when that cannot be done, and the field must be reset: `map`
    /// is another map, the goal can no longer be stood on, the map no longer lists its
    /// edits (more than [`EDIT_LOG_CAP`](crate::scenario::EDIT_LOG_CAP) since), or the
    /// edits cut the way of more than 16,384 hexagons (a wall next to the goal: growing
    /// it again, in slices, costs about as much). Obstacle and terrain edits alike.
    ///
    /// The steps are those of a suspended search carried over edits
    /// ([`HexPathfinder::resume`](super::HexPathfinder::resume)): costs that ran
    /// through a changed hexagon are forgotten and found again from their neighbours,
    /// and settled hexagons next to the edits offer their steps again, opening settled
    /// hexagons that got cheaper. The field then grows on ([`HexField::grow`]); see
    /// [`HexField::distance`] for which costs are final meanwhile. `O(e r²)` for `e`
    /// edits and radius `r`, plus the hexagons forgotten, plus `O(log n)` per hexagon
    /// opened.
    ///
    /// ```
    /// use tilepath::hex::{Hex, HexField, HexLayout, HexMap};
    ///
    /// let layout = HexLayout::Row;
    /// let mut map = HexMap::from_ascii(layout, "
    ///     ......
    ///     .####.
    ///     ......
    /// ").unwrap();
    /// let mut field = HexField::new();
    /// field.reset(&map, layout.hex(5, 1), 0).unwrap();
    /// field.grow(&map, u64::MAX);
    /// map.set_weights([(layout.hex(2, 0), 0), (layout.hex(2, 1), 1)]);
    /// assert!(field.carry_over(&map));
    /// field.grow(&map, u64::MAX);
    /// let mut fresh = HexField::new();
    /// fresh.reset(&map, layout.hex(5, 1), 0).unwrap();
    /// fresh.grow(&map, u64::MAX);
    /// let corner = layout.hex(0, 0);
    /// assert_eq!(field.distance(corner), fresh.distance(corner));
    /// ```
    pub fn carry_over(&mut self, map: &HexMap) -> bool {
        if self.is_current(map) {
            return true;
        }
        if self.map != map.id() || self.len != map.len() || !map.can_stand(self.goal, self.radius) {
            return false;
        }
        let Some(edited) = map.edits_since(self.generation) else {
            return false;
        };
        let growth = Growth {
            radius: self.radius,
            unit: false,
            key: |_, g| (g, 0),
        };
        if !carry::carry_over(&mut self.records, map, &growth, edited, &mut self.forgotten) {
            return false;
        }
        self.reopen = true;
        self.generation = map.generation();
        true
    }

    /// True when the field's costs are for `map` as it is now.
    pub fn is_current(&self, map: &HexMap) -> bool {
        (self.map, self.generation, self.len) == (map.id(), map.generation(), map.len())
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
    ///
    /// While a field grows on one map, a settled cost is final. After
    /// [`HexField::carry_over`] opened settled hexagons again, a settled cost above the
    /// smallest cost still open may yet fall, so it counts as not settled until the
    /// growth passes it: any cheaper way runs through an open hexagon.
    pub fn distance(&self, hex: Hex) -> Option<Cost> {
        let i = self.index(hex)?;
        let g = self.records.g[i];
        let frontier = || self.records.heap.peek_key().map_or(Cost::MAX, |(k, _)| k);
        (self.records.is_closed(i) && (!self.reopen || g <= frontier())).then_some(g)
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
