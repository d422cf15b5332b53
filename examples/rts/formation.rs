//! Formation goals: spreads a group over distinct free cells around a target, nearest ring first.

use bevy_tilepath::grid::{Cell, GridSize};
use bevy_tilepath::scenario::{CachedScenario, ProfileId};

/// How far from the target a slot may be, in cells.
pub const SEARCH_RADIUS: i32 = 48;

/// Largest footprint radius that gets a scan cursor; larger ones scan from the centre.
const CURSORS: usize = 8;
/// Profiles (by id) that get scan cursors; others scan from the centre.
const CURSOR_PROFILES: usize = 8;

/// One unit asking for a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    /// The cell the unit stands on.
    pub start: Cell,
    /// Agent diameter in cells.
    pub diameter: u32,
    /// The unit's movement profile (which cells it may stand on and reach).
    pub profile: ProfileId,
}

/// Assigns every member of a group its own goal cell around a target, in two steps.
///
/// 1. Slots: cells are tried in rings of increasing distance from the target, and a cell
///    is taken when the member's footprint fits there (for its size and movement
///    profile), overlaps no footprint taken before, and lies in the member's connected
///    component.
/// 2. Matching: among members of the same profile, size and component, the slots are handed out by
///    the direction of travel: the members at the front of the group get the slots at the
///    far side of the formation, the ones at the back the near side, and within each
///    row left goes to left. So units do not have to push through the ones that arrived
///    before them.
///
/// Call [`FormationPlanner::start`], then [`FormationPlanner::reserve`] the cells other
/// units keep, then [`FormationPlanner::assign`]. Reuses its buffers: no allocation per
/// call once the map size is known.
pub struct FormationPlanner {
    offsets: Vec<(i32, i32)>,
    taken: Vec<u32>,
    stamp: u32,
    size: GridSize,
    order: Vec<(i64, usize)>,
    by_member: Vec<Placed>,
    by_slot: Vec<Placed>,
}

/// A member or a slot in the matching step: its pool (profile, diameter, component), its
/// coordinates along and across the direction of travel, and the member index.
#[derive(Clone, Copy, Debug)]
struct Placed {
    pool: (u8, u32, u32),
    along: f32,
    across: f32,
    member: usize,
    cell: Cell,
}

impl Default for FormationPlanner {
    fn default() -> Self {
        let mut offsets = Vec::new();
        for dy in -SEARCH_RADIUS..=SEARCH_RADIUS {
            for dx in -SEARCH_RADIUS..=SEARCH_RADIUS {
                if dx * dx + dy * dy <= SEARCH_RADIUS * SEARCH_RADIUS {
                    offsets.push((dx, dy));
                }
            }
        }
        offsets.sort_by_key(|&(dx, dy)| (dx * dx + dy * dy, dy, dx));
        Self {
            offsets,
            taken: Vec::new(),
            stamp: 0,
            size: GridSize::new(0, 0),
            order: Vec::new(),
            by_member: Vec::new(),
            by_slot: Vec::new(),
        }
    }
}

