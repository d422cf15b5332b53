//! The starvation matrix: under expansion budgets (the same on every machine), every
//! request is answered within the bound of the progress guarantee (see
//! `TilepathSettings`) whatever the edit rate, and every answer holds on the map of the
//! frame it arrives in.

use bevy::prelude::*;
use bevy_tilepath::components::PathStatus;
use bevy_tilepath::prelude::{
    Algorithm, Cell, GridLayout, MovementProfile, MovementProfiles, NavGrid, PathFailure,
    PathRequest, PathResult, TilepathSettings,
};
use bevy_tilepath::scenario::{CachedScenario, MapEdit};
use bevy_tilepath::search::PathError;
use bevy_tilepath::stats::TilepathStats;

use crate::common::{Rng, SolvedLog, TILE, app, shapes};
use bevy_tilepath::prelude::{FieldSettings, FrameBudget, GroupOrders};

/// The terrain the weighted profile pays 3 for.
const MUD: u8 = 1;

/// What the requests of a case ask for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Work {
    AStar,
    Jps,
    JpsPlus,
    BestFirst,
    /// A* on a profile with terrain weights.
    Weighted,
    /// Units to one goal cell: one shared field.
    SharedField,
    /// The same with `GroupOrders::SharedApproach`: descents and last stretches.
    SharedApproach,
    /// Agents two cells wide.
    Wide,
}

impl Work {
    pub(crate) const ALL: [Work; 8] = [
        Work::AStar,
        Work::Jps,
        Work::JpsPlus,
        Work::BestFirst,
        Work::Weighted,
        Work::SharedField,
        Work::SharedApproach,
        Work::Wide,
    ];

    fn group(self) -> bool {
        matches!(self, Work::SharedField | Work::SharedApproach)
    }

    fn request(self, goal: Cell) -> PathRequest {
        let request = PathRequest::new(goal);
        match self {
            Work::AStar => request.algorithm(Algorithm::AStar),
            Work::Jps => request.algorithm(Algorithm::Jps),
            Work::JpsPlus => request.algorithm(Algorithm::JpsPlus),
            Work::BestFirst => request.algorithm(Algorithm::BestFirst),
            Work::Weighted => request.profile("mud").algorithm(Algorithm::AStar),
            Work::SharedField => request.exact().claim_goal(false),
            Work::SharedApproach => request.profile("mud"),
            Work::Wide => request.diameter(2),
        }
    }
}

/// The edits of every frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Edits {
    /// This many cells around the units flip between wall and floor.
    Walls(usize),
    /// A wall across the whole map between the units and their goal, its one gap moving
    /// between two places: every path found through the old gap is cut.
    Cut,
    /// This many cells around the units flip between floor and mud.
    Terrain(usize),
}

impl Edits {
    pub(crate) const ALL: [Edits; 7] = [
        Edits::Walls(1),
        Edits::Walls(8),
        Edits::Walls(64),
        Edits::Cut,
        Edits::Terrain(1),
        Edits::Terrain(8),
        Edits::Terrain(64),
    ];
}

/// One case of the matrix.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Case {
    /// How the cells are laid out (the shape of the grid).
    pub(crate) layout: GridLayout,
    pub(crate) size: u32,
    /// `FrameBudget::Expansions`.
    pub(crate) budget: u32,
    pub(crate) edits: Edits,
    pub(crate) work: Work,
}

/// What a case measured.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// Frames until the last request had its first answer.
    pub(crate) frames: u32,
    /// The most frames a request waited for its first answer after it became the oldest.
    pub(crate) worst_wait: u32,
    /// Answers checked on the map of their frame.
    pub(crate) checked: usize,
    /// Answers read off shared fields and shared approaches.
    pub(crate) fields: u64,
    pub(crate) approached: usize,
    /// Searches run whole by the progress guarantee.
    pub(crate) whole: u64,
}

/// The progress guarantee's bound for one request that `budget` expansions a frame
/// serve: three attempts of at most every cell of the map each (a search or field of
/// the map expands each cell at most once between setbacks, plus the cells edits
/// reopen) at the half of the budget that map upkeep leaves, and a frame to finish.
fn bound(size: u32, budget: u32) -> u64 {
    let cells = u64::from(size) * u64::from(size);
    let b = u64::from(budget.max(1)).div_ceil(2);
    3 * cells.div_ceil(b) * 2 + 3
}

