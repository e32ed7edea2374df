//! A light line scan of a robots.txt body for its groups' user-agent values and its rule
//! patterns.
//!
//! The reference matcher (`reptest-reference`) parses a body into a compiled form that
//! answers checks but does not list its groups or rules, so query derivation reads them
//! from the reference's syntax layer ([`reptest_reference::syntax::records`], RFC 9309
//! §2.2): lines end at CR, LF or CRLF; a `#` starts a comment; the key is what precedes
//! the first `:`, case-insensitive; spaces and tabs around key and value are dropped.
//! Keys read: `user-agent`, `allow`, `disallow`, and the misspellings the reference's
//! Google profile accepts (`useragent`, `user agent`, `disalow`, `dissallow`, `dissalow`,
//! `disallaw`): a query derived from a misspelled line is where implementations that
//! accept it and those that do not part ways. A line without a colon is not read.
//!
//! Unlike the RFC-strict parser, the scan reads the whole body it is given (up to
//! [`crate::BODY_LIMIT`]), also past the 500 KiB parse minimum: rules there are where
//! parse limits disagree. A leading byte order mark is skipped. Empty patterns (which
//! match nothing) are not rules here.

use reptest_reference::syntax::{records, Key};

/// One `allow` / `disallow` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rule<'a> {
    /// The pattern, trimmed, comment removed.
    pub(crate) pattern: &'a [u8],
    /// The group the rule belongs to (an index into [`Scan::groups`]); `None` for a rule
    /// before any user-agent line.
    pub(crate) group: Option<usize>,
    /// A `disallow` line (or a misspelling of one), not an `allow` line.
    pub(crate) disallow: bool,
}

/// The groups and rules of one body.
#[derive(Debug, Default)]
pub(crate) struct Scan<'a> {
    /// Each group's user-agent values, in file order.
    pub(crate) groups: Vec<Vec<&'a [u8]>>,
    pub(crate) rules: Vec<Rule<'a>>,
}

/// Scans `body`.
pub(crate) fn scan(body: &[u8]) -> Scan<'_> {
    let mut out = Scan::default();
    // Whether the last user-agent or rule line was a rule: the next user-agent line then
    // starts a new group (RFC 9309 §2.1).
    let mut after_rule = true;
    for record in records(body) {
        // A `key: value` line only: no key followed by white space instead of a colon.
        if record.colon().is_none() || record.missing_colon() {
            continue;
        }
        let value = record.value();
        match record.key_kind() {
            Some(Key::UserAgent) => {
                if after_rule {
                    out.groups.push(Vec::new());
                    after_rule = false;
                }
                if let Some(group) = out.groups.last_mut() {
                    group.push(value);
                }
            }
            Some(kind @ (Key::Allow | Key::Disallow)) => {
                after_rule = true;
                if !value.is_empty() {
                    out.rules.push(Rule {
                        pattern: value,
                        group: out.groups.len().checked_sub(1),
                        disallow: kind == Key::Disallow,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_and_rules() {
        let s = scan(b"User-agent: a\r\nDisallow: /a\rUser-agent: b\nAllow: /b");
        assert_eq!(s.groups, vec![vec![&b"a"[..]], vec![b"b"]]);
        assert_eq!(s.rules.len(), 2);
        let s = scan(
            b"\xef\xbb\xbfDisallow: /orphan\nUser-agent: A\nuser agent: B # c\nDisallow: /a # x\nAllow:\nUSERAGENT: *\ndissallow:\t/typo \nSitemap: /s\nDisallow /nocolon\n",
        );
        assert_eq!(s.groups, vec![vec![&b"A"[..], b"B"], vec![b"*"]]);
        assert_eq!(
            s.rules,
            vec![
                Rule {
                    pattern: b"/orphan",
                    group: None,
                    disallow: true
                },
                Rule {
                    pattern: b"/a",
                    group: Some(0),
                    disallow: true
                },
                Rule {
                    pattern: b"/typo",
                    group: Some(1),
                    disallow: true
                },
            ]
        );
    }

    #[test]
    fn an_empty_rule_still_ends_the_group() {
        let s = scan(b"User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /b\n");
        assert_eq!(s.groups.len(), 2);
        assert_eq!(s.rules[0].group, Some(1));
    }
}
