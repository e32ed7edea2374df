//! Dimension tags computed from the bytes of a body and one query, not from the
//! generator, so that a minimized input is tagged by what it still contains.

use reptest_corpus::Dimension;
use reptest_reference::syntax::{self, is_product_token, trim, Key, Record};
use std::collections::BTreeSet;

/// A body longer than this is tagged [`Dimension::SizeLimits`] (the RFC's minimum parse
/// limit is 512,000 bytes, RFC 9309 §2.5).
pub const LARGE_BODY: usize = 500_000;

/// A line longer than this (in octets, without its line break) is tagged
/// [`Dimension::SizeLimits`].
pub const LONG_LINE: usize = 16_000;

/// Dimension tags computed from the BYTES of a body and one query (not from the
/// generator), so a minimized input is tagged by what it still contains. One pass over
/// the body's lines:
///
/// - [`Dimension::Case`]: a known record key not in a canonical spelling (`user-agent`,
///   `User-agent`, `User-Agent`, `allow`, `Allow`, ...; RFC 9309 §2.2), the agent equal to
///   a user-agent value only ignoring case (§2.2.1), or the URL path starting with a
///   rule's literal prefix only ignoring case (§2.2.2).
/// - [`Dimension::PercentEncoding`]: `%` or a non-ASCII byte in a rule value or the URL.
/// - [`Dimension::Wildcards`]: `*` or `$` in a rule value (§2.2.3).
/// - [`Dimension::Bom`]: `EF BB` anywhere.
/// - [`Dimension::SizeLimits`]: a body over [`LARGE_BODY`] bytes or a line over
///   [`LONG_LINE`] octets (§2.5).
/// - [`Dimension::GroupMerging`]: more than one group, a rule before the first
///   user-agent line, a `*` value with a specific one, or a record other than a rule
///   inside a group (§2.1, §2.2.1).
/// - [`Dimension::LineEndings`]: a CR anywhere (§2.2).
/// - [`Dimension::AgentNames`]: a user-agent value or the agent that is not a bare token
///   (`a-z A-Z _ -`), or the agent and a value where one is a proper prefix of the
///   other ignoring case (§2.2.1).
pub fn dimensions(body: &[u8], agent: &str, url: &str) -> BTreeSet<Dimension> {
    let mut found = BTreeSet::new();
    let path = reptest_reference::written_path(url);
    let path = path.as_ref();
    if body.len() > LARGE_BODY {
        found.insert(Dimension::SizeLimits);
    }
    if path.bytes().any(|b| b == b'%' || !b.is_ascii()) {
        found.insert(Dimension::PercentEncoding);
    }
    if !is_product_token(agent.as_bytes()) {
        found.insert(Dimension::AgentNames);
    }
    // `contains` on bytes is a memchr: cheap even on a padded body.
    if body.contains(&b'\r') {
        found.insert(Dimension::LineEndings);
    }
    if body.contains(&0xEF) && body.windows(2).any(|w| w == [0xEF, 0xBB]) {
        found.insert(Dimension::Bom);
    }
    let mut groups = 0usize;
    let mut in_rules = false;
    let (mut star, mut specific) = (false, false);
    for line in syntax::lines(body).keep_bom().records() {
        if line.line().raw().len() > LONG_LINE {
            found.insert(Dimension::SizeLimits);
        }
        let Some((key, value)) = record(&line) else {
            continue;
        };
        let canonical = |lower: &[u8], title: &[u8]| key == lower || key == title;
        let kind = syntax::classify(key);
        if kind == (Key::UserAgent, false) {
            if !(canonical(b"user-agent", b"User-agent") || key == b"User-Agent") {
                found.insert(Dimension::Case);
            }
            if in_rules || groups == 0 {
                groups += 1;
                in_rules = false;
            }
            if value == b"*" {
                star = true;
            } else {
                specific = true;
                agent_value(value, agent, &mut found);
            }
        } else if matches!(kind, (Key::Allow | Key::Disallow, false)) {
            if !(canonical(b"allow", b"Allow") || canonical(b"disallow", b"Disallow")) {
                found.insert(Dimension::Case);
            }
            if groups == 0 {
                found.insert(Dimension::GroupMerging);
            }
            in_rules = true;
            rule_value(value, path, &mut found);
        } else {
            if kind.0 == Key::Sitemap && !canonical(b"sitemap", b"Sitemap") {
                found.insert(Dimension::Case);
            }
            if groups > 0 {
                found.insert(Dimension::GroupMerging);
            }
            in_rules = true;
        }
    }
    if groups > 1 || (star && specific) {
        found.insert(Dimension::GroupMerging);
    }
    found
}

