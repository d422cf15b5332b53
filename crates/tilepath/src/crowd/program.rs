//! The 2-D linear programs of ORCA: the velocity nearest a target inside a speed disc and a set of half-planes, and the 3-D fallback that minimises the largest violation.

use super::Vector;

/// Below this, two half-plane boundaries count as parallel.
const PARALLEL: f32 = 0.00001;

/// A half-plane of velocities: those on the left of the directed line through `point`
/// along `direction` (a unit vector), i.e. `direction.cross(v - point) >= 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HalfPlane {
    /// A point on the boundary.
    pub point: Vector,
    /// The boundary's unit direction; allowed velocities are on its left.
    pub direction: Vector,
}

impl HalfPlane {
    /// The half-plane `v · normal <= offset`, `normal` a unit vector.
    #[inline]
    pub fn at_most(normal: Vector, offset: f32) -> Self {
        Self {
            point: normal * offset,
            direction: Vector::new(-normal.y, normal.x),
        }
    }

    /// How far `v` lies outside the half-plane (negative inside).
    #[inline]
    fn violation(&self, v: Vector) -> f32 {
        self.direction.cross(self.point - v)
    }
}

/// What the program optimises: the velocity nearest a point, or the furthest along a
/// unit direction.
#[derive(Clone, Copy)]
enum Target {
    Nearest(Vector),
    Furthest(Vector),
}

/// The best velocity on the boundary of `planes[index]` that satisfies `planes[..index]`
/// and lies within `radius` of the origin, or `None` when there is none.
fn along_boundary(
    planes: &[HalfPlane],
    index: usize,
    radius: f32,
    target: Target,
) -> Option<Vector> {
    let line = planes[index];
    let along = line.point.dot(line.direction);
    let discriminant = along * along + radius * radius - line.point.dot(line.point);
    if discriminant < 0.0 {
        // The boundary misses the speed disc.
        return None;
    }
    let root = discriminant.sqrt();
    let mut low = -along - root;
    let mut high = -along + root;
    for other in &planes[..index] {
        let denominator = line.direction.cross(other.direction);
        let numerator = other.direction.cross(line.point - other.point);
        if denominator.abs() <= PARALLEL {
            // Parallel boundaries: either `other` holds all along `line` or nowhere.
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            high = high.min(t);
        } else {
            low = low.max(t);
        }
        if low > high {
            return None;
        }
    }
    let t = match target {
        Target::Furthest(direction) => {
            if direction.dot(line.direction) > 0.0 {
                high
            } else {
                low
            }
        }
        Target::Nearest(point) => line.direction.dot(point - line.point).clamp(low, high),
    };
    Some(line.point + line.direction * t)
}

/// Solves the 2-D program: `Ok(best)`, or `Err((index, partial))` with the first
/// half-plane that cannot be met together with those before it and the best velocity
/// for those before it.
fn solve_2d(planes: &[HalfPlane], radius: f32, target: Target) -> Result<Vector, (usize, Vector)> {
    let mut best = match target {
        Target::Furthest(direction) => direction * radius,
        Target::Nearest(point) if point.length_squared() > radius * radius => {
            point * (1.0 / point.length()) * radius
        }
        Target::Nearest(point) => point,
    };
    for index in 0..planes.len() {
        let plane = planes[index];
        if plane.direction.cross(best - plane.point) > 0.0 {
            continue;
        }
        match along_boundary(planes, index, radius, target) {
            Some(v) => best = v,
            None => return Err((index, best)),
        }
    }
    Ok(best)
}

/// The 3-D fallback: starting from the partial solution of the 2-D program that failed at
/// `failed`, the velocity in the speed disc that minimises the largest violation of the
/// soft half-planes `planes[hard..]` while meeting the hard ones `planes[..hard]`
/// (`hard <= failed`). `projected` is scratch.
fn solve_3d(
    planes: &[HalfPlane],
    hard: usize,
    failed: usize,
    partial: Vector,
    radius: f32,
    projected: &mut Vec<HalfPlane>,
) -> Vector {
    let mut depth = 0.0f32;
    let mut best = partial;
    for index in failed..planes.len() {
        let plane = planes[index];
        if plane.violation(best) <= depth {
            continue;
        }
        // Velocities violating `plane` no more than the earlier soft planes: the
        // bisectors between `plane` and each of them.
        projected.clear();
        projected.extend_from_slice(&planes[..hard]);
        for earlier in &planes[hard..index] {
            let denominator = plane.direction.cross(earlier.direction);
            let point = if denominator.abs() <= PARALLEL {
                if plane.direction.dot(earlier.direction) > 0.0 {
                    // Same direction: no extra condition.
                    continue;
                }
                (plane.point + earlier.point) * 0.5
            } else {
                let t = earlier.direction.cross(plane.point - earlier.point) / denominator;
                plane.point + plane.direction * t
            };
            projected.push(HalfPlane {
                point,
                direction: (earlier.direction - plane.direction).normalize_or_zero(),
            });
        }
        if let Ok(v) = solve_2d(projected, radius, Target::Furthest(plane.direction.perp())) {
            best = v;
            depth = plane.violation(best);
        }
    }
    best
}

/// The incremental programs of the ORCA paper (van den Berg et al. 2011, after Seidel's
/// randomised linear program, here in the fixed order of the half-planes):
/// the velocity nearest `preferred` within `radius` of the origin that satisfies every
/// half-plane; when there is none, the one that meets the hard half-planes
/// `planes[..hard]` and violates the soft ones least (the 3-D program). When the hard
/// ones alone cannot be met, all are treated as soft. `projected` is scratch.
pub(crate) fn solve(
    planes: &[HalfPlane],
    hard: usize,
    radius: f32,
    preferred: Vector,
    projected: &mut Vec<HalfPlane>,
) -> Vector {
    match solve_2d(planes, radius, Target::Nearest(preferred)) {
        Ok(v) => v,
        Err((failed, partial)) if failed >= hard => {
            solve_3d(planes, hard, failed, partial, radius, projected)
        }
        Err((failed, partial)) => solve_3d(planes, 0, failed, partial, radius, projected),
    }
}
