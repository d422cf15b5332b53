//! Fuzz targets of the text readers: MovingAI maps and scens, ASCII maps, terrain specs.
//!
//! Seeds are real MovingAI files when the data folder is there (windows cut from the
//! maps, a few lines of the scens) and small built-in texts otherwise; each input is a
//! seed mutated by `harness::mutate`. Every answer must be `Ok` or a typed error that
//! an independent reading of the text predicts, and `Ok` answers must round-trip
//! through the format's writer.

use std::path::Path;

use tilepath::grid::{Cell, GridSize};
use tilepath::prelude::*;
use tilepath::scenario::generate::SplitMix64;
use tilepath::scenario::movingai::{MovingAiMap, Problem, parse_scen, to_movingai};
use tilepath::scenario::movingai_terrain::{TerrainMap, TerrainSpec, terrain_char, terrain_id};
use tilepath::scenario::{AsciiScenario, MapError, is_obstacle_char, render};

use crate::common;
use crate::harness::{fuzz, mutate};

/// The text of every file with `extension` in `dir` of the MovingAI data, if present.
fn data_files(dir: &str, extension: &str) -> Vec<String> {
    let Some(root) = common::movingai_dir() else {
        return Vec::new();
    };
    let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p: &std::path::PathBuf| std::fs::read_to_string(Path::new(p)).unwrap())
        .collect()
}

/// Lines split as the readers document: LF, CRLF and a lone CR each end a line.
fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\n', '\r']) {
            Some(i) => {
                out.push(&rest[..i]);
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + skip..];
            }
            None => {
                out.push(rest);
                rest = "";
            }
        }
    }
    out
}

/// A window of at most 48 x 24 cells of a real map, written with its own characters.
fn window(rng: &mut SplitMix64, map: &str) -> String {
    let rows: Vec<&str> = lines(map).into_iter().skip(4).collect();
    let (h, w) = (rows.len(), rows[0].len());
    let (cw, ch) = (
        1 + rng.below(48.min(w as u32)),
        1 + rng.below(24.min(h as u32)),
    );
    let x = rng.below(w as u32 - cw + 1) as usize;
    let y = rng.below(h as u32 - ch + 1) as usize;
    let mut text = format!("type octile\nheight {ch}\nwidth {cw}\nmap\n");
    for row in &rows[y..y + ch as usize] {
        text.push_str(&row[x..x + cw as usize]);
        text.push('\n');
    }
    text
}

const MAP_SEEDS: [&str; 3] = [
    "type octile\nheight 2\nwidth 3\nmap\n.@.\nT.G\n",
    "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n..S.\r\nW@..\r\n....",
    "height 1\nwidth 70\ntype octile\n\nmap\n\n.....@@@@@TTTTT.....WWWWW.....GGGGG.....SSSSS.....OOOOO.....@.@.@.@.@.\n",
];

#[test]
fn movingai_maps() {
    let maps = data_files("maps", "map");
    fuzz(
        "movingai-map",
        30_000,
        "",
        |rng| {
            let seed = if maps.is_empty() || rng.chance(1, 4) {
                MAP_SEEDS[rng.below(3) as usize].to_string()
            } else if rng.chance(1, 400) {
                maps[rng.below(maps.len() as u32) as usize].clone()
            } else {
                let k = rng.below(maps.len() as u32) as usize;
                window(rng, &maps[k])
            };
            if rng.chance(1, 8) {
                seed
            } else {
                mutate(rng, &seed)
            }
        },
        check_map,
    );
}

