//! The crowd module against dodgy_2d (an independent ORCA), and simulated crowds: no
//! overlaps beyond the tolerance, determinism across threads, passing and stepping aside.

mod crowd_support;

use crowd_support::{Map, Sim, crowd, uniform, worst_pair_overlap};
use std::borrow::Cow;
use tilepath::crowd::{
    AvoidScratch, AvoidanceSettings, Crowd, CrowdAgent, OVERLAP_TOLERANCE, Vector, WALL_MARGIN,
};
use tilepath::scenario::generate::SplitMix64;

/// Largest difference allowed between our velocity and dodgy_2d's, in cells per second:
/// none. Both compute the same formulas in the same order of `f32` operations, so they
/// agree to the bit. A tolerance would not make the comparison robust anyway: the 3-D
/// fallback program is ill-conditioned when two half-planes are nearly opposite (a
/// change of 1e-5 in one line's point moves its answer by 3e-3, and a rounding that flips
/// a parallelism test moves it by more than 1 cell/s in some of these configurations).
const ORACLE_TOLERANCE: f32 = 0.0;

/// The neighbours by brute force: the rule of `Crowd::neighbours`.
fn brute_neighbours(i: usize, agents: &[CrowdAgent], settings: &AvoidanceSettings) -> Vec<usize> {
    let a = &agents[i];
    let mut found: Vec<(f32, u64, usize)> = (0..agents.len())
        .filter(|&j| j != i)
        .map(|j| {
            (
                (agents[j].position - a.position).length_squared(),
                agents[j].key,
                j,
            )
        })
        .filter(|&(d2, _, j)| {
            let reach = settings.neighbour_distance + a.radius + agents[j].radius;
            d2 < reach * reach
        })
        .collect();
    found.sort_by(|x, y| x.partial_cmp(y).unwrap());
    found.truncate(settings.max_neighbours);
    found.into_iter().map(|f| f.2).collect()
}

fn dodgy_agent(a: &CrowdAgent) -> dodgy_2d::Agent {
    dodgy_2d::Agent {
        position: dodgy_2d::Vec2::new(a.position.x, a.position.y),
        velocity: dodgy_2d::Vec2::new(a.velocity.x, a.velocity.y),
        radius: a.radius,
        avoidance_responsibility: a.responsibility,
    }
}

