//! Shared goal fields: group orders are answered by descending one distance field, at the
//! cost of each unit's own optimal search, on weighted maps, under map edits, with a
//! capped cache.

use std::time::Duration;

use bevy::prelude::*;
use bevy_tilepath::prelude::{
    Cell, FoundPath, MovementProfile, MovementProfiles, NavGrid, PathRequest, PathResult,
    TilepathSettings,
};
use bevy_tilepath::scenario::{CachedScenario, ProfileId, TerrainId};
use bevy_tilepath::search::{PathQuery, Pathfinder};
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, SIZE, TILE, app, bits_of, center_of, level, position};
use bevy_tilepath::prelude::FrameBudget;

const FOREST: TerrainId = 1;

/// The test level with forest on a fifth of the cells (dearer for "infantry").
fn weighted_level() -> NavGrid {
    let bits = bits_of(&level());
    let terrain = (0..SIZE * SIZE)
        .map(|i| {
            if (i * 7 + i / SIZE * 3).is_multiple_of(5) {
                FOREST
            } else {
                0
            }
        })
        .collect();
    let map = CachedScenario::from_bits_and_terrain(bits, terrain).unwrap();
    NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE))
}

/// An app on the weighted level with the "infantry" profile, shared fields on or off.
pub(crate) fn field_app(fields: bool) -> App {
    let mut app = app();
    app.insert_resource(weighted_level());
    app.insert_resource(
        MovementProfiles::default().with("infantry", MovementProfile::new().with_weight(FOREST, 3)),
    );
    let mut settings = app.world_mut().resource_mut::<TilepathSettings>();
    settings.budget = FrameBudget::Time(Duration::MAX);
    settings.fields.max_fields = if fields { 4 } else { 0 };
    app
}

/// A unit of a group order: where it starts and what it asks.
#[derive(Clone)]
pub(crate) struct Member {
    pub(crate) start: Cell,
    pub(crate) request: PathRequest,
}

/// `n` units with random free starts (diameter 1 or, every fifth, 2) sent to `goal`;
/// every other one moves as infantry, every third asks for smoothing.
fn group(n: usize, goal: Cell, seed: u64) -> Vec<Member> {
    let map = CachedScenario::from_bits(bits_of(&level())).unwrap();
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| {
            let diameter = if i % 5 == 4 { 2 } else { 1 };
            let start = loop {
                let c = Cell::new(rng.below(SIZE) as i32, rng.below(SIZE) as i32);
                if !map.layer(diameter).unwrap().is_blocked(c) {
                    break c;
                }
            };
            let mut request = PathRequest::new(goal).exact().diameter(diameter);
            if i % 2 == 1 {
                request = request.profile("infantry");
            }
            if i % 3 == 0 {
                request = request.smooth(true);
            }
            Member { start, request }
        })
        .collect()
}

pub(crate) fn spawn(app: &mut App, members: &[Member]) -> Vec<Entity> {
    members
        .iter()
        .map(|m| {
            let at = center_of(m.start, m.request.diameter).extend(0.0);
            app.world_mut()
                .spawn((Transform::from_translation(at), m.request.clone()))
                .id()
        })
        .collect()
}

pub(crate) fn run(app: &mut App, frames: usize) {
    for _ in 0..frames {
        app.update();
    }
}

/// The unit's own optimal search on the app's current map, from where it stands.
pub(crate) fn own_search(app: &App, unit: Entity) -> Option<(f32, usize)> {
    let grid = app.world().resource::<NavGrid>();
    let request = app.world().get::<PathRequest>(unit).unwrap();
    let profile = match request.profile.as_deref() {
        None => ProfileId::DEFAULT,
        Some(name) => app.world().resource::<MovementProfiles>().id(name).unwrap(),
    };
    let start = grid
        .agent_cell(position(app, unit), request.diameter)
        .unwrap();
    let goal = match request.goal {
        bevy_tilepath::prelude::PathGoal::Cell(c) => c,
        bevy_tilepath::prelude::PathGoal::World(p) => grid.agent_cell(p, request.diameter)?,
    };
    let query = PathQuery::new(start, goal)
        .diameter(request.diameter)
        .profile(profile);
    let mut pathfinder = Pathfinder::new();
    let stats = pathfinder.find(grid.scenario(), &query).ok()?;
    Some((
        bevy_tilepath::grid::cost_to_f64(stats.cost) as f32,
        pathfinder.path().len(),
    ))
}

