//! The chart: time until all arrived over the ideal time, per scenario, ours against
//! bevy_northstar, on a log axis; an SVG drawn with the crate's `chart` module.

use tilepath_bench::chart::{
    self, Axis, Bar, INK, OURS, PEER, Panel, RGBColor, TEXT, TITLE, centred, chars, font, legend,
    right, text_width, wrap, write,
};

use crate::ours::Mover;
use crate::report::{Row, System};

/// The colour of our `GridStepper` rows.
const STEPPER: RGBColor = RGBColor(0x2a, 0x9d, 0x8f);

const WIDTH: i32 = 1000;
const MARGIN: i32 = 20;
const BAR: i32 = 14;
const BAR_GAP: i32 = 3;
const GROUP_GAP: i32 = 12;
const LINE: i32 = 22;

fn colour(system: System) -> RGBColor {
    match system {
        System::Ours(Mover::Steering) => OURS,
        System::Ours(Mover::Stepper) => STEPPER,
        System::Northstar => PEER,
    }
}

fn label(system: System) -> &'static str {
    match system {
        System::Ours(Mover::Steering) => "bevy_tilepath (Steering, avoidance on)",
        System::Ours(Mover::Stepper) => "bevy_tilepath (GridStepper)",
        System::Northstar => "bevy_northstar 0.7 (Blocking + avoidance)",
    }
}

/// The SVG of `rows` (grouped by scenario in row order), or `None` without rows.
pub fn render(rows: &[Row]) -> Option<chart::Result<String>> {
    let mut groups: Vec<(&str, Vec<&Row>)> = Vec::new();
    for r in rows {
        match groups.iter_mut().find(|(name, _)| *name == r.scenario) {
            Some((_, bars)) => bars.push(r),
            None => groups.push((r.scenario, vec![r])),
        }
    }
    if groups.is_empty() {
        return None;
    }
    let title = "Crowds: time until all arrived ÷ ideal time (1 = free flow)";
    let legend_y = MARGIN + (TITLE * 1.3).round() as i32 + 6;
    let top = legend_y + LINE + 12;
    let group_h = |n: usize| (n as i32 * (BAR + BAR_GAP) - BAR_GAP).max(LINE);
    let mut tops = Vec::new();
    let mut y = 6;
    for (_, bars) in &groups {
        tops.push(y);
        y += group_h(bars.len()) + GROUP_GAP;
    }
    let plot_h = y;
    let note = wrap(
        "Log scale, simulated time. A bar marked > did not finish: its length is the time \
         the run lasted (the limit, or until nothing moved). n/a: not run (see the table).",
        chars(WIDTH - 2 * MARGIN, TEXT),
    );
    let label_w = groups
        .iter()
        .map(|(name, _)| text_width(name, TEXT))
        .max()
        .unwrap_or(0);
    let value_room = text_width("> 99.99", TEXT) + 12;
    let x0 = MARGIN + label_w + 12;
    let panel_w = WIDTH - MARGIN - x0 - value_room;

    let mut values = Vec::new();
    let mut bars = Vec::new();
    for ((_, rows), &group_top) in groups.iter().zip(&tops) {
        for (i, r) in rows.iter().enumerate() {
            let (value, text) = match r.ratio() {
                Some((x, true)) => (x.max(0.01), format!("{x:.2}")),
                Some((x, false)) => (x.max(0.01), format!("> {x:.2}")),
                None => (0.01, "n/a".to_string()),
            };
            if r.ratio().is_some() {
                values.push(value);
            }
            bars.push(Bar {
                top: group_top + i as i32 * (BAR + BAR_GAP),
                value,
                colour: colour(r.system),
                label: text,
                warning: None,
            });
        }
    }
    values.push(1.0);
    let axis = Axis::fit(&values, false);
    for bar in bars.iter_mut().filter(|b| b.label == "n/a") {
        bar.value = axis_floor(axis);
    }
    let panel = Panel {
        axis,
        bars: &bars,
        bar_height: BAR,
        height: plot_h,
        overhang: value_room,
        limit: Some(1.0),
        caption: None,
    };
    let note_y = top + panel.outer_height() + 10;
    let height = note_y + note.len() as i32 * LINE + MARGIN - 8;
    let systems: Vec<System> = [
        System::Ours(Mover::Steering),
        System::Ours(Mover::Stepper),
        System::Northstar,
    ]
    .into_iter()
    .filter(|s| rows.iter().any(|r| r.system == *s))
    .collect();

    Some(chart::svg(WIDTH as u32, height as u32, |root| {
        write(root, title, (MARGIN, MARGIN), &font(TITLE, INK))?;
        let items: Vec<(RGBColor, &str)> = systems.iter().map(|&s| (colour(s), label(s))).collect();
        legend(root, (MARGIN, legend_y), &items)?;
        panel.draw(root, (x0, top), panel_w)?;
        for ((name, bars), group_top) in groups.iter().zip(&tops) {
            let mid = top + group_top + group_h(bars.len()) / 2;
            write(
                root,
                name,
                (x0 - 12, centred(mid, TEXT)),
                &right(font(TEXT, INK)),
            )?;
        }
        for (i, line) in note.iter().enumerate() {
            let y = note_y + i as i32 * LINE;
            write(root, line, (MARGIN, y), &font(TEXT, chart::MUTED))?;
        }
        Ok(())
    }))
}

/// The smallest value on `axis` (where a bar of no length starts).
fn axis_floor(axis: Axis) -> f64 {
    match axis {
        Axis::Log { lo, .. } => 10f64.powi(lo),
        Axis::Linear { .. } => 0.0,
    }
}
