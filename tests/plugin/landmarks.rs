//! Landmark tables of weighted layers: built off the frame (no table work in the frame a
//! big weighted map arrives), installed in a frame that depends only on the map under an
//! expansion budget, never built when turned off, and `Auto`'s answers equal with and
//! without them.

use bevy::prelude::*;
use bevy_tilepath::components::Replanning;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Algorithm, Cell, FrameBudget, MovementProfiles, NavGrid, PathRequest, PathResult, ProfileId,
    TilepathSettings,
};
use bevy_tilepath::scenario::generate::countryside;
use bevy_tilepath::scenario::movingai_terrain::TerrainSpec;
use bevy_tilepath::settings::LandmarkTables;
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, TILE, app, center_of, found_path};

/// The expansion budget of the lockstep runs.
const BUDGET: u32 = 300;

/// A `side × side` countryside map whose profile "foot" weighs its terrains differently.
fn weighted_grid(app: &mut App, side: u32) -> ProfileId {
    let map = countryside(GridSize::new(side, side), 11)
        .into_scenario()
        .unwrap();
    let foot: TerrainSpec = ".=2,R=1,F=4,S=7,W=x".parse().unwrap();
    let profiles = MovementProfiles::default().with("foot", foot.profile());
    let id = profiles.id("foot").unwrap();
    app.insert_resource(profiles);
    app.insert_resource(NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)));
    id
}

/// Whether the grid's one-cell layer of `profile` has its landmark table.
fn has_table(app: &App, profile: ProfileId) -> bool {
    let grid = app.world().resource::<NavGrid>();
    let layer = grid.scenario().layer_for(profile, 1).unwrap();
    layer.landmarks_built()
}

/// `n` pairs of free, distinct cells of the "foot" layer, drawn from a fixed seed.
fn trips(app: &App, profile: ProfileId, n: usize) -> Vec<(Cell, Cell)> {
    let grid = app.world().resource::<NavGrid>();
    let layer = grid.scenario().layer_for(profile, 1).unwrap();
    let size = grid.size();
    let mut rng = Rng(5);
    let mut free = || loop {
        let c = Cell::new(
            rng.below(size.width as usize) as i32,
            rng.below(size.height as usize) as i32,
        );
        if !layer.is_blocked(c) {
            return c;
        }
    };
    (0..n).map(|_| (free(), free())).collect()
}

/// Spawns one unit per trip asking `algorithm` (no steering: it stays on its start).
fn spawn(app: &mut App, trips: &[(Cell, Cell)], algorithm: Algorithm) -> Vec<Entity> {
    trips
        .iter()
        .map(|&(start, goal)| {
            let request = PathRequest::new(goal)
                .profile("foot")
                .algorithm(algorithm)
                .claim_goal(false);
            let at = center_of(start, 1).extend(1.0);
            app.world_mut()
                .spawn((Transform::from_translation(at), request))
                .id()
        })
        .collect()
}

/// Runs frames (at least one, at most `max`) until every unit is answered; returns each
/// answer's cost and the expansions they took together.
fn answers(app: &mut App, units: &[Entity], max: usize) -> (Vec<f32>, u64) {
    for _ in 0..max {
        app.update();
        let answered = units.iter().all(|&u| {
            let unit = app.world().entity(u);
            unit.get::<PathResult>().is_some_and(|r| !r.is_pending())
                && !unit.contains::<Replanning>()
        });
        if answered {
            break;
        }
    }
    let paths: Vec<_> = units.iter().map(|&u| found_path(app, u)).collect();
    eprintln!(
        "DBG {:?}",
        paths
            .iter()
            .map(|p| (p.expanded, p.cost, p.generation))
            .collect::<Vec<_>>()
    );
    let expanded = paths.iter().map(|p| u64::from(p.expanded)).sum();
    (paths.iter().map(|p| p.cost).collect(), expanded)
}

/// Asks every unit for its path again (same goal), with `algorithm`.
fn ask_again(app: &mut App, units: &[Entity], algorithm: Algorithm) {
    for &u in units {
        let mut unit = app.world_mut().entity_mut(u);
        unit.get_mut::<PathRequest>().unwrap().algorithm = Some(algorithm);
        unit.insert(Replanning);
    }
}

