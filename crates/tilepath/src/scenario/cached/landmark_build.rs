//! Landmark tables built away from the map: a snapshot of one layer, built on any thread, then installed and brought up to date with the edits made meanwhile.

use super::CachedScenario;
use crate::grid::{Cell, GridSize};
use crate::scenario::MapChange;
use crate::scenario::bitgrid::BitGrid;
use crate::scenario::landmarks::Landmarks;
use crate::scenario::layer::Stops;
use crate::scenario::profile::{ProfileId, TerrainId};
use crate::scenario::weights::Weights;
use crate::shape::GridShape;

/// The landmark table (and interior bits) of one weighted layer, built from a snapshot
/// so that the O(n log n)-per-landmark work runs off the frame: take the snapshot with
/// [`LandmarkBuild::new`] (O(n) copy), [`run`](LandmarkBuild::run) it on any thread, and
/// give it back with [`CachedScenario::install_landmarks`], which repairs the table for
/// the edits made since the snapshot (O(edits) seeds, see
/// [`Landmarks`](crate::scenario::Landmarks)) before the layer's searches read it.
///
/// Memory while it exists: the layer's blocked bits and the map's terrain ids (1 bit
/// and 1 byte per cell), and once run the table (64 bytes per cell) and interior bits.
///
/// ```
/// use tilepath::prelude::*;
/// use tilepath::scenario::{LandmarkBuild, MovementProfile, ProfileId};
///
/// let mut map = CachedScenario::from_ascii(".......\n.......\n.......").unwrap();
/// for cell in [Cell::new(3, 0), Cell::new(3, 1)] {
///     map.set_terrain(cell, 1);
/// }
/// let heavy = ProfileId(1);
/// map.set_profile(heavy, MovementProfile::new().with_weight(1, 3));
/// map.set_auto_builds_landmarks(false);
/// let mut build = LandmarkBuild::new(&map, heavy, 1).unwrap();
/// let worker = std::thread::spawn(move || {
///     build.run();
///     build
/// });
/// // Edits go on meanwhile; the install catches the table up with them.
/// map.set_obstacle(Cell::new(3, 2), true);
/// map.install_landmarks(worker.join().unwrap()).unwrap();
/// assert!(map.layer_for(heavy, 1).unwrap().landmarks().is_some());
/// ```
#[derive(Debug)]
pub struct LandmarkBuild {
    map: u64,
    generation: u64,
    profile: ProfileId,
    diameter: u32,
    blocked: BitGrid,
    terrain: Vec<TerrainId>,
    weights: [u8; 256],
    min: u8,
    uniform: Option<u8>,
    built: Option<Built>,
}

/// What [`LandmarkBuild::run`] made.
#[derive(Debug)]
struct Built {
    table: Option<Landmarks>,
    interior: Stops,
}

/// Why [`CachedScenario::install_landmarks`] did not take a build; take a new snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaleBuild {
    /// The snapshot was taken of another map object (see [`CachedScenario::id`]), or
    /// of one of another size.
    OtherMap,
    /// The map cannot list the edits made since the snapshot (see
    /// [`CachedScenario::edits_since`]): too many, or a profile was registered since.
    EditsForgotten,
    /// The snapshot's profile is no longer registered, or its layer is not built.
    NoLayer,
}

impl std::fmt::Display for StaleBuild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::OtherMap => "the landmark build was taken of another map",
            Self::EditsForgotten => "the map no longer lists the edits since the build",
            Self::NoLayer => "the landmark build's layer is gone",
        })
    }
}

impl std::error::Error for StaleBuild {}

impl LandmarkBuild {
    /// A snapshot of the layer of `profile` and `diameter` on `map` (building the layer
    /// if needed), or `None` when there is no such layer or it is not weighted (every
    /// passable cell weighs the same: `Auto` runs JPS there, not the table). O(n).
    pub fn new(map: &CachedScenario, profile: ProfileId, diameter: u32) -> Option<Self> {
        let weights = map.weights(profile)?;
        if weights.uniform().is_some() || !map.shape().is_square() {
            return None;
        }
        let layer = map.layer_for(profile, diameter)?;
        let slot = map.slot(profile)?;
        Some(Self {
            map: map.id(),
            generation: map.generation(),
            profile,
            diameter,
            blocked: layer.bits().clone(),
            terrain: map.terrain.clone(),
            weights: *slot.profile.weights(),
            min: slot.min_weight,
            uniform: slot.uniform,
            built: None,
        })
    }

    /// The profile of the layer.
    pub fn profile(&self) -> ProfileId {
        self.profile
    }

    /// The diameter of the layer.
    pub fn diameter(&self) -> u32 {
        self.diameter
    }

    /// The map object the snapshot was taken of ([`CachedScenario::id`]).
    pub fn map(&self) -> u64 {
        self.map
    }

    /// Builds the table and the interior bits from the snapshot (once; later calls do
    /// nothing): `LANDMARKS + 1` Dijkstra searches over the layer, O(n log n) each.
    pub fn run(&mut self) {
        if self.built.is_some() {
            return;
        }
        let weights = Weights::new(
            self.blocked.size(),
            &self.terrain,
            &self.weights,
            self.min,
            self.uniform,
        );
        self.built = Some(Built {
            table: Landmarks::build(&self.blocked, weights),
            interior: Stops::build(&self.blocked, weights),
        });
    }

