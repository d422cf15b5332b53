//! Terrain and movement profiles: profiles route differently on one map, unknown profiles
//! fail, terrain edits and profile changes re-plan exactly the paths they concern,
//! steering speed follows the terrain, tilemap layers combine their terrain.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::components::Replanning;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Arrived, Cell, FoundPath, MapEdit, MovementProfile, MovementProfiles, NavGrid, NavGridChanged,
    PathFailure, PathRequest, PathResult, Steering, TerrainId,
};
use bevy_tilepath::scenario::{BitGrid, CachedScenario};
use bevy_tilepath::search::PathError;

use crate::common::{SolvedLog, TILE, found_path, oracle, position, world_of};
use bevy_tilepath::prelude::{FrameBudget, TilepathSettings};
use bevy_tilepath::settings::LandmarkTables;

/// The common test app, answering every request in the frame it is queued however busy
/// the machine is (the tests count answers per frame).
fn app() -> App {
    let mut app = crate::common::app();
    app.world_mut()
        .resource_mut::<bevy_tilepath::prelude::TilepathSettings>()
        .budget = FrameBudget::Time(Duration::MAX);
    app
}

const GRASS: TerrainId = 0;
const FOREST: TerrainId = 1;
const ROAD: TerrainId = 2;
const SWAMP: TerrainId = 3;
const WATER: TerrainId = 4;

/// Terrain of a map character; `#` is an obstacle (on grass).
fn terrain_of(c: char) -> TerrainId {
    match c {
        'F' => FOREST,
        'R' => ROAD,
        'S' => SWAMP,
        'W' => WATER,
        _ => GRASS,
    }
}

/// A map of `width × height` cells whose character at each cell is `f(cell)`; row `y`
/// of the result is map row `y`.
fn rows(width: i32, height: i32, f: impl Fn(Cell) -> char) -> Vec<String> {
    (0..height)
        .map(|y| (0..width).map(|x| f(Cell::new(x, y))).collect())
        .collect()
}

fn char_at(rows: &[String], c: Cell) -> Option<char> {
    let row = rows.get(usize::try_from(c.y).ok()?)?;
    row.chars().nth(usize::try_from(c.x).ok()?)
}

/// The grid of `rows` (`TILE` apart, cell (0, 0) at the origin), terrain per character.
fn grid(rows: &[String]) -> NavGrid {
    let size = GridSize::new(rows[0].len() as u32, rows.len() as u32);
    let mut bits = BitGrid::new(size, false);
    let mut terrain = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            bits.set(Cell::new(x as i32, y as i32), ch == '#');
            terrain.push(terrain_of(ch));
        }
    }
    let map = CachedScenario::from_bits_and_terrain(bits, terrain).unwrap();
    NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE))
}

/// Independent oracle: the cheapest cost from `start` to `goal` for a one-cell agent on
/// `rows`, where `weight` gives each character's weight (`None`: blocked; `#` always
/// is), by [`oracle`] over these moves: a step costs its length (1 or √2) × the mean
/// weight of its two cells; a diagonal step needs both cells beside it passable.
fn cheapest(
    rows: &[String],
    weight: impl Fn(char) -> Option<u32>,
    start: Cell,
    goal: Cell,
) -> Option<f64> {
    let w = |c: Cell| char_at(rows, c).filter(|&ch| ch != '#').and_then(&weight);
    let successors = |c: Cell| {
        let Some(wc) = w(c) else {
            return Vec::new();
        };
        let mut steps = Vec::new();
        for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
            let n = Cell::new(c.x + dx, c.y + dy);
            let Some(wn) = w(n).filter(|_| n != c) else {
                continue;
            };
            let diagonal = dx != 0 && dy != 0;
            if diagonal && (w(Cell::new(n.x, c.y)).is_none() || w(Cell::new(c.x, n.y)).is_none()) {
                continue;
            }
            let len = if diagonal {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            steps.push((n, len * f64::from(wc + wn) / 2.0));
        }
        steps
    };
    w(start)?;
    oracle(start, |c| c == goal, successors)
}

