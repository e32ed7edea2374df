//! Features: what an input (a robots.txt body and one query) shows, finer than its
//! dimensions, for attributing a divergence to a question. Each question of the
//! catalogue names the features its divergences need (`features = [...]` in
//! `corpus/questions.toml`); a divergence whose minimized input lacks one of them is not
//! about that question.
//!
//! Every feature is read from the bytes (lines and records as the reference's syntax layer
//! reads them, [`reptest_reference::syntax`]), never from what an implementation answers.

use reptest_reference::syntax::{self, is_product_token, LineEnd, Record};
use std::collections::BTreeSet;

/// Declares [`Feature`] from one table: variant, name, meaning.
macro_rules! features {
    ($($variant:ident = $name:literal: $meaning:literal,)*) => {
        /// One feature of an input: what its bytes show (see the module documentation).
        /// Its name ([`Feature::name`]) is how `corpus/questions.toml` names it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Feature {
            $(#[doc = $meaning] $variant,)*
        }

        impl Feature {
            /// Every feature, in the table's order.
            pub const ALL: &'static [Feature] = &[$(Feature::$variant,)*];

            /// The feature's name, as questions name it (`lone-cr`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Feature::$variant => $name,)*
                }
            }

            /// What the feature means.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Feature::$variant => $meaning,)*
                }
            }
        }
    };
}

features! {
    SeveralGroupsMatch = "several-groups-match": "two or more groups name the query's product token (ignoring case), or two or more `*` groups and none names it",
    AgentCase = "agent-case": "a user-agent value names the product token ignoring case, and one of the two has an upper-case letter (an implementation that lower-cases only one side then misses it)",
    AgentPrefix = "agent-prefix": "a user-agent value (not empty) is a proper prefix of the product token, or the token of the value, ignoring case",
    UaValueNotToken = "ua-value-not-token": "a user-agent value is neither empty, `*` nor a product token (`examplebot/`, `foo bot`)",
    ConsecutiveAgents = "consecutive-agents": "two user-agent lines with no rule between them",
    EmptyLastGroup = "empty-last-group": "the last group has no rules",
    RecordBetweenAgents = "record-between-agents": "a record that is not a rule between two user-agent lines",
    OrphanRule = "orphan-rule": "a rule before the first user-agent line",
    BlankInGroup = "blank-in-group": "a blank or comment-only line after a group's first user-agent line and before its last rule",
    LoneCr = "lone-cr": "a CR not followed by LF",
    OptionalWs = "optional-ws": "a record with white space before its key or before its colon",
    Typo = "typo": "a key that is not user-agent, allow or disallow but close to one (one or two edits), or a known key without its colon",
    EmptyPattern = "empty-pattern": "an allow or disallow record with an empty value",
    SeveralRules = "several-rules": "two or more allow or disallow records with a value",
    EqualLengthAllowDisallow = "equal-length-allow-disallow": "an allow and a disallow value of the same length",
    Star = "star": "a `*` in an allow or disallow value",
    DollarEnd = "dollar-end": "a `$` as the last character of an allow or disallow value",
    DollarInside = "dollar-inside": "a `$` in an allow or disallow value that is not its last character",
    PatternNoSlash = "pattern-no-slash": "an allow or disallow value that starts with neither `/` nor `*`",
    PathCase = "path-case": "the URL path starts with a rule's literal prefix only when letter case is ignored",
    DotOrEmptySegment = "dot-or-empty-segment": "the URL path has a `.` or `..` segment, or an empty one (`//`)",
    PctUnreserved = "pct-unreserved": "a percent-encoded unreserved character (`%61`, `%7E`) in the URL path or a rule",
    PctLowerHex = "pct-lower-hex": "a percent-encoding with a lower-case hex digit (`%e3`) in the URL path or a rule",
    PctReserved = "pct-reserved": "a percent-encoded reserved character (`%2F`, `%24`, `%2A`, ...) in the URL path or a rule",
    LonePercent = "lone-percent": "a `%` not followed by two hex digits in the URL path or a rule",
    NonAscii = "non-ascii": "a byte outside ASCII in the URL path or a rule",
    Bom = "bom": "a UTF-8 byte order mark, whole or its first two bytes, anywhere",
    PastLimit = "past-limit": "a body over 500,000 bytes",
    LongLine = "long-line": "a line over 16,000 octets",
    RobotsTxtUrl = "robots-txt-url": "the URL path, its percent-encoded unreserved characters decoded, starts with `/robots.txt` (ignoring case)",
    ControlOctet = "control-octet": "a control octet other than tab, CR and LF (00-08, 0B, 0C, 0E-1F) anywhere in the body",
    NotUtf8 = "not-utf8": "the body is not valid UTF-8",
    OwnGroupAndStar = "own-group-and-star": "a group names the query's product token (ignoring case) and a group has a `*` user-agent",
    EmptyUaValue = "empty-ua-value": "a user-agent record with an empty value",
    NotARecord = "not-a-record": "a line that is neither blank, a comment, nor `key: value` (and no known key without its colon)",
    NoGroups = "no-groups": "no user-agent record at all",
    HashInValue = "hash-in-value": "a `#` right after a record's value, with no white space before it (`/a#b`)",
    AgentAfterRule = "agent-after-rule": "a user-agent line directly after an allow or disallow line",
    Query = "query": "a `?` in the URL path (its query) or in a rule",
    ReservedInQuery = "reserved-in-query": "a `/`, `?`, `:` or `@`, raw or percent-encoded, after the first `?` of the URL path or of a rule",
    FragmentOrEmptyPath = "fragment-or-empty-path": "the URL has a fragment (`#`), or an empty path (nothing, or only a query, after its authority)",
    IndexHtmlRule = "index-html-rule": "a rule whose last path segment starts with `index.htm`",
    RuleElsewhereInUrl = "rule-elsewhere-in-url": "a rule's leading literal (up to a `*` or `$`, two octets or more) occurs in the URL, but the URL path does not start with it",
}

