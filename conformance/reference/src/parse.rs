//! Parsing one line into a record (RFC 9309 §2.2, §2.2.4).
//!
//! A line is `key : value # comment`. The comment (from the first `#`,
//! RFC 9309 §2.2.3 / requirement `2.2-COMMENT`) is removed; spaces and tabs
//! around the key, the colon and the value are optional and not part of
//! either (`2.2-WS`); the key is case-insensitive (`2.2-KEY-CASE`). Only
//! `user-agent`, `allow` and `disallow` matter; other records are ignored
//! and never end a group (`2.2.4-NO-INTERFERE`). A line that cannot be
//! parsed is ignored without affecting the others (RFC 9309 §2.3.1.5).

use memchr::{memchr, memchr2};

use crate::warning::{Sink, WarningKind};

/// What one line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Directive<'a> {
    /// Empty or comment-only (RFC 9309 §2.2: may stand anywhere).
    Blank,
    /// `user-agent: value`.
    UserAgent(&'a [u8]),
    /// `allow: pattern`.
    Allow(&'a [u8]),
    /// `disallow: pattern`.
    Disallow(&'a [u8]),
    /// Any other record, or a line that could not be parsed: ignored.
    Ignored,
}

/// The three records RFC 9309 defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Record {
    UserAgent,
    Allow,
    Disallow,
}

impl Record {
    fn name(self) -> &'static str {
        match self {
            Record::UserAgent => "user-agent",
            Record::Allow => "allow",
            Record::Disallow => "disallow",
        }
    }

    fn directive(self, value: &[u8]) -> Directive<'_> {
        match self {
            Record::UserAgent => Directive::UserAgent(value),
            Record::Allow => Directive::Allow(value),
            Record::Disallow => Directive::Disallow(value),
        }
    }
}

/// How a key was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    /// Exactly a defined record name (any case).
    Exact(Record),
    /// A common misspelling of one (RFC 9309 §2.2.4 MAY).
    Typo(Record),
    /// A well-known extension record: ignored silently.
    Extension,
    /// Anything else.
    Unknown,
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Removes spaces and tabs at both ends (RFC 9309 §2.2 `WS`).
pub(crate) fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if is_ws(*first) {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if is_ws(*last) {
            s = rest;
        } else {
            break;
        }
    }
    s
}

const EXTENSIONS: &[&[u8]] = &[
    b"sitemap",
    b"crawl-delay",
    b"host",
    b"clean-param",
    b"request-rate",
    b"visit-time",
    b"noindex",
];

const DISALLOW_TYPOS: &[&[u8]] = &[b"disalow", b"dissallow", b"dissalow", b"disallaw"];

fn classify(key: &[u8]) -> Key {
    if key.eq_ignore_ascii_case(b"user-agent") {
        return Key::Exact(Record::UserAgent);
    }
    if key.eq_ignore_ascii_case(b"allow") {
        return Key::Exact(Record::Allow);
    }
    if key.eq_ignore_ascii_case(b"disallow") {
        return Key::Exact(Record::Disallow);
    }
    if DISALLOW_TYPOS.iter().any(|t| key.eq_ignore_ascii_case(t)) {
        return Key::Typo(Record::Disallow);
    }
    if key.eq_ignore_ascii_case(b"useragent") || is_user_space_agent(key) {
        return Key::Typo(Record::UserAgent);
    }
    if EXTENSIONS.iter().any(|e| key.eq_ignore_ascii_case(e)) {
        return Key::Extension;
    }
    Key::Unknown
}

/// `user` + one or more spaces/tabs + `agent`, any case.
fn is_user_space_agent(key: &[u8]) -> bool {
    match (
        key.get(..4),
        key.len().checked_sub(5).and_then(|i| key.get(i..)),
    ) {
        (Some(user), Some(agent)) if key.len() > 9 => {
            user.eq_ignore_ascii_case(b"user")
                && agent.eq_ignore_ascii_case(b"agent")
                && key[4..key.len() - 5].iter().all(|&b| is_ws(b))
        }
        _ => false,
    }
}

/// Whether a rule's value holds a control octet: NUL, any other C0 control but tab,
/// or DEL.
///
/// RFC 9309 §2.2: `path-pattern = "/" *UTF8-char-noctl`, "UTF8 derived from RFC 3629,
/// but excluding control characters" (its range `%x24-7F` reaches DEL, which its own
/// comment excludes, as RFC 5234's `CTL` does). Such a line is no rule of the ABNF and
/// no spelling of one that a lenient reader could repair without inventing octets: cut
/// at the control, the control dropped or kept, each would give it a meaning it does not
/// have. So it is ignored like any line that is no record (§2.3.1.5: "Crawlers MUST
/// use the parseable rules."), the scope decision of `corpus/README.md`. Tab is the
/// white space of the ABNF (`WS`) and is left to the value as before.
pub(crate) fn has_control(value: &[u8]) -> bool {
    // Every rule goes through this at parse: no early exit, so that the loop vectorizes.
    value.iter().fold(false, |found, &b| {
        found | ((b < 0x20) & (b != b'\t')) | (b == 0x7F)
    })
}

