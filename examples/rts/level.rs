//! The battlefield, generated here: grass fields, a winding river with bridges, roads
//! between the two bases, forests, swamps along the river and rocky ridges; and what each
//! tile looks like and which terrain it is.

use bevy_tilepath::grid::{Cell, GridSize};
use bevy_tilepath::scenario::generate::SplitMix64;
use bevy_tilepath::scenario::{BitGrid, TerrainId};

/// Size and seed of the level.
pub const LEVEL_SIZE: GridSize = GridSize::new(128, 96);
pub const LEVEL_SEED: u64 = 5;

/// Terrain ids of the level (what [`crate::sim::UnitKind`] profiles weigh).
pub const GRASS: TerrainId = 0;
pub const ROAD: TerrainId = 1;
pub const FOREST: TerrainId = 2;
pub const SWAMP: TerrainId = 3;
pub const WATER: TerrainId = 4;

/// What a tile shows. The discriminant is the tile's index in the tile atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileKind {
    /// Open ground.
    Grass = 0,
    /// Open ground, darker shade (a checker pattern breaks up large fields).
    GrassDark = 1,
    /// A rock of a ridge: an obstacle for everyone.
    Rock = 2,
    /// The river.
    Water = 3,
    /// A wall painted by the player or the script: an obstacle for everyone.
    Wall = 4,
    /// A road.
    Road = 5,
    /// Forest.
    Forest = 6,
    /// Swamp.
    Swamp = 7,
    /// A bridge: road over the river.
    Bridge = 8,
}

impl TileKind {
    /// Every kind, in atlas order.
    pub const ALL: [TileKind; 9] = [
        TileKind::Grass,
        TileKind::GrassDark,
        TileKind::Rock,
        TileKind::Water,
        TileKind::Wall,
        TileKind::Road,
        TileKind::Forest,
        TileKind::Swamp,
        TileKind::Bridge,
    ];

    /// Index of the tile in the atlas.
    pub const fn atlas_index(self) -> u32 {
        self as u32
    }

    /// The atlas indices of the kinds that block every unit (the collision layer's
    /// blocking textures).
    pub const BLOCKING: [u32; 2] = [TileKind::Rock as u32, TileKind::Wall as u32];

    /// True for the kinds that block every unit.
    pub const fn blocks(self) -> bool {
        matches!(self, TileKind::Rock | TileKind::Wall)
    }

    /// True when the atlas tile `index` is one of the blocking kinds.
    pub const fn index_blocks(index: u32) -> bool {
        index == TileKind::Rock as u32 || index == TileKind::Wall as u32
    }

    /// The terrain of the kind (rocks and walls are obstacles on grass).
    pub const fn terrain(self) -> TerrainId {
        match self {
            TileKind::Road | TileKind::Bridge => ROAD,
            TileKind::Forest => FOREST,
            TileKind::Swamp => SWAMP,
            TileKind::Water => WATER,
            TileKind::Grass | TileKind::GrassDark | TileKind::Rock | TileKind::Wall => GRASS,
        }
    }

