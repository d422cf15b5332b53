//! The fuzz loop: corpus replay, a seeded generator, a count and a time cap, panics caught and counted.
//!
//! Every input is text. A target replays the files of `tests/fuzz_corpus/<target>/`
//! first (every input that ever failed), then draws inputs from a fixed seed until it
//! has tried its count or its time cap has passed, whichever comes first: the cap only
//! stops early, it never fails a run. A failure is a check that returns `Err` or
//! panics; the first few are printed and written to the corpus folder (outside CI), all are counted,
//! and the test fails at the end. The summary line goes straight to the process's
//! stderr, past libtest's output capture, so `cargo test` shows it.
//!
//! Environment: `TILEPATH_FUZZ_INPUTS` (count for every target), `TILEPATH_FUZZ_SECONDS`
//! (time cap), `TILEPATH_FUZZ_SEED` (another stream than the fixed one).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tilepath::scenario::generate::SplitMix64;

pub use crate::common::report;

/// The time cap of one target when `TILEPATH_FUZZ_SECONDS` is not set.
const SECONDS: f64 = 20.0;
/// The fixed seed of every target's stream (mixed with the target's name).
const SEED: u64 = 0x0071_17e9_a713;
/// Failures printed in full and saved to the corpus; the rest are counted.
const SHOWN: usize = 3;

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.parse().ok()
}

/// The corpus folder of `target`.
fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_corpus")
        .join(target)
}

