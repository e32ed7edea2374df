//! Parser and matcher options.
//!
//! [`Config::default`] (equal to [`Config::rfc9309`]) is RFC-strict: every
//! choice the RFC leaves open (a MAY) is taken in its most literal form.
//! [`Config::google`] describes the widely deployed Google profile.

/// The minimum parsing limit the RFC allows: 500 KiB (RFC 9309 §2.5).
pub const MIN_PARSE_LIMIT: usize = 512_000;

/// Options for parsing and matching.
///
/// The struct is `#[non_exhaustive]`: start from [`Config::default`],
/// [`Config::rfc9309`] or [`Config::google`] and set the fields you need.
///
/// ```
/// use reptest_reference::Config;
/// let mut config = Config::default();
/// config.accept_typos = true;
/// assert_eq!(config.effective_parse_limit(), 512_000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// How many bytes of the file are parsed (RFC 9309 §2.5: a limit, if
    /// any, MUST be at least 500 KiB). Values below 512,000 are raised to
    /// 512,000 by [`Config::effective_parse_limit`]. Only lines that end
    /// (not counting their line break) within the limit are parsed; a line
    /// that straddles it is ignored entirely. Offsets count from byte 0 of
    /// the body, a skipped byte order mark included. Default: 512,000.
    pub parse_limit: usize,
    /// Skip one UTF-8 byte order mark (`EF BB BF`) at byte 0 only. The RFC
    /// is silent (profile `profile-BOM`). Default: `true`.
    pub skip_bom: bool,
    /// Accept common misspellings of record names and a missing colon
    /// (RFC 9309 §2.2.4 MAY): `useragent`, `user agent`, `disalow`,
    /// `dissallow`, `dissalow`, `disallaw`, and `Disallow /x` with white
    /// space as the separator. Default: `false`.
    pub accept_typos: bool,
    /// How a user-agent value is compared with a product token
    /// (RFC 9309 §2.2.1 leaves values that are not bare tokens open).
    /// Default: [`AgentValueMatch::LeadingToken`].
    pub agent_value: AgentValueMatch,
    /// What a rule pattern that starts with neither `/` nor `*` means
    /// (RFC 9309 §2.2: the grammar wants `/`; its own example uses
    /// `*.gif$`). Default: [`PatternWithoutSlash::NoRule`].
    pub pattern_without_slash: PatternWithoutSlash,
    /// `None`: lines have no length limit. `Some(n)`: the octets of a line
    /// beyond the first `n` are dropped before the line is parsed (a
    /// profile choice; the RFC sets no per-line limit). Default: `None`.
    pub max_line_length: Option<usize>,
    /// RFC 9309 §2.3.1.3 (MAY): when the file is unavailable (4xx, or too
    /// many redirects), `true` allows everything, `false` disallows
    /// everything. Default: `true`.
    pub unavailable_allows_all: bool,
    /// `true`: a 429 (Too Many Requests) makes the file unreachable (a complete
    /// disallow, as a 5xx does) instead of unavailable. RFC 9309 §2.3.1.3 puts 429 among
    /// the 400-499 codes ("unavailable", MAY access everything); §2.3.1.4's complete
    /// disallow is a stricter choice that conforms too (a Google choice). Default: `false`.
    pub too_many_requests_unreachable: bool,
    /// RFC 9309 §2.3.1.2: crawlers SHOULD follow at least five redirects;
    /// a fetch that needed more than this many is treated as unavailable.
    /// Default: 5.
    pub max_redirects: u32,
    /// `true`: an `Allow:` rule whose last `/` is followed by `index.htm` (`index.htm`,
    /// `index.html`, or any other name that starts so, in lower case) also allows the
    /// directory it names, and nothing under it: `Allow: /dir/index.html` adds the rule `/dir/$`
    /// (six octets long), so `/dir/` is allowed but `/dir/?q` and `/dir/x` are not.
    /// A Google choice with no RFC 9309 basis: the RFC compares the rule's octets
    /// with the path (§2.2.2), and `/dir/index.html` does not match `/dir/`. Default:
    /// `false`.
    pub index_html_allows_directory: bool,
}

/// How a user-agent line's value is compared with the crawler's product
/// token (RFC 9309 §2.2.1). The comparison is always case-insensitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum AgentValueMatch {
    /// The value's leading run of `[A-Za-z_-]` is compared with the whole
    /// product token: `Examplebot/2.1` and `Examplebot (+https://x)` match
    /// token `examplebot`; `examplebot-news` does not. A value whose leading
    /// run is empty (e.g. `/bot`) matches no token.
    #[default]
    LeadingToken,
    /// The whole value (trimmed of spaces and tabs) must equal the token.
    WholeValue,
}

