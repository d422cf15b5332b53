//! Congestion the planner sees: units that crawl through a passage make it dearer for
//! new paths, which take a parallel way while it lasts and the passage again once it
//! has cleared, on every grid shape; with congestion off they take the passage.

use bevy::prelude::*;
use bevy_tilepath::components::UnitMap;
use bevy_tilepath::prelude::{
    Cell, CongestionSettings, GridLayout, GridStepper, PathRequest, Steering, TilepathSettings,
};

use crate::common::{Along, app, found_path, regular_grid_of, shapes, unlimited};

/// Cells along the two ways between the rooms at both ends.
const LENGTH: i32 = 20;
/// Where the crawling units stand along the short way (row 2).
const JAM: [i32; 4] = [6, 8, 10, 12];
/// 16 ms frames: a second is 62.5 of them.
const SECOND: usize = 63;

/// Two ways from the west end of row 2 to its east end: straight along row 2, or round
/// by row 0 past the wall of row 1.
fn map(along: Along) -> String {
    let mut text: Vec<Vec<char>> = along
        .open(LENGTH as usize, 3)
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    for x in 2..LENGTH - 2 {
        let c = along.cell(x, 1);
        text[c.y as usize][c.x as usize] = '#';
    }
    let rows: Vec<String> = text.into_iter().map(String::from_iter).collect();
    rows.join("\n")
}

/// The cells along row 2 that the crawling units hold up: the short way's jam.
fn jammed(along: Along, cell: Cell) -> bool {
    along.cell(along.x(cell), 2) == cell && (JAM[0]..=JAM[3]).contains(&along.x(cell))
}

/// How the crawling units move.
#[derive(Clone, Copy, Debug)]
enum Crawler {
    Steering,
    Stepper,
}

/// Crawling units in row 2 (slow, each with an order east) for `crawl` frames; then a unit
/// at its west end asks for a path to its east end. Returns whether that path goes
/// through the jam; if `cleared` is given, the crawling units leave, and after that
/// many more frames a second unit asks again.
fn run(
    layout: GridLayout,
    crawler: Crawler,
    congestion: CongestionSettings,
    crawl: usize,
    cleared: Option<usize>,
) -> (bool, Option<bool>) {
    let along = Along::of(layout);
    let mut app = app();
    app.insert_resource(TilepathSettings {
        congestion,
        ..unlimited()
    });
    let grid = regular_grid_of(layout, &map(along));
    let tile = grid.plane_tile_size().min_element();
    let centre = |x: i32| grid.agent_center(along.cell(x, 2), 1).extend(1.0);
    let (west, jam) = (centre(0), JAM.map(centre));
    app.insert_resource(grid);
    // Each crawls toward its own goal 4 cells east (distinct goals: none claims the
    // asking unit's goal).
    let crawlers: Vec<Entity> = JAM
        .iter()
        .zip(jam)
        .map(|(&x, at)| {
            let goal = along.cell(x + 4, 2);
            let mut unit = app
                .world_mut()
                .spawn((Transform::from_translation(at), PathRequest::new(goal)));
            match crawler {
                Crawler::Steering => unit.insert(Steering {
                    speed: tile / 16.0,
                    ..default()
                }),
                // A step every 2.4 s.
                Crawler::Stepper => unit.insert(GridStepper {
                    ticks_per_step: 150,
                    ..default()
                }),
            };
            unit.id()
        })
        .collect();
    for _ in 0..crawl {
        app.update();
    }
    let ask = |app: &mut App| {
        let goal = along.cell(LENGTH - 1, 2);
        let unit = app
            .world_mut()
            .spawn((Transform::from_translation(west), PathRequest::new(goal)))
            .id();
        for _ in 0..3 {
            app.update();
        }
        let path = found_path(app, unit);
        app.world_mut().despawn(unit);
        path.cells.iter().any(|&c| jammed(along, c))
    };
    let first = ask(&mut app);
    let second = cleared.map(|frames| {
        for unit in crawlers {
            app.world_mut().despawn(unit);
        }
        for _ in 0..frames {
            app.update();
        }
        ask(&mut app)
    });
    (first, second)
}

#[test]
fn new_paths_go_round_a_passage_where_units_crawl_until_it_clears() {
    let on = CongestionSettings::default();
    let fade = (on.fade * SECOND as f32) as usize;
    for layout in shapes() {
        for crawler in [Crawler::Steering, Crawler::Stepper] {
            let case = format!("{layout:?} {crawler:?}");
            // Before the units have crawled a second nothing is congested.
            let (early, _) = run(layout, crawler, on, SECOND / 2, None);
            assert!(early, "{case}: the way was dear before anyone crawled");
            let (jammed, cleared) = run(layout, crawler, on, 4 * SECOND, Some(fade + SECOND));
            assert!(
                !jammed,
                "{case}: a new path went through the crawling units"
            );
            assert_eq!(
                cleared,
                Some(true),
                "{case}: the passage stayed dear after it cleared"
            );
            let off = CongestionSettings::OFF;
            let (through, _) = run(layout, crawler, off, 4 * SECOND, None);
            assert!(through, "{case}: with congestion off the path went round");
        }
    }
}

#[test]
fn units_crawling_in_the_open_congest_nothing() {
    for layout in shapes() {
        let along = Along::of(layout);
        let mut app = app();
        let grid = regular_grid_of(layout, &along.open(LENGTH as usize, 5));
        let tile = grid.plane_tile_size().min_element();
        let starts = JAM.map(|x| grid.agent_center(along.cell(x, 2), 1).extend(1.0));
        app.insert_resource(grid);
        for (&x, at) in JAM.iter().zip(starts) {
            app.world_mut().spawn((
                Transform::from_translation(at),
                PathRequest::new(along.cell(x + 4, 2)),
                Steering {
                    speed: tile / 16.0,
                    ..default()
                },
            ));
        }
        for _ in 0..4 * SECOND {
            app.update();
        }
        let map = app.world().resource::<UnitMap>();
        assert!(
            map.congestion().is_empty(),
            "{layout:?}: crawling in the open congested cells"
        );
    }
}
