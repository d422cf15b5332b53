//! The frame's map changes: taken from the grid and announced at the end of `SyncMap`.

use bevy::prelude::*;

use crate::components::{NavGrid, NavGridChanged};
use crate::main_thread::MainThread;
use crate::scenario::{CachedScenario, CellRect};
use crate::settings::{LandmarkTables, TilepathSettings};

/// The map changes of this frame, for the re-planner: the grid's change log, taken once
/// per frame by [`take_map_changes`].
#[derive(Resource, Debug, Default)]
pub(crate) struct MapChanges {
    /// This frame's changes, oldest first (each also announced as a [`NavGridChanged`]).
    pub(crate) log: Vec<NavGridChanged>,
    /// The grid is new, replaced by another map, or gone since the last frame: every
    /// answer is reviewed.
    pub(crate) everything: bool,
    had_grid: bool,
    last_generation: u64,
    /// The map object last seen (`CachedScenario::id`): a `NavGrid` inserted in place of
    /// another is a new map, whatever its generation.
    last_map: u64,
}

impl MapChanges {
    /// True when this frame's changes replace the whole map (a new grid, another map, a
    /// new size or placement).
    pub(crate) fn whole_map(&self) -> bool {
        self.everything || self.log.iter().any(|c| c.whole_map)
    }
}

/// Takes the grid's changes of this frame (in `SyncMap`, after the tilemap sync and the
/// profiles), announces them as [`NavGridChanged`] messages, and builds the JPS+ jump
/// tables of a new or wholly replaced map (see [`TilepathSettings::jump_tables`]) and,
/// under [`LandmarkTables::OnLoad`], the landmark tables of its weighted one-cell layers
/// (what [`Algorithm::Auto`](crate::search::Algorithm::Auto) reads there) so that the
/// first requests' frame does not pay for them. A grid that appears, is replaced by
/// another map object or goes counts as one change of the whole map.
pub(crate) fn take_map_changes(
    _main: MainThread,
    grid: Option<ResMut<NavGrid>>,
    settings: Res<TilepathSettings>,
    mut changes: ResMut<MapChanges>,
    mut announce: MessageWriter<NavGridChanged>,
) {
    let changes = &mut *changes;
    changes.log.clear();
    changes.everything = match grid {
        None => std::mem::replace(&mut changes.had_grid, false),
        Some(mut grid) => {
            let map = grid.scenario().id();
            let fresh = !changes.had_grid
                || grid.is_added()
                || grid.generation() < changes.last_generation
                || (map != changes.last_map && grid.is_changed());
            changes.had_grid = true;
            changes.last_generation = grid.generation();
            changes.last_map = map;
            let grid = grid.bypass_change_detection();
            grid.take_changes(&mut changes.log);
            if fresh {
                // Changes made before this run are part of the new map: one change of the
                // whole map stands for them.
                changes.log.clear();
                changes.log.push(NavGridChanged {
                    generation: grid.generation(),
                    area: CellRect::of_size(grid.size()),
                    whole_map: true,
                    ..NavGridChanged::default()
                });
            }
            if changes.log.iter().any(|c| c.whole_map) {
                build_tables(grid.scenario(), &settings);
            }
            fresh
        }
    };
    announce.write_batch(changes.log.iter().cloned());
}

/// Builds the tables of the one-cell layer of every profile: the JPS+ jump table where
/// all passable cells weigh the same (when [`TilepathSettings::jump_tables`]), the
/// landmark table where they do not (under [`LandmarkTables::OnLoad`]). Layers of wider
/// agents get theirs at their first request.
fn build_tables(map: &CachedScenario, settings: &TilepathSettings) {
    for profile in map.profile_ids() {
        match map.weights(profile).map(|w| w.uniform().is_some()) {
            Some(true) if settings.jump_tables => {
                map.build_jump_table(profile, 1);
            }
            Some(false) if settings.landmark_tables == LandmarkTables::OnLoad => {
                map.build_landmarks(profile, 1);
            }
            _ => {}
        }
    }
}
