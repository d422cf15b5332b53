//! The battlefield: the three maps, where the units stand, the point they are sent to and
//! the formation cells around it.

use std::path::{Path, PathBuf};

use bevy_tilepath::prelude::Cell;
use bevy_tilepath::scenario::CachedScenario;
use bevy_tilepath::tilepath::grid::GridSize;
use bevy_tilepath::tilepath::scenario::generate::{self, SplitMix64};
use bevy_tilepath::tilepath::scenario::movingai::MovingAiMap;
use bevy_tilepath::tilepath::scenario::movingai_terrain::TerrainSpec;
use bevy_tilepath::tilepath::scenario::{BitGrid, MovementProfile, ProfileId};

/// The maps of the benchmark, in table order.
pub const MAPS: [&str; 3] = ["AR0011SR", "maze512-4-0", "countryside"];

/// Terrain weights of the countryside map's units (the `infantry` profile of the core's
/// `terrain_maps` example): road 1, field 2, forest 4, swamp 7, water and walls blocked.
pub const INFANTRY: &str = ".=2,R=1,F=4,S=7,W=x";

/// Seed of the generated countryside map (the `countryside-512-2` map of `terrain_maps`).
const COUNTRYSIDE_SEED: u64 = 2;
/// Seed of the unit placement.
const UNIT_SEED: u64 = 11;

/// What a map is made of.
#[derive(Clone)]
pub enum Ground {
    /// Obstacle bits (a MovingAI map): every free cell weighs 1.
    Bits(BitGrid),
    /// Terrain ids (MovingAI characters) weighed by [`INFANTRY`].
    Terrain(Vec<u8>),
}

/// One map with its units' movement rules.
pub struct Scene {
    pub name: String,
    pub size: GridSize,
    pub ground: Ground,
    /// The movement profile of the units on [`Scene::map`] (`infantry` on countryside).
    pub profile: ProfileId,
    /// The profile's name in the plugin's `MovementProfiles` (`None`: the default one).
    pub profile_name: Option<&'static str>,
    /// The terrain profile, when the map has terrain.
    pub movement: Option<MovementProfile>,
}

/// The data folder: `$MOVINGAI_DIR`, else `../shared/movingai` beside the repository.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("MOVINGAI_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai"),
    }
}

impl Scene {
    /// Loads or generates map `name` (one of [`MAPS`]).
    pub fn load(name: &str) -> Result<Scene, String> {
        let (ground, movement) = match name {
            "countryside" => {
                let land = generate::countryside(GridSize::new(512, 512), COUNTRYSIDE_SEED);
                let spec: TerrainSpec = INFANTRY.parse().map_err(|e| format!("{e:?}"))?;
                (Ground::Terrain(land.ids().to_vec()), Some(spec.profile()))
            }
            "AR0011SR" | "maze512-4-0" => {
                let path = data_dir().join("maps").join(format!("{name}.map"));
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    format!(
                        "{}: {e} (set MOVINGAI_DIR to the MovingAI data folder)",
                        path.display()
                    )
                })?;
                let map = MovingAiMap::parse(&text).map_err(|e| format!("{name}: {e}"))?;
                (Ground::Bits(map.into_bits()), None)
            }
            other => return Err(format!("unknown map {other}; one of {MAPS:?}")),
        };
        let (profile, profile_name) = match movement {
            Some(_) => (ProfileId(1), Some("infantry")),
            None => (ProfileId::DEFAULT, None),
        };
        let size = match &ground {
            Ground::Bits(bits) => bits.size(),
            Ground::Terrain(_) => GridSize::new(512, 512),
        };
        Ok(Scene {
            name: name.to_string(),
            size,
            ground,
            profile,
            profile_name,
            movement,
        })
    }

    /// A scene of obstacle bits only (every free cell weighs 1).
    #[cfg(test)]
    pub fn from_bits(name: &str, bits: BitGrid) -> Scene {
        Scene {
            name: name.to_string(),
            size: bits.size(),
            ground: Ground::Bits(bits),
            profile: ProfileId::DEFAULT,
            profile_name: None,
            movement: None,
        }
    }

    /// The core's cached map of this scene, with the units' profile registered.
    pub fn map(&self) -> CachedScenario {
        match &self.ground {
            Ground::Bits(bits) => CachedScenario::from_bits(bits.clone()).expect("a valid map"),
            Ground::Terrain(ids) => {
                let bits = BitGrid::new(self.size, false);
                let mut map =
                    CachedScenario::from_bits_and_terrain(bits, ids.clone()).expect("a valid map");
                if let Some(movement) = &self.movement {
                    map.set_profile(self.profile, movement.clone());
                }
                map
            }
        }
    }

    /// The weight of `cell` for the units, `None` where they cannot stand.
    pub fn weight(&self, cell: Cell) -> Option<u8> {
        let i = self.size.index(cell);
        match (&self.ground, &self.movement) {
            (Ground::Bits(bits), _) => (!bits.get_or(cell, true)).then_some(1),
            (Ground::Terrain(ids), Some(profile)) => profile.weight(ids[i]),
            (Ground::Terrain(_), None) => Some(1),
        }
    }
}

