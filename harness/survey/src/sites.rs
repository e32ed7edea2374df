//! Site-level answers: for each named crawler, whether a file restricts it fully,
//! partially or not at all, in the manner of the studies of AI-crawler consent.
//!
//! A file's *class* for a crawler, under one implementation, comes from that
//! implementation's answers to the file's *site queries* for the crawler:
//!
//! * **fully restricted**: `/` is disallowed;
//! * **partially restricted**: `/` is allowed, and some path that a `Disallow` rule
//!   names (the rule's shortest match: the pattern up to its first `$` without its `*`s)
//!   is disallowed;
//! * **unrestricted**: `/` and every such path are allowed.
//!
//! The rules asked about are the `Disallow` rules of the groups whose user-agent line
//! names the crawler's product token (compared without regard to case, RFC 9309
//! §2.2.1), then those of the `*` groups, at most [`RULES_PER_CRAWLER`] distinct paths:
//! the rules a crawler obeys under the RFC, and the ones an implementation that falls
//! back to `*` wrongly would apply. An implementation without a verdict on `/`, or on a
//! rule path where none is disallowed, gives the file no class (missing).
//!
//! The site queries are asked beside the derived ones, in the same case input, but are
//! counted only here: the query tables stay those of the derived queries.

use crate::queries::scan::{scan, Scan};
use crate::queries::{agent_of, shortest_match_url, AgentClass};
use crate::SurveyQuery;

/// The crawlers whose site-level class is given, in the reports' order: AI crawlers,
/// then search crawlers.
pub const SITE_CRAWLERS: [&str; 12] = [
    "GPTBot",
    "OAI-SearchBot",
    "ClaudeBot",
    "CCBot",
    "Google-Extended",
    "PerplexityBot",
    "Bytespider",
    "Applebot-Extended",
    "meta-externalagent",
    "Amazonbot",
    "Googlebot",
    "Bingbot",
];

/// At most this many rule paths are asked about per crawler, besides `/`.
pub const RULES_PER_CRAWLER: usize = 2;

/// The origin of a site query.
pub const SITE_ORIGIN: &str = "site";

/// A file's class for one crawler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SiteClass {
    /// `/` is disallowed.
    Full,
    /// `/` is allowed, some rule path is disallowed.
    Partial,
    /// Nothing asked about is disallowed.
    Unrestricted,
}

impl SiteClass {
    /// The classes, in the reports' order (the index of each in the tallies' arrays).
    pub const ALL: [SiteClass; 3] = [SiteClass::Full, SiteClass::Partial, SiteClass::Unrestricted];

    /// `fully restricted`, `partially restricted` or `unrestricted`.
    pub fn label(self) -> &'static str {
        match self {
            SiteClass::Full => "fully restricted",
            SiteClass::Partial => "partially restricted",
            SiteClass::Unrestricted => "unrestricted",
        }
    }

    /// `full`, `partial` or `none`: the key in `survey.json` and the records.
    pub fn key(self) -> &'static str {
        match self {
            SiteClass::Full => "full",
            SiteClass::Partial => "partial",
            SiteClass::Unrestricted => "none",
        }
    }

    /// The index in [`SiteClass::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The class given by one implementation's verdicts on a crawler's site queries
    /// (`/` first, then the rule paths); `None` when they do not settle it.
    pub fn of(verdicts: &[Option<bool>]) -> Option<SiteClass> {
        match verdicts.split_first()? {
            (None, _) => None,
            (Some(false), _) => Some(SiteClass::Full),
            (Some(true), rules) if rules.contains(&Some(false)) => Some(SiteClass::Partial),
            (Some(true), rules) if rules.iter().all(Option::is_some) => {
                Some(SiteClass::Unrestricted)
            }
            _ => None,
        }
    }
}

/// Whether a site crawler is an AI crawler (the headline's crawlers).
pub fn is_ai(crawler: &str) -> bool {
    AgentClass::of(crawler) == AgentClass::Ai
}

/// The site queries of `body`: for each of [`SITE_CRAWLERS`], `/` then its rule paths.
/// `ranges[c]` is where crawler `c`'s queries are in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteQueries {
    /// The queries, crawler after crawler.
    pub queries: Vec<SurveyQuery>,
    /// Crawler `c`'s queries: `queries[ranges[c].clone()]`.
    pub ranges: Vec<std::ops::Range<usize>>,
}

impl SiteQueries {
    /// The site queries of `body` for [`SITE_CRAWLERS`].
    pub fn of(body: &[u8]) -> SiteQueries {
        SiteQueries::of_scan(&scan(body))
    }

