//! Where a steering unit stands along its path: its next waypoint, its headway and the
//! progress rule.

use bevy::prelude::*;

use super::follow;
use super::give_way::GiveWay;
use crate::grid::Cell;

/// How a steering unit follows its path: the waypoint it heads for and how long it has
/// made no headway (added with [`Steering`](super::Steering)). Steering keeps the unit's [`PathProgress`](crate::components::PathProgress),
/// which the re-planner reads, equal to [`SteeringProgress::next_waypoint`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct SteeringProgress {
    pub(super) next: usize,
    closest: f32,
    pub(super) stalled: f32,
    /// Its velocity of the last frame, steering-plane units per second.
    pub(super) velocity: Vec2,
    /// Seconds it has barely moved (kept across new paths, unlike `stalled`).
    pub(super) still: f32,
    /// The goal it walks to, its least distance to it (tiles) when it last got
    /// [`HEADWAY`] tiles closer, and the seconds since (kept across new paths to the same
    /// goal).
    goal: Vec2,
    nearest: f32,
    slow: f32,
    /// The progress rule (see [`StallSettings`](crate::settings::StallSettings)).
    stall: Stall,
    /// The index of the last cell of its path it stood on (`usize::MAX`: not known yet).
    cell: usize,
    /// Its giving way in a narrow passage, while it gives way.
    pub(super) give_way: Option<GiveWay>,
    /// It arrived on its goal (not held back short of it): pushed off it, it may walk
    /// back.
    pub(super) on_goal: bool,
    /// Seconds it has stood still without a path to follow (at most
    /// [`REST_AFTER`](super::rest::REST_AFTER)): then it may rest.
    pub(super) resting: f32,
}

/// What the progress rule keeps of a steering unit: its remaining path length (tiles),
/// the least of it since it last got a tile further, the seconds since, and the turns it
/// took back and forth along its path.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Default, Debug, PartialEq)]
struct Stall {
    remaining: f32,
    best: f32,
    secs: f32,
    /// The goal (plane position) the counts are for.
    goal: Vec2,
    /// Path length (tiles) from waypoint `suffix_at` to the end, kept while `next` only
    /// grows (`usize::MAX`: not known).
    suffix: f32,
    suffix_at: usize,
    /// The remaining length where the unit last turned, and which way it goes along
    /// its path since (1 on, -1 back, 0 not known yet).
    turned_at: f32,
    trend: i8,
    /// Seconds since it last turned, and seconds it still holds still.
    since_turn: f32,
    hold: f32,
    /// The least remaining length along its current path, and the seconds since it
    /// last got a tile below it (both start over on a new path).
    path_best: f32,
    path_secs: f32,
}

impl Default for Stall {
    fn default() -> Self {
        Self {
            remaining: f32::INFINITY,
            best: f32::INFINITY,
            secs: 0.0,
            goal: Vec2::NAN,
            suffix: 0.0,
            suffix_at: usize::MAX,
            turned_at: f32::INFINITY,
            trend: 0,
            since_turn: f32::INFINITY,
            hold: 0.0,
            path_best: f32::INFINITY,
            path_secs: 0.0,
        }
    }
}

/// Tiles a unit must go back (or on, after going back) along its path to count as
/// turning (jostling in a crowd moves it less).
const TURN: f32 = 0.25;

/// Two turns within this many seconds make a unit hold still.
const TURNS_WITHIN: f32 = 1.0;

/// Cells past the last one it stood on where [`SteeringProgress::track`] looks for the
/// unit's cell.
const TRACKED: usize = 8;

/// Tiles closer to its goal that a unit must get to count as making headway (see
/// [`SteeringProgress::headway`]): units jostled in a crowd move, but not this far.
const HEADWAY: f32 = 0.5;

impl Default for SteeringProgress {
    fn default() -> Self {
        Self {
            next: 0,
            closest: f32::INFINITY,
            stalled: 0.0,
            velocity: Vec2::ZERO,
            still: 0.0,
            goal: Vec2::NAN,
            nearest: f32::INFINITY,
            slow: 0.0,
            stall: Stall::default(),
            cell: usize::MAX,
            give_way: None,
            on_goal: false,
            resting: 0.0,
        }
    }
}

