//! The six steps between neighbouring hexagons in axial coordinates.

pub use crate::shape::{Hex, HexLayout};

impl Hex {
    /// The neighbour in direction `d` (coordinates wrap at the `i32` range; no map is
    /// that large).
    #[inline]
    pub const fn neighbour(self, d: HexDirection) -> Self {
        let (dq, dr) = d.offset();
        Self::new(self.q.wrapping_add(dq), self.r.wrapping_add(dr))
    }
}

/// One of the six steps between neighbouring hexagons, in bevy_ecs_tilemap's order
/// (`HEX_OFFSETS`): counter-clockwise from `+q`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexDirection {
    /// `(+1, 0)`.
    Q,
    /// `(0, +1)`.
    R,
    /// `(-1, +1)`.
    RMinusQ,
    /// `(-1, 0)`.
    MinusQ,
    /// `(0, -1)`.
    MinusR,
    /// `(+1, -1)`.
    QMinusR,
}

impl HexDirection {
    /// Every direction, counter-clockwise from `+q`.
    pub const ALL: [HexDirection; 6] = [
        HexDirection::Q,
        HexDirection::R,
        HexDirection::RMinusQ,
        HexDirection::MinusQ,
        HexDirection::MinusR,
        HexDirection::QMinusR,
    ];

    /// The step `(dq, dr)`.
    #[inline]
    pub const fn offset(self) -> (i32, i32) {
        match self {
            HexDirection::Q => (1, 0),
            HexDirection::R => (0, 1),
            HexDirection::RMinusQ => (-1, 1),
            HexDirection::MinusQ => (-1, 0),
            HexDirection::MinusR => (0, -1),
            HexDirection::QMinusR => (1, -1),
        }
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> HexDirection {
        HexDirection::ALL[(self as usize + 3) % 6]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_one_step_apart() {
        for d in HexDirection::ALL {
            let h = Hex::new(3, -2);
            assert_eq!(h.neighbour(d).distance(h), 1);
            assert_eq!(h.neighbour(d).neighbour(d.opposite()), h);
        }
    }
}
