//! Bar chart of the MovingAI runner's mean time per algorithm, as a PNG made with std only.
//!
//! ```text
//! cargo run --release -p tilepath_bench --no-default-features --example movingai -- \
//!     --algo jps --algo pf-astar SCEN... > run.txt
//! cargo run --release -p tilepath_bench --no-default-features --example chart -- --out docs/algorithms.png [--title TEXT] [--note TEXT]
//!     [--linear] [INPUT]
//! ```
//!
//! Reads the `TOTAL algo=<name> queries=<n> mismatches=<n> mean_us=<x>` lines of the runner
//! from INPUT (a file, or standard input when INPUT is missing or `-`) and ignores every other
//! line. Draws one horizontal bar per algorithm, fastest first, on a logarithmic time axis
//! (`--linear` for a linear one; it is also used when a mean is zero), with the peer crates
//! (`pf-astar`, `gp-jps`, and bevy_northstar's `ns-astar`, `ns-hpa`) in a second colour,
//! each bar labelled with its name, its mean and its mismatch count when non-zero. The
//! image is an 8-bit palette PNG with uncompressed (stored) deflate blocks, 900 pixels
//! wide: about 0.3 MB for four bars, no crate needed.

mod axis;
mod canvas;
mod font;
mod png;

use axis::{Axis, duration, short_name};
use canvas::*;
use png::encode_png;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

/// Runner names of the peer crates; every other name is one of ours.
const PEERS: [&str; 4] = ["pf-astar", "gp-jps", "ns-astar", "ns-hpa"];
const DEFAULT_TITLE: &str = "mean time per query, MovingAI";
const USAGE: &str = "usage: chart --out FILE.png [--title TEXT] [--note TEXT] [--linear] [INPUT]
INPUT is the movingai runner's output (a file, or - or nothing for standard input)";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => {
            if !e.is_empty() {
                eprintln!("error: {e}");
            }
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Run(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Why the chart was not written: bad command line (exit 2) or bad input/output (exit 1).
#[derive(Debug)]
enum Failure {
    Usage(String),
    Run(String),
}

fn run() -> Result<(), Failure> {
    let opts = parse_args(std::env::args().skip(1)).map_err(Failure::Usage)?;
    let (text, source) = match &opts.input {
        Some(path) => (
            std::fs::read_to_string(path)
                .map_err(|e| Failure::Run(format!("cannot read {}: {e}", path.display())))?,
            path.display().to_string(),
        ),
        None => {
            let mut stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!("reading the runner's output from standard input (end with Ctrl-D)");
            }
            let mut text = String::new();
            stdin
                .read_to_string(&mut text)
                .map_err(|e| Failure::Run(format!("cannot read standard input: {e}")))?;
            (text, "standard input".to_string())
        }
    };
    let totals = parse_totals(&text).map_err(|e| Failure::Run(format!("{source}: {e}")))?;
    let chart = Chart {
        totals: &totals,
        title: &opts.title,
        note: opts.note.as_deref(),
        linear: opts.linear,
    };
    let canvas = chart.render();
    let png = encode_png(&canvas, &PALETTE);
    std::fs::write(&opts.out, &png)
        .map_err(|e| Failure::Run(format!("cannot write {}: {e}", opts.out.display())))?;
    println!(
        "wrote {} ({}x{}, {} bars, {} bytes)",
        opts.out.display(),
        canvas.width,
        canvas.height,
        totals.len(),
        png.len()
    );
    Ok(())
}

#[derive(Debug)]
struct Options {
    out: PathBuf,
    title: String,
    note: Option<String>,
    linear: bool,
    input: Option<PathBuf>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut out = None;
    let mut title = DEFAULT_TITLE.to_string();
    let mut note = None;
    let mut linear = false;
    let mut input: Option<Option<PathBuf>> = None;
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--out" | "-o" => out = Some(PathBuf::from(value("--out")?)),
            "--title" => title = value("--title")?,
            "--note" => note = Some(value("--note")?),
            "--linear" => linear = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ if input.is_some() => {
                return Err(format!("only one INPUT allowed, got another: {a}"));
            }
            "-" => input = Some(None),
            _ => input = Some(Some(PathBuf::from(a))),
        }
    }
    let out = out.ok_or("--out FILE.png is required")?;
    Ok(Options {
        out,
        title,
        note,
        linear,
        input: input.flatten(),
    })
}

