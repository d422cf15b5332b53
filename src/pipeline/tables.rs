//! Landmark tables of weighted layers built off the frame, one layer at a time, and installed when ready (see [`LandmarkTables`]).

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, TaskPool, block_on};

use crate::components::NavGrid;
use crate::main_thread::MainThread;
use crate::scenario::{LandmarkBuild, ProfileId};
use crate::settings::{FrameBudget, LandmarkTables, TilepathSettings};

/// The landmark table being built in the background, if any, and the frames counted
/// since the plugin started (for the install frame of lockstep runs).
#[derive(Resource, Default)]
pub(crate) struct LandmarkBuilds {
    /// Runs of [`build_landmark_tables`] so far.
    frame: u64,
    running: Option<Running>,
}

/// A build on the async compute pool.
struct Running {
    /// The map object it was taken of.
    map: u64,
    /// Under an expansion budget, the frame it is installed in.
    due: u64,
    task: Task<LandmarkBuild>,
}

/// Keeps the weighted layers' landmark tables coming (last system of `SyncMap`, after
/// the map's changes are taken): under [`LandmarkTables::Background`] it installs the
/// build that has ended (under an expansion budget: whose frame has come, waiting for it
/// if needed), then starts the next weighted layer without a table, by profile, then
/// diameter. A build taken of another map is dropped (which cancels it). Under the other
/// settings it only tells the map whether `Auto` may build tables itself.
pub(crate) fn build_landmark_tables(
    _main: MainThread,
    grid: Option<ResMut<NavGrid>>,
    settings: Res<TilepathSettings>,
    mut builds: ResMut<LandmarkBuilds>,
) {
    builds.frame += 1;
    let Some(mut grid) = grid else {
        builds.running = None;
        return;
    };
    // Not a change of the map: readers of `NavGrid` are not woken up.
    let grid = grid.bypass_change_detection();
    grid.set_auto_builds_landmarks(settings.landmark_tables == LandmarkTables::OnLoad);
    if settings.landmark_tables != LandmarkTables::Background {
        builds.running = None;
        return;
    }
    let map = grid.scenario().id();
    if builds.running.as_ref().is_some_and(|r| r.map != map) {
        builds.running = None;
    }
    let lockstep = matches!(settings.budget, FrameBudget::Expansions(_));
    let frame = builds.frame;
    if let Some(running) = builds.running.take_if(|r| match lockstep {
        true => frame >= r.due,
        false => r.task.is_finished(),
    }) {
        // A stale build is dropped; the scan below starts that layer again.
        let _ = grid.install_landmarks(block_on(running.task));
    }
    if builds.running.is_none() {
        builds.running = next_build(grid, frame);
    }
}

/// Starts the build of the first weighted layer without a table, if any: the one-cell
/// layers of the weighted profiles (built now if need be, O(n)), then the other layers
/// built so far.
fn next_build(grid: &NavGrid, frame: u64) -> Option<Running> {
    let map = grid.scenario();
    let weighted = |p: ProfileId| map.weights(p).is_some_and(|w| w.uniform().is_none());
    let one_cell = map
        .profile_ids()
        .filter(|&p| weighted(p))
        .filter_map(|p| map.layer_for(p, 1));
    let build = one_cell
        .chain(map.built_layers())
        .filter(|layer| !layer.landmarks_built())
        .find_map(|layer| LandmarkBuild::new(map, layer.profile(), layer.diameter()))?;
    let cells = map.size().area() as u64;
    let pool = AsyncComputeTaskPool::get_or_init(TaskPool::default);
    let task = pool.spawn(async move {
        let mut build = build;
        build.run();
        build
    });
    Some(Running {
        map: map.id(),
        due: frame + cells.div_ceil(LandmarkTables::LOCKSTEP_CELLS_PER_FRAME),
        task,
    })
}
