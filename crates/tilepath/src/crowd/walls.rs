//! Blocked cells near an agent as wall segments: the exposed cell faces, merged along straight walls, and the half-planes and pushes that keep a disc off them.

use super::Vector;
use super::program::HalfPlane;
use super::vector::floor_i64;
use crate::grid::Cell;

/// Walls keep discs this many cells less than their radius away: a disc exactly as wide
/// as a corridor (a unit of diameter `d` in a corridor `d` cells wide) enters it at its
/// speed. Without the margin, the speed a wall half-plane allows toward a corner of the
/// corridor's mouth shrinks with the distance left, and the disc never gets in.
pub const WALL_MARGIN: f32 = 0.05;

/// Walls further than this many cells beyond an agent's radius are not looked at, however
/// fast the agent is (bounds the cells read per agent and step).
pub const MAX_WALL_REACH: f32 = 16.0;

/// Calls `found(nearest, distance)` for every wall segment nearer than `reach` to
/// `centre`, in a fixed order, with the segment's point nearest to `centre` and its
/// distance (positive).
///
/// A wall segment is a maximal straight run of cell faces between a blocked and a free
/// cell inside the window of cells the disc of radius `reach` overlaps, seen from its
/// free side (the centre strictly on the free side of its line). Segments, not single
/// cells, so that a disc sliding along a flat wall sees the wall's line and not the
/// corners of every cell of it. Each segment lies in the closure of the blocked cells, so
/// keeping a disc off every segment keeps it out of the blocked cells; faces on the
/// window's border are at least `reach` away and never reported. `bits` is scratch.
pub(crate) fn for_each_wall(
    centre: Vector,
    reach: f32,
    blocked: &impl Fn(Cell) -> bool,
    bits: &mut Vec<bool>,
    mut found: impl FnMut(Vector, f32),
) {
    if reach.is_nan() || reach <= 0.0 || !centre.is_finite() {
        return;
    }
    let x0 = floor_i64(centre.x - reach);
    let y0 = floor_i64(centre.y - reach);
    let width = floor_i64(centre.x + reach) - x0 + 1;
    let height = floor_i64(centre.y + reach) - y0 + 1;
    let inside = |v: i64| i64::from(i32::MIN) <= v && v <= i64::from(i32::MAX);
    if width < 2 && height < 2
        || !inside(x0)
        || !inside(y0)
        || !inside(x0 + width)
        || !inside(y0 + height)
    {
        return;
    }
    let (w, h) = (width as usize, height as usize);
    bits.clear();
    for y in 0..h {
        for x in 0..w {
            bits.push(blocked(Cell::new(
                (x0 + x as i64) as i32,
                (y0 + y as i64) as i32,
            )));
        }
    }
    let reach_squared = reach * reach;
    let mut report = |nearest: Vector| {
        let distance_squared = (nearest - centre).length_squared();
        if distance_squared < reach_squared {
            found(nearest, distance_squared.sqrt());
        }
    };
    // Faces on vertical lines x = x0 + k between columns k − 1 and k, runs along y.
    for k in 1..w {
        let line = (x0 + k as i64) as f32;
        // Blocked on the right (+1) or the left (−1): the centre must be on the other side.
        let wanted: i8 = if centre.x < line {
            1
        } else if centre.x > line {
            -1
        } else {
            continue;
        };
        let mut run: Option<usize> = None;
        for y in 0..=h {
            let side = if y < h {
                face_side(bits[y * w + k - 1], bits[y * w + k])
            } else {
                0
            };
            match (run, side == wanted) {
                (None, true) => run = Some(y),
                (Some(start), false) => {
                    let low = (y0 + start as i64) as f32;
                    let high = (y0 + y as i64) as f32;
                    report(Vector::new(line, centre.y.clamp(low, high)));
                    run = None;
                }
                _ => {}
            }
        }
    }
    // Faces on horizontal lines y = y0 + k between rows k − 1 and k, runs along x.
    for k in 1..h {
        let line = (y0 + k as i64) as f32;
        let wanted: i8 = if centre.y < line {
            1
        } else if centre.y > line {
            -1
        } else {
            continue;
        };
        let mut run: Option<usize> = None;
        for x in 0..=w {
            let side = if x < w {
                face_side(bits[(k - 1) * w + x], bits[k * w + x])
            } else {
                0
            };
            match (run, side == wanted) {
                (None, true) => run = Some(x),
                (Some(start), false) => {
                    let low = (x0 + start as i64) as f32;
                    let high = (x0 + x as i64) as f32;
                    report(Vector::new(centre.x.clamp(low, high), line));
                    run = None;
                }
                _ => {}
            }
        }
    }
}

/// Which side of the face between cells `before` and `after` (blocked flags) is blocked:
/// 1 for `after` only, −1 for `before` only, 0 when the face is not a wall.
#[inline]
fn face_side(before: bool, after: bool) -> i8 {
    i8::from(after) - i8::from(before)
}

/// The half-plane keeping a disc of `radius` at `centre` off the wall point `nearest`
/// (`distance` away): `v · n <= (distance − radius) / wall_horizon` with `n` the unit
/// vector toward the point, so that the disc does not reach the wall's supporting line
/// within the horizon; a disc already overlapping it must leave within one step,
/// `v · n <= max((distance − radius) / dt, −max_speed)`.
pub(crate) fn wall_half_plane(
    centre: Vector,
    nearest: Vector,
    distance: f32,
    radius: f32,
    max_speed: f32,
    wall_horizon: f32,
    dt: f32,
) -> HalfPlane {
    let normal = (nearest - centre) / distance;
    let offset = if distance >= radius {
        (distance - radius) / wall_horizon
    } else {
        ((distance - radius) / dt).max(-max_speed)
    };
    HalfPlane::at_most(normal, offset)
}