impl Feature {
    /// The feature named `name`, if any.
    ///
    /// ```
    /// use reptest_triage::features::Feature;
    /// assert_eq!(Feature::from_name("lone-cr"), Some(Feature::LoneCr));
    /// assert_eq!(Feature::from_name("no-such-feature"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.iter().copied().find(|f| f.name() == name)
    }
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `name` is the name of a [`Feature`].
pub fn is_feature(name: &str) -> bool {
    Feature::from_name(name).is_some()
}

/// The features of a body and one query ([`Feature`]s): [`features_with`] on
/// the body's [`BodyScan`].
///
/// ```
/// use reptest_triage::features::{features, Feature};
/// let f = features(b"User-agent: *\rDisallow: /a$b\n", "examplebot", "/a");
/// assert!(f.contains(&Feature::LoneCr) && f.contains(&Feature::DollarInside));
/// ```
pub fn features(body: &[u8], agent: &str, url: &str) -> BTreeSet<Feature> {
    features_with(&BodyScan::of(body), agent, url)
}

/// The features of one query on a body scanned once: the body's own features, then those
/// that depend on the query's product token (its groups) and URL (its rules).
///
/// ```
/// use reptest_triage::features::{features_with, BodyScan, Feature};
/// let scan = BodyScan::of(b"User-agent: ExampleBot\nDisallow: /A\n");
/// assert!(features_with(&scan, "examplebot", "/a").contains(&Feature::PathCase));
/// assert!(!features_with(&scan, "otherbot", "/b").contains(&Feature::AgentCase));
/// ```
pub fn features_with(scan: &BodyScan<'_>, agent: &str, url: &str) -> BTreeSet<Feature> {
    let mut found = scan.found.clone();
    let token = product_token(agent);
    let path = reptest_reference::written_path(url);
    let path = path.as_ref();
    encoding_features(path.as_bytes(), &mut found);
    if is_robots_txt_path(path) {
        found.insert(Feature::RobotsTxtUrl);
    }
    if path.contains("//")
        || path
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .split('/')
            .any(|s| s == "." || s == "..")
    {
        found.insert(Feature::DotOrEmptySegment);
    }
    let mut naming = 0;
    for group in &scan.groups {
        let mut names_agent = false;
        for value in &group.values {
            names_agent |= agent_value(value, token, &mut found);
        }
        naming += usize::from(names_agent);
    }
    if naming >= 2 || (naming == 0 && scan.stars >= 2) {
        found.insert(Feature::SeveralGroupsMatch);
    }
    if naming >= 1 && scan.stars >= 1 {
        found.insert(Feature::OwnGroupAndStar);
    }
    for value in &scan.rules {
        rule_features(value, path, &mut found);
    }
    url_part_features(scan, url, path, &mut found);
    found
}