/// Runs `case` until every request had an answer; panics on an answer that does not
/// hold on its frame's map or a request not answered within the bound.
pub(crate) fn run(case: Case) -> Outcome {
    let size = case.size as i32;
    let mut app = app();
    let map =
        CachedScenario::new(bevy_tilepath::grid::GridSize::new(case.size, case.size)).unwrap();
    let grid = NavGrid::new(map, Vec2::ZERO, Vec2::splat(TILE)).with_layout(case.layout);
    app.insert_resource(grid);
    app.insert_resource(
        MovementProfiles::default().with("mud", MovementProfile::new().with_weight(MUD, 3)),
    );
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Expansions(case.budget),
        group_orders: match case.work {
            Work::SharedApproach => GroupOrders::SharedApproach,
            _ => GroupOrders::SharedFields,
        },
        fields: FieldSettings {
            min_requests: 4,
            ..default()
        },
        ..default()
    });
    let centre = Cell::new(size / 2, size / 2);
    // Mud over the window, every third column, so weighted searches meet terrain.
    {
        let mut grid = app.world_mut().resource_mut::<NavGrid>();
        let mud = window(centre, size).filter(|c| c.x % 3 == 0);
        grid.apply_map_edits(mud.map(|c| MapEdit::Terrain(c, MUD)).collect::<Vec<_>>());
    }
    let goal = Cell::new(centre.x + 6, centre.y);
    let units: Vec<(Entity, Cell)> = (0..if case.work.group() { 5 } else { 2 })
        .map(|i| {
            let start = Cell::new(centre.x - 6, centre.y - 4 + 2 * i);
            let request = case.work.request(goal);
            let grid = app.world().resource::<NavGrid>();
            let at = grid.agent_center(start, request.diameter).extend(0.0);
            let unit = app
                .world_mut()
                .spawn((Transform::from_translation(at), request))
                .id();
            (unit, start)
        })
        .collect();
    let keep = |c: Cell| {
        (c.x - goal.x).abs() <= 2 && (c.y - goal.y).abs() <= 3
            || units
                .iter()
                .any(|&(_, s)| (c.x - s.x).abs() <= 1 && (c.y - s.y).abs() <= 1)
    };
    let cells: Vec<Cell> = window(centre, size).filter(|&c| !keep(c)).collect();
    let mut rng = Rng(u64::from(case.size) * 31 + u64::from(case.budget));
    let bound = bound(case.size, case.budget) * units.len() as u64;
    let mut outcome = Outcome::default();
    let mut first_answer: Vec<Option<u32>> = vec![None; units.len()];
    let mut oldest_since = 0;
    let mut frame = 0u32;
    while first_answer.iter().any(Option::is_none) {
        frame += 1;
        assert!(
            u64::from(frame) <= bound,
            "{case:?}: {} of {} answered in {frame} frames (bound {bound})",
            first_answer.iter().flatten().count(),
            units.len()
        );
        let edits = edits_of(case, frame, centre, &cells, &mut rng);
        app.world_mut()
            .resource_mut::<NavGrid>()
            .apply_map_edits(edits);
        app.world_mut().resource_mut::<SolvedLog>().0.clear();
        app.update();
        let log = std::mem::take(&mut app.world_mut().resource_mut::<SolvedLog>().0);
        for (_, message) in &log {
            outcome.approached +=
                usize::from(check_answer(&app, message.entity, &message.outcome, case));
            outcome.checked += 1;
            if let Some(i) = units.iter().position(|&(e, _)| e == message.entity)
                && first_answer[i].is_none()
            {
                first_answer[i] = Some(frame);
                outcome.worst_wait = outcome.worst_wait.max(frame - oldest_since);
                oldest_since = frame;
            }
        }
    }
    outcome.frames = frame;
    let stats = app.world().resource::<TilepathStats>();
    outcome.fields = stats.total_field_answers;
    outcome.whole = stats.total_whole;
    // Nothing of theirs is left queued once all were answered, or it is a re-plan.
    for &(unit, _) in &units {
        let ticket = app.world().get::<PathStatus>(unit).unwrap();
        assert!(!ticket.is_queued() || ticket.queued_frame() > 0);
    }
    outcome
}

/// The cells within 16 of `centre` (Chebyshev), on the map.
fn window(centre: Cell, size: i32) -> impl Iterator<Item = Cell> {
    (centre.y - 16..=centre.y + 16)
        .flat_map(move |y| (centre.x - 16..=centre.x + 16).map(move |x| Cell::new(x, y)))
        .filter(move |c| (0..size).contains(&c.x) && (0..size).contains(&c.y))
}

