//! MovingAI maps read as terrain (each character its own [`TerrainId`]) and `CHAR=WEIGHT,...` terrain specs read as movement profiles.
//!
//! # Characters and terrain ids
//!
//! The terrain id of a map character is its byte value when it is ASCII (`.` is 46,
//! `@` is 64, `F` is 70, `R` is 82, `S` is 83, `T` is 84, `W` is 87, ...), so the
//! mapping is the same for every map and needs no table; every non-ASCII character
//! shares the id [`NON_ASCII`] (128). [`terrain_id`] and [`terrain_char`] convert.
//!
//! # Terrain specs
//!
//! A [`TerrainSpec`] is the text `CHAR=WEIGHT` repeated and separated by commas, where
//! `CHAR` is one ASCII character other than `,` and `WEIGHT` an integer 1..=255 or `x`
//! (blocked), e.g. `.=3,R=1,F=5,S=9,W=x`. Nothing is trimmed: a space is a character.
//! Characters not listed keep the MovingAI rule: `.`, `G` and `S` weigh 1, every other
//! character (and [`NON_ASCII`]) is blocked. [`TerrainSpec::profile`] turns a spec into
//! the [`MovementProfile`] over the ids above.
//!
//! ```
//! use tilepath::prelude::*;
//! use tilepath::scenario::movingai_terrain::{TerrainMap, TerrainSpec};
//! use tilepath::scenario::ProfileId;
//!
//! let text = "type octile\nheight 3\nwidth 5\nmap\n.....\n.TTT.\n.....\n";
//! let mut map = TerrainMap::parse(text).unwrap().into_scenario().unwrap();
//! // The default profile is the plain MovingAI rule: trees are blocked.
//! let mut pf = Pathfinder::new();
//! let around = PathQuery::new(Cell::new(0, 1), Cell::new(4, 1));
//! assert_eq!(pf.find(&map, &around).unwrap().length, 6.0);
//! // Trees of weight 2 are passable, so the diagonals beside them are allowed too:
//! // two diagonal and two straight steps over ground of weight 1 (through the trees
//! // would cost 1.5 + 2 + 2 + 1.5 = 7).
//! let spec: TerrainSpec = ".=1,T=2".parse().unwrap();
//! map.set_profile(ProfileId(1), spec.profile());
//! let stats = pf.find(&map, &around.profile(ProfileId(1))).unwrap();
//! assert_eq!(stats.cost, 2 * tilepath::grid::STRAIGHT + 2 * tilepath::grid::DIAGONAL);
//! ```

use std::fmt;
use std::str::FromStr;

use super::bitgrid::BitGrid;
use super::cached::CachedScenario;
use super::movingai::map_rows;
use super::profile::{MovementProfile, ProfileId, TerrainId};
use super::{MapError, checked_size};
use crate::grid::{Cell, GridSize};

/// The terrain id every non-ASCII map character gets: blocked under every
/// [`TerrainSpec`], since a spec names ASCII characters only.
pub const NON_ASCII: TerrainId = 0x80;

/// The terrain id of a map character: its byte value when ASCII, else [`NON_ASCII`].
///
/// ```
/// use tilepath::scenario::movingai_terrain::{terrain_id, NON_ASCII};
/// assert_eq!(terrain_id('.'), 46);
/// assert_eq!(terrain_id('W'), b'W');
/// assert_eq!(terrain_id('é'), NON_ASCII);
/// ```
#[inline]
pub const fn terrain_id(ch: char) -> TerrainId {
    if ch.is_ascii() { ch as u8 } else { NON_ASCII }
}

/// The ASCII character whose terrain id is `id`, or `None` for ids 128..=255.
#[inline]
pub const fn terrain_char(id: TerrainId) -> Option<char> {
    if id.is_ascii() {
        Some(id as char)
    } else {
        None
    }
}

/// The weight of an ASCII character under the plain MovingAI rule: 1 for `.`, `G` and
/// `S`, blocked (`None`) for everything else.
#[inline]
pub const fn movingai_weight(ch: u8) -> Option<u8> {
    match ch {
        b'.' | b'G' | b'S' => Some(1),
        _ => None,
    }
}

/// A grid of terrain ids, one per cell, read from or written as the characters of a
/// MovingAI `.map` file (see the [module docs](self) for the mapping).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainMap {
    size: GridSize,
    ids: Vec<TerrainId>,
}

