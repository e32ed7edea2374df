//! Groups, user-agent matching and rule selection (RFC 9309 §2.1, §2.2.1,
//! §2.2.2).
//!
//! All groups of a file live in one [`Groups`] value: flat vectors of
//! groups, agents and rules (a group's agents and rules are contiguous
//! ranges, since a file is read top to bottom and rules always go to the
//! last group) plus the pattern [`Store`].

use std::ops::Range;

use crate::config::AgentValueMatch;
use crate::pattern::{PathLead, Pattern, Span, Store};
use crate::verdict::{MatchedRule, RuleKind};

/// What one user-agent line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Agent {
    /// `*`: the group for crawlers that no other group names
    /// (RFC 9309 §2.2.1, `2.2.1-STAR-FALLBACK`).
    Star,
    /// The octets compared (case-insensitively) with a product token, in
    /// the store's text arena. Never empty.
    Token(Span),
    /// A value that can name no crawler (empty, or no leading token).
    Nobody,
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

/// Whether `value` is a bare product token (RFC 9309 §2.2.1: `a-z A-Z _ -`), not empty.
///
/// ```
/// use reptest_reference::syntax::is_product_token;
/// assert!(is_product_token(b"Example_bot-x"));
/// assert!(!is_product_token(b"examplebot/1.0") && !is_product_token(b"*"));
/// ```
pub fn is_product_token(value: &[u8]) -> bool {
    !value.is_empty() && value.iter().all(|&b| is_token_char(b))
}

/// The part of a user-agent value (already trimmed) that is compared with
/// product tokens; `None` for the star group `*`.
///
/// Only a value that is exactly `*` is the star group; `*bot` or `* x` are
/// not (their leading token is empty, so they name nobody under
/// [`AgentValueMatch::LeadingToken`], and no token can equal them under
/// [`AgentValueMatch::WholeValue`]).
pub(crate) fn agent_key(value: &[u8], mode: AgentValueMatch) -> Option<&[u8]> {
    if value == b"*" {
        return None;
    }
    Some(match mode {
        AgentValueMatch::LeadingToken => {
            let end = value
                .iter()
                .position(|&b| !is_token_char(b))
                .unwrap_or(value.len());
            &value[..end]
        }
        AgentValueMatch::WholeValue => value,
    })
}

/// One rule.
#[derive(Debug, Clone, Copy)]
struct Rule {
    line: usize,
    kind: RuleKind,
    /// As written, in the store's text arena.
    written: Span,
    pattern: Pattern,
}

/// A group: user-agent lines then rules (RFC 9309 §2.1, `2.1-GROUP`).
#[derive(Debug, Clone)]
struct Group {
    /// 1-based line of the first user-agent line.
    line: usize,
    agents: Range<usize>,
    rules: Range<usize>,
}

/// What reading a file hands its groups to, in file order ([`crate::robots::read_groups`]):
/// [`Groups`] compiles them all (parse once, check many); [`crate::once`] keeps only
/// what one query needs.
pub(crate) trait GroupSink {
    /// Whether no group has been started yet.
    fn is_empty(&self) -> bool;
    /// Starts a new group at a user-agent line.
    fn start_group(&mut self, line: usize);
    /// Adds a user-agent value (trimmed) to the last group.
    fn add_agent(&mut self, value: &[u8], mode: AgentValueMatch);
    /// Adds a rule to the last group (see [`Groups::add_rule`]).
    fn add_rule(&mut self, line: usize, kind: RuleKind, raw: &[u8], prepend: bool);
}

impl GroupSink for Groups {
    fn is_empty(&self) -> bool {
        Groups::is_empty(self)
    }

    fn start_group(&mut self, line: usize) {
        Groups::start_group(self, line);
    }

    fn add_agent(&mut self, value: &[u8], mode: AgentValueMatch) {
        Groups::add_agent(self, value, mode);
    }

    fn add_rule(&mut self, line: usize, kind: RuleKind, raw: &[u8], prepend: bool) {
        Groups::add_rule(self, line, kind, raw, prepend);
    }
}

/// All groups of a file, compiled.
#[derive(Debug, Clone, Default)]
pub(crate) struct Groups {
    groups: Vec<Group>,
    agents: Vec<Agent>,
    rules: Vec<Rule>,
    store: Store,
}

impl Groups {
    /// Empty, with room for the rules of `body` (the part to be parsed).
    pub(crate) fn with_capacity(body: &[u8]) -> Groups {
        // Vectors of wildcard data hold large items; reserving up front
        // avoids regrowing them, within reason.
        let stars = memchr::memchr_iter(b'*', body).take(64).count();
        Groups {
            groups: Vec::with_capacity(4),
            agents: Vec::with_capacity(4),
            // A rule line is rarely shorter than 16 octets.
            rules: Vec::with_capacity((body.len() / 24).min(1 << 16)),
            store: Store::with_capacity(body.len(), stars),
        }
    }

