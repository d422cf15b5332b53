//! A hexagonal map: which hexagons exist, what they cost, and how wide an agent fits.

use super::coord::{Hex, HexDirection, HexLayout};
use crate::scenario::{EditLog, MapError, MapId, Stamped, checked_size};

/// The widest agent radius the clearance map tells apart (a radius-`r` agent covers the
/// hexagons within `r` steps of its centre).
pub const MAX_HEX_RADIUS: u32 = 254;

/// A hexagonal map over a bounding box of axial coordinates: every hexagon has a weight
/// (1..=255: a step between neighbours `a` and `b` costs `(w(a) + w(b)) / 2` steps) or is
/// blocked (weight 0: an obstacle, or no tile there). The hexagons outside the box are
/// blocked too.
///
/// It also keeps each hexagon's *clearance*, the number of steps to the nearest blocked
/// one: an agent of radius `r` may stand where the clearance exceeds `r`. Edits
/// recompute it (`O(n)` for `n` hexagons in the box); the map is then read-only and may be
/// shared between threads, each with its own [`HexPathfinder`](super::HexPathfinder).
///
/// ```
/// use tilepath::hex::{Hex, HexLayout, HexMap};
///
/// // Row 0 first: odd rows are shifted right (bevy_ecs_tilemap's `RowOdd`).
/// let map = HexMap::from_ascii(HexLayout::RowOdd, "
///     ..#..
///     .3#..
///     .....
/// ").unwrap();
/// assert_eq!(map.weight(HexLayout::RowOdd.hex(1, 1)), Some(3));
/// assert_eq!(map.weight(HexLayout::RowOdd.hex(2, 0)), None);
/// assert_eq!(map.clearance(HexLayout::RowOdd.hex(0, 2)), 1); // the map's edge
/// ```
#[derive(Clone, Debug)]
pub struct HexMap {
    /// The smallest axial coordinates of the box.
    min: Hex,
    width: u32,
    height: u32,
    /// Weight per hexagon of the box, row-major over `(q - min.q, r - min.r)`; 0 blocks.
    weights: Vec<u8>,
    /// Steps to the nearest blocked hexagon (0 on blocked ones), capped at 255.
    clearance: Vec<u8>,
    /// The smallest weight of a free hexagon (1 when none is free).
    min_weight: u8,
    /// Edits so far.
    generation: u64,
    /// The hexagons edited in the last generations, for searches that carry over edits.
    log: EditLog<HexEdit>,
    /// Which map object this is (a clone gets its own).
    id: MapId,
    /// The breadth-first queue of the clearance update, kept between edits.
    queue: Vec<u32>,
}

/// One logged weight change: the hexagon's index in the box and the generation the
/// change produced.
#[derive(Clone, Copy, Debug)]
pub(super) struct HexEdit {
    generation: u64,
    index: u32,
}

impl Stamped for HexEdit {
    fn generation(&self) -> u64 {
        self.generation
    }
}