/// The features of where a rule meets the URL: its query (`query`, `reserved-in-query`),
/// its fragment or empty path (`fragment-or-empty-path`), a rule found elsewhere than at
/// the start of the path (`rule-elsewhere-in-url`).
fn url_part_features(scan: &BodyScan<'_>, url: &str, path: &str, found: &mut BTreeSet<Feature>) {
    let requested = path.split('#').next().unwrap_or(path).as_bytes();
    let sides = std::iter::once(requested).chain(scan.rules.iter().copied());
    for side in sides {
        let Some(q) = side.iter().position(|&b| b == b'?') else {
            continue;
        };
        found.insert(Feature::Query);
        let query = side.get(q + 1..).unwrap_or_default();
        let escaped = |code: &[u8]| query.windows(3).any(|w| w.eq_ignore_ascii_case(code));
        if query.iter().any(|b| b"/?:@".contains(b))
            || [b"%2F", b"%3F", b"%3A", b"%40"].iter().any(|c| escaped(*c))
        {
            found.insert(Feature::ReservedInQuery);
        }
    }
    // An empty path: nothing, or only a query, after the authority.
    let after_authority = reptest_reference::origin(url).map(|origin| &url[origin.len()..]);
    if url.contains('#') || after_authority.is_some_and(|rest| !rest.starts_with('/')) {
        found.insert(Feature::FragmentOrEmptyPath);
    }
    for value in &scan.rules {
        let literal = &value[..value
            .iter()
            .position(|&b| b == b'*' || b == b'$')
            .unwrap_or(value.len())];
        let in_url = url
            .as_bytes()
            .windows(literal.len().max(1))
            .any(|w| w == literal);
        if literal.len() >= 2 && in_url && !path.as_bytes().starts_with(literal) {
            found.insert(Feature::RuleElsewhereInUrl);
        }
    }
}

/// What a body shows on its own, read once for all its queries: the features that depend
/// on no query, each group's user-agent values, and every non-empty rule value.
#[derive(Debug, Clone, Default)]
pub struct BodyScan<'a> {
    /// The features of the body alone.
    found: BTreeSet<Feature>,
    /// The groups, in order.
    groups: Vec<ScanGroup<'a>>,
    /// How many groups have a `*` user-agent.
    stars: usize,
    /// Every allow or disallow value that is not empty.
    rules: Vec<&'a [u8]>,
}

/// One group of a [`BodyScan`]: its user-agent values other than `*`.
#[derive(Debug, Clone, Default)]
struct ScanGroup<'a> {
    values: Vec<&'a [u8]>,
    star: bool,
    rules: usize,
}

