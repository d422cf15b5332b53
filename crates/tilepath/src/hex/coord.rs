//! Hexagonal cells in axial coordinates, their six neighbours, distances and offset layouts.

/// A hexagonal cell in axial coordinates `(q, r)`: the third cube coordinate is
/// `s = -q - r`. Neighbours differ by one of the six [`HexDirection`]s.
///
/// ```
/// use tilepath::hex::{Hex, HexDirection};
///
/// let a = Hex::new(0, 0);
/// assert_eq!(a.neighbour(HexDirection::Q), Hex::new(1, 0));
/// assert_eq!(a.distance(Hex::new(2, -1)), 2);
/// assert_eq!(a.distance(Hex::new(2, 1)), 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    /// The axial column.
    pub q: i32,
    /// The axial row.
    pub r: i32,
}

impl Hex {
    /// The cell `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Self {
        Self { q, r }
    }

    /// The neighbour in direction `d` (coordinates wrap at the `i32` range; no map is
    /// that large).
    #[inline]
    pub const fn neighbour(self, d: HexDirection) -> Self {
        let (dq, dr) = d.offset();
        Self::new(self.q.wrapping_add(dq), self.r.wrapping_add(dr))
    }

    /// The number of steps between two cells on an open map: `(|dq| + |dr| + |dq + dr|) / 2`.
    #[inline]
    pub const fn distance(self, other: Hex) -> u32 {
        let dq = self.q as i64 - other.q as i64;
        let dr = self.r as i64 - other.r as i64;
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u32
    }

    /// The cells within `radius` steps of this one (an agent's footprint of that
    /// radius), nearest first: ring by ring, within a ring by `r`, then `q`. Radii
    /// beyond `i32::MAX / 4` are cut to it.
    ///
    /// Complexity: `O(radius²)` for the `3 radius (radius + 1) + 1` cells.
    ///
    /// ```
    /// use tilepath::hex::Hex;
    ///
    /// let centre = Hex::new(3, -2);
    /// let disc: Vec<Hex> = centre.within(2).collect();
    /// assert_eq!(disc.len(), 19);
    /// assert_eq!(disc[0], centre);
    /// assert!(disc.windows(2).all(|w| w[0].distance(centre) <= w[1].distance(centre)));
    /// assert!(disc.iter().all(|h| h.distance(centre) <= 2));
    /// for k in 0..6 {
    ///     let ring: Vec<Hex> = centre.within(k).filter(|h| h.distance(centre) == k).collect();
    ///     assert_eq!(ring.len(), if k == 0 { 1 } else { 6 * k as usize });
    ///     let mut unique = ring.clone();
    ///     unique.sort();
    ///     unique.dedup();
    ///     assert_eq!(unique.len(), ring.len());
    /// }
    /// ```
    pub fn within(self, radius: u32) -> impl Iterator<Item = Hex> {
        let radius = i32::try_from(radius).unwrap_or(i32::MAX).min(i32::MAX / 4);
        (0..=radius).flat_map(move |k| self.ring(k))
    }

    /// The cells exactly `k` steps from this one, by `r`, then `q`.
    fn ring(self, k: i32) -> impl Iterator<Item = Hex> {
        (-k..=k).flat_map(move |dr| {
            // At row offset `dr` the ring spans `dq` from `lo` to `hi`; inner rows hold
            // only those two ends, the first and last rows the whole span.
            let (lo, hi) = ((-k).max(-dr - k), k.min(-dr + k));
            let step = if dr.abs() == k { 1 } else { hi - lo };
            (lo..=hi)
                .step_by(step as usize)
                .map(move |dq| Hex::new(self.q + dq, self.r + dr))
        })
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

/// How a rectangle of `(column, row)` tile positions lies on the hexagons: the six
/// coordinate systems of bevy_ecs_tilemap's hexagonal maps, converted the way its
/// `AxialPos` conversions do (`y` up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexLayout {
    /// Axial, pointy-top rows: `(column, row)` is `(q, r)`.
    Row,
    /// Offset rows, even rows shifted: `q = column - ceil(row / 2)`.
    RowEven,
    /// Offset rows, odd rows shifted: `q = column - floor(row / 2)`.
    RowOdd,
    /// Axial, flat-top columns: `(column, row)` is `(q, r)`.
    Column,
    /// Offset columns, even columns shifted: `r = row - ceil(column / 2)`.
    ColumnEven,
    /// Offset columns, odd columns shifted: `r = row - floor(column / 2)`.
    ColumnOdd,
}