    /// The site queries of `body` for any list of product tokens (`reptest policy
    /// --audit` asks them for its catalogue of crawlers): `ranges[c]` is `crawlers[c]`'s.
    pub fn for_crawlers(body: &[u8], crawlers: &[&str]) -> SiteQueries {
        SiteQueries::of_scan_for(&scan(body), crawlers)
    }

    /// The site queries of a scanned body for [`SITE_CRAWLERS`].
    pub(crate) fn of_scan(scanned: &Scan<'_>) -> SiteQueries {
        SiteQueries::of_scan_for(scanned, &SITE_CRAWLERS)
    }

    /// The site queries of a scanned body for `crawlers`.
    fn of_scan_for(scanned: &Scan<'_>, crawlers: &[&str]) -> SiteQueries {
        let mut queries = Vec::new();
        let mut ranges = Vec::with_capacity(crawlers.len());
        for crawler in crawlers {
            let start = queries.len();
            queries.extend(
                rule_urls(scanned, crawler)
                    .into_iter()
                    .map(|url| SurveyQuery {
                        agent: crawler.to_string(),
                        url,
                        origin: SITE_ORIGIN,
                    }),
            );
            ranges.push(start..queries.len());
        }
        SiteQueries { queries, ranges }
    }
}

/// `/`, then the shortest matches of the `Disallow` rules of the groups naming
/// `crawler`, then of the `*` groups: at most [`RULES_PER_CRAWLER`] distinct rule paths.
fn rule_urls(scanned: &Scan<'_>, crawler: &str) -> Vec<String> {
    let mut urls = vec!["/".to_string()];
    for own_groups in [true, false] {
        for rule in scanned.rules.iter().filter(|r| r.disallow) {
            if urls.len() > RULES_PER_CRAWLER {
                break;
            }
            let Some(group) = rule.group.map(|g| &scanned.groups[g]) else {
                continue;
            };
            let wanted = if own_groups {
                names(group, crawler)
            } else {
                group.iter().any(|v| *v == b"*")
            };
            if !wanted {
                continue;
            }
            let url = shortest_match_url(rule.pattern);
            if !urls.contains(&url) {
                urls.push(url);
            }
        }
    }
    urls
}

/// Whether a group's user-agent values name `crawler`'s product token.
fn names(group: &[&[u8]], crawler: &str) -> bool {
    group
        .iter()
        .any(|v| agent_of(v).is_some_and(|a| a.eq_ignore_ascii_case(crawler)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_name_own_rules_then_stars() {
        let body = b"User-agent: gptbot\nDisallow: /a*b$\nAllow: /c\n\nUser-agent: *\nDisallow: /x\nDisallow: /a\n";
        let site = SiteQueries::of(body);
        let gpt: Vec<&str> = site.queries[site.ranges[0].clone()]
            .iter()
            .map(|q| q.url.as_str())
            .collect();
        assert_eq!(gpt, ["/", "/ab", "/x"]);
        let bing = &site.queries[site.ranges[11].clone()];
        assert_eq!(bing[0].agent, "Bingbot");
        assert_eq!(bing.len(), 3);
    }

    #[test]
    fn any_crawler_list_is_asked_like_the_survey_list() {
        let body = b"User-agent: Claude-User\nDisallow: /q\n\nUser-agent: *\nDisallow: /x\n";
        let site = SiteQueries::for_crawlers(body, &["Claude-User", "GPTBot"]);
        let urls = |c: usize| -> Vec<&str> {
            site.queries[site.ranges[c].clone()]
                .iter()
                .map(|q| q.url.as_str())
                .collect()
        };
        assert_eq!(urls(0), ["/", "/q", "/x"]);
        assert_eq!(urls(1), ["/", "/x"]);
        assert_eq!(
            SiteQueries::for_crawlers(body, &SITE_CRAWLERS),
            SiteQueries::of(body)
        );
    }

    #[test]
    fn classes_from_verdicts() {
        assert_eq!(SiteClass::of(&[Some(false)]), Some(SiteClass::Full));
        assert_eq!(
            SiteClass::of(&[Some(true), Some(true), Some(false)]),
            Some(SiteClass::Partial)
        );
        assert_eq!(
            SiteClass::of(&[Some(true), Some(true)]),
            Some(SiteClass::Unrestricted)
        );
        assert_eq!(SiteClass::of(&[Some(true), None]), None);
        assert_eq!(SiteClass::of(&[None, Some(false)]), None);
        assert_eq!(SiteClass::of(&[]), None);
    }
}