impl<'a> BodyScan<'a> {
    /// Scans `body`, line by line ([`syntax::lines`], a byte order mark kept in the text).
    pub fn of(body: &'a [u8]) -> BodyScan<'a> {
        let mut found = BTreeSet::new();
        if body.len() > 500_000 {
            found.insert(Feature::PastLimit);
        }
        if body.windows(2).any(|w| w == [0xEF, 0xBB]) {
            found.insert(Feature::Bom);
        }
        if body
            .iter()
            .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'))
        {
            found.insert(Feature::ControlOctet);
        }
        if std::str::from_utf8(body).is_err() {
            found.insert(Feature::NotUtf8);
        }
        let mut lines = LineScan {
            found,
            ..LineScan::default()
        };
        for record in syntax::lines(body).keep_bom().records() {
            lines.line(&record);
        }
        lines.finish()
    }
}

/// The line-by-line part of [`BodyScan::of`]: the groups and rules read so far, and
/// where the previous lines left the scan.
#[derive(Debug, Default)]
struct LineScan<'a> {
    found: BTreeSet<Feature>,
    groups: Vec<ScanGroup<'a>>,
    rules: Vec<&'a [u8]>,
    allows: Vec<usize>,
    disallows: Vec<usize>,
    in_rules: bool,
    seen_agent: bool,
    last_was_agent: bool,
    last_was_rule: bool,
    pending_blank: bool,
}

impl<'a> LineScan<'a> {
    /// One line.
    fn line(&mut self, record: &Record<'a>) {
        let line = record.line();
        if line.line_end() == Some(LineEnd::Cr) {
            self.found.insert(Feature::LoneCr);
        }
        if line.raw().len() > 16_000 {
            self.found.insert(Feature::LongLine);
        }
        let content = strip_bom(record.content());
        if content.iter().all(u8::is_ascii_whitespace) {
            // Blank or comment-only.
            if self.seen_agent {
                self.pending_blank = true;
            }
            self.last_was_rule = false;
            return;
        }
        let Some((key, value, ws)) = record.colon_split().and_then(key_value) else {
            self.found.insert(if known_key_without_colon(content) {
                Feature::Typo
            } else {
                Feature::NotARecord
            });
            return;
        };
        if record.comment().is_some()
            && !value.is_empty()
            && content.last().is_some_and(|b| !b.is_ascii_whitespace())
        {
            self.found.insert(Feature::HashInValue);
        }
        if ws {
            self.found.insert(Feature::OptionalWs);
        }
        let lower = key.to_ascii_lowercase();
        match lower.as_slice() {
            b"user-agent" => self.user_agent(value),
            b"allow" | b"disallow" => self.rule(lower == b"allow", value),
            other => {
                if close_to_known(other) {
                    self.found.insert(Feature::Typo);
                }
                self.last_was_agent = false;
                self.last_was_rule = false;
            }
        }
    }

    /// A user-agent record with its (trimmed) value.
    fn user_agent(&mut self, value: &'a [u8]) {
        let found = &mut self.found;
        if self.last_was_rule {
            found.insert(Feature::AgentAfterRule);
        }
        self.last_was_rule = false;
        if self.in_rules || self.groups.is_empty() {
            // A blank line between groups is not inside one.
            self.groups.push(ScanGroup::default());
            self.in_rules = false;
        } else if self.last_was_agent {
            found.insert(Feature::ConsecutiveAgents);
            if self.pending_blank {
                found.insert(Feature::BlankInGroup);
            }
        } else {
            // Between two user-agent lines of one group: another record came.
            found.insert(Feature::RecordBetweenAgents);
        }
        self.pending_blank = false;
        self.seen_agent = true;
        self.last_was_agent = true;
        let group = self.groups.last_mut().expect("pushed above");
        if value == b"*" {
            group.star = true;
        } else {
            if value.is_empty() {
                found.insert(Feature::EmptyUaValue);
            } else if !is_product_token(value) {
                found.insert(Feature::UaValueNotToken);
            }
            group.values.push(value);
        }
    }

    /// An allow (`allow`) or disallow record with its (trimmed) value.
    fn rule(&mut self, allow: bool, value: &'a [u8]) {
        if !self.seen_agent {
            self.found.insert(Feature::OrphanRule);
        }
        if self.pending_blank {
            self.found.insert(Feature::BlankInGroup);
            self.pending_blank = false;
        }
        if value.is_empty() {
            self.found.insert(Feature::EmptyPattern);
        } else {
            self.rules.push(value);
            if allow {
                self.allows.push(value.len());
            } else {
                self.disallows.push(value.len());
            }
        }
        if let Some(group) = self.groups.last_mut() {
            group.rules += 1;
        }
        self.in_rules = true;
        self.last_was_agent = false;
        self.last_was_rule = true;
    }

