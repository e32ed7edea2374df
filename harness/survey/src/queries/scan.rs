//! A light line scan of a robots.txt body for its groups' user-agent values and its rule
//! patterns.
//!
//! The reference matcher (`reptest-reference`) parses a body into a compiled form that
//! answers checks but does not list its groups or rules, so query derivation reads them
//! with this scan, which follows the reference's line syntax (RFC 9309 §2.2): lines end
//! at CR, LF or CRLF; a `#` starts a comment; the key is what precedes the first `:`,
//! case-insensitive; spaces and tabs around key and value are dropped. Keys read:
//! `user-agent`, `allow`, `disallow`, and the misspellings the reference's Google
//! profile accepts (`useragent`, `user agent`, `disalow`, `dissallow`, `dissalow`,
//! `disallaw`): a query derived from a misspelled line is where implementations that
//! accept it and those that do not part ways. A line without a colon is not read.
//!
//! Unlike the RFC-strict parser, the scan reads the whole body it is given (up to
//! [`crate::BODY_LIMIT`]), also past the 500 KiB parse minimum: rules there are where
//! parse limits disagree. A leading byte order mark is skipped. Empty patterns (which
//! match nothing) are not rules here.

/// One `allow` / `disallow` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rule<'a> {
    /// The pattern, trimmed, comment removed.
    pub(crate) pattern: &'a [u8],
    /// The group the rule belongs to (an index into [`Scan::groups`]); `None` for a rule
    /// before any user-agent line.
    pub(crate) group: Option<usize>,
}

/// The groups and rules of one body.
#[derive(Debug, Default)]
pub(crate) struct Scan<'a> {
    /// Each group's user-agent values, in file order.
    pub(crate) groups: Vec<Vec<&'a [u8]>>,
    pub(crate) rules: Vec<Rule<'a>>,
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&b| !is_ws(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|&b| !is_ws(b)).map_or(start, |i| i + 1);
    &s[start..end]
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    UserAgent,
    Rule,
    Other,
}

fn classify(key: &[u8]) -> Key {
    let is = |name: &[u8]| key.eq_ignore_ascii_case(name);
    if is(b"user-agent") || is(b"useragent") || is_user_space_agent(key) {
        Key::UserAgent
    } else if is(b"disallow")
        || is(b"allow")
        || is(b"disalow")
        || is(b"dissallow")
        || is(b"dissalow")
        || is(b"disallaw")
    {
        Key::Rule
    } else {
        Key::Other
    }
}

/// `user` + spaces or tabs + `agent`, any case.
fn is_user_space_agent(key: &[u8]) -> bool {
    key.len() > 9
        && key[..4].eq_ignore_ascii_case(b"user")
        && key[key.len() - 5..].eq_ignore_ascii_case(b"agent")
        && key[4..key.len() - 5].iter().all(|&b| is_ws(b))
}

/// The lines of `body`, split at CR, LF or CRLF.
fn lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = body;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = if rest[end..].starts_with(b"\r\n") {
            2
        } else if end < rest.len() {
            1
        } else {
            0
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// Scans `body`.
pub(crate) fn scan(body: &[u8]) -> Scan<'_> {
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    let mut out = Scan::default();
    // Whether the last user-agent or rule line was a rule: the next user-agent line then
    // starts a new group (RFC 9309 §2.1).
    let mut after_rule = true;
    for line in lines(body) {
        let content = match memchr::memchr(b'#', line) {
            Some(i) => &line[..i],
            None => line,
        };
        let Some(colon) = memchr::memchr(b':', content) else {
            continue;
        };
        let value = trim(&content[colon + 1..]);
        match classify(trim(&content[..colon])) {
            Key::UserAgent => {
                if after_rule {
                    out.groups.push(Vec::new());
                    after_rule = false;
                }
                if let Some(group) = out.groups.last_mut() {
                    group.push(value);
                }
            }
            Key::Rule => {
                after_rule = true;
                if !value.is_empty() {
                    out.rules.push(Rule {
                        pattern: value,
                        group: out.groups.len().checked_sub(1),
                    });
                }
            }
            Key::Other => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends() {
        let all: Vec<&[u8]> = lines(b"a\r\nb\rc\nd").collect();
        assert_eq!(all, [&b"a"[..], b"b", b"c", b"d"]);
        let all: Vec<&[u8]> = lines(b"a\n\nb\r\n").collect();
        assert_eq!(all, [&b"a"[..], b"", b"b"]);
        assert_eq!(lines(b"").count(), 0);
    }

    #[test]
    fn groups_and_rules() {
        let s = scan(
            b"\xef\xbb\xbfDisallow: /orphan\nUser-agent: A\nuser agent: B # c\nDisallow: /a # x\nAllow:\nUSERAGENT: *\ndissallow:\t/typo \nSitemap: /s\nDisallow /nocolon\n",
        );
        assert_eq!(s.groups, vec![vec![&b"A"[..], b"B"], vec![b"*"]]);
        assert_eq!(
            s.rules,
            vec![
                Rule {
                    pattern: b"/orphan",
                    group: None
                },
                Rule {
                    pattern: b"/a",
                    group: Some(0)
                },
                Rule {
                    pattern: b"/typo",
                    group: Some(1)
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
