//! Loading MovingAI benchmark sets from disk: a scen file and its map, matched by base name.
//!
//! Test and benchmark plumbing shared through `#[path]` by the conformance tests, the
//! `algorithms` bench, and the MovingAI runner and `plugin` bench of the unpublished
//! crates/bench; it is not part of the library.
#![allow(dead_code)]

use std::fmt;
use std::path::{Path, PathBuf};
use tilepath::scenario::movingai::{MovingAiMap, Problem, ScenError, parse_scen};
use tilepath::scenario::{MapError, Scenario};

/// Why a benchmark set could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The map file is malformed.
    Map {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        error: MapError,
    },
    /// The scenario file is malformed.
    Scen {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        error: ScenError,
    },
    /// The scenario file names no map, or several different maps.
    NoSingleMap {
        /// The scenario file.
        path: PathBuf,
    },
    /// A problem does not fit its map (size differs, or start/goal off the map).
    Mismatch {
        /// The scenario file.
        path: PathBuf,
        /// Zero-based index of the problem.
        problem: usize,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::Map { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::Scen { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::NoSingleMap { path } => {
                write!(f, "{}: problems must name exactly one map", path.display())
            }
            LoadError::Mismatch { path, problem } => {
                write!(
                    f,
                    "{}: problem {problem} does not fit its map",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// A scenario file with its map.
#[derive(Clone, Debug)]
pub struct BenchmarkSet {
    /// The scenario file.
    pub scen_path: PathBuf,
    /// The map file found for it.
    pub map_path: PathBuf,
    /// The parsed map.
    pub map: MovingAiMap,
    /// Its problems, in file order.
    pub problems: Vec<Problem>,
}

/// The folder where maps of `scen` are looked for by default: `maps/` beside the
/// scen file's folder (the layout of the MovingAI distribution and of `shared/movingai`).
pub fn default_maps_dir(scen: &Path) -> PathBuf {
    let folder = scen.parent().unwrap_or(Path::new("."));
    folder.parent().unwrap_or(Path::new(".")).join("maps")
}

/// The benchmark data folder: `$MOVINGAI_DIR`, else `shared/movingai` in the nearest
/// folder above `base` that has one (so `../shared/movingai` beside the repository is
/// found from the workspace root, `crates/tilepath` and `crates/bench` alike). `None` when there is none.
pub fn data_dir(base: &Path) -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("MOVINGAI_DIR") {
        let dir = PathBuf::from(d);
        return dir.join("scen").is_dir().then_some(dir);
    }
    base.ancestors()
        .map(|a| a.join("shared/movingai"))
        .find(|dir| dir.join("scen").is_dir())
}

/// All `.scen` files of a data folder's `scen/` subfolder, sorted by name.
pub fn scen_files(data_dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let dir = data_dir.join("scen");
    let io = |error| LoadError::Io {
        path: dir.clone(),
        error,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    Ok(files)
}

/// Loads a scen file and its map (looked up by base name in `maps_dir`), and checks
/// that every problem fits the map.
pub fn load(scen: &Path, maps_dir: &Path) -> Result<BenchmarkSet, LoadError> {
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|error| LoadError::Io {
            path: path.to_path_buf(),
            error,
        })
    };
    let problems = parse_scen(&read(scen)?).map_err(|error| LoadError::Scen {
        path: scen.to_path_buf(),
        error,
    })?;
    let name = match problems.first() {
        Some(p) if problems.iter().all(|q| q.map == p.map) => p.map.clone(),
        _ => {
            return Err(LoadError::NoSingleMap {
                path: scen.to_path_buf(),
            });
        }
    };
    let map_path = maps_dir.join(&name);
    let map = MovingAiMap::parse(&read(&map_path)?).map_err(|error| LoadError::Map {
        path: map_path.clone(),
        error,
    })?;
    let size = map.size();
    if let Some(problem) = problems
        .iter()
        .position(|p| p.size != size || !size.contains(p.start) || !size.contains(p.goal))
    {
        return Err(LoadError::Mismatch {
            path: scen.to_path_buf(),
            problem,
        });
    }
    Ok(BenchmarkSet {
        scen_path: scen.to_path_buf(),
        map_path,
        map,
        problems,
    })
}
