//! The README chart: for the largest army of the run, frames until every unit has a path,
//! CPU milliseconds spent on the order and the longest frame's solve time, per map, order
//! and thread count, one bar per mode, on log axes; an SVG drawn with the crate's `chart`
//! module, as the MovingAI chart is.

use tilepath_bench::chart::{
    self, Axis, Bar, INK, LIGHT_BLUE, LIGHT_GREEN, MUTED, OURS, PEER, Panel, RGBColor, TEXT, TITLE,
    centred, chars, font, legend, right, text_width, wrap, write,
};

use crate::report::Row;
use crate::{Case, Mode};

const WIDTH: i32 = 1200;
const MARGIN: i32 = 20;
const BAR: i32 = 13;
const BAR_GAP: i32 = 3;
const GROUP_GAP: i32 = 12;
const LINE: i32 = 22;

/// A panel: heading, the value a bar shows and its label, and a red line's value.
type Column = (
    &'static str,
    fn(&Row) -> f64,
    fn(&Row) -> String,
    Option<f64>,
);

/// The three panels, left to right.
const COLUMNS: [Column; 3] = [
    (
        "frames to all paths",
        |r| f64::from(r.outcome.frames.max(1)),
        |r| {
            let more = if r.outcome.done { "" } else { ">" };
            format!("{more}{}", r.outcome.frames)
        },
        None,
    ),
    (
        "CPU ms for the order",
        |r| r.outcome.cpu_ms.max(1.0),
        |r| format!("{:.0}", r.outcome.cpu_ms),
        None,
    ),
    (
        "longest frame, ms",
        |r| r.outcome.frame_max_ms.max(0.1),
        |r| format!("{:.1}", r.outcome.frame_max_ms),
        // The budget plus half a millisecond: the limit for every frame.
        Some(2.5),
    ),
];

fn colour(mode: Mode) -> RGBColor {
    match mode {
        Mode::PerUnit => OURS,
        Mode::Fields => LIGHT_BLUE,
        Mode::Approach => LIGHT_GREEN,
        Mode::Northstar => PEER,
    }
}

fn label(mode: Mode) -> &'static str {
    match mode {
        Mode::PerUnit => "per-unit search",
        Mode::Fields => "shared fields (defaults)",
        Mode::Approach => "shared approach (not exact)",
        Mode::Northstar => "bevy_northstar 0.7",
    }
}

/// The rows of the largest army grouped by (map, order, threads) in row order, each
/// group with its bars in row order.
pub fn groups(rows: &[Row]) -> Vec<(&Case, Vec<&Row>)> {
    let Some(units) = rows.iter().map(|r| r.case.units).max() else {
        return Vec::new();
    };
    let mut groups: Vec<(&Case, Vec<&Row>)> = Vec::new();
    for r in rows.iter().filter(|r| r.case.units == units) {
        let same = |c: &Case| {
            c.map == r.case.map && c.order == r.case.order && c.threads == r.case.threads
        };
        match groups.iter_mut().find(|(c, _)| same(c)) {
            Some((_, bars)) => bars.push(r),
            None => groups.push((&r.case, vec![r])),
        }
    }
    groups
}