impl TerrainMap {
    /// A map of `size` whose every cell has terrain `fill`.
    ///
    /// # Errors
    ///
    /// [`MapError::Empty`] or [`MapError::TooLarge`] for an unsupported size, checked
    /// before anything is allocated.
    pub fn new(size: GridSize, fill: TerrainId) -> Result<Self, MapError> {
        checked_size(size.width.into(), size.height.into())?;
        Ok(Self {
            size,
            ids: vec![fill; size.area()],
        })
    }

    /// Parses the text of a `.map` file exactly as
    /// [`MovingAiMap::parse`](crate::scenario::movingai::MovingAiMap::parse) does
    /// (same header rules, line endings and errors), keeping each cell's character as
    /// its terrain id instead of an obstacle bit. O(text length).
    ///
    /// # Errors
    ///
    /// The [`MapError`]s of `MovingAiMap::parse`.
    pub fn parse(text: &str) -> Result<Self, MapError> {
        let (size, rows) = map_rows(text)?;
        let mut ids = Vec::with_capacity(size.area());
        for row in rows {
            ids.extend(row.chars().map(terrain_id));
        }
        debug_assert_eq!(ids.len(), size.area());
        Ok(Self { size, ids })
    }

    /// Map size.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The terrain ids, row-major.
    #[inline]
    pub fn ids(&self) -> &[TerrainId] {
        &self.ids
    }

    /// The terrain of `cell`, or `None` off the map.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<TerrainId> {
        self.size.checked_index(cell).map(|i| self.ids[i])
    }

    /// Sets the terrain of `cell`; cells off the map are ignored.
    #[inline]
    pub fn set(&mut self, cell: Cell, id: TerrainId) {
        if let Some(i) = self.size.checked_index(cell) {
            self.ids[i] = id;
        }
    }

    /// How many cells have terrain `id`. O(width × height).
    pub fn count(&self, id: TerrainId) -> usize {
        self.ids.iter().filter(|&&t| t == id).count()
    }

    /// The cells whose terrain `profile` blocks, as set bits: where an agent of one
    /// cell moving with `profile` cannot stand. O(width × height).
    pub fn blocked_bits(&self, profile: &MovementProfile) -> BitGrid {
        let mut bits = BitGrid::new(self.size, false);
        for (i, &t) in self.ids.iter().enumerate() {
            if profile.is_blocked(t) {
                bits.set(self.size.cell(i), true);
            }
        }
        bits
    }

    /// The cached map of this terrain: no obstacle bits, the ids as terrain, and
    /// [`ProfileId::DEFAULT`] replaced by the plain MovingAI rule
    /// ([`TerrainSpec::movingai`]), so default queries answer exactly as on the map
    /// read by `MovingAiMap`. Register spec profiles with
    /// [`CachedScenario::set_profile`]. O(width × height).
    ///
    /// # Errors
    ///
    /// None in practice (the size was checked when the grid was made); the
    /// [`MapError`] of [`CachedScenario::from_bits_and_terrain`] is passed on.
    pub fn into_scenario(self) -> Result<CachedScenario, MapError> {
        let bits = BitGrid::new(self.size, false);
        let mut map = CachedScenario::from_bits_and_terrain(bits, self.ids)?;
        map.set_profile(ProfileId::DEFAULT, TerrainSpec::movingai().profile());
        Ok(map)
    }

    /// The text of a MovingAI `.map` file: `type octile`, height, width, `map`, then one
    /// row per line with each cell's character. Ids without a printable, non-space
    /// ASCII character (controls, space, 128..=255) are written as `@`, so the text
    /// always parses back to the same size; every other id round-trips through
    /// [`TerrainMap::parse`].
    ///
    /// ```
    /// use tilepath::prelude::*;
    /// use tilepath::scenario::movingai_terrain::TerrainMap;
    /// let mut t = TerrainMap::new(GridSize::new(3, 1), b'.').unwrap();
    /// t.set(Cell::new(1, 0), b'W');
    /// assert_eq!(t.to_movingai(), "type octile\nheight 1\nwidth 3\nmap\n.W.\n");
    /// assert_eq!(TerrainMap::parse(&t.to_movingai()).unwrap(), t);
    /// ```
    pub fn to_movingai(&self) -> String {
        let (w, h) = (self.size.width as usize, self.size.height as usize);
        let mut out = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
        out.reserve((w + 1) * h);
        for row in self.ids.chunks(w.max(1)) {
            out.extend(
                row.iter()
                    .map(|&t| if t.is_ascii_graphic() { t as char } else { '@' }),
            );
            out.push('\n');
        }
        out
    }
}

