//! The compiled form of a robots.txt file: parse once, check many.

use std::borrow::Cow;

use crate::config::{Config, PatternWithoutSlash};
use crate::encode::{normalize_path_into, path_is_plain};
use crate::group::{is_product_token, GroupSink, Groups};
use crate::lines::{starts_with_bom, Lines, BOM};
use crate::parse::{has_control, parse_line, Directive};
use crate::url::{path_and_query, remove_dot_segments};
use crate::verdict::{Reason, RuleKind, Verdict};
use crate::warning::{Sink, Warning, WarningKind};

/// The path of `url` that rules are compared with: its path and query, normalized
/// (non-ASCII and reserved octets percent-encoded, escapes of unreserved characters
/// decoded, hex digits upper case: RFC 9309 §2.2.2), with `.` and `..` segments resolved as a client resolves them
/// before it fetches (RFC 3986 §5.2.4): the rules apply to the resource requested.
pub fn comparison_path(url: &str) -> Cow<'_, [u8]> {
    let (slash, raw) = path_and_query(url.as_bytes());
    let path = if !slash && path_is_plain(raw) {
        Cow::Borrowed(raw)
    } else {
        let mut buf = Vec::with_capacity(raw.len() + 16);
        if slash {
            buf.push(b'/');
        }
        normalize_path_into(raw, &mut buf);
        Cow::Owned(buf)
    };
    match remove_dot_segments(&path) {
        Some(resolved) => Cow::Owned(resolved),
        None => path,
    }
}

/// Whether a [`comparison_path`] is the robots.txt URI, which is implicitly allowed
/// (RFC 9309 §2.2.2): `/robots.txt` exactly, all lowercase and without a query (§2.3:
/// `scheme:[//authority]/robots.txt`).
pub(crate) fn is_robots_txt(path: &[u8]) -> bool {
    path == b"/robots.txt"
}

/// A parsed robots.txt file.
///
/// Parsing is total: any sequence of bytes gives a `Robots` (RFC 9309
/// §2.3.1.5: unparseable lines are skipped, the others still count).
///
/// ```
/// use reptest_reference::{Reason, Robots};
///
/// let robots = Robots::parse(b"User-agent: examplebot\nDisallow: /private\nAllow: /private/ok\n");
/// assert!(robots.is_allowed("ExampleBot", "https://example.com/public"));
///
/// let verdict = robots.check("examplebot", "https://example.com/private/x?y=1");
/// assert!(!verdict.is_allowed());
/// assert_eq!(verdict.line(), Some(2));
///
/// assert!(robots.is_allowed("examplebot", "/private/ok/page"));
/// assert_eq!(robots.check("otherbot", "/private").reason(), &Reason::NoGroup);
/// assert_eq!(robots.check("examplebot", "/robots.txt").reason(), &Reason::RobotsTxtPath);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Robots {
    groups: Groups,
}

impl Robots {
    /// Parses `body` with [`Config::default`] (RFC-strict).
    pub fn parse(body: &[u8]) -> Robots {
        Robots::parse_with(body, &Config::default())
    }

    /// Parses `body` with `config`.
    pub fn parse_with(body: &[u8], config: &Config) -> Robots {
        build(body, config, Sink::new(None))
    }

    /// Parses `body` with `config`, reporting lint findings to `on_warning`
    /// in line order. Warnings never change the result: it equals
    /// [`Robots::parse_with`].
    pub fn parse_with_warnings(
        body: &[u8],
        config: &Config,
        on_warning: &mut dyn FnMut(Warning),
    ) -> Robots {
        build(body, config, Sink::new(Some(on_warning)))
    }

    /// Whether the crawler with product token `agent` may fetch `url`, and
    /// why.
    ///
    /// `agent` is the crawler's product token (RFC 9309 §2.2.1, e.g.
    /// `examplebot`); it is compared as given, case-insensitively, with no
    /// extraction. `url` is an absolute URL or a path; only its path and
    /// query count (RFC 9309 §2.2.2).
    ///
    /// Order of decisions: the path `/robots.txt` (exact, after
    /// normalization, no query) is allowed (RFC 9309 §2.2.2); then the
    /// groups that apply (RFC 9309 §2.2.1) are merged and their most
    /// specific matching rule decides (RFC 9309 §2.2.2); no applicable group
    /// or no matching rule means allowed.
    pub fn check(&self, agent: &str, url: &str) -> Verdict {
        let path = comparison_path(url);
        if is_robots_txt(&path) {
            return Verdict::new(true, Reason::RobotsTxtPath);
        }
        let applied = self.groups.applicable(agent.as_bytes());
        if applied.is_empty() {
            return Verdict::new(true, Reason::NoGroup);
        }
        let best = self.groups.best_rule(&applied, &path);
        Verdict::of_groups(best, self.groups.lines(applied))
    }