/// The weights `profile` gives the map characters (for the oracle).
fn weights_of(profile: &MovementProfile) -> impl Fn(char) -> Option<u32> + '_ {
    |ch| profile.weight(terrain_of(ch)).map(u32::from)
}

fn answers(app: &App, unit: Entity) -> usize {
    let log = &app.world().resource::<SolvedLog>().0;
    log.iter().filter(|(_, m)| m.entity == unit).count()
}

/// Spawns a unit at `start` with `request`, which claims no goal cell: units of several
/// profiles share goals here to compare their paths.
fn spawn_request(app: &mut App, start: Cell, request: PathRequest) -> Entity {
    app.world_mut()
        .spawn((
            Transform::from_translation(world_of(start).extend(1.0)),
            request.claim_goal(false),
        ))
        .id()
}

/// Asserts `path` goes from `start` to `goal` through cells passable under `profile`,
/// and its cost is the oracle's.
fn assert_cheapest(
    rows: &[String],
    profile: &MovementProfile,
    path: &FoundPath,
    start: Cell,
    goal: Cell,
) {
    let weight = weights_of(profile);
    assert_eq!(path.cells.first(), Some(&start));
    assert_eq!(path.cells.last(), Some(&goal));
    for c in &path.cells {
        let ch = char_at(rows, *c).unwrap();
        assert!(ch != '#' && weight(ch).is_some(), "{c} ({ch}) is blocked");
    }
    let best = cheapest(rows, weight, start, goal).expect("reachable");
    assert!(
        (f64::from(path.cost) - best).abs() < 1e-3,
        "cost {} vs oracle {best}: {:?}",
        path.cost,
        path.cells
    );
}

#[test]
fn two_profiles_take_different_ways_on_one_map_and_both_are_cheapest() {
    // A forest wall from x = 6 to 14, open only in the top row: infantry walks through
    // the forest (weight 3), vehicles cannot enter it and go round.
    let map = rows(21, 21, |c| {
        if (6..=14).contains(&c.x) && c.y < 20 {
            'F'
        } else {
            '.'
        }
    });
    let infantry = MovementProfile::new()
        .with_weight(FOREST, 3)
        .with_blocked(WATER);
    let vehicle = MovementProfile::new().with_blocked(FOREST);
    let mut app = app();
    app.insert_resource(grid(&map));
    app.insert_resource(
        MovementProfiles::default()
            .with("infantry", infantry.clone())
            .with("vehicle", vehicle.clone()),
    );
    let (start, goal) = (Cell::new(0, 1), Cell::new(20, 1));
    let walker = spawn_request(&mut app, start, PathRequest::new(goal).profile("infantry"));
    let driver = spawn_request(&mut app, start, PathRequest::new(goal).profile("vehicle"));
    let plain = spawn_request(&mut app, start, PathRequest::new(goal));
    app.update();

    let through = found_path(&app, walker);
    let around = found_path(&app, driver);
    let straight = found_path(&app, plain);
    assert_cheapest(&map, &infantry, &through, start, goal);
    assert_cheapest(&map, &vehicle, &around, start, goal);
    assert_cheapest(&map, &MovementProfile::new(), &straight, start, goal);
    assert!(
        through.cells.iter().all(|c| c.y == 1),
        "{:?}",
        through.cells
    );
    assert!(around.cells.iter().any(|c| c.y == 20), "{:?}", around.cells);
    // 5 steps on grass, one from grass into forest, 8 in the forest, one out, 5 on grass.
    assert_eq!(through.cost, 5.0 + 2.0 + 8.0 * 3.0 + 2.0 + 5.0);
    assert_eq!(straight.cost, 20.0);
    assert_eq!((through.length, straight.length), (20.0, 20.0));
    let profiles = app.world().resource::<MovementProfiles>();
    assert_eq!(through.profile, profiles.id("infantry").unwrap());
    assert_eq!(around.profile, profiles.id("vehicle").unwrap());
    assert!(around.length > 40.0 && (around.cost - around.length).abs() < 1e-3);
}

