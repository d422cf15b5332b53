//! Map input from outside: sizes checked before allocation, typed errors, line endings.

use std::path::PathBuf;

use tilepath::grid::{GridSize, MAX_CELLS, MAX_SIDE};
use tilepath::prelude::*;
use tilepath::scenario::movingai::MovingAiMap;
use tilepath::scenario::{BitGrid, FnScenario, MapError, checked_size};

/// `$MOVINGAI_DIR`, or the first `shared/movingai` beside an ancestor of this crate.
fn movingai_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("MOVINGAI_DIR") {
        return Some(PathBuf::from(dir));
    }
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .map(|a| a.join("shared/movingai"))
        .find(|d| d.join("maps").is_dir())
}

fn header(width: &str, height: &str) -> String {
    format!("type octile\nheight {height}\nwidth {width}\nmap\n")
}

#[test]
fn an_oversized_movingai_header_is_too_large_not_an_allocation() {
    let text = header("4000000000", "4000000000") + "....\n";
    assert_eq!(
        MovingAiMap::parse(&text).unwrap_err(),
        MapError::TooLarge {
            width: 4_000_000_000,
            height: 4_000_000_000
        }
    );
    // Each limit on its own.
    let side = u64::from(MAX_SIDE) + 1;
    assert!(matches!(
        MovingAiMap::parse(&header(&side.to_string(), "1")).unwrap_err(),
        MapError::TooLarge { .. }
    ));
    assert!(matches!(
        MovingAiMap::parse(&header("65536", "32769")).unwrap_err(),
        MapError::TooLarge { .. }
    ));
    assert_eq!(65536 * 32768, MAX_CELLS);
}

#[test]
fn zero_junk_and_missing_rows_are_typed_errors() {
    assert_eq!(
        MovingAiMap::parse(&header("0", "4")).unwrap_err(),
        MapError::Empty
    );
    assert_eq!(
        MovingAiMap::parse(&(header("3", "3") + "...\n...\n")).unwrap_err(),
        MapError::MissingRows {
            expected: 3,
            found: 2
        }
    );
    assert!(matches!(
        MovingAiMap::parse("\u{0}\u{1}garbage\nmap\n").unwrap_err(),
        MapError::BadHeader { line: 1, .. }
    ));
    assert!(matches!(
        MovingAiMap::parse(&header("3", "1e3")).unwrap_err(),
        MapError::BadHeader { line: 2, .. }
    ));
    assert!(matches!(
        MovingAiMap::parse("type octile\nheight 1\nwidth 1\n").unwrap_err(),
        MapError::BadHeader { .. }
    ));
}

#[test]
fn checked_sizes_and_constructors_agree_on_the_limits() {
    assert_eq!(checked_size(0, 5), Err(MapError::Empty));
    assert_eq!(
        checked_size(u64::MAX, 1),
        Err(MapError::TooLarge {
            width: u64::MAX,
            height: 1
        })
    );
    assert!(checked_size(u64::from(MAX_SIDE), 4).is_ok());
    let huge = GridSize::new(u32::MAX, u32::MAX);
    assert!(matches!(
        CachedScenario::new(huge).unwrap_err(),
        MapError::TooLarge { .. }
    ));
    assert!(matches!(
        CachedScenario::from_scenario(&FnScenario::new(huge, |_| false)).unwrap_err(),
        MapError::TooLarge { .. }
    ));
    assert!(matches!(
        BitGrid::try_new(huge, false).unwrap_err(),
        MapError::TooLarge { .. }
    ));
    assert_eq!(
        CachedScenario::new(GridSize::new(0, 3)).unwrap_err(),
        MapError::Empty
    );
    assert_eq!(
        CachedScenario::from_ascii(" \r\n\r").unwrap_err(),
        MapError::Empty
    );
}

#[test]
fn ascii_maps_read_the_same_with_any_line_ending() {
    let lf = "..#.\n#...\n..@.\n";
    let expected = CachedScenario::from_ascii(lf).unwrap();
    for text in [
        lf.replace('\n', "\r"),
        lf.replace('\n', "\r\n"),
        format!("\r\n   {}", lf.replace('\n', "\r\n   ")),
    ] {
        let map = CachedScenario::from_ascii(&text).unwrap();
        assert_eq!(map.obstacles(), expected.obstacles(), "{text:?}");
    }
    assert_eq!(expected.size(), GridSize::new(4, 3));
}

#[test]
fn every_movingai_map_reads_the_same_with_lf_crlf_and_lone_cr_endings() {
    let Some(dir) = movingai_dir() else {
        assert!(
            std::env::var("CI").is_err(),
            "CI=true but the MovingAI data is missing: set MOVINGAI_DIR"
        );
        eprintln!("skipping: no MovingAI data (set MOVINGAI_DIR)");
        return;
    };
    let mut read = 0;
    for entry in std::fs::read_dir(dir.join("maps")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "map") {
            continue;
        }
        let original = std::fs::read_to_string(&path).unwrap();
        let bits = MovingAiMap::parse(&original)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .into_bits();
        let lf = original.replace("\r\n", "\n");
        for text in [lf.clone(), lf.replace('\n', "\r\n"), lf.replace('\n', "\r")] {
            let again = MovingAiMap::parse(&text).unwrap().into_bits();
            assert!(
                again == bits,
                "{}: line endings change the map",
                path.display()
            );
        }
        let mut lines = lf.lines();
        let height: u32 = lines.nth(1).unwrap()[7..].trim().parse().unwrap();
        let width: u32 = lines.next().unwrap()[6..].trim().parse().unwrap();
        assert_eq!(
            bits.size(),
            GridSize::new(width, height),
            "{}",
            path.display()
        );
        read += 1;
    }
    assert!(read > 0, "no .map files in {}", dir.display());
}
