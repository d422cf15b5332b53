//! ASCII maps: parsing for examples and tests, printing with a path for failure reports.

use super::bitgrid::BitGrid;
use super::{MapError, Scenario, checked_size};
use crate::grid::{Cell, GridSize};

/// True for the characters that mark an obstacle in ASCII and MovingAI maps.
#[inline]
pub fn is_obstacle_char(ch: char) -> bool {
    matches!(ch, '#' | '@' | 'T' | 'W' | 'O')
}

/// Parses rows of characters; blank lines around the map and indentation are ignored.
/// Lines may end with LF, CRLF or a lone CR.
///
/// # Errors
///
/// [`MapError::Empty`] without a non-blank row, [`MapError::RaggedRow`] when a row's
/// length differs from the first row's, [`MapError::TooLarge`] above the size limits
/// (checked before the bits are allocated).
pub(crate) fn parse(text: &str) -> Result<BitGrid, MapError> {
    let rows: Vec<&str> = super::lines::lines(text)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let width = rows.first().map_or(0, |r| r.chars().count());
    for (y, row) in rows.iter().enumerate() {
        let found = row.chars().count();
        if found != width {
            return Err(MapError::RaggedRow {
                row: y,
                expected: width,
                found,
            });
        }
    }
    let size = checked_size(width as u64, rows.len() as u64)?;
    let mut bits = BitGrid::new(size, false);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if is_obstacle_char(ch) {
                bits.set(Cell::new(x as i32, y as i32), true);
            }
        }
    }
    Ok(bits)
}

/// Draws a scenario as text: `#` obstacle, `.` free, `*` path cell, `S`/`G` its ends.
///
/// For failure reports on small maps: one [`Scenario::is_obstacle`] call and about five
/// bytes of memory per cell, O(width × height); path cells off the map are skipped.
pub fn render(scenario: &impl Scenario, path: &[Cell]) -> String {
    let size = scenario.size();
    let mut chars: Vec<Vec<char>> = (0..size.height as i32)
        .map(|y| {
            (0..size.width as i32)
                .map(|x| {
                    if scenario.is_obstacle(Cell::new(x, y)) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let mut mark = |c: Cell, ch: char| {
        if size.contains(c) {
            chars[c.y as usize][c.x as usize] = ch;
        }
    };
    for &c in path {
        mark(c, '*');
    }
    if let (Some(&s), Some(&g)) = (path.first(), path.last()) {
        mark(s, 'S');
        mark(g, 'G');
    }
    let mut out = String::with_capacity(size.area() + size.height as usize);
    for row in chars {
        out.extend(row);
        out.push('\n');
    }
    out
}

/// Any rectangle of text as a scenario (virtual: answered from the text each time).
#[derive(Clone, Debug)]
pub struct AsciiScenario {
    bits: BitGrid,
}

impl AsciiScenario {
    /// Parses the text, see [`crate::scenario::CachedScenario::from_ascii`].
    ///
    /// # Errors
    ///
    /// As [`crate::scenario::CachedScenario::from_ascii`]: [`MapError::Empty`],
    /// [`MapError::RaggedRow`] or [`MapError::TooLarge`].
    pub fn parse(text: &str) -> Result<Self, MapError> {
        parse(text).map(|bits| Self { bits })
    }
}

impl Scenario for AsciiScenario {
    fn size(&self) -> GridSize {
        self.bits.size()
    }

    fn is_obstacle(&self, cell: Cell) -> bool {
        self.bits.get_or(cell, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ragged_rows_are_an_error_not_a_panic() {
        assert_eq!(
            parse("...\n..\n").unwrap_err(),
            MapError::RaggedRow {
                row: 1,
                expected: 3,
                found: 2
            }
        );
        assert_eq!(parse("\n  \n").unwrap_err(), MapError::Empty);
    }

    #[test]
    fn cr_only_crlf_and_lf_endings_read_the_same_map() {
        let lf = parse("..#\n#..\n.#.\n").unwrap();
        assert_eq!(lf.size(), GridSize::new(3, 3));
        for text in [
            "..#\r#..\r.#.\r",
            "..#\r\n#..\r\n.#.\r\n",
            "..#\r#..\r\n.#.",
            "\r\r..#\r#..\r.#.\r\r",
        ] {
            assert_eq!(parse(text).unwrap(), lf, "{text:?}");
        }
    }

    #[test]
    fn render_marks_obstacles_path_and_ends() {
        let s = AsciiScenario::parse("...\n.#.\n").unwrap();
        let path = [Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 1)];
        assert_eq!(render(&s, &path), "S*.\n.#G\n");
    }
}