#[test]
fn an_unknown_profile_fails_typed_and_is_retried_when_it_is_defined() {
    let map = rows(8, 3, |_| '.');
    let mut app = app();
    app.insert_resource(grid(&map));
    let unit = spawn_request(
        &mut app,
        Cell::new(0, 0),
        PathRequest::new(Cell::new(7, 2)).profile("hover"),
    );
    app.update();
    assert_eq!(
        app.world().get::<PathResult>(unit).unwrap().failure(),
        Some(&PathFailure::UnknownProfile)
    );
    assert!(PathFailure::UnknownProfile.depends_on_map());
    app.update();
    assert_eq!(answers(&app, unit), 1, "not retried without a change");

    app.world_mut()
        .resource_mut::<MovementProfiles>()
        .insert("hover", MovementProfile::new().with_weight(WATER, 2));
    app.update();
    let path = found_path(&app, unit);
    assert_eq!(path.cells.last(), Some(&Cell::new(7, 2)));
    assert_eq!(
        Some(path.profile),
        app.world().resource::<MovementProfiles>().id("hover")
    );
    assert_eq!(answers(&app, unit), 2);

    // Removing the profile re-plans the path planned with it, which then fails again.
    app.world_mut()
        .resource_mut::<MovementProfiles>()
        .remove("hover");
    app.update();
    assert_eq!(
        app.world().get::<PathResult>(unit).unwrap().failure(),
        Some(&PathFailure::UnknownProfile)
    );
}

#[test]
fn a_truck_takes_the_road_when_the_swamp_is_dear_and_crosses_it_when_it_is_cheap() {
    // Grass weighs 2 for trucks, the road (row 0) 1; a swamp band x = 5..=9 below the
    // road. The request's profile changes weight; the plugin re-plans by itself.
    let map = rows(15, 13, |c| match c {
        c if c.y == 0 => 'R',
        c if (5..=9).contains(&c.x) => 'S',
        _ => '.',
    });
    let truck = |swamp| {
        MovementProfile::new()
            .with_weight(GRASS, 2)
            .with_weight(SWAMP, swamp)
    };
    let mut app = app();
    app.insert_resource(grid(&map));
    app.insert_resource(
        MovementProfiles::default()
            .with("truck", truck(3))
            .with("other", MovementProfile::new().with_weight(SWAMP, 7)),
    );
    let (start, goal) = (Cell::new(0, 6), Cell::new(14, 6));
    let unit = spawn_request(&mut app, start, PathRequest::new(goal).profile("truck"));
    let bystander = spawn_request(&mut app, start, PathRequest::new(goal).profile("other"));
    app.update();
    let cheap_swamp = found_path(&app, unit);
    assert_cheapest(&map, &truck(3), &cheap_swamp, start, goal);
    assert!(cheap_swamp.cells.iter().all(|c| c.y == 6));
    assert_eq!(cheap_swamp.cost, 18.0 + 5.0 * 3.0);

    app.world_mut()
        .resource_mut::<MovementProfiles>()
        .insert("truck", truck(9));
    app.update();
    let grid_changes: Vec<NavGridChanged> = {
        let messages = app.world().resource::<Messages<NavGridChanged>>();
        messages.get_cursor().read(messages).cloned().collect()
    };
    let truck_id = app
        .world()
        .resource::<MovementProfiles>()
        .id("truck")
        .unwrap();
    assert!(
        grid_changes.iter().any(|m| m.profiles == vec![truck_id]),
        "{grid_changes:?}"
    );
    let road = found_path(&app, unit);
    assert_cheapest(&map, &truck(9), &road, start, goal);
    assert!(
        road.cells
            .iter()
            .filter(|c| (5..=9).contains(&c.x))
            .all(|c| c.y == 0),
        "{:?}",
        road.cells
    );
    assert!(road.cost < 18.0 + 5.0 * 9.0);
    assert_eq!(answers(&app, unit), 2);
    assert_eq!(
        answers(&app, bystander),
        1,
        "another profile is not re-planned"
    );
}

