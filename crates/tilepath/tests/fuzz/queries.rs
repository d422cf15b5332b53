//! Fuzz target of `Pathfinder`: random `PathQuery` values for every algorithm on random maps with terrain.
//!
//! Queries take arbitrary cells (off the map, `i32` extremes), diameters 0 to 65 and
//! huge, limits, connectivity, registered and unknown profiles, DFS radii, goal areas,
//! nearest-start and nearest-goal, smoothing, and sometimes run sliced (start/resume
//! with a small budget). Every answer must be a typed error or a path that
//! `validate_path` accepts, with its cost recomputed from the profile's weights; exact
//! algorithms must match A* (whose plain answers are checked against the independent
//! Dijkstra oracle of `tests/common`), and the others may not beat it. Directives:
//! `tables` (build every jump table, so Auto runs JPS+), `query KEY=VALUE ...`,
//! `profile ID SPEC`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tilepath::grid::Cell;
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::{MAX_DIAMETER, ProfileId};
use tilepath::search::{Progress, validate_path};
use tilepath::smoothing::line_of_sight;

use crate::cases::{
    self, cell, ground_cell, profile_directive, random_cell, random_map, random_spec,
};
use crate::common::{oracle_weighted_cost, picture};
use crate::harness::{fuzz, report};

/// Queries answered (each by every algorithm), and paths among the answers, for the summary.
static QUERIES: AtomicU64 = AtomicU64::new(0);
static PATHS: AtomicU64 = AtomicU64::new(0);

#[test]
fn path_queries() {
    fuzz("path-query", 5_000, "maps", generate, check);
    report(&format!(
        "fuzz path-query: {} queries, each by all {} algorithms: {} paths validated",
        QUERIES.load(Ordering::Relaxed),
        Algorithm::ALL.len(),
        PATHS.load(Ordering::Relaxed)
    ));
}

fn generate(rng: &mut SplitMix64) -> String {
    let terrain = random_map(rng, 100, 36);
    let (mut text, size) = (terrain.to_movingai() + "---\n", terrain.size());
    let profiles = rng.below(3);
    for id in 1..=profiles {
        text += &format!("profile {id} {}\n", random_spec(rng));
    }
    if rng.chance(1, 3) {
        text += "tables\n";
    }
    for _ in 0..12 {
        let end = |rng: &mut SplitMix64| match rng.below(3) {
            0 => random_cell(rng, size),
            _ => ground_cell(rng, &terrain),
        };
        let (s, g) = (end(rng), end(rng));
        let d = match rng.below(16) {
            0 => 0,
            1 => rng.range(6, 65) as u32,
            2 => [MAX_DIAMETER, MAX_DIAMETER + 1, u32::MAX][rng.below(3) as usize],
            _ => 1 + rng.below(4),
        };
        let p = match rng.below(10) {
            0 => 1 + profiles + rng.below(250),
            _ => rng.below(profiles + 1),
        };
        let expanded = match rng.below(10) {
            0 => rng.below(50),
            1 => rng.below(2_000),
            _ => u32::MAX,
        };
        let time = match rng.below(40) {
            0 => "0".into(),
            1 => rng.below(2_000).to_string(),
            _ => "none".to_string(),
        };
        let radius = match rng.below(8) {
            0 => rng.below(20).to_string(),
            1 => u32::MAX.to_string(),
            _ => "none".into(),
        };
        let goal_radius = match rng.below(8) {
            0 => 1 + rng.below(4),
            1 => [0, u32::MAX][rng.below(2) as usize],
            _ => 0,
        };
        let flag = |rng: &mut SplitMix64, n| u32::from(rng.chance(1, n));
        text += &format!(
            "query start={},{} goal={},{} d={d} profile={p} conn={} expanded={expanded} \
             time_us={time} radius={radius} goal_radius={goal_radius} nearest_start={} \
             nearest_goal={} smooth={} sliced={}\n",
            s.x,
            s.y,
            g.x,
            g.y,
            [8, 4][flag(rng, 5) as usize],
            flag(rng, 5),
            flag(rng, 5),
            flag(rng, 3),
            flag(rng, 8),
        );
    }
    text
}

