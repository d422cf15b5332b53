//! The RTS example's simulation, headless: units never stand in walls and every order
//! they can still reach is completed, with walls built across their paths as they walk.
#![cfg(feature = "tilemap")]

#[path = "../examples/rts/sim.rs"]
mod sim;

use sim::headless::{HeadlessConfig, run_headless};

#[test]
fn units_stay_out_of_walls_and_complete_every_reachable_order() {
    let mut config = HeadlessConfig::new(480, 200);
    config.script.order_every = 50;
    config.script.wall_every = 60;
    config.script.group = (10, 40);
    config.script.max_distance = Some(24);
    config.settle_frames = 2400;
    config.unbounded_solving = true;
    let summary = run_headless(&config);
    println!("{summary}");

    assert_eq!(summary.units, 200, "{summary}");
    assert!(summary.sim.orders >= 5, "{summary}");
    assert!(summary.sim.cells_walled > 0, "{summary}");
    assert!(summary.sim.replans > 0, "{summary}");
    assert!(summary.sim.arrivals > 0, "{summary}");
    assert_eq!(summary.sim.max_in_walls, 0, "{summary}");
    assert_eq!(summary.unfinished_reachable, 0, "{summary}");
    assert!(summary.passed());
}

#[test]
fn every_unit_type_can_reach_the_other_base_on_the_generated_level() {
    use sim::UnitKind;
    use sim::level::{LEVEL_SEED, LEVEL_SIZE, Level, TileKind};

    let level = Level::generate(LEVEL_SIZE, LEVEL_SEED);
    let profiles = UnitKind::profiles();
    let map = sim::level_map(&level, &profiles).unwrap();
    let [a, b] = level.bases();
    for kind in UnitKind::ALL {
        let id = profiles.id(kind.name()).unwrap();
        let layer = map.layer_for(id, kind.diameter()).unwrap();
        assert!(
            layer.components().connected(a, b),
            "{} cannot go from base to base",
            kind.name()
        );
    }
    // The level has every terrain, and bridges over the river.
    let size = level.size();
    let count = |kind: TileKind| {
        (0..size.area())
            .filter(|&i| level.kind(size.cell(i)) == kind)
            .count()
    };
    for kind in [
        TileKind::Road,
        TileKind::Forest,
        TileKind::Swamp,
        TileKind::Water,
        TileKind::Bridge,
        TileKind::Rock,
    ] {
        assert!(count(kind) > 20, "{kind:?}: {}", count(kind));
    }
}
