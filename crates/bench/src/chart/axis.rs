//! The value axis of a bar chart (logarithmic or linear): its range, ticks and labels.

/// Maps a value to a fraction of the plot width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axis {
    /// From 10^lo to 10^hi.
    Log { lo: i32, hi: i32 },
    /// From 0 to `max`, gridlines every `step`.
    Linear { max: f64, step: f64 },
}

impl Axis {
    /// Log unless asked otherwise or a value is zero; ranges end on whole decades
    /// (or whole steps), with the fastest bar at least 0.3 decades long.
    pub fn fit(values: &[f64], linear: bool) -> Axis {
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(0.0, f64::max);
        if linear || min.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            let step = nice_step(max / 5.0);
            let max = ((max / step).ceil() * step).max(step);
            return Axis::Linear { max, step };
        }
        let mut lo = decade(min);
        if min < 2.0 * 10f64.powi(lo) {
            lo -= 1;
        }
        let mut hi = decade(max);
        if 10f64.powi(hi) < max {
            hi += 1;
        }
        Axis::Log {
            lo,
            hi: hi.max(lo + 1),
        }
    }

    pub fn fraction(self, v: f64) -> f64 {
        let f = match self {
            Axis::Log { lo, hi } => (v.log10() - f64::from(lo)) / f64::from(hi - lo),
            Axis::Linear { max, .. } => v / max,
        };
        f.clamp(0.0, 1.0)
    }

    /// Gridline values, each with a label or `None` for an unlabelled minor line.
    pub fn ticks(self) -> Vec<(f64, Option<String>)> {
        match self {
            Axis::Log { lo, hi } => {
                let label_minor = hi - lo <= 2;
                let mut ticks = Vec::new();
                for e in lo..=hi {
                    let base = 10f64.powi(e);
                    ticks.push((base, Some(number(base))));
                    if e == hi {
                        break;
                    }
                    for m in 2..=9 {
                        let v = f64::from(m) * base;
                        let label = (label_minor && (m == 2 || m == 5)).then(|| number(v));
                        ticks.push((v, label));
                    }
                }
                ticks
            }
            Axis::Linear { max, step } => {
                let n = (max / step).round() as i64;
                (0..=n)
                    .map(|i| {
                        let v = i as f64 * step;
                        (v, Some(number(v)))
                    })
                    .collect()
            }
        }
    }
}

/// The exponent e with 10^e <= v < 10^(e+1), for v > 0.
fn decade(v: f64) -> i32 {
    let mut e = v.log10().floor() as i32;
    while 10f64.powi(e + 1) <= v {
        e += 1;
    }
    while 10f64.powi(e) > v {
        e -= 1;
    }
    e
}

/// The smallest of 1, 2, 5 times a power of ten that is at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let base = 10f64.powi(decade(raw));
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * base)
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * base)
}

/// A tick value without needless digits: `100`, `2000`, `0.5`, `0.02`.
fn number(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
