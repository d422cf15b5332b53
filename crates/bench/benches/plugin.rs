//! Criterion bench: path requests the Bevy plugin answers per second on a 512x512 map,
//! for 1,000 and 10,000 JPS requests, with one and two solver threads, against the same
//! queries answered by one bare `Pathfinder` (the plugin's overhead).
//!
//! `cargo bench -p tilepath_bench --bench plugin` (map and problems from `$MOVINGAI_DIR` or
//! `../shared/movingai`, AR0011SR, problems of every length bucket; a generated 512x512
//! rooms map when the data is missing). One iteration re-queues every request and runs one
//! `App::update` that answers them all (frame budget unlimited), so the time includes
//! queueing, solving and writing results.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy_tilepath::components::Replanning;
use bevy_tilepath::grid::GridSize;
use bevy_tilepath::prelude::{
    Algorithm, Cell, NavGrid, PathRequest, PathResult, TilepathPlugin, TilepathSettings,
};
use bevy_tilepath::scenario::{CachedScenario, Scenario, generate};
use bevy_tilepath::search::{PathQuery, Pathfinder};

#[path = "../../tilepath/examples/support/benchmark.rs"]
mod benchmark;
use bevy_tilepath::prelude::FrameBudget;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// The map and `(start, goal)` pairs to cycle through.
fn problems() -> (CachedScenario, Vec<(Cell, Cell)>, &'static str) {
    if let Some(dir) = benchmark::data_dir(env!("CARGO_MANIFEST_DIR").as_ref()) {
        let scen = dir.join("scen").join("AR0011SR.map.scen");
        if let Ok(set) = benchmark::load(&scen, &dir.join("maps")) {
            // Every other problem: 1,000 requests span all length buckets.
            let pairs = set
                .problems
                .iter()
                .step_by(2)
                .map(|p| (p.start, p.goal))
                .collect();
            let map = CachedScenario::from_bits(set.map.into_bits()).expect("a valid map");
            return (map, pairs, "AR0011SR");
        }
    }
    let mut bits = generate::rooms(GridSize::new(512, 512), 1);
    generate::keep_largest_region(&mut bits);
    let map = CachedScenario::from_bits(bits).expect("a valid map");
    let free: Vec<Cell> = (0..512)
        .flat_map(|y| (0..512).map(move |x| Cell::new(x, y)))
        .filter(|&c| !map.is_blocked(c, 1))
        .collect();
    let mut rng = generate::SplitMix64::new(2);
    let pairs = (0..4096)
        .map(|_| {
            let mut pick = || free[rng.below(free.len() as u32) as usize];
            (pick(), pick())
        })
        .collect();
    (map, pairs, "rooms512")
}

/// An app with `requests` units on `map`, all answered once (warm-up).
fn app(map: &CachedScenario, pairs: &[(Cell, Cell)], requests: usize, threads: usize) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(4),
        }),
        TilepathPlugin::default(),
    ));
    app.insert_resource(TilepathSettings {
        budget: FrameBudget::Time(Duration::from_secs(3600)),
        max_requests_per_frame: usize::MAX,
        max_threads: threads,
        ..default()
    });
    app.insert_resource(NavGrid::new(map.clone(), Vec2::ZERO, Vec2::ONE));
    for &(start, goal) in pairs.iter().cycle().take(requests) {
        app.world_mut().spawn((
            Transform::from_xyz(start.x as f32, start.y as f32, 0.0),
            PathRequest::new(goal).algorithm(Algorithm::Jps),
        ));
    }
    app.update();
    app
}

/// Plans every request again (the same requests: the `Replanning` marker queues them).
fn requeue_all(app: &mut App) {
    let mut requests = app
        .world_mut()
        .query_filtered::<Entity, With<PathRequest>>();
    let units: Vec<Entity> = requests.iter(app.world()).collect();
    for unit in units {
        app.world_mut().entity_mut(unit).insert(Replanning);
    }
}

fn solved(app: &mut App) -> usize {
    let mut results = app.world_mut().query::<&PathResult>();
    results
        .iter(app.world())
        .filter(|r| r.found().is_some())
        .count()
}

fn plugin(c: &mut Criterion) {
    let (map, pairs, name) = problems();
    let mut group = c.benchmark_group(format!("plugin/{name}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for requests in [1_000, 10_000] {
        group.throughput(Throughput::Elements(requests as u64));
        let queries: Vec<PathQuery> = pairs
            .iter()
            .cycle()
            .take(requests)
            .map(|&(start, goal)| PathQuery::new(start, goal).algorithm(Algorithm::Jps))
            .collect();
        let mut pathfinder = Pathfinder::new();
        group.bench_function(BenchmarkId::new("bare-pathfinder", requests), |b| {
            b.iter(|| {
                for q in &queries {
                    black_box(pathfinder.find(&map, q).is_ok());
                }
            })
        });
        for threads in [1, 2] {
            let mut app = app(&map, &pairs, requests, threads);
            assert_eq!(
                solved(&mut app),
                requests,
                "every benchmark problem is solvable"
            );
            group.bench_function(
                BenchmarkId::new(format!("{threads}-thread"), requests),
                |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            requeue_all(&mut app);
                            let started = Instant::now();
                            app.update();
                            total += started.elapsed();
                        }
                        black_box(solved(&mut app));
                        total
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, plugin);
criterion_main!(benches);
