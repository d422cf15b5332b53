//! Where the plugin's systems run: every system it adds runs on the main thread.

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel, Schedules};
use bevy::prelude::*;
use bevy_tilepath::prelude::TilepathPlugin;

use crate::common::{insert_level_grid, minimal_plugins};

/// How many systems `schedule` holds once built, and how many of them may run on a worker
/// thread (`Send`); (0, 0) when the app has no such schedule.
fn systems_in(app: &mut App, schedule: impl ScheduleLabel + Clone) -> (usize, usize) {
    app.update();
    // (`FixedUpdate` has not run yet: build it. A missing schedule answers `Err`.)
    let _ = app
        .world_mut()
        .try_schedule_scope(schedule.clone(), |world, schedule| {
            schedule.initialize(world).expect("the schedule builds");
        });
    let schedules = app.world().resource::<Schedules>();
    let Some(Ok(systems)) = schedules.get(schedule).map(|s| s.systems()) else {
        return (0, 0);
    };
    systems.fold((0, 0), |(all, send), (_, system)| {
        (all + 1, send + usize::from(system.is_send()))
    })
}

#[test]
fn every_system_of_the_plugin_runs_on_the_main_thread() {
    for fixed in [false, true] {
        let label: InternedScheduleLabel = if fixed {
            FixedUpdate.intern()
        } else {
            Update.intern()
        };
        let mut bare = App::new();
        bare.add_plugins(minimal_plugins());
        let (bare_all, bare_send) = systems_in(&mut bare, label);

        let mut app = App::new();
        app.add_plugins((
            minimal_plugins(),
            TilepathPlugin::default().in_schedule(label),
        ));
        insert_level_grid(&mut app);
        let (all, send) = systems_in(&mut app, label);
        // Intake, re-planning, claims, solving, steering and the frame's bookkeeping at
        // least, whichever features are on.
        assert!(
            all >= bare_all + 10,
            "{label:?} holds {all} systems with the plugin, {bare_all} without"
        );
        assert_eq!(
            send, bare_send,
            "systems of {label:?} that may run on a worker thread: {send} with the plugin, \
             {bare_send} without"
        );
    }
}