impl HexLayout {
    /// Every layout.
    pub const ALL: [HexLayout; 6] = [
        HexLayout::Row,
        HexLayout::RowEven,
        HexLayout::RowOdd,
        HexLayout::Column,
        HexLayout::ColumnEven,
        HexLayout::ColumnOdd,
    ];

    /// The hexagon of the tile position `(column, row)`.
    ///
    /// ```
    /// use tilepath::hex::{Hex, HexLayout};
    ///
    /// assert_eq!(HexLayout::RowOdd.hex(3, 5), Hex::new(1, 5));
    /// assert_eq!(HexLayout::RowOdd.position(Hex::new(1, 5)), (3, 5));
    /// ```
    pub const fn hex(self, column: i32, row: i32) -> Hex {
        match self {
            HexLayout::Row | HexLayout::Column => Hex::new(column, row),
            HexLayout::RowEven => Hex::new(column - ceil_half(row), row),
            HexLayout::RowOdd => Hex::new(column - row.div_euclid(2), row),
            HexLayout::ColumnEven => Hex::new(column, row - ceil_half(column)),
            HexLayout::ColumnOdd => Hex::new(column, row - column.div_euclid(2)),
        }
    }

    /// The tile position `(column, row)` of `hex`: the inverse of [`HexLayout::hex`].
    pub const fn position(self, hex: Hex) -> (i32, i32) {
        match self {
            HexLayout::Row | HexLayout::Column => (hex.q, hex.r),
            HexLayout::RowEven => (hex.q + ceil_half(hex.r), hex.r),
            HexLayout::RowOdd => (hex.q + hex.r.div_euclid(2), hex.r),
            HexLayout::ColumnEven => (hex.q, hex.r + ceil_half(hex.q)),
            HexLayout::ColumnOdd => (hex.q, hex.r + hex.q.div_euclid(2)),
        }
    }
}

/// `ceil(v / 2)`, also for negative `v`.
const fn ceil_half(v: i32) -> i32 {
    -((-v).div_euclid(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_convert_both_ways_and_keep_neighbours_one_step_apart() {
        for layout in HexLayout::ALL {
            for column in -5..6 {
                for row in -5..6 {
                    let hex = layout.hex(column, row);
                    assert_eq!(layout.position(hex), (column, row), "{layout:?}");
                }
            }
        }
        for d in HexDirection::ALL {
            let h = Hex::new(3, -2);
            assert_eq!(h.neighbour(d).distance(h), 1);
            assert_eq!(h.neighbour(d).neighbour(d.opposite()), h);
        }
    }

    #[test]
    fn offset_rows_shift_the_way_bevy_ecs_tilemap_does() {
        // Odd rows: (q - r / 2, r); even rows: (q - ceil(r / 2), r).
        assert_eq!(HexLayout::RowOdd.hex(0, 1), Hex::new(0, 1));
        assert_eq!(HexLayout::RowOdd.hex(0, 3), Hex::new(-1, 3));
        assert_eq!(HexLayout::RowEven.hex(0, 1), Hex::new(-1, 1));
        assert_eq!(HexLayout::ColumnOdd.hex(3, 0), Hex::new(3, -1));
        assert_eq!(HexLayout::ColumnEven.hex(3, 0), Hex::new(3, -2));
    }
}