/// One `TOTAL` line of the runner.
#[derive(Clone, Debug, PartialEq)]
struct Total {
    algo: String,
    queries: Option<u64>,
    /// `None` for `mismatches=n/a` (an algorithm that does not promise optimal paths).
    mismatches: Option<u64>,
    mean_us: f64,
}

impl Total {
    fn is_peer(&self) -> bool {
        PEERS.contains(&self.algo.as_str())
    }
}

/// Reads every `TOTAL` line, ignoring all other lines; fails on a malformed `TOTAL` line,
/// an algorithm listed twice, or when there is no `TOTAL` line at all.
fn parse_totals(text: &str) -> Result<Vec<Total>, String> {
    let mut totals: Vec<(usize, Total)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let mut words = line.split_whitespace();
        if words.next() != Some("TOTAL") {
            continue;
        }
        let (mut algo, mut queries, mut mismatches, mut mean_us) = (None, None, None, None);
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                continue;
            };
            let count = |v: &str| {
                v.parse::<u64>()
                    .map_err(|_| format!("line {n}: {key}={v} is not a count"))
            };
            match key {
                "algo" if !value.is_empty() => algo = Some(value.to_string()),
                "queries" => queries = Some(count(value)?),
                "mismatches" if value == "n/a" => mismatches = None,
                "mismatches" => mismatches = Some(count(value)?),
                "mean_us" => {
                    let v = value
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite() && *v >= 0.0);
                    mean_us = Some(v.ok_or(format!(
                        "line {n}: mean_us={value} is not a finite non-negative number"
                    ))?);
                }
                _ => {}
            }
        }
        let algo = algo.ok_or(format!("line {n}: TOTAL line without algo=NAME"))?;
        let mean_us = mean_us.ok_or(format!("line {n}: TOTAL line without mean_us=X"))?;
        if let Some((first, _)) = totals.iter().find(|(_, t)| t.algo == algo) {
            return Err(format!(
                "algo={algo} appears on lines {first} and {n}; chart one run at a time"
            ));
        }
        totals.push((
            n,
            Total {
                algo,
                queries,
                mismatches,
                mean_us,
            },
        ));
    }
    if totals.is_empty() {
        return Err(
            "no `TOTAL algo=... mean_us=...` line found (is this the movingai runner's output?)"
                .into(),
        );
    }
    Ok(totals.into_iter().map(|(_, t)| t).collect())
}

/// Width of the image in pixels.
const WIDTH: i64 = 900;
const MARGIN: i64 = 20;
/// Scale of all text but the title.
const TEXT: i64 = 2;
const TITLE: i64 = 3;
const ROW: i64 = 34;
const BAR: i64 = 22;
const LINE: i64 = 22;

/// Everything the chart shows.
struct Chart<'a> {
    totals: &'a [Total],
    title: &'a str,
    note: Option<&'a str>,
    linear: bool,
}

