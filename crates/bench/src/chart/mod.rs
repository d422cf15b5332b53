//! Horizontal bar charts as SVG drawn with plotters, shared by the `chart` and `army` programs.
//!
//! Text is written as SVG text in a monospace font, so the layout knows every text's
//! width without a font file and the charts build without any system library. A
//! [`Panel`] draws bars on one value [`Axis`] with plotters' mesh (labelled and minor
//! gridlines, the axis line and its tick labels); its x coordinate is the fraction of
//! the axis ([`Axis::fraction`]) in steps of 1/[`STEPS`], so log and linear axes draw
//! with the same code, and its y coordinate is pixels down from the plot's top.

mod axis;

pub use axis::Axis;
pub use plotters::style::RGBColor;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// What drawing may fail with (plotters' errors; writing to a string does not fail).
pub type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The image being drawn: plotters' SVG backend writing into a string.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

pub const WHITE: RGBColor = RGBColor(255, 255, 255);
/// Titles, names and values.
pub const INK: RGBColor = RGBColor(33, 37, 41);
/// Tick labels, captions and notes.
pub const MUTED: RGBColor = RGBColor(100, 108, 117);
/// Labelled gridlines.
pub const GRID: RGBColor = RGBColor(218, 222, 227);
/// Unlabelled gridlines.
pub const MINOR: RGBColor = RGBColor(238, 240, 243);
/// The axis line and its tick marks.
pub const AXIS: RGBColor = RGBColor(150, 157, 165);
/// Bars of ours.
pub const OURS: RGBColor = RGBColor(47, 111, 184);
/// Bars of peer crates.
pub const PEER: RGBColor = RGBColor(226, 124, 36);
/// A third and a fourth bar colour (the army chart's shared fields and approaches).
pub const LIGHT_BLUE: RGBColor = RGBColor(132, 182, 235);
pub const LIGHT_GREEN: RGBColor = RGBColor(140, 200, 120);
/// Warnings (mismatch counts) and limits.
pub const WARN: RGBColor = RGBColor(190, 45, 35);

/// Size of all text but titles, in pixels.
pub const TEXT: f64 = 15.0;
/// Size of a title.
pub const TITLE: f64 = 22.0;
/// A panel's x coordinate runs from 0 to `STEPS` (the whole axis).
pub const STEPS: i32 = 100_000;
/// Height of the tick labels under a panel's plot.
const TICKS: i32 = 30;
/// Height of a panel's caption, under its tick labels.
const CAPTION: i32 = 22;

/// Monospace, so that a text's width is known without the font (the viewer picks it).
const FONT: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
/// Width of one character, in font sizes (0.6 for these fonts, 0.55 for Consolas).
const ADVANCE: f64 = 0.6;

/// Text of `px` pixels in `colour`, anchored at its left top.
pub fn font(px: f64, colour: RGBColor) -> TextStyle<'static> {
    // plotters' SVG backend writes a font size of `size / 1.24`.
    (FONT, px * 1.24)
        .into_font()
        .color(&colour)
        .pos(Pos::new(HPos::Left, VPos::Top))
}

/// The same text anchored at its right top.
pub fn right(style: TextStyle<'static>) -> TextStyle<'static> {
    style.pos(Pos::new(HPos::Right, VPos::Top))
}

/// Width in pixels of `text` at `px`.
pub fn text_width(text: &str, px: f64) -> i32 {
    (text.chars().count() as f64 * ADVANCE * px).ceil() as i32
}

/// The top at which text of `px` pixels has its capitals centred on `y`.
pub fn centred(y: i32, px: f64) -> i32 {
    y - (0.37 * px).round() as i32
}

/// How many characters of `px` pixels fit in `width` pixels.
pub fn chars(width: i32, px: f64) -> usize {
    (f64::from(width) / (ADVANCE * px)) as usize
}

/// Writes `text` with the style's anchor at `at`.
pub fn write(area: &Area, text: &str, at: (i32, i32), style: &TextStyle) -> Result {
    area.draw_text(text, style, at)?;
    Ok(())
}

/// Draws with `draw` on a white image of `width` × `height` pixels; returns the SVG.
pub fn svg(width: u32, height: u32, draw: impl FnOnce(&Area) -> Result) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
    }
    Ok(out)
}

