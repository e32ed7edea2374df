//! One query in one pass: parse a file and check one URL for one crawler without
//! compiling the file ([`check_once`]).
//!
//! [`Robots::parse_with`](crate::Robots::parse_with) compiles every rule of every group,
//! so that any number of later checks reuse them; a caller with one query pays that whole
//! compilation for one answer. Here the same line reader
//! ([`read_groups`]) hands the groups, in file order, to a sink that keeps only what one
//! query needs: which groups apply to the crawler (RFC 9309 §2.2.1) and the best
//! matching rule among theirs so far (§2.2.2). A group's user-agent lines all come
//! before its rules (§2.1), so whether a group applies is known by its first rule.
//!
//! A rule is compiled only when it can decide: when its group names the crawler, or when
//! it is a `*` group and no group naming the crawler has been read yet (the `*` groups
//! apply only if none does), only when the path starts with the pattern's leading
//! literal (as far as it is written in normal form), and only when it could beat the
//! best rule so far. It is compiled into a scratch store, matched against the one path,
//! and dropped.
//!
//! The verdict is that of `Robots::parse_with(body, config).check(agent, url)`, down to
//! the deciding rule and the groups reported: the crate's property and corpus tests
//! (`tests/integration/once.rs`) compare the two.

use crate::config::{AgentValueMatch, Config};
use crate::encode::literal_lead;
use crate::group::{agent_key, beats, lossy, GroupSink};
use crate::pattern::{PathLead, Store};
use crate::robots::{comparison_path, is_robots_txt, read_groups};
use crate::verdict::{MatchedRule, Reason, RuleKind, Verdict};
use crate::warning::Sink;

/// The text capacity of the scratch store: a rule as written and normalized.
const SCRATCH_TEXT: usize = 256;

/// Parses `body` with `config` and checks `url` for the crawler with product token
/// `agent`, in one pass: the verdict of
/// [`Robots::parse_with(body, config).check(agent, url)`](crate::Robots::check), with
/// only the rules that can decide it compiled: a rule of a group that applies to the
/// crawler (RFC 9309 §2.2.1), whose leading literal the path starts with, and that could
/// beat the best rule so far (§2.2.2).
///
/// For one query per file; to check several URLs or agents against one file, parse it
/// once with [`Robots::parse_with`](crate::Robots::parse_with).
///
/// ```
/// use reptest_reference::{check_once, Config, Robots};
///
/// let body = b"User-agent: *\nDisallow: /private/\nAllow: /private/*.css$\n";
/// let config = Config::rfc9309();
/// let verdict = check_once(body, &config, "examplebot", "https://example.com/private/x");
/// assert!(!verdict.is_allowed());
/// assert_eq!(verdict.line(), Some(2));
/// let url = "https://example.com/private/site.css";
/// assert_eq!(
///     check_once(body, &config, "examplebot", url),
///     Robots::parse_with(body, &config).check("examplebot", url),
/// );
/// ```
pub fn check_once(body: &[u8], config: &Config, agent: &str, url: &str) -> Verdict {
    let path = comparison_path(url);
    if is_robots_txt(&path) {
        return Verdict::new(true, Reason::RobotsTxtPath);
    }
    let mut query = OneQuery::new(agent.as_bytes(), &path);
    read_groups(body, config, Sink::new(None), &mut query);
    query.verdict()
}

/// The groups of one kind that apply (those naming the crawler, or the `*` groups), and
/// the best of their rules that match the path so far.
#[derive(Debug, Default)]
struct Applied {
    /// The first user-agent line of each group, in file order.
    groups: Vec<usize>,
    /// The best rule's line, specificity and kind.
    best: Option<(usize, (usize, RuleKind))>,
    /// The best rule's pattern as written.
    written: Vec<u8>,
}

impl Applied {
    /// Whether a rule `(specificity, kind)` could become the best: it [`beats`] the best.
    fn wants(&self, rule: (usize, RuleKind)) -> bool {
        self.best.is_none_or(|(_, best)| beats(rule, best))
    }

