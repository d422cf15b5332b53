//! Successive goals: which leg each unit is on, and the log of the legs finished,
//! abandoned and the longest, shared by both systems' runners.

use bevy_tilepath::prelude::Cell;

/// The legs of every unit of a run.
pub struct Legs {
    goals: Vec<Vec<Cell>>,
    /// Index of each unit's current goal (`goals[i].len()` once done).
    next: Vec<usize>,
    /// Simulated second each unit's current leg began.
    began: Vec<f64>,
    /// Legs that ended at their goal.
    pub finished: u64,
    /// Legs given up (the system found no way; northstar's `PathfindingFailed` and
    /// `RerouteFailed`, ours' `PathResult::Failed`).
    pub abandoned: u64,
    /// The longest finished leg, simulated seconds.
    pub longest_s: f64,
}

impl Legs {
    /// For units with the goal sequences `goals` (one per unit; empty for units without
    /// legs), all starting their first leg at second 0.
    pub fn new(goals: Vec<Vec<Cell>>) -> Self {
        let n = goals.len();
        Legs {
            goals,
            next: vec![0; n],
            began: vec![0.0; n],
            finished: 0,
            abandoned: 0,
            longest_s: 0.0,
        }
    }

    /// The goal unit `i` is on its way to, if any is left.
    pub fn current(&self, i: usize) -> Option<Cell> {
        self.goals.get(i)?.get(self.next[i]).copied()
    }

    /// True once unit `i` has no goal left.
    pub fn done(&self, i: usize) -> bool {
        self.current(i).is_none()
    }

    /// Unit `i` ended its current leg at second `now`, at its goal or (`abandoned`)
    /// giving up; returns its next goal, if any.
    pub fn end(&mut self, i: usize, now: f64, abandoned: bool) -> Option<Cell> {
        if self.done(i) {
            return None;
        }
        if abandoned {
            self.abandoned += 1;
        } else {
            self.finished += 1;
            self.longest_s = self.longest_s.max(now - self.began[i]);
        }
        self.next[i] += 1;
        self.began[i] = now;
        self.current(i)
    }
}
