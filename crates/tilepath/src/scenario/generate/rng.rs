//! SplitMix64: the small deterministic random generator behind the map generators.

/// A tiny deterministic generator (SplitMix64): 64 bits of state, one add and three
/// xor-shift-multiply rounds per output. Good enough for maps, not for cryptography.
///
/// Every method draws exactly one 64-bit value, except [`SplitMix64::range`] on a range
/// of at most one value, which draws none; so a sequence of calls is reproducible from
/// the seed alone. No method panics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose whole output is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (0 when `n` is 0), by multiply-and-shift of 32 random bits.
    pub fn below(&mut self, n: u32) -> u32 {
        self.below_u64(u64::from(n)) as u32
    }

    /// A value in `0..n` for `n <= 2³²` (0 when `n` is 0): `(r * n) >> 32` for 32 random
    /// bits `r`, which cannot overflow `u64` in that range.
    fn below_u64(&mut self, n: u64) -> u64 {
        debug_assert!(n <= 1 << 32);
        ((self.next_u64() >> 32) * n) >> 32
    }

    /// A value in `lo..=hi`; `lo` without drawing when `hi <= lo` (one value, or an
    /// empty range).
    ///
    /// Any bounds work, including `range(i32::MIN, i32::MAX)`: the span (up to 2³²
    /// values) is computed in `i64`, never in `i32`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        if hi <= lo {
            return lo;
        }
        let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
        let offset = self.below_u64(span) as i64;
        (i64::from(lo) + offset) as i32
    }

    /// True with probability `num / den`, clamped to `[0, 1]`: always false when
    /// `num` is 0, always true when `num >= den > 0`. A `den` of 0 is no chance at all:
    /// `chance(n, 0)` is false for every `n` (a zero denominator is not "more than
    /// certain"). One value is drawn in every case, so the stream after the call does
    /// not depend on the arguments.
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        let r = self.below(den);
        den != 0 && r < num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_stay_in_bounds() {
        let mut rng = SplitMix64::new(42);
        for _ in 0..1000 {
            assert!((3..=5).contains(&rng.range(3, 5)));
            assert!(rng.below(7) < 7);
            assert!((-2..=2).contains(&rng.range(-2, 2)));
        }
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.range(9, 2), 9);
        assert_eq!(rng.range(4, 4), 4);
    }

    #[test]
    fn extreme_bounds_neither_overflow_nor_stick_to_one_end() {
        let mut rng = SplitMix64::new(7);
        let draws: Vec<i32> = (0..200).map(|_| rng.range(i32::MIN, i32::MAX)).collect();
        assert!(draws.iter().any(|&v| v < 0) && draws.iter().any(|&v| v > 0));
        assert_eq!(rng.range(i32::MAX, i32::MAX), i32::MAX);
        assert_eq!(rng.range(i32::MIN, i32::MIN), i32::MIN);
        assert_eq!(rng.range(i32::MAX, i32::MIN), i32::MAX);
        for _ in 0..200 {
            assert!(rng.range(i32::MAX - 1, i32::MAX) >= i32::MAX - 1);
            assert!(rng.range(i32::MIN, i32::MIN + 1) <= i32::MIN + 1);
            assert!(rng.below(u32::MAX) < u32::MAX);
        }
    }

    #[test]
    fn chance_is_clamped_and_a_zero_denominator_is_no_chance() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..200 {
            assert!(!rng.chance(1, 0));
            assert!(!rng.chance(u32::MAX, 0));
            assert!(!rng.chance(0, 0));
            assert!(!rng.chance(0, 5));
            assert!(rng.chance(5, 5));
            assert!(rng.chance(9, 5));
        }
        let hits = (0..10_000).filter(|_| rng.chance(1, 4)).count();
        assert!((2_000..3_000).contains(&hits), "{hits}");
    }

    #[test]
    fn chance_with_a_denominator_keeps_the_stream_of_below() {
        // Generated maps depend on this stream: `chance(num, den)` for `den > 0` is
        // `below(den) < num`, exactly as before the zero-denominator fix.
        let (mut a, mut b) = (SplitMix64::new(21), SplitMix64::new(21));
        for k in 1..500u32 {
            let (num, den) = (k % 7, 1 + k % 13);
            assert_eq!(a.chance(num, den), b.below(den) < num);
        }
        assert_eq!(a, b);
    }

    #[test]
    fn calls_draw_one_value_except_ranges_of_at_most_one_value() {
        let (mut a, mut b) = (SplitMix64::new(11), SplitMix64::new(11));
        a.chance(1, 0);
        a.range(i32::MIN, i32::MAX);
        a.below(0);
        a.range(5, 1);
        a.range(5, 5);
        for _ in 0..3 {
            b.next_u64();
        }
        assert_eq!(a, b);
    }

    #[test]
    fn small_ranges_give_the_same_stream_as_below() {
        let (mut a, mut b) = (SplitMix64::new(5), SplitMix64::new(5));
        for _ in 0..100 {
            assert_eq!(a.range(-3, 9), -3 + b.below(13) as i32);
        }
    }
}