    /// Whether any group has been started.
    pub(crate) fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Starts a new group at a user-agent line.
    pub(crate) fn start_group(&mut self, line: usize) {
        let agents = self.agents.len();
        let rules = self.rules.len();
        self.groups.push(Group {
            line,
            agents: agents..agents,
            rules: rules..rules,
        });
    }

    /// Adds a user-agent value (trimmed) to the last group.
    pub(crate) fn add_agent(&mut self, value: &[u8], mode: AgentValueMatch) {
        let agent = match agent_key(value, mode) {
            None => Agent::Star,
            Some([]) => Agent::Nobody,
            Some(key) => Agent::Token(self.store.push_text(key)),
        };
        if let Some(group) = self.groups.last_mut() {
            self.agents.push(agent);
            group.agents.end = self.agents.len();
        }
    }

    /// Adds a rule to the last group; an empty pattern is not stored, as it
    /// matches nothing (RFC 9309 §2.2).
    pub(crate) fn add_rule(&mut self, line: usize, kind: RuleKind, raw: &[u8], prepend: bool) {
        if raw.is_empty() {
            return;
        }
        if let Some(group) = self.groups.last_mut() {
            let (written, pattern) = self.store.compile(raw, prepend);
            self.rules.push(Rule {
                line,
                kind,
                written,
                pattern,
            });
            group.rules.end = self.rules.len();
        }
    }

    /// Releases excess capacity once parsing is done.
    pub(crate) fn finish(&mut self) {
        self.store.finish();
        if self.rules.capacity() > 2 * self.rules.len() + 16 {
            self.rules.shrink_to_fit();
        }
    }

    fn agents_of(&self, group: &Group) -> &[Agent] {
        self.agents.get(group.agents.clone()).unwrap_or_default()
    }

    fn rules_of(&self, group: &Group) -> &[Rule] {
        self.rules.get(group.rules.clone()).unwrap_or_default()
    }

    /// Whether `group` names the product token `token` (case-insensitive,
    /// RFC 9309 §2.2.1, `2.2.1-CASE`). `*` names no token here.
    fn names(&self, group: &Group, token: &[u8]) -> bool {
        self.agents_of(group).iter().any(|agent| match agent {
            Agent::Token(key) => key.get(self.store.text()).eq_ignore_ascii_case(token),
            Agent::Star | Agent::Nobody => false,
        })
    }

    fn is_star(&self, group: &Group) -> bool {
        self.agents_of(group).contains(&Agent::Star)
    }

    /// The groups that apply to `token`, as indices: all groups that name
    /// it, merged (RFC 9309 §2.2.1, `2.2.1-MERGE`); only if there are none,
    /// all `*` groups (`2.2.1-STAR-FALLBACK`, `2.2.1-SPECIFIC-ONLY`). Empty:
    /// no group applies (`2.2.1-NO-GROUP`).
    pub(crate) fn applicable(&self, token: &[u8]) -> Vec<usize> {
        let mut applied: Vec<usize> = (0..self.groups.len())
            .filter(|&i| self.names(&self.groups[i], token))
            .collect();
        if applied.is_empty() {
            applied.extend((0..self.groups.len()).filter(|&i| self.is_star(&self.groups[i])));
        }
        applied
    }

    /// The first user-agent line of each group in `applied` (group indices, turned
    /// into lines in place: a check allocates one vector for both).
    pub(crate) fn lines(&self, mut applied: Vec<usize>) -> Vec<usize> {
        applied.retain_mut(|i| match self.groups.get(*i) {
            Some(group) => {
                *i = group.line;
                true
            }
            None => false,
        });
        applied
    }

    /// The deciding rule among the rules of the `applied` groups for a
    /// normalized `path` (RFC 9309 §2.2.2): the matching rule with the
    /// highest specificity wins whatever its position (`2.2.2-LONGEST`); on
    /// a tie, allow beats disallow (`2.2.2-TIE-ALLOW`); among equal
    /// candidates the first in file order is reported, so duplicate rules
    /// never change anything (`2.2.2-DEDUP`). Rules that could not beat the
    /// current best are not even matched.
    pub(crate) fn best_rule(&self, applied: &[usize], path: &[u8]) -> Option<MatchedRule> {
        let mut best: Option<&Rule> = None;
        let lead = PathLead::of(path);
        for group in applied.iter().filter_map(|&i| self.groups.get(i)) {
            for rule in self.rules_of(group) {
                if !rule.pattern.may_match(lead) {
                    continue;
                }
                if let Some(b) = best {
                    let candidate = (rule.pattern.specificity(), rule.kind);
                    if !beats(candidate, (b.pattern.specificity(), b.kind)) {
                        continue;
                    }
                }
                if self.store.matches(&rule.pattern, path) {
                    best = Some(rule);
                }
            }
        }
        best.map(|rule| MatchedRule {
            line: rule.line,
            kind: rule.kind,
            pattern: lossy(rule.written.get(self.store.text())),
        })
    }
}

