//! What the headless army runs watch each frame: positions, frozen units, memory.
//!
//! Used by both modes of the stress harness (this folder) and by crates/bench's `army`
//! benchmark: positions before the frame, frozen and idle units, the warm-up,
//! quantiles of per-frame times, peak memory.

#![allow(dead_code)]

use std::time::Duration;

use bevy::prelude::*;
use bevy_tilepath::prelude::{FrameBudget, PathResult, TilepathSettings};
use bevy_tilepath::stats::TilepathStats;

/// A unit's position before the frame.
#[derive(Component, Clone, Copy, Default)]
pub struct Before(pub Vec3);

/// Records every watched unit's position before the frame (run it before
/// `TilepathSystems::SyncMap`).
pub fn remember_positions(mut units: Query<(&Transform, &mut Before)>) {
    for (transform, mut before) in &mut units {
        before.0 = transform.translation;
    }
}

/// How a unit spent a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// It moved, or it has arrived.
    Moving,
    /// It did not move although it has a current path (held back by a crowd or a stall).
    Idle,
    /// It did not move and waits for the first answer to a new request (its result is
    /// `Pending`): a new order, not a path that the map broke.
    Ordered,
    /// It did not move and has no path to follow: its result is `Failed`, or `Found`
    /// while it waits for a re-plan (`Replanning`).
    Frozen,
}

/// Classifies a unit's frame from its position now and before, whether it carries
/// `Arrived` and `Replanning`, and its result.
pub fn motion(
    now: Vec3,
    before: &Before,
    arrived: bool,
    replanning: bool,
    result: &PathResult,
) -> Motion {
    if arrived || now != before.0 {
        return Motion::Moving;
    }
    match result {
        PathResult::Found(_) if !replanning => Motion::Idle,
        PathResult::Pending => Motion::Ordered,
        _ => Motion::Frozen,
    }
}

/// Answers the first orders with no budget (at most 100 frames), so the measured frames
/// start with every unit walking; returns the frames it took. Set the measured settings
/// next.
pub fn answer_first_orders(app: &mut App) -> u32 {
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Time(Duration::from_secs(3_600)),
        max_requests_per_frame: usize::MAX,
        ..default()
    });
    let mut frames = 0;
    loop {
        app.update();
        frames += 1;
        if app.world().resource::<TilepathStats>().pending == 0 || frames >= 100 {
            return frames;
        }
    }
}

/// Quantile `q` (0..=1, nearest rank) of `times`; zero when there are none.
pub fn quantile(times: &[Duration], q: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    let mut times = times.to_vec();
    times.sort_unstable();
    let rank = ((q * times.len() as f64).ceil() as usize).clamp(1, times.len());
    times[rank - 1]
}

/// Milliseconds of `d`.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Peak resident set size of the process in kB (`VmHWM` of `/proc/self/status`), 0
/// where unknown.
pub fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}
