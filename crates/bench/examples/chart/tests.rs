//! Tests of the chart: checksums, parsing, axis, layout and a PNG round trip.

use super::png::{adler32, crc32, zlib_stored};
use super::*;

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
fn crc32_of_check_string_is_cbf43926() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
}

#[test]
fn adler32_of_wikipedia_is_11e60398() {
    assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    assert_eq!(adler32(b""), 1);
}

#[test]
fn adler32_reduces_long_runs_of_ff_without_overflow() {
    let data = vec![0xFF; 100_000];
    let (mut a, mut b) = (1u64, 0u64);
    for &x in &data {
        a = (a + u64::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    assert_eq!(adler32(&data), ((b << 16) | a) as u32);
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
    let o = args(&["--out", "a.png"]).unwrap();
    assert_eq!(
        (o.title.as_str(), o.input, o.note),
        (DEFAULT_TITLE, None, None)
    );
    let o = args(&["--out", "a.png", "--note", "n", "-"]).unwrap();
    assert_eq!((o.input, o.note.as_deref()), (None, Some("n")));
    assert!(args(&["--out", "a.png", "x", "y"]).is_err());
    assert!(args(&["--out", "a.png", "--bogus"]).is_err());
    assert!(args(&["--out"]).is_err());
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
    let canvas = chart.render();
    assert_eq!(canvas.pixels.len(), canvas.width * canvas.height);
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
    let lines = wrap("cargo run --release --example movingai -- --algo astar", 16);
    assert!(lines.iter().all(|l| l.chars().count() <= 16), "{lines:?}");
    assert_eq!(
        lines.join(" "),
        "cargo run --release --example movingai -- --algo astar"
    );
    assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
}

/// Reads the PNG's chunks back: (type, data), checking each CRC.
fn chunks(png: &[u8]) -> Vec<([u8; 4], Vec<u8>)> {
    let mut out = Vec::new();
    let mut rest = &png[8..];
    while !rest.is_empty() {
        let len = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
        let kind: [u8; 4] = rest[4..8].try_into().unwrap();
        let data = rest[8..8 + len].to_vec();
        let crc = u32::from_be_bytes(rest[8 + len..12 + len].try_into().unwrap());
        assert_eq!(crc, crc32(&rest[4..8 + len]), "CRC of {kind:?}");
        out.push((kind, data));
        rest = &rest[12 + len..];
    }
    out
}

/// Undoes `zlib_stored`, checking the header, block lengths and Adler-32.
fn unstore(z: &[u8]) -> Vec<u8> {
    assert_eq!(u16::from_be_bytes([z[0], z[1]]) % 31, 0);
    let mut out = Vec::new();
    let mut i = 2;
    loop {
        let last = z[i] & 1 == 1;
        assert_eq!(z[i] >> 1, 0, "stored block");
        let len = u16::from_le_bytes([z[i + 1], z[i + 2]]);
        assert_eq!(!len, u16::from_le_bytes([z[i + 3], z[i + 4]]));
        out.extend_from_slice(&z[i + 5..i + 5 + len as usize]);
        i += 5 + len as usize;
        if last {
            break;
        }
    }
    assert_eq!(
        u32::from_be_bytes(z[i..i + 4].try_into().unwrap()),
        adler32(&out)
    );
    assert_eq!(i + 4, z.len());
    out
}

#[test]
fn png_round_trip_has_signature_size_and_pixels() {
    let t = totals(SAMPLE);
    let chart = Chart {
        totals: &t,
        title: DEFAULT_TITLE,
        note: Some("cargo run --release --example movingai"),
        linear: false,
    };
    let canvas = chart.render();
    let png = encode_png(&canvas, &PALETTE);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let chunks = chunks(&png);
    let kinds: Vec<&[u8]> = chunks.iter().map(|(k, _)| &k[..]).collect();
    assert_eq!(kinds, [b"IHDR", b"PLTE", b"IDAT", b"IEND"]);
    let ihdr = &chunks[0].1;
    assert_eq!(u32::from_be_bytes(ihdr[0..4].try_into().unwrap()), 900);
    assert_eq!(
        u32::from_be_bytes(ihdr[4..8].try_into().unwrap()) as usize,
        canvas.height
    );
    assert_eq!(&ihdr[8..], [8, 3, 0, 0, 0]);
    assert_eq!(chunks[1].1.len(), PALETTE.len() * 3);
    let raw = unstore(&chunks[2].1);
    assert!(raw.len() > 65535, "several stored blocks were exercised");
    assert_eq!(raw.len(), (canvas.width + 1) * canvas.height);
    for (row, pixels) in raw
        .chunks(canvas.width + 1)
        .zip(canvas.pixels.chunks(canvas.width))
    {
        assert_eq!((row[0], &row[1..]), (0, pixels));
    }
    assert!(canvas.pixels.contains(&OURS) && canvas.pixels.contains(&PEER));
    assert!(
        canvas.pixels.contains(&WARN),
        "gp-jps mismatches are flagged"
    );
}

#[test]
fn empty_zlib_stream_is_one_final_empty_block() {
    assert_eq!(unstore(&zlib_stored(&[])), Vec::<u8>::new());
}

#[test]
fn non_ascii_text_draws_as_question_marks() {
    assert_eq!(glyph('µ'), glyph('?'));
    assert_eq!(text_width("µs", 2), text_width("?s", 2));
}