    fn size(&self) -> GridSize {
        self.blocked.size()
    }
}

impl CachedScenario {
    /// Installs the table of `build` (running it first if it was not run) on its layer,
    /// repaired for the cell edits made since its snapshot: from then on
    /// [`Algorithm::Auto`](crate::search::Algorithm::Auto) reads it there. A layer that
    /// has a table already keeps its own. Searches started before keep the bound they
    /// started with. Returns the repair's work (as
    /// [`MapChange::work`](crate::scenario::MapChange::work) counts it): O(edits since
    /// the snapshot × the cells each touches), not O(n).
    ///
    /// # Errors
    ///
    /// [`StaleBuild`] when the build cannot be brought up to date; nothing changes.
    pub fn install_landmarks(&mut self, mut build: LandmarkBuild) -> Result<u64, StaleBuild> {
        if build.map != self.id() || build.size() != self.size {
            return Err(StaleBuild::OtherMap);
        }
        let size = self.size;
        let edits = self
            .edits_since(build.generation)
            .ok_or(StaleBuild::EditsForgotten)?;
        let touched: Vec<Cell> = edits
            .iter()
            .flat_map(|e| {
                MapChange::moves_area(GridShape::Square, e.cell, build.diameter, size).cells()
            })
            .collect();
        let slot = self
            .profiles
            .get_mut(usize::from(build.profile.0))
            .and_then(Option::as_mut)
            .ok_or(StaleBuild::NoLayer)?;
        let index = build.diameter.checked_sub(1).ok_or(StaleBuild::NoLayer)? as usize;
        let layer = slot
            .layers
            .get_mut(index)
            .and_then(|l| l.get_mut())
            .ok_or(StaleBuild::NoLayer)?;
        build.run();
        let Built { table, interior } = build.built.take().expect("run above");
        let weights = Weights::new(
            size,
            &self.terrain,
            slot.profile.weights(),
            slot.min_weight,
            slot.uniform,
        );
        Ok(layer.install_landmarks(weights, table, interior, &touched))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::generate::{SplitMix64, countryside};
    use crate::scenario::movingai_terrain::TerrainSpec;
    use crate::scenario::{MapEdit, render};
    use crate::search::{Algorithm, PathQuery, Pathfinder};

    /// A table built from a snapshot and installed after walls, openings and terrain
    /// repaints answers every query at the cost plain A* finds on the edited map.
    #[test]
    fn a_table_installed_after_edits_answers_as_a_star() {
        let size = GridSize::new(48, 40);
        for seed in 0..6u64 {
            let mut map = countryside(size, seed).into_scenario().unwrap();
            let foot = ProfileId(1);
            let spec: TerrainSpec = ".=2,R=1,F=4,S=7,W=x".parse().unwrap();
            map.set_profile(foot, spec.profile());
            map.set_auto_builds_landmarks(false);
            let mut build = LandmarkBuild::new(&map, foot, 1).unwrap();
            build.run();
            let mut rng = SplitMix64::new(seed);
            let cell = |rng: &mut SplitMix64| {
                Cell::new(rng.below(size.width) as i32, rng.below(size.height) as i32)
            };
            for _ in 0..60 {
                let c = cell(&mut rng);
                let edit = match rng.below(3) {
                    0 => MapEdit::Obstacle(c, true),
                    1 => MapEdit::Obstacle(c, false),
                    _ => MapEdit::Terrain(c, rng.below(4) as TerrainId),
                };
                map.apply_edits([edit]);
            }
            assert!(map.install_landmarks(build).is_ok());
            let layer = map.layer_for(foot, 1).unwrap();
            assert!(layer.landmarks().is_some(), "seed {seed}");
            let mut pf = Pathfinder::new();
            for _ in 0..80 {
                let (a, b) = (cell(&mut rng), cell(&mut rng));
                let q = PathQuery::new(a, b).profile(foot);
                let auto = pf.find(&map, &q).map(|s| s.cost);
                let astar = pf
                    .find(&map, &q.algorithm(Algorithm::AStar))
                    .map(|s| s.cost);
                assert_eq!(
                    auto,
                    astar,
                    "seed {seed}, {a:?} -> {b:?} on\n{}",
                    render(&map, &[])
                );
            }
        }
    }

    #[test]
    fn a_build_of_another_map_or_with_forgotten_edits_is_refused() {
        let mut map = countryside(GridSize::new(24, 24), 1)
            .into_scenario()
            .unwrap();
        let foot = ProfileId(1);
        let spec: TerrainSpec = ".=2,R=1,F=4,S=7,W=x".parse().unwrap();
        map.set_profile(foot, spec.profile());
        let build = LandmarkBuild::new(&map, foot, 1).unwrap();
        let mut other = map.clone();
        assert_eq!(other.install_landmarks(build), Err(StaleBuild::OtherMap));
        let build = LandmarkBuild::new(&map, foot, 1).unwrap();
        map.set_profile(ProfileId(2), spec.profile());
        assert_eq!(
            map.install_landmarks(build),
            Err(StaleBuild::EditsForgotten)
        );
        // A uniform layer has no table to build.
        assert!(LandmarkBuild::new(&map, ProfileId::DEFAULT, 1).is_none());
    }
}
