//! Units at rest: an army that has arrived costs steering nothing (by count: the units it
//! reads, `TilepathStats::steered`), a unit walking far from it reads none of it, and
//! one walking into it wakes it and gets through without overlapping anyone; the unit
//! map the planner reads, no longer rebuilt while nothing changes, still holds the army
//! and follows a unit moved by hand; grid steppers that all stand settled cost no tick,
//! and a new stepper still walks past them.

use bevy::prelude::*;
use bevy_tilepath::components::UnitMap;
use bevy_tilepath::crowd::OVERLAP_TOLERANCE;
use bevy_tilepath::prelude::{Arrived, Cell, GridLayout, GridStepper, NavGrid, PathRequest};
use bevy_tilepath::search::UnitKind;
use bevy_tilepath::stats::TilepathStats;

use crate::common::{app, position, regular_grid_of, shapes, spawn_steering_on, worst_overlap};

/// The army's block: columns 40..46, rows 3..9 of a 64 × 12 open map.
const BLOCK: (std::ops::Range<i32>, std::ops::Range<i32>) = (40..46, 3..9);

fn steered(app: &App) -> usize {
    app.world().resource::<TilepathStats>().steered
}

/// An app on the open map laid out as `layout`, with the army of one-tile units each
/// sent to the cell it stands on, run until steering reads none of it (at most
/// `limit` frames). Returns the app, the army and the frame it came to rest.
fn army_at_rest(layout: GridLayout, limit: usize) -> (App, Vec<Entity>, Option<usize>) {
    let mut app = app();
    let rows = vec![".".repeat(64); 12].join("\n");
    app.insert_resource(regular_grid_of(layout, &rows));
    let (xs, ys) = BLOCK;
    let army: Vec<Entity> = ys
        .flat_map(|y| xs.clone().map(move |x| Cell::new(x, y)))
        .map(|c| spawn_steering_on(&mut app, c, PathRequest::new(c)))
        .collect();
    let rested = (1..=limit).find(|_| {
        app.update();
        steered(&app) == 0
    });
    (app, army, rested)
}

fn positions(app: &App, units: &[Entity]) -> Vec<Vec2> {
    units.iter().map(|&e| position(app, e)).collect()
}

#[test]
fn an_arrived_army_rests_and_a_unit_walking_far_from_it_reads_none_of_it() {
    for layout in shapes() {
        let (mut app, army, rested) = army_at_rest(layout, 600);
        let rested = rested.unwrap_or_else(|| {
            panic!(
                "{layout:?}: steering still reads {} units of an army that arrived",
                steered(&app)
            )
        });
        println!("{layout:?}: at rest after {rested} frames");
        assert!(
            army.iter()
                .all(|&e| app.world().get::<Arrived>(e).is_some()),
            "{layout:?}: the whole army arrived"
        );
        let before = positions(&app, &army);
        // A unit walks at the far west end, well out of the army's reach.
        let walker =
            spawn_steering_on(&mut app, Cell::new(1, 6), PathRequest::new(Cell::new(8, 6)));
        let mut walked = 0;
        for frame in 0..240 {
            app.update();
            let read = steered(&app);
            assert!(
                read <= 1,
                "{layout:?} frame {frame}: steering read {read} units, the walker alone walks"
            );
            walked += read;
        }
        assert!(walked > 0, "{layout:?}: the walker was never steered");
        assert!(
            app.world().get::<Arrived>(walker).is_some(),
            "{layout:?}: the walker arrived"
        );
        assert_eq!(
            positions(&app, &army),
            before,
            "{layout:?}: the resting army moved"
        );
    }
}

#[test]
fn a_unit_walking_into_a_resting_army_wakes_it_and_gets_through_without_overlaps() {
    for layout in shapes() {
        let (mut app, mut units, rested) = army_at_rest(layout, 600);
        assert!(rested.is_some(), "{layout:?}: the army came to rest");
        // Straight through the middle of the block, from west of it to east of it.
        let walker = spawn_steering_on(
            &mut app,
            Cell::new(30, 6),
            PathRequest::new(Cell::new(56, 6)),
        );
        units.push(walker);
        let bodies: Vec<(Entity, u32)> = units.iter().map(|&e| (e, 1)).collect();
        let mut woke = 0;
        let mut arrived = None;
        for frame in 1..=1_800 {
            app.update();
            woke = woke.max(steered(&app));
            let (overlap, _) = worst_overlap(&app, &bodies);
            assert!(
                frame == 1 || overlap <= OVERLAP_TOLERANCE,
                "{layout:?} frame {frame}: units overlap by {overlap} tiles"
            );
            if app.world().get::<Arrived>(walker).is_some() {
                arrived = Some(frame);
                break;
            }
        }
        println!("{layout:?}: through in {arrived:?} frames, {woke} units read at most");
        assert!(
            arrived.is_some(),
            "{layout:?}: the walker never got through"
        );
        assert!(woke > 1, "{layout:?}: the army never woke");
        // Once the walker has gone, the army comes to rest again.
        let again = (1..=600).find(|_| {
            app.update();
            steered(&app) == 0
        });
        assert!(again.is_some(), "{layout:?}: the army never rested again");
    }
}

