//! The chart's drawing surface: a palette, a canvas of palette indices and a 5×7 pixel font.

use crate::font::FONT;

pub(crate) const WHITE: u8 = 0;
pub(crate) const INK: u8 = 1;
pub(crate) const GRID: u8 = 2;
pub(crate) const OURS: u8 = 3;
pub(crate) const PEER: u8 = 4;
pub(crate) const MUTED: u8 = 5;
pub(crate) const WARN: u8 = 6;
pub(crate) const AXIS: u8 = 7;
pub(crate) const MINOR: u8 = 8;

/// RGB colour of each palette index above.
pub(crate) const PALETTE: [[u8; 3]; 9] = [
    [255, 255, 255],
    [33, 37, 41],
    [218, 222, 227],
    [47, 111, 184],
    [226, 124, 36],
    [100, 108, 117],
    [190, 45, 35],
    [150, 157, 165],
    [238, 240, 243],
];

/// An image of palette indices, row-major, one byte per pixel.
pub(crate) struct Canvas {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) pixels: Vec<u8>,
}

impl Canvas {
    pub(crate) fn new(width: usize, height: usize) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![WHITE; width * height],
        }
    }

    /// Fills the rectangle, clipped to the image.
    pub(crate) fn fill(&mut self, x: i64, y: i64, w: i64, h: i64, colour: u8) {
        let clip = |v: i64, max: usize| v.clamp(0, max as i64) as usize;
        let (x0, x1) = (clip(x, self.width), clip(x + w, self.width));
        let (y0, y1) = (clip(y, self.height), clip(y + h, self.height));
        if x0 >= x1 {
            return;
        }
        for row in y0..y1 {
            self.pixels[row * self.width + x0..row * self.width + x1].fill(colour);
        }
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide;
    /// characters outside printable ASCII are drawn as `?`.
    pub(crate) fn text(&mut self, x: i64, y: i64, text: &str, scale: i64, colour: u8) {
        for (i, ch) in text.chars().enumerate() {
            let glyph = glyph(ch);
            let left = x + i as i64 * GLYPH_ADVANCE * scale;
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..5 {
                    if bits & (0x10 >> col) != 0 {
                        let (px, py) = (left + col * scale, y + row as i64 * scale);
                        self.fill(px, py, scale, scale, colour);
                    }
                }
            }
        }
    }
}

/// Horizontal distance from one character to the next, in font pixels (5 wide + 1 gap).
pub(crate) const GLYPH_ADVANCE: i64 = 6;
/// Height of a capital letter in font pixels; descenders take two more rows.
pub(crate) const CAP_HEIGHT: i64 = 7;

/// Width in image pixels of `text` drawn at `scale`, without the trailing gap.
pub(crate) fn text_width(text: &str, scale: i64) -> i64 {
    let n = text.chars().count() as i64;
    (n * GLYPH_ADVANCE - 1).max(0) * scale
}

pub(crate) fn glyph(ch: char) -> &'static [u8; 9] {
    let code = ch as u32;
    let index = if (0x20..0x7F).contains(&code) {
        code - 0x20
    } else {
        u32::from(b'?' - 0x20)
    };
    &FONT[index as usize]
}

/// Greedy word wrap to lines of at most `max` characters (longer words are cut).
pub(crate) fn wrap(text: &str, max: usize) -> Vec<String> {
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