    fn set_best(&mut self, line: usize, rule: (usize, RuleKind), written: &[u8]) {
        self.best = Some((line, rule));
        self.written.clear();
        self.written.extend_from_slice(written);
    }

    fn verdict(self) -> Verdict {
        let rule = self.best.map(|(line, (_, kind))| MatchedRule {
            line,
            kind,
            pattern: lossy(&self.written),
        });
        Verdict::of_groups(rule, self.groups)
    }
}

/// The [`GroupSink`] of one query.
#[derive(Debug)]
struct OneQuery<'q> {
    /// The crawler's product token.
    token: &'q [u8],
    /// The comparison path of the URL.
    path: &'q [u8],
    lead: PathLead,
    /// The first user-agent line of the current group; 0 before the first group.
    group: usize,
    /// Whether the current group names the crawler.
    names: bool,
    /// Whether the current group is a `*` group.
    star: bool,
    named: Applied,
    stars: Applied,
    /// Scratch space for compiling one rule, made for the first.
    store: Option<Store>,
}

impl<'q> OneQuery<'q> {
    fn new(token: &'q [u8], path: &'q [u8]) -> OneQuery<'q> {
        OneQuery {
            token,
            path,
            lead: PathLead::of(path),
            group: 0,
            names: false,
            star: false,
            named: Applied::default(),
            stars: Applied::default(),
            store: None,
        }
    }

    /// The groups naming the crawler if any (RFC 9309 §2.2.1), else the `*` groups;
    /// none: allowed.
    fn verdict(self) -> Verdict {
        let applied = if self.named.groups.is_empty() {
            self.stars
        } else {
            self.named
        };
        if applied.groups.is_empty() {
            return Verdict::new(true, Reason::NoGroup);
        }
        applied.verdict()
    }
}

impl OneQuery<'_> {
    /// `false` when the path cannot match the pattern `raw` (with a `/` in front if
    /// `prepend`): it does not start with the pattern's [`literal_lead`]. Checked before
    /// compiling, which most rules then skip.
    fn may_match(&self, raw: &[u8], prepend: bool) -> bool {
        let path = if prepend {
            self.path.strip_prefix(b"/")
        } else {
            Some(self.path)
        };
        path.is_some_and(|path| path.starts_with(literal_lead(raw)))
    }
}