    /// Shorthand for `self.check(agent, url).is_allowed()`.
    pub fn is_allowed(&self, agent: &str, url: &str) -> bool {
        self.check(agent, url).is_allowed()
    }
}

fn build(body: &[u8], config: &Config, sink: Sink<'_>) -> Robots {
    let limit = config.effective_parse_limit();
    let mut groups = Groups::with_capacity(body.get(..limit).unwrap_or(body));
    read_groups(body, config, sink, &mut groups);
    groups.finish();
    Robots { groups }
}

/// Reads `body` under `config` into `groups`, line by line (RFC 9309 §2.1, §2.2, §2.5),
/// reporting lint findings to `sink`.
pub(crate) fn read_groups(
    body: &[u8],
    config: &Config,
    mut sink: Sink<'_>,
    groups: &mut impl GroupSink,
) {
    let mut start = 0;
    if starts_with_bom(body) {
        sink.warn(1, || WarningKind::ByteOrderMark);
        if config.skip_bom {
            start = BOM.len();
        }
    }
    let limit = config.effective_parse_limit();
    // RFC 9309 §2.1: consecutive user-agent lines share a group; a
    // user-agent line after a rule starts a new one. Blank lines, comments
    // and other records change nothing (§2.2, §2.2.4).
    let mut collecting_agents = false;

    for line in Lines::new(body, start) {
        let number = line.number;
        // RFC 9309 §2.5: a line that does not end within the limit could be
        // a truncated rule; it and everything after it are ignored.
        if line.end > limit {
            sink.warn(number, || WarningKind::BeyondParseLimit);
            break;
        }
        let mut content = line.content;
        if sink.enabled() && std::str::from_utf8(content).is_err() {
            sink.warn(number, || WarningKind::NotUtf8);
        }
        if let Some(max) = config.max_line_length {
            if content.len() > max {
                sink.warn(number, || WarningKind::LineTooLong);
                content = content.get(..max).unwrap_or(content);
            }
        }
        let (kind, value) = match parse_line(content, number, config.accept_typos, &mut sink) {
            Directive::UserAgent(value) => {
                if !collecting_agents {
                    groups.start_group(number);
                    collecting_agents = true;
                }
                if value.is_empty() {
                    sink.warn(number, || WarningKind::EmptyUserAgent);
                } else if sink.enabled() && value != b"*" && !is_product_token(value) {
                    sink.warn(number, || {
                        WarningKind::UserAgentNotToken(String::from_utf8_lossy(value).into_owned())
                    });
                }
                groups.add_agent(value, config.agent_value);
                continue;
            }
            Directive::Allow(value) => (RuleKind::Allow, value),
            Directive::Disallow(value) => (RuleKind::Disallow, value),
            Directive::Blank | Directive::Ignored => continue,
        };
        // RFC 9309 §2.2: a path-pattern holds no control octet, so such a line is no
        // rule: ignored (§2.3.1.5), it neither joins a group nor ends a run of
        // user-agent lines.
        if has_control(value) {
            sink.warn(number, || WarningKind::ControlInPattern);
            continue;
        }
        // RFC 9309 §2.2.2 (SHOULD): rules before any user-agent line are
        // ignored.
        if groups.is_empty() {
            sink.warn(number, || WarningKind::RuleOutsideGroup);
            continue;
        }
        // RFC 9309 §2.2: a pattern starts with `/` (or, §5.1, `*`); any other is no
        // rule unless repaired with a leading `/` ([`PatternWithoutSlash`]).
        let without_slash = !matches!(value.first(), None | Some(b'/') | Some(b'*'));
        if without_slash {
            sink.warn(number, || WarningKind::PatternWithoutSlash);
            match config.pattern_without_slash {
                PatternWithoutSlash::NoRule => continue,
                PatternWithoutSlash::MatchesNothing => {
                    collecting_agents = false;
                    continue;
                }
                PatternWithoutSlash::PrependSlash => {}
            }
        }
        collecting_agents = false;
        // RFC 9309 §2.2: an empty pattern matches nothing; the line still
        // counts as a rule for grouping (above), but is not stored.
        groups.add_rule(number, kind, value, without_slash);
        if config.index_html_allows_directory && kind == RuleKind::Allow {
            if let Some(directory) = index_html_directory(value) {
                groups.add_rule(number, kind, &directory, without_slash);
            }
        }
    }
}

