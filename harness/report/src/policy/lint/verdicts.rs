//! Lints decided by asking the reference (RFC 9309) for a crawler's verdict: render
//! resources blocked for the search crawlers that render pages, and whole-site blocks.

use super::groups::Group;
use super::{finding, Finding, RENDER_BLOCKED, STAR_RULES_DROPPED, WHOLE_SITE_BLOCK};
use reptest_reference::Robots;
use std::collections::BTreeMap;

/// At most this many rules are asked about per lint (each question is a check of the
/// reference, linear in the group's rules): a bound for huge files; the first ones in
/// file order are asked.
const MAX_RULES_ASKED: usize = 100;

/// The search crawlers whose operators document that they render pages.
pub const RENDERING_CRAWLERS: [&str; 2] = ["Googlebot", "Bingbot"];

/// File extensions of what a browser needs to render a page.
const RENDER_EXTENSIONS: [&str; 12] = [
    ".css", ".js", ".mjs", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".woff", ".woff2",
    ".ico",
];

/// Folder names that usually hold them.
const RENDER_FOLDERS: [&str; 13] = [
    "assets",
    "static",
    "css",
    "js",
    "scripts",
    "images",
    "img",
    "fonts",
    "wp-includes",
    "wp-content",
    "_next",
    "dist",
    "build",
];

/// A URL `pattern` matches that is a render resource, if the pattern is about them.
fn render_sample(pattern: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(pattern).ok()?;
    let stem = text.strip_suffix('$').unwrap_or(text).trim_end_matches('*');
    let lower = stem.to_ascii_lowercase();
    let filled = stem.replace('*', "x");
    if RENDER_EXTENSIONS.iter().any(|e| lower.ends_with(e)) {
        return Some(absolute(&filled));
    }
    let folder = lower
        .split('/')
        .any(|segment| RENDER_FOLDERS.contains(&segment));
    if folder && !text.ends_with('$') {
        let sep = if filled.ends_with('/') { "" } else { "/" };
        return Some(absolute(&format!("{filled}{sep}app.css")));
    }
    None
}

/// A path as a URL of the placeholder origin.
fn absolute(path: &str) -> String {
    let slash = if path.starts_with('/') { "" } else { "/" };
    format!("{}{slash}{path}", reptest_core::url::DEFAULT_ORIGIN)
}

/// `render-blocked`: each Disallow rule about render resources that decides, for one
/// of [`RENDERING_CRAWLERS`], a URL of the kind it names.
pub(super) fn render_blocked(robots: &Robots, groups: &[Group]) -> Vec<Finding> {
    let mut out = Vec::new();
    let render_rules = groups
        .iter()
        .flat_map(|g| &g.rules)
        .filter(|r| !r.allow)
        .filter_map(|r| Some((r, render_sample(&r.pattern)?)))
        .take(MAX_RULES_ASKED);
    for (rule, url) in render_rules {
        let blocked: Vec<&str> = RENDERING_CRAWLERS
            .into_iter()
            .filter(|c| {
                let v = robots.check(c, &url);
                !v.is_allowed() && v.line() == Some(rule.line)
            })
            .collect();
        if !blocked.is_empty() {
            out.push(finding(
                RENDER_BLOCKED,
                Some(rule.line),
                format!(
                    "`Disallow: {}` (line {}) keeps {} from {url}: pages that need it render incomplete for search",
                    String::from_utf8_lossy(&rule.pattern),
                    rule.line,
                    blocked.join(" and ")
                ),
            ));
        }
    }
    out
}

/// The product token of a crawler no group names: it reads the `*` group.
const ANY_CRAWLER: &str = "reptest-any-crawler";

/// A URL a rule's pattern matches: the pattern up to its first `$`, without its `*`s.
fn shortest_match(pattern: &[u8]) -> String {
    let text = String::from_utf8_lossy(pattern);
    let stem = text.split('$').next().unwrap_or_default();
    absolute(&stem.replace('*', ""))
}