#[test]
fn terrain_edits_replan_the_paths_whose_cost_may_change_and_no_others() {
    let map = rows(40, 20, |_| '.');
    let walker = MovementProfile::new()
        .with_weight(SWAMP, 5)
        .with_blocked(WATER);
    let mut app = app();
    app.insert_resource(grid(&map));
    app.insert_resource(MovementProfiles::default().with("walker", walker.clone()));
    let request = |goal| PathRequest::new(goal).profile("walker");
    let near = spawn_request(&mut app, Cell::new(0, 2), request(Cell::new(39, 2)));
    let far = spawn_request(&mut app, Cell::new(0, 17), request(Cell::new(39, 17)));
    app.update();
    let far_path = found_path(&app, far);
    assert!(found_path(&app, near).cells.iter().all(|c| c.y == 2));

    let edit = |app: &mut App, edits: Vec<MapEdit>| {
        let change = app
            .world_mut()
            .resource_mut::<NavGrid>()
            .apply_map_edits(edits)
            .unwrap();
        app.update();
        change
    };

    // Swamp on the near path: its cost changes, it is re-planned around the swamp.
    let change = edit(&mut app, vec![MapEdit::Terrain(Cell::new(20, 2), SWAMP)]);
    assert_eq!(change.terrain, vec![Cell::new(20, 2)]);
    assert!(change.cells.is_empty() && change.terrain_changed());
    assert_eq!(answers(&app, near), 2);
    let around = found_path(&app, near);
    assert!(!around.cells.contains(&Cell::new(20, 2)));
    assert!((f64::from(around.cost) - (37.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-4);

    // A terrain edit far from both paths re-plans neither.
    edit(&mut app, vec![MapEdit::Terrain(Cell::new(20, 10), SWAMP)]);
    assert_eq!(answers(&app, near), 2);

    // Water (blocked for walkers) on a cell the near path crosses: re-planned.
    let c = around.cells[30];
    edit(&mut app, vec![MapEdit::Terrain(c, WATER)]);
    assert_eq!(answers(&app, near), 3);
    assert!(!found_path(&app, near).cells.contains(&c));

    // A cell next to the near path turns from swamp back to grass: a cheaper way may be
    // there, so the path is re-planned (here it costs the same: one detour along row 1
    // passes both the old swamp and the water).
    let before = found_path(&app, near);
    assert!(!before.cells.contains(&Cell::new(20, 2)));
    edit(&mut app, vec![MapEdit::Terrain(Cell::new(20, 2), GRASS)]);
    assert_eq!(answers(&app, near), 4);
    let mut now = map.clone();
    now[c.y as usize].replace_range(c.x as usize..c.x as usize + 1, "W");
    now[10].replace_range(20..21, "S");
    assert_cheapest(
        &now,
        &walker,
        &found_path(&app, near),
        Cell::new(0, 2),
        Cell::new(39, 2),
    );

    // The far path was never re-planned.
    assert_eq!(answers(&app, far), 1);
    assert_eq!(found_path(&app, far), far_path);
}

#[test]
fn failures_a_terrain_edit_may_fix_are_retried() {
    // A river of water cuts the map; walkers cannot cross until a ford (swamp) is made.
    let map = rows(9, 5, |c| if c.x == 4 { 'W' } else { '.' });
    let walker = MovementProfile::new()
        .with_weight(SWAMP, 4)
        .with_blocked(WATER);
    let mut app = app();
    app.insert_resource(grid(&map));
    app.insert_resource(MovementProfiles::default().with("walker", walker.clone()));
    let unit = spawn_request(
        &mut app,
        Cell::new(0, 0),
        PathRequest::new(Cell::new(8, 0))
            .profile("walker")
            .nearest_goal(false),
    );
    app.update();
    assert_eq!(
        app.world().get::<PathResult>(unit).unwrap().failure(),
        Some(&PathFailure::Search(PathError::Unreachable))
    );
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_map_edits([MapEdit::Terrain(Cell::new(4, 3), SWAMP)]);
    app.update();
    let path = found_path(&app, unit);
    assert!(path.cells.contains(&Cell::new(4, 3)));
    let mut forded = map.clone();
    forded[3].replace_range(4..5, "S");
    assert_cheapest(&forded, &walker, &path, Cell::new(0, 0), Cell::new(8, 0));
}

/// A unit with `profile` walking east along row 1 of `map` from (0, 1) to the last cell
/// at 4 cells per second, 16 ms frames, no slow-down at the goal; returns its x after
/// every frame until it arrives.
fn walk_east(map: &[String], profile: MovementProfile) -> Vec<f32> {
    let mut app = app();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )));
    app.insert_resource(grid(map));
    app.insert_resource(MovementProfiles::default().with("unit", profile));
    let goal = Cell::new(map[0].len() as i32 - 1, 1);
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(world_of(Cell::new(0, 1)).extend(1.0)),
            PathRequest::new(goal).profile("unit"),
            Steering {
                speed: 4.0 * TILE,
                arrival_radius: 0.0,
                avoidance: bevy_tilepath::steering::Avoidance::Off,
                ..Steering::default()
            },
        ))
        .id();
    let mut xs = Vec::new();
    for _ in 0..2000 {
        app.update();
        xs.push(position(&app, unit).x);
        if app.world().get::<Arrived>(unit).is_some() {
            assert!(app.world().get::<Replanning>(unit).is_none());
            return xs;
        }
    }
    panic!("never arrived");
}