/// A `query` directive: the query (algorithm Auto) and whether to run it sliced.
fn query(line: &str) -> Result<(PathQuery, bool), String> {
    let mut q = PathQuery::new(Cell::new(0, 0), Cell::new(0, 0));
    let mut sliced = false;
    for token in line.split(' ').skip(1) {
        let (key, value) = token.split_once('=').ok_or(format!("token {token:?}"))?;
        let bad = || format!("{key}={value:?}");
        let n = || value.parse::<u32>().map_err(|_| bad());
        let on = || Ok::<bool, String>(n()? != 0);
        let opt = || {
            if value == "none" {
                Ok(None)
            } else {
                n().map(Some)
            }
        };
        match key {
            "start" => q.start = cell(value)?,
            "goal" => q.goal = cell(value)?,
            "d" => q.diameter = n()?,
            "profile" => q.profile = ProfileId(u8::try_from(n()?).map_err(|_| bad())?),
            "conn" if value == "4" => q.options.connectivity = Connectivity::Cardinal,
            "conn" => q.options.connectivity = Connectivity::Octile,
            "expanded" => q.limits.max_expanded = n()?,
            "time_us" => q.limits.time_budget = opt()?.map(|us| Duration::from_micros(us.into())),
            "radius" => q.radius = opt()?,
            "goal_radius" => q.options.goal_radius = n()?,
            "nearest_start" => q.options.nearest_start = on()?,
            "nearest_goal" => q.options.nearest_goal = on()?,
            "smooth" => q.options.smooth = on()?,
            "sliced" => sliced = on()?,
            _ => return Err(format!("unknown key {key:?}")),
        }
    }
    Ok((q, sliced))
}

fn check(text: &str) -> Result<(), String> {
    let case = cases::read(text)?;
    let mut map = case.map;
    let (mut pf, mut oracle) = (Pathfinder::new(), Pathfinder::new());
    for line in case.directives {
        if let Some(done) = profile_directive(&mut map, line) {
            done?;
        } else if line == "tables" {
            map.build_jump_tables();
        } else if line.starts_with("query ") {
            let (q, sliced) = query(line)?;
            check_query(&map, &mut pf, &mut oracle, &q, sliced).map_err(|e| {
                format!(
                    "{line}: {e}{}",
                    picture(map.obstacles(), &[q.start, q.goal])
                )
            })?;
            QUERIES.fetch_add(1, Ordering::Relaxed);
        } else {
            return Err(format!("unknown directive {line:?}"));
        }
    }
    Ok(())
}

/// True when `q` bounds the search (so any algorithm may stop with `LimitReached`).
fn limited(q: &PathQuery) -> bool {
    q.limits != Limits::UNLIMITED
}

fn check_query(
    map: &CachedScenario,
    pf: &mut Pathfinder,
    oracle: &mut Pathfinder,
    q: &PathQuery,
    sliced: bool,
) -> Result<(), String> {
    let exact_q = q.algorithm(Algorithm::AStar).limits(Limits::UNLIMITED);
    let best = oracle.find(map, &exact_q);
    check_astar(map, &exact_q, &best, oracle.path())?;
    for algorithm in Algorithm::ALL {
        let aq = q.algorithm(algorithm);
        let got = if sliced && !limited(q) {
            run_sliced(map, pf, &aq)
        } else {
            pf.find(map, &aq)
        };
        let fail = |why: String| Err(format!("{algorithm}: {why}; got {got:?}, A* {best:?}"));
        match (&got, &best) {
            (Ok(stats), _) => {
                if let Err(why) = check_path(map, pf, &aq, stats) {
                    return fail(why);
                }
                PATHS.fetch_add(1, Ordering::Relaxed);
                match &best {
                    Ok(b) if algorithm.is_optimal() && stats.cost != b.cost => {
                        return fail("not optimal".into());
                    }
                    Ok(b) if stats.cost < b.cost => return fail("beats A*".into()),
                    Err(_) => return fail("a path where A* has none".into()),
                    Ok(_) => {}
                }
            }
            (Err(PathError::LimitReached { .. }), _) if limited(q) => {}
            (Err(PathError::NotFound { .. }), Ok(_))
                if algorithm == Algorithm::Dfs && q.radius.is_some() => {}
            (Err(e), Err(b)) if e == b => {}
            (Err(_), _) => return fail("a different answer".into()),
        }
    }
    Ok(())
}

