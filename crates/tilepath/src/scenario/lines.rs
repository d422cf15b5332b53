//! Text lines ended by LF, CRLF or a lone CR (old Mac files), for the map readers.

/// The lines of `text` without their endings: `\n`, `\r\n` and a lone `\r` each end a
/// line, and a final line without an ending is kept. Unlike [`str::lines`], a lone
/// `\r` is an ending rather than part of the line. Borrows only; O(text length).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> + Clone {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let s = rest?;
        match s.find(['\n', '\r']) {
            Some(i) => {
                let skip = if s[i..].starts_with("\r\n") { 2 } else { 1 };
                let next = &s[i + skip..];
                rest = (!next.is_empty()).then_some(next);
                Some(&s[..i])
            }
            None => {
                rest = None;
                (!s.is_empty()).then_some(s)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::lines;

    fn split(text: &str) -> Vec<&str> {
        lines(text).collect()
    }

    #[test]
    fn lf_crlf_and_lone_cr_all_end_lines() {
        assert_eq!(split("a\nb\n"), ["a", "b"]);
        assert_eq!(split("a\r\nb\r\n"), ["a", "b"]);
        assert_eq!(split("a\rb\r"), ["a", "b"]);
        assert_eq!(split("a\r\rb"), ["a", "", "b"]);
        assert_eq!(split("a\n\r\nb\rc"), ["a", "", "b", "c"]);
    }

    #[test]
    fn a_missing_final_ending_keeps_the_last_line_and_empty_text_has_none() {
        assert_eq!(split("a\nb"), ["a", "b"]);
        assert_eq!(split(""), Vec::<&str>::new());
        assert_eq!(split("\n"), [""]);
        assert_eq!(split("\r\n\r\n"), ["", ""]);
    }
}
