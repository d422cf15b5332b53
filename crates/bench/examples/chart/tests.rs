//! Tests of the chart: parsing, the axis, the order of the bars and the SVG they make.

use super::*;
use tilepath_bench::chart::RGBColor;

const SAMPLE: &str = "\
scen=a.scen algo=astar diameter=1 queries=10 solved=10 mismatches=0 mean_us=1.00
TOTAL algo=astar queries=62799 mismatches=0 mean_us=5200.00
TOTAL algo=jps queries=62799 mismatches=0 mean_us=120.00
TOTAL algo=pf-astar queries=62799 mismatches=0 mean_us=7000.00
TOTAL algo=gp-jps queries=62799 mismatches=40000 mean_us=3000.00
";

fn totals(text: &str) -> Vec<Total> {
    parse_totals(text).expect("sample parses")
}

#[test]
fn parser_reads_total_lines_and_ignores_others() {
    let t = totals(&format!(
        "building...\n\n{SAMPLE}TOTALS are above\nnot TOTAL algo=x\n"
    ));
    let names: Vec<&str> = t.iter().map(|t| t.algo.as_str()).collect();
    assert_eq!(names, ["astar", "jps", "pf-astar", "gp-jps"]);
    assert_eq!(t[3].queries, Some(62799));
    assert_eq!(t[3].mismatches, Some(40000));
    assert_eq!(t[1].mean_us, 120.0);
    assert!(t[2].is_peer() && t[3].is_peer() && !t[0].is_peer());
}

#[test]
fn parser_reads_na_mismatches_as_none() {
    let t = totals("TOTAL algo=best-first queries=5 mismatches=n/a mean_us=3.5\n");
    assert_eq!(
        t,
        [Total {
            algo: "best-first".into(),
            queries: Some(5),
            mismatches: None,
            mean_us: 3.5
        }]
    );
}

#[test]
fn parser_rejects_input_without_total_lines() {
    let e = parse_totals("scen=a.scen algo=astar mean_us=1.0\n").unwrap_err();
    assert!(e.contains("no `TOTAL"), "{e}");
}

#[test]
fn parser_rejects_bad_numbers_with_the_line_number() {
    let e = parse_totals("x\nTOTAL algo=astar queries=1 mismatches=0 mean_us=fast\n").unwrap_err();
    assert!(e.contains("line 2") && e.contains("mean_us=fast"), "{e}");
    let e = parse_totals("TOTAL algo=astar queries=-1 mean_us=1\n").unwrap_err();
    assert!(e.contains("queries=-1"), "{e}");
    let e = parse_totals("TOTAL algo=astar mean_us=NaN\n").unwrap_err();
    assert!(e.contains("mean_us=NaN"), "{e}");
    let e = parse_totals("TOTAL queries=1 mean_us=1\n").unwrap_err();
    assert!(e.contains("without algo"), "{e}");
}

#[test]
fn parser_rejects_an_algorithm_listed_twice() {
    let e = parse_totals("TOTAL algo=jps mean_us=1\nTOTAL algo=jps mean_us=2\n").unwrap_err();
    assert!(e.contains("lines 1 and 2"), "{e}");
}

#[test]
fn args_require_out_and_default_to_stdin_and_the_default_title() {
    let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
    assert!(args(&["run.txt"]).unwrap_err().contains("--out"));
    let o = args(&["--out", "a.svg"]).unwrap();
    assert_eq!(
        (o.title.as_str(), o.input, o.note),
        (DEFAULT_TITLE, None, None)
    );
    let o = args(&["--out", "a.svg", "--note", "n", "-"]).unwrap();
    assert_eq!((o.input, o.note.as_deref()), (None, Some("n")));
    assert!(args(&["--out", "a.svg", "x", "y"]).is_err());
    assert!(args(&["--out", "a.svg", "--bogus"]).is_err());
    assert!(args(&["--out"]).is_err());
    // The chart is an SVG: a PNG name would hold the wrong format.
    assert!(args(&["--out", "a.png"]).unwrap_err().contains(".svg"));
}

#[test]
fn bars_are_ordered_fastest_first() {
    let t = totals(SAMPLE);
    let chart = Chart {
        totals: &t,
        title: DEFAULT_TITLE,
        note: None,
        linear: false,
    };
    let names: Vec<&str> = chart.order().iter().map(|t| t.algo.as_str()).collect();
    assert_eq!(names, ["jps", "gp-jps", "astar", "pf-astar"]);
}

