//! The README chart: for the largest army of the run, frames until every unit has a path,
//! CPU milliseconds spent on the order and the longest frame's solve time, per map, order
//! and thread count, one bar per mode, on log axes. Drawn with the chart example's canvas, font, axis and PNG
//! encoder (included by `#[path]`).

use crate::axis::Axis;
use crate::canvas::{
    AXIS, CAP_HEIGHT, Canvas, GLYPH_ADVANCE, GRID, INK, MINOR, MUTED, OURS, PALETTE, PEER, WARN,
    WHITE, text_width, wrap,
};
use crate::png::encode_png;
use crate::report::Row;
use crate::{Case, Mode};

/// Heading of the panel of the longest frames (it gets the 2.5 ms line).
const FRAME_PANEL: &str = "longest frame, ms";

/// A third bar colour (light blue) after the core chart's palette.
const FIELDS: u8 = PALETTE.len() as u8;

/// A fourth bar colour (light green), for shared approaches.
const APPROACH: u8 = FIELDS + 1;

const WIDTH: i64 = 1200;
const MARGIN: i64 = 20;
const TEXT: i64 = 2;
const BAR: i64 = 13;
const BAR_GAP: i64 = 3;
const GROUP_GAP: i64 = 12;
const LINE: i64 = 22;

/// A panel: heading, left edge, the value a bar shows and its label.
type Panel = (&'static str, i64, fn(&Row) -> f64, fn(&Row) -> String);

fn colour(mode: Mode) -> u8 {
    match mode {
        Mode::PerUnit => OURS,
        Mode::Fields => FIELDS,
        Mode::Approach => APPROACH,
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

/// The PNG, or `None` without rows.
pub fn render(rows: &[Row]) -> Option<Vec<u8>> {
    let units = rows.iter().map(|r| r.case.units).max()?;
    let rows: Vec<&Row> = rows.iter().filter(|r| r.case.units == units).collect();
    // Groups: (map, order, threads) in row order, each with its bars in row order.
    let mut groups: Vec<(&Case, Vec<&Row>)> = Vec::new();
    for r in &rows {
        let same = |c: &Case| {
            c.map == r.case.map && c.order == r.case.order && c.threads == r.case.threads
        };
        match groups.iter_mut().find(|(c, _)| same(c)) {
            Some((_, bars)) => bars.push(r),
            None => groups.push((&r.case, vec![r])),
        }
    }
    let modes: Vec<Mode> = Mode::ALL
        .into_iter()
        .filter(|m| rows.iter().any(|r| r.case.mode == *m))
        .collect();

    let title = format!("{units} units, one order, headless, 2 ms frame budget");
    let title_y = MARGIN;
    let legend_y = title_y + CAP_HEIGHT * 3 + 16;
    let heads_y = legend_y + LINE + 14;
    let top = heads_y + LINE + 8;
    let group_h = |n: usize| (n as i64 * (BAR + BAR_GAP) - BAR_GAP).max(2 * LINE - 4);
    let axis_y = top
        + groups
            .iter()
            .map(|(_, b)| group_h(b.len()) + GROUP_GAP)
            .sum::<i64>();
    let note = wrap(
        "Log scales. Frames run back to back, headless. Longest frame: ours is \
         TilepathStats::solve_time, northstar's the span of its PathingSet; red line: \
         2.5 ms, the 2 ms budget plus 0.5 ms.",
        ((WIDTH - 2 * MARGIN) / (GLYPH_ADVANCE * TEXT)) as usize,
    );
    let height = axis_y + 12 + LINE + note.len() as i64 * LINE + MARGIN;
    let mut c = Canvas::new(WIDTH as usize, height as usize);

    c.text(MARGIN, title_y, &title, 3, INK);
    let mut x = MARGIN;
    for &m in &modes {
        c.fill(x, legend_y, 14, 14, colour(m));
        c.text(x + 22, legend_y, label(m), TEXT, INK);
        x += 22 + text_width(label(m), TEXT) + 30;
    }

    let label_w = groups
        .iter()
        .flat_map(|(case, _)| group_label(case))
        .map(|l| text_width(&l, TEXT))
        .max()
        .unwrap_or(0);
    let value_room = 6 * GLYPH_ADVANCE * TEXT + 6;
    let panel_gap = 20;
    let x0 = MARGIN + label_w + 12;
    let panel_w = (WIDTH - MARGIN - x0 - 2 * panel_gap) / 3 - value_room;
    let step = panel_w + value_room + panel_gap;
    let panels: [Panel; 3] = [
        (
            "frames to all paths",
            x0,
            |r| f64::from(r.outcome.frames.max(1)),
            |r| {
                let more = if r.outcome.done { "" } else { ">" };
                format!("{more}{}", r.outcome.frames)
            },
        ),
        (
            "CPU ms for the order",
            x0 + step,
            |r| r.outcome.cpu_ms.max(1.0),
            |r| format!("{:.0}", r.outcome.cpu_ms),
        ),
        (
            FRAME_PANEL,
            x0 + 2 * step,
            |r| r.outcome.frame_max_ms.max(0.1),
            |r| format!("{:.1}", r.outcome.frame_max_ms),
        ),
    ];
    for (head, px, value, text) in panels {
        let values: Vec<f64> = rows.iter().map(|r| value(r)).collect();
        let axis = Axis::fit(&values, false);
        let at = |v: f64| px + (axis.fraction(v) * panel_w as f64).round() as i64;
        c.text(px, heads_y, head, TEXT, INK);
        let mut last_right = i64::MIN;
        for (v, l) in axis.ticks() {
            let colour = if l.is_some() { GRID } else { MINOR };
            c.fill(at(v), top - 6, 1, axis_y - top + 6, colour);
            // Labels that would run into the previous one are left out.
            if let Some(l) = l.filter(|l| at(v) - text_width(l, TEXT) / 2 > last_right + 10) {
                let left = at(v) - text_width(&l, TEXT) / 2;
                c.fill(at(v), axis_y + 2, 1, 5, AXIS);
                c.text(left, axis_y + 10, &l, TEXT, MUTED);
                last_right = left + text_width(&l, TEXT);
            }
        }
        if head == FRAME_PANEL {
            // The budget plus half a millisecond: the limit for every frame.
            let x = at(2.5);
            c.fill(x, top - 6, 2, axis_y - top + 6, WARN);
        }
        c.fill(px, axis_y, panel_w + 1, 2, AXIS);
        let mut y = top;
        for (_, bars) in &groups {
            for (i, r) in bars.iter().enumerate() {
                let by = y + i as i64 * (BAR + BAR_GAP);
                let end = at(value(r)).max(px + 2);
                c.fill(px, by, end - px, BAR, colour(r.case.mode));
                c.text(
                    end + 6,
                    by + (BAR - CAP_HEIGHT * TEXT) / 2,
                    &text(r),
                    TEXT,
                    INK,
                );
            }
            y += group_h(bars.len()) + GROUP_GAP;
        }
    }
    let mut y = top;
    for (case, bars) in &groups {
        for (i, l) in group_label(case).iter().enumerate() {
            let w = text_width(l, TEXT);
            let colour = if i == 0 { INK } else { MUTED };
            c.text(x0 - 12 - w, y + i as i64 * (LINE - 4), l, TEXT, colour);
        }
        y += group_h(bars.len()) + GROUP_GAP;
    }
    for (i, line) in note.iter().enumerate() {
        c.text(
            MARGIN,
            axis_y + 12 + LINE + i as i64 * LINE,
            line,
            TEXT,
            MUTED,
        );
    }
    let mut palette = PALETTE.to_vec();
    palette.push([132, 182, 235]);
    palette.push([140, 200, 120]);
    debug_assert_eq!(palette[usize::from(WHITE)], [255, 255, 255]);
    Some(encode_png(&c, &palette))
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