impl FormationPlanner {
    /// Forgets every slot taken before; `size` is the map size.
    pub fn start(&mut self, size: GridSize) {
        if self.size != size {
            self.size = size;
            self.taken.clear();
            self.taken.resize(size.area(), 0);
            self.stamp = 0;
        }
        if self.stamp == u32::MAX {
            self.taken.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// Marks the footprint of radius `r` around `cell` as taken (a unit that is not part
    /// of the group stands or goes there).
    pub fn reserve(&mut self, cell: Cell, r: i32) {
        self.take(cell, r);
    }

    /// Fills `goals[i]` with the slot of `members[i]`, or `None` when no reachable free
    /// cell lies within [`SEARCH_RADIUS`] of `target`. Slots already taken since the last
    /// [`FormationPlanner::start`] are avoided.
    pub fn assign(
        &mut self,
        map: &CachedScenario,
        target: Cell,
        members: &[Member],
        goals: &mut Vec<Option<Cell>>,
    ) {
        if self.size != map.size() {
            self.start(map.size());
        }
        goals.clear();
        goals.resize(members.len(), None);
        self.order.clear();
        self.order.extend(members.iter().enumerate().map(|(i, m)| {
            let (dx, dy) = (
                i64::from(m.start.x - target.x),
                i64::from(m.start.y - target.y),
            );
            (dx * dx + dy * dy, i)
        }));
        self.order.sort_unstable();
        let mut cursors = [[0usize; CURSORS]; CURSOR_PROFILES];
        for k in 0..self.order.len() {
            let i = self.order[k].1;
            let member = members[i];
            let Some(layer) = map.layer_for(member.profile, member.diameter) else {
                continue;
            };
            let components = layer.components();
            if components.label(member.start) == 0 {
                continue;
            }
            let r = (member.diameter / 2) as i32;
            let dead = |this: &Self, cell: Cell| layer.is_blocked(cell) || this.overlaps(cell, r);
            let cursor = cursors
                .get_mut(usize::from(member.profile.0))
                .and_then(|c| c.get_mut(r as usize));
            let mut from = cursor.as_deref().copied().unwrap_or(0);
            while from < self.offsets.len() && dead(self, offset(target, self.offsets[from])) {
                from += 1;
            }
            if let Some(c) = cursor {
                *c = from;
            }
            let slot = self.offsets[from..]
                .iter()
                .map(|&o| offset(target, o))
                .find(|&cell| components.connected(member.start, cell) && !dead(self, cell));
            if let Some(cell) = slot {
                self.take(cell, r);
                goals[i] = Some(cell);
            }
        }
        self.match_by_direction(map, target, members, goals);
    }

    /// Step 2: swaps the slots within each pool so that they follow the direction of travel.
    fn match_by_direction(
        &mut self,
        map: &CachedScenario,
        target: Cell,
        members: &[Member],
        goals: &mut [Option<Cell>],
    ) {
        let n = members.len().max(1) as f32;
        let (sx, sy) = members.iter().fold((0.0, 0.0), |(x, y), m| {
            (x + m.start.x as f32, y + m.start.y as f32)
        });
        let (mut dx, mut dy) = (target.x as f32 - sx / n, target.y as f32 - sy / n);
        let len = (dx * dx + dy * dy).sqrt();
        if len > 1e-3 {
            (dx, dy) = (dx / len, dy / len);
        } else {
            (dx, dy) = (1.0, 0.0);
        }
        let place = |pool: (u8, u32, u32), member: usize, cell: Cell| Placed {
            pool,
            along: cell.x as f32 * dx + cell.y as f32 * dy,
            across: cell.y as f32 * dx - cell.x as f32 * dy,
            member,
            cell,
        };
        self.by_member.clear();
        self.by_slot.clear();
        for (i, (m, goal)) in members.iter().zip(goals.iter()).enumerate() {
            let (Some(goal), Some(layer)) = (*goal, map.layer_for(m.profile, m.diameter)) else {
                continue;
            };
            let pool = (m.profile.0, m.diameter, layer.components().label(m.start));
            self.by_member.push(place(pool, i, m.start));
            self.by_slot.push(place(pool, i, goal));
        }
        let front_first = |a: &Placed, b: &Placed| {
            a.pool
                .cmp(&b.pool)
                .then(b.along.total_cmp(&a.along))
                .then(a.member.cmp(&b.member))
        };
        self.by_member.sort_unstable_by(front_first);
        self.by_slot.sort_unstable_by(front_first);
        let mut start = 0;
        while start < self.by_member.len() {
            let pool = self.by_member[start].pool;
            let end = start
                + self.by_member[start..]
                    .iter()
                    .take_while(|p| p.pool == pool)
                    .count();
            let row = ((end - start) as f32).sqrt().ceil().max(1.0) as usize;
            let mut a = start;
            while a < end {
                let b = (a + row).min(end);
                let left_first = |p: &Placed, q: &Placed| {
                    p.across.total_cmp(&q.across).then(p.member.cmp(&q.member))
                };
                self.by_member[a..b].sort_unstable_by(left_first);
                self.by_slot[a..b].sort_unstable_by(left_first);
                a = b;
            }
            start = end;
        }
        for (m, s) in self.by_member.iter().zip(&self.by_slot) {
            goals[m.member] = Some(s.cell);
        }
    }

    fn overlaps(&self, cell: Cell, r: i32) -> bool {
        (cell.y - r..=cell.y + r).any(|y| {
            (cell.x - r..=cell.x + r).any(|x| {
                let c = Cell::new(x, y);
                self.size.contains(c) && self.taken[self.size.index(c)] == self.stamp
            })
        })
    }

    fn take(&mut self, cell: Cell, r: i32) {
        for y in cell.y - r..=cell.y + r {
            for x in cell.x - r..=cell.x + r {
                let c = Cell::new(x, y);
                if self.size.contains(c) {
                    let i = self.size.index(c);
                    self.taken[i] = self.stamp;
                }
            }
        }
    }
}

fn offset(cell: Cell, (dx, dy): (i32, i32)) -> Cell {
    Cell::new(cell.x + dx, cell.y + dy)
}