/// FNV-1a of `bytes`: the corpus file name of an input and the per-target seed.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The corpus inputs of `target`, in file-name order.
fn corpus(target: &str) -> Vec<(String, String)> {
    let Ok(dir) = std::fs::read_dir(corpus_dir(target)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            (name, String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect()
}

/// Runs `check` on the corpus of `target`, then on up to `inputs` texts from
/// `generate`; prints `fuzz <target>: N inputs, K failures` and fails when K > 0.
/// `unit` names what an input is when it is not one text (e.g. "maps, 40 queries each").
pub fn fuzz(
    target: &str,
    inputs: u64,
    unit: &str,
    mut generate: impl FnMut(&mut SplitMix64) -> String,
    check: impl Fn(&str) -> Result<(), String>,
) {
    let inputs = env("TILEPATH_FUZZ_INPUTS").unwrap_or(inputs);
    let cap = Duration::from_secs_f64(env("TILEPATH_FUZZ_SECONDS").unwrap_or(SECONDS));
    let seed = env("TILEPATH_FUZZ_SEED").unwrap_or(SEED) ^ fnv(target.as_bytes());
    let mut rng = SplitMix64::new(seed);
    let begun = Instant::now();
    let (mut failures, mut shown) = (0u64, Vec::new());
    let mut run = |origin: &str, text: &str| {
        let outcome = catch_unwind(AssertUnwindSafe(|| check(text)))
            .unwrap_or_else(|panic| Err(format!("panicked: {}", panic_message(&panic))));
        if let Err(why) = outcome {
            failures += 1;
            if shown.len() < SHOWN {
                let saved = save(target, text);
                shown.push(format!(
                    "{target} input {origin}: {why}\n  input {:?}\n  {saved}",
                    clip(text)
                ));
            }
        }
    };
    let corpus = corpus(target);
    for (name, text) in &corpus {
        run(name, text);
    }
    let mut fresh = 0u64;
    while fresh < inputs && begun.elapsed() < cap {
        let text = generate(&mut rng);
        run(&format!("#{fresh}"), &text);
        fresh += 1;
    }
    let (replayed, tried) = (corpus.len() as u64, corpus.len() as u64 + fresh);
    let secs = begun.elapsed().as_secs_f64();
    let unit = if unit.is_empty() { "inputs" } else { unit };
    report(&format!(
        "fuzz {target}: {tried} {unit} ({replayed} from the corpus), {failures} failures, {secs:.1} s"
    ));
    assert!(
        failures == 0,
        "{failures} of {tried} inputs failed:\n{}",
        shown.join("\n")
    );
}

/// The message of a caught panic.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// At most 2,000 characters of `text`, for messages.
fn clip(text: &str) -> String {
    match text.char_indices().nth(2_000) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Writes a failing input to the corpus folder (not under CI, whose checkout is thrown
/// away: the input is printed instead) and says where.
fn save(target: &str, text: &str) -> String {
    if std::env::var_os("CI").is_some() {
        return "not saved under CI: add it to the corpus by hand".into();
    }
    let dir = corpus_dir(target);
    let path = dir.join(format!("found-{:016x}.txt", fnv(text.as_bytes())));
    match std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, text)) {
        Ok(()) => format!("saved as {}", path.display()),
        Err(e) => format!("not saved ({e})"),
    }
}

/// Strings that break parsers: huge and negative numbers, odd floats, separators.
const NASTY: [&str; 22] = [
    "4000000000",
    "100000",
    "18446744073709551616",
    "99999999999999999999999",
    "2147483648",
    "-2147483649",
    "-1",
    "0",
    "00",
    "+5",
    "1e9",
    "NaN",
    "inf",
    "-0",
    "256",
    "65536",
    "536870913",
    "\t",
    " ",
    "=",
    ",",
    "map",
];

/// Non-ASCII and control text: multi-byte characters, a BOM, NEL, NUL.
const ODD: [&str; 8] = [
    "é", "\u{feff}", "\u{85}", "\u{0}", "漢", "\u{2028}", "🦀", "\u{7f}",
];

/// One line ending of the three.
fn ending(rng: &mut SplitMix64) -> &'static str {
    ["\n", "\r\n", "\r"][rng.below(3) as usize]
}

/// `seed` with 1 to 4 random mutations: bit flips, byte swaps, truncation, inserted
/// huge numbers and odd characters, numbers replaced, line endings converted or mixed,
/// empty lines, lines deleted or repeated. The bytes are made valid UTF-8 again
/// (invalid sequences become U+FFFD, itself a non-ASCII character).
pub fn mutate(rng: &mut SplitMix64, seed: &str) -> String {
    let mut bytes = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = |rng: &mut SplitMix64, len: usize| rng.below(len as u32 + 1) as usize;
        let pos = at(rng, bytes.len());
        match rng.below(11) {
            0 if !bytes.is_empty() => {
                let i = pos.min(bytes.len() - 1);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if !bytes.is_empty() => {
                let i = pos.min(bytes.len() - 1);
                const BYTES: &[u8] = b".@T#\n\r\t =,x0-9GSW";
                bytes[i] = BYTES[rng.below(BYTES.len() as u32) as usize];
            }
            2 => bytes.truncate(pos),
            3 => insert(
                &mut bytes,
                pos,
                NASTY[rng.below(NASTY.len() as u32) as usize],
            ),
            4 => insert(&mut bytes, pos, ODD[rng.below(ODD.len() as u32) as usize]),
            5 => replace_number(rng, &mut bytes),
            6 => {
                let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
                let to = ending(rng);
                bytes = text.replace('\n', to).into_bytes();
            }
            7 => bytes = mix_endings(rng, &bytes),
            8 => insert(&mut bytes, pos, ending(rng)),
            _ => bytes = edit_lines(rng, &bytes),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn insert(bytes: &mut Vec<u8>, pos: usize, what: &str) {
    bytes.splice(pos..pos, what.bytes());
}

/// Replaces one run of digits with a nasty number.
fn replace_number(rng: &mut SplitMix64, bytes: &mut Vec<u8>) {
    let starts: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit()))
        .collect();
    if starts.is_empty() {
        return;
    }
    let start = starts[rng.below(starts.len() as u32) as usize];
    let end = (start..bytes.len())
        .find(|&i| !bytes[i].is_ascii_digit())
        .unwrap_or(bytes.len());
    let number = NASTY[rng.below(17) as usize];
    bytes.splice(start..end, number.bytes());
}

/// Each line ending replaced by a random one of LF, CRLF and CR.
fn mix_endings(rng: &mut SplitMix64, bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
    let mut out = String::with_capacity(text.len() + 64);
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.push_str(ending(rng));
        }
        out.push_str(line);
    }
    out.into_bytes()
}

/// One line deleted, repeated, emptied or blank-padded.
fn edit_lines(rng: &mut SplitMix64, bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let i = rng.below(lines.len() as u32) as usize;
    match rng.below(4) {
        0 => {
            lines.remove(i);
        }
        1 => lines.insert(i, lines[i].clone()),
        2 => lines[i].clear(),
        _ => lines[i] = format!("  {} ", lines[i]),
    }
    lines.join("\n").into_bytes()
}