    /// The collision layer's texture → terrain table.
    pub fn terrain_table() -> impl Iterator<Item = (u32, TerrainId)> {
        TileKind::ALL
            .into_iter()
            .map(|k| (k.atlas_index(), k.terrain()))
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

/// The generated level: the kind of every cell.
pub struct Level {
    size: GridSize,
    /// Kind per cell, row-major; open ground is stored as `Grass`.
    kinds: Vec<TileKind>,
    /// Where the level came from, for the log.
    pub source: String,
}

/// Distance from `p` to the segment `a`–`b`.
fn segment_distance(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (x, y) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (x * x + y * y).sqrt()
}

impl Level {
    /// Generates the level: deterministic for a size and seed.
    ///
    /// 1. A river winds from the bottom to the top of the map, five cells wide.
    /// 2. Swamps lie along the river, forests anywhere, rocky ridges in between.
    /// 3. The bases (bottom left and top right in cell rows, see [`Level::bases`]) are
    ///    cleared.
    /// 4. Three roads (three cells wide, with a cleared verge) join the bases: two
    ///    cross the river on five-cell bridges, one runs along the west bank to a
    ///    northern bridge. Roads clear whatever lies on them, so every unit kind can
    ///    reach every base along them.
    pub fn generate(size: GridSize, seed: u64) -> Level {
        let mut rng = SplitMix64::new(seed);
        let (w, h) = (size.width as i32, size.height as i32);
        let mut level = Level {
            size,
            kinds: vec![TileKind::Grass; size.area()],
            source: format!("generated {w}x{h}, seed {seed}"),
        };
        let unit = |rng: &mut SplitMix64| rng.below(1 << 16) as f32 / 65536.0;
        let tau = std::f32::consts::TAU;

        // 1. The river: x as a function of y, two sine waves.
        let (p1, p2) = (unit(&mut rng) * tau, unit(&mut rng) * tau);
        let river = move |y: f32| {
            w as f32 * 0.5
                + w as f32 * 0.07 * (y / h as f32 * tau * 0.9 + p1).sin()
                + w as f32 * 0.025 * (y / h as f32 * tau * 2.7 + p2).sin()
        };
        for y in 0..h {
            let centre = river(y as f32);
            for x in 0..w {
                if (x as f32 - centre).abs() <= 2.5 {
                    level.set(Cell::new(x, y), TileKind::Water);
                }
            }
        }

        // 2. Swamps along the river, forests anywhere, ridges of rock.
        let blob = |level: &mut Level,
                    rng: &mut SplitMix64,
                    centre: (f32, f32),
                    radius: f32,
                    kind: TileKind| {
            let (k, phase) = (rng.range(3, 6) as f32, unit(rng) * tau);
            let r = radius.ceil() as i32 + 2;
            for y in centre.1 as i32 - r..=centre.1 as i32 + r {
                for x in centre.0 as i32 - r..=centre.0 as i32 + r {
                    let (dx, dy) = (x as f32 - centre.0, y as f32 - centre.1);
                    let edge = radius + 1.5 * (dy.atan2(dx) * k + phase).sin();
                    let c = Cell::new(x, y);
                    if (dx * dx + dy * dy).sqrt() <= edge
                        && level.kind_raw(c) == Some(TileKind::Grass)
                    {
                        level.set(c, kind);
                    }
                }
            }
        };
        for _ in 0..9 {
            let y = unit(&mut rng) * h as f32;
            let side = if rng.chance(1, 2) { -1.0 } else { 1.0 };
            let x = river(y) + side * (4.0 + unit(&mut rng) * 10.0);
            let radius = 3.0 + unit(&mut rng) * 4.0;
            blob(&mut level, &mut rng, (x, y), radius, TileKind::Swamp);
        }
        for _ in 0..22 {
            let centre = (unit(&mut rng) * w as f32, unit(&mut rng) * h as f32);
            let radius = 3.0 + unit(&mut rng) * 6.0;
            blob(&mut level, &mut rng, centre, radius, TileKind::Forest);
        }
        for _ in 0..14 {
            let mut p = (unit(&mut rng) * w as f32, unit(&mut rng) * h as f32);
            let angle = unit(&mut rng) * tau;
            let len = rng.range(6, 16);
            for _ in 0..len {
                for (dx, dy) in [(0, 0), (1, 0), (0, 1)] {
                    let c = Cell::new(p.0 as i32 + dx, p.1 as i32 + dy);
                    if matches!(level.kind_raw(c), Some(TileKind::Grass | TileKind::Forest)) {
                        level.set(c, TileKind::Rock);
                    }
                }
                let wobble = (unit(&mut rng) - 0.5) * 0.8;
                p = (p.0 + (angle + wobble).cos(), p.1 + (angle + wobble).sin());
            }
        }

        // 3. The bases are open fields.
        let bases = level.bases();
        for base in bases {
            for y in base.y - 12..=base.y + 12 {
                for x in base.x - 12..=base.x + 12 {
                    let c = Cell::new(x, y);
                    let (dx, dy) = (x - base.x, y - base.y);
                    if dx * dx + dy * dy <= 144 && level.kind_raw(c).is_some() {
                        level.set(c, TileKind::Grass);
                    }
                }
            }
        }

        // 4. Roads: polylines in cell coordinates; bridges where they cross the river.
        let f = |c: Cell| (c.x as f32, c.y as f32);
        let (a, b) = (f(bases[0]), f(bases[1]));
        let crossing = |y: f32, side: f32| (river(y) + side * 9.0, y);
        let (south, north) = (h as f32 * 0.3, h as f32 * 0.72);
        let roads: [Vec<(f32, f32)>; 3] = [
            vec![a, crossing(south, -1.0), crossing(south, 1.0), b],
            vec![
                a,
                crossing(north, -1.0),
                crossing(north, 1.0),
                (b.0, north),
                b,
            ],
            vec![
                crossing(south, -1.0),
                (river(h as f32 * 0.5) - 10.0, h as f32 * 0.5),
                crossing(north, -1.0),
            ],
        ];
        for road in &roads {
            for pair in road.windows(2) {
                level.road(pair[0], pair[1]);
            }
        }
        level
    }

    /// Lays a road from `a` to `b`: road within 1.5 cells (bridge over water), a verge
    /// cleared of forest, swamp and rock within 2.6 cells, and bridges five cells wide.
    fn road(&mut self, a: (f32, f32), b: (f32, f32)) {
        let lo = (a.0.min(b.0) as i32 - 3, a.1.min(b.1) as i32 - 3);
        let hi = (a.0.max(b.0) as i32 + 3, a.1.max(b.1) as i32 + 3);
        for y in lo.1..=hi.1 {
            for x in lo.0..=hi.0 {
                let c = Cell::new(x, y);
                let Some(kind) = self.kind_raw(c) else {
                    continue;
                };
                let d = segment_distance((x as f32, y as f32), a, b);
                let now = match kind {
                    TileKind::Water | TileKind::Bridge if d <= 2.6 => TileKind::Bridge,
                    _ if d <= 1.5 => TileKind::Road,
                    TileKind::Forest | TileKind::Swamp | TileKind::Rock if d <= 2.6 => {
                        TileKind::Grass
                    }
                    other => other,
                };
                self.set(c, now);
            }
        }
    }

    fn set(&mut self, cell: Cell, kind: TileKind) {
        if self.size.contains(cell) {
            let i = self.size.index(cell);
            self.kinds[i] = kind;
        }
    }

    fn kind_raw(&self, cell: Cell) -> Option<TileKind> {
        self.size
            .contains(cell)
            .then(|| self.kinds[self.size.index(cell)])
    }

    /// Map size in cells.
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The two base centres: low x and high y (top left on screen), high x and low y.
    pub fn bases(&self) -> [Cell; 2] {
        let (w, h) = (self.size.width as i32, self.size.height as i32);
        let inset = (w.min(h) / 8).max(4) + 2;
        [
            Cell::new(inset, h - 1 - inset),
            Cell::new(w - 1 - inset, inset),
        ]
    }

    /// How the tile at `cell` looks in the level as generated (off the map: ground).
    pub fn kind(&self, cell: Cell) -> TileKind {
        match self.kind_raw(cell) {
            None | Some(TileKind::Grass) => TileKind::ground(cell),
            Some(kind) => kind,
        }
    }

    /// What a cleared cell looks like: its generated kind, or ground where that blocks.
    pub fn cleared(&self, cell: Cell) -> TileKind {
        match self.kind(cell) {
            kind if kind.blocks() => TileKind::ground(cell),
            kind => kind,
        }
    }

    /// The obstacle bits (rocks) of the level as generated.
    pub fn bits(&self) -> BitGrid {
        let mut bits = BitGrid::new(self.size, false);
        for (i, kind) in self.kinds.iter().enumerate() {
            if kind.blocks() {
                bits.set(self.size.cell(i), true);
            }
        }
        bits
    }

    /// The terrain id of every cell, row-major.
    pub fn terrain(&self) -> Vec<TerrainId> {
        self.kinds.iter().map(|k| k.terrain()).collect()
    }
}
