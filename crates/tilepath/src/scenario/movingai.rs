//! Reader for MovingAI benchmark files: `.map` grids and `.map.scen` problem lists.
//!
//! Handles the quirks of the published files: CRLF (and old-Mac lone CR) line endings,
//! a missing final newline, blank lines, and a map field given as a path (match on its
//! base name).
//! `.`, `G` and `S` are passable; every other character is an obstacle.

use super::bitgrid::BitGrid;
use super::lines::lines;
use super::{MapError, Scenario, checked_size};
use crate::grid::{Cell, GridSize};
use std::fmt;

/// A parsed `.map` file.
#[derive(Clone, Debug)]
pub struct MovingAiMap {
    bits: BitGrid,
}

impl MovingAiMap {
    /// Parses the text of a `.map` file.
    ///
    /// The header is `type`, `height` and `width` lines (any order, blank lines allowed)
    /// ended by a `map` line; then exactly `height` non-blank rows of `width` characters
    /// (blank lines between rows are skipped). Lines may end with LF, CRLF or a lone CR,
    /// and the last one needs no ending. The size is checked, and every row validated,
    /// before the bits are allocated, so a short file announcing a huge map costs
    /// nothing. O(text length).
    ///
    /// # Errors
    ///
    /// - [`MapError::BadHeader`]: an unknown or malformed header line, a `width` or
    ///   `height` that is not a non-negative integer, or no `map` line, `width` or `height`.
    /// - [`MapError::Empty`]: a width or height of 0.
    /// - [`MapError::TooLarge`]: a size above [`MAX_SIDE`](crate::grid::MAX_SIDE) a side
    ///   or [`MAX_CELLS`](crate::grid::MAX_CELLS) cells.
    /// - [`MapError::RaggedRow`]: a row whose length is not the width.
    /// - [`MapError::MissingRows`] / [`MapError::ExtraRow`]: fewer or more rows than the height.
    ///
    /// ```
    /// use tilepath::scenario::movingai::MovingAiMap;
    /// use tilepath::prelude::*;
    /// let m = MovingAiMap::parse("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\nT.G").unwrap();
    /// assert_eq!(m.size(), GridSize::new(3, 2));
    /// assert!(m.is_obstacle(Cell::new(1, 0)) && m.is_obstacle(Cell::new(0, 1)));
    /// assert!(!m.is_obstacle(Cell::new(2, 1)));
    /// ```
    pub fn parse(text: &str) -> Result<Self, MapError> {
        let (size, rows) = map_rows(text)?;
        let mut bits = BitGrid::new(size, false);
        for (y, row) in rows.enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if !matches!(ch, '.' | 'G' | 'S') {
                    bits.set(Cell::new(x as i32, y as i32), true);
                }
            }
        }
        Ok(Self { bits })
    }

    /// The obstacle bits.
    pub fn into_bits(self) -> BitGrid {
        self.bits
    }
}

/// Reads the header of a `.map` file and checks its rows (see [`MovingAiMap::parse`]):
/// the map size and its `height` rows of `width` characters each, in order. Nothing
/// proportional to the announced size is allocated. O(text length).
pub(super) fn map_rows(
    text: &str,
) -> Result<(GridSize, impl Iterator<Item = &str> + Clone), MapError> {
    let mut lines = lines(text).enumerate().map(|(i, l)| (i + 1, l));
    let (mut width, mut height) = (None, None);
    let mut last = 0;
    let map_line = loop {
        let Some((n, line)) = lines.next() else {
            return Err(MapError::BadHeader {
                line: last + 1,
                reason: "no `map` line",
            });
        };
        last = n;
        let mut parts = line.split_whitespace();
        match (parts.next(), parts.next(), parts.next()) {
            (None, _, _) | (Some("type"), Some(_), None) => {}
            (Some("height"), Some(v), None) => height = Some(header_number(v, n, "height")?),
            (Some("width"), Some(v), None) => width = Some(header_number(v, n, "width")?),
            (Some("map"), None, _) => break n,
            _ => {
                return Err(MapError::BadHeader {
                    line: n,
                    reason: "unknown header line",
                });
            }
        }
    };
    let missing = |reason| MapError::BadHeader {
        line: map_line,
        reason,
    };
    let height = height.ok_or(missing("no `height` line before `map`"))?;
    let width = width.ok_or(missing("no `width` line before `map`"))?;
    let size = checked_size(width, height)?;
    let rows = lines.filter(|(_, row)| !row.is_empty());
    let mut found = 0u64;
    for (n, row) in rows.clone() {
        if found == height {
            return Err(MapError::ExtraRow { line: n });
        }
        let cells = row.chars().count();
        if cells as u64 != width {
            return Err(MapError::RaggedRow {
                row: found as usize,
                expected: width as usize,
                found: cells,
            });
        }
        found += 1;
    }
    if found < height {
        return Err(MapError::MissingRows {
            expected: height,
            found,
        });
    }
    Ok((size, rows.map(|(_, row)| row)))
}