/// Both map readers against a reading of the body written out here, and round trips.
fn check_map(text: &str) -> Result<(), String> {
    let bits = MovingAiMap::parse(text).map(MovingAiMap::into_bits);
    let terrain = TerrainMap::parse(text);
    match (&bits, &terrain) {
        (Err(a), Err(b)) if a == b => return Ok(()),
        (Ok(bits), Ok(terrain)) if bits.size() == terrain.size() => {
            let size = bits.size();
            let body = body_rows(text).ok_or("Ok without a `map` line")?;
            if body.len() != size.height as usize {
                return Err(format!(
                    "{} body rows for height {}",
                    body.len(),
                    size.height
                ));
            }
            for (y, row) in body.iter().enumerate() {
                let chars: Vec<char> = row.chars().collect();
                if chars.len() != size.width as usize {
                    return Err(format!(
                        "row {y} has {} chars, width {}",
                        chars.len(),
                        size.width
                    ));
                }
                for (x, &ch) in chars.iter().enumerate() {
                    let c = Cell::new(x as i32, y as i32);
                    if bits.get_or(c, false) != !matches!(ch, '.' | 'G' | 'S') {
                        return Err(format!("cell {c} ({ch:?}) read wrong"));
                    }
                    if terrain.get(c) != Some(terrain_id(ch)) {
                        return Err(format!("terrain of {c} ({ch:?}) read wrong"));
                    }
                }
            }
            let again = MovingAiMap::parse(&to_movingai(bits)).map_err(|e| e.to_string())?;
            if again.into_bits() != *bits {
                return Err("to_movingai does not read back".into());
            }
            let written = TerrainMap::parse(&terrain.to_movingai()).map_err(|e| e.to_string())?;
            let printable = |t: u8| if t.is_ascii_graphic() { t } else { b'@' };
            if written
                .ids()
                .iter()
                .copied()
                .ne(terrain.ids().iter().map(|&t| printable(t)))
            {
                return Err("TerrainMap::to_movingai does not read back".into());
            }
            if size.area() <= 1 << 16 {
                let cached = terrain.clone().into_scenario().map_err(|e| e.to_string())?;
                if cached.layer(1).unwrap().bits() != bits {
                    return Err("the terrain map's default profile differs from the bits".into());
                }
            }
            return Ok(());
        }
        _ => {}
    }
    Err(format!("the readers disagree: {bits:?} vs {terrain:?}"))
}

/// The non-blank lines after the first line that is `map` (spaces around allowed).
fn body_rows(text: &str) -> Option<Vec<&str>> {
    let all = lines(text);
    let map = all.iter().position(|l| l.trim() == "map")?;
    Some(
        all[map + 1..]
            .iter()
            .copied()
            .filter(|l| !l.is_empty())
            .collect(),
    )
}

const SCEN_SEED: &str = "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n\
    3\tarena.map\t49\t49\t5\t6\t20\t19\t15.72792206\r\n";

#[test]
fn movingai_scens() {
    let scens: Vec<Vec<String>> = data_files("scen", "scen")
        .iter()
        .map(|t| lines(t).into_iter().map(str::to_string).collect())
        .collect();
    fuzz(
        "movingai-scen",
        200_000,
        "",
        |rng| {
            let seed = if scens.is_empty() || rng.chance(1, 4) {
                SCEN_SEED.to_string()
            } else {
                let file = &scens[rng.below(scens.len() as u32) as usize];
                let mut text = file[0].clone() + "\n";
                for _ in 0..1 + rng.below(6) {
                    text += &file[1 + rng.below(file.len() as u32 - 1) as usize];
                    text += "\n";
                }
                text
            };
            if rng.chance(1, 8) {
                seed
            } else {
                mutate(rng, &seed)
            }
        },
        check_scen,
    );
}

/// Problems written back as scen lines read back equal; errors name a line of the text.
fn check_scen(text: &str) -> Result<(), String> {
    let problems = match parse_scen(text) {
        Err(e) if e.line >= 1 && e.line <= lines(text).len() => return Ok(()),
        Err(e) => return Err(format!("{e} but the text has {} lines", lines(text).len())),
        Ok(p) => p,
    };
    let mut written = String::from("version 1\n");
    for p in &problems {
        if p.map.contains(['/', '\\', '\t', '\n', '\r']) {
            return Err(format!("map name {:?} keeps a path or a separator", p.map));
        }
        if !p.optimal.is_finite() || p.optimal < 0.0 {
            return Err(format!("optimal length {} accepted", p.optimal));
        }
        written += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            p.bucket,
            p.map,
            p.size.width,
            p.size.height,
            p.start.x,
            p.start.y,
            p.goal.x,
            p.goal.y,
            p.optimal
        );
    }
    let again: Vec<Problem> = parse_scen(&written).map_err(|e| format!("written back: {e}"))?;
    if again != problems {
        return Err(format!("written back as {written:?}, read as {again:?}"));
    }
    Ok(())
}

/// A random ASCII map of up to 80 x 12 cells, its rows indented now and then.
fn ascii_map(rng: &mut SplitMix64) -> String {
    let (w, h) = (1 + rng.below(80), 1 + rng.below(12));
    let mut text = String::new();
    for _ in 0..h {
        if rng.chance(1, 6) {
            text.push_str("   ");
        }
        for _ in 0..w {
            text.push(['.', '.', '.', '#', '@', 'T', 'W', 'O', 'G', 'S'][rng.below(10) as usize]);
        }
        text.push_str(["\n", "\r\n", "\r"][rng.below(3) as usize]);
    }
    text
}