/// Coloured squares with their labels in a row from `at`; returns the x after the last.
pub fn legend(area: &Area, at: (i32, i32), items: &[(RGBColor, &str)]) -> Result<i32> {
    let (mut x, y) = at;
    for &(colour, label) in items {
        area.draw(&Rectangle::new([(x, y), (x + 14, y + 14)], colour.filled()))?;
        write(
            area,
            label,
            (x + 22, centred(y + 7, TEXT)),
            &font(TEXT, INK),
        )?;
        x += 22 + text_width(label, TEXT) + 30;
    }
    Ok(x)
}

/// Greedy word wrap to lines of at most `max` characters (longer words are cut).
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        while word.len() > max {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(word.drain(..max).collect());
        }
        let word: String = word.into_iter().collect();
        if word.is_empty() {
            continue;
        }
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// One bar of a [`Panel`].
pub struct Bar {
    /// Top edge, in pixels below the top of the plot.
    pub top: i32,
    pub value: f64,
    pub colour: RGBColor,
    /// The value as written after the bar's end (inside its end where there is no room).
    pub label: String,
    /// Written in red after the label (a mismatch count), if any.
    pub warning: Option<String>,
}

/// Bars on one value axis above the axis's tick labels.
pub struct Panel<'a> {
    pub axis: Axis,
    pub bars: &'a [Bar],
    /// Height of every bar.
    pub bar_height: i32,
    /// Height of the plot, the bars' rows (the tick labels go below it).
    pub height: i32,
    /// How far past the plot's right edge the bars' labels may reach.
    pub overhang: i32,
    /// The value of a red vertical line (the army chart's frame limit).
    pub limit: Option<f64>,
    /// Written under the tick labels, at the right.
    pub caption: Option<&'a str>,
}