impl GroupSink for OneQuery<'_> {
    fn is_empty(&self) -> bool {
        self.group == 0
    }

    fn start_group(&mut self, line: usize) {
        self.group = line;
        self.names = false;
        self.star = false;
    }

    fn add_agent(&mut self, value: &[u8], mode: AgentValueMatch) {
        match agent_key(value, mode) {
            None if !self.star => {
                self.star = true;
                // Once a group names the crawler, the `*` groups never apply.
                if self.named.groups.is_empty() {
                    self.stars.groups.push(self.group);
                }
            }
            // An empty key names nobody, not even the empty token.
            Some(key) if !self.names && !key.is_empty() && key.eq_ignore_ascii_case(self.token) => {
                self.names = true;
                self.named.groups.push(self.group);
            }
            _ => {}
        }
    }

    fn add_rule(&mut self, line: usize, kind: RuleKind, raw: &[u8], prepend: bool) {
        // The `*` groups count only if no group names the crawler.
        let star = self.star && self.named.groups.is_empty();
        if raw.is_empty() || !(self.names || star) || !self.may_match(raw, prepend) {
            return;
        }
        // Room for a rule of a few hundred octets, one wildcard layout and one segment
        // finder (a few hundred octets each: a larger first allocation would be freed
        // past the allocator's thread cache every time).
        let store = self
            .store
            .get_or_insert_with(|| Store::with_capacity(SCRATCH_TEXT, 1));
        store.clear();
        let (_, pattern) = store.compile(raw, prepend);
        let rule = (pattern.specificity(), kind);
        let for_named = self.names && self.named.wants(rule);
        let for_stars = star && self.stars.wants(rule);
        if !(for_named || for_stars)
            || !pattern.may_match(self.lead)
            || !store.matches(&pattern, self.path)
        {
            return;
        }
        if for_named {
            self.named.set_best(line, rule, raw);
        }
        if for_stars {
            self.stars.set_best(line, rule, raw);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Robots;

    /// `check_once` and parse + check agree on `body` for every agent and URL given.
    fn agree(body: &[u8], config: &Config, agents: &[&str], urls: &[&str]) {
        let robots = Robots::parse_with(body, config);
        for agent in agents {
            for url in urls {
                assert_eq!(
                    check_once(body, config, agent, url),
                    robots.check(agent, url),
                    "{agent} {url} in {:?}",
                    String::from_utf8_lossy(body)
                );
            }
        }
    }

    #[test]
    fn groups_named_star_and_none() {
        let body = b"user-agent: a\ndisallow: /x\nuser-agent: *\ndisallow: /\n\
user-agent: a\nallow: /x/y\nuser-agent: b\nuser-agent: *\nallow: /b\n";
        let c = Config::default();
        agree(
            body,
            &c,
            &["a", "A", "b", "c", ""],
            &["/x", "/x/y", "/z", "/b"],
        );
        let v = check_once(body, &c, "a", "/x/y");
        assert!(matches!(v.reason(), Reason::Rule { groups, .. } if groups == &[1, 5]));
        let v = check_once(body, &c, "c", "/b");
        assert!(
            matches!(v.reason(), Reason::Rule { groups, rule } if groups == &[3, 7] && rule.line == 9)
        );
        assert_eq!(
            check_once(b"user-agent: a\n", &c, "b", "/").reason(),
            &Reason::NoGroup
        );
        let v = check_once(b"user-agent: a\n", &c, "a", "/");
        assert_eq!(v.reason(), &Reason::NoMatchingRule { groups: vec![1] });
    }

    #[test]
    fn empty_token_is_named_by_no_group() {
        let body = b"user-agent:\nuser-agent: /x\ndisallow: /\nuser-agent: *\nallow: /\n";
        agree(body, &Config::default(), &["", "x"], &["/", "/a"]);
        assert_eq!(
            check_once(body, &Config::default(), "", "/").line(),
            Some(5)
        );
    }

    #[test]
    fn ties_and_duplicates_keep_the_first_best() {
        let body =
            b"user-agent: *\ndisallow: /a\nallow: /a\nallow: /a\ndisallow: /a/b\nallow: /b*\n";
        agree(
            body,
            &Config::default(),
            &["x"],
            &["/a", "/a/b", "/a/c", "/b"],
        );
        assert_eq!(
            check_once(body, &Config::default(), "x", "/a").line(),
            Some(3)
        );
    }

    #[test]
    fn robots_txt_and_profiles() {
        let body = b"user-agent: *\ndisallow: /\nallow: /d/index.html\ndisallow: x\n";
        let v = check_once(body, &Config::default(), "a", "https://h/robots.txt");
        assert_eq!(v.reason(), &Reason::RobotsTxtPath);
        for config in [Config::default(), Config::google()] {
            agree(
                body,
                &config,
                &["a"],
                &["/d/", "/d/index.html", "/x", "/robots.txt"],
            );
        }
        let v = check_once(body, &Config::google(), "a", "/d/");
        assert!(matches!(v.reason(), Reason::Rule { rule, .. } if rule.pattern == "/d/$"));
    }

    #[test]
    fn the_scratch_store_forgets_each_rule() {
        // Long segments build finders; each rule is compiled alone.
        let body = b"user-agent: *\ndisallow: /*longsegment1\nallow: /*longsegment2x\n\
disallow: /*longsegment2\n";
        agree(
            body,
            &Config::default(),
            &["x"],
            &["/a/longsegment1", "/longsegment2", "/longsegment2x"],
        );
    }
}