#[test]
fn steering_moves_at_speed_over_weight_and_crossing_time_is_the_path_cost() {
    // Three rows, twelve columns; columns 4..=7 are mud (weight 3) on every row, so the
    // straight way is the cheapest.
    let map = rows(12, 3, |c| if (4..=7).contains(&c.x) { 'S' } else { '.' });
    let mud = MovementProfile::new().with_weight(SWAMP, 3);
    let xs = walk_east(&map, mud);
    let plain = walk_east(&map, MovementProfile::new());

    // Distance per frame (16 ms at 4 cells/s = 0.064 cells) on grass and deep in the mud.
    let step = |xs: &[f32], cell: f32| {
        let i = xs
            .windows(2)
            .position(|w| w[0] >= cell * TILE && w[1] < (cell + 0.3) * TILE)
            .expect("walked there");
        xs[i + 1] - xs[i]
    };
    let grass = step(&xs, 1.2);
    let deep = step(&xs, 5.2);
    assert!((grass - 0.064 * TILE).abs() < 1e-3, "{grass}");
    assert!(
        (grass / deep - 3.0).abs() < 1e-3,
        "grass {grass} mud {deep}"
    );
    assert!((step(&plain, 5.2) - grass).abs() < 1e-3);

    // Frames with movement: the path costs 19 cells (3 + 2 + 9 + 2 + 3) through the mud
    // and 11 without; at 4 cells per second and 16 ms frames that is 296.9 and 171.9
    // frames.
    let moving = |xs: &[f32]| {
        let mut count = 0;
        let mut last = 0.0;
        for &x in xs {
            if x != last {
                count += 1;
            }
            last = x;
        }
        count
    };
    assert!((296..=298).contains(&moving(&xs)), "{}", moving(&xs));
    assert!((171..=173).contains(&moving(&plain)), "{}", moving(&plain));
    assert_eq!(*xs.last().unwrap(), 11.0 * TILE);
}