#[test]
fn log_axis_spans_whole_decades_around_the_values() {
    let axis = Axis::fit(&[120.0, 7000.0], false);
    assert_eq!(axis, Axis::Log { lo: 1, hi: 4 });
    assert!(axis.fraction(120.0) > 0.0 && axis.fraction(7000.0) < 1.0);
    let labels: Vec<String> = axis.ticks().into_iter().filter_map(|(_, l)| l).collect();
    assert_eq!(labels, ["10", "100", "1000", "10000"]);
    let labels: Vec<String> = Axis::fit(&[300.0, 7000.0], false)
        .ticks()
        .into_iter()
        .filter_map(|(_, l)| l)
        .collect();
    assert_eq!(
        labels,
        ["100", "200", "500", "1000", "2000", "5000", "10000"]
    );
    // A value on a decade gets a decade below it, so its bar is not empty.
    assert_eq!(
        Axis::fit(&[100.0, 1000.0], false),
        Axis::Log { lo: 1, hi: 3 }
    );
    assert_eq!(Axis::fit(&[0.5], false), Axis::Log { lo: -1, hi: 0 });
}

#[test]
fn zero_mean_or_linear_flag_gives_a_linear_axis() {
    assert_eq!(
        Axis::fit(&[0.0, 7000.0], false),
        Axis::Linear {
            max: 8000.0,
            step: 2000.0
        }
    );
    assert_eq!(
        Axis::fit(&[0.0], true),
        Axis::Linear {
            max: 1.0,
            step: 1.0
        }
    );
}

#[test]
fn long_names_are_cut_and_still_render() {
    assert_eq!(short_name("jps"), "jps");
    let long = "x".repeat(300);
    assert_eq!(short_name(&long).chars().count(), 20);
    let t = totals(&format!(
        "TOTAL algo={long} mean_us=2\nTOTAL algo=jps mean_us=0\n"
    ));
    let chart = Chart {
        totals: &t,
        title: &long,
        note: Some(&long),
        linear: false,
    };
    let (svg, _) = chart.render().expect("drawn");
    let names: Vec<String> = texts(&svg).into_iter().map(|t| t.text).collect();
    assert!(
        names.contains(&format!("{}...", "x".repeat(17))),
        "{names:?}"
    );
    assert_eq!(chart.queries(), None);
}

#[test]
fn queries_are_summarised_when_given() {
    let t = totals(SAMPLE);
    let chart = Chart {
        totals: &t,
        title: "",
        note: None,
        linear: false,
    };
    assert_eq!(chart.queries().as_deref(), Some("62799 queries each"));
    let t = totals("TOTAL algo=a queries=5 mean_us=1\nTOTAL algo=b queries=7 mean_us=1\n");
    let chart = Chart {
        totals: &t,
        ..chart
    };
    assert_eq!(chart.queries().as_deref(), Some("5 to 7 queries"));
}

#[test]
fn wrap_keeps_lines_within_the_limit() {
    let lines = chart::wrap("cargo run --release --example movingai -- --algo astar", 16);
    assert!(lines.iter().all(|l| l.chars().count() <= 16), "{lines:?}");
    assert_eq!(
        lines.join(" "),
        "cargo run --release --example movingai -- --algo astar"
    );
    assert_eq!(chart::wrap("abcdefgh", 3), ["abc", "def", "gh"]);
}

/// A text element of the SVG: where it is anchored, its colour and its text.
#[derive(Debug)]
struct SvgText {
    x: i32,
    y: i32,
    fill: String,
    text: String,
}

/// The SVG's text elements in document order.
fn texts(svg: &str) -> Vec<SvgText> {
    let attr = |tag: &str, name: &str| -> String {
        let start = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        tag[start..].split('"').next().unwrap_or("").to_string()
    };
    svg.split("<text")
        .skip(1)
        .map(|rest| {
            let (tag, body) = rest.split_once('>').expect("a closed tag");
            let text = body
                .split("</text>")
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            SvgText {
                x: attr(tag, "x").parse().expect("x"),
                y: attr(tag, "y").parse().expect("y"),
                fill: attr(tag, "fill"),
                text,
            }
        })
        .collect()
}

