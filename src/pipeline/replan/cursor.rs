//! The review's round-robin cursor: which requests a frame reviews, and what each has seen.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;

/// Passes over the requests, in entity order, that review each against the edits it has
/// not seen (see `ReplanSettings::review_budget`).
#[derive(Default)]
pub(super) struct Cursor {
    /// The requests of the current pass, in entity order, taken when it began.
    pass: Vec<Entity>,
    /// The index in `pass` of the next request to review.
    next: usize,
    /// The map generation when the current pass began.
    began: u64,
    /// Every request has seen the edits of this generation and older: those planned
    /// before the last completed pass began were reviewed during it.
    pub(super) covered: u64,
    /// Per request, the map generation when it was last reviewed.
    seen: EntityHashMap<u64>,
    /// Frames the current pass has run, and the last complete pass ran.
    pub(super) frames: u32,
    pub(super) last_frames: u32,
    /// Requests reviewed this frame.
    pub(super) reviewed: usize,
}

impl Cursor {
    /// Forgets the passes: every request has seen the map of generation `now` (a new map,
    /// or every answer planned again).
    pub(super) fn reset(&mut self, now: u64) {
        self.pass.clear();
        self.next = 0;
        self.began = now;
        self.covered = now;
        self.seen.clear();
        self.reviewed = 0;
    }

    /// True when the current pass has requests left to review.
    pub(super) fn in_pass(&self) -> bool {
        self.next < self.pass.len()
    }

    /// Ends the current pass: everything up to the generation it began at is covered.
    /// Returns the new `covered`.
    pub(super) fn end_pass(&mut self) -> u64 {
        if !self.pass.is_empty() {
            self.covered = self.covered.max(self.began);
            self.last_frames = self.frames;
        }
        self.frames = 0;
        self.pass.clear();
        self.next = 0;
        self.covered
    }

    /// Begins a pass over `requests` (sorted here) at map generation `now`.
    pub(super) fn begin(&mut self, mut requests: Vec<Entity>, now: u64) {
        requests.sort_unstable();
        self.seen.retain(|e, _| requests.binary_search(e).is_ok());
        self.pass = requests;
        self.next = 0;
        self.began = now;
        if self.pass.is_empty() {
            self.covered = now;
        }
    }

    /// The next request of the pass.
    pub(super) fn take(&mut self) -> Option<Entity> {
        let e = self.pass.get(self.next).copied()?;
        self.next += 1;
        self.reviewed += 1;
        Some(e)
    }

    /// The generation `entity` was last reviewed at (0 when never).
    pub(super) fn seen(&self, entity: Entity) -> u64 {
        self.seen.get(&entity).copied().unwrap_or(0)
    }

    /// Records that `entity` was reviewed against the map of generation `now`.
    pub(super) fn saw(&mut self, entity: Entity, now: u64) {
        self.seen.insert(entity, now);
    }
}
