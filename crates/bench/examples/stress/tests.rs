//! The command line of the `stress` example: every flag of both modes, and what it refuses.

use std::time::Duration;

use bevy_tilepath::prelude::{FrameBudget, GroupOrders};

use crate::cli::{Args, parse};
use crate::stress::{Config, Mode};

fn args(line: &str) -> Result<Args, String> {
    parse(line.split_whitespace().map(String::from))
}

#[test]
fn each_mode_starts_from_its_own_defaults() {
    let live = args("--mode live-edits").unwrap();
    let soak = args("--mode soak").unwrap();
    for (parsed, expected, every) in [
        (live, Config::live_edits(), 100),
        (soak, Config::soak(), 1_000),
    ] {
        let c = parsed.config;
        assert_eq!(
            (c.units, c.size, c.frames, c.edits, c.seed),
            (
                expected.units,
                expected.size,
                expected.frames,
                expected.edits,
                expected.seed
            )
        );
        assert_eq!(c.budget, FrameBudget::Time(Duration::from_millis(2)));
        assert_eq!((parsed.threads, parsed.every), (2, every));
    }
    let c = Config::live_edits();
    assert_eq!((c.units, c.size, c.frames, c.seed), (5_000, 256, 600, 11));
    let c = Config::soak();
    assert_eq!((c.units, c.size, c.frames, c.seed), (5_000, 512, 2_000, 5));
}

#[test]
fn every_live_edits_flag_is_read() {
    let parsed = args(
        "--units 300 --size 64 --frames 50 --edits 4 --budget-ms 3 --threads 1 --seed 9 \
         --every 10 --mode live-edits --speed 5 --max-requests 512 --defer-cuts 0 \
         --review-budget 77 --no-jump-tables",
    )
    .unwrap();
    let c = parsed.config;
    assert_eq!(
        (c.units, c.size, c.frames, c.edits, c.seed),
        (300, 64, 50, 4, 9)
    );
    assert_eq!(c.budget, FrameBudget::Time(Duration::from_millis(3)));
    assert_eq!((parsed.threads, parsed.every), (1, 10));
    let Mode::LiveEdits(o) = c.mode else {
        panic!("live edits: {:?}", c.mode);
    };
    assert_eq!(o.speed, 5.0);
    assert_eq!(
        (o.max_requests, o.defer_cuts, o.review_budget, o.jump_tables),
        (Some(512), Some(0), Some(77), false)
    );
}

#[test]
fn every_soak_flag_is_read() {
    let parsed = args("--mode soak --frames 20 --order-every 30").unwrap();
    let Mode::Soak(o) = parsed.config.mode else {
        panic!("soak: {:?}", parsed.config.mode);
    };
    assert_eq!(parsed.config.frames, 20);
    assert_eq!(
        (o.order_every, o.group_orders),
        (30, GroupOrders::SharedFields)
    );
    let parsed = args("--mode soak --shared-approach").unwrap();
    let Mode::Soak(o) = parsed.config.mode else {
        panic!("soak: {:?}", parsed.config.mode);
    };
    assert_eq!(o.group_orders, GroupOrders::SharedApproach);
}

#[test]
fn an_expansion_budget_wins_over_a_time_budget() {
    for line in [
        "--mode soak --expansions 30000",
        "--mode soak --budget-ms 5 --expansions 30000",
        "--mode live-edits --expansions 30000 --budget-ms 5",
    ] {
        let budget = args(line).unwrap().config.budget;
        assert_eq!(budget, FrameBudget::Expansions(30_000), "{line}");
    }
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    for (line, reason) in [
        (
            "--frames 10",
            "--mode live-edits or --mode soak is required",
        ),
        ("--mode", "--mode needs a value (live-edits or soak)"),
        (
            "--mode army",
            "--mode: unknown mode army (live-edits or soak)",
        ),
        (
            "--mode soak --speed 4",
            "--speed is a flag of --mode live-edits",
        ),
        (
            "--mode soak --no-jump-tables",
            "--no-jump-tables is a flag of --mode live-edits",
        ),
        (
            "--mode live-edits --order-every 5",
            "--order-every is a flag of --mode soak",
        ),
        (
            "--mode live-edits --shared-approach",
            "--shared-approach is a flag of --mode soak",
        ),
        ("--mode live-edits --frames", "--frames needs a value"),
        ("--mode soak --units many", "--units: invalid float literal"),
        ("--mode soak --unit 5", "unknown argument --unit"),
        ("--mode soak --help", ""),
    ] {
        assert_eq!(args(line).unwrap_err(), reason, "{line}");
    }
}
