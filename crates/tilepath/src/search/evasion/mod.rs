//! Evasion: walk the straight line to the goal and go around obstacles along their contours.
//!
//! The idea: the agent heads straight for the goal along a 4-connected digital line
//! (a Bresenham line that never steps diagonally). Where the next line cell is blocked,
//! two wall followers leave the last free cell, one keeping the obstacle on its left
//! hand and one on its right. Each follows the obstacle's contour until it stands on a
//! free cell of the line *beyond* the collision, wherever the contour first meets the
//! line again. The side with the smaller "detour plus rest of the line" wins, the walk
//! resumes from there, and the next collision is handled the same way.
//!
//! Rejoining only beyond the collision makes hollow obstacles and nested shapes
//! harmless: a follower stays on the outside of a ring the line crosses twice and
//! rejoins past the second crossing, never inside the hollow. Obstacles are followed as
//! 8-connected blocked sets (diagonal touches count as one wall) and the map edge
//! counts as a wall, which matches the 4-connected free components of
//! [`crate::scenario::Components`]: the contour around the obstacle that the line hits
//! always crosses the line again further on when the goal is reachable, so on a map
//! where the pathfinder's component check passed, evasion always finds a path. A
//! follower that comes back to its first wall edge without meeting the line proves the
//! contrary; that can only happen when the search is run on a start and goal that are
//! not connected, and it is answered with [`PathError::NotFound`].
//!
//! The trace yields straight steps; for [`Connectivity::Octile`] two perpendicular
//! steps are then merged into one diagonal wherever that cuts no corner. Cells entered
//! twice (a follower going into a dead-end pocket and out again, two detours
//! overlapping) are cut out as loops. The finished path is checked against the
//! movement rules ([`crate::search::validate_path`]) before it is returned.
//!
//! Complexity: O(line length + traced contour length), with both followers advancing
//! in turn and the loser stopped as soon as it cannot beat the winner. Nothing is
//! sorted, no open list is kept. Memory: the line is computed, not stored. Per cell it
//! uses the shared records (8 bytes: traced cells are stamped, so
//! [`crate::search::Pathfinder::explored`] shows them) and its own path positions
//! (4 bytes, for cutting loops in O(1)): 12 bytes per cell, like A*, allocated when
//! evasion first runs. The two traces grow with the longest detour (8 bytes per cell
//! traced) and are reused between queries. What it saves is time and touched cells,
//! not memory.
//!
//! When to use: open fields with few, large obstacles (terrain, islands, buildings),
//! where it touches a tiny fraction of the cells A* would and its paths are close to
//! shortest. When not to: mazes, rooms and cluttered maps, where wall following goes
//! down every corridor it meets and paths get long; use A* or JPS there.
//!
//! ```
//! use tilepath::prelude::*;
//!
//! let map = CachedScenario::from_ascii("
//!     ..........
//!     ..........
//!     ....##....
//!     ....##....
//!     ....##....
//!     ....##....
//!     ..........
//! ").unwrap();
//! let mut pf = Pathfinder::new();
//! let query = PathQuery::new(Cell::new(0, 2), Cell::new(9, 2)).algorithm(Algorithm::Evasion);
//! let stats = pf.find(&map, &query).unwrap();
//! // Round the top of the block: it is nearer the line than the bottom.
//! assert!(pf.path().iter().all(|c| c.y <= 2));
//! assert!(stats.length < 12.0);
//! ```

mod follower;
mod line;
#[cfg(test)]
mod tests;

use super::query::{PathError, PathQuery};
use super::state::SearchState;
use super::validate::validate_path;
use crate::grid::{Cell, Connectivity};
use crate::scenario::Layer;
use follower::{Follower, Hand, STEPS, Step};
use line::Line;

/// Evasion's buffers besides the shared state: the cells entered by the left-hand and
/// the right-hand follower at the current collision, and each path cell's position in
/// the path (4 bytes per cell, sized when evasion first runs). Cleared, never shrunk.
#[derive(Debug, Default)]
pub(crate) struct EvasionState {
    traces: [Vec<Cell>; 2],
    position: Vec<u32>,
}

impl EvasionState {
    /// Bytes held (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.traces
            .iter()
            .map(|t| t.capacity() * size_of::<Cell>())
            .sum::<usize>()
            + self.position.capacity() * size_of::<u32>()
    }
}

/// Runs evasion from `query.start` to `query.goal` (both free). On success `s.path`
/// holds a valid cell path; on failure it is empty.
///
/// # Errors
///
/// [`PathError::LimitReached`] from the limits. [`PathError::NotFound`] when a
/// follower laps its obstacle without meeting the line again (start and goal are not
/// connected, which the pathfinder rules out before searching) or, as a last guard,
/// when the finished path breaks the movement rules.
pub(crate) fn search(
    s: &mut SearchState,
    e: &mut EvasionState,
    layer: &Layer,
    query: &PathQuery,
) -> Result<(), PathError> {
    let area = s.size().area();
    if e.position.len() < area {
        e.position.resize(area, 0);
    }
    let result = walk(s, e, layer, query);
    if result.is_err() {
        s.path.clear();
    }
    result
}