/// Why a terrain spec could not be read. Entries are the comma-separated parts of the
/// spec, numbered from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerrainSpecError {
    /// The spec is the empty string.
    Empty,
    /// An entry is empty (two commas in a row, or a comma at either end).
    EmptyEntry {
        /// Index of the entry.
        entry: usize,
    },
    /// The entry's character is not ASCII (a spec names ASCII map characters only).
    NotAscii {
        /// Index of the entry.
        entry: usize,
        /// The character found.
        ch: char,
    },
    /// The entry's character is not followed by `=` (e.g. `FF=2`, or ` F=2` with a space).
    MissingEquals {
        /// Index of the entry.
        entry: usize,
    },
    /// Nothing follows the `=`.
    MissingWeight {
        /// Index of the entry.
        entry: usize,
    },
    /// The weight is neither `x` nor a number made of ASCII digits only.
    BadWeight {
        /// Index of the entry.
        entry: usize,
    },
    /// The weight is a number outside 1..=255.
    WeightOutOfRange {
        /// Index of the entry.
        entry: usize,
        /// The number read, saturated at `u64::MAX`.
        weight: u64,
    },
    /// The character was already given by an earlier entry.
    Duplicate {
        /// Index of the second entry for the character.
        entry: usize,
        /// The character.
        ch: char,
    },
}

impl fmt::Display for TerrainSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TerrainSpecError::Empty => write!(f, "the terrain spec is empty"),
            TerrainSpecError::EmptyEntry { entry } => write!(f, "entry {entry} is empty"),
            TerrainSpecError::NotAscii { entry, ch } => {
                write!(f, "entry {entry}: {ch:?} is not an ASCII character")
            }
            TerrainSpecError::MissingEquals { entry } => {
                write!(f, "entry {entry}: expected one character then `=`")
            }
            TerrainSpecError::MissingWeight { entry } => {
                write!(f, "entry {entry}: no weight after `=`")
            }
            TerrainSpecError::BadWeight { entry } => {
                write!(
                    f,
                    "entry {entry}: the weight must be an integer 1..=255 or x"
                )
            }
            TerrainSpecError::WeightOutOfRange { entry, weight } => {
                write!(f, "entry {entry}: weight {weight} is outside 1..=255")
            }
            TerrainSpecError::Duplicate { entry, ch } => {
                write!(f, "entry {entry}: {ch:?} is listed twice")
            }
        }
    }
}

impl std::error::Error for TerrainSpecError {}

/// A terrain spec: a weight or "blocked" for some ASCII map characters, the MovingAI
/// rule for the rest (see the [module docs](self)). Parse one with [`TerrainSpec::parse`]
/// or [`str::parse`]; [`fmt::Display`] writes the entries back in their order.
///
/// ```
/// use tilepath::scenario::movingai_terrain::{TerrainSpec, terrain_id};
/// let spec = TerrainSpec::parse(".=3,R=1,F=5,S=9,W=x").unwrap();
/// assert_eq!(spec.weight('F'), Some(5));
/// assert_eq!(spec.weight('W'), None); // listed as blocked
/// assert_eq!(spec.weight('G'), Some(1)); // not listed: the MovingAI rule
/// assert_eq!(spec.weight('@'), None);
/// let profile = spec.profile();
/// assert_eq!(profile.weight(terrain_id('.')), Some(3));
/// assert!(profile.is_blocked(terrain_id('T')));
/// assert_eq!(spec.to_string(), ".=3,R=1,F=5,S=9,W=x");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TerrainSpec {
    /// Listed characters in spec order, each with its weight (`None` = blocked).
    entries: Vec<(u8, Option<u8>)>,
}

impl TerrainSpec {
    /// The spec with no entry: the plain MovingAI rule.
    pub const fn movingai() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// Reads `CHAR=WEIGHT,...`. Never panics; O(text length).
    ///
    /// # Errors
    ///
    /// The first problem found, as a [`TerrainSpecError`], scanning entries in order.
    pub fn parse(text: &str) -> Result<Self, TerrainSpecError> {
        if text.is_empty() {
            return Err(TerrainSpecError::Empty);
        }
        let mut entries: Vec<(u8, Option<u8>)> = Vec::new();
        for (entry, item) in text.split(',').enumerate() {
            let mut chars = item.chars();
            let ch = chars.next().ok_or(TerrainSpecError::EmptyEntry { entry })?;
            if !ch.is_ascii() {
                return Err(TerrainSpecError::NotAscii { entry, ch });
            }
            if chars.next() != Some('=') {
                return Err(TerrainSpecError::MissingEquals { entry });
            }
            let weight = parse_weight(chars.as_str(), entry)?;
            let byte = ch as u8;
            if entries.iter().any(|&(c, _)| c == byte) {
                return Err(TerrainSpecError::Duplicate { entry, ch });
            }
            entries.push((byte, weight));
        }
        Ok(Self { entries })
    }

