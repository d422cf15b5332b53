//! Bar chart of the MovingAI runner's mean time per algorithm, as an SVG drawn with plotters.
//!
//! ```text
//! cargo run --release -p tilepath_bench --no-default-features --example movingai -- \
//!     --algo jps --algo pf-astar SCEN... > run.txt
//! cargo run --release -p tilepath_bench --no-default-features --example chart -- --out docs/algorithms.svg [--title TEXT] [--note TEXT]
//!     [--linear] [INPUT]
//! ```
//!
//! Reads the `TOTAL algo=<name> queries=<n> mismatches=<n> mean_us=<x>` lines of the runner
//! from INPUT (a file, or standard input when INPUT is missing or `-`) and ignores every other
//! line. Draws one horizontal bar per algorithm, fastest first, on a logarithmic time axis
//! (`--linear` for a linear one; it is also used when a mean is zero), with the peer crates
//! (`pf-astar`, `gp-jps`, and bevy_northstar's `ns-astar`, `ns-hpa`) in a second colour,
//! each bar labelled with its name, its mean and its mismatch count when non-zero. The
//! image is an SVG 900 pixels wide whose text is SVG text (drawn by the crate's `chart`
//! module, which the army chart uses too).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use tilepath_bench::chart::{
    self, Axis, Bar, INK, MUTED, OURS, PEER, Panel, TEXT, TITLE, centred, chars, font, legend,
    right, text_width, wrap, write,
};

/// Runner names of the peer crates; every other name is one of ours.
const PEERS: [&str; 4] = ["pf-astar", "gp-jps", "ns-astar", "ns-hpa"];
const DEFAULT_TITLE: &str = "mean time per query, MovingAI";
const USAGE: &str = "usage: chart --out FILE.svg [--title TEXT] [--note TEXT] [--linear] [INPUT]
INPUT is the movingai runner's output (a file, or - or nothing for standard input)";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => tilepath_bench::usage_error(&e, USAGE),
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
    let (svg, height) = chart
        .render()
        .map_err(|e| Failure::Run(format!("cannot draw the chart: {e}")))?;
    std::fs::write(&opts.out, &svg)
        .map_err(|e| Failure::Run(format!("cannot write {}: {e}", opts.out.display())))?;
    println!(
        "wrote {} ({WIDTH}x{height}, {} bars, {} bytes)",
        opts.out.display(),
        totals.len(),
        svg.len()
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
    let out = out.ok_or("--out FILE.svg is required")?;
    if out.extension().is_none_or(|e| e != "svg") {
        return Err(format!(
            "--out {}: the chart is an SVG, name a .svg file",
            out.display()
        ));
    }
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
const WIDTH: i32 = 900;
const MARGIN: i32 = 20;
/// Height of a bar's row, of a bar, and of a line of text.
const ROW: i32 = 34;
const BAR: i32 = 22;
const LINE: i32 = 22;

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

    /// The bars, top first, in the plot's pixels.
    fn bars(&self) -> Vec<Bar> {
        self.order()
            .iter()
            .enumerate()
            .map(|(i, t)| Bar {
                top: 8 + i as i32 * ROW + (ROW - BAR) / 2,
                value: t.mean_us,
                colour: if t.is_peer() { PEER } else { OURS },
                label: duration(t.mean_us),
                warning: t
                    .mismatches
                    .filter(|&m| m > 0)
                    .map(|m| format!("{m} mismatches")),
            })
            .collect()
    }

    /// The SVG and its height.
    fn render(&self) -> chart::Result<(String, i32)> {
        let axis = Axis::fit(
            &self.totals.iter().map(|t| t.mean_us).collect::<Vec<_>>(),
            self.linear,
        );
        let title = wrap(self.title, chars(WIDTH - 2 * MARGIN, TITLE));
        let note = self
            .note
            .map_or(Vec::new(), |n| wrap(n, chars(WIDTH - 2 * MARGIN, TEXT)));
        let title_line = (TITLE * 1.3).round() as i32;
        let legend_y = MARGIN + title.len() as i32 * title_line + 6;
        let plot_y = legend_y + LINE + 10;

        let names: Vec<String> = self.order().iter().map(|t| short_name(&t.algo)).collect();
        let label_w = names.iter().map(|n| text_width(n, TEXT)).max().unwrap_or(0);
        let plot_x0 = MARGIN + label_w + 14;
        let plot_x1 = WIDTH - MARGIN - 36;
        let bars = self.bars();
        let panel = Panel {
            axis,
            bars: &bars,
            bar_height: BAR,
            height: 8 + bars.len() as i32 * ROW + 4,
            overhang: WIDTH - MARGIN - plot_x1,
            limit: None,
            caption: Some(caption(axis)),
        };
        let note_y = plot_y + panel.outer_height() + 10;
        let height = note_y + note.len() as i32 * LINE + MARGIN - 8;

        let svg = chart::svg(WIDTH as u32, height as u32, |root| {
            for (i, line) in title.iter().enumerate() {
                let y = MARGIN + i as i32 * title_line;
                write(root, line, (MARGIN, y), &font(TITLE, INK))?;
            }
            legend(
                root,
                (MARGIN, legend_y),
                &[(OURS, "ours (bevy_tilepath)"), (PEER, "peer crate")],
            )?;
            if let Some(queries) = self.queries() {
                let at = (WIDTH - MARGIN, centred(legend_y + 7, TEXT));
                write(root, &queries, at, &right(font(TEXT, MUTED)))?;
            }
            panel.draw(root, (plot_x0, plot_y), plot_x1 - plot_x0)?;
            for (bar, name) in bars.iter().zip(&names) {
                let y = centred(plot_y + bar.top + BAR / 2, TEXT);
                write(root, name, (plot_x0 - 10, y), &right(font(TEXT, INK)))?;
            }
            for (i, line) in note.iter().enumerate() {
                let y = note_y + i as i32 * LINE;
                write(root, line, (MARGIN, y), &font(TEXT, MUTED))?;
            }
            Ok(())
        })?;
        Ok((svg, height))
    }
}

/// What the axis measures.
fn caption(axis: Axis) -> &'static str {
    match axis {
        Axis::Log { .. } => "microseconds per query (log scale)",
        Axis::Linear { .. } => "microseconds per query",
    }
}

/// An algorithm's name as labelled, cut to 20 characters so the bars keep their room.
fn short_name(name: &str) -> String {
    const MAX: usize = 20;
    if name.chars().count() <= MAX {
        return name.to_string();
    }
    let mut cut: String = name.chars().take(MAX - 3).collect();
    cut.push_str("...");
    cut
}

/// A mean time as shown next to its bar.
fn duration(us: f64) -> String {
    match us {
        u if u >= 100.0 => format!("{u:.0} us"),
        u if u >= 10.0 => format!("{u:.1} us"),
        u => format!("{u:.2} us"),
    }
}

#[cfg(test)]
mod tests;
