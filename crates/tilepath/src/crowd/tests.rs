//! Unit tests of the crowd module: vectors, walls, coincident agents, bad input, the neighbour index against brute force, and the squeezed fallback.

use super::*;

fn settings() -> AvoidanceSettings {
    AvoidanceSettings::default()
}

fn walking(position: [f32; 2], preferred: [f32; 2], key: u64) -> CrowdAgent {
    let mut agent = CrowdAgent::new(position.into(), 0.5, 2.0, key);
    agent.preferred = preferred.into();
    agent
}

fn avoid_one(agents: &[CrowdAgent], i: usize, blocked: impl Fn(Cell) -> bool, dt: f32) -> Vector {
    let mut crowd = Crowd::new();
    crowd.index(agents, &settings());
    crowd.avoid(
        i,
        agents,
        blocked,
        &settings(),
        dt,
        &mut AvoidScratch::default(),
    )
}

#[test]
fn vector_operations() {
    let v = Vector::new(3.0, 4.0);
    assert_eq!(v.length(), 5.0);
    assert_eq!(v.length_squared(), 25.0);
    assert_eq!(v.normalize_or_zero(), Vector::new(0.6, 0.8));
    assert_eq!(Vector::ZERO.normalize_or_zero(), Vector::ZERO);
    assert_eq!(v.clamp_length_max(2.5), Vector::new(1.5, 2.0));
    assert_eq!(v.clamp_length_max(6.0), v);
    assert_eq!(v.dot(Vector::new(1.0, 1.0)), 7.0);
    assert_eq!(Vector::new(1.0, 0.0).cross(Vector::new(0.0, 1.0)), 1.0);
    assert_eq!(-v + v * 2.0 - v / 1.0, Vector::ZERO);
    let array: [f32; 2] = v.into();
    assert_eq!(Vector::from(array), v);
    assert!(!Vector::new(f32::NAN, 0.0).is_finite());
}

/// Row 0 blocked: a flat wall along y = 1.
fn floor(cell: Cell) -> bool {
    cell.y <= 0
}

#[test]
fn sliding_along_a_flat_wall_keeps_full_speed() {
    // Touching the wall, at several offsets within a cell: the wall is one segment, so
    // no cell corner slows the slide.
    for x in [5.0, 5.25, 5.5, 5.99] {
        let agent = walking([x, 1.5], [2.0, 0.0], 1);
        assert_eq!(
            avoid_one(&[agent], 0, floor, 0.05),
            Vector::new(2.0, 0.0),
            "x = {x}"
        );
    }
}

#[test]
fn walls_stop_and_push_out() {
    // Heading into the wall from 0.25 away (0.25 + WALL_MARGIN to the disc less the
    // margin): at most 0.3 / 0.5 s = 0.6 cells/s toward it.
    let agent = walking([5.5, 1.75], [0.0, -2.0], 1);
    let v = avoid_one(&[agent], 0, floor, 0.05);
    assert!((v.y + (0.25 + WALL_MARGIN) / 0.5).abs() < 1e-5, "{v:?}");
    // Overlapping it by 0.05 beyond the margin: pushed out within the step (0.05 / 0.05 s
    // = 1 cell/s).
    let agent = walking([5.5, 1.45 - WALL_MARGIN], [0.0, 0.0], 1);
    let v = avoid_one(&[agent], 0, floor, 0.05);
    assert!(v.y >= 1.0 - 1e-4, "{v:?}");
    // A corner: a single blocked cell (3, 3) diagonally ahead.
    let pillar = |c: Cell| c == Cell::new(3, 3);
    let agent = walking([2.5, 2.5], [2.0, 2.0], 1);
    let v = avoid_one(&[agent], 0, pillar, 0.05);
    let gap = (Vector::new(3.0, 3.0) - agent.position).length() - (0.5 - WALL_MARGIN);
    assert!(
        v.dot(Vector::new(1.0, 1.0).normalize_or_zero()) <= gap / 0.5 + 1e-5,
        "{v:?}"
    );
}

#[test]
fn separation_pushes_out_of_walls_and_apart() {
    let agents = [
        walking([5.5, 1.3], [0.0, 0.0], 1),
        walking([6.2, 1.3], [0.0, 0.0], 2),
    ];
    let mut crowd = Crowd::new();
    crowd.index(&agents, &settings());
    let mut out = [Vector::ZERO; 2];
    crowd.separate_with_walls(&agents, 20, |_, c| floor(c), &mut out);
    let (a, b) = (agents[0].position + out[0], agents[1].position + out[1]);
    let off = 1.5 - WALL_MARGIN - 1e-4;
    assert!(a.y >= off && b.y >= off, "{a:?} {b:?}");
    assert!((b - a).length() >= 1.0 - 1e-3, "{a:?} {b:?}");
}