/// Parses one line (line end already removed).
pub(crate) fn parse_line<'a>(
    line: &'a [u8],
    number: usize,
    accept_typos: bool,
    sink: &mut Sink<'_>,
) -> Directive<'a> {
    // RFC 9309 §2.2.3: `#` starts a comment that runs to the end of the line.
    // One scan finds the first `#` or `:`; only after a `:` is a second
    // scan for `#` needed.
    let (content, colon) = match memchr2(b'#', b':', line) {
        Some(i) if line[i] == b'#' => (&line[..i], None),
        Some(i) => match memchr(b'#', &line[i + 1..]) {
            Some(j) => (&line[..i + 1 + j], Some(i)),
            None => (line, Some(i)),
        },
        None => (line, None),
    };
    let trimmed = trim(content);
    if trimmed.is_empty() {
        return Directive::Blank;
    }
    if let Some(colon) = colon {
        let key = trim(&content[..colon]);
        let value = trim(&content[colon + 1..]);
        match classify(key) {
            Key::Exact(record) => return record.directive(value),
            Key::Typo(record) => return typo(key, record, value, number, accept_typos, sink),
            Key::Extension => return Directive::Ignored,
            // `Disallow /a:b`: the colon belongs to the value; treat as a
            // missing colon below if the first word is a record name.
            Key::Unknown if key.iter().any(|&b| is_ws(b)) => {}
            Key::Unknown => {
                sink.warn(number, || {
                    WarningKind::UnknownRecord(String::from_utf8_lossy(key).into_owned())
                });
                return Directive::Ignored;
            }
        }
    }
    missing_colon(trimmed, number, accept_typos, sink)
}

fn typo<'a>(
    key: &[u8],
    record: Record,
    value: &'a [u8],
    number: usize,
    accept_typos: bool,
    sink: &mut Sink<'_>,
) -> Directive<'a> {
    sink.warn(number, || WarningKind::Typo {
        written: String::from_utf8_lossy(key).into_owned(),
        meant: record.name(),
        accepted: accept_typos,
    });
    if accept_typos {
        record.directive(value)
    } else {
        Directive::Ignored
    }
}

