//! Why a map could not be built, and the size check every map constructor runs first.

use crate::grid::{GridSize, MAX_CELLS, MAX_SIDE};
use std::fmt;

/// Why a map could not be built.
///
/// Every reader and constructor reports bad input with one of these instead of
/// panicking; sizes are checked before anything proportional to them is allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapError {
    /// The map has no cells: a width or height of 0, or a text without a non-blank row.
    Empty,
    /// The map is larger than the crate supports: a side above
    /// [`MAX_SIDE`](crate::grid::MAX_SIDE) or more than
    /// [`MAX_CELLS`](crate::grid::MAX_CELLS) cells. Found before any allocation.
    TooLarge {
        /// Requested width (as read, so a header value above `u32::MAX` is kept exact).
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A row of a text map has a different length (in characters) from the first row,
    /// or, in a MovingAI file, from the header's width.
    RaggedRow {
        /// Zero-based row index among the map's rows.
        row: usize,
        /// Expected number of cells.
        expected: usize,
        /// Number of cells in this row.
        found: usize,
    },
    /// A MovingAI header line is malformed, unknown, or a required line is missing.
    BadHeader {
        /// One-based line number (for a missing `map` line: one past the last line).
        line: usize,
        /// What was wrong.
        reason: &'static str,
    },
    /// A MovingAI file ends before the number of rows its header announces.
    MissingRows {
        /// Rows announced by the header's `height`.
        expected: u64,
        /// Non-blank rows found after the `map` line.
        found: u64,
    },
    /// A MovingAI file has a non-blank line after its last announced row.
    ExtraRow {
        /// One-based line number of the first extra line.
        line: usize,
    },
    /// A terrain grid does not have one id per cell of the map.
    TerrainSize {
        /// Cells of the map.
        expected: u64,
        /// Terrain ids given.
        found: u64,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::TerrainSize { expected, found } => write!(
                f,
                "the terrain has {found} ids for a map of {expected} cells"
            ),
            MapError::Empty => write!(f, "the map has no cells"),
            MapError::TooLarge { width, height } => write!(
                f,
                "a {width}x{height} map is too large (at most {MAX_SIDE} cells a side and {MAX_CELLS} cells)"
            ),
            MapError::RaggedRow {
                row,
                expected,
                found,
            } => write!(f, "row {row} has {found} cells, expected {expected}"),
            MapError::BadHeader { line, reason } => write!(f, "line {line}: {reason}"),
            MapError::MissingRows { expected, found } => {
                write!(
                    f,
                    "the map has {found} rows, its header announces {expected}"
                )
            }
            MapError::ExtraRow { line } => {
                write!(f, "line {line}: more rows than the header's height")
            }
        }
    }
}

impl std::error::Error for MapError {}

/// The size `width` × `height` if a map of it can be built.
///
/// The product is computed in `u64`, so any two header values are checked without
/// overflow, and nothing is allocated. O(1).
///
/// # Errors
///
/// [`MapError::Empty`] when a side is 0; [`MapError::TooLarge`] when a side is above
/// [`MAX_SIDE`] or the cell count above [`MAX_CELLS`].
///
/// ```
/// use tilepath::scenario::{checked_size, MapError};
/// assert!(checked_size(512, 512).is_ok());
/// assert_eq!(
///     checked_size(4_000_000_000, 4_000_000_000),
///     Err(MapError::TooLarge { width: 4_000_000_000, height: 4_000_000_000 })
/// );
/// assert_eq!(checked_size(0, 7), Err(MapError::Empty));
/// ```
pub fn checked_size(width: u64, height: u64) -> Result<GridSize, MapError> {
    if width == 0 || height == 0 {
        return Err(MapError::Empty);
    }
    let too_large = MapError::TooLarge { width, height };
    let (Ok(w), Ok(h)) = (u32::try_from(width), u32::try_from(height)) else {
        return Err(too_large);
    };
    let size = GridSize::new(w, h);
    if size.is_supported() {
        Ok(size)
    } else {
        Err(too_large)
    }
}