/// Runs `q` in slices of a small budget, as a game spreading it over frames would.
fn run_sliced(
    map: &CachedScenario,
    pf: &mut Pathfinder,
    q: &PathQuery,
) -> Result<PathStats, PathError> {
    let mut progress = pf.start(map, q, 7)?;
    loop {
        match progress {
            Progress::Done(stats) => return Ok(stats),
            Progress::Suspended { .. } => progress = pf.resume(map, 7)?,
        }
    }
}

/// A* against the independent Dijkstra oracle on plain queries (one goal cell, ends
/// on the map, small agents, a registered profile).
fn check_astar(
    map: &CachedScenario,
    q: &PathQuery,
    best: &Result<PathStats, PathError>,
    path: &[Cell],
) -> Result<(), String> {
    let size = map.size();
    let Some(weights) = map.weights(q.profile) else {
        return Ok(());
    };
    if q.options.goal_radius != 0
        || q.options.nearest_goal
        || q.options.nearest_start
        || !(1..=4).contains(&q.diameter)
        || !size.contains(q.start)
        || !size.contains(q.goal)
    {
        return Ok(());
    }
    let weight = |c: Cell| weights.at(c).filter(|&w| w != 0);
    let expected = oracle_weighted_cost(
        map,
        weight,
        q.start,
        q.goal,
        q.diameter,
        q.options.connectivity,
    );
    match (best, expected) {
        (Ok(stats), Some(cost)) if stats.cost == cost => Ok(()),
        (
            Err(
                PathError::StartBlocked { .. }
                | PathError::GoalBlocked { .. }
                | PathError::Unreachable,
            ),
            None,
        ) => Ok(()),
        _ => Err(format!("A* {best:?}, oracle {expected:?}, path {path:?}")),
    }
}

/// The path of `stats` obeys the movement rules between its ends, ends where the query
/// allows, costs what the weights say, and its waypoints see each other.
fn check_path(
    map: &CachedScenario,
    pf: &Pathfinder,
    q: &PathQuery,
    stats: &PathStats,
) -> Result<(), String> {
    let layer = map
        .layer_for(q.profile, q.diameter)
        .ok_or("a path without a layer")?;
    let path = pf.path();
    validate_path(
        layer,
        path,
        stats.start,
        stats.reached,
        q.options.connectivity,
    )
    .map_err(|e| format!("invalid path ({e}) {path:?}"))?;
    if !q.options.nearest_start && stats.start != q.start {
        return Err(format!("starts at {} without nearest_start", stats.start));
    }
    if !q.options.nearest_goal && !q.in_goal_area(stats.reached) {
        return Err(format!("ends at {} outside the goal area", stats.reached));
    }
    let weights = map.weights(q.profile).ok_or("no weights")?;
    if weights.path_cost(path) != Some(stats.cost) {
        return Err(format!(
            "cost {} but the weights say {:?}",
            stats.cost,
            weights.path_cost(path)
        ));
    }
    let w = pf.waypoints();
    if q.options.smooth {
        if w.first() != Some(&stats.start) || w.last() != Some(&stats.reached) {
            return Err(format!("waypoints {w:?}"));
        }
        if let Some(s) = w.windows(2).find(|s| !line_of_sight(layer, s[0], s[1])) {
            return Err(format!("waypoints {} -> {} not in sight", s[0], s[1]));
        }
    }
    Ok(())
}