/// Where the units stand and where they are sent.
pub struct Army {
    /// The point of the orders: the free cell of the largest region nearest the centre.
    pub target: Cell,
    /// Each unit's start, distinct free cells of the target's region (the first
    /// `n` of one seeded sequence, so 1,000 units are the first 1,000 of 5,000).
    pub starts: Vec<Cell>,
    /// Each unit's formation cell: distinct free cells of the region in rings around the
    /// target (by squared distance, then y, then x); the unit nearest the target gets the
    /// nearest cell.
    pub slots: Vec<Cell>,
}

impl Army {
    /// `units` units on `map` (the scene's cached map) for the scene's profile.
    pub fn new(scene: &Scene, map: &CachedScenario, units: usize) -> Army {
        let layer = map.layer_for(scene.profile, 1).expect("the profile exists");
        let size = map.size();
        let comps = layer.components();
        let mut counts = std::collections::HashMap::new();
        for i in 0..size.area() {
            let label = comps.label(size.cell(i));
            if label != 0 {
                *counts.entry(label).or_insert(0usize) += 1;
            }
        }
        let (&largest, _) = counts
            .iter()
            .max_by_key(|&(label, n)| (*n, std::cmp::Reverse(*label)))
            .expect("a free cell");
        let centre = Cell::new(size.width as i32 / 2, size.height as i32 / 2);
        let region: Vec<Cell> = (0..size.area())
            .map(|i| size.cell(i))
            .filter(|&c| comps.label(c) == largest)
            .collect();
        let d2 = |a: Cell, b: Cell| {
            let (dx, dy) = (i64::from(a.x - b.x), i64::from(a.y - b.y));
            dx * dx + dy * dy
        };
        let target = *region
            .iter()
            .min_by_key(|&&c| (d2(c, centre), c.y, c.x))
            .expect("a free cell");
        assert!(
            region.len() > units,
            "{}: {} cells in the largest region",
            scene.name,
            region.len()
        );
        // A partial Fisher-Yates shuffle of the region, without the target.
        let mut pool: Vec<Cell> = region.iter().copied().filter(|&c| c != target).collect();
        let mut rng = SplitMix64::new(UNIT_SEED);
        for k in 0..units {
            let j = k + rng.below((pool.len() - k) as u32) as usize;
            pool.swap(k, j);
        }
        let starts = pool[..units].to_vec();
        let mut rings = region;
        rings.sort_unstable_by_key(|&c| (d2(c, target), c.y, c.x));
        let mut order: Vec<usize> = (0..units).collect();
        order.sort_unstable_by_key(|&i| (d2(starts[i], target), i));
        let mut slots = vec![target; units];
        for (k, &i) in order.iter().enumerate() {
            slots[i] = rings[k];
        }
        Army {
            target,
            starts,
            slots,
        }
    }
}