/// The rule that Google's profile adds for an `Allow:` value naming an index page
/// ([`Config::index_html_allows_directory`]): the value up to its last `/`, then `$`, when
/// what follows that `/` starts with `index.htm` (`/dir/index.html` gives `/dir/$`).
/// `None` for any other value. Not RFC 9309: the RFC matches the rule as written (§2.2.2).
fn index_html_directory(value: &[u8]) -> Option<Vec<u8>> {
    let slash = value.iter().rposition(|&b| b == b'/')?;
    let (directory, name) = value.split_at(slash + 1);
    name.starts_with(b"index.htm")
        .then(|| [directory, b"$"].concat())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::MatchedRule;

    fn warnings(body: &[u8], config: &Config) -> Vec<Warning> {
        let mut out = Vec::new();
        Robots::parse_with_warnings(body, config, &mut |w| out.push(w));
        out
    }

    fn kinds(body: &[u8]) -> Vec<(usize, WarningKind)> {
        warnings(body, &Config::default())
            .into_iter()
            .map(|w| (w.line, w.kind))
            .collect()
    }

    #[test]
    fn rfc_example_5_1() {
        let body = b"User-Agent: *\n\
Disallow: *.gif$\n\
Disallow: /example/\n\
Allow: /publications/\n\
\n\
User-Agent: foobot\n\
Disallow:/\n\
Allow:/example/page.html\n\
Allow:/example/allowed.gif\n\
\n\
User-Agent: barbot\n\
User-Agent: bazbot\n\
Disallow: /example/page.html\n\
\n\
User-Agent: quxbot\n";
        let r = Robots::parse(body);
        // foobot
        assert!(r.is_allowed("foobot", "/example/page.html"));
        assert!(r.is_allowed("foobot", "/example/allowed.gif"));
        assert!(!r.is_allowed("foobot", "/example/disallowed.gif"));
        assert!(!r.is_allowed("foobot", "/"));
        // barbot and bazbot share a group
        for bot in ["barbot", "bazbot"] {
            assert!(!r.is_allowed(bot, "/example/page.html"));
            assert!(r.is_allowed(bot, "/example/disallowed.gif"));
        }
        // quxbot: empty last group allows everything, star not used
        let v = r.check("quxbot", "/example/x.gif");
        assert!(v.is_allowed());
        assert_eq!(v.reason(), &Reason::NoMatchingRule { groups: vec![15] });
        // others: the * group
        assert!(!r.is_allowed("otherbot", "/a/b.gif"));
        assert!(!r.is_allowed("otherbot", "/example/x"));
        assert!(r.is_allowed("otherbot", "/publications/x"));
        assert!(r.is_allowed("otherbot", "/a/b.gif?x"));
    }

    #[test]
    fn rfc_example_5_2_longest_match() {
        let r = Robots::parse(
            b"User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n",
        );
        assert!(r.is_allowed("foobot", "/example/page/"));
        assert!(!r.is_allowed("foobot", "/example/page/disallowed.gif"));
    }

    #[test]
    fn verdict_details() {
        let r = Robots::parse(b"# c\nuser-agent: a\nuser-agent: b\ndisallow: /x # y\n");
        let v = r.check("B", "http://h/x/y");
        assert_eq!(
            v.reason(),
            &Reason::Rule {
                rule: MatchedRule {
                    line: 4,
                    kind: RuleKind::Disallow,
                    pattern: "/x".into()
                },
                groups: vec![2]
            }
        );
        assert_eq!(v.line(), Some(4));
    }

    #[test]
    fn groups_merge_and_report_all() {
        let r = Robots::parse(b"user-agent: a\ndisallow: /x\nuser-agent: *\ndisallow: /\nuser-agent: a\nallow: /x/y\n");
        let v = r.check("a", "/x/y");
        assert!(v.is_allowed());
        assert!(matches!(v.reason(), Reason::Rule { groups, .. } if groups == &[1, 5]));
        assert!(!r.is_allowed("a", "/x"));
        assert!(r.is_allowed("a", "/z"), "star group not combined");
        assert!(!r.is_allowed("b", "/z"));
    }

    #[test]
    fn other_records_and_blank_lines_do_not_end_groups() {
        let r = Robots::parse(
            b"user-agent: a\n\n# c\nsitemap: http://x/s\nfoo: bar\nuser-agent: b\ndisallow: /\n",
        );
        assert!(!r.is_allowed("a", "/x"));
        assert!(!r.is_allowed("b", "/x"));
    }

    #[test]
    fn user_agent_after_rule_starts_new_group() {
        let r = Robots::parse(b"user-agent: a\ndisallow:\nuser-agent: b\ndisallow: /\n");
        assert!(r.is_allowed("a", "/x"));
        assert!(!r.is_allowed("b", "/x"));
    }

    #[test]
    fn orphan_rules_ignored() {
        let body = b"disallow: /\nuser-agent: *\nallow: /x\n";
        let r = Robots::parse(body);
        assert!(r.is_allowed("a", "/y"));
        assert_eq!(kinds(body), vec![(1, WarningKind::RuleOutsideGroup)]);
    }

    #[test]
    fn robots_txt_always_allowed() {
        let r = Robots::parse(b"user-agent: *\ndisallow: /\n");
        assert_eq!(r.check("a", "/robots.txt").reason(), &Reason::RobotsTxtPath);
        assert_eq!(
            r.check("a", "https://h/robots.txt#x").reason(),
            &Reason::RobotsTxtPath
        );
        assert!(!r.is_allowed("a", "/robots.txt?x=1"));
        assert!(!r.is_allowed("a", "/robots.txt/"));
        assert!(!r.is_allowed("a", "/ROBOTS.TXT"));
    }

    #[test]
    fn empty_and_garbage_files_allow_all() {
        for body in [&b""[..], b"\0\0\xff", b"\xEF\xBB\xBF", b"\r\n\r"] {
            let v = Robots::parse(body).check("a", "/x");
            assert!(v.is_allowed());
            assert_eq!(v.reason(), &Reason::NoGroup);
        }
    }

    #[test]
    fn bom_handling() {
        let body = b"\xEF\xBB\xBFuser-agent: *\ndisallow: /\n";
        assert!(!Robots::parse(body).is_allowed("a", "/x"));
        let c = Config {
            skip_bom: false,
            ..Config::default()
        };
        assert!(Robots::parse_with(body, &c).is_allowed("a", "/x"));
        assert_eq!(kinds(body), vec![(1, WarningKind::ByteOrderMark)]);
        // partial and mid-file BOMs are just bytes
        assert!(Robots::parse(b"\xEF\xBBuser-agent: *\ndisallow: /\n").is_allowed("a", "/x"));
        let r = Robots::parse(b"user-agent: *\n\xEF\xBB\xBFdisallow: /\ndisallow: /y\n");
        assert!(r.is_allowed("a", "/x"));
        assert!(!r.is_allowed("a", "/y"));
    }

    #[test]
    fn mixed_line_ends_and_line_numbers() {
        let r = Robots::parse(b"user-agent: *\rdisallow: /a\r\ndisallow: /b\ndisallow: /c");
        assert_eq!(r.check("x", "/a").line(), Some(2));
        assert_eq!(r.check("x", "/b").line(), Some(3));
        assert_eq!(r.check("x", "/c").line(), Some(4));
    }

    #[test]
    fn percent_encoding_both_ways() {
        let r = Robots::parse("user-agent: *\ndisallow: /ツ\ndisallow: /%E3%83%85\n".as_bytes());
        assert!(!r.is_allowed("a", "/%E3%83%84"));
        assert!(!r.is_allowed("a", "/%e3%83%84"));
        assert!(!r.is_allowed("a", "/ツ"));
        assert!(!r.is_allowed("a", "/ヅ"));
        let r = Robots::parse(b"user-agent: *\ndisallow: /baz\ndisallow: /a%2Fb\n");
        assert!(!r.is_allowed("a", "/%62%61%7A"));
        assert!(!r.is_allowed("a", "/a%2fb"));
        assert!(r.is_allowed("a", "/a/b"));
    }

    #[test]
    fn query_is_part_of_path() {
        let r = Robots::parse(b"user-agent: *\ndisallow: /*.pdf$\ndisallow: /s?q=\n");
        assert!(!r.is_allowed("a", "/x.pdf"));
        assert!(r.is_allowed("a", "/x.pdf?v=2"));
        assert!(!r.is_allowed("a", "http://h/s?q=1#f"));
        assert!(r.is_allowed("a", "http://h/s#?q="));
    }

    #[test]
    fn parse_limit() {
        let mut body = b"user-agent: *\ndisallow: /a\n".to_vec();
        // Fill to just before the limit, then a rule straddling it.
        body.resize(512_000 - 5, b'\n');
        body.extend_from_slice(b"disallow: /b\ndisallow: /c\n");
        let r = Robots::parse(&body);
        assert!(!r.is_allowed("x", "/a"));
        assert!(r.is_allowed("x", "/b"), "straddling line ignored");
        assert!(r.is_allowed("x", "/c"));
        let w = warnings(&body, &Config::default());
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].kind, WarningKind::BeyondParseLimit);
        // A rule ending exactly at the limit counts.
        let mut body = b"user-agent: *\n".to_vec();
        body.resize(512_000 - 12, b'\n');
        body.extend_from_slice(b"disallow: /b\n");
        assert!(!Robots::parse(&body).is_allowed("x", "/b"));
        // A larger limit parses more.
        let c = Config {
            parse_limit: 1_000_000,
            ..Config::default()
        };
        let mut body = b"user-agent: *\n".to_vec();
        body.resize(600_000, b'\n');
        body.extend_from_slice(b"disallow: /b\n");
        assert!(Robots::parse(&body).is_allowed("x", "/b"));
        assert!(!Robots::parse_with(&body, &c).is_allowed("x", "/b"));
    }

    #[test]
    fn max_line_length() {
        let c = Config {
            max_line_length: Some(14),
            ..Config::default()
        };
        let body = b"user-agent: *\ndisallow: /abcdef\n";
        let r = Robots::parse_with(body, &c);
        assert!(!r.is_allowed("x", "/abcz"), "pattern cut to /abc");
        let w = warnings(body, &c);
        assert_eq!(
            w,
            vec![Warning {
                line: 2,
                kind: WarningKind::LineTooLong
            }]
        );
        assert!(Robots::parse(body).is_allowed("x", "/abcz"));
    }

    #[test]
    fn pattern_without_slash_modes() {
        let body = b"user-agent: *\ndisallow: foo\ndisallow: *.gif$\n";
        let repair = Config {
            pattern_without_slash: PatternWithoutSlash::PrependSlash,
            ..Config::default()
        };
        for (config, foo_allowed) in [
            (Config::default(), true),
            (Config::google(), true),
            (repair.clone(), false),
        ] {
            let r = Robots::parse_with(body, &config);
            assert_eq!(r.is_allowed("x", "/foo"), foo_allowed, "{config:?}");
            assert!(!r.is_allowed("x", "/a.gif"));
        }
        assert_eq!(kinds(body), vec![(2, WarningKind::PatternWithoutSlash)]);
        // Strictly no rule, the line does not end the run of user-agent lines: a and b
        // share `Disallow: /y` (line 4); repaired as `/y`, it is a's own rule (line 2).
        // Google keeps `y` as a's rule that matches nothing, so a may fetch /y.
        let body = b"user-agent: a\ndisallow: y\nuser-agent: b\ndisallow: /y\n";
        assert_eq!(Robots::parse(body).check("a", "/y").line(), Some(4));
        assert_eq!(
            Robots::parse_with(body, &repair).check("a", "/y").line(),
            Some(2)
        );
        assert!(Robots::parse_with(body, &Config::google()).is_allowed("a", "/y"));
    }

    #[test]
    fn index_html_allows_its_directory_only_in_the_google_profile() {
        let body = b"user-agent: *\ndisallow: /\nallow: /d/index.html\nallow: /e/index.htm\nallow: /f/Index.html\nallow: /g/index.php\n";
        let rfc = Robots::parse(body);
        let google = Robots::parse_with(body, &Config::google());
        assert!(!rfc.is_allowed("a", "/d/"));
        let v = google.check("a", "/d/");
        assert!(v.is_allowed());
        assert!(
            matches!(v.reason(), Reason::Rule { rule, .. } if rule.line == 3 && rule.pattern == "/d/$")
        );
        assert!(google.is_allowed("a", "/e/"));
        // Exactly the directory: `$` ends the added rule.
        assert!(!google.is_allowed("a", "/d/?q=1"));
        assert!(!google.is_allowed("a", "/d/x"));
        // The index page itself is allowed by its own, longer rule in both.
        let v = google.check("a", "/d/index.html");
        assert!(matches!(v.reason(), Reason::Rule { rule, .. } if rule.pattern == "/d/index.html"));
        assert!(rfc.is_allowed("a", "/d/index.html"));
        // Only a lower-case name starting with `index.htm`.
        assert!(!google.is_allowed("a", "/f/"));
        assert!(!google.is_allowed("a", "/g/"));
        // A disallow naming an index page stays as written.
        let body = b"user-agent: *\nallow: /\ndisallow: /h/index.html\n";
        assert!(Robots::parse_with(body, &Config::google()).is_allowed("a", "/h/"));
        assert_eq!(index_html_directory(b"/index.htm5"), Some(b"/$".to_vec()));
        assert_eq!(index_html_directory(b"/a/index.html?x=/y"), None);
        assert_eq!(index_html_directory(b"index.html"), None);
    }

    #[test]
    fn typos_only_when_configured() {
        let body = b"useragent: *\ndisalow: /x\n";
        assert!(Robots::parse(body).is_allowed("a", "/x"));
        assert!(!Robots::parse_with(body, &Config::google()).is_allowed("a", "/x"));
        let body = b"user-agent: *\nDisallow /x\n";
        assert!(Robots::parse(body).is_allowed("a", "/x"));
        assert!(!Robots::parse_with(body, &Config::google()).is_allowed("a", "/x"));
    }

    #[test]
    fn agent_value_modes() {
        let body = b"user-agent: Examplebot/2.1\ndisallow: /\n";
        assert!(!Robots::parse(body).is_allowed("examplebot", "/x"));
        let c = Config {
            agent_value: crate::AgentValueMatch::WholeValue,
            ..Config::default()
        };
        assert!(Robots::parse_with(body, &c).is_allowed("examplebot", "/x"));
        assert_eq!(
            kinds(body),
            vec![(1, WarningKind::UserAgentNotToken("Examplebot/2.1".into()))]
        );
    }

    #[test]
    fn empty_user_agent_names_nobody_but_groups() {
        let body = b"user-agent:\nuser-agent: a\ndisallow: /\n";
        let r = Robots::parse(body);
        assert!(!r.is_allowed("a", "/x"));
        assert!(r.is_allowed("", "/x"));
        assert_eq!(kinds(body), vec![(1, WarningKind::EmptyUserAgent)]);
    }

    #[test]
    fn not_utf8_warns_and_still_parses() {
        let body = b"user-agent: *\ndisallow: /\xE9\n";
        let r = Robots::parse(body);
        assert!(!r.is_allowed("a", "/%E9"));
        assert!(r.is_allowed("a", "/\u{e9}"), "no Latin-1 bridging");
        assert_eq!(kinds(body), vec![(2, WarningKind::NotUtf8)]);
        let v = r.check("a", "/%e9x");
        assert!(matches!(v.reason(), Reason::Rule { rule, .. } if rule.pattern == "/\u{FFFD}"));
    }

    #[test]
    fn dedup_and_order_independence() {
        let a = Robots::parse(b"user-agent: *\nallow: /a\ndisallow: /a\ndisallow: /a\n");
        let b = Robots::parse(b"user-agent: *\ndisallow: /a\nallow: /a\n");
        assert!(a.is_allowed("x", "/a"));
        assert!(b.is_allowed("x", "/a"));
    }

    #[test]
    fn huge_line_and_nul() {
        let mut body = b"user-agent: *\ndisallow: /".to_vec();
        body.resize(body.len() + 1_000_000, b'a');
        body.extend_from_slice(b"\0\n");
        let r = Robots::parse(&body);
        assert!(r.is_allowed("x", "/aaa"));
    }

    #[test]
    fn a_rule_with_a_control_octet_is_no_rule() {
        // RFC 9309 §2.2: a path-pattern holds no control octet; the line is ignored, so
        // it neither applies nor ends the run of user-agent lines (§2.3.1.5).
        let body = b"user-agent: a\ndisallow: /x\0y\nuser-agent: b\ndisallow: /shared\n";
        let r = Robots::parse(body);
        assert!(!r.is_allowed("a", "/shared"), "a and b share one group");
        assert!(r.is_allowed("a", "/x"), "not cut at the NUL");
        assert_eq!(kinds(body), vec![(2, WarningKind::ControlInPattern)]);
        let r = Robots::parse(b"user-agent: *\nallow: /a$\x01\ndisallow: /a\x7f\ndisallow: /\n");
        assert!(!r.is_allowed("x", "/a"));
        assert_eq!(r.check("x", "/a").line(), Some(4));
    }

    #[test]
    fn robots_is_send_sync_clone() {
        fn assert_traits<T: Send + Sync + Clone>() {}
        assert_traits::<Robots>();
    }
}
