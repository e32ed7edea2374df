//! Lint warnings reported while parsing (see [`crate::Robots::parse_with_warnings`]).
//!
//! A warning never changes how a file is parsed: it reports a line that was
//! ignored, repaired or is merely suspicious. RFC 9309 §2.3.1.5: crawlers
//! MUST try to parse every line; an unparseable line does not invalidate
//! the others.

use std::fmt;

/// A lint finding on one line of a robots.txt file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Warning {
    /// The 1-based line number (CR, LF and CRLF each end one line).
    pub line: usize,
    /// What was found.
    pub kind: WarningKind,
}

/// What a [`Warning`] reports.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// A `key: value` line whose key is not a record this crate knows
    /// (RFC 9309 §2.2.4: other records are ignored and never end a group).
    /// Holds the key as written (lossy UTF-8). The well-known extension
    /// records `sitemap`, `crawl-delay`, `host`, `clean-param`,
    /// `request-rate`, `visit-time` and `noindex` are ignored silently.
    UnknownRecord(String),
    /// A record name followed by white space but no colon (`Disallow /x`).
    /// Accepted only with [`crate::Config::accept_typos`] (RFC 9309 §2.2.4);
    /// otherwise the line is ignored.
    MissingColon,
    /// A misspelt record name (RFC 9309 §2.2.4).
    Typo {
        /// The key as written (lossy UTF-8).
        written: String,
        /// The record it was taken for: `"user-agent"` or `"disallow"`.
        meant: &'static str,
        /// Whether the line was used (only with
        /// [`crate::Config::accept_typos`]); otherwise it was ignored.
        accepted: bool,
    },
    /// An allow or disallow line before the first user-agent line; it is
    /// ignored (RFC 9309 §2.2.2 / requirement `2.2.2-ORPHAN-RULES`).
    RuleOutsideGroup,
    /// The line is not valid UTF-8 (RFC 9309 §2.3: the file MUST be UTF-8).
    /// The line is still parsed, octet by octet.
    NotUtf8,
    /// The file starts with a UTF-8 byte order mark. It is skipped when
    /// [`crate::Config::skip_bom`] is set; otherwise it becomes part of the
    /// first line's key.
    ByteOrderMark,
    /// This line and all after it lie (at least partly) beyond the parse
    /// limit and were ignored (RFC 9309 §2.5). Reported once.
    BeyondParseLimit,
    /// The line is longer than [`crate::Config::max_line_length`]; its
    /// octets beyond the limit were dropped.
    LineTooLong,
    /// A non-empty rule pattern that starts with neither `/` nor `*`
    /// (RFC 9309 §2.2); see [`crate::PatternWithoutSlash`].
    PatternWithoutSlash,
    /// A user-agent line with an empty value; it starts or extends a group
    /// like any user-agent line, but matches no crawler.
    EmptyUserAgent,
    /// A user-agent value that is neither `*` nor a bare product token of
    /// `[A-Za-z_-]` (RFC 9309 §2.2.1), e.g. `Examplebot/2.1` or `*bot`.
    /// Holds the value as written (lossy UTF-8).
    UserAgentNotToken(String),
    /// A non-blank line that is not a `key: value` record at all
    /// (RFC 9309 §2.3.1.5); it is ignored.
    Unparseable,
    /// An allow or disallow line whose value holds a control octet (NUL, another C0
    /// control but tab, or DEL). A path-pattern of RFC 9309 §2.2 holds none, so the
    /// line is no rule and is ignored (§2.3.1.5: crawlers use the parseable rules); it
    /// ends no run of user-agent lines.
    ControlInPattern,
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::UnknownRecord(key) => write!(f, "unknown record `{key}` ignored"),
            WarningKind::MissingColon => f.write_str("record name not followed by a colon"),
            WarningKind::Typo {
                written,
                meant,
                accepted,
            } => write!(
                f,
                "`{written}` is a misspelling of `{meant}` ({})",
                if *accepted { "accepted" } else { "ignored" }
            ),
            WarningKind::RuleOutsideGroup => {
                f.write_str("rule before the first user-agent line ignored")
            }
            WarningKind::NotUtf8 => f.write_str("line is not valid UTF-8"),
            WarningKind::ByteOrderMark => f.write_str("file starts with a UTF-8 byte order mark"),
            WarningKind::BeyondParseLimit => {
                f.write_str("parse limit reached; this line and the rest of the file ignored")
            }
            WarningKind::LineTooLong => f.write_str("line too long; its end was dropped"),
            WarningKind::PatternWithoutSlash => {
                f.write_str("rule pattern starts with neither `/` nor `*`")
            }
            WarningKind::EmptyUserAgent => f.write_str("user-agent line with an empty value"),
            WarningKind::UserAgentNotToken(value) => {
                write!(f, "user-agent value `{value}` is not a bare product token")
            }
            WarningKind::Unparseable => f.write_str("line is not a record; ignored"),
            WarningKind::ControlInPattern => {
                f.write_str("rule pattern holds a control octet; the line is no rule, ignored")
            }
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

/// Where parse warnings go: nowhere (cheap: no warning is even built) or a
/// caller's callback.
pub(crate) struct Sink<'w> {
    callback: Option<&'w mut dyn FnMut(Warning)>,
}

impl<'w> Sink<'w> {
    pub(crate) fn new(callback: Option<&'w mut dyn FnMut(Warning)>) -> Self {
        Sink { callback }
    }

    /// Whether warnings are wanted at all (lets callers skip costly checks).
    pub(crate) fn enabled(&self) -> bool {
        self.callback.is_some()
    }

    /// Reports a warning; `kind` is only called when warnings are wanted.
    pub(crate) fn warn(&mut self, line: usize, kind: impl FnOnce() -> WarningKind) {
        if let Some(callback) = self.callback.as_mut() {
            callback(Warning { line, kind: kind() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        let w = Warning {
            line: 3,
            kind: WarningKind::Typo {
                written: "disalow".into(),
                meant: "disallow",
                accepted: true,
            },
        };
        assert_eq!(
            w.to_string(),
            "line 3: `disalow` is a misspelling of `disallow` (accepted)"
        );
        let w = Warning {
            line: 1,
            kind: WarningKind::UnknownRecord("foo".into()),
        };
        assert_eq!(w.to_string(), "line 1: unknown record `foo` ignored");
    }

    #[test]
    fn sink_disabled_builds_nothing() {
        let mut sink = Sink::new(None);
        assert!(!sink.enabled());
        sink.warn(1, || unreachable!("not built when disabled"));
    }

    #[test]
    fn sink_enabled_forwards() {
        let mut got = Vec::new();
        {
            let mut cb = |w: Warning| got.push(w);
            let mut sink = Sink::new(Some(&mut cb));
            assert!(sink.enabled());
            sink.warn(7, || WarningKind::MissingColon);
        }
        assert_eq!(
            got,
            vec![Warning {
                line: 7,
                kind: WarningKind::MissingColon
            }]
        );
    }
}