/// Checks that `path` is a walk of king moves from the unit's cell to the goal on free
/// cells of the current map, costing what the unit's own search costs there.
fn assert_exact(app: &App, unit: Entity, path: &FoundPath) {
    let grid = app.world().resource::<NavGrid>();
    let request = app.world().get::<PathRequest>(unit).unwrap();
    // Planned on this map or kept through edits that could not change it (the checks
    // below hold it to the current map either way).
    assert!(path.generation <= grid.generation());
    let layer = grid
        .scenario()
        .layer_for(path.profile, request.diameter)
        .unwrap();
    for w in path.cells.windows(2) {
        assert!(w[0].is_adjacent(w[1]));
    }
    assert!(path.cells.iter().all(|&c| !layer.is_blocked(c)));
    let (cost, _) = own_search(app, unit).expect("a path implies its own search finds one");
    assert_eq!(path.cost, cost, "{unit}: field cost vs own search");
    if request.options.smooth {
        assert!(path.waypoints.len() <= path.cells.len());
    } else {
        assert_eq!(path.waypoints.len(), path.cells.len());
    }
}

#[test]
fn a_group_order_reads_every_path_off_shared_fields_at_each_units_own_optimal_cost() {
    let map = CachedScenario::from_bits(bits_of(&level())).unwrap();
    // A goal in the largest region of two-cell units.
    let wide = map.layer(2).unwrap();
    let cells = || (0..SIZE as i32).flat_map(|y| (0..SIZE as i32).map(move |x| Cell::new(x, y)));
    let mut sizes = std::collections::HashMap::new();
    for c in cells().filter(|&c| !wide.is_blocked(c)) {
        *sizes.entry(wide.components().label(c)).or_insert(0) += 1;
    }
    let (&largest, _) = sizes.iter().max_by_key(|(_, n)| **n).unwrap();
    let goal = cells()
        .filter(|&c| !wide.is_blocked(c) && wide.components().label(c) == largest)
        .min_by_key(|c| c.chebyshev(Cell::new(10, 50)))
        .unwrap();
    let members = group(120, goal, 3);
    let mut with = field_app(true);
    let mut without = field_app(false);
    let units = spawn(&mut with, &members);
    let same = spawn(&mut without, &members);
    run(&mut with, 2);
    run(&mut without, 2);

    let stats = with.world().resource::<TilepathStats>();
    assert_eq!(stats.suspended, 0);
    assert_eq!(stats.pending, 0);
    let area = SIZE * SIZE;
    assert!(
        stats.field_bytes <= 4 * 16 * area,
        "{} bytes for 4 fields of {area} cells",
        stats.field_bytes
    );
    let (fielded, fields) = (stats.total_field_answers, stats.fields);
    let mut found = 0;
    // Paths found per (diameter, profile): groups of 8 or more share a field.
    let mut groups = std::collections::HashMap::new();
    for ((&a, &b), member) in units.iter().zip(&same).zip(&members) {
        let (ra, rb) = (
            with.world().get::<PathResult>(a).unwrap(),
            without.world().get::<PathResult>(b).unwrap(),
        );
        match (ra, rb) {
            (PathResult::Found(pa), PathResult::Found(pb)) => {
                assert_eq!(pa.cost, pb.cost, "same cost as the unit's own search");
                assert_eq!(pa.cells.first(), pb.cells.first());
                assert_eq!(pa.cells.last(), Some(&goal));
                assert_exact(&with, a, pa);
                found += 1;
                let key = (member.request.diameter, member.request.profile.clone());
                *groups.entry(key).or_insert(0u64) += 1;
            }
            (fa, fb) => assert_eq!(fa, fb, "failures are the searches' own"),
        }
    }
    assert!(found > 90, "{found} of 120 found");
    let shared: Vec<u64> = groups.values().copied().filter(|&n| n >= 8).collect();
    assert!(shared.len() >= 2, "{groups:?}");
    assert_eq!(
        fields,
        shared.len(),
        "one field per (profile, diameter): {groups:?}"
    );
    assert_eq!(
        fielded,
        shared.iter().sum::<u64>(),
        "every path of a group of 8 or more was read off its field"
    );
    assert_eq!(
        without
            .world()
            .resource::<TilepathStats>()
            .total_field_answers,
        0
    );
}