#[test]
fn avoid_matches_dodgy_2d_without_walls() {
    let mut worst = 0.0f32;
    let (mut crowd, mut scratch) = (Crowd::new(), AvoidScratch::default());
    for seed in 0..3000u64 {
        let mut rng = SplitMix64::new(seed);
        let n = 2 + rng.below(14) as usize;
        let extent = uniform(&mut rng, 1.5, 8.0);
        let settings = AvoidanceSettings {
            time_horizon: uniform(&mut rng, 0.25, 3.0),
            wall_horizon: 0.5,
            neighbour_distance: uniform(&mut rng, 0.5, 5.0),
            max_neighbours: 1 + rng.below(12) as usize,
        };
        let dt = uniform(&mut rng, 0.01, 0.2);
        let agents: Vec<CrowdAgent> = (0..n)
            .map(|k| {
                let mut a = CrowdAgent::new(
                    Vector::new(
                        uniform(&mut rng, 0.0, extent),
                        uniform(&mut rng, 0.0, extent),
                    ),
                    uniform(&mut rng, 0.2, 1.0),
                    uniform(&mut rng, 0.5, 4.0),
                    rng.next_u64() ^ k as u64,
                );
                a.velocity =
                    Vector::new(uniform(&mut rng, -3.0, 3.0), uniform(&mut rng, -3.0, 3.0));
                a.preferred =
                    Vector::new(uniform(&mut rng, -5.0, 5.0), uniform(&mut rng, -5.0, 5.0));
                a.responsibility = if rng.chance(1, 3) {
                    uniform(&mut rng, 0.5, 8.0)
                } else {
                    1.0
                };
                a
            })
            .collect();
        crowd.index(&agents, &settings);
        let options = dodgy_2d::AvoidanceOptions {
            obstacle_margin: 0.0,
            time_horizon: settings.time_horizon,
            obstacle_time_horizon: settings.wall_horizon,
        };
        for i in 0..n {
            let expected_neighbours = brute_neighbours(i, &agents, &settings);
            let neighbours: Vec<usize> = crowd
                .neighbours(i, &agents, &settings, &mut scratch)
                .collect();
            assert_eq!(
                neighbours, expected_neighbours,
                "seed {seed}, agent {i}: {agents:#?}"
            );
            let ours = crowd.avoid(i, &agents, |_| false, &settings, dt, &mut scratch);
            let others: Vec<Cow<dodgy_2d::Agent>> = neighbours
                .iter()
                .map(|&j| Cow::Owned(dodgy_agent(&agents[j])))
                .collect();
            let a = &agents[i];
            let theirs = dodgy_agent(a).compute_avoiding_velocity(
                &others,
                &[],
                dodgy_2d::Vec2::new(a.preferred.x, a.preferred.y),
                a.max_speed,
                dt,
                &options,
            );
            // The same final clamp as ours: `avoid` clamps the program's result to the
            // speed disc, which dodgy_2d leaves to rounding.
            let expected = Vector::new(theirs.x, theirs.y).clamp_length_max(a.max_speed);
            let difference = (ours - expected).length();
            worst = worst.max(difference);
            assert!(
                difference <= ORACLE_TOLERANCE,
                "seed {seed}, agent {i}, dt {dt}, {settings:?}: ours {ours:?}, dodgy_2d {expected:?}\n{agents:#?}"
            );
        }
    }
    println!("largest difference to dodgy_2d: {worst:e} cells/s");
}

/// Runs `steps` steps of a random crowd and checks the overlaps after each.
fn check_crowd(seed: u64, walled: bool) {
    let mut rng = SplitMix64::new(seed);
    let map = if walled {
        Map::walled(28, 6, &mut rng)
    } else {
        Map::open(28)
    };
    let n = 20 + rng.below(41) as usize;
    let (mut agents, goals) = crowd(&map, n, &mut rng);
    let initial = agents.clone();
    let settings = AvoidanceSettings::default();
    let mut sim = Sim::default();
    let dt = 1.0 / 20.0;
    for step in 0..300 {
        sim.step(&map, &mut agents, &goals, &settings, dt, 8);
        let (overlap, i, j) = worst_pair_overlap(&agents);
        assert!(
            overlap <= OVERLAP_TOLERANCE,
            "seed {seed}, walled {walled}, step {step}: agents {i} and {j} overlap by {overlap}\n\
             now {:?} and {:?}\ninitial agents {initial:#?}\ngoals {goals:?}",
            agents[i],
            agents[j]
        );
        for (k, agent) in agents.iter().enumerate() {
            // Walls keep discs `WALL_MARGIN` less than their radius away.
            let overlap = map.wall_overlap(agent.position, agent.radius - WALL_MARGIN);
            assert!(
                overlap <= OVERLAP_TOLERANCE,
                "seed {seed}, walled {walled}, step {step}: agent {k} overlaps a wall by {overlap}: {agent:?}\n\
                 initial agents {initial:#?}\ngoals {goals:?}\nmap {map:?}"
            );
        }
    }
}

#[test]
fn random_crowds_do_not_overlap_on_an_open_map() {
    for seed in 0..24 {
        check_crowd(seed, false);
    }
}

#[test]
fn random_crowds_do_not_overlap_on_a_map_with_walls() {
    for seed in 100..124 {
        check_crowd(seed, true);
    }
}

