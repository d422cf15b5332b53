//! Criterion bench: every algorithm on 512x512 MovingAI maps, and a reused pathfinder
//! against a fresh one per call.
//!
//! `cargo bench --bench algorithms` (data from `$MOVINGAI_DIR` or `../shared/movingai`).

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use tilepath::prelude::*;
#[path = "../examples/support/benchmark.rs"]
mod benchmark;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const MAPS: [&str; 4] = ["AR0011SR", "maze512-4-0", "random512-20-0", "32room_000"];
const QUERIES: usize = 40;

fn load(dir: &Path, name: &str) -> (CachedScenario, Vec<PathQuery>) {
    let scen = dir.join("scen").join(format!("{name}.map.scen"));
    let set = benchmark::load(&scen, &dir.join("maps")).expect("benchmark data");
    let step = (set.problems.len() / QUERIES).max(1);
    let queries = set
        .problems
        .iter()
        .step_by(step)
        .take(QUERIES)
        .map(|p| PathQuery::new(p.start, p.goal))
        .collect();
    (
        CachedScenario::from_bits(set.map.into_bits()).unwrap(),
        queries,
    )
}

fn algorithms(c: &mut Criterion) {
    let Some(dir) = benchmark::data_dir(env!("CARGO_MANIFEST_DIR").as_ref()) else {
        eprintln!("no MovingAI data: set MOVINGAI_DIR");
        return;
    };
    let mut group = c.benchmark_group("algorithms");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    for name in MAPS {
        let (map, queries) = load(&dir, name);
        group.throughput(Throughput::Elements(queries.len() as u64));
        for algorithm in Algorithm::ALL {
            let mut pf = Pathfinder::new();
            group.bench_with_input(
                BenchmarkId::new(algorithm.name(), name),
                &queries,
                |b, qs| {
                    b.iter(|| {
                        for q in qs {
                            black_box(pf.find(&map, &q.algorithm(algorithm)).ok());
                        }
                    })
                },
            );
        }
    }
    group.finish();

    let mut group = c.benchmark_group("reuse");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    let (map, queries) = load(&dir, "AR0011SR");
    group.throughput(Throughput::Elements(queries.len() as u64));
    for algorithm in [Algorithm::AStar, Algorithm::Jps] {
        let mut pf = Pathfinder::new();
        group.bench_function(
            BenchmarkId::new(format!("{algorithm}-reused"), "AR0011SR"),
            |b| {
                b.iter(|| {
                    for q in &queries {
                        black_box(pf.find(&map, &q.algorithm(algorithm)).ok());
                    }
                })
            },
        );
        group.bench_function(
            BenchmarkId::new(format!("{algorithm}-fresh"), "AR0011SR"),
            |b| {
                b.iter(|| {
                    for q in &queries {
                        let mut pf = Pathfinder::new();
                        black_box(pf.find(&map, &q.algorithm(algorithm)).ok());
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, algorithms);
criterion_main!(benches);