#[test]
fn steering_never_enters_terrain_its_profile_blocks() {
    // A unit whose old path is cut by water (blocked for it) waits at the shore until
    // the new path comes, and never stands in the water.
    let map = rows(16, 5, |_| '.');
    let mut app = app();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )));
    app.insert_resource(grid(&map));
    app.insert_resource(
        MovementProfiles::default().with("walker", MovementProfile::new().with_blocked(WATER)),
    );
    let unit = app
        .world_mut()
        .spawn((
            Transform::from_translation(world_of(Cell::new(0, 2)).extend(1.0)),
            PathRequest::new(Cell::new(15, 2)).profile("walker"),
            Steering::with_speed(6.0 * TILE),
        ))
        .id();
    app.update();
    app.update();
    let river: Vec<MapEdit> = (0..4)
        .map(|y| MapEdit::Terrain(Cell::new(8, y), WATER))
        .collect();
    app.world_mut()
        .resource_mut::<NavGrid>()
        .apply_map_edits(river);
    for _ in 0..400 {
        app.update();
        let grid = app.world().resource::<NavGrid>();
        let profile = app
            .world()
            .resource::<MovementProfiles>()
            .id("walker")
            .unwrap();
        let cell = grid.world_to_cell(position(&app, unit)).unwrap();
        assert!(
            !grid.is_blocked_for(cell, 1, profile),
            "in the water at {cell}"
        );
        if app.world().get::<Arrived>(unit).is_some() {
            break;
        }
    }
    assert!(app.world().get::<Arrived>(unit).is_some());
    assert!(found_path(&app, unit).cells.contains(&Cell::new(8, 4)));
}

#[cfg(feature = "tilemap")]
mod layers {
    use bevy::prelude::*;
    use bevy_ecs_tilemap::prelude::*;
    use bevy_tilepath::prelude::{
        Cell, CollisionLayer, MovementProfile, MovementProfiles, NavGrid, NavGridChanged,
        PathFailure, PathRequest, PathResult, Terrain,
    };
    use bevy_tilepath::scenario::Scenario;
    use bevy_tilepath::search::PathError;

    use super::{FOREST, GRASS, ROAD, WATER, app};
    use crate::common::found_path;
    use crate::common::{TILE, world_of};

    const SIZE: TilemapSize = TilemapSize { x: 6, y: 4 };

    /// Spawns a collision layer at height `z` with a tile wherever `tile` gives a texture
    /// (and optionally a `Terrain` component); returns the map and its tiles by cell.
    fn spawn_layer(
        world: &mut World,
        rule: CollisionLayer,
        z: f32,
        tile: impl Fn(Cell) -> Option<(u32, Option<Terrain>)>,
    ) -> (Entity, Vec<Option<Entity>>) {
        let map = world.spawn_empty().id();
        let mut storage = TileStorage::empty(SIZE);
        let mut tiles = Vec::new();
        for y in 0..SIZE.y {
            for x in 0..SIZE.x {
                let pos = TilePos { x, y };
                let Some((texture, terrain)) = tile(Cell::new(x as i32, y as i32)) else {
                    tiles.push(None);
                    continue;
                };
                let mut e = world.spawn((pos, TileTextureIndex(texture), TilemapId(map)));
                if let Some(terrain) = terrain {
                    e.insert(terrain);
                }
                storage.set(&pos, e.id());
                tiles.push(Some(e.id()));
            }
        }
        world.entity_mut(map).insert((
            storage,
            SIZE,
            TilemapGridSize { x: TILE, y: TILE },
            TilemapTileSize { x: TILE, y: TILE },
            Transform::from_xyz(0.0, 0.0, z),
            TilemapAnchor::None,
            rule,
        ));
        (map, tiles)
    }

    fn at(tiles: &[Option<Entity>], c: Cell) -> Entity {
        tiles[c.y as usize * SIZE.x as usize + c.x as usize].unwrap()
    }

    /// The cells whose terrain the last update announced as changed.
    fn terrain_changes(app: &mut App) -> Vec<Cell> {
        let messages = app.world().resource::<Messages<NavGridChanged>>();
        messages
            .iter_current_update_messages()
            .flat_map(|m| m.terrain.iter().copied())
            .collect()
    }

