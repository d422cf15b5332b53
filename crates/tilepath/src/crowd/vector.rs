//! The 2-D `f32` vector of the crowd module: positions in cells, velocities in cells per second.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

use crate::grid::Cell;

/// A 2-D vector of `f32`: a position or offset in cells, or a velocity in cells per
/// second. Cell `(x, y)` covers the square `[x, x + 1) × [y, y + 1)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vector {
    /// The first coordinate (columns).
    pub x: f32,
    /// The second coordinate (rows).
    pub y: f32,
}

impl Vector {
    /// The zero vector.
    pub const ZERO: Self = Self::new(0.0, 0.0);

    /// Makes a vector from its coordinates.
    #[inline]
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    /// The cell that holds the point (coordinates rounded down, saturating at the `i32`
    /// range).
    #[inline]
    pub fn cell(self) -> Cell {
        Cell::new(floor_i32(self.x), floor_i32(self.y))
    }

    /// The dot product `x·x' + y·y'`.
    #[inline]
    pub fn dot(self, other: Self) -> f32 {
        self.x * other.x + self.y * other.y
    }

    /// The 2-D cross product (determinant) `x·y' − y·x'`: positive when `other` lies
    /// counter-clockwise of `self`.
    #[inline]
    pub fn cross(self, other: Self) -> f32 {
        self.x * other.y - self.y * other.x
    }

    /// The vector turned a quarter counter-clockwise, `(−y, x)`.
    #[inline]
    pub fn perp(self) -> Self {
        Self::new(-self.y, self.x)
    }

    /// The Euclidean length.
    #[inline]
    pub fn length(self) -> f32 {
        self.length_squared().sqrt()
    }

    /// The squared length (no square root).
    #[inline]
    pub fn length_squared(self) -> f32 {
        self.dot(self)
    }

    /// The vector scaled to length 1, or [`Vector::ZERO`] when its length is zero or
    /// not finite.
    #[inline]
    pub fn normalize_or_zero(self) -> Self {
        let recip = 1.0 / self.length();
        if recip.is_finite() && recip > 0.0 {
            self * recip
        } else {
            Self::ZERO
        }
    }

    /// The vector shortened to length `max` when it is longer (direction kept).
    #[inline]
    pub fn clamp_length_max(self, max: f32) -> Self {
        let length_squared = self.length_squared();
        if length_squared > max * max {
            self * (max / length_squared.sqrt())
        } else {
            self
        }
    }

    /// True when both coordinates are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Add for Vector {
    type Output = Self;
    #[inline]
    fn add(self, other: Self) -> Self {
        Self::new(self.x + other.x, self.y + other.y)
    }
}

impl Sub for Vector {
    type Output = Self;
    #[inline]
    fn sub(self, other: Self) -> Self {
        Self::new(self.x - other.x, self.y - other.y)
    }
}

impl Mul<f32> for Vector {
    type Output = Self;
    #[inline]
    fn mul(self, factor: f32) -> Self {
        Self::new(self.x * factor, self.y * factor)
    }
}

impl Div<f32> for Vector {
    type Output = Self;
    #[inline]
    fn div(self, divisor: f32) -> Self {
        Self::new(self.x / divisor, self.y / divisor)
    }
}

impl Neg for Vector {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y)
    }
}

impl AddAssign for Vector {
    #[inline]
    fn add_assign(&mut self, other: Self) {
        *self = *self + other;
    }
}

impl SubAssign for Vector {
    #[inline]
    fn sub_assign(&mut self, other: Self) {
        *self = *self - other;
    }
}

impl From<[f32; 2]> for Vector {
    #[inline]
    fn from([x, y]: [f32; 2]) -> Self {
        Self::new(x, y)
    }
}

impl From<Vector> for [f32; 2] {
    #[inline]
    fn from(v: Vector) -> Self {
        [v.x, v.y]
    }
}

/// `v.floor() as i32`, equal for every `f32` (saturating, NaN gives 0), without the call
/// to the C library's `floorf` that the baseline x86-64 target makes for `f32::floor`:
/// the crowd rounds coordinates down a few times per agent and neighbour.
#[inline]
pub(crate) fn floor_i32(v: f32) -> i32 {
    let t = v as i32;
    t.saturating_sub(i32::from(t as f32 > v))
}

/// `v.floor() as i64`, as [`floor_i32`].
#[inline]
pub(crate) fn floor_i64(v: f32) -> i64 {
    let t = v as i64;
    t.saturating_sub(i64::from(t as f32 > v))
}