/// Random steps of random crowds, each agent moving up to 1.5 cells anywhere (so that
/// many pairs end overlapping): after `hold_back`, no pair overlaps by more than the
/// tolerance or than it did at the start, and the agents it holds are the same in the
/// reverse order.
#[test]
fn holding_back_leaves_no_pair_overlapping_more_than_before() {
    let settings = AvoidanceSettings::default();
    let mut crowd_index = Crowd::new();
    let (mut held_total, mut agents_total) = (0, 0);
    for seed in 300..364 {
        let mut rng = SplitMix64::new(seed);
        let map = Map::open(20);
        let n = 10 + rng.below(51) as usize;
        let (start, _) = crowd(&map, n, &mut rng);
        let mut from: Vec<Vector> = start.iter().map(|a| a.position).collect();
        // Some starts overlap too, deeper than the tolerance.
        if rng.chance(1, 2) {
            from[1] = from[0] + Vector::new(0.1, 0.0);
        }
        let to: Vec<Vector> = from
            .iter()
            .map(|&p| p + Vector::new(uniform(&mut rng, -1.5, 1.5), uniform(&mut rng, -1.5, 1.5)))
            .collect();
        let moved: Vec<CrowdAgent> = start
            .iter()
            .zip(&to)
            .map(|(a, &p)| CrowdAgent { position: p, ..*a })
            .collect();
        crowd_index.index(&moved, &settings);
        let mut held = vec![false; n];
        let count = crowd_index.hold_back(&moved, &from, &to, OVERLAP_TOLERANCE, &mut held);
        assert_eq!(count, held.iter().filter(|&&h| h).count());
        let at = |k: usize| if held[k] { from[k] } else { to[k] };
        for i in 0..n {
            for j in i + 1..n {
                let sum = moved[i].radius + moved[j].radius;
                let now = sum - (at(i) - at(j)).length();
                let before = sum - (from[i] - from[j]).length();
                assert!(
                    now <= OVERLAP_TOLERANCE || now <= before,
                    "seed {seed}: agents {i} and {j} overlap by {now} (before {before}), held {:?}\n\
                     from {from:?}\nto {to:?}\nagents {moved:#?}",
                    (held[i], held[j])
                );
            }
        }
        // The same agents are held when the crowd is listed the other way round.
        let reversed: Vec<CrowdAgent> = moved.iter().rev().copied().collect();
        let (from_r, to_r): (Vec<Vector>, Vec<Vector>) = (
            from.iter().rev().copied().collect(),
            to.iter().rev().copied().collect(),
        );
        crowd_index.index(&reversed, &settings);
        let mut held_r = vec![false; n];
        crowd_index.hold_back(&reversed, &from_r, &to_r, OVERLAP_TOLERANCE, &mut held_r);
        held_r.reverse();
        assert_eq!(held, held_r, "seed {seed}");
        held_total += count;
        agents_total += n;
    }
    // It holds back what it must, not everybody.
    println!("held {held_total} of {agents_total} agents");
    assert!(held_total > 0 && held_total < agents_total);
}