    #[test]
    fn layers_or_their_obstacles_and_the_topmost_defining_layer_gives_the_terrain() {
        let mut app = app();
        // Ground (z = 0): texture 0 grass, 1 road (row 0), 2 water (column 3); nothing
        // blocks.
        let (_, ground) = spawn_layer(
            app.world_mut(),
            CollisionLayer::default().with_terrain_textures([(0, GRASS), (1, ROAD), (2, WATER)]),
            0.0,
            |c| {
                let texture = match c {
                    c if c.x == 3 => 2,
                    c if c.y == 0 => 1,
                    _ => 0,
                };
                Some((texture, None))
            },
        );
        // Walls (z = 1): texture 9 blocks, no terrain rule; one tile names its terrain.
        let (_, walls) = spawn_layer(
            app.world_mut(),
            CollisionLayer::from_texture_indices([9]),
            1.0,
            |c| match c {
                c if c == Cell::new(1, 1) => Some((9, None)),
                c if c == Cell::new(5, 3) => Some((0, Some(Terrain(FOREST)))),
                _ => Some((0, None)),
            },
        );
        // A bridge (z = 2): one tile over the river, defining road.
        let (bridge, _) = spawn_layer(
            app.world_mut(),
            CollisionLayer::default().with_terrain_textures([(7, ROAD)]),
            2.0,
            |c| (c == Cell::new(3, 2)).then_some((7, None)),
        );
        app.insert_resource(
            MovementProfiles::default().with("walker", MovementProfile::new().with_blocked(WATER)),
        );
        let unit = app
            .world_mut()
            .spawn((
                Transform::from_translation(world_of(Cell::new(0, 1)).extend(1.0)),
                PathRequest::new(Cell::new(5, 1))
                    .profile("walker")
                    .nearest_goal(false),
            ))
            .id();
        app.update();

        let grid = app.world().resource::<NavGrid>();
        let terrain = |grid: &NavGrid, x, y| grid.terrain(Cell::new(x, y));
        assert_eq!(terrain(grid, 0, 0), ROAD);
        assert_eq!(terrain(grid, 3, 0), WATER);
        assert_eq!(terrain(grid, 3, 1), WATER);
        assert_eq!(terrain(grid, 3, 2), ROAD, "the bridge lies over the river");
        assert_eq!(
            terrain(grid, 5, 3),
            FOREST,
            "a Terrain component on an upper layer"
        );
        assert_eq!(
            terrain(grid, 1, 1),
            GRASS,
            "the wall layer defines no terrain"
        );
        assert!(grid.scenario().is_obstacle(Cell::new(1, 1)));
        assert_eq!(
            (0..24)
                .filter(|&i| grid.scenario().is_obstacle(Cell::new(i % 6, i / 6)))
                .count(),
            1
        );
        // Walkers cross the river on the bridge.
        assert!(found_path(&app, unit).cells.contains(&Cell::new(3, 2)));

        // The bridge sinks below the ground: the ground's water is on top there now.
        app.world_mut()
            .get_mut::<Transform>(bridge)
            .unwrap()
            .translation
            .z = -1.0;
        app.update();
        assert_eq!(terrain_changes(&mut app), vec![Cell::new(3, 2)]);
        assert_eq!(
            app.world().resource::<NavGrid>().terrain(Cell::new(3, 2)),
            WATER
        );
        assert_eq!(
            app.world().get::<PathResult>(unit).unwrap().failure(),
            Some(&PathFailure::Search(PathError::Unreachable))
        );
        // And rises again: the failure is retried.
        app.world_mut()
            .get_mut::<Transform>(bridge)
            .unwrap()
            .translation
            .z = 5.0;
        app.update();
        assert!(found_path(&app, unit).cells.contains(&Cell::new(3, 2)));

        // A ground texture edit changes one cell's terrain, incrementally.
        let tile = at(&ground, Cell::new(0, 2));
        app.world_mut().get_mut::<TileTextureIndex>(tile).unwrap().0 = 1;
        app.update();
        assert_eq!(terrain_changes(&mut app), vec![Cell::new(0, 2)]);
        assert_eq!(
            app.world().resource::<NavGrid>().terrain(Cell::new(0, 2)),
            ROAD
        );

        // Removing the upper tile's Terrain leaves the cell to the ground again; adding
        // one to a ground tile under a wall-layer tile without terrain shows through.
        app.world_mut()
            .entity_mut(at(&walls, Cell::new(5, 3)))
            .remove::<Terrain>();
        app.world_mut()
            .entity_mut(at(&ground, Cell::new(1, 1)))
            .insert(Terrain(FOREST));
        app.update();
        let mut changed = terrain_changes(&mut app);
        changed.sort_by_key(|c| (c.y, c.x));
        assert_eq!(changed, vec![Cell::new(1, 1), Cell::new(5, 3)]);
        let grid = app.world().resource::<NavGrid>();
        assert_eq!(terrain(grid, 5, 3), GRASS);
        assert_eq!(terrain(grid, 1, 1), FOREST);
        assert!(grid.scenario().is_obstacle(Cell::new(1, 1)));
    }
}

