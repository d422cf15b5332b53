//! Reader for MovingAI benchmark files: `.map` grids and `.map.scen` problem lists.
//!
//! Handles the quirks of the published files: CRLF line endings, a missing final
//! newline, blank lines, and a map field given as a path (match on its base name).
//! `.`, `G` and `S` are passable; every other character is an obstacle.

use super::bitgrid::BitGrid;
use super::{MapError, Scenario};
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
    /// ```
    /// use tilepath::scenario::movingai::MovingAiMap;
    /// use tilepath::prelude::*;
    /// let m = MovingAiMap::parse("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\nT.G").unwrap();
    /// assert_eq!(m.size(), GridSize::new(3, 2));
    /// assert!(m.is_obstacle(Cell::new(1, 0)) && m.is_obstacle(Cell::new(0, 1)));
    /// assert!(!m.is_obstacle(Cell::new(2, 1)));
    /// ```
    pub fn parse(text: &str) -> Result<Self, MapError> {
        let mut lines = text.lines().map(|l| l.trim_end_matches('\r')).enumerate();
        let (mut width, mut height) = (None, None);
        loop {
            let Some((n, line)) = lines.next() else {
                return Err(MapError::BadHeader {
                    line: 0,
                    reason: "no `map` line",
                });
            };
            let mut parts = line.split_whitespace();
            match (parts.next(), parts.next()) {
                (Some("type"), _) | (None, _) => {}
                (Some("height"), Some(v)) => height = v.parse::<u32>().ok(),
                (Some("width"), Some(v)) => width = v.parse::<u32>().ok(),
                (Some("map"), None) => break,
                _ => {
                    return Err(MapError::BadHeader {
                        line: n + 1,
                        reason: "unknown header line",
                    });
                }
            }
        }
        let (Some(width), Some(height)) = (width, height) else {
            return Err(MapError::BadHeader {
                line: 1,
                reason: "missing or bad width/height",
            });
        };
        if width == 0 || height == 0 {
            return Err(MapError::Empty);
        }
        let mut bits = BitGrid::new(GridSize::new(width, height), false);
        let mut y = 0usize;
        for (_, row) in lines {
            if row.is_empty() {
                continue;
            }
            if y >= height as usize {
                return Err(MapError::BadHeader {
                    line: 0,
                    reason: "more rows than the height",
                });
            }
            let found = row.chars().count();
            if found != width as usize {
                return Err(MapError::RaggedRow {
                    row: y,
                    expected: width as usize,
                    found,
                });
            }
            for (x, ch) in row.chars().enumerate() {
                if !matches!(ch, '.' | 'G' | 'S') {
                    bits.set(Cell::new(x as i32, y as i32), true);
                }
            }
            y += 1;
        }
        if y != height as usize {
            return Err(MapError::BadHeader {
                line: 0,
                reason: "fewer rows than the height",
            });
        }
        Ok(Self { bits })
    }

    /// The obstacle bits.
    pub fn into_bits(self) -> BitGrid {
        self.bits
    }
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
            out.push(if bits.get_unchecked_cell(x, y) {
                '@'
            } else {
                '.'
            });
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

/// Parses a version-1 `.map.scen` file.
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
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
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
                .map_err(|_| bad("bad optimal length"))?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_errors_are_reported_not_panicked() {
        assert!(MovingAiMap::parse("type octile\nheight x\nwidth 2\nmap\n..\n").is_err());
        assert!(MovingAiMap::parse("type octile\nheight 2\nwidth 2\nmap\n..\n").is_err());
        assert!(MovingAiMap::parse("type octile\nheight 1\nwidth 2\nmap\n...\n").is_err());
        assert!(MovingAiMap::parse("").is_err());
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
}
