//! The `stress` example's command line: `--mode live-edits|soak`, then the flags.

use std::time::Duration;

use bevy_tilepath::prelude::{FrameBudget, GroupOrders};

use crate::stress::{Config, Mode};

/// What `--help` and a bad command line print.
pub const USAGE: &str = "\
usage: stress --mode live-edits|soak [--units N] [--size N] [--frames N] [--edits N]
              [--budget-ms MS | --expansions N] [--threads N] [--seed N] [--every FRAMES]
  live-edits only: [--speed CELLS_PER_S] [--max-requests N] [--defer-cuts N]
                   [--review-budget CELLS] [--no-jump-tables]
  soak only:       [--order-every FRAMES] [--shared-approach]";

/// The flags only `--mode live-edits` takes.
const LIVE_EDITS_FLAGS: [&str; 5] = [
    "--speed",
    "--max-requests",
    "--defer-cuts",
    "--review-budget",
    "--no-jump-tables",
];
/// The flags only `--mode soak` takes.
const SOAK_FLAGS: [&str; 2] = ["--order-every", "--shared-approach"];

/// A parsed command line.
#[derive(Debug)]
pub struct Args {
    /// The run: the mode's defaults, with the flags applied.
    pub config: Config,
    /// Solver threads (the compute pool's size, less the IO and async threads).
    pub threads: usize,
    /// Frames between checkpoint lines.
    pub every: u32,
}

/// Parses the arguments after the program's name. `Err` holds the message to print
/// (empty for `--help`).
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
    let args: Vec<String> = args.into_iter().collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Err(String::new());
    }
    let (mut config, mut every) = match mode_of(&args)? {
        "live-edits" => (Config::live_edits(), 100),
        "soak" => (Config::soak(), 1_000),
        other => return Err(format!("--mode: unknown mode {other} (live-edits or soak)")),
    };
    let mut threads = 2;
    let mut time = None;
    let mut expansions = None;
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        let mut value = || number(&flag, args.next());
        match flag.as_str() {
            "--mode" => {
                args.next();
            }
            "--units" => config.units = value()? as usize,
            "--size" => config.size = value()? as u32,
            "--frames" => config.frames = value()? as u32,
            "--edits" => config.edits = value()? as usize,
            "--budget-ms" => time = Some(Duration::from_secs_f64(value()? / 1e3)),
            "--expansions" => expansions = Some(value()? as u32),
            "--threads" => threads = (value()? as usize).max(1),
            "--seed" => config.seed = value()? as u64,
            "--every" => every = (value()? as u32).max(1),
            _ => match &mut config.mode {
                Mode::LiveEdits(options) => match flag.as_str() {
                    "--speed" => options.speed = value()? as f32,
                    "--max-requests" => options.max_requests = Some(value()? as usize),
                    "--defer-cuts" => options.defer_cuts = Some(value()? as u32),
                    "--review-budget" => options.review_budget = Some(value()? as u32),
                    "--no-jump-tables" => options.jump_tables = false,
                    _ => return Err(unknown(&flag)),
                },
                Mode::Soak(options) => match flag.as_str() {
                    "--order-every" => options.order_every = value()? as u32,
                    "--shared-approach" => options.group_orders = GroupOrders::SharedApproach,
                    _ => return Err(unknown(&flag)),
                },
            },
        }
    }
    if let Some(n) = expansions {
        config.budget = FrameBudget::Expansions(n);
    } else if let Some(d) = time {
        config.budget = FrameBudget::Time(d);
    }
    Ok(Args {
        config,
        threads,
        every,
    })
}

/// The value of `--mode`, wherever it stands.
fn mode_of(args: &[String]) -> Result<&str, String> {
    match args.iter().position(|a| a == "--mode") {
        Some(i) => args
            .get(i + 1)
            .map(String::as_str)
            .ok_or_else(|| "--mode needs a value (live-edits or soak)".to_string()),
        None => Err("--mode live-edits or --mode soak is required".to_string()),
    }
}

/// The number after `flag`.
fn number(flag: &str, value: Option<String>) -> Result<f64, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value.parse::<f64>().map_err(|e| format!("{flag}: {e}"))
}

/// The message for a flag the chosen mode does not take.
fn unknown(flag: &str) -> String {
    if LIVE_EDITS_FLAGS.contains(&flag) {
        format!("{flag} is a flag of --mode live-edits")
    } else if SOAK_FLAGS.contains(&flag) {
        format!("{flag} is a flag of --mode soak")
    } else {
        format!("unknown argument {flag}")
    }
}