#[test]
fn coincident_agents_split_by_key() {
    let agents = [
        walking([4.0, 4.0], [0.0, 0.0], 9),
        walking([4.0, 4.0], [0.0, 0.0], 3),
    ];
    // The agent with the smaller key (index 1) goes toward −x, the other toward +x.
    let (v0, v1) = (
        avoid_one(&agents, 0, |_| false, 0.1),
        avoid_one(&agents, 1, |_| false, 0.1),
    );
    assert!(v0.x > 0.0 && v1.x < 0.0, "{v0:?} {v1:?}");
    let mut crowd = Crowd::new();
    crowd.index(&agents, &settings());
    let mut out = [Vector::ZERO; 2];
    crowd.separate(&agents, 1, &mut out);
    assert_eq!(out, [Vector::new(0.5, 0.0), Vector::new(-0.5, 0.0)]);
}

#[test]
fn bad_input_gives_zero() {
    let good = walking([1.0, 1.0], [1.0, 0.0], 1);
    let mut nan = good;
    nan.velocity.x = f32::NAN;
    let mut negative = good;
    negative.radius = -1.0;
    for agents in [[nan, good], [negative, good]] {
        assert_eq!(avoid_one(&agents, 0, |_| false, 0.1), Vector::ZERO);
        // The valid one ignores the invalid one.
        assert_eq!(avoid_one(&agents, 1, |_| false, 0.1), Vector::new(1.0, 0.0));
    }
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert_eq!(avoid_one(&[good], 0, |_| false, dt), Vector::ZERO);
    }
    let mut crowd = Crowd::new();
    let bad = AvoidanceSettings {
        time_horizon: 0.0,
        ..settings()
    };
    crowd.index(&[good], &bad);
    assert_eq!(
        crowd.avoid(
            0,
            &[good],
            |_| false,
            &bad,
            0.1,
            &mut AvoidScratch::default()
        ),
        Vector::ZERO
    );
}

#[test]
fn neighbours_match_brute_force_across_negative_coordinates() {
    let mut seed = 5u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    // Sparse, dense (the nearest few pruned early), packed, and dense with a few agents
    // far away (buckets found by binary search instead of a table).
    let cases = [
        (40.0, 6, 0.0),
        (12.0, 10, 0.0),
        (6.0, 3, 0.0),
        (12.0, 10, 1e5),
    ];
    for (extent, max, outliers) in cases {
        let agents: Vec<CrowdAgent> = (0..200)
            .map(|k| {
                let far = if k % 40 == 0 { outliers } else { 0.0 };
                CrowdAgent::new(
                    Vector::new(
                        next() * extent - extent / 2.0 + far,
                        next() * extent - extent / 2.0 - far,
                    ),
                    0.2 + next() * 0.8,
                    1.0,
                    k % 7,
                )
            })
            .collect();
        let settings = AvoidanceSettings {
            max_neighbours: max,
            ..settings()
        };
        let mut crowd = Crowd::new();
        crowd.index(&agents, &settings);
        let mut scratch = AvoidScratch::default();
        for i in 0..agents.len() {
            let mut brute: Vec<(f32, u64, usize)> = (0..agents.len())
                .filter(|&j| j != i)
                .map(|j| {
                    (
                        (agents[j].position - agents[i].position).length_squared(),
                        agents[j].key,
                        j,
                    )
                })
                .filter(|&(d2, _, j)| {
                    let reach = settings.neighbour_distance + agents[i].radius + agents[j].radius;
                    d2 < reach * reach
                })
                .collect();
            brute.sort_by(|a, b| a.partial_cmp(b).unwrap());
            brute.truncate(max);
            let found: Vec<usize> = crowd
                .neighbours(i, &agents, &settings, &mut scratch)
                .collect();
            assert_eq!(
                found,
                brute.iter().map(|b| b.2).collect::<Vec<_>>(),
                "agent {i} of 200 in {extent} cells, {max} neighbours"
            );
        }
    }
}

#[test]
fn a_squeezed_agent_gets_a_bounded_velocity() {
    // The middle agent overlaps both of its neighbours, which walk into it.
    let agents = [
        walking([4.0, 4.0], [2.0, 0.0], 1),
        walking([4.8, 4.0], [0.0, 0.0], 2),
        walking([5.6, 4.0], [-2.0, 0.0], 3),
    ];
    let mut agents = agents;
    agents[0].velocity = Vector::new(2.0, 0.0);
    agents[2].velocity = Vector::new(-2.0, 0.0);
    let v = avoid_one(&agents, 1, |_| false, 0.05);
    assert!(v.is_finite() && v.length() <= 2.0, "{v:?}");
}

#[test]
fn rounding_down_equals_floor_on_every_kind_of_value() {
    use crate::scenario::generate::SplitMix64;
    let mut values = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        -1.5,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        2_147_483_520.0,
        -2_147_483_648.0,
        2_147_483_648.0,
        -2_147_483_904.0,
        1e10,
        -1e10,
        9.3e18,
        -9.3e18,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    let mut rng = SplitMix64::new(11);
    for _ in 0..100_000 {
        values.push(f32::from_bits(rng.next_u64() as u32));
        values.push((rng.next_u64() % 4_000_001) as f32 / 1000.0 - 2000.0);
    }
    for v in values {
        assert_eq!(vector::floor_i32(v), v.floor() as i32, "{v:e}");
        assert_eq!(vector::floor_i64(v), v.floor() as i64, "{v:e}");
    }
}