/// A line without a usable colon: `Disallow /x` is a record with white space
/// as separator when typos are accepted (RFC 9309 §2.2.4 MAY).
fn missing_colon<'a>(
    content: &'a [u8],
    number: usize,
    accept_typos: bool,
    sink: &mut Sink<'_>,
) -> Directive<'a> {
    let split = content
        .iter()
        .position(|&b| is_ws(b))
        .unwrap_or(content.len());
    let (key, value) = content.split_at(split);
    let value = trim(value);
    let record = match classify(key) {
        Key::Exact(record) | Key::Typo(record) => record,
        Key::Extension | Key::Unknown => {
            sink.warn(number, || WarningKind::Unparseable);
            return Directive::Ignored;
        }
    };
    sink.warn(number, || WarningKind::MissingColon);
    if let Key::Typo(record) = classify(key) {
        return typo(key, record, value, number, accept_typos, sink);
    }
    if accept_typos {
        record.directive(value)
    } else {
        Directive::Ignored
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warning::Warning;

    fn parse(line: &[u8], typos: bool) -> (Directive<'_>, Vec<WarningKind>) {
        let mut warnings = Vec::new();
        let mut cb = |w: Warning| warnings.push(w.kind);
        let d = parse_line(line, 1, typos, &mut Sink::new(Some(&mut cb)));
        (d, warnings)
    }

    fn strict(line: &[u8]) -> Directive<'_> {
        parse(line, false).0
    }

    #[test]
    fn trims_spaces_and_tabs_only() {
        assert_eq!(trim(b" \t a b \t"), b"a b");
        assert_eq!(trim(b"   "), b"");
        assert_eq!(trim(b"\x0ba\x0c"), b"\x0ba\x0c");
    }

    #[test]
    fn records_and_case() {
        assert_eq!(strict(b"User-agent: foo"), Directive::UserAgent(b"foo"));
        assert_eq!(strict(b"USER-AGENT:foo"), Directive::UserAgent(b"foo"));
        assert_eq!(strict(b"dIsAllOw: /x"), Directive::Disallow(b"/x"));
        assert_eq!(strict(b"ALLOW : /y"), Directive::Allow(b"/y"));
    }

    #[test]
    fn white_space_around_colon() {
        assert_eq!(
            strict(b" \tdisallow \t: \t/x \t"),
            Directive::Disallow(b"/x")
        );
        assert_eq!(strict(b"disallow:"), Directive::Disallow(b""));
        assert_eq!(strict(b"disallow: /a b"), Directive::Disallow(b"/a b"));
    }

    #[test]
    fn comments() {
        assert_eq!(strict(b"# hello"), Directive::Blank);
        assert_eq!(strict(b"   "), Directive::Blank);
        assert_eq!(strict(b""), Directive::Blank);
        assert_eq!(strict(b"disallow: /a # b"), Directive::Disallow(b"/a"));
        assert_eq!(strict(b"disallow: /a#b"), Directive::Disallow(b"/a"));
        assert_eq!(strict(b"disallow# : /a"), Directive::Ignored);
    }

    #[test]
    fn value_keeps_later_colons() {
        assert_eq!(strict(b"allow: /a:b"), Directive::Allow(b"/a:b"));
    }

    #[test]
    fn extension_records_are_silent() {
        let (d, w) = parse(b"Sitemap: https://example.com/s.xml", false);
        assert_eq!(d, Directive::Ignored);
        assert!(w.is_empty());
        let (d, w) = parse(b"crawl-delay: 5", false);
        assert_eq!(d, Directive::Ignored);
        assert!(w.is_empty());
    }

    #[test]
    fn unknown_record_warns() {
        let (d, w) = parse(b"Foo: bar", false);
        assert_eq!(d, Directive::Ignored);
        assert_eq!(w, vec![WarningKind::UnknownRecord("Foo".into())]);
    }

    #[test]
    fn unparseable_line() {
        let (d, w) = parse(b"hello world", false);
        assert_eq!(d, Directive::Ignored);
        assert_eq!(w, vec![WarningKind::Unparseable]);
    }

    #[test]
    fn typos_strict_and_accepted() {
        for key in [&b"disalow"[..], b"Dissallow", b"DISSALOW", b"disallaw"] {
            let mut line = key.to_vec();
            line.extend_from_slice(b": /x");
            assert_eq!(parse(&line, false).0, Directive::Ignored);
            let (d, w) = parse(&line, true);
            assert_eq!(d, Directive::Disallow(b"/x"));
            assert!(matches!(
                &w[..],
                [WarningKind::Typo {
                    meant: "disallow",
                    accepted: true,
                    ..
                }]
            ));
        }
        for line in [&b"useragent: a"[..], b"User Agent: a", b"user \t agent:a"] {
            assert_eq!(parse(line, false).0, Directive::Ignored);
            assert_eq!(parse(line, true).0, Directive::UserAgent(b"a"));
        }
        assert_eq!(parse(b"useragent : a", true).0, Directive::UserAgent(b"a"));
        assert_eq!(parse(b"useragnt: a", true).0, Directive::Ignored);
        assert_eq!(parse(b"user  x agent: a", true).0, Directive::Ignored);
    }

    #[test]
    fn missing_colon() {
        let (d, w) = parse(b"Disallow /x", false);
        assert_eq!(d, Directive::Ignored);
        assert_eq!(w, vec![WarningKind::MissingColon]);
        let (d, w) = parse(b"Disallow \t /x", true);
        assert_eq!(d, Directive::Disallow(b"/x"));
        assert_eq!(w, vec![WarningKind::MissingColon]);
        assert_eq!(
            parse(b"Disallow /a:b", true).0,
            Directive::Disallow(b"/a:b")
        );
        assert_eq!(
            parse(b"user-agent foo", true).0,
            Directive::UserAgent(b"foo")
        );
        assert_eq!(parse(b"disalow /x", true).0, Directive::Disallow(b"/x"));
        assert_eq!(parse(b"disallow", true).0, Directive::Disallow(b""));
        // no white space separator: not a record
        assert_eq!(parse(b"Disallow/x", true).0, Directive::Ignored);
    }

    #[test]
    fn control_octets() {
        for value in [&b"/a\0b"[..], b"/\x01", b"/a\x1f", b"/a\x7f", b"\x0b/a"] {
            assert!(has_control(value), "{value:?}");
        }
        for value in [&b"/a b"[..], b"/a\tb", b"/%00", b"/\x80\xff", b""] {
            assert!(!has_control(value), "{value:?}");
        }
    }

    #[test]
    fn odd_bytes_never_panic() {
        for line in [
            &b"\0"[..],
            b":",
            b"::",
            b"\xff\xfe: \x80",
            b"\xEF\xBB\xBFuser-agent: a",
            b"user",
            b"user agent",
            b"useragent",
        ] {
            let _ = parse(line, true);
            let _ = parse(line, false);
        }
        assert_eq!(strict(b":"), Directive::Ignored);
    }
}