/// Walks the line, evading every obstacle on it, then merges corners and validates.
fn walk(
    s: &mut SearchState,
    e: &mut EvasionState,
    layer: &Layer,
    query: &PathQuery,
) -> Result<(), PathError> {
    let line = Line::new(query.start, query.goal);
    let end = line.len();
    s.path.clear();
    push_cell(s, &mut e.position, query.start);
    let mut at = 0;
    while at < end {
        s.tick()?;
        let next = line.cell(at + 1);
        if !layer.is_blocked(next) {
            push_cell(s, &mut e.position, next);
            at += 1;
            continue;
        }
        let (side, rejoin) = evade(s, layer, &line, at, next, &mut e.traces)?;
        for &c in &e.traces[side] {
            push_cell(s, &mut e.position, c);
        }
        at = rejoin;
    }
    if query.options.connectivity == Connectivity::Octile {
        merge_diagonals(layer, &mut s.path);
    }
    match validate_path(
        layer,
        &s.path,
        query.start,
        query.goal,
        query.options.connectivity,
    ) {
        Ok(()) => Ok(()),
        Err(_) => Err(s.not_found()),
    }
}

/// Follows the obstacle containing `blocked` both ways from line cell `at` and returns
/// the winning side (index into `traces`) with the line index where it rejoins.
fn evade(
    s: &mut SearchState,
    layer: &Layer,
    line: &Line,
    at: u32,
    blocked: Cell,
    traces: &mut [Vec<Cell>; 2],
) -> Result<(usize, u32), PathError> {
    let from = line.cell(at);
    let wall = STEPS
        .iter()
        .position(|&(dx, dy)| Cell::new(from.x + dx, from.y + dy) == blocked)
        .ok_or_else(|| s.not_found())?;
    let mut followers = [
        Follower::new(Hand::Left, from, wall),
        Follower::new(Hand::Right, from, wall),
    ];
    traces[0].clear();
    traces[1].clear();
    // One lap visits each wall edge once; more steps than edges would mean a bug.
    let lap_bound = 4 * s.size().area() as u64 + 4;
    let remaining = |k: u32| u64::from(line.len() - k);
    let mut best: Option<(u64, usize, u32)> = None;
    while followers.iter().any(|f| !f.done) {
        for (side, f) in followers.iter_mut().enumerate() {
            if f.done {
                continue;
            }
            if best.is_some_and(|(score, _, _)| f.moved >= score) {
                f.done = true;
                continue;
            }
            s.tick()?;
            match f.step(s, layer, line, at, &mut traces[side]) {
                Step::Moved if f.edges <= lap_bound => {}
                Step::Moved | Step::Closed => return Err(s.not_found()),
                Step::Rejoined(k) => {
                    f.done = true;
                    let score = f.moved + remaining(k);
                    if best.is_none_or(|(b, _, _)| score < b) {
                        best = Some((score, side, k));
                    }
                }
            }
        }
    }
    best.map(|(_, side, k)| (side, k))
        .ok_or_else(|| s.not_found())
}

/// Appends `c` to the path, or cuts the path back to `c` when it is already on it
/// (removing the loop). Path cells are stamped closed, with their path index in `position`.
fn push_cell(s: &mut SearchState, position: &mut [u32], c: Cell) {
    let i = s.index(c);
    if s.is_closed(i) {
        let pos = position[i as usize] as usize;
        if s.path.get(pos) == Some(&c) {
            s.path.truncate(pos + 1);
            return;
        }
    }
    position[i as usize] = s.path.len() as u32;
    s.touch(i);
    s.close(i);
    s.path.push(c);
}

/// Replaces two perpendicular straight steps by one diagonal where the other corner
/// cell is free too (no corner cutting), in place.
fn merge_diagonals(layer: &Layer, path: &mut Vec<Cell>) {
    let mut len = 0;
    for r in 0..path.len() {
        let c = path[r];
        if len >= 2 {
            let (a, b) = (path[len - 2], path[len - 1]);
            let straight = a.x == b.x || a.y == b.y;
            if straight && a.x != c.x && a.y != c.y && a.is_adjacent(c) {
                let other = Cell::new(a.x + c.x - b.x, a.y + c.y - b.y);
                if !layer.is_blocked(other) {
                    path[len - 1] = c;
                    continue;
                }
            }
        }
        path[len] = c;
        len += 1;
    }
    path.truncate(len);
}