/// What a rule pattern that starts with neither `/` nor `*` means
/// (RFC 9309 §2.2, requirement `2.2-PATTERN-SLASH`, question `Q-PATTERN-NO-SLASH`).
///
/// `path-pattern = "/" *UTF8-char-noctl` (§2.2), and §5.1 lets a pattern start with
/// `*` ("The "*" character designates any character, including the otherwise-required
/// forward slash"). Any other first octet makes the line no rule of the ABNF. The scope
/// decision of `corpus/README.md` reads it strictly as no rule at all, or leniently
/// (§2.2.4: "Crawlers MAY be lenient when interpreting other records.") as the rule it
/// was evidently meant to be, repaired by a leading `/`. Google keeps it as a rule that
/// matches nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum PatternWithoutSlash {
    /// The strict reading: the line is no rule and is ignored like any line that is
    /// no record (§2.3.1.5: "Crawlers MUST use the parseable rules."), so it neither
    /// applies nor ends a run of user-agent lines. `*.gif$` is a rule.
    #[default]
    NoRule,
    /// The lenient reading: a `/` is put in front, `foo` becomes `/foo` (and
    /// counts one more octet of specificity).
    PrependSlash,
    /// Google's reading (google/robotstxt): the line is a rule, so it ends a run of
    /// user-agent lines, but its pattern, lacking the `/` every path starts with,
    /// matches no path. The strict reading's grouping differs (the line is ignored
    /// there), which is why `profile-google-pattern-without-slash` exists.
    MatchesNothing,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            parse_limit: MIN_PARSE_LIMIT,
            skip_bom: true,
            accept_typos: false,
            agent_value: AgentValueMatch::LeadingToken,
            pattern_without_slash: PatternWithoutSlash::NoRule,
            max_line_length: None,
            unavailable_allows_all: true,
            too_many_requests_unreachable: false,
            max_redirects: 5,
            index_html_allows_directory: false,
        }
    }
}

impl Config {
    /// The RFC-strict configuration; the same as [`Config::default`].
    pub fn rfc9309() -> Config {
        Config::default()
    }

    /// The Google profile: typos accepted; lines cut at 16,663 octets (robots.cc's
    /// 2083 * 8-byte line buffer less its NUL); [`AgentValueMatch::LeadingToken`];
    /// [`PatternWithoutSlash::MatchesNothing`]; an `Allow:` of `/dir/index.html` also
    /// allowing `/dir/` ([`Config::index_html_allows_directory`]); a 429 read as
    /// unreachable ([`Config::too_many_requests_unreachable`]).
    pub fn google() -> Config {
        Config {
            accept_typos: true,
            max_line_length: Some(16_663),
            pattern_without_slash: PatternWithoutSlash::MatchesNothing,
            index_html_allows_directory: true,
            too_many_requests_unreachable: true,
            ..Config::default()
        }
    }

    /// The parse limit in force: `parse_limit`, raised to at least 512,000
    /// bytes, because RFC 9309 §2.5 requires a limit of at least 500 KiB.
    pub fn effective_parse_limit(&self) -> usize {
        self.parse_limit.max(MIN_PARSE_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_rfc_strict() {
        let c = Config::default();
        assert_eq!(c, Config::rfc9309());
        assert_eq!(c.parse_limit, 512_000);
        assert!(c.skip_bom);
        assert!(!c.accept_typos);
        assert_eq!(c.agent_value, AgentValueMatch::LeadingToken);
        assert_eq!(c.pattern_without_slash, PatternWithoutSlash::NoRule);
        assert_eq!(c.max_line_length, None);
        assert!(c.unavailable_allows_all);
        assert!(!c.too_many_requests_unreachable);
        assert_eq!(c.max_redirects, 5);
        assert!(!c.index_html_allows_directory);
    }

    #[test]
    fn google_profile() {
        let g = Config::google();
        assert!(g.accept_typos);
        assert_eq!(g.max_line_length, Some(16_663));
        assert_eq!(g.agent_value, AgentValueMatch::LeadingToken);
        assert_eq!(g.pattern_without_slash, PatternWithoutSlash::MatchesNothing);
        assert!(g.skip_bom);
        assert!(g.index_html_allows_directory);
        assert!(g.too_many_requests_unreachable);
    }

    #[test]
    fn parse_limit_is_clamped() {
        let mut c = Config {
            parse_limit: 10,
            ..Config::default()
        };
        assert_eq!(c.effective_parse_limit(), 512_000);
        c.parse_limit = 1_000_000;
        assert_eq!(c.effective_parse_limit(), 1_000_000);
        c.parse_limit = usize::MAX;
        assert_eq!(c.effective_parse_limit(), usize::MAX);
    }
}
