//! The result of a check: allowed or not, and why.

use crate::access::AccessReason;

/// Whether a rule allows or disallows (RFC 9309 §2.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// An `allow` line.
    Allow,
    /// A `disallow` line.
    Disallow,
}

/// The rule that decided a [`Verdict`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MatchedRule {
    /// The rule's 1-based line number.
    pub line: usize,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The pattern as written in the file (trimmed, comment removed; lossy
    /// UTF-8), before normalization.
    pub pattern: String,
}

/// Why a [`Verdict`] came out as it did.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The path is exactly `/robots.txt`, which is implicitly allowed
    /// (RFC 9309 §2.2.2, requirement `2.2.2-ROBOTS-TXT`).
    RobotsTxtPath,
    /// No group names the product token and there is no `*` group: no rules
    /// apply, everything is allowed (RFC 9309 §2.2.1, `2.2.1-NO-GROUP`).
    NoGroup,
    /// Groups applied, but none of their rules matched (or they have no
    /// rules): allowed (RFC 9309 §2.2.2, `2.2.2-NO-MATCH`).
    NoMatchingRule {
        /// The groups applied, each as the 1-based line of its first
        /// user-agent line, in file order.
        groups: Vec<usize>,
    },
    /// The most specific matching rule decided (RFC 9309 §2.2.2).
    Rule {
        /// The deciding rule.
        rule: MatchedRule,
        /// The groups applied, as in [`Reason::NoMatchingRule`].
        groups: Vec<usize>,
    },
    /// The access method decided without any rules (RFC 9309 §2.3.1, §2.4);
    /// see [`crate::access`].
    Access(AccessReason),
}

/// The answer to "may this crawler fetch this URL?".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Verdict {
    allowed: bool,
    reason: Reason,
}

impl Verdict {
    pub(crate) fn new(allowed: bool, reason: Reason) -> Verdict {
        Verdict { allowed, reason }
    }

    /// The verdict of the `groups` that applied (RFC 9309 §2.2.1) given their best
    /// matching `rule`, if any (§2.2.2): the rule decides; without one, allowed.
    pub(crate) fn of_groups(rule: Option<MatchedRule>, groups: Vec<usize>) -> Verdict {
        match rule {
            Some(rule) => Verdict::new(rule.kind == RuleKind::Allow, Reason::Rule { rule, groups }),
            None => Verdict::new(true, Reason::NoMatchingRule { groups }),
        }
    }

    /// Whether the URL may be crawled.
    pub fn is_allowed(&self) -> bool {
        self.allowed
    }

    /// Why.
    pub fn reason(&self) -> &Reason {
        &self.reason
    }

    /// The 1-based line of the deciding rule, if a rule decided.
    pub fn line(&self) -> Option<usize> {
        match &self.reason {
            Reason::Rule { rule, .. } => Some(rule.line),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors() {
        let v = Verdict::new(
            false,
            Reason::Rule {
                rule: MatchedRule {
                    line: 4,
                    kind: RuleKind::Disallow,
                    pattern: "/x".into(),
                },
                groups: vec![1],
            },
        );
        assert!(!v.is_allowed());
        assert_eq!(v.line(), Some(4));
        assert!(matches!(v.reason(), Reason::Rule { groups, .. } if groups == &[1]));
        let v = Verdict::new(true, Reason::NoGroup);
        assert!(v.is_allowed());
        assert_eq!(v.line(), None);
    }
}