#[test]
fn fields_grow_only_until_every_waiting_unit_is_reached() {
    let mut app = field_app(true);
    // Ten units within a few cells of the goal (all free cells of a small box).
    let grid = app.world().resource::<NavGrid>();
    let mut near = (8..14)
        .flat_map(|y| (24..32).map(move |x| Cell::new(x, y)))
        .filter(|&c| !grid.is_blocked(c, 1));
    let goal = near.next().unwrap();
    let members: Vec<Member> = near
        .filter(|&c| {
            let layer = grid.scenario().layer(1).unwrap();
            layer.components().connected(c, goal)
        })
        .take(10)
        .map(|start| Member {
            start,
            request: PathRequest::new(goal).exact(),
        })
        .collect();
    assert!(members.len() >= 8, "the threshold is 8");
    spawn(&mut app, &members);
    app.update();
    let stats = app.world().resource::<TilepathStats>();
    assert_eq!(stats.total_field_answers, members.len() as u64);
    let free = (0..SIZE * SIZE)
        .filter(|&i| {
            let c = Cell::new((i % SIZE) as i32, (i / SIZE) as i32);
            !app.world().resource::<NavGrid>().is_blocked(c, 1)
        })
        .count() as u64;
    assert!(
        stats.expanded < free / 4,
        "{} of {free} cells settled",
        stats.expanded
    );
}

#[test]
fn fields_follow_map_edits_and_answers_stay_exact() {
    let goal = Cell::new(40, 20);
    let members: Vec<Member> = group(60, goal, 8)
        .into_iter()
        .map(|m| Member {
            request: PathRequest::new(goal).exact().diameter(m.request.diameter),
            ..m
        })
        .collect();
    let mut with = field_app(true);
    let mut without = field_app(false);
    for app in [&mut with, &mut without] {
        // Fields grow over several frames (at the 300 expansions or more that the
        // upkeep of the wall edits leaves of 600).
        app.world_mut().resource_mut::<TilepathSettings>().budget = FrameBudget::Expansions(600);
    }
    let units = spawn(&mut with, &members);
    let same = spawn(&mut without, &members);
    let mut fielded_after_edit = 0;
    for frame in 0..200 {
        // A wall across the map at x = 35 whose gap moves between y = 10 and y = 50:
        // every path through the old gap is re-planned (the first time while the fields
        // are still growing).
        let gap = match frame % 14 {
            1 => Some(10),
            8 => Some(50),
            _ => None,
        };
        if let Some(gap) = gap.filter(|_| frame < 120) {
            let edits: Vec<(Cell, bool)> = (0..SIZE as i32)
                .map(|y| (Cell::new(35, y), y != gap))
                .collect();
            for app in [&mut with, &mut without] {
                app.world_mut()
                    .resource_mut::<NavGrid>()
                    .apply_edits(edits.clone());
            }
        }
        with.update();
        without.update();
        if frame > 1 {
            fielded_after_edit += with.world().resource::<TilepathStats>().field_answers;
        }
    }
    let stats = with.world().resource::<TilepathStats>();
    assert_eq!((stats.pending, stats.suspended), (0, 0));
    assert!(stats.fields <= 4);
    assert!(
        fielded_after_edit > 40,
        "re-plans after edits use new fields: {fielded_after_edit}"
    );
    let mut found = 0;
    for (&a, &b) in units.iter().zip(&same) {
        let ra = with.world().get::<PathResult>(a).unwrap();
        let rb = without.world().get::<PathResult>(b).unwrap();
        match (ra, rb) {
            (PathResult::Found(pa), PathResult::Found(pb)) => {
                assert_eq!(pa.cost, pb.cost);
                assert_exact(&with, a, pa);
                found += 1;
            }
            (fa, fb) => assert_eq!(fa, fb),
        }
    }
    assert!(found > 40, "{found} found");
}

