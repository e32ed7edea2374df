//! Lints of the rules themselves: groups that add nothing over `*` (RFC 9309 §2.2.1),
//! Allow rules no path can reach and duplicate rules (§2.2.2).

use super::groups::{Group, Rule};
use super::{finding, Finding, DUPLICATE_RULE, SHADOWED_ALLOW, TRAP_GROUP};
use std::collections::{BTreeMap, BTreeSet};

/// Groups with more rules than this are not searched for shadowed Allow rules (a pair
/// of rules is compared at a time): a bound for huge files.
const MAX_RULES_COMPARED: usize = 2_000;

/// A group's rules as a set that means the same (RFC 9309 §2.2.2): rules with an empty
/// pattern match nothing and are left out, and so is an `Allow` of every path (`/`,
/// `*`, `/*`) that no `Disallow` of at most its length could tie or beat.
fn meaning(rules: &[&Rule]) -> BTreeSet<(bool, Vec<u8>)> {
    let shortest_disallow = rules
        .iter()
        .filter(|r| !r.allow && !r.pattern.is_empty())
        .map(|r| r.pattern.len())
        .min();
    rules
        .iter()
        .filter(|r| !r.pattern.is_empty())
        .filter(|r| {
            let everything = matches!(r.pattern.as_slice(), b"/" | b"*" | b"/*");
            !(r.allow && everything && shortest_disallow.is_none_or(|d| d > r.pattern.len()))
        })
        .map(|r| (r.allow, r.pattern.clone()))
        .collect()
}

/// Each named agent's rules, merged over the groups that name it (compared without
/// regard to case, §2.2.1), with the agent as first written and the line of its first
/// user-agent line; and the `*` groups' rules, if there is a `*` group.
type Merged<'a> = (
    BTreeMap<String, (&'a str, usize, Vec<&'a Rule>)>,
    Option<Vec<&'a Rule>>,
);

fn merged(groups: &[Group]) -> Merged<'_> {
    let mut agents: BTreeMap<String, (&str, usize, Vec<&Rule>)> = BTreeMap::new();
    let mut star: Option<Vec<&Rule>> = None;
    for g in groups {
        for (agent, line) in &g.agents {
            if agent == "*" {
                star.get_or_insert_with(Vec::new).extend(&g.rules);
            } else {
                let entry = agents.entry(agent.to_ascii_lowercase()).or_insert((
                    agent.as_str(),
                    *line,
                    Vec::new(),
                ));
                entry.2.extend(&g.rules);
            }
        }
    }
    (agents, star)
}

/// `trap-group`: a named agent whose rules mean what the `*` group's mean (or, with no
/// `*` group, nothing at all): it reads the same today, but only its own group from now
/// on (RFC 9309 §2.2.1).
pub(super) fn trap_groups(groups: &[Group]) -> Vec<Finding> {
    let (agents, star) = merged(groups);
    let star_meaning = star.as_deref().map(meaning);
    let mut out = Vec::new();
    let mut by_line: Vec<_> = agents.into_values().collect();
    by_line.sort_by_key(|(_, line, _)| *line);
    for (agent, line, rules) in by_line {
        let own = meaning(&rules);
        let message = match &star_meaning {
            Some(star_rules) if *star_rules == own => format!(
                "the group for `{agent}` (line {line}) repeats what the `*` group says; `{agent}` now reads only its own group (RFC 9309 §2.2.1), so a rule added to `*` later will not reach it: drop the group, or mean it"
            ),
            None if own.is_empty() => format!(
                "the group for `{agent}` (line {line}) allows everything, as no group at all would; a `*` group added later will not reach `{agent}` (RFC 9309 §2.2.1): drop the group, or mean it"
            ),
            _ => continue,
        };
        out.push(finding(TRAP_GROUP, Some(line), message));
    }
    out
}

/// Whether `pattern` (`*` matches any octets; no `$`) matches some prefix of `path`
/// (RFC 9309 §2.2.3). Linear in both lengths times the number of `*`s, at worst.
fn matches_prefix(pattern: &[u8], path: &[u8]) -> bool {
    let pieces: Vec<&[u8]> = pattern.split(|b| *b == b'*').collect();
    let Some((first, rest)) = pieces.split_first() else {
        return true;
    };
    if !path.starts_with(first) {
        return false;
    }
    let mut at = first.len();
    for piece in rest {
        match path[at..]
            .windows(piece.len().max(1))
            .position(|w| w.starts_with(piece))
        {
            Some(i) if !piece.is_empty() => at += i + piece.len(),
            _ if piece.is_empty() => {}
            _ => return false,
        }
    }
    true
}

