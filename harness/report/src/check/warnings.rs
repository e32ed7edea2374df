//! `check --warnings`: the parser's lint warnings, one output line per line of the file,
//! quoting the file in visible notation (a binary file prints no raw bytes), and whether
//! any line of the file was a record at all.

use reptest_reference::syntax::{self, trim, Record};
use reptest_reference::{Warning, WarningKind};

/// The lines of `body` (without their line ends), in order from line 1: CR, LF and CRLF
/// each end one line (RFC 9309 §2.2), as the reference numbers them
/// ([`syntax::lines`]; a byte order mark kept). Lazy: a long body costs no memory.
pub fn lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    syntax::lines(body).keep_bom().map(|line| line.raw())
}

/// One text per line of `body` that has warnings, in line order: `line N: ` and its
/// warnings joined by ` | `, in visible notation.
pub fn by_line(warnings: &[Warning], body: &[u8]) -> Vec<String> {
    let mut sorted: Vec<&Warning> = warnings.iter().collect();
    sorted.sort_by_key(|w| w.line);
    // Both in line order: one pass over the body.
    let mut numbered = lines(body).zip(1..);
    let mut texts = Vec::new();
    for same in sorted.chunk_by(|a, b| a.line == b.line) {
        let line = same[0].line;
        let raw = numbered
            .find(|(_, n)| *n == line)
            .map_or(&[][..], |(raw, _)| raw);
        let kinds: Vec<String> = same.iter().map(|w| describe(&w.kind, raw)).collect();
        texts.push(format!("line {line}: {}", kinds.join(" | ")));
    }
    texts
}

/// `kind` in words and visible notation; the text it quotes is shown from the line's own
/// bytes `raw` (the warning holds it as lossy UTF-8, where every invalid byte is `�`).
fn describe(kind: &WarningKind, raw: &[u8]) -> String {
    let text = kind.to_string();
    let quoted = match kind {
        WarningKind::UnknownRecord(text) | WarningKind::UserAgentNotToken(text) => text,
        WarningKind::Typo { written, .. } => written,
        _ => return reptest_core::visible_notation::render(text.as_bytes()),
    };
    let needle = format!("`{quoted}`");
    let (Some(at), Some(bytes)) = (text.find(&needle), field_bytes(raw, quoted)) else {
        return reptest_core::visible_notation::render(text.as_bytes());
    };
    let (before, after) = text.as_bytes().split_at(at);
    format!(
        "{}`{}`{}",
        reptest_core::visible_notation::render(before),
        reptest_core::visible_notation::render(bytes),
        reptest_core::visible_notation::render(&after[needle.len()..])
    )
}

/// The bytes of `raw` a warning quotes as `lossy`: its key or its value as the syntax
/// layer reads them ([`Record::key`], [`Record::value`]: before the colon or the first
/// white space, after it and before any `#`, trimmed of spaces and tabs).
fn field_bytes<'a>(raw: &'a [u8], lossy: &str) -> Option<&'a [u8]> {
    let record = Record::parse(1, raw);
    [record.key(), record.value()]
        .into_iter()
        .find(|field| String::from_utf8_lossy(field) == lossy)
}

/// Whether `body` has lines that are not blank or comments and none of them is a record
/// the parser used or knows: each drew a warning that it was ignored (not a record, an
/// unknown or misspelt record not accepted, beyond the parse limit). A binary file, say.
pub fn none_is_record(warnings: &[Warning], body: &[u8], accept_typos: bool) -> bool {
    let cut = warnings
        .iter()
        .find(|w| w.kind == WarningKind::BeyondParseLimit)
        .map(|w| w.line);
    let ignored: std::collections::HashSet<usize> = warnings
        .iter()
        .filter(|w| match &w.kind {
            WarningKind::Unparseable | WarningKind::UnknownRecord(_) => true,
            WarningKind::Typo { accepted, .. } => !accepted,
            WarningKind::MissingColon => !accept_typos,
            _ => false,
        })
        .map(|w| w.line)
        .collect();
    let parsed = cut.map_or(usize::MAX, |line| line.saturating_sub(1));
    let mut content = lines(body).zip(1..).take(parsed).filter(|(line, _)| {
        let text = trim(line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line));
        !text.is_empty() && !text.starts_with(b"#")
    });
    let mut any = cut.is_some();
    content.all(|(_, n)| {
        any = true;
        ignored.contains(&n)
    }) && any
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_reference::{Config, Robots};

    fn warnings(body: &[u8]) -> Vec<Warning> {
        let mut found = Vec::new();
        Robots::parse_with_warnings(body, &Config::rfc9309(), &mut |w| found.push(w));
        found
    }

    #[test]
    fn one_text_per_line_quoting_the_bytes_as_written() {
        let body = b"\x7fELF\xff: x\r\nUser-agent: a/1\nDisalow: /\n";
        let shown = by_line(&warnings(body), body);
        assert_eq!(shown.len(), 3, "{shown:?}");
        assert!(shown[0].starts_with("line 1: "), "{shown:?}");
        assert!(shown[0].contains("`\\x7FELF\\xFF`"), "{shown:?}");
        assert!(shown[0].contains(" | "), "{shown:?}");
        assert!(shown[1].contains("`a/1`"), "{shown:?}");
        assert!(shown[2].contains("`Disalow`"), "{shown:?}");
    }

    #[test]
    fn a_file_of_no_records_is_told_apart() {
        for (body, none) in [
            (&b"\x7fELF\xff: x\n\x00\x01\n# c\n\n"[..], true),
            (b"Disalow: /\n", true),
            (b"", false),
            (b"# only a comment\n\n", false),
            (b"Sitemap: https://example.com/s.xml\n", false),
            (b"\xEF\xBB\xBFUser-agent: *\n", false),
        ] {
            assert_eq!(
                none_is_record(&warnings(body), body, false),
                none,
                "{body:?}"
            );
        }
        // A binary file longer than the parse limit: its lines beyond it count as ignored.
        let mut long = vec![1u8; 600_000];
        assert!(none_is_record(&warnings(&long), &long, false));
        long.splice(0..0, b"User-agent: *\n".iter().copied());
        assert!(!none_is_record(&warnings(&long), &long, false));
    }

    #[test]
    fn lines_end_at_cr_lf_and_crlf() {
        let all: Vec<&[u8]> = lines(b"a\rb\r\nc\nd").collect();
        assert_eq!(all, [&b"a"[..], b"b", b"c", b"d"]);
        assert_eq!(lines(b"a\n").count(), 1);
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"\xEF\xBB\xBFa").next(), Some(&b"\xEF\xBB\xBFa"[..]));
    }
}
