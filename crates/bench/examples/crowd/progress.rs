//! The progress rule, measured the same way for every system: a unit with an order is
//! stalled while its remaining path length (the shortest 8-connected path on the static
//! map from the cell it stands on to its goal, diagonals not cutting corners) is not at
//! least [`PROGRESS_TILES`] shorter than [`WINDOW_S`] seconds before, counted from the
//! start of its current leg. Moving without getting nearer (swaying) counts as stalled.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::rc::{Rc, Weak};

use bevy_tilepath::prelude::Cell;
use bevy_tilepath::tilepath::scenario::BitGrid;

/// The window of the rule, simulated seconds.
pub const WINDOW_S: f64 = 3.0;
/// The progress a unit must make within the window, tiles.
pub const PROGRESS_TILES: f32 = 1.0;

/// Path lengths in thousandths of a tile.
const STRAIGHT: u32 = 1000;
const DIAGONAL: u32 = 1414;
const UNREACHED: u32 = u32::MAX;

/// Remaining path lengths to one goal from every cell, thousandths of a tile.
type Field = Rc<Vec<u32>>;

/// Follows every unit's remaining path length frame by frame.
pub struct Progress {
    bits: BitGrid,
    dt: f64,
    window: usize,
    /// Fields by goal, shared by the units going there while any is.
    fields: HashMap<Cell, Weak<Vec<u32>>>,
    /// Per unit: its goal and field, and the remaining lengths of the last frames.
    goal: Vec<Option<(Cell, Field)>>,
    history: Vec<VecDeque<f32>>,
    run_s: Vec<f64>,
    /// Unit-seconds spent stalled.
    pub stalled_s: f64,
    /// The longest unbroken stall of any unit, seconds.
    pub longest_s: f64,
}

impl Progress {
    /// For `units` units on `bits` (1 = blocked), frames of `dt` seconds.
    pub fn new(bits: &BitGrid, units: usize, dt: f64) -> Self {
        Progress {
            bits: bits.clone(),
            dt,
            window: (WINDOW_S / dt).round() as usize,
            fields: HashMap::new(),
            goal: vec![None; units],
            history: vec![VecDeque::new(); units],
            run_s: vec![0.0; units],
            stalled_s: 0.0,
            longest_s: 0.0,
        }
    }

    /// Dijkstra from `goal` over the free cells: O(cells log cells).
    fn field(&mut self, goal: Cell) -> Field {
        if let Some(f) = self.fields.get(&goal).and_then(Weak::upgrade) {
            return f;
        }
        let size = self.bits.size();
        let index = |c: Cell| (c.y as u32 * size.width + c.x as u32) as usize;
        let free = |c: Cell| !self.bits.get_or(c, true);
        let mut dist = vec![UNREACHED; size.area()];
        let mut heap = BinaryHeap::new();
        if free(goal) {
            dist[index(goal)] = 0;
            heap.push(Reverse((0u32, goal.x, goal.y)));
        }
        while let Some(Reverse((d, x, y))) = heap.pop() {
            if d > dist[index(Cell::new(x, y))] {
                continue;
            }
            for (dx, dy) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let n = Cell::new(x + dx, y + dy);
                let diagonal = dx != 0 && dy != 0;
                if !free(n)
                    || (diagonal && (!free(Cell::new(x + dx, y)) || !free(Cell::new(x, y + dy))))
                {
                    continue;
                }
                let nd = d + if diagonal { DIAGONAL } else { STRAIGHT };
                if nd < dist[index(n)] {
                    dist[index(n)] = nd;
                    heap.push(Reverse((nd, n.x, n.y)));
                }
            }
        }
        let f = Rc::new(dist);
        self.fields.retain(|_, w| w.strong_count() > 0);
        self.fields.insert(goal, Rc::downgrade(&f));
        f
    }

    /// Records a frame of unit `i`: the cell it stands on and the goal of its order
    /// (`None`: no order, or arrived; a changed goal starts a new leg).
    pub fn observe(&mut self, i: usize, cell: Option<Cell>, goal: Option<Cell>) {
        let Some(goal) = goal else {
            self.goal[i] = None;
            self.history[i].clear();
            self.run_s[i] = 0.0;
            return;
        };
        if self.goal[i].as_ref().map(|(g, _)| *g) != Some(goal) {
            let field = self.field(goal);
            self.goal[i] = Some((goal, field));
            self.history[i].clear();
            self.run_s[i] = 0.0;
        }
        let size = self.bits.size();
        let (_, field) = self.goal[i].as_ref().expect("set above");
        let remaining = cell
            .filter(|c| {
                c.x >= 0 && c.y >= 0 && (c.x as u32) < size.width && (c.y as u32) < size.height
            })
            .map(|c| field[(c.y as u32 * size.width + c.x as u32) as usize])
            .filter(|&d| d != UNREACHED)
            .map(|d| d as f32 / STRAIGHT as f32);
        // Off the map's free cells (between cells on a corner): the last length stands.
        let Some(remaining) = remaining.or_else(|| self.history[i].back().copied()) else {
            return;
        };
        let history = &mut self.history[i];
        history.push_back(remaining);
        if history.len() <= self.window {
            return;
        }
        let before = history.pop_front().expect("longer than the window");
        // Within a tile of the goal, reaching the goal's cell is progress enough.
        if before - remaining < PROGRESS_TILES.min(before) {
            self.stalled_s += self.dt;
            self.run_s[i] += self.dt;
            self.longest_s = self.longest_s.max(self.run_s[i]);
        } else {
            self.run_s[i] = 0.0;
        }
    }

    /// Units stalled without a break for at least `seconds` now.
    pub fn stuck(&self, seconds: f64) -> usize {
        self.run_s.iter().filter(|&&s| s >= seconds).count()
    }
}