impl Chart<'_> {
    /// The bars from fastest to slowest (ties keep the input order).
    fn order(&self) -> Vec<&Total> {
        let mut bars: Vec<&Total> = self.totals.iter().collect();
        bars.sort_by(|a, b| a.mean_us.total_cmp(&b.mean_us));
        bars
    }

    /// How many queries each bar averages, when the input says: `62799 queries each`,
    /// or a range when the algorithms ran different numbers of queries.
    fn queries(&self) -> Option<String> {
        let counts: Vec<u64> = self.totals.iter().filter_map(|t| t.queries).collect();
        let (min, max) = (*counts.iter().min()?, *counts.iter().max()?);
        Some(if min == max && counts.len() == self.totals.len() {
            format!("{min} queries each")
        } else {
            format!("{min} to {max} queries")
        })
    }

    fn render(&self) -> Canvas {
        let bars = self.order();
        let axis = Axis::fit(
            &self.totals.iter().map(|t| t.mean_us).collect::<Vec<_>>(),
            self.linear,
        );
        let chars = |scale: i64| ((WIDTH - 2 * MARGIN) / (GLYPH_ADVANCE * scale)) as usize;
        let title = wrap(self.title, chars(TITLE));
        let note = self.note.map_or(Vec::new(), |n| wrap(n, chars(TEXT)));

        let title_line = (CAP_HEIGHT + 4) * TITLE;
        let legend_y = MARGIN + title.len() as i64 * title_line + 6;
        let rows_top = legend_y + LINE + 18;
        let axis_y = rows_top + bars.len() as i64 * ROW + 4;
        let caption_y = axis_y + 10 + LINE + 4;
        let note_y = caption_y + LINE + 10;
        let height = note_y + note.len() as i64 * LINE + MARGIN - 8;
        let mut c = Canvas::new(WIDTH as usize, height as usize);

        for (i, line) in title.iter().enumerate() {
            c.text(MARGIN, MARGIN + i as i64 * title_line, line, TITLE, INK);
        }
        let mut x = MARGIN;
        for (colour, label) in [(OURS, "ours (bevy_tilepath)"), (PEER, "peer crate")] {
            c.fill(x, legend_y, 14, 14, colour);
            c.text(x + 22, legend_y, label, TEXT, INK);
            x += 22 + text_width(label, TEXT) + 30;
        }
        if let Some(queries) = self.queries() {
            let w = text_width(&queries, TEXT);
            c.text(WIDTH - MARGIN - w, legend_y, &queries, TEXT, MUTED);
        }

        let names: Vec<String> = bars.iter().map(|t| short_name(&t.algo)).collect();
        let label_w = names.iter().map(|n| text_width(n, TEXT)).max().unwrap_or(0);
        let plot_x0 = MARGIN + label_w + 14;
        let plot_x1 = WIDTH - MARGIN - 36;
        let plot_w = plot_x1 - plot_x0;
        let at = |v: f64| plot_x0 + (axis.fraction(v) * plot_w as f64).round() as i64;

        let ticks = axis.ticks();
        for &(v, ref label) in &ticks {
            let colour = if label.is_some() { GRID } else { MINOR };
            c.fill(at(v), rows_top - 8, 1, axis_y - rows_top + 8, colour);
        }
        c.fill(plot_x0, axis_y, plot_w + 1, 2, AXIS);
        for (v, label) in &ticks {
            if let Some(label) = label {
                let x = at(*v);
                c.fill(x, axis_y + 2, 1, 5, AXIS);
                c.text(
                    x - text_width(label, TEXT) / 2,
                    axis_y + 10,
                    label,
                    TEXT,
                    MUTED,
                );
            }
        }
        let caption = axis.caption();
        c.text(
            plot_x1 - text_width(caption, TEXT),
            caption_y,
            caption,
            TEXT,
            MUTED,
        );

        for (i, (t, name)) in bars.iter().zip(&names).enumerate() {
            let y = rows_top + i as i64 * ROW + (ROW - BAR) / 2;
            let text_y = y + (BAR - CAP_HEIGHT * TEXT) / 2;
            let colour = if t.is_peer() { PEER } else { OURS };
            let end = at(t.mean_us).max(plot_x0 + 2);
            c.fill(plot_x0, y, end - plot_x0, BAR, colour);
            c.text(
                plot_x0 - 10 - text_width(name, TEXT),
                text_y,
                name,
                TEXT,
                INK,
            );
            let value = duration(t.mean_us);
            let warning = match t.mismatches {
                Some(m) if m > 0 => format!("{m} mismatches"),
                _ => String::new(),
            };
            let (value_w, warning_w) = (text_width(&value, TEXT), text_width(&warning, TEXT));
            let gap = 2 * GLYPH_ADVANCE * TEXT;
            let room = WIDTH - MARGIN - (end + 8);
            let both_w = value_w
                + if warning.is_empty() {
                    0
                } else {
                    gap + warning_w
                };
            if both_w <= room || value_w + 16 > end - plot_x0 {
                c.text(end + 8, text_y, &value, TEXT, INK);
                c.text(end + 8 + value_w + gap, text_y, &warning, TEXT, WARN);
                continue;
            }
            // The value goes inside the end of the bar; the warning stays red, to the right
            // of the bar if it fits there, else on a white patch inside the bar.
            c.text(end - 8 - value_w, text_y, &value, TEXT, WHITE);
            let patch_x = end - 8 - value_w - gap - warning_w;
            if warning_w <= room || patch_x - 6 < plot_x0 + 6 {
                c.text(end + 8, text_y, &warning, TEXT, WARN);
            } else {
                c.fill(patch_x - 6, y + 3, warning_w + 12, BAR - 6, WHITE);
                c.text(patch_x, text_y, &warning, TEXT, WARN);
            }
        }

        for (i, line) in note.iter().enumerate() {
            c.text(MARGIN, note_y + i as i64 * LINE, line, TEXT, MUTED);
        }
        c
    }
}

/// PNG of the canvas: 8-bit palette image, one IDAT of stored deflate blocks.
#[cfg(test)]
mod tests;
