//! A short soak: the `soak` example's scenario with fewer units on a smaller map, its
//! figures printed and its invariants asserted (no unit ever inside a blocked cell for
//! its footprint, pending requests bounded by one per unit, fewer than a tenth of the
//! unit-frames frozen, orders completed).

use std::time::{Duration, Instant};

use crate::common::minimal_plugins;
use bevy_tilepath::prelude::GroupOrders;

// Both scenarios (this one and `live_edits`, see `live.rs`) load the helpers they share
// (`tests/stress/watch.rs`), so this test binary holds two copies of them.
#[path = "../stress/soak.rs"]
#[allow(clippy::duplicate_mod)]
mod scenario;

#[test]
fn a_short_soak_keeps_every_unit_out_of_walls_and_the_queue_bounded() {
    let config = scenario::Config {
        units: 600,
        size: 96,
        frames: 600,
        edits: 20,
        order_every: 30,
        budget: Duration::MAX,
        // A fixed number of expansions per frame: the counts asserted below do not
        // depend on the machine.
        expansions: Some(30_000),
        seed: 5,
        group_orders: GroupOrders::SharedFields,
    };
    let started = Instant::now();
    let mut app = scenario::build(&config, minimal_plugins());
    let warm = scenario::warm_up(&mut app, &config);
    let mut memory = Vec::new();
    for frame in 1..=config.frames {
        app.update();
        if frame == 100 || frame == config.frames {
            memory.push((frame, scenario::watch::peak_rss_kb()));
        }
    }
    let m = scenario::metrics(&app);
    println!(
        "short soak: {} units on a {}x{} countryside map, {} frames after a warm-up of {warm} \
         ({:.1} s):",
        config.units,
        config.size,
        config.size,
        m.frames,
        started.elapsed().as_secs_f64()
    );
    // A panic in a frame fails the test before this line: 0 panics when it prints.
    scenario::report(m, 0, &memory);
    assert_eq!(m.frames, config.frames);
    assert_eq!(m.in_blocked, 0, "{:?}", m.blocked_examples);
    // One ticket per unit: the queue never holds a unit twice, whatever the load.
    assert!(
        m.max_pending <= config.units,
        "max pending {}",
        m.max_pending
    );
    let unit_frames = (config.units as u64) * u64::from(config.frames);
    assert!(
        (m.frozen + m.ordered) * 10 < unit_frames,
        "frozen unit-frames {} and new-order waits {} of {unit_frames}",
        m.frozen,
        m.ordered
    );
    assert!(m.orders > 0 && m.arrivals > 0 && m.completed > 0, "{m:?}");
    assert!(m.walls_built > 0 && m.walls_opened > 0);
}