/// The SVG, or `None` without rows.
pub fn render(rows: &[Row]) -> Option<chart::Result<String>> {
    let groups = groups(rows);
    let units = groups.first()?.0.units;
    let rows: Vec<&Row> = groups.iter().flat_map(|(_, bars)| bars).copied().collect();
    let modes: Vec<Mode> = Mode::ALL
        .into_iter()
        .filter(|m| rows.iter().any(|r| r.case.mode == *m))
        .collect();

    let title = format!("{units} units, one order, headless, 2 ms frame budget");
    let legend_y = MARGIN + (TITLE * 1.3).round() as i32 + 6;
    let heads_y = legend_y + LINE + 12;
    let top = heads_y + LINE + 2;
    let group_h = |n: usize| (n as i32 * (BAR + BAR_GAP) - BAR_GAP).max(2 * LINE - 4);
    // Each group's top, 6 pixels below the plot's top.
    let mut group_tops = Vec::new();
    let mut y = 6;
    for (_, bars) in &groups {
        group_tops.push(y);
        y += group_h(bars.len()) + GROUP_GAP;
    }
    let plot_h = y;
    let note = wrap(
        "Log scales. Frames run back to back, headless. Longest frame: ours is \
         TilepathStats::solve_time, northstar's the span of its PathingSet; red line: \
         2.5 ms, the 2 ms budget plus 0.5 ms.",
        chars(WIDTH - 2 * MARGIN, TEXT),
    );

    let label_w = groups
        .iter()
        .flat_map(|(case, _)| group_label(case))
        .map(|l| text_width(&l, TEXT))
        .max()
        .unwrap_or(0);
    let value_room = text_width("999999", TEXT) + 12;
    let panel_gap = 20;
    let x0 = MARGIN + label_w + 12;
    let panel_w = (WIDTH - MARGIN - x0 - 2 * panel_gap) / 3 - value_room;
    let step = panel_w + value_room + panel_gap;
    let columns: Vec<(Vec<Bar>, Axis)> = COLUMNS
        .iter()
        .map(|&(_, value, text, _)| {
            let values: Vec<f64> = rows.iter().map(|r| value(r)).collect();
            let bars = groups
                .iter()
                .zip(&group_tops)
                .flat_map(|((_, bars), &group_top)| {
                    bars.iter().enumerate().map(move |(i, r)| Bar {
                        top: group_top + i as i32 * (BAR + BAR_GAP),
                        value: value(r),
                        colour: colour(r.case.mode),
                        label: text(r),
                        warning: None,
                    })
                })
                .collect();
            (bars, Axis::fit(&values, false))
        })
        .collect();
    let panels: Vec<Panel> = columns
        .iter()
        .zip(COLUMNS)
        .map(|((bars, axis), (_, _, _, limit))| Panel {
            axis: *axis,
            bars,
            bar_height: BAR,
            height: plot_h,
            overhang: value_room,
            limit,
            caption: None,
        })
        .collect();
    let note_y = top + panels[0].outer_height() + 10;
    let height = note_y + note.len() as i32 * LINE + MARGIN - 8;

    Some(chart::svg(WIDTH as u32, height as u32, |root| {
        write(root, &title, (MARGIN, MARGIN), &font(TITLE, INK))?;
        let items: Vec<(RGBColor, &str)> = modes.iter().map(|&m| (colour(m), label(m))).collect();
        legend(root, (MARGIN, legend_y), &items)?;
        for (i, (panel, (head, ..))) in panels.iter().zip(COLUMNS).enumerate() {
            let x = x0 + i as i32 * step;
            write(root, head, (x, heads_y), &font(TEXT, INK))?;
            panel.draw(root, (x, top), panel_w)?;
        }
        for ((case, _), group_top) in groups.iter().zip(&group_tops) {
            for (i, l) in group_label(case).iter().enumerate() {
                let colour = if i == 0 { INK } else { MUTED };
                let y = centred(top + group_top + 7 + i as i32 * (LINE - 4), TEXT);
                write(root, l, (x0 - 12, y), &right(font(TEXT, colour)))?;
            }
        }
        for (i, line) in note.iter().enumerate() {
            let y = note_y + i as i32 * LINE;
            write(root, line, (MARGIN, y), &font(TEXT, MUTED))?;
        }
        Ok(())
    }))
}

/// Two lines: the map, then the order and thread count.
fn group_label(case: &Case) -> [String; 2] {
    let threads = if case.threads == 1 {
        "1 thread".to_string()
    } else {
        format!("{} threads", case.threads)
    };
    [
        case.map.clone(),
        format!("{}, {threads}", case.order.name()),
    ]
}