    /// The listed characters in spec order, each with its weight (`None` = blocked).
    pub fn entries(&self) -> impl Iterator<Item = (char, Option<u8>)> + '_ {
        self.entries.iter().map(|&(c, w)| (c as char, w))
    }

    /// The weight of map character `ch` under this spec (`None` = blocked): its entry
    /// when listed, else the MovingAI rule.
    pub fn weight(&self, ch: char) -> Option<u8> {
        if !ch.is_ascii() {
            return None;
        }
        let byte = ch as u8;
        match self.entries.iter().find(|&&(c, _)| c == byte) {
            Some(&(_, w)) => w,
            None => movingai_weight(byte),
        }
    }

    /// The movement profile over the terrain ids of [`terrain_id`]: id `c` for ASCII
    /// `c` gets [`TerrainSpec::weight`], ids 128..=255 are blocked.
    pub fn profile(&self) -> MovementProfile {
        let mut profile = MovementProfile::new();
        for id in 0..=u8::MAX {
            let weight = terrain_char(id).and_then(|c| self.weight(c));
            profile = match weight {
                Some(w) => profile.with_weight(id, w),
                None => profile.with_blocked(id),
            };
        }
        profile
    }
}

/// `x`, or an integer 1..=255 of ASCII digits (saturating, so any length is safe).
fn parse_weight(text: &str, entry: usize) -> Result<Option<u8>, TerrainSpecError> {
    if text.is_empty() {
        return Err(TerrainSpecError::MissingWeight { entry });
    }
    if text == "x" {
        return Ok(None);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TerrainSpecError::BadWeight { entry });
    }
    let weight = text.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    });
    match u8::try_from(weight) {
        Ok(w) if w >= 1 => Ok(Some(w)),
        _ => Err(TerrainSpecError::WeightOutOfRange { entry, weight }),
    }
}