#[test]
fn a_big_weighted_map_builds_its_table_off_the_frame_and_in_a_fixed_frame() {
    let mut app = app();
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(BUDGET),
        ..default()
    });
    let foot = weighted_grid(&mut app, 512);
    let trips = trips(&app, foot, 12);
    let units = spawn(&mut app, &trips, Algorithm::Auto);
    app.update();
    // The frame the map arrives builds no table, and spends no more than its budget.
    assert!(
        !has_table(&app, foot),
        "the table was built in the first frame"
    );
    let stats = app.world().resource::<TilepathStats>();
    assert!(
        stats.expanded + stats.upkeep_charged <= u64::from(BUDGET),
        "first frame: {} expanded, {} upkeep",
        stats.expanded,
        stats.upkeep_charged
    );
    // Installed exactly ⌈cells / LOCKSTEP_CELLS_PER_FRAME⌉ frames after the build began
    // (the first frame), on every machine.
    let due = (512 * 512u64).div_ceil(LandmarkTables::LOCKSTEP_CELLS_PER_FRAME) as usize;
    for frame in 2..=due {
        app.update();
        assert!(!has_table(&app, foot), "installed early, in frame {frame}");
    }
    app.update();
    assert!(has_table(&app, foot), "not installed in frame {}", due + 1);
    // The searches begun before it go on without it (plain A*).
    let (before, plain) = answers(&mut app, &units, 10_000);
    ask_again(&mut app, &units, Algorithm::Auto);
    let (after, guided) = answers(&mut app, &units, 10_000);
    assert_eq!(before, after, "costs without and with the table");
    assert!(
        guided < plain,
        "the table guides the searches: {guided} expansions with it, {plain} without"
    );
}

#[test]
fn a_table_installed_after_edits_keeps_answers_exact() {
    let mut app = app();
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(BUDGET),
        ..default()
    });
    let foot = weighted_grid(&mut app, 128);
    let trips = trips(&app, foot, 16);
    app.update();
    // Walls and openings while the build runs: the install catches up with them.
    let mut rng = Rng(9);
    for _ in 0..3 {
        let edits: Vec<(Cell, bool)> = (0..40)
            .map(|_| {
                let c = Cell::new(rng.below(128) as i32, rng.below(128) as i32);
                (c, rng.below(2) == 0)
            })
            .filter(|(c, _)| trips.iter().all(|&(s, g)| *c != s && *c != g))
            .collect();
        app.world_mut().resource_mut::<NavGrid>().apply_edits(edits);
        app.update();
    }
    let due = (128 * 128u64).div_ceil(LandmarkTables::LOCKSTEP_CELLS_PER_FRAME) as usize;
    for _ in 0..due {
        app.update();
    }
    assert!(has_table(&app, foot));
    let units = spawn(&mut app, &trips, Algorithm::Auto);
    let (guided, _) = answers(&mut app, &units, 10_000);
    // The same requests as plain A*: the oracle.
    ask_again(&mut app, &units, Algorithm::AStar);
    let (plain, _) = answers(&mut app, &units, 10_000);
    assert_eq!(guided, plain);
}

#[test]
fn tables_turned_off_are_never_built() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<TilepathSettings>()
        .landmark_tables = LandmarkTables::Off;
    let foot = weighted_grid(&mut app, 64);
    let trips = trips(&app, foot, 8);
    let units = spawn(&mut app, &trips, Algorithm::Auto);
    let (off, _) = answers(&mut app, &units, 100);
    for _ in 0..100 {
        app.update();
    }
    assert!(!has_table(&app, foot));
    // Built on load, the same costs.
    app.world_mut()
        .resource_mut::<TilepathSettings>()
        .landmark_tables = LandmarkTables::OnLoad;
    ask_again(&mut app, &units, Algorithm::AStar);
    answers(&mut app, &units, 100);
    ask_again(&mut app, &units, Algorithm::Auto);
    let (on_load, _) = answers(&mut app, &units, 100);
    assert!(has_table(&app, foot));
    assert_eq!(off, on_load);
}
