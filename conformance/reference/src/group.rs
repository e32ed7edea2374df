//! Groups, user-agent matching and rule selection (RFC 9309 §2.1, §2.2.1,
//! §2.2.2).

use crate::config::AgentValueMatch;
use crate::pattern::Pattern;
use crate::verdict::{MatchedRule, RuleKind};

/// What one user-agent line names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Agent {
    /// `*`: the group for crawlers that no other group names
    /// (RFC 9309 §2.2.1, `2.2.1-STAR-FALLBACK`).
    Star,
    /// The octets compared (case-insensitively) with a product token.
    /// Never empty.
    Token(Box<[u8]>),
    /// A value that can name no crawler (empty, or no leading token).
    Nobody,
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

/// Whether `value` is a bare product token (RFC 9309 §2.2.1: `a-z A-Z _ -`).
pub(crate) fn is_product_token(value: &[u8]) -> bool {
    !value.is_empty() && value.iter().all(|&b| is_token_char(b))
}

impl Agent {
    /// Interprets a user-agent value (already trimmed).
    ///
    /// Only a value that is exactly `*` is the star group; `*bot` or `* x`
    /// are not (their leading token is empty, so they name nobody under
    /// [`AgentValueMatch::LeadingToken`], and no token can equal them under
    /// [`AgentValueMatch::WholeValue`]).
    pub(crate) fn from_value(value: &[u8], mode: AgentValueMatch) -> Agent {
        if value == b"*" {
            return Agent::Star;
        }
        let key = match mode {
            AgentValueMatch::LeadingToken => {
                let end = value
                    .iter()
                    .position(|&b| !is_token_char(b))
                    .unwrap_or(value.len());
                &value[..end]
            }
            AgentValueMatch::WholeValue => value,
        };
        if key.is_empty() {
            Agent::Nobody
        } else {
            Agent::Token(key.into())
        }
    }

    /// Whether this names the product token `token` (case-insensitive,
    /// RFC 9309 §2.2.1, `2.2.1-CASE`). `*` names no token here.
    fn names(&self, token: &[u8]) -> bool {
        match self {
            Agent::Token(key) => key.eq_ignore_ascii_case(token),
            Agent::Star | Agent::Nobody => false,
        }
    }
}

/// One rule of a group.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    pub(crate) line: usize,
    pub(crate) kind: RuleKind,
    /// As written (lossy UTF-8).
    pub(crate) written: Box<str>,
    pub(crate) pattern: Pattern,
}

impl Rule {
    pub(crate) fn to_matched(&self) -> MatchedRule {
        MatchedRule {
            line: self.line,
            kind: self.kind,
            pattern: self.written.to_string(),
        }
    }
}

/// A group: user-agent lines then rules (RFC 9309 §2.1, `2.1-GROUP`).
#[derive(Debug, Clone)]
pub(crate) struct Group {
    /// 1-based line of the first user-agent line.
    pub(crate) line: usize,
    pub(crate) agents: Vec<Agent>,
    pub(crate) rules: Vec<Rule>,
}

impl Group {
    pub(crate) fn new(line: usize) -> Group {
        Group {
            line,
            agents: Vec::new(),
            rules: Vec::new(),
        }
    }

    fn names(&self, token: &[u8]) -> bool {
        self.agents.iter().any(|a| a.names(token))
    }

    fn is_star(&self) -> bool {
        self.agents.contains(&Agent::Star)
    }
}

/// The groups that apply to `token`, as indices: all groups that name it,
/// merged (RFC 9309 §2.2.1, `2.2.1-MERGE`); only if there are none, all `*`
/// groups (`2.2.1-STAR-FALLBACK`, `2.2.1-SPECIFIC-ONLY`). Empty: no group
/// applies (`2.2.1-NO-GROUP`).
pub(crate) fn applicable(groups: &[Group], token: &[u8]) -> Vec<usize> {
    let specific: Vec<usize> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.names(token))
        .map(|(i, _)| i)
        .collect();
    if !specific.is_empty() {
        return specific;
    }
    groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.is_star())
        .map(|(i, _)| i)
        .collect()
}