/// The Disallow rule of `group`, longer than `allow`, that matches every path `allow`
/// matches, if any: `allow` is literal (no `*`), the Disallow has no `$`, and without
/// its trailing `*`s it matches a prefix of `allow`'s path.
fn shadowing<'a>(allow: &Rule, group: &'a Group) -> Option<&'a Rule> {
    let path = allow.pattern.strip_suffix(b"$").unwrap_or(&allow.pattern);
    if path.contains(&b'*') || path.contains(&b'$') || allow.pattern.is_empty() {
        return None;
    }
    group.rules.iter().find(|d| {
        let stem = trim_stars(&d.pattern);
        !d.allow
            && d.pattern.len() > allow.pattern.len()
            && !d.pattern.contains(&b'$')
            && matches_prefix(stem, path)
    })
}

/// A pattern without its trailing `*`s.
fn trim_stars(pattern: &[u8]) -> &[u8] {
    let end = pattern
        .iter()
        .rposition(|b| *b != b'*')
        .map_or(0, |i| i + 1);
    &pattern[..end]
}

/// `shadowed-allow` and `duplicate-rule`, group by group.
pub(super) fn shadowed_and_duplicate(groups: &[Group]) -> Vec<Finding> {
    let mut out = Vec::new();
    for group in groups {
        let mut seen: BTreeMap<(bool, &[u8]), usize> = BTreeMap::new();
        for rule in &group.rules {
            let key = (rule.allow, rule.pattern.as_slice());
            if let Some(first) = seen.get(&key) {
                out.push(finding(
                    DUPLICATE_RULE,
                    Some(rule.line),
                    format!("line {} repeats line {first} in the same group", rule.line),
                ));
            } else {
                seen.insert(key, rule.line);
            }
        }
        if group.rules.len() > MAX_RULES_COMPARED {
            continue;
        }
        for allow in group.rules.iter().filter(|r| r.allow) {
            if let Some(d) = shadowing(allow, group) {
                out.push(finding(
                    SHADOWED_ALLOW,
                    Some(allow.line),
                    format!(
                        "`Allow: {}` (line {}) never decides: the longer `Disallow: {}` (line {}) matches every path it matches, and the longest match wins (RFC 9309 §2.2.2)",
                        String::from_utf8_lossy(&allow.pattern),
                        allow.line,
                        String::from_utf8_lossy(&d.pattern),
                        d.line
                    ),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::groups::groups;
    use super::*;

    fn ids(found: Vec<Finding>) -> Vec<(&'static str, Option<usize>)> {
        found.iter().map(|f| (f.id, f.line)).collect()
    }

    #[test]
    fn a_group_repeating_the_star_group_is_a_trap() {
        let body = b"User-agent: *\nDisallow: /cart\n\nUser-agent: GPTBot\nDisallow: /cart\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /cart\nDisallow: /search\n";
        assert_eq!(ids(trap_groups(&groups(body))), [(TRAP_GROUP, Some(4))]);
    }

    #[test]
    fn allow_everything_groups_without_a_star_group_are_traps() {
        let body = b"User-agent: ClaudeBot\nAllow: /\n\nUser-agent: Bingbot\nDisallow: /tmp\n";
        assert_eq!(ids(trap_groups(&groups(body))), [(TRAP_GROUP, Some(1))]);
    }

    #[test]
    fn an_allow_that_breaks_a_tie_is_not_dropped() {
        // `Allow: /` ties `Disallow: /` and wins (§2.2.2): the group means something.
        let body = b"User-agent: *\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\nAllow: /\n";
        assert!(trap_groups(&groups(body)).is_empty());
    }

    #[test]
    fn a_longer_disallow_shadows_an_allow() {
        let body = b"User-agent: *\nAllow: /shop/\nDisallow: /shop/*\nAllow: /blog\nDisallow: /blog$\nAllow: /news\nDisallow: /new\n";
        assert_eq!(
            ids(shadowed_and_duplicate(&groups(body))),
            [(SHADOWED_ALLOW, Some(2))]
        );
    }

    #[test]
    fn a_rule_twice_in_a_group_is_a_duplicate() {
        let body = b"User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /a\nAllow: /a\n";
        assert_eq!(
            ids(shadowed_and_duplicate(&groups(body))),
            [(DUPLICATE_RULE, Some(4))]
        );
    }

    #[test]
    fn prefix_matching_with_stars() {
        assert!(matches_prefix(b"/shop/", b"/shop/"));
        assert!(matches_prefix(b"/*p/", b"/shop/x"));
        assert!(!matches_prefix(b"/*q", b"/shop/"));
        assert!(matches_prefix(b"", b"/"));
        assert!(!matches_prefix(b"/shop/x", b"/shop/"));
    }
}