/// Whether a rule `(specificity, kind)` beats the `best` matching rule so far
/// (RFC 9309 §2.2.2): it is more specific (`2.2.2-LONGEST`), or as specific and an
/// allow against a disallow (`2.2.2-TIE-ALLOW`). A rule that does not beat the best is
/// not even matched, so the first of equal candidates in file order stays best.
pub(crate) fn beats(rule: (usize, RuleKind), best: (usize, RuleKind)) -> bool {
    rule.0 > best.0
        || (rule.0 == best.0 && rule.1 == RuleKind::Allow && best.1 == RuleKind::Disallow)
}

/// `bytes` as a string, invalid UTF-8 replaced (U+FFFD); valid UTF-8, the usual case, is
/// checked by the faster validator and copied once.
pub(crate) fn lossy(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Spec<'a> = [(&'a [&'a str], &'a [(RuleKind, &'a str)])];

    fn build(spec: &Spec<'_>) -> Groups {
        let mut g = Groups::default();
        let mut line = 1;
        for (agents, rules) in spec {
            g.start_group(line);
            for a in *agents {
                g.add_agent(a.as_bytes(), AgentValueMatch::LeadingToken);
                line += 1;
            }
            for (kind, p) in *rules {
                g.add_rule(line, *kind, p.as_bytes(), false);
                line += 1;
            }
        }
        g.finish();
        g
    }

    fn key(value: &str, mode: AgentValueMatch) -> Option<&[u8]> {
        agent_key(value.as_bytes(), mode)
    }

    #[test]
    fn agent_values_leading_token() {
        let lt = AgentValueMatch::LeadingToken;
        assert_eq!(key("*", lt), None);
        assert_eq!(key("Examplebot/2.1", lt), Some(&b"Examplebot"[..]));
        assert_eq!(key("*bot", lt), Some(&b""[..]));
        assert_eq!(key("", lt), Some(&b""[..]));
        assert_eq!(key("/x", lt), Some(&b""[..]));
        assert_eq!(key("examplebot-news", lt), Some(&b"examplebot-news"[..]));
        assert_eq!(key("Foo Bot", lt), Some(&b"Foo"[..]));
    }

    #[test]
    fn agent_values_whole_value() {
        let wv = AgentValueMatch::WholeValue;
        assert_eq!(key("Examplebot/2.1", wv), Some(&b"Examplebot/2.1"[..]));
        assert_eq!(key("*", wv), None);
        assert_eq!(key("Foo Bot", wv), Some(&b"Foo Bot"[..]));
    }

    #[test]
    fn names_case_insensitively_never_empty() {
        let g = build(&[(&["ExampleBot", "/x", "", "*"], &[])]);
        assert_eq!(g.applicable(b"examplebot"), vec![0]);
        assert_eq!(g.applicable(b"EXAMPLEBOT"), vec![0]);
        // empty token: only as the star group
        assert_eq!(g.applicable(b""), vec![0]);
        let g = build(&[(&["/x", ""], &[])]);
        assert!(g.applicable(b"").is_empty());
    }

    #[test]
    fn product_tokens() {
        assert!(is_product_token(b"Example_bot-x"));
        assert!(!is_product_token(b""));
        assert!(!is_product_token(b"bot/1"));
        assert!(!is_product_token(b"*"));
    }

    #[test]
    fn specific_groups_merge_and_exclude_star() {
        let g = build(&[(&["a"], &[]), (&["*"], &[]), (&["b", "A"], &[])]);
        assert_eq!(g.applicable(b"a"), vec![0, 2]);
        assert_eq!(g.applicable(b"B"), vec![2]);
        assert_eq!(g.applicable(b"c"), vec![1]);
        assert_eq!(g.lines(vec![0, 2]), vec![1, 3]);
        let g = build(&[(&["a"], &[])]);
        assert!(g.applicable(b"c").is_empty());
    }

    #[test]
    fn longest_wins_tie_allows() {
        use RuleKind::{Allow, Disallow};
        let g = build(&[(
            &["*"],
            &[
                (Disallow, "/a"),
                (Allow, "/a/b"),
                (Disallow, "/a/b/c"),
                (Disallow, "/x"),
                (Allow, "/x"),
                (Allow, "/x"),
                (Disallow, ""),
            ],
        )]);
        let best = |p: &str| g.best_rule(&[0], p.as_bytes()).map(|r| r.line);
        assert_eq!(best("/a"), Some(2));
        assert_eq!(best("/a/b"), Some(3));
        assert_eq!(best("/a/b/c/d"), Some(4));
        assert_eq!(best("/x"), Some(6));
        assert_eq!(best("/z"), None);
        assert_eq!(g.best_rule(&[0], b"/a/b").unwrap().pattern, "/a/b");
    }

    #[test]
    fn rules_stay_with_their_group() {
        use RuleKind::Disallow;
        let g = build(&[(&["a"], &[(Disallow, "/a")]), (&["b"], &[(Disallow, "/b")])]);
        assert!(g.best_rule(&[0], b"/b").is_none());
        assert!(g.best_rule(&[1], b"/b").is_some());
        assert!(g.best_rule(&[0, 1], b"/a").is_some());
    }
}