impl HexMap {
    /// A map whose box starts at `min` and spans `width × height` axial coordinates,
    /// every hexagon blocked.
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] or [`MapError::TooLarge`], found before anything is allocated.
    pub fn new(min: Hex, width: u32, height: u32) -> Result<Self, MapError> {
        let size = checked_size(u64::from(width), u64::from(height))?;
        let mut map = Self {
            min,
            width: size.width,
            height: size.height,
            weights: vec![0; size.area()],
            clearance: vec![0; size.area()],
            min_weight: 1,
            generation: 0,
            log: EditLog::default(),
            id: MapId::fresh(),
            queue: Vec::new(),
        };
        map.update_clearance();
        Ok(map)
    }

    /// The map of a rectangle of `columns × rows` tile positions laid out as `layout`,
    /// each tile weighing `weight(column, row)` (0 blocks it). The box is the smallest
    /// that holds every tile; its hexagons without a tile are blocked.
    ///
    /// # Errors
    ///
    /// As [`HexMap::new`] for the box.
    pub fn from_layout(
        layout: HexLayout,
        columns: u32,
        rows: u32,
        mut weight: impl FnMut(u32, u32) -> u8,
    ) -> Result<Self, MapError> {
        checked_size(u64::from(columns), u64::from(rows))?;
        // The extreme coordinates lie on the rectangle's two outer rings (offset layouts
        // shift every other row or column).
        let ring = |v: u32, n: u32| v < 2 || v + 2 >= n;
        let (mut min, mut max) = (layout.hex(0, 0), layout.hex(0, 0));
        for row in 0..rows {
            for column in 0..columns {
                if !ring(row, rows) && !ring(column, columns) {
                    continue;
                }
                let h = layout.hex(column as i32, row as i32);
                min = Hex::new(min.q.min(h.q), min.r.min(h.r));
                max = Hex::new(max.q.max(h.q), max.r.max(h.r));
            }
        }
        let span = |lo: i32, hi: i32| (i64::from(hi) - i64::from(lo) + 1) as u64;
        checked_size(span(min.q, max.q), span(min.r, max.r))?;
        let mut map = Self::new(min, span(min.q, max.q) as u32, span(min.r, max.r) as u32)?;
        for row in 0..rows {
            for column in 0..columns {
                let hex = layout.hex(column as i32, row as i32);
                if let Some(i) = map.index(hex) {
                    map.weights[i] = weight(column, row);
                }
            }
        }
        map.update_clearance();
        Ok(map)
    }

    /// Parses rows of tiles laid out as `layout`, row 0 first: `.` weighs 1, a digit
    /// `1`-`9` its value, any other character blocks. Blank lines and indentation are
    /// ignored.
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] without a row, [`MapError::RaggedRow`] when rows differ in
    /// length, or as [`HexMap::new`].
    pub fn from_ascii(layout: HexLayout, text: &str) -> Result<Self, MapError> {
        let rows: Vec<&[u8]> = text
            .lines()
            .map(|l| l.trim().as_bytes())
            .filter(|l| !l.is_empty())
            .collect();
        let columns = rows.first().ok_or(MapError::Empty)?.len();
        if let Some((row, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != columns) {
            return Err(MapError::RaggedRow {
                row,
                expected: columns,
                found: r.len(),
            });
        }
        let weight = |c: u8| match c {
            b'.' => 1,
            b'1'..=b'9' => c - b'0',
            _ => 0,
        };
        let (w, h) = (columns as u64, rows.len() as u64);
        let size = checked_size(w, h)?;
        Self::from_layout(layout, size.width, size.height, |c, r| {
            weight(rows[r as usize][c as usize])
        })
    }

    /// The smallest axial coordinates of the box.
    pub fn min(&self) -> Hex {
        self.min
    }

    /// The box's extent along `q` and `r`.
    pub fn extent(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Hexagons in the box.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Never true: a map has at least one hexagon in its box.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The index of `hex` in the box, or `None` outside it.
    #[inline]
    pub fn index(&self, hex: Hex) -> Option<usize> {
        let q = i64::from(hex.q) - i64::from(self.min.q);
        let r = i64::from(hex.r) - i64::from(self.min.r);
        (q >= 0 && r >= 0 && q < i64::from(self.width) && r < i64::from(self.height))
            .then(|| r as usize * self.width as usize + q as usize)
    }

    /// The hexagon at `index` in the box.
    #[inline]
    pub fn hex(&self, index: usize) -> Hex {
        let w = self.width as usize;
        Hex::new(
            self.min.q + (index % w) as i32,
            self.min.r + (index / w) as i32,
        )
    }

    /// The weight of `hex`, or `None` when it is blocked or outside the box.
    #[inline]
    pub fn weight(&self, hex: Hex) -> Option<u8> {
        self.index(hex).map(|i| self.weights[i]).filter(|&w| w > 0)
    }

    #[inline]
    pub(super) fn weight_at(&self, index: usize) -> u8 {
        self.weights[index]
    }

    /// Steps from `hex` to the nearest blocked hexagon (0 when it is blocked itself or
    /// outside the box), at most 255.
    #[inline]
    pub fn clearance(&self, hex: Hex) -> u32 {
        self.index(hex).map_or(0, |i| u32::from(self.clearance[i]))
    }

    #[inline]
    pub(super) fn clearance_at(&self, index: usize) -> u8 {
        self.clearance[index]
    }

    /// True when an agent of `radius` may stand on `hex`: no blocked hexagon within
    /// `radius` steps.
    #[inline]
    pub fn can_stand(&self, hex: Hex, radius: u32) -> bool {
        self.clearance(hex) > radius
    }

    /// The smallest weight of a free hexagon: what the search heuristic scales by.
    pub fn min_weight(&self) -> u8 {
        self.min_weight
    }

    /// Edits so far: what a suspended search or a field checks the map against.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// A number no other map of this process has (a clone gets its own), so that a
    /// search or field never mistakes another map for the one it started on.
    pub fn id(&self) -> u64 {
        self.id.0
    }

    /// The indices of the hexagons whose weight changed after `generation`, in order (a
    /// hexagon may appear more than once), or `None` when the map no longer lists them:
    /// it keeps the last [`EDIT_LOG_CAP`](crate::scenario::EDIT_LOG_CAP) changes or
    /// more. O(log n).
    pub(super) fn edits_since(
        &self,
        generation: u64,
    ) -> Option<impl Iterator<Item = usize> + Clone + '_> {
        let edits = self.log.since(generation)?;
        Some(edits.iter().map(|e| e.index as usize))
    }

    /// Sets the weights of the given hexagons (0 blocks; hexagons outside the box are
    /// skipped), then updates the clearance once. Returns how many changed. `O(n)` for
    /// `n` hexagons in the box when something changed. The map remembers which hexagons
    /// changed, so that suspended searches ([`HexPathfinder::resume`]) and fields
    /// ([`HexField::carry_over`]) go on from where they were instead of starting over.
    ///
    /// [`HexPathfinder::resume`]: super::HexPathfinder::resume
    /// [`HexField::carry_over`]: super::HexField::carry_over
    pub fn set_weights(&mut self, edits: impl IntoIterator<Item = (Hex, u8)>) -> usize {
        let mut changed = 0;
        for (hex, w) in edits {
            if let Some(i) = self.index(hex)
                && self.weights[i] != w
            {
                self.weights[i] = w;
                changed += 1;
                self.log.record(HexEdit {
                    generation: self.generation + 1,
                    index: i as u32,
                });
            }
        }
        if changed > 0 {
            self.generation += 1;
            self.update_clearance();
        }
        changed
    }

    /// The neighbours of the hexagon at `index` inside the box, with their directions.
    #[inline]
    pub(super) fn neighbours(
        &self,
        index: usize,
    ) -> impl Iterator<Item = (usize, HexDirection)> + '_ {
        let hex = self.hex(index);
        HexDirection::ALL
            .into_iter()
            .filter_map(move |d| self.index(hex.neighbour(d)).map(|n| (n, d)))
    }

    /// Breadth-first from every blocked hexagon and from outside the box.
    fn update_clearance(&mut self) {
        self.queue.clear();
        let mut min_weight = None::<u8>;
        for i in 0..self.weights.len() {
            let w = self.weights[i];
            if w == 0 {
                self.clearance[i] = 0;
                self.queue.push(i as u32);
            } else {
                min_weight = Some(min_weight.map_or(w, |m| m.min(w)));
                let on_edge = self.neighbours(i).count() < 6;
                self.clearance[i] = if on_edge { 1 } else { u8::MAX };
                if on_edge {
                    self.queue.push(i as u32);
                }
            }
        }
        self.min_weight = min_weight.unwrap_or(1);
        let mut head = 0;
        while head < self.queue.len() {
            let i = self.queue[head] as usize;
            head += 1;
            let next = self.clearance[i].saturating_add(1);
            let hex = self.hex(i);
            for d in HexDirection::ALL {
                if let Some(n) = self.index(hex.neighbour(d))
                    && self.clearance[n] > next
                {
                    self.clearance[n] = next;
                    self.queue.push(n as u32);
                }
            }
        }
    }
}