/// The key and value of a record line, split at its first colon ([`Record::colon_split`],
/// the comment removed), white space trimmed and a leading byte order mark (or part of
/// one) removed from the key; `None` for a line without a colon or with an empty key.
fn record<'a>(line: &Record<'a>) -> Option<(&'a [u8], &'a [u8])> {
    let (key, value) = line.colon_split()?;
    let mut key = trim(key);
    while let [0xEF | 0xBB | 0xBF, rest @ ..] = key {
        key = rest;
    }
    let key = trim(key);
    if key.is_empty() {
        return None;
    }
    Some((key, trim(value)))
}

/// Tags from one specific user-agent value and the query's agent.
fn agent_value(value: &[u8], agent: &str, found: &mut BTreeSet<Dimension>) {
    let agent = agent.as_bytes();
    if !is_product_token(value) {
        found.insert(Dimension::AgentNames);
    }
    if value.eq_ignore_ascii_case(agent) {
        if value != agent {
            found.insert(Dimension::Case);
        }
    } else {
        let (short, long) = if value.len() < agent.len() {
            (value, agent)
        } else {
            (agent, value)
        };
        if !short.is_empty() && long[..short.len()].eq_ignore_ascii_case(short) {
            found.insert(Dimension::AgentNames);
            if &long[..short.len()] != short {
                found.insert(Dimension::Case);
            }
        }
    }
}