/// The value of a `width` or `height` header line (`what`) on line `line`.
fn header_number(value: &str, line: usize, what: &'static str) -> Result<u64, MapError> {
    value.parse::<u64>().map_err(|_| MapError::BadHeader {
        line,
        reason: if what == "width" {
            "width is not a non-negative integer"
        } else {
            "height is not a non-negative integer"
        },
    })
}

impl Scenario for MovingAiMap {
    fn size(&self) -> GridSize {
        self.bits.size()
    }

    fn is_obstacle(&self, cell: Cell) -> bool {
        self.bits.get_or(cell, true)
    }
}

/// Writes `bits` as the text of a MovingAI `.map` file: `type octile`, the height and
/// width, `map`, then one row per line with `@` for obstacles and `.` for free cells.
/// [`MovingAiMap::parse`] reads it back to the same bits.
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::scenario::movingai::to_movingai;
/// let map = CachedScenario::from_ascii("..#\n#..").unwrap();
/// assert_eq!(
///     to_movingai(map.obstacles()),
///     "type octile\nheight 2\nwidth 3\nmap\n..@\n@..\n"
/// );
/// ```
pub fn to_movingai(bits: &BitGrid) -> String {
    let size = bits.size();
    let mut out = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        size.height, size.width
    );
    out.reserve((size.width as usize + 1) * size.height as usize);
    for y in 0..size.height {
        for x in 0..size.width {
            out.push(if bits.bit_unchecked(x, y) { '@' } else { '.' });
        }
        out.push('\n');
    }
    out
}

/// One problem of a `.map.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// floor(optimal / 4) in the published files.
    pub bucket: u32,
    /// Base name of the map file (`arena.map`), path stripped.
    pub map: String,
    /// Map size the problem was made for.
    pub size: GridSize,
    /// Start cell.
    pub start: Cell,
    /// Goal cell.
    pub goal: Cell,
    /// Optimal octile length (√2 diagonals, no corner cutting), rounded in the file.
    pub optimal: f64,
}

/// A malformed scenario line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenError {
    /// One-based line number.
    pub line: usize,
    /// What was wrong.
    pub reason: &'static str,
}

impl fmt::Display for ScenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "scenario line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ScenError {}

