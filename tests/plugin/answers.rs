//! Answers follow their documented contracts on square and hexagonal maps alike: what
//! [`PathSolved`] carries, what [`FoundPath::requested`] holds, and what
//! [`PathStatus::is_queued`] says while a request waits.

use bevy::prelude::*;
use bevy_tilepath::components::PathStatus;
use bevy_tilepath::prelude::{
    Algorithm, Cell, FoundPath, FrameBudget, GridLayout, MovementProfile, MovementProfiles,
    NavGrid, PathRequest, PathResult, PathSolved, TerrainId, TilepathSettings,
};

use crate::common::{SolvedLog, app, found_path, grid_of, shapes};

/// Terrain of the `1` tiles: weight 3 for the "mud" profile.
const MUD: TerrainId = 1;

/// An app of the common kind with a "mud" profile, `budget`, and `text` as the map laid
/// out as `shape` (see [`grid_of`]).
fn app_of(shape: GridLayout, text: &str, budget: FrameBudget) -> App {
    let mut app = app();
    app.world_mut().resource_mut::<TilepathSettings>().budget = budget;
    app.world_mut()
        .resource_mut::<MovementProfiles>()
        .insert("mud", MovementProfile::new().with_weight(MUD, 3));
    app.insert_resource(grid_of(shape, text));
    app
}

/// Spawns a unit standing on `start` with `request`.
fn spawn(app: &mut App, shape: GridLayout, start: Cell, request: PathRequest) -> Entity {
    let _ = shape;
    let at = app.world().resource::<NavGrid>().cell_to_world(start);
    app.world_mut()
        .spawn((Transform::from_translation(at.extend(1.0)), request))
        .id()
}

/// The outcomes of the `PathSolved` messages sent for `unit` so far.
fn solved_for(app: &App, unit: Entity) -> Vec<Result<f32, String>> {
    app.world()
        .resource::<SolvedLog>()
        .0
        .iter()
        .filter(|(_, m)| m.entity == unit)
        .map(|(_, PathSolved { outcome, .. })| outcome.map_err(|f| f.to_string()))
        .collect()
}

#[test]
fn path_solved_carries_the_length_in_cells_not_the_cost() {
    // Every way from column 0 to column 4 crosses the mud of column 2 (weight 3), so
    // the path costs more than its length.
    let map = "
        ..1..
        ..1..
        ..1..
    ";
    for shape in shapes() {
        let mut app = app_of(shape, map, FrameBudget::Expansions(10_000));
        let request = PathRequest::new(Cell::new(4, 1)).profile("mud");
        let unit = spawn(&mut app, shape, Cell::new(0, 1), request);
        app.update();
        let path: FoundPath = found_path(&app, unit);
        assert!(
            path.cost > path.length,
            "{shape:?}: the path crosses the mud (length {}, cost {})",
            path.length,
            path.cost
        );
        assert_eq!(
            solved_for(&app, unit),
            vec![Ok(path.length)],
            "{shape:?}: one PathSolved with the length in cells {} (cost {})",
            path.length,
            path.cost
        );
    }
}

#[test]
fn found_path_requested_is_the_requested_goal_when_another_unit_claimed_it() {
    let map = "
        .......
        .......
        .......
        .......
        .......
    ";
    let goal = Cell::new(3, 2);
    for shape in shapes() {
        let mut app = app_of(shape, map, FrameBudget::Expansions(10_000));
        // The nearer unit claims the goal itself; the farther one a tile beside it.
        let near = spawn(&mut app, shape, Cell::new(2, 2), PathRequest::new(goal));
        let far = spawn(&mut app, shape, Cell::new(6, 2), PathRequest::new(goal));
        app.update();
        let claim = |unit| {
            app.world()
                .get::<PathStatus>(unit)
                .and_then(PathStatus::claimed_cell)
        };
        assert_eq!(
            claim(near),
            Some(goal),
            "{shape:?}: the nearer unit's claim"
        );
        let claimed = claim(far).expect("the farther unit claims a cell");
        assert_ne!(claimed, goal, "{shape:?}: the goal is taken");
        let path = found_path(&app, far);
        assert_eq!(
            path.reached, claimed,
            "{shape:?}: the path ends on the claim"
        );
        assert_eq!(
            path.requested, goal,
            "{shape:?}: `requested` is the goal the request asked for"
        );
        assert!(!path.partial, "{shape:?}: the claim was reached");
        assert_eq!(found_path(&app, near).requested, goal, "{shape:?}");
    }
}

#[test]
fn a_request_is_queued_while_it_waits_and_not_once_answered() {
    // A wall down the middle with a gap at the bottom: the way from the top left to the
    // top right takes far more expansions than one frame's budget.
    let text: String = (0..64)
        .map(|y| {
            let row: String = (0..64)
                .map(|x| if x == 32 && y < 63 { '#' } else { '.' })
                .collect();
            row + "\n"
        })
        .collect();
    for shape in shapes() {
        let mut app = app_of(shape, &text, FrameBudget::Expansions(64));
        let unit = spawn(
            &mut app,
            shape,
            Cell::new(28, 0),
            PathRequest::new(Cell::new(36, 0)).algorithm(Algorithm::AStar),
        );
        let status = |app: &App| app.world().get::<PathStatus>(unit).unwrap().clone();
        let waiting = |app: &App| app.world().get::<PathResult>(unit).unwrap().is_pending();
        let mut frames = 0;
        while waiting(&app) {
            assert!(frames < 1000, "{shape:?}: answered within 1,000 frames");
            app.update();
            frames += 1;
            if waiting(&app) {
                assert!(
                    status(&app).is_queued(),
                    "{shape:?}: waiting in frame {frames}, but not queued"
                );
            }
        }
        assert!(frames > 1, "{shape:?}: the request waited ({frames} frame)");
        found_path(&app, unit);
        assert!(
            !status(&app).is_queued(),
            "{shape:?}: answered in frame {frames}, but still queued"
        );
        assert_eq!(
            status(&app).request(),
            app.world().get::<PathRequest>(unit),
            "{shape:?}: the status holds the request answered"
        );
    }
}