/// Tags from one allow/disallow value and the query's path.
fn rule_value(value: &[u8], path: &str, found: &mut BTreeSet<Dimension>) {
    let mut literal = value.len();
    for (i, &b) in value.iter().enumerate() {
        match b {
            b'*' | b'$' => {
                found.insert(Dimension::Wildcards);
                literal = literal.min(i);
            }
            b'%' => {
                found.insert(Dimension::PercentEncoding);
            }
            _ if !b.is_ascii() => {
                found.insert(Dimension::PercentEncoding);
            }
            _ => {}
        }
    }
    let prefix = &value[..literal];
    let path = path.as_bytes();
    if !prefix.is_empty()
        && path.len() >= prefix.len()
        && path[..prefix.len()].eq_ignore_ascii_case(prefix)
        && &path[..prefix.len()] != prefix
    {
        found.insert(Dimension::Case);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Dimension::*;

    fn dims(body: &[u8], agent: &str, url: &str) -> Vec<Dimension> {
        dimensions(body, agent, url).into_iter().collect()
    }

    const URL: &str = "https://example.com/z";

    #[test]
    fn a_plain_file_has_no_dimension() {
        let body = b"User-agent: examplebot\nDisallow: /a\nAllow: /b\n";
        assert_eq!(dims(body, "examplebot", URL), []);
        assert_eq!(dims(b"", "examplebot", URL), []);
        assert_eq!(dims(b"user-agent: *\nallow: /\n", "examplebot", URL), []);
    }

    #[test]
    fn case() {
        assert_eq!(dims(b"USER-AGENT: *\n", "examplebot", URL), [Case]);
        assert_eq!(dims(b"User-agent: *\ndIsAllOw: /\n", "x", URL), [Case]);
        assert_eq!(dims(b"User-agent: ExampleBot\n", "examplebot", URL), [Case]);
        let body = b"User-agent: *\nDisallow: /a/B\n";
        assert_eq!(dims(body, "examplebot", "https://example.com/A/b"), [Case]);
        assert_eq!(dims(body, "examplebot", "https://example.com/a/B"), []);
    }

    #[test]
    fn percent_encoding() {
        let body = b"User-agent: *\nDisallow: /%62\n";
        assert_eq!(dims(body, "examplebot", URL), [PercentEncoding]);
        let body = "User-agent: *\nDisallow: /ツ\n".as_bytes();
        assert_eq!(dims(body, "examplebot", URL), [PercentEncoding]);
        assert_eq!(
            dims(b"", "examplebot", "https://example.com/%2F"),
            [PercentEncoding]
        );
        // A comment's non-ASCII text is not percent-encoding.
        assert_eq!(dims("# ツ\n".as_bytes(), "examplebot", URL), []);
    }

    #[test]
    fn wildcards() {
        let body = b"User-agent: *\nDisallow: /*.gif$\n";
        assert_eq!(dims(body, "examplebot", URL), [Wildcards]);
        // The agent's `*` is not a wildcard in this sense.
        assert_eq!(
            dims(b"User-agent: *\nDisallow: /a\n", "examplebot", URL),
            []
        );
    }

    #[test]
    fn bom() {
        let body = b"\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n";
        assert_eq!(dims(body, "examplebot", URL), [Bom]);
        assert_eq!(dims(b"\xEF\xBBUser-agent: *\n", "examplebot", URL), [Bom]);
        let body = b"User-agent: *\n\xEF\xBB\xBFDisallow: /a\n";
        assert_eq!(dims(body, "examplebot", URL), [Bom]);
    }

    #[test]
    fn size_limits() {
        let mut body = b"User-agent: *\n".to_vec();
        body.extend(std::iter::repeat_n(b'#', LONG_LINE + 1));
        assert_eq!(dims(&body, "examplebot", URL), [SizeLimits]);
        let mut body = b"User-agent: *\n".to_vec();
        for _ in 0..600 {
            body.extend_from_slice(&[b'#'; 999]);
            body.push(b'\n');
        }
        assert_eq!(dims(&body, "examplebot", URL), [SizeLimits]);
    }

    #[test]
    fn group_merging() {
        let two = b"User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n";
        assert_eq!(dims(two, "examplebot", URL), [GroupMerging]);
        let shared = b"User-agent: a\nUser-agent: b\nDisallow: /b\n";
        assert_eq!(dims(shared, "examplebot", URL), []);
        let before = b"Disallow: /a\nUser-agent: *\n";
        assert_eq!(dims(before, "examplebot", URL), [GroupMerging]);
        let star = b"User-agent: *\nUser-agent: examplebot\nDisallow: /a\n";
        assert_eq!(dims(star, "examplebot", URL), [GroupMerging]);
        let other = b"User-agent: a\nCrawl-delay: 1\nDisallow: /a\n";
        assert_eq!(dims(other, "examplebot", URL), [GroupMerging]);
        // A sitemap before any group is not inside one.
        let sitemap = b"Sitemap: https://example.com/s.xml\nUser-agent: a\n";
        assert_eq!(dims(sitemap, "examplebot", URL), []);
    }

    #[test]
    fn line_endings() {
        let body = b"User-agent: *\r\nDisallow: /a\r\n";
        assert_eq!(dims(body, "examplebot", URL), [LineEndings]);
        assert_eq!(
            dims(b"User-agent: *\rDisallow: /a", "x", URL),
            [LineEndings]
        );
        // CR ends a line: the rule is still seen (not merged into the agent line).
        let body = b"User-agent: *\rDisallow: /*\r";
        assert_eq!(dims(body, "x", URL), [Wildcards, LineEndings]);
    }

    #[test]
    fn agent_names() {
        let body = b"User-agent: examplebot/2.1\n";
        assert_eq!(dims(body, "examplebot", URL), [AgentNames]);
        let body = b"User-agent: Example Bot\n";
        assert_eq!(dims(body, "foobot", URL), [AgentNames]);
        let body = b"User-agent: example\n";
        assert_eq!(dims(body, "examplebot", URL), [AgentNames]);
        assert_eq!(dims(body, "EXAMPLEBOT", URL), [Case, AgentNames]);
        assert_eq!(dims(b"", "examplebot/1.0", URL), [AgentNames]);
        // An unrelated agent is not an agent-name form.
        let body = b"User-agent: foobot\n";
        assert_eq!(dims(body, "examplebot", URL), []);
    }

    #[test]
    fn comments_and_bom_do_not_hide_keys() {
        let body = b"\xEF\xBB\xBFUser-agent: a # x\nDisallow: /a#*\n";
        assert_eq!(dims(body, "examplebot", URL), [Bom]);
    }
}