/// The fill colours of the SVG's rectangles.
fn rect_fills(svg: &str) -> Vec<String> {
    svg.split("<rect")
        .skip(1)
        .filter_map(|rest| {
            let start = rest.find(" fill=\"")? + 7;
            Some(rest[start..].split('"').next()?.to_string())
        })
        .collect()
}

fn sample_chart(t: &[Total]) -> Chart<'_> {
    Chart {
        totals: t,
        title: DEFAULT_TITLE,
        note: Some("cargo run --release --example movingai"),
        linear: false,
    }
}

#[test]
fn svg_names_the_bars_top_down_fastest_first_with_their_values() {
    let t = totals(SAMPLE);
    let (svg, height) = sample_chart(&t).render().expect("drawn");
    assert!(svg.starts_with("<svg") && svg.contains(&format!("height=\"{height}\"")));
    let texts = texts(&svg);
    let y_of = |s: &str| texts.iter().find(|t| t.text == s).map(|t| t.y);
    let rows: Vec<i32> = ["jps", "gp-jps", "astar", "pf-astar"]
        .iter()
        .map(|n| y_of(n).expect(n))
        .collect();
    assert!(rows.windows(2).all(|w| w[0] < w[1]), "{rows:?}");
    for (value, name) in [("120 us", "jps"), ("7000 us", "pf-astar")] {
        assert_eq!(y_of(value), y_of(name), "{value} on the row of {name}");
    }
    assert!(y_of("cargo run --release --example movingai") > rows.last().copied());
}

#[test]
fn svg_colours_ours_and_peers_and_flags_mismatches_in_red() {
    let t = totals(SAMPLE);
    let (svg, _) = sample_chart(&t).render().expect("drawn");
    let fills = rect_fills(&svg);
    let count = |c: RGBColor| {
        let hex = format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        fills.iter().filter(|f| **f == hex).count()
    };
    // Two bars and a legend square each.
    assert_eq!((count(OURS), count(PEER)), (3, 3));
    let texts = texts(&svg);
    let warnings: Vec<&SvgText> = texts
        .iter()
        .filter(|t| t.text.contains("mismatches"))
        .collect();
    assert_eq!(warnings.len(), 1, "only gp-jps has mismatches");
    assert_eq!(
        (warnings[0].text.as_str(), warnings[0].fill.as_str()),
        ("40000 mismatches", "#BE2D23")
    );
}

#[test]
fn a_bar_that_reaches_the_edge_carries_its_value_inside_in_white() {
    let t = totals(
        "TOTAL algo=jps mean_us=400\nTOTAL algo=ns-astar mean_us=80389\n\
         TOTAL algo=gp-jps mismatches=2711 mean_us=3928\n",
    );
    let (svg, _) = sample_chart(&t).render().expect("drawn");
    let texts = texts(&svg);
    let find = |s: &str| texts.iter().find(|t| t.text == s).expect(s);
    let (inside, beside) = (find("80389 us"), find("400 us"));
    assert_eq!(
        (inside.fill.as_str(), beside.fill.as_str()),
        ("#FFFFFF", "#212529")
    );
    // Inside: anchored at its right end, left of where the short bar's value starts.
    assert!(svg.contains("text-anchor=\"end\""));
    assert!(inside.x > beside.x);
    assert_eq!(find("2711 mismatches").fill, "#BE2D23");
}

#[test]
fn tick_labels_that_would_overlap_are_left_out() {
    let axis = Axis::fit(&[300.0, 7000.0], false);
    let panel = |width| {
        let p = Panel {
            axis,
            bars: &[],
            bar_height: BAR,
            height: 100,
            overhang: 0,
            limit: None,
            caption: None,
        };
        let (labelled, minor) = p.ticks(width);
        let labels: Vec<String> = labelled.into_iter().map(|(_, l)| l).collect();
        (labels, minor.len())
    };
    let (wide, wide_minor) = panel(800);
    assert_eq!(wide, ["100", "200", "500", "1000", "2000", "5000", "10000"]);
    let (narrow, narrow_minor) = panel(150);
    assert_eq!(narrow, ["100", "1000", "10000"]);
    // Every gridline stays: the unlabelled ones as minor lines.
    assert_eq!(wide.len() + wide_minor, narrow.len() + narrow_minor);
}