/// The cells the unit map the planner reads marks as held by a standing unit.
fn standing_cells(app: &App) -> Vec<Cell> {
    let cells = app.world().resource::<UnitMap>().cells();
    let size = cells.size();
    (0..size.height as i32)
        .flat_map(|y| (0..size.width as i32).map(move |x| Cell::new(x, y)))
        .filter(|&c| cells.kind(c) == Some(UnitKind::Standing))
        .collect()
}

#[test]
fn the_unit_map_keeps_an_army_at_rest_and_follows_a_unit_moved_by_hand() {
    for layout in shapes() {
        let (mut app, army, rested) = army_at_rest(layout, 600);
        assert!(rested.is_some(), "{layout:?}: the army came to rest");
        let (xs, ys) = BLOCK;
        let block: Vec<Cell> = ys
            .flat_map(|y| xs.clone().map(move |x| Cell::new(x, y)))
            .collect();
        for _ in 0..30 {
            app.update();
        }
        assert_eq!(standing_cells(&app), block, "{layout:?}: the army at rest");
        // One unit is carried off by hand to the far west end.
        let to = Cell::new(3, 2);
        let at = app.world().resource::<NavGrid>().agent_center(to, 1);
        app.world_mut()
            .get_mut::<Transform>(army[0])
            .unwrap()
            .translation = at.extend(1.0);
        app.update();
        let mut expected: Vec<Cell> = block[1..].to_vec();
        expected.push(to);
        expected.sort_by_key(|c| (c.y, c.x));
        assert_eq!(
            standing_cells(&app),
            expected,
            "{layout:?}: after one unit was moved by hand"
        );
    }
}

/// Spawns a one-tile grid stepper on `from`, sent to `to`.
fn spawn_stepper(app: &mut App, from: Cell, to: Cell) -> Entity {
    let at = app.world().resource::<NavGrid>().agent_center(from, 1);
    app.world_mut()
        .spawn((
            Transform::from_translation(at.extend(1.0)),
            PathRequest::new(to),
            GridStepper::default(),
        ))
        .id()
}

#[test]
fn grid_steppers_at_rest_cost_no_tick_and_a_new_stepper_still_walks_among_them() {
    for layout in shapes() {
        let mut app = app();
        let rows = vec![".".repeat(40); 6].join("\n");
        app.insert_resource(regular_grid_of(layout, &rows));
        let army: Vec<Entity> = (1..5)
            .flat_map(|y| (20..26).map(move |x| Cell::new(x, y)))
            .map(|c| spawn_stepper(&mut app, c, c))
            .collect();
        let quiet = (1..=300).find(|_| {
            app.update();
            steered(&app) == 0
        });
        assert!(
            quiet.is_some(),
            "{layout:?}: ticks still read {} settled steppers",
            steered(&app)
        );
        let before = positions(&app, &army);
        for _ in 0..60 {
            app.update();
            assert_eq!(steered(&app), 0, "{layout:?}: a quiet tick read units");
        }
        // A new stepper crosses the map past the army: every tick reads the units again.
        let walker = spawn_stepper(&mut app, Cell::new(2, 2), Cell::new(37, 2));
        let through = (1..=3_000).find(|_| {
            app.update();
            assert!(
                steered(&app) > 0,
                "{layout:?}: a tick with a walker was skipped"
            );
            app.world().get::<Arrived>(walker).is_some()
        });
        assert!(through.is_some(), "{layout:?}: the walker never arrived");
        // It arrived: quiet again once the units it moved aside are back.
        let again = (1..=600).find(|_| {
            app.update();
            steered(&app) == 0
        });
        assert!(again.is_some(), "{layout:?}: never quiet again");
        let mut after = positions(&app, &army);
        after.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        let mut before = before;
        before.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        assert_eq!(after, before, "{layout:?}: the army stands where it stood");
    }
}