    /// The scan of the whole body, with the features only the last line can tell.
    fn finish(self) -> BodyScan<'a> {
        let mut found = self.found;
        if self.groups.is_empty() {
            found.insert(Feature::NoGroups);
        }
        if self.groups.last().is_some_and(|g| g.rules == 0) {
            found.insert(Feature::EmptyLastGroup);
        }
        if self.allows.len() + self.disallows.len() >= 2 {
            found.insert(Feature::SeveralRules);
        }
        if self.allows.iter().any(|a| self.disallows.contains(a)) {
            found.insert(Feature::EqualLengthAllowDisallow);
        }
        let stars = self.groups.iter().filter(|g| g.star).count();
        BodyScan {
            found,
            groups: self.groups,
            stars,
            rules: self.rules,
        }
    }
}

/// The product token of an agent string: what precedes the first `/` or space.
fn product_token(agent: &str) -> &str {
    agent.split(['/', ' ']).next().unwrap_or(agent)
}

/// The features of one user-agent value (not `*`) against the query's product token;
/// `true` when the value names the token (ignoring case, also by the value's own token).
fn agent_value(value: &[u8], token: &str, found: &mut BTreeSet<Feature>) -> bool {
    let token = token.as_bytes();
    // The value's own token (before `/` or a space), as lenient parsers read it.
    let value_token = value
        .split(|&b| b == b'/' || b == b' ')
        .next()
        .unwrap_or(value);
    let names_agent = value.eq_ignore_ascii_case(token) || value_token.eq_ignore_ascii_case(token);
    if names_agent && value.iter().chain(token).any(u8::is_ascii_uppercase) {
        found.insert(Feature::AgentCase);
    }
    let prefix = |short: &[u8], long: &[u8]| {
        short.len() < long.len() && long[..short.len()].eq_ignore_ascii_case(short)
    };
    if !value.is_empty() && (prefix(value_token, token) || prefix(token, value_token)) {
        found.insert(Feature::AgentPrefix);
    }
    names_agent
}

/// `key`, `value` (trimmed of ASCII white space) and whether white space stood before the
/// key or the colon, from a line split at its first colon ([`Record::colon_split`]); `None`
/// for an empty key or one with white space inside.
fn key_value<'a>((key, value): (&'a [u8], &'a [u8])) -> Option<(&'a [u8], &'a [u8], bool)> {
    let key = strip_bom(key);
    let trimmed = key.trim_ascii();
    if trimmed.is_empty() || trimmed.iter().any(|b| b.is_ascii_whitespace()) {
        return None;
    }
    let ws = key.first().is_some_and(u8::is_ascii_whitespace)
        || key.last().is_some_and(u8::is_ascii_whitespace);
    Some((trimmed, value.trim_ascii(), ws))
}

fn strip_bom(line: &[u8]) -> &[u8] {
    line.strip_prefix(&[0xEF, 0xBB, 0xBF][..])
        .or_else(|| line.strip_prefix(&[0xEF, 0xBB][..]))
        .unwrap_or(line)
}

const KEYS: [&[u8]; 3] = [b"user-agent", b"allow", b"disallow"];

/// `Disallow /x`, `user agent: x` and the like: a known key without its colon, or
/// written with a space.
fn known_key_without_colon(content: &[u8]) -> bool {
    let lower = content.trim_ascii().to_ascii_lowercase();
    KEYS.iter().any(|k| {
        lower.starts_with(k) && lower.get(k.len()).is_some_and(|b| b.is_ascii_whitespace())
    }) || lower.starts_with(b"user agent")
}

/// A key one or two edits away from a known one (not equal to it).
fn close_to_known(key: &[u8]) -> bool {
    KEYS.iter()
        .any(|k| *k != key && edit_distance(k, key) <= 2 && key.len() >= 4)
        || key == b"user agent"
        || key == b"useragent"
}

fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, &y) in b.iter().enumerate() {
            row[j + 1] = (prev[j] + usize::from(x != y))
                .min(prev[j + 1] + 1)
                .min(row[j] + 1);
        }
        prev = row;
    }
    prev[b.len()]
}

fn rule_features(value: &[u8], path: &str, found: &mut BTreeSet<Feature>) {
    if value.contains(&b'*') {
        found.insert(Feature::Star);
    }
    if value
        .iter()
        .position(|&b| b == b'$')
        .is_some_and(|at| at + 1 < value.len())
    {
        found.insert(Feature::DollarInside);
    }
    if value.ends_with(b"$") {
        found.insert(Feature::DollarEnd);
    }
    if !(value.starts_with(b"/") || value.starts_with(b"*")) {
        found.insert(Feature::PatternNoSlash);
    }
    let last_segment = value.rsplit(|&b| b == b'/').next().unwrap_or(value);
    if last_segment.starts_with(b"index.htm") {
        found.insert(Feature::IndexHtmlRule);
    }
    encoding_features(value, found);
    // The literal prefix (up to a special character) against the path, ignoring case.
    let literal = &value[..value
        .iter()
        .position(|&b| b == b'*' || b == b'$')
        .unwrap_or(value.len())];
    let path = path.as_bytes();
    if literal.len() > 1
        && path.len() >= literal.len()
        && path[..literal.len()].eq_ignore_ascii_case(literal)
        && &path[..literal.len()] != literal
    {
        found.insert(Feature::PathCase);
    }
}

const RESERVED: &[u8] = b":/?#[]@!$&'()*+,;=";

fn encoding_features(bytes: &[u8], found: &mut BTreeSet<Feature>) {
    if bytes.iter().any(|b| !b.is_ascii()) {
        found.insert(Feature::NonAscii);
    }
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = |b: Option<&u8>| b.is_some_and(u8::is_ascii_hexdigit);
            if hex(bytes.get(i + 1)) && hex(bytes.get(i + 2)) {
                let (h, l) = (bytes[i + 1], bytes[i + 2]);
                if h.is_ascii_lowercase() || l.is_ascii_lowercase() {
                    found.insert(Feature::PctLowerHex);
                }
                let value =
                    u8::from_str_radix(&format!("{}{}", h as char, l as char), 16).unwrap_or(0);
                if value.is_ascii_alphanumeric() || b"-._~".contains(&value) {
                    found.insert(Feature::PctUnreserved);
                } else if RESERVED.contains(&value) {
                    found.insert(Feature::PctReserved);
                }
                i += 3;
                continue;
            }
            found.insert(Feature::LonePercent);
        }
        i += 1;
    }
}

