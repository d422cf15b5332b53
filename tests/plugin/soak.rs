//! A short soak: the stress harness's soak mode with fewer units on a smaller map, its
//! figures printed and its invariants asserted (no unit ever inside a blocked cell for
//! its footprint, pending requests bounded by one per unit, fewer than a tenth of the
//! unit-frames frozen, orders completed).

use std::time::Instant;

use crate::common::minimal_plugins;
use crate::stress::{self, report, soak, watch};
use bevy_tilepath::prelude::{FrameBudget, GroupOrders};

#[test]
fn a_short_soak_keeps_every_unit_out_of_walls_and_the_queue_bounded() {
    let config = stress::Config {
        units: 600,
        size: 96,
        frames: 600,
        edits: 20,
        // A fixed number of expansions per frame: the counts asserted below do not
        // depend on the machine.
        budget: FrameBudget::Expansions(30_000),
        seed: 5,
        mode: stress::Mode::Soak(soak::Options {
            order_every: 30,
            group_orders: GroupOrders::SharedFields,
        }),
    };
    let started = Instant::now();
    let mut app = stress::build(&config, minimal_plugins());
    let warm = stress::warm_up(&mut app, &config);
    let mut memory = Vec::new();
    for frame in 1..=config.frames {
        app.update();
        if frame == 100 || frame == config.frames {
            memory.push((frame, watch::peak_rss_kb()));
        }
    }
    let m = stress::metrics(&app);
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
    report::soak(m, 0, &memory);
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
