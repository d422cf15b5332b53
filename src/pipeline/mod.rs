//! The request pipeline, stage by stage: map changes, intake, re-planning, claims, solving.

mod answer;
mod changes;
mod claim;
mod intake;
mod queue;
mod repair;
mod replan;
mod resolve;
mod solve;
mod tables;

use bevy::prelude::*;

use crate::main_thread::MainThread;

pub(crate) use changes::{MapChanges, take_map_changes};
pub(crate) use claim::claim_goals;
pub(crate) use intake::queue_changed_requests;
pub(crate) use queue::PathQueue;
pub(crate) use replan::replan_paths;
pub(crate) use solve::solve_paths;
pub(crate) use tables::{LandmarkBuilds, build_landmark_tables};

/// When the plugin's frame started: the start of its `SyncMap` set, for
/// `TilepathStats::plugin_time`.
#[derive(Resource, Debug, Default)]
pub(crate) struct FrameClock {
    pub(crate) started: Option<std::time::Instant>,
}

/// Starts the plugin's frame (first system of `SyncMap`): the clock, and the frame's
/// counters of [`TilepathStats`](crate::stats::TilepathStats) back to zero.
pub(crate) fn start_frame(
    _main: MainThread,
    mut clock: ResMut<FrameClock>,
    mut stats: ResMut<crate::stats::TilepathStats>,
) {
    clock.started = Some(std::time::Instant::now());
    stats.begin_frame();
}

/// Records the plugin's time this frame (last system of `Steer`).
pub(crate) fn finish_frame(
    _main: MainThread,
    clock: Res<FrameClock>,
    mut stats: ResMut<crate::stats::TilepathStats>,
) {
    if let Some(started) = clock.started {
        stats.plugin_time = started.elapsed();
    }
}