/// Whether a URL path (with query) is `/robots.txt` or starts with it, ignoring case,
/// once compared as the reference compares paths (RFC 9309 §2.2.2, §2.3: percent-encoded
/// unreserved characters decoded; [`reptest_reference::comparison_path`]).
fn is_robots_txt_path(path: &str) -> bool {
    let path = reptest_reference::comparison_path(path);
    path.get(..b"/robots.txt".len())
        .is_some_and(|start| start.eq_ignore_ascii_case(b"/robots.txt"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(body: &str, agent: &str, url: &str) -> BTreeSet<Feature> {
        features(body.as_bytes(), agent, url)
    }

    #[test]
    fn empty_segments_of_each_url_form() {
        // A network-path reference: its host is no empty segment of its path.
        assert!(
            !f("User-agent: *\nDisallow: /a\n", "a", "//h/a").contains(&Feature::DotOrEmptySegment)
        );
        assert!(f("User-agent: *\nDisallow: /a\n", "a", "https://h//a")
            .contains(&Feature::DotOrEmptySegment));
        assert!(f("", "a", "/a/../b").contains(&Feature::DotOrEmptySegment));
        // A fragment is no part of the path (RFC 9309 §2.2.2).
        assert!(!f("", "a", "/a#//%41").contains(&Feature::DotOrEmptySegment));
        assert!(!f("", "a", "/a#//%41").contains(&Feature::PctUnreserved));
    }

    #[test]
    fn group_features() {
        let two = f(
            "User-agent: examplebot\nDisallow: /a\nUser-agent: ExampleBot\nAllow: /b\n",
            "examplebot",
            "/a",
        );
        assert!(two.contains(&Feature::SeveralGroupsMatch) && two.contains(&Feature::AgentCase));
        assert!(
            f("User-agent: e\nDisallow: /\n", "examplebot", "/").contains(&Feature::AgentPrefix)
        );
        assert!(f("User-agent: a\nUser-agent: b\nDisallow: /\n", "a", "/")
            .contains(&Feature::ConsecutiveAgents));
        assert!(f(
            "User-agent: a\nSitemap: x\nUser-agent: b\nDisallow: /\n",
            "a",
            "/"
        )
        .contains(&Feature::RecordBetweenAgents));
        assert!(f("Disallow: /\nUser-agent: a\n", "a", "/").contains(&Feature::OrphanRule));
        assert!(f("User-agent: a\n\nDisallow: /\n", "a", "/").contains(&Feature::BlankInGroup));
        assert!(!f(
            "User-agent: a\nDisallow: /\n\nUser-agent: b\nDisallow: /\n",
            "a",
            "/"
        )
        .contains(&Feature::BlankInGroup));
        assert!(f("User-agent: a\nDisallow: /\nUser-agent: b\n", "b", "/")
            .contains(&Feature::EmptyLastGroup));
        assert!(f("User-agent: a/1\nDisallow: /\n", "a", "/").contains(&Feature::UaValueNotToken));
        let empty = f(
            "User-agent: a\nDisallow: /\nUser-agent:\nDisallow: /b\n",
            "b",
            "/",
        );
        assert!(empty.contains(&Feature::EmptyUaValue) && empty.contains(&Feature::AgentAfterRule));
        assert!(
            !empty.contains(&Feature::AgentPrefix) && !empty.contains(&Feature::UaValueNotToken)
        );
        let star = "User-agent: a\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n";
        assert!(f(star, "A", "/").contains(&Feature::OwnGroupAndStar));
        assert!(!f(star, "b", "/").contains(&Feature::OwnGroupAndStar));
        assert!(!f(star, "a", "/").contains(&Feature::AgentAfterRule));
        assert!(f("# only a comment\nSitemap: /s\n", "a", "/").contains(&Feature::NoGroups));
        assert!(!f(star, "a", "/").contains(&Feature::NoGroups));
    }

    #[test]
    fn syntax_features() {
        assert!(f("User-agent: a\rDisallow: /\r", "a", "/").contains(&Feature::LoneCr));
        assert!(!f("User-agent: a\r\nDisallow: /\r\n", "a", "/").contains(&Feature::LoneCr));
        assert!(f("User-agent: a\nDisallow : /\n", "a", "/").contains(&Feature::OptionalWs));
        assert!(f("User-agent: a\nDisalow: /\n", "a", "/").contains(&Feature::Typo));
        assert!(f("User-agent: a\nDisallow /\n", "a", "/").contains(&Feature::Typo));
        assert!(!f("User-agent: a\nSitemap: /x\n", "a", "/").contains(&Feature::Typo));
        assert!(f("User-agent: a\nAllow:\n", "a", "/").contains(&Feature::EmptyPattern));
        assert!(f("\u{feff}User-agent: a\n", "a", "/").contains(&Feature::Bom));
        assert!(f("User-agent: a\nDisallow: /a\0b\n", "a", "/").contains(&Feature::ControlOctet));
        assert!(!f("User-agent:\ta\r\nDisallow: /\n", "a", "/").contains(&Feature::ControlOctet));
        assert!(features(b"Disallow: /caf\xE9\n", "a", "/").contains(&Feature::NotUtf8));
        assert!(!f("Disallow: /caf\u{e9}\n", "a", "/").contains(&Feature::NotUtf8));
        assert!(f("User-agent: a\nfree text\n", "a", "/").contains(&Feature::NotARecord));
        assert!(!f("User-agent: a\nDisallow /x\n", "a", "/").contains(&Feature::NotARecord));
        assert!(f("User-agent: a\nDisallow: /a#b\n", "a", "/").contains(&Feature::HashInValue));
        assert!(
            !f("User-agent: a # c\nDisallow:#c\n# c\n", "a", "/").contains(&Feature::HashInValue)
        );
    }

    #[test]
    fn rule_and_url_features() {
        let x = f(
            "User-agent: a\nAllow: /a*b$c\nDisallow: %2F\n",
            "a",
            "/A/./b//%7e%e3%zz",
        );
        for feature in [
            Feature::Star,
            Feature::DollarInside,
            Feature::PatternNoSlash,
            Feature::PctReserved,
            Feature::PctUnreserved,
            Feature::PctLowerHex,
            Feature::LonePercent,
            Feature::DotOrEmptySegment,
            Feature::SeveralRules,
            Feature::PathCase,
        ] {
            assert!(x.contains(&feature), "{feature}: {x:?}");
        }
        assert!(f("User-agent: a\nAllow: /ab\nDisallow: /cd\n", "a", "/")
            .contains(&Feature::EqualLengthAllowDisallow));
        for url in [
            "https://example.com/robots.txt",
            "/%72obots.txt?x=1",
            "https://example.com:8443/ROBOTS.TXT",
            "/robots%2Etxt.bak",
        ] {
            assert!(f("", "a", url).contains(&Feature::RobotsTxtUrl), "{url}");
        }
        for url in [
            "/robots.tx",
            "/a/robots.txt",
            "/robots%2Ftxt",
            "https://example.com/",
        ] {
            assert!(!f("", "a", url).contains(&Feature::RobotsTxtUrl), "{url}");
        }
        let q = f(
            "User-agent: a\nDisallow: /p?u=a%3Ab\n",
            "a",
            "https://example.com/x",
        );
        assert!(
            q.contains(&Feature::Query) && q.contains(&Feature::ReservedInQuery),
            "{q:?}"
        );
        let q = f(
            "User-agent: a\nDisallow: /p$\n",
            "a",
            "https://example.com/p?x=1",
        );
        assert!(
            q.contains(&Feature::Query) && !q.contains(&Feature::ReservedInQuery),
            "{q:?}"
        );
        for url in [
            "https://example.com",
            "https://example.com?q=1",
            "https://example.com/p#f",
        ] {
            assert!(
                f("User-agent: a\nDisallow: /\n", "a", url).contains(&Feature::FragmentOrEmptyPath)
            );
        }
        assert!(!f(
            "User-agent: a\nDisallow: /\n",
            "a",
            "https://example.com/?q"
        )
        .contains(&Feature::FragmentOrEmptyPath));
        let body = "User-agent: a\nDisallow: /private\n";
        assert!(f(body, "a", "https://example.com/public/private")
            .contains(&Feature::RuleElsewhereInUrl));
        assert!(
            !f(body, "a", "https://example.com/private/x").contains(&Feature::RuleElsewhereInUrl)
        );
        assert!(f(
            "User-agent: a\nDisallow: /example.com\n",
            "a",
            "https://example.com/"
        )
        .contains(&Feature::RuleElsewhereInUrl));
        assert!(f("User-agent: a\nAllow: /d/index.html\n", "a", "/d/")
            .contains(&Feature::IndexHtmlRule));
        assert!(
            !f("User-agent: a\nAllow: /index.html/x\n", "a", "/").contains(&Feature::IndexHtmlRule)
        );
        for feature in Feature::ALL {
            assert!(is_feature(feature.name()));
            assert_eq!(Feature::from_name(feature.name()), Some(*feature));
            assert!(!feature.meaning().is_empty());
        }
        assert!(!is_feature("lone-lf"));
    }
}