/// A grid and its profiles answer for every profile as soon as both are inserted,
/// whichever comes first, before the plugin's first run.
#[test]
fn a_new_grid_knows_the_profiles_before_the_plugin_runs() {
    let map = rows(3, 1, |c| if c.x == 1 { 'S' } else { 'W' });
    let walker = MovementProfile::new()
        .with_weight(SWAMP, 4)
        .with_blocked(WATER);
    for profiles_first in [false, true] {
        let mut app = app();
        let profiles = MovementProfiles::default().with("walker", walker.clone());
        if profiles_first {
            app.insert_resource(profiles);
            app.insert_resource(grid(&map));
        } else {
            app.insert_resource(grid(&map));
            app.insert_resource(profiles);
        }
        let id = app
            .world()
            .resource::<MovementProfiles>()
            .id("walker")
            .unwrap();
        let grid = app.world().resource::<NavGrid>();
        assert_eq!(
            grid.weight(Cell::new(1, 0), id),
            Some(4),
            "{profiles_first}"
        );
        assert_eq!(grid.weight(Cell::new(0, 0), id), None);
        assert!(grid.is_blocked_for(Cell::new(0, 0), 1, id));
        assert!(!grid.is_blocked_for(Cell::new(1, 0), 1, id));
    }
}

/// Whether the one-cell layer of the profile `name` has a landmark table and a jump table.
fn tables(app: &App, name: &str) -> (bool, bool) {
    let grid = app.world().resource::<NavGrid>();
    let id = app.world().resource::<MovementProfiles>().id(name).unwrap();
    let layer = grid.scenario().layer_for(id, 1).unwrap();
    (layer.landmarks().is_some(), layer.jump_table().is_some())
}

#[test]
fn a_new_map_gets_the_tables_of_its_profiles_on_load_or_in_the_background() {
    let map = rows(21, 21, |c| if c.x == 10 { 'F' } else { '.' });
    for setting in [LandmarkTables::OnLoad, LandmarkTables::Background] {
        let mut app = app();
        let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
        settings.landmark_tables = setting;
        // Lockstep: the background table arrives in a frame fixed by the map's size.
        settings.budget = FrameBudget::Expansions(100);
        app.insert_resource(grid(&map));
        app.insert_resource(
            MovementProfiles::default()
                .with("infantry", MovementProfile::new().with_weight(FOREST, 3))
                .with("vehicle", MovementProfile::new().with_blocked(FOREST)),
        );
        app.update();
        // Weighted: the landmark table Auto reads there, built at once on load.
        // Uniform: the JPS+ table, built at once either way.
        let on_load = setting == LandmarkTables::OnLoad;
        assert_eq!(tables(&app, "infantry"), (on_load, false), "{setting:?}");
        assert_eq!(tables(&app, "vehicle"), (false, true), "{setting:?}");
        // 441 cells: the background build is installed in the next frame.
        app.update();
        assert_eq!(tables(&app, "infantry"), (true, false), "{setting:?}");
    }
}