impl Panel<'_> {
    /// Height of the plot with its tick labels and caption.
    pub fn outer_height(&self) -> i32 {
        self.height + TICKS + if self.caption.is_some() { CAPTION } else { 0 }
    }

    /// Where `v` is on the x coordinate (0 to [`STEPS`]).
    pub fn x(&self, v: f64) -> i32 {
        (self.axis.fraction(v) * f64::from(STEPS)).round() as i32
    }

    /// The gridlines on the x coordinate: labelled ones with their labels, then the
    /// rest. On a plot `width` pixels wide, labels keep 10 pixels apart: a log axis labels
    /// its decades first, then its 2s and 5s where they fit; a linear axis labels from the
    /// left; a label that does not fit is left out and its line is a minor one.
    pub fn ticks(&self, width: i32) -> (Vec<(i32, String)>, Vec<i32>) {
        let ticks = self.axis.ticks();
        let first = |v: f64| match self.axis {
            Axis::Log { .. } => (v.log10() - v.log10().round()).abs() < 1e-9,
            Axis::Linear { .. } => true,
        };
        let span = |x: i32, label: &str| {
            let pixel = (f64::from(x) / f64::from(STEPS) * f64::from(width)).round() as i32;
            let left = pixel - text_width(label, TEXT) / 2;
            (left, left + text_width(label, TEXT))
        };
        let mut taken: Vec<(i32, i32)> = Vec::new();
        let mut kept = vec![false; ticks.len()];
        for pass in [true, false] {
            for (k, (v, label)) in ticks.iter().enumerate() {
                let Some(label) = label.as_deref().filter(|_| first(*v) == pass) else {
                    continue;
                };
                let (left, right) = span(self.x(*v), label);
                if taken.iter().all(|&(l, r)| left > r + 10 || right + 10 < l) {
                    taken.push((left, right));
                    kept[k] = true;
                }
            }
        }
        let (mut labelled, mut minor) = (Vec::new(), Vec::new());
        for ((v, label), kept) in ticks.into_iter().zip(kept) {
            match label.filter(|_| kept) {
                Some(label) => labelled.push((self.x(v), label)),
                None => minor.push(self.x(v)),
            }
        }
        (labelled, minor)
    }

    /// Draws the panel on `root` with its plot's top left corner at `at`, `width`
    /// pixels wide.
    pub fn draw(&self, root: &Area, at: (i32, i32), width: i32) -> Result {
        let area = root
            .clone()
            .shrink(at, (width as u32, self.outer_height() as u32));
        let (labelled, minor) = self.ticks(width);
        let bold: Vec<i32> = labelled.iter().map(|&(f, _)| f).collect();
        let mut chart = ChartBuilder::on(&area)
            .x_label_area_size(self.outer_height() - self.height)
            .build_cartesian_2d(
                (0..STEPS).with_key_points(bold).with_light_points(minor),
                (self.height..0).with_key_points(Vec::new()),
            )?;
        let label_of = |f: &i32| {
            labelled
                .iter()
                .find(|(g, _)| g == f)
                .map_or(String::new(), |(_, l)| l.clone())
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .bold_line_style(GRID)
            .light_line_style(MINOR)
            .axis_style(AXIS.stroke_width(2))
            .set_tick_mark_size(LabelAreaPosition::Bottom, 5)
            .x_label_style(font(TEXT, MUTED))
            .x_label_formatter(&label_of)
            .draw()?;

        let (x0, x1) = (
            chart.backend_coord(&(0, 0)).0,
            chart.backend_coord(&(STEPS, 0)).0,
        );
        // Every bar at least 2 pixels long.
        let end = |b: &Bar| self.x(b.value).max(2 * STEPS / (x1 - x0).max(1));
        chart.draw_series(self.bars.iter().map(|b| {
            let corners = [(0, b.top), (end(b), b.top + self.bar_height)];
            Rectangle::new(corners, b.colour.filled())
        }))?;
        if let Some(limit) = self.limit {
            let x = self.x(limit);
            let line = vec![(x, 0), (x, self.height)];
            chart.draw_series([PathElement::new(line, WARN.stroke_width(2))])?;
        }
        for b in self.bars {
            self.label(&chart, b, (end(b), x0, x1))?;
        }
        if let Some(caption) = self.caption {
            let y = at.1 + self.height + TICKS;
            write(root, caption, (at.0 + width, y), &right(font(TEXT, MUTED)))?;
        }
        Ok(())
    }

    /// Writes the bar's label and warning after its end, or the label inside the end
    /// where both do not fit after it (the warning then after the bar if it fits there,
    /// else on a white patch inside the bar).
    fn label<X, Y>(
        &self,
        chart: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
        b: &Bar,
        (end, x0, x1): (i32, i32, i32),
    ) -> Result
    where
        X: Ranged<ValueType = i32>,
        Y: Ranged<ValueType = i32>,
    {
        let area = chart.plotting_area();
        let mid = b.top + self.bar_height / 2;
        let end_x = chart.backend_coord(&(end, mid)).0;
        let dy = centred(0, TEXT);
        let put = |text: &str, dx: i32, style: TextStyle<'static>| -> Result {
            if text.is_empty() {
                return Ok(());
            }
            area.draw(
                &(EmptyElement::at((end, mid)) + Text::new(text.to_string(), (dx, dy), style)),
            )?;
            Ok(())
        };
        let warning = b.warning.as_deref().unwrap_or("");
        let (value_w, warning_w) = (text_width(&b.label, TEXT), text_width(warning, TEXT));
        let gap = if warning.is_empty() {
            0
        } else {
            text_width("  ", TEXT)
        };
        let room = x1 + self.overhang - (end_x + 8);
        if value_w + gap + warning_w <= room || value_w + 16 > end_x - x0 {
            put(&b.label, 8, font(TEXT, INK))?;
            return put(warning, 8 + value_w + gap, font(TEXT, WARN));
        }
        put(&b.label, -8, right(font(TEXT, WHITE)))?;
        let patch_x = -8 - value_w - gap - warning_w;
        if warning_w <= room || end_x + patch_x - 6 < x0 + 6 {
            return put(warning, 8, font(TEXT, WARN));
        }
        let half = self.bar_height / 2;
        let patch = [(patch_x - 6, 3 - half), (patch_x + warning_w + 6, half - 3)];
        area.draw(&(EmptyElement::at((end, mid)) + Rectangle::new(patch, WHITE.filled())))?;
        put(warning, patch_x, font(TEXT, WARN))
    }
}