#[test]
fn ascii_maps() {
    fuzz(
        "ascii",
        100_000,
        "",
        |rng| {
            let seed = ascii_map(rng);
            if rng.chance(1, 8) {
                seed
            } else {
                mutate(rng, &seed)
            }
        },
        check_ascii,
    );
}

/// Both ASCII readers against the documented rules, and `render` reading back.
fn check_ascii(text: &str) -> Result<(), String> {
    let rows: Vec<&str> = lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let width = rows.first().map_or(0, |r| r.chars().count());
    let ragged = rows.iter().position(|r| r.chars().count() != width);
    let expected = match (rows.len(), ragged) {
        (0, _) => Err(MapError::Empty),
        (_, Some(row)) => Err(MapError::RaggedRow {
            row,
            expected: width,
            found: rows[row].chars().count(),
        }),
        (h, None) => Ok(GridSize::new(width as u32, h as u32)),
    };
    let cached = CachedScenario::from_ascii(text);
    let plain = AsciiScenario::parse(text);
    let got = cached.as_ref().map(|m| m.size()).map_err(Clone::clone);
    if got != expected || plain.as_ref().map(|m| m.size()).map_err(Clone::clone) != expected {
        return Err(format!(
            "expected {expected:?}, from_ascii {got:?}, AsciiScenario {:?}",
            plain.map(|p| p.size())
        ));
    }
    let (Ok(map), Ok(plain)) = (cached, plain) else {
        return Ok(());
    };
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let c = Cell::new(x as i32, y as i32);
            if map.is_obstacle(c) != is_obstacle_char(ch)
                || plain.is_obstacle(c) != is_obstacle_char(ch)
            {
                return Err(format!("cell {c} ({ch:?}) read wrong"));
            }
        }
    }
    let again = CachedScenario::from_ascii(&render(&map, &[])).map_err(|e| e.to_string())?;
    if again.obstacles() != map.obstacles() {
        return Err("render does not read back".into());
    }
    Ok(())
}

const SPEC_SEEDS: [&str; 5] = [
    "T=3,.=1,W=x",
    ".=3,R=1,F=5,S=9,W=x",
    "@=255",
    "G=1",
    " =2,==3,x=x",
];

/// A random spec of 1 to 6 entries, some of them odd.
fn spec(rng: &mut SplitMix64) -> String {
    let entries: Vec<String> = (0..1 + rng.below(6))
        .map(|_| {
            let ch = char::from(32 + rng.below(95) as u8);
            let weight = match rng.below(5) {
                0 => "x".to_string(),
                1 => rng.below(1_000).to_string(),
                _ => (1 + rng.below(255)).to_string(),
            };
            format!("{ch}={weight}")
        })
        .collect();
    entries.join(",")
}

#[test]
fn terrain_specs() {
    fuzz(
        "terrain-spec",
        300_000,
        "",
        |rng| {
            let seed = if rng.chance(1, 2) {
                SPEC_SEEDS[rng.below(5) as usize].to_string()
            } else {
                spec(rng)
            };
            if rng.chance(1, 4) {
                seed
            } else {
                mutate(rng, &seed)
            }
        },
        check_spec,
    );
}

/// A spec reads back from its `Display`, and its profile gives every character its weight.
fn check_spec(text: &str) -> Result<(), String> {
    let spec = match TerrainSpec::parse(text) {
        Err(e) if !e.to_string().is_empty() => return Ok(()),
        Err(e) => return Err(format!("{e:?} has no message")),
        Ok(s) => s,
    };
    if spec.entries().count() != text.split(',').count() {
        return Err(format!(
            "{} entries from {} parts",
            spec.entries().count(),
            text.split(',').count()
        ));
    }
    let again = TerrainSpec::parse(&spec.to_string()).map_err(|e| format!("written back: {e}"))?;
    if again != spec {
        return Err(format!("written back as {spec}, read as {again:?}"));
    }
    let profile = spec.profile();
    for id in 0..=u8::MAX {
        let weight = terrain_char(id).and_then(|c| spec.weight(c));
        if profile.weight(id) != weight {
            return Err(format!(
                "id {id}: profile {:?}, spec {weight:?}",
                profile.weight(id)
            ));
        }
    }
    Ok(())
}