/// The deciding rule among the rules of `applied` groups for a normalized
/// `path` (RFC 9309 §2.2.2): the matching rule with the highest specificity
/// wins whatever its position (`2.2.2-LONGEST`); on a tie, allow beats
/// disallow (`2.2.2-TIE-ALLOW`); among equal candidates the first in file
/// order is reported, so duplicate rules never change anything
/// (`2.2.2-DEDUP`).
pub(crate) fn best_rule<'g>(
    groups: &'g [Group],
    applied: &[usize],
    path: &[u8],
) -> Option<&'g Rule> {
    let mut best: Option<&Rule> = None;
    for group in applied.iter().filter_map(|&i| groups.get(i)) {
        for rule in &group.rules {
            if let Some(b) = best {
                let (rs, bs) = (rule.pattern.specificity(), b.pattern.specificity());
                let better = rs > bs
                    || (rs == bs && rule.kind == RuleKind::Allow && b.kind == RuleKind::Disallow);
                if !better {
                    continue;
                }
            }
            if rule.pattern.matches(path) {
                best = Some(rule);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(line: usize, kind: RuleKind, p: &str) -> Rule {
        Rule {
            line,
            kind,
            written: p.into(),
            pattern: Pattern::compile(p.as_bytes(), false),
        }
    }

    fn group(line: usize, agents: &[&str], rules: Vec<Rule>) -> Group {
        Group {
            line,
            agents: agents
                .iter()
                .map(|a| Agent::from_value(a.as_bytes(), AgentValueMatch::LeadingToken))
                .collect(),
            rules,
        }
    }

    #[test]
    fn agent_values_leading_token() {
        let lt = AgentValueMatch::LeadingToken;
        assert_eq!(Agent::from_value(b"*", lt), Agent::Star);
        assert_eq!(
            Agent::from_value(b"Examplebot/2.1", lt),
            Agent::Token((*b"Examplebot").into())
        );
        assert_eq!(Agent::from_value(b"*bot", lt), Agent::Nobody);
        assert_eq!(Agent::from_value(b"", lt), Agent::Nobody);
        assert_eq!(Agent::from_value(b"/x", lt), Agent::Nobody);
        let a = Agent::from_value(b"examplebot-news", lt);
        assert!(!a.names(b"examplebot"));
        assert!(a.names(b"ExampleBot-News"));
        assert!(Agent::from_value(b"Foo Bot", lt).names(b"foo"));
    }

    #[test]
    fn agent_values_whole_value() {
        let wv = AgentValueMatch::WholeValue;
        assert!(!Agent::from_value(b"Examplebot/2.1", wv).names(b"examplebot"));
        assert!(Agent::from_value(b"ExampleBot", wv).names(b"examplebot"));
        assert_eq!(Agent::from_value(b"*", wv), Agent::Star);
        assert!(!Agent::from_value(b"Foo Bot", wv).names(b"foo"));
    }

    #[test]
    fn empty_token_names_nothing() {
        assert!(!Agent::from_value(b"/x", AgentValueMatch::LeadingToken).names(b""));
        assert!(!Agent::Star.names(b""));
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
        let groups = vec![
            group(1, &["a"], vec![]),
            group(3, &["*"], vec![]),
            group(5, &["b", "A"], vec![]),
        ];
        assert_eq!(applicable(&groups, b"a"), vec![0, 2]);
        assert_eq!(applicable(&groups, b"B"), vec![2]);
        assert_eq!(applicable(&groups, b"c"), vec![1]);
        let no_star = vec![group(1, &["a"], vec![])];
        assert!(applicable(&no_star, b"c").is_empty());
    }

    #[test]
    fn longest_wins_tie_allows() {
        let groups = vec![group(
            1,
            &["*"],
            vec![
                rule(2, RuleKind::Disallow, "/a"),
                rule(3, RuleKind::Allow, "/a/b"),
                rule(4, RuleKind::Disallow, "/a/b/c"),
                rule(5, RuleKind::Disallow, "/x"),
                rule(6, RuleKind::Allow, "/x"),
                rule(7, RuleKind::Allow, "/x"),
            ],
        )];
        let best = |p: &str| best_rule(&groups, &[0], p.as_bytes()).map(|r| r.line);
        assert_eq!(best("/a"), Some(2));
        assert_eq!(best("/a/b"), Some(3));
        assert_eq!(best("/a/b/c/d"), Some(4));
        assert_eq!(best("/x"), Some(6));
        assert_eq!(best("/z"), None);
    }
}
