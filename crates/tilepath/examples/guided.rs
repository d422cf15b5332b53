//! Guided searches against plain ones: units sent to distinct cells around one goal.
//!
//! `cargo run --release -p tilepath --example guided -- [MAP] [UNITS]` where MAP is a
//! MovingAI map name (from `$MOVINGAI_DIR` or `../shared/movingai`, default `AR0011SR`)
//! or `countryside` (a generated 512 × 512 terrain map, infantry profile). One
//! `DistanceField` is grown from a free cell near the centre; UNITS random units (1,000 by
//! default) are each given one of the UNITS free cells nearest to that goal, either
//! nearest unit first or by angle around the goal (a unit's cell on its side of the
//! goal), and each is searched with JPS, A*, A* guided by the field
//! (`Pathfinder::find_guided`), `Auto` (on weighted layers: A* on the layer's landmark
//! table) and `Auto` guided by the field and the table together. Prints time and
//! expansions per unit; costs are checked equal between them all.

use std::path::PathBuf;
use std::time::Instant;

use tilepath::grid::Connectivity;
use tilepath::prelude::*;
use tilepath::scenario::ProfileId;
use tilepath::scenario::generate::{SplitMix64, countryside};
use tilepath::scenario::movingai::MovingAiMap;
use tilepath::scenario::movingai_terrain::TerrainSpec;
use tilepath::search::DistanceField;

fn movingai_dir() -> PathBuf {
    std::env::var_os("MOVINGAI_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai"),
        PathBuf::from,
    )
}

fn load(name: &str) -> Result<(CachedScenario, ProfileId), String> {
    if name == "countryside" {
        let mut map = countryside(GridSize::new(512, 512), 14)
            .into_scenario()
            .map_err(|e| e.to_string())?;
        let spec: TerrainSpec = ".=2,R=1,F=4,S=7,W=x"
            .parse()
            .map_err(|e| format!("{e:?}"))?;
        map.set_profile(ProfileId(1), spec.profile());
        return Ok((map, ProfileId(1)));
    }
    let path = movingai_dir().join("maps").join(format!("{name}.map"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bits = MovingAiMap::parse(&text)
        .map_err(|e| e.to_string())?
        .into_bits();
    let map = CachedScenario::from_bits(bits).map_err(|e| e.to_string())?;
    Ok((map, ProfileId::DEFAULT))
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "AR0011SR".into());
    let n: usize = args
        .next()
        .map_or(Ok(1000), |s| s.parse())
        .map_err(|e| format!("{e}"))?;
    let (map, profile) = load(&name)?;
    let layer = map.layer_for(profile, 1).ok_or("no layer")?;
    let size = map.size();
    let centre = Cell::new(size.width as i32 / 2, size.height as i32 / 2);
    let goal = layer.nearest_free(centre, |_| true).ok_or("no free cell")?;
    let reaches = |c: Cell| !layer.is_blocked(c) && layer.components().connected(c, goal);

    let started = Instant::now();
    let mut field = DistanceField::new(&map, goal, profile, 1).map_err(|e| e.to_string())?;
    while !field.grow(&map, u32::MAX) {}
    let field_ms = started.elapsed().as_secs_f64() * 1e3;

    let mut rng = SplitMix64::new(7);
    let mut units = Vec::with_capacity(n);
    while units.len() < n {
        let c = Cell::new(rng.below(size.width) as i32, rng.below(size.height) as i32);
        if reaches(c) {
            units.push(c);
        }
    }
    let octile = |c: Cell| Connectivity::Octile.heuristic(c, goal);
    let mut cells: Vec<Cell> = (0..size.area())
        .map(|i| size.cell(i))
        .filter(|&c| reaches(c))
        .collect();
    cells.sort_by_key(|&c| (octile(c), c.y, c.x));
    let cells = &cells[..n.min(cells.len())];
    let n = cells.len();

    // Nearest unit first takes the nearest cell; or units and cells matched by angle.
    let mut nearest = vec![goal; n];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| octile(units[i]));
    for (k, &i) in order.iter().enumerate() {
        nearest[i] = cells[k];
    }
    let angle = |c: Cell| f64::from(c.y - goal.y).atan2(f64::from(c.x - goal.x));
    let mut by_angle = vec![goal; n];
    order.sort_by(|&a, &b| angle(units[a]).total_cmp(&angle(units[b])));
    let mut around: Vec<Cell> = cells.to_vec();
    around.sort_by(|a, b| angle(*a).total_cmp(&angle(*b)));
    for (k, &i) in order.iter().enumerate() {
        by_angle[i] = around[k];
    }

    println!("{name}: field from {goal} in {field_ms:.1} ms, {n} units");
    let mut pf = Pathfinder::new();
    for (label, assigned) in [("nearest unit first", &nearest), ("by angle", &by_angle)] {
        let mut costs: Vec<Vec<Cost>> = Vec::new();
        for (algorithm, guided) in [
            ("JPS", false),
            ("A*", false),
            ("guided A*", true),
            ("Auto", false),
            ("guided Auto", true),
        ] {
            let started = Instant::now();
            let (mut expanded, mut cost) = (0u64, Vec::with_capacity(n));
            for (&unit, &cell) in units.iter().zip(assigned.iter()) {
                let q = PathQuery::new(unit, cell)
                    .profile(profile)
                    .algorithm(match algorithm {
                        "JPS" => Algorithm::Jps,
                        "Auto" | "guided Auto" => Algorithm::Auto,
                        _ => Algorithm::AStar,
                    });
                let stats = if guided {
                    pf.find_guided(&map, &q, &field)
                } else {
                    pf.find(&map, &q)
                }
                .map_err(|e| e.to_string())?;
                expanded += u64::from(stats.expanded);
                cost.push(stats.cost);
            }
            let us = started.elapsed().as_secs_f64() * 1e6 / n as f64;
            println!(
                "  {label:<18} {algorithm:<9} {us:>9.1} µs per unit {:>9.0} expansions per unit",
                expanded as f64 / n as f64
            );
            costs.push(cost);
        }
        if costs.windows(2).any(|w| w[0] != w[1]) {
            return Err("costs differ between the algorithms".into());
        }
    }
    Ok(())
}