impl SteeringProgress {
    /// Index of the waypoint the unit is heading for.
    pub fn next_waypoint(&self) -> usize {
        self.next
    }

    /// The unit's velocity over the last frame, steering-plane units per second (world
    /// units on square maps; what avoidance expects it to keep).
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }

    /// Seconds the unit has spent without getting closer to its next waypoint.
    pub fn stalled_secs(&self) -> f32 {
        self.stalled
    }

    /// Seconds the unit, while it had an order, has not got at least one tile further
    /// along its path (its remaining path length has not dropped by a tile), however it
    /// moved meanwhile; 0 once it arrives. Kept across new paths to the same goal (a
    /// longer new path counts as no progress until the unit is a tile below the least
    /// remaining length it had reached). The
    /// unit is stalled when this reaches
    /// `after` of [`StallSettings`](crate::settings::StallSettings).
    pub fn stalled_for(&self) -> f32 {
        self.stall.secs
    }

    /// The length of the rest of its path from where it stands, tiles (infinite before
    /// it has followed a path).
    pub fn remaining_tiles(&self) -> f32 {
        self.stall.remaining
    }

    /// True while the unit holds still after turning back and forth (see
    /// [`StallSettings::hold`](crate::settings::StallSettings::hold)).
    pub(super) fn holding(&self) -> bool {
        self.stall.hold > 0.0
    }

    /// Starts following a new path at waypoint `next`.
    pub(super) fn restart(&mut self, next: usize) {
        self.next = next;
        self.cell = usize::MAX;
        self.give_way = None;
        self.closest = f32::INFINITY;
        self.stalled = 0.0;
        // Progress on a new path to the same goal is measured against the least
        // remaining length of any path to it so far: the stalled seconds go on.
        self.stall = Stall {
            best: self.stall.best,
            secs: self.stall.secs,
            goal: self.stall.goal,
            hold: self.stall.hold,
            ..Stall::default()
        };
    }

    /// Follows its path again at waypoint `next`, standing on its cell `cell`.
    pub(super) fn rejoin_at(&mut self, next: usize, cell: usize) {
        self.restart(next);
        self.cell = cell;
        // Headway and standing still count from here: giving way was neither.
        (self.goal, self.slow, self.still) = (Vec2::NAN, 0.0, 0.0);
    }

    /// The index of the last cell of `cells` (its path) the unit stood on, now that it
    /// stands on `here`: amortised O(1) while it walks its path, O(path) on a new path.
    pub(super) fn track(&mut self, here: Cell, cells: &[Cell]) -> usize {
        if self.cell >= cells.len() {
            self.cell = cells.iter().position(|&c| c == here).unwrap_or(0);
        } else if cells[self.cell] != here {
            let from = self.cell + 1;
            let to = (from + TRACKED).min(cells.len());
            if let Some(k) = cells[from..to].iter().position(|&c| c == here) {
                self.cell = from + k;
            }
        }
        self.cell
    }

    /// Sends an arrived unit back to its goal along the path it has: it walks again,
    /// its headway counted afresh.
    pub(super) fn walk_back(&mut self) {
        self.on_goal = false;
        self.nearest = f32::INFINITY;
        self.slow = 0.0;
        self.still = 0.0;
        self.stalled = 0.0;
    }

    /// The unit has no order left (arrived): nothing stalls it.
    pub(super) fn settled(&mut self) {
        if self.stall != Stall::default() {
            self.stall = Stall::default();
        }
    }

    /// Records the unit's remaining path length `remaining` (tiles) after a frame of
    /// `dt` seconds. Returns true when it has just been stalled along its current path
    /// for another `after` seconds (time to ask for a new path); `after` and `hold` as in
    /// [`StallSettings`](crate::settings::StallSettings) (`None`: off). O(1).
    pub(super) fn progress(
        &mut self,
        goal: Vec2,
        remaining: f32,
        dt: f32,
        after: Option<f32>,
        hold: Option<f32>,
    ) -> bool {
        let s = &mut self.stall;
        if goal != s.goal {
            (s.goal, s.best, s.secs) = (goal, f32::INFINITY, 0.0);
        }
        s.remaining = remaining;
        s.hold = (s.hold - dt).max(0.0);
        s.since_turn += dt;
        let turned = match s.trend {
            1 | 0 if remaining > s.turned_at + TURN => {
                let was = s.trend;
                (s.trend, s.turned_at) = (-1, remaining);
                was != 0
            }
            -1 if remaining < s.turned_at - TURN => {
                (s.trend, s.turned_at) = (1, remaining);
                true
            }
            -1 => {
                s.turned_at = s.turned_at.max(remaining);
                false
            }
            _ => {
                s.turned_at = s.turned_at.min(remaining);
                false
            }
        };
        if turned {
            if s.since_turn <= TURNS_WITHIN
                && let Some(hold) = hold
            {
                s.hold = hold;
            }
            s.since_turn = 0.0;
        }
        // Along the path it follows now: a new path is a new baseline, so a unit walking
        // a longer way around is not asked to plan again.
        if !s.path_best.is_finite() || remaining <= s.path_best - 1.0 {
            (s.path_best, s.path_secs) = (remaining, 0.0);
        } else {
            s.path_secs += dt;
        }
        if !s.best.is_finite() {
            // The first frame toward a new goal: its path's length is the baseline.
            s.best = remaining;
        } else if remaining <= s.best - 1.0 {
            s.best = remaining;
            s.secs = 0.0;
            return false;
        }
        s.secs += dt;
        let secs = s.path_secs;
        after.is_some_and(|after| {
            secs > 0.0 && (secs / after).floor() > ((secs - dt) / after).floor()
        })
    }

    /// The path length (tiles of `span` plane units) from waypoint `next` to the end of
    /// `path`: amortised O(1) while `next` only grows, O(path) after a new path.
    pub(in crate::steering) fn suffix(
        &mut self,
        path: follow::Waypoints<'_>,
        next: usize,
        span: f32,
    ) -> f32 {
        let s = &mut self.stall;
        let last = path.len() - 1;
        let next = next.min(last);
        if s.suffix_at > next {
            s.suffix = (next..last)
                .map(|i| path.at(i).distance(path.at(i + 1)))
                .sum::<f32>()
                / span;
        } else {
            s.suffix -= (s.suffix_at..next)
                .map(|i| path.at(i).distance(path.at(i + 1)))
                .sum::<f32>()
                / span;
            s.suffix = s.suffix.max(0.0);
        }
        s.suffix_at = next;
        s.suffix
    }

    /// Seconds since the unit last got [`HEADWAY`] tiles closer to its goal.
    pub(super) fn slow(&self) -> f32 {
        self.slow
    }

    /// Records the unit's distance to `goal` (tiles) after a frame of `dt` seconds, for
    /// [`slow`](Self::slow) (from 0 on a new goal).
    pub(super) fn headway(&mut self, goal: Vec2, distance: f32, dt: f32) {
        if goal != self.goal || distance < self.nearest - HEADWAY {
            self.goal = goal;
            self.nearest = distance;
            self.slow = 0.0;
        } else {
            self.slow += dt;
        }
    }

    /// Records the waypoint now headed for and the distance to it after a frame of `dt`
    /// seconds; true when the unit has now been stuck for `patience` seconds (the count
    /// starts again).
    pub(super) fn stuck(
        &mut self,
        next: usize,
        distance: f32,
        tolerance: f32,
        dt: f32,
        patience: f32,
    ) -> bool {
        if next != self.next || distance < self.closest - tolerance {
            self.next = next;
            self.closest = distance;
            self.stalled = 0.0;
            return false;
        }
        self.stalled += dt;
        if patience > 0.0 && patience.is_finite() && self.stalled >= patience {
            self.closest = f32::INFINITY;
            self.stalled = 0.0;
            return true;
        }
        false
    }
}
