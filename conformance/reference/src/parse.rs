//! Parsing one line into a record (RFC 9309 §2.2, §2.2.4).
//!
//! A line is `key : value # comment`. The comment (from the first `#`,
//! RFC 9309 §2.2.3 / requirement `2.2-COMMENT`) is removed; spaces and tabs
//! around the key, the colon and the value are optional and not part of
//! either (`2.2-WS`); the key is case-insensitive (`2.2-KEY-CASE`). Only
//! `user-agent`, `allow` and `disallow` matter; other records are ignored
//! and never end a group (`2.2.4-NO-INTERFERE`). A line that cannot be
//! parsed is ignored without affecting the others (RFC 9309 §2.3.1.5).

use crate::syntax::{Key, Record};
use crate::warning::{Sink, WarningKind};

pub(crate) use crate::syntax::has_control;

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

/// The directive of a record of `key`, one of the three of RFC 9309 §2.2.
fn directive(key: Key, value: &[u8]) -> Directive<'_> {
    match key {
        Key::UserAgent => Directive::UserAgent(value),
        Key::Allow => Directive::Allow(value),
        Key::Disallow => Directive::Disallow(value),
        Key::Sitemap | Key::Extension | Key::Unknown => Directive::Ignored,
    }
}

/// Parses one line (line end already removed): its syntax ([`Record`]), then what the
/// parser makes of it, with its warnings.
#[inline]
pub(crate) fn parse_line<'a>(
    line: &'a [u8],
    number: usize,
    accept_typos: bool,
    sink: &mut Sink<'_>,
) -> Directive<'a> {
    let record = Record::parse(number, line);
    let Some(key) = record.key_kind() else {
        if record.is_blank() {
            return Directive::Blank;
        }
        sink.warn(number, || WarningKind::Unparseable);
        return Directive::Ignored;
    };
    if record.missing_colon() {
        sink.warn(number, || WarningKind::MissingColon);
    }
    match key {
        // RFC 9309 §2.2.4: other records are ignored (the well-known ones silently).
        Key::Sitemap | Key::Extension => Directive::Ignored,
        Key::Unknown => {
            sink.warn(number, || {
                WarningKind::UnknownRecord(String::from_utf8_lossy(record.key()).into_owned())
            });
            Directive::Ignored
        }
        _ if record.misspelt() => {
            sink.warn(number, || WarningKind::Typo {
                written: String::from_utf8_lossy(record.key()).into_owned(),
                meant: key.name().unwrap_or_default(),
                accepted: accept_typos,
            });
            accepted(accept_typos, key, record.value())
        }
        // `Disallow /x`: a record with white space as separator (RFC 9309 §2.2.4 MAY).
        _ if record.missing_colon() => accepted(accept_typos, key, record.value()),
        _ => directive(key, record.value()),
    }
}

/// The directive of a misspelt record or one without its colon: only when such records
/// are accepted ([`crate::Config::accept_typos`]).
fn accepted(accept_typos: bool, key: Key, value: &[u8]) -> Directive<'_> {
    if accept_typos {
        directive(key, value)
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