impl FromStr for TerrainSpec {
    type Err = TerrainSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl fmt::Display for TerrainSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, &(c, w)) in self.entries.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            match w {
                Some(w) => write!(f, "{}={w}", c as char)?,
                None => write!(f, "{}=x", c as char)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::movingai::MovingAiMap;

    fn err(text: &str) -> TerrainSpecError {
        TerrainSpec::parse(text).unwrap_err()
    }

    #[test]
    fn specs_parse_weights_blocks_and_the_movingai_default() {
        let spec = TerrainSpec::parse(".=3,R=1,F=5,S=9,W=x,@=255,==2").unwrap();
        assert_eq!(spec.weight('.'), Some(3));
        assert_eq!(spec.weight('S'), Some(9));
        assert_eq!(spec.weight('W'), None);
        assert_eq!(spec.weight('@'), Some(255));
        assert_eq!(spec.weight('='), Some(2));
        assert_eq!(spec.weight('G'), Some(1));
        assert_eq!(spec.weight('T'), None);
        assert_eq!(spec.weight('é'), None);
        assert_eq!(spec.entries().count(), 7);
        assert_eq!(TerrainSpec::parse("T=007").unwrap().weight('T'), Some(7));
        assert_eq!(TerrainSpec::parse(" =4").unwrap().weight(' '), Some(4));
    }

    #[test]
    fn bad_specs_are_typed_errors() {
        use TerrainSpecError::*;
        assert_eq!(err(""), Empty);
        assert_eq!(err(","), EmptyEntry { entry: 0 });
        assert_eq!(err(".=1,"), EmptyEntry { entry: 1 });
        assert_eq!(err(".=1,,T=2"), EmptyEntry { entry: 1 });
        assert_eq!(err("é=2"), NotAscii { entry: 0, ch: 'é' });
        assert_eq!(err(".=1,TT=2"), MissingEquals { entry: 1 });
        assert_eq!(err(".=1, T=2"), MissingEquals { entry: 1 });
        assert_eq!(err("T"), MissingEquals { entry: 0 });
        assert_eq!(err("T="), MissingWeight { entry: 0 });
        assert_eq!(err("T=X"), BadWeight { entry: 0 });
        assert_eq!(err("T=-1"), BadWeight { entry: 0 });
        assert_eq!(err("T=+1"), BadWeight { entry: 0 });
        assert_eq!(err("T=1 "), BadWeight { entry: 0 });
        assert_eq!(err("T=1.5"), BadWeight { entry: 0 });
        assert_eq!(err("T=xx"), BadWeight { entry: 0 });
        assert_eq!(err("T=٣"), BadWeight { entry: 0 });
        assert_eq!(
            err("T=0"),
            WeightOutOfRange {
                entry: 0,
                weight: 0
            }
        );
        assert_eq!(
            err("T=256"),
            WeightOutOfRange {
                entry: 0,
                weight: 256
            }
        );
        assert_eq!(
            err("T=99999999999999999999999"),
            WeightOutOfRange {
                entry: 0,
                weight: u64::MAX
            }
        );
        assert_eq!(err("T=1,.=2,T=x"), Duplicate { entry: 2, ch: 'T' });
        for e in [err(""), err("T=0"), err("é=1")] {
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn arbitrary_text_never_panics() {
        let mut rng = crate::scenario::generate::SplitMix64::new(5);
        let alphabet: Vec<char> = ".=,x0129TRé \u{0}".chars().collect();
        for _ in 0..20_000 {
            let len = rng.below(12) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u32) as usize])
                .collect();
            if let Ok(spec) = TerrainSpec::parse(&text) {
                assert_eq!(TerrainSpec::parse(&spec.to_string()), Ok(spec));
            }
        }
    }

    #[test]
    fn the_profile_follows_the_spec_and_blocks_non_ascii() {
        let p = TerrainSpec::parse("F=4,.=x").unwrap().profile();
        assert_eq!(p.weight(b'F'), Some(4));
        assert_eq!(p.weight(b'.'), None);
        assert_eq!(p.weight(b'G'), Some(1));
        assert_eq!(p.weight(b'S'), Some(1));
        assert_eq!(p.weight(b'@'), None);
        assert_eq!(p.weight(NON_ASCII), None);
        assert_eq!(p.weight(255), None);
        let plain = TerrainSpec::movingai().profile();
        for id in 0..=255u8 {
            assert_eq!(
                plain.weight(id).is_some(),
                matches!(id, b'.' | b'G' | b'S'),
                "{id}"
            );
        }
    }

    #[test]
    fn terrain_maps_read_every_character_and_agree_with_the_obstacle_reader() {
        let text = "type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.@TW\r\nGSé.";
        let t = TerrainMap::parse(text).unwrap();
        assert_eq!(t.size(), GridSize::new(4, 2));
        assert_eq!(
            t.ids(),
            &[b'.', b'@', b'T', b'W', b'G', b'S', NON_ASCII, b'.']
        );
        let plain = t.blocked_bits(&TerrainSpec::movingai().profile());
        assert_eq!(plain, MovingAiMap::parse(text).unwrap().into_bits());
        let map = t.into_scenario().unwrap();
        let layer = map.layer(1).unwrap();
        for cell in crate::scenario::CellRect::of_size(map.size()).cells() {
            assert_eq!(layer.is_blocked(cell), plain.get_or(cell, true), "{cell}");
            assert!(!map.is_obstacle(cell));
        }
        assert_eq!(
            TerrainMap::parse("type octile\nheight 2\nwidth 2\nmap\n..\n").unwrap_err(),
            MapError::MissingRows {
                expected: 2,
                found: 1
            }
        );
    }

    #[test]
    fn unprintable_ids_are_written_as_walls() {
        let mut t = TerrainMap::new(GridSize::new(4, 1), b'.').unwrap();
        t.set(Cell::new(0, 0), b' ');
        t.set(Cell::new(1, 0), b'\n');
        t.set(Cell::new(2, 0), 200);
        t.set(Cell::new(9, 9), b'W');
        assert!(t.to_movingai().ends_with("map\n@@@.\n"));
        assert_eq!(t.get(Cell::new(2, 0)), Some(200));
        assert_eq!(t.get(Cell::new(4, 0)), None);
        assert_eq!(t.count(b'.'), 1);
        assert_eq!(
            TerrainMap::new(GridSize::new(0, 3), 0).unwrap_err(),
            MapError::Empty
        );
    }
}
