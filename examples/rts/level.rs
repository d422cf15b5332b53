//! The battlefield: loads `assets/maps/rts.map` (or generates the same kind of level) and
//! names what each tile looks like.

use bevy_tilepath::grid::{Cell, GridSize};
use bevy_tilepath::scenario::BitGrid;
use bevy_tilepath::scenario::generate::{rts_bases, rts_level};
use bevy_tilepath::scenario::movingai::MovingAiMap;

/// The shipped level, relative to the crate root.
pub const MAP_FILE: &str = "assets/maps/rts.map";

/// Size and seed of the level generated when the file is missing or unreadable.
const FALLBACK_SIZE: GridSize = GridSize::new(128, 96);
const FALLBACK_SEED: u64 = 1;

/// What a tile shows. The discriminant is the tile's index in the tile atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileKind {
    /// Open ground.
    Grass = 0,
    /// Open ground, darker shade (a checker pattern breaks up large fields).
    GrassDark = 1,
    /// A rock or ridge of the level.
    Rock = 2,
    /// The river.
    Water = 3,
    /// A wall painted by the player or the script.
    Wall = 4,
}

impl TileKind {
    /// Index of the tile in the atlas.
    pub const fn atlas_index(self) -> u32 {
        self as u32
    }

    /// True for the kinds that block paths.
    pub const fn blocks(self) -> bool {
        matches!(self, TileKind::Rock | TileKind::Water | TileKind::Wall)
    }

    /// True when the atlas tile `index` is one of the blocking kinds.
    pub const fn index_blocks(index: u32) -> bool {
        index == TileKind::Rock as u32
            || index == TileKind::Water as u32
            || index == TileKind::Wall as u32
    }

    /// The open-ground kind for `cell` (a coarse checker of two shades).
    pub fn ground(cell: Cell) -> TileKind {
        if ((cell.x >> 3) + (cell.y >> 3)) & 1 == 0 {
            TileKind::Grass
        } else {
            TileKind::GrassDark
        }
    }
}

/// The obstacle bits of the level plus the look of every tile.
pub struct Level {
    /// 1 = obstacle. Row `y` of the file is tile row `y` (drawn from the bottom up).
    pub bits: BitGrid,
    /// Where the level came from, for the log.
    pub source: String,
    water: Vec<bool>,
}

impl Level {
    /// Reads [`MAP_FILE`] under `root`; generates the level when the file is missing or bad.
    pub fn load(root: &str) -> Level {
        let path = format!("{root}/{MAP_FILE}");
        match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| MovingAiMap::parse(&text).map_err(|e| e.to_string()))
        {
            Ok(map) => Level::new(map.into_bits(), path),
            Err(e) => Level::new(
                rts_level(FALLBACK_SIZE, FALLBACK_SEED),
                format!("generated (could not read {path}: {e})"),
            ),
        }
    }

    /// A level from obstacle bits. The river is told apart from rocks as the obstacles of
    /// the middle band that belong to a tall connected run.
    pub fn new(bits: BitGrid, source: String) -> Level {
        let size = bits.size();
        let (w, h) = (size.width as i32, size.height as i32);
        let band = w / 12 + w / 24 + 2;
        let in_band = |c: Cell| (c.x - w / 2).abs() <= band && bits.get_or(c, false);
        let mut water = vec![false; size.area()];
        let mut seen = vec![false; size.area()];
        let mut stack = Vec::new();
        let mut run = Vec::new();
        for i in 0..size.area() {
            let seed = size.cell(i);
            if seen[i] || !in_band(seed) {
                continue;
            }
            seen[i] = true;
            stack.push(seed);
            run.clear();
            let (mut lo, mut hi) = (seed.y, seed.y);
            while let Some(c) = stack.pop() {
                run.push(c);
                lo = lo.min(c.y);
                hi = hi.max(c.y);
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let n = Cell::new(c.x + dx, c.y + dy);
                    if size.contains(n) && in_band(n) && !seen[size.index(n)] {
                        seen[size.index(n)] = true;
                        stack.push(n);
                    }
                }
            }
            if hi - lo >= h / 6 {
                for &c in &run {
                    water[size.index(c)] = true;
                }
            }
        }
        Level {
            bits,
            source,
            water,
        }
    }

    /// Map size in cells.
    pub fn size(&self) -> GridSize {
        self.bits.size()
    }

    /// The two base centres (bottom left and top right of the map).
    pub fn bases(&self) -> [Cell; 2] {
        let (a, b) = rts_bases(self.size());
        [a, b]
    }

    /// How the tile at `cell` looks in the level as loaded.
    pub fn kind(&self, cell: Cell) -> TileKind {
        let size = self.size();
        if !size.contains(cell) || !self.bits.get_or(cell, true) {
            TileKind::ground(cell)
        } else if self.water[size.index(cell)] {
            TileKind::Water
        } else {
            TileKind::Rock
        }
    }
}