/// Parses a version-1 `.map.scen` file: an optional `version` first line, then one
/// problem per non-blank line of 9 tab-separated fields (see [`Problem`]). Lines may
/// end with LF, CRLF or a lone CR. O(text length).
///
/// # Errors
///
/// [`ScenError`] for the first bad line: not 9 fields, an integer field that does not
/// fit (`i32` for cells, `u32` for the bucket and the size), or an optimal length that
/// is not a finite, non-negative number (`NaN`, `inf` and `-1` are rejected).
///
/// ```
/// use tilepath::scenario::movingai::parse_scen;
/// let p = parse_scen("version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n\n").unwrap();
/// assert_eq!(p.len(), 1);
/// assert_eq!(p[0].map, "arena.map");
/// assert_eq!(p[0].optimal, 1.0);
/// ```
pub fn parse_scen(text: &str) -> Result<Vec<Problem>, ScenError> {
    let mut out = Vec::new();
    for (n, line) in lines(text).enumerate() {
        if line.trim().is_empty() || (n == 0 && line.starts_with("version")) {
            continue;
        }
        let bad = |reason| ScenError {
            line: n + 1,
            reason,
        };
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 9 {
            return Err(bad("expected 9 tab-separated fields"));
        }
        let int = |s: &str| {
            s.trim()
                .parse::<i32>()
                .map_err(|_| bad("bad integer field"))
        };
        let uint = |s: &str| s.trim().parse::<u32>().map_err(|_| bad("bad size field"));
        let map = f[1].rsplit(['/', '\\']).next().unwrap_or(f[1]).to_string();
        out.push(Problem {
            bucket: uint(f[0])?,
            map,
            size: GridSize::new(uint(f[2])?, uint(f[3])?),
            start: Cell::new(int(f[4])?, int(f[5])?),
            goal: Cell::new(int(f[6])?, int(f[7])?),
            optimal: f[8]
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or(bad("bad optimal length"))?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_errors_are_typed_not_panicked() {
        let bad = |text: &str| MovingAiMap::parse(text).unwrap_err();
        assert_eq!(
            bad("type octile\nheight x\nwidth 2\nmap\n..\n"),
            MapError::BadHeader {
                line: 2,
                reason: "height is not a non-negative integer"
            }
        );
        assert_eq!(
            bad("type octile\nheight 2\nwidth -3\nmap\n..\n"),
            MapError::BadHeader {
                line: 3,
                reason: "width is not a non-negative integer"
            }
        );
        assert_eq!(
            bad("type octile\nheight 2\nmap\n..\n..\n"),
            MapError::BadHeader {
                line: 3,
                reason: "no `width` line before `map`"
            }
        );
        assert_eq!(
            bad("type octile\nheight 2\nwidth 2\n"),
            MapError::BadHeader {
                line: 4,
                reason: "no `map` line"
            }
        );
        assert_eq!(
            bad("junk here\nheight 2\nwidth 2\nmap\n..\n..\n"),
            MapError::BadHeader {
                line: 1,
                reason: "unknown header line"
            }
        );
        assert!(matches!(bad(""), MapError::BadHeader { line: 1, .. }));
        assert_eq!(
            bad("type octile\nheight 3\nwidth 0\nmap\n"),
            MapError::Empty
        );
    }

    #[test]
    fn row_count_and_length_errors_are_typed() {
        let bad = |text: &str| MovingAiMap::parse(text).unwrap_err();
        assert_eq!(
            bad("type octile\nheight 3\nwidth 2\nmap\n..\n\n..\n"),
            MapError::MissingRows {
                expected: 3,
                found: 2
            }
        );
        assert_eq!(
            bad("type octile\nheight 1\nwidth 2\nmap\n..\n..\n"),
            MapError::ExtraRow { line: 6 }
        );
        assert_eq!(
            bad("type octile\nheight 2\nwidth 2\nmap\n..\n...\n"),
            MapError::RaggedRow {
                row: 1,
                expected: 2,
                found: 3
            }
        );
    }

    #[test]
    fn an_oversized_header_is_too_large_before_any_allocation() {
        let text = "type octile\nheight 4000000000\nwidth 4000000000\nmap\n....\n";
        assert_eq!(
            MovingAiMap::parse(text).unwrap_err(),
            MapError::TooLarge {
                width: 4_000_000_000,
                height: 4_000_000_000
            }
        );
        let beyond_u32 = "type octile\nheight 2\nwidth 99999999999\nmap\n";
        assert!(matches!(
            MovingAiMap::parse(beyond_u32).unwrap_err(),
            MapError::TooLarge {
                width: 99_999_999_999,
                ..
            }
        ));
        // Within the limits but far longer than the text: rejected by the row count,
        // before the 2^31-cell bit grid would be allocated.
        let claims_a_lot = "type octile\nheight 32768\nwidth 65536\nmap\n....\n";
        assert_eq!(
            MovingAiMap::parse(claims_a_lot).unwrap_err(),
            MapError::RaggedRow {
                row: 0,
                expected: 65536,
                found: 4
            }
        );
    }

    #[test]
    fn crlf_lone_cr_and_lf_files_read_the_same_map() {
        let lf = "type octile\nheight 2\nwidth 3\nmap\n.@.\nT.G\n";
        let expected = MovingAiMap::parse(lf).unwrap().into_bits();
        for text in [
            lf.replace('\n', "\r\n"),
            lf.replace('\n', "\r"),
            lf.trim_end().replace('\n', "\r\n"),
        ] {
            assert_eq!(
                MovingAiMap::parse(&text).unwrap().into_bits(),
                expected,
                "{text:?}"
            );
        }
    }

    #[test]
    fn written_maps_parse_back_to_the_same_bits() {
        let mut bits = BitGrid::new(GridSize::new(70, 5), false);
        for (x, y) in [(0, 0), (69, 4), (64, 2), (63, 2), (10, 3)] {
            bits.set(Cell::new(x, y), true);
        }
        let text = to_movingai(&bits);
        assert_eq!(MovingAiMap::parse(&text).unwrap().into_bits(), bits);
        let generated = crate::scenario::generate::rooms(GridSize::new(40, 33), 11);
        let back = MovingAiMap::parse(&to_movingai(&generated)).unwrap();
        assert_eq!(back.into_bits(), generated);
    }

    #[test]
    fn scen_lines_with_wrong_field_counts_are_errors() {
        let e = parse_scen("version 1\n0\ta.map\t1\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn negative_and_non_finite_optimal_lengths_are_errors() {
        for optimal in ["-1.5", "NaN", "inf", "-inf", "-0.001"] {
            let text = format!("version 1\n0\ta.map\t9\t9\t1\t1\t2\t2\t{optimal}\n");
            assert_eq!(
                parse_scen(&text),
                Err(ScenError {
                    line: 2,
                    reason: "bad optimal length"
                }),
                "{optimal}"
            );
        }
        let zero = parse_scen("0\ta.map\t9\t9\t1\t1\t1\t1\t0\n").unwrap();
        assert_eq!(zero[0].optimal, 0.0);
    }
}