/// `star-rules-dropped`: for each agent a group names, the `*` group's Disallow rules
/// that decide a URL for a crawler no group names but not for that agent.
pub(super) fn star_rules_dropped(robots: &Robots, groups: &[Group]) -> Vec<Finding> {
    if groups.iter().all(Group::is_star) {
        return Vec::new();
    }
    let star: Vec<(&[u8], usize, String)> = groups
        .iter()
        .filter(|g| g.is_star())
        .flat_map(|g| &g.rules)
        .filter(|r| !r.allow && !r.pattern.is_empty())
        .take(MAX_RULES_ASKED)
        .map(|r| (r.pattern.as_slice(), r.line, shortest_match(&r.pattern)))
        .filter(|(_, line, url)| robots.check(ANY_CRAWLER, url).line() == Some(*line))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (agent, line) in groups
        .iter()
        .filter(|g| !g.is_star())
        .flat_map(|g| &g.agents)
    {
        if star.is_empty() || !seen.insert(agent.to_ascii_lowercase()) {
            continue;
        }
        let dropped: Vec<String> = star
            .iter()
            .filter(|(_, _, url)| robots.check(agent, url).is_allowed())
            .map(|(p, l, _)| format!("`Disallow: {}` (line {l})", String::from_utf8_lossy(p)))
            .collect();
        if dropped.is_empty() {
            continue;
        }
        let shown = dropped
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = dropped.len().saturating_sub(3);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out.push(finding(
            STAR_RULES_DROPPED,
            Some(*line),
            format!(
                "`{agent}` has its own group (line {line}), so the `*` group's {shown}{more} no longer apply to it: it may fetch what other crawlers may not (RFC 9309 §2.2.1); repeat the rules it needs in its group"
            ),
        ));
    }
    out
}

/// `whole-site-block`: the search crawlers for which `/` is disallowed, by deciding line.
pub(super) fn whole_site(robots: &Robots, search_crawlers: &[&str]) -> Vec<Finding> {
    let root = absolute("/");
    let mut by_line: BTreeMap<Option<usize>, Vec<&str>> = BTreeMap::new();
    for crawler in search_crawlers {
        let v = robots.check(crawler, &root);
        if !v.is_allowed() {
            by_line.entry(v.line()).or_default().push(crawler);
        }
    }
    by_line
        .into_iter()
        .map(|(line, crawlers)| {
            let at = line.map_or(String::new(), |l| format!(" (line {l})"));
            finding(
                WHOLE_SITE_BLOCK,
                line,
                format!(
                    "{} may crawl nothing on this site: `/` is disallowed{at}; if that is not meant, the site disappears from their search results",
                    crawlers.join(", ")
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::groups::groups;
    use super::*;
    use reptest_reference::Config;

    fn render(body: &[u8]) -> Vec<Option<usize>> {
        let robots = Robots::parse_with(body, &Config::rfc9309());
        render_blocked(&robots, &groups(body))
            .iter()
            .map(|f| f.line)
            .collect()
    }

    #[test]
    fn render_resources_blocked_for_search_are_named() {
        let body = b"User-agent: *\nDisallow: /assets/\nDisallow: /*.js$\nDisallow: /admin/\nDisallow: /*.css\n";
        assert_eq!(render(body), [Some(2), Some(3), Some(5)]);
    }

    #[test]
    fn rules_that_do_not_reach_the_search_crawlers_are_not() {
        // Googlebot and Bingbot have their own group: the `*` group's rules miss them.
        let body = b"User-agent: *\nDisallow: /static/\n\nUser-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /admin/\n";
        assert!(render(body).is_empty());
        // An Allow that is longer wins for the sample.
        let allowed = b"User-agent: *\nDisallow: /static/\nAllow: /static/app.css\n";
        assert!(render(allowed).is_empty());
    }

    #[test]
    fn a_named_group_that_leaves_out_star_rules_is_named() {
        let body = b"User-agent: *\nDisallow: /checkout/\nDisallow: /static/\n\nUser-agent: Googlebot\nDisallow: /static/\n\nUser-agent: Bingbot\nDisallow: /\n";
        let robots = Robots::parse_with(body, &Config::rfc9309());
        let found = star_rules_dropped(&robots, &groups(body));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].line, Some(5));
        assert!(found[0].message.contains("`Disallow: /checkout/` (line 2)"));
        assert!(!found[0].message.contains("/static/"));
    }

    #[test]
    fn whole_site_blocks_for_search_crawlers_are_named() {
        let body = b"User-agent: *\nDisallow: /\n\nUser-agent: Bingbot\nAllow: /\n";
        let robots = Robots::parse_with(body, &Config::rfc9309());
        let found = whole_site(&robots, &["Googlebot", "Bingbot", "DuckDuckBot"]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, Some(2));
        assert!(found[0]
            .message
            .starts_with("Googlebot, DuckDuckBot may crawl nothing"));
    }
}