/// This frame's edits of `case`.
fn edits_of(case: Case, frame: u32, centre: Cell, cells: &[Cell], rng: &mut Rng) -> Vec<MapEdit> {
    let size = case.size as i32;
    let pick = |rng: &mut Rng| cells[rng.below(cells.len())];
    match case.edits {
        Edits::Walls(n) => (0..n)
            .map(|_| MapEdit::Obstacle(pick(rng), rng.below(2) == 0))
            .collect(),
        Edits::Terrain(n) => (0..n)
            .map(|_| MapEdit::Terrain(pick(rng), (rng.below(2) as u8) * MUD))
            .collect(),
        Edits::Cut => {
            let gap = if frame.is_multiple_of(2) { 12 } else { -12 };
            (0..size)
                .map(|y| MapEdit::Obstacle(Cell::new(centre.x, y), y != centre.y + gap))
                .collect()
        }
    }
}

/// Panics unless `outcome`, answered this frame for `unit`, holds on the map as it is;
/// returns whether it was a shared approach.
fn check_answer(app: &App, unit: Entity, outcome: &Result<f32, PathFailure>, case: Case) -> bool {
    let grid = app.world().resource::<NavGrid>();
    let request = app.world().get::<PathRequest>(unit).unwrap();
    match (outcome, app.world().get::<PathResult>(unit).unwrap()) {
        (Ok(_), PathResult::Found(path)) => {
            let layer = grid
                .scenario()
                .layer_for(path.profile, request.diameter)
                .unwrap();
            let valid = bevy_tilepath::search::validate_path(
                layer,
                &path.cells,
                path.start,
                path.reached,
                request.options.connectivity,
            );
            assert_eq!(valid, Ok(()), "{case:?}: {unit} answered {path:?}");
            assert_eq!(path.cells.last(), Some(&path.reached), "{case:?}");
            path.approached
        }
        (Err(PathFailure::Search(PathError::Unreachable)), _) => false,
        (outcome, result) => panic!("{case:?}: {unit} answered {outcome:?} / {result:?}"),
    }
}

/// Every case of the matrix on every layout of [`shapes`] (squares on 64² and 256²
/// maps, the other layouts on 32² maps); prints one row per (layout, size, edits, work)
/// with the worst frames-to-answer per budget.
#[test]
fn every_request_is_answered_at_any_budget_and_edit_rate_on_squares() {
    matrix(GridLayout::Square);
}

#[test]
fn every_request_is_answered_at_any_budget_and_edit_rate_on_isometric_maps() {
    matrix(GridLayout::Isometric);
}

#[test]
fn every_request_is_answered_at_any_budget_and_edit_rate_on_hexagons() {
    for layout in shapes().into_iter().filter(|l| !l.shape().is_square()) {
        matrix(layout);
    }
}

/// The matrix on one layout (one test per kind, so that they run side by side).
fn matrix(layout: GridLayout) {
    const BUDGETS: [u32; 4] = [0, 1, 64, 1_024];
    println!("starvation matrix: frames until every request was answered (worst wait)");
    println!(
        "{:<18} {:>5} {:<11} {:<15} {:>16} {:>16} {:>16} {:>16}",
        "layout", "size", "edits", "work", "budget 0", "budget 1", "budget 64", "budget 1024"
    );
    let mut cases = 0;
    let mut totals = Outcome::default();
    {
        // The other layouts on a map a quarter the size (the edits' window is the
        // same), to keep the test short.
        let sizes: &[u32] = if layout == GridLayout::Square {
            &[64, 256]
        } else {
            &[32]
        };
        for &size in sizes {
            for edits in Edits::ALL {
                for work in Work::ALL {
                    let cells: Vec<String> = BUDGETS
                        .iter()
                        .map(|&budget| {
                            let o = run(Case {
                                layout,
                                size,
                                budget,
                                edits,
                                work,
                            });
                            cases += 1;
                            totals.checked += o.checked;
                            totals.fields += o.fields;
                            totals.approached += o.approached;
                            totals.whole += o.whole;
                            format!("{} ({})", o.frames, o.worst_wait)
                        })
                        .collect();
                    println!(
                        "{:<18} {size:>5} {:<11} {:<15} {:>16} {:>16} {:>16} {:>16}",
                        format!("{layout:?}"),
                        format!("{edits:?}"),
                        format!("{work:?}"),
                        cells[0],
                        cells[1],
                        cells[2],
                        cells[3]
                    );
                }
            }
        }
    }
    println!(
        "starvation matrix on {layout:?}: {cases} cases, every request answered within its bound; {} \
         answers checked: {} read off shared fields, {} shared approaches; {} \
         searches run whole",
        totals.checked, totals.fields, totals.approached, totals.whole
    );
    // The group kinds of work really ran as such somewhere in the matrix.
    assert!(totals.fields > 0 && totals.approached > 0);
    assert!(totals.whole > 0, "no case needed a whole search");
}