#[test]
fn avoid_is_bit_identical_in_any_order_and_on_two_threads() {
    let mut rng = SplitMix64::new(7);
    let map = Map::walled(28, 6, &mut rng);
    let (mut agents, goals) = crowd(&map, 60, &mut rng);
    let settings = AvoidanceSettings::default();
    let mut sim = Sim::default();
    let dt = 0.05;
    for _ in 0..40 {
        sim.step(&map, &mut agents, &goals, &settings, dt, 4);
    }
    let mut crowd = Crowd::new();
    crowd.index(&agents, &settings);
    let n = agents.len();
    let avoid = |i: usize, scratch: &mut AvoidScratch| {
        let v = crowd.avoid(i, &agents, |c| map.blocked(c), &settings, dt, scratch);
        [v.x.to_bits(), v.y.to_bits()]
    };
    let mut scratch = AvoidScratch::default();
    let forward: Vec<[u32; 2]> = (0..n).map(|i| avoid(i, &mut scratch)).collect();
    let mut reverse: Vec<[u32; 2]> = (0..n).rev().map(|i| avoid(i, &mut scratch)).collect();
    reverse.reverse();
    let threaded: Vec<[u32; 2]> = std::thread::scope(|s| {
        let halves = [(0..n / 2), (n / 2..n)].map(|range| {
            s.spawn(move || {
                let mut scratch = AvoidScratch::default();
                range.map(|i| avoid(i, &mut scratch)).collect::<Vec<_>>()
            })
        });
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(forward, reverse);
    assert_eq!(forward, threaded);
    assert!(forward.iter().any(|v| *v != [0, 0]), "the crowd moves");
    // With the neighbours of a longer read of the same distance (as the plugin's lane
    // scan hands them on), the velocities are the same bits. Few neighbours, so that
    // the ones beyond them would change some velocities.
    let few = AvoidanceSettings {
        max_neighbours: 2,
        ..settings
    };
    let longer = AvoidanceSettings {
        max_neighbours: 8,
        ..settings
    };
    let mut long_scratch = AvoidScratch::default();
    let mut changed_by_more = 0;
    for i in 0..n {
        let bits = |v: Vector| [v.x.to_bits(), v.y.to_bits()];
        let blocked = |c| map.blocked(c);
        let alone = crowd.avoid(i, &agents, blocked, &few, dt, &mut scratch);
        let near: Vec<usize> = crowd
            .neighbours(i, &agents, &longer, &mut long_scratch)
            .collect();
        let among = crowd.avoid_among(
            i,
            &agents,
            near.iter().copied(),
            blocked,
            &few,
            dt,
            &mut scratch,
        );
        assert_eq!(bits(among), bits(alone), "agent {i}");
        let all = crowd.avoid(i, &agents, blocked, &longer, dt, &mut scratch);
        changed_by_more += usize::from(bits(all) != bits(alone));
    }
    assert!(
        changed_by_more > 0,
        "neighbours beyond the first two change some velocities"
    );
}

/// Two agents of radius 0.5 and speed 2 from `a` to `b` and back; the steps until both
/// arrive (within 0.05), and the smallest gap between them.
fn head_on(mut agents: [CrowdAgent; 2], goals: [Vector; 2]) -> (Option<usize>, f32) {
    let map = Map::open(1);
    let settings = AvoidanceSettings::default();
    let mut sim = Sim::default();
    let mut smallest_gap = f32::INFINITY;
    for step in 0..400 {
        sim.step(&map, &mut agents, &goals, &settings, 0.05, 4);
        let gap = (agents[1].position - agents[0].position).length()
            - agents[0].radius
            - agents[1].radius;
        smallest_gap = smallest_gap.min(gap);
        if agents
            .iter()
            .zip(goals)
            .all(|(a, g)| (a.position - g).length() < 0.05)
        {
            return (Some(step), smallest_gap);
        }
    }
    (None, smallest_gap)
}

#[test]
fn two_agents_head_on_pass_each_other() {
    let a = CrowdAgent::new(Vector::new(0.0, 0.0), 0.5, 2.0, 1);
    let b = CrowdAgent::new(Vector::new(10.0, 0.0), 0.5, 2.0, 2);
    let (arrived, gap) = head_on([a, b], [b.position, a.position]);
    // 10 cells at 2 cells/s is 100 steps of 0.05 s; the detour costs a few more.
    let steps = arrived.expect("both arrive");
    assert!(steps < 140, "{steps} steps");
    assert!(gap > -OVERLAP_TOLERANCE, "gap {gap}");
    println!("head-on: both arrived after {steps} steps, smallest gap {gap}");
}

#[test]
fn a_standing_agent_steps_aside_for_a_moving_one() {
    let mut standing = CrowdAgent::new(Vector::new(5.0, 0.0), 0.5, 2.0, 1);
    standing.responsibility = 8.0;
    let walker = CrowdAgent::new(Vector::new(0.0, 0.0), 0.5, 2.0, 2);
    let goals = [standing.position, Vector::new(10.0, 0.0)];
    let map = Map::open(1);
    let settings = AvoidanceSettings::default();
    let mut sim = Sim::default();
    let mut agents = [standing, walker];
    let (mut aside, mut walker_off_line) = (0.0f32, 0.0f32);
    for _ in 0..150 {
        // The standing agent wants to stay where it is: preferred velocity zero.
        let here = agents[0].position;
        sim.step(&map, &mut agents, &[here, goals[1]], &settings, 0.05, 4);
        aside = aside.max(agents[0].position.y.abs());
        walker_off_line = walker_off_line.max(agents[1].position.y.abs());
        let (overlap, _, _) = worst_pair_overlap(&agents);
        assert!(overlap <= OVERLAP_TOLERANCE);
    }
    assert!(
        (agents[1].position - goals[1]).length() < 0.05,
        "the walker arrives: {agents:?}"
    );
    assert!(aside > 0.5, "the standing agent steps aside: {aside}");
    assert!(
        walker_off_line < aside,
        "the walker keeps to its line more ({walker_off_line} vs {aside})"
    );
}

/// This thread's time on a CPU in seconds (Linux: `/proc/thread-self/schedstat`), so that
/// the speed print means something on a loaded machine; wall-clock time elsewhere.
fn cpu_seconds(wall: std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

/// Prints how many agents per millisecond of CPU time `index`, `avoid` and separation
/// handle on one thread (release builds:
/// `cargo test --release -p tilepath --test crowd -- --ignored --nocapture`).
#[test]
#[ignore]
fn speed() {
    let mut rng = SplitMix64::new(3);
    let map = Map::walled(128, 4, &mut rng);
    let (mut agents, goals) = crowd(&map, 3000, &mut rng);
    let settings = AvoidanceSettings::default();
    let mut sim = Sim::default();
    for _ in 0..20 {
        sim.step(&map, &mut agents, &goals, &settings, 0.05, 8);
    }
    let mut crowd = Crowd::new();
    let mut scratch = AvoidScratch::default();
    let mut out = vec![Vector::ZERO; agents.len()];
    let rounds = 100;
    let wall = std::time::Instant::now();
    let time = || cpu_seconds(wall);
    let start = time();
    for _ in 0..rounds {
        crowd.index(&agents, &settings);
    }
    let index = (time() - start) / rounds as f64;
    let start = time();
    let mut sum = 0.0;
    for _ in 0..rounds {
        for i in 0..agents.len() {
            sum += crowd
                .avoid(
                    i,
                    &agents,
                    |c| map.blocked(c),
                    &settings,
                    0.05,
                    &mut scratch,
                )
                .x;
        }
    }
    let avoid = (time() - start) / rounds as f64;
    let open = Map::open(128);
    let start = time();
    for _ in 0..rounds {
        for i in 0..agents.len() {
            sum += crowd
                .avoid(
                    i,
                    &agents,
                    |c| open.blocked(c),
                    &settings,
                    0.05,
                    &mut scratch,
                )
                .x;
        }
    }
    let avoid_open = (time() - start) / rounds as f64;
    let start = time();
    for _ in 0..rounds {
        crowd.separate_with_walls(&agents, 8, |_, c| map.blocked(c), &mut out);
    }
    let separate = (time() - start) / rounds as f64;
    let per_ms = |seconds: f64| agents.len() as f64 / (seconds * 1e3);
    println!(
        "{} agents (checksum {sum}): index {:.0} agents/ms, avoid {:.0} agents/ms with walls, {:.0} without, \
         separate_with_walls (8 passes) {:.0} agents/ms",
        agents.len(),
        per_ms(index),
        per_ms(avoid),
        per_ms(avoid_open),
        per_ms(separate)
    );
}
