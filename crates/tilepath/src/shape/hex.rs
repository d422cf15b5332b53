//! Hexagonal cells: axial coordinates, distances, and the six tile layouts of hexagonal maps.

use crate::grid::{Cell, Direction};

/// A hexagonal cell in axial coordinates `(q, r)`: the third cube coordinate is
/// `s = -q - r`. Maps store hexagons by their tile position ([`HexLayout`]); searches
/// convert to axial coordinates to measure distances.
///
/// ```
/// use tilepath::shape::Hex;
///
/// let a = Hex::new(0, 0);
/// assert_eq!(a.distance(Hex::new(2, -1)), 2);
/// assert_eq!(a.distance(Hex::new(2, 1)), 3);
/// ```
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// use tilepath::shape::Hex;
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

/// How a rectangle of `(column, row)` tile positions lies on the hexagons: the six
/// coordinate systems of bevy_ecs_tilemap's hexagonal maps, converted the way its
/// `AxialPos` conversions do (`y` up).
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// use tilepath::shape::{Hex, HexLayout};
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

    /// The number of steps between the tiles `(column, row)` `a` and `b`: the distance
    /// of their hexagons, computed in `i64` so that any two tiles of the `i32` range
    /// have one (at most `u32::MAX`). O(1).
    pub const fn steps(self, a: (i32, i32), b: (i32, i32)) -> u32 {
        let (aq, ar) = self.axial(a.0 as i64, a.1 as i64);
        let (bq, br) = self.axial(b.0 as i64, b.1 as i64);
        let (dq, dr) = (aq - bq, ar - br);
        let d = (dq.abs() + dr.abs() + (dq + dr).abs()) / 2;
        if d > u32::MAX as i64 {
            u32::MAX
        } else {
            d as u32
        }
    }

    /// [`HexLayout::hex`] in `i64`, as `(q, r)`: no overflow.
    const fn axial(self, column: i64, row: i64) -> (i64, i64) {
        const fn ceil(v: i64) -> i64 {
            v.div_euclid(2) + v.rem_euclid(2)
        }
        match self {
            HexLayout::Row | HexLayout::Column => (column, row),
            HexLayout::RowEven => (column - ceil(row), row),
            HexLayout::RowOdd => (column - row.div_euclid(2), row),
            HexLayout::ColumnEven => (column, row - ceil(column)),
            HexLayout::ColumnOdd => (column, row - column.div_euclid(2)),
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

    /// The moves to the six neighbours of the tile `cell`, as a mask over
    /// [`Direction::ALL`] indices: which six of the eight king moves depends on the
    /// parity of the cell's row (offset rows) or column (offset columns). O(1).
    #[inline]
    pub const fn moves(self, cell: Cell) -> u8 {
        MOVES[self as usize][((cell.y & 1) << 1 | (cell.x & 1)) as usize]
    }
}

/// [`HexLayout::moves`] per layout and per `(row parity, column parity)`.
static MOVES: [[u8; 4]; 6] = moves_table();

const fn moves_table() -> [[u8; 4]; 6] {
    const STEPS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
    let mut table = [[0u8; 4]; 6];
    let mut l = 0;
    while l < 6 {
        let layout = HexLayout::ALL[l];
        let mut parity = 0;
        while parity < 4 {
            let (x, y) = ((parity & 1) as i32, (parity >> 1) as i32);
            let hex = layout.hex(x, y);
            let mut k = 0;
            while k < 6 {
                let n = Hex::new(hex.q + STEPS[k].0, hex.r + STEPS[k].1);
                let (nx, ny) = layout.position(n);
                if let Some(d) = Direction::from_delta(nx - x, ny - y) {
                    table[l][parity] |= 1 << d as u8;
                }
                k += 1;
            }
            parity += 1;
        }
        l += 1;
    }
    table
}

/// `ceil(v / 2)`, also for negative `v` and `i32::MIN`.
const fn ceil_half(v: i32) -> i32 {
    v.div_euclid(2) + v.rem_euclid(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_convert_both_ways() {
        for layout in HexLayout::ALL {
            for column in -5..6 {
                for row in -5..6 {
                    let hex = layout.hex(column, row);
                    assert_eq!(layout.position(hex), (column, row), "{layout:?}");
                }
            }
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

    #[test]
    fn ceil_half_does_not_overflow_at_the_i32_range() {
        assert_eq!(ceil_half(i32::MIN), i32::MIN / 2);
        assert_eq!(ceil_half(i32::MAX), i32::MAX / 2 + 1);
        assert_eq!(ceil_half(-3), -1);
    }
}