#[test]
fn the_field_cache_is_capped_and_drops_the_least_recently_used() {
    let mut app = field_app(true);
    app.world_mut()
        .resource_mut::<TilepathSettings>()
        .fields
        .max_fields = 2;
    let goals = [Cell::new(5, 5), Cell::new(60, 60), Cell::new(5, 60)];
    let mut all = Vec::new();
    for (i, &goal) in goals.iter().enumerate() {
        let members: Vec<Member> = group(10, goal, 30 + i as u64)
            .into_iter()
            .map(|m| Member {
                request: PathRequest::new(goal).exact(),
                ..m
            })
            .collect();
        all.extend(spawn(&mut app, &members));
    }
    app.update();
    let stats = app.world().resource::<TilepathStats>();
    assert_eq!(stats.fields, 2);
    assert_eq!(stats.pending, 0);
    // Two groups from fields, the third (no place left this frame) by their own searches.
    assert!(stats.total_field_answers <= 20);
    assert!(stats.total_field_answers >= 16);
    for &unit in &all {
        if let PathResult::Found(path) = app.world().get::<PathResult>(unit).unwrap() {
            assert_exact(&app, unit, path);
        }
    }
    // A new goal takes the place of the least recently used field.
    let goal = Cell::new(33, 40);
    let members: Vec<Member> = group(10, goal, 40)
        .into_iter()
        .map(|m| Member {
            request: PathRequest::new(goal).exact(),
            ..m
        })
        .collect();
    let late = spawn(&mut app, &members);
    app.update();
    let stats = app.world().resource::<TilepathStats>();
    assert_eq!(stats.fields, 2);
    assert!(stats.field_answers >= 8);
    for &unit in &late {
        if let PathResult::Found(path) = app.world().get::<PathResult>(unit).unwrap() {
            assert_exact(&app, unit, path);
        }
    }
}

/// Two apps given the same `members` and run for two frames: one with shared fields on
/// and `settings` changed by `set`, one without fields; with the units of each.
pub(crate) fn twins(
    members: &[Member],
    set: impl FnOnce(&mut TilepathSettings),
) -> (App, Vec<Entity>, App, Vec<Entity>) {
    let mut with = field_app(true);
    set(&mut with.world_mut().resource_mut::<TilepathSettings>());
    let mut without = field_app(false);
    let units = spawn(&mut with, members);
    let same = spawn(&mut without, members);
    run(&mut with, 2);
    run(&mut without, 2);
    (with, units, without, same)
}

/// The two kinds of distinct goals of a group order around `goal`: cells the plugin
/// claims (every unit asks for `goal` itself) and formation slots a game hands out
/// (exact goals in a block around (20, 45), one per unit).
pub(crate) fn claimed_and_formation(goal: Cell) -> (Vec<Member>, Vec<Member>) {
    let claimed: Vec<Member> = group(60, goal, 11)
        .into_iter()
        .map(|m| {
            let mut request = PathRequest::new(goal).diameter(m.request.diameter);
            request.profile = m.request.profile.clone();
            Member { request, ..m }
        })
        .collect();
    // Formation slots: free cells of a block around (20, 45), one per unit.
    let map = CachedScenario::from_bits(bits_of(&level())).unwrap();
    let slots: Vec<Cell> = (38..54)
        .flat_map(|y| (12..28).map(move |x| Cell::new(x, y)))
        .filter(|&c| !map.layer(1).unwrap().is_blocked(c))
        .collect();
    let formation: Vec<Member> = group(60, goal, 12)
        .into_iter()
        .zip(&slots)
        .filter(|(m, slot)| {
            let layer = map.layer(1).unwrap();
            layer.components().connected(m.start, **slot)
        })
        .map(|(m, &slot)| {
            let mut request = PathRequest::new(slot).exact();
            request.profile = m.request.profile;
            Member {
                request,
                start: m.start,
            }
        })
        .collect();
    assert!(formation.len() > 40);
    (claimed, formation)
}
