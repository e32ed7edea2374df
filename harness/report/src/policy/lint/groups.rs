//! The groups of a robots.txt as RFC 9309 §2.1 defines them: one or more user-agent
//! lines, then rules, up to the next user-agent line that follows a rule. Other records
//! do not end a group (§2.2.4). Rules before any user-agent line belong to no group.

use reptest_reference::syntax::{records, Key};

/// One `allow` or `disallow` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// `allow`, not `disallow`.
    pub allow: bool,
    /// The pattern, trimmed, comment removed.
    pub pattern: Vec<u8>,
    /// The 1-based line.
    pub line: usize,
}

/// One group.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Group {
    /// Its user-agent values as written, with their lines.
    pub agents: Vec<(String, usize)>,
    /// Its rules, in file order.
    pub rules: Vec<Rule>,
}

impl Group {
    /// The line of its first user-agent line.
    pub fn line(&self) -> usize {
        self.agents.first().map_or(0, |a| a.1)
    }

    /// Whether one of its user-agent lines is `*`.
    pub fn is_star(&self) -> bool {
        self.agents.iter().any(|(a, _)| a == "*")
    }
}

/// The groups of `body`, in file order.
pub fn groups(body: &[u8]) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    let mut after_rule = true;
    for record in records(body) {
        if record.colon().is_none() {
            continue;
        }
        let line = record.line().number();
        match record.key_kind() {
            Some(Key::UserAgent) => {
                if after_rule {
                    out.push(Group::default());
                    after_rule = false;
                }
                let value = String::from_utf8_lossy(record.value()).into_owned();
                if let Some(group) = out.last_mut() {
                    group.agents.push((value, line));
                }
            }
            Some(kind @ (Key::Allow | Key::Disallow)) => {
                after_rule = true;
                if let Some(group) = out.last_mut() {
                    group.rules.push(Rule {
                        allow: kind == Key::Allow,
                        pattern: record.value().to_vec(),
                        line,
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
    fn groups_end_at_a_user_agent_after_a_rule_and_not_at_other_records() {
        let body = b"Disallow: /orphan\nUser-agent: A\nUser-agent: b\nSitemap: https://x/s\nDisallow: /x\nCrawl-delay: 3\nAllow: /y\nUser-agent: *\nDisallow:\n";
        let g = groups(body);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].agents, [("A".to_string(), 2), ("b".to_string(), 3)]);
        assert_eq!(g[0].rules.len(), 2);
        assert_eq!(g[0].rules[1].line, 7);
        assert!(g[1].is_star() && g[1].rules[0].pattern.is_empty());
    }
}
