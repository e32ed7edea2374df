//! Semantic lints of a robots.txt: the mistakes guides for site owners warn about, each
//! with a stable id, a level and the RFC 9309 sentence or crawler documentation behind
//! it ([`LINTS`]). [`lint`] runs them all on a body; `reptest policy --allow ID`
//! silences one.
//!
//! The groups are read as RFC 9309 §2.1 defines them ([`groups`]); whether a rule
//! applies to a crawler is asked of the reference ([`reptest_reference::Robots`]), so
//! group selection (§2.2.1) and the longest match (§2.2.2) are the RFC's.

mod groups;
mod records;
mod rules;
mod verdicts;

pub use groups::{groups, Group, Rule};

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The file does not do what it must (fails `reptest policy`).
    Error,
    /// Very likely a mistake.
    Warning,
    /// Worth knowing; may be intended.
    Note,
}

impl Level {
    /// `error`, `warning` or `note`.
    pub fn word(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// One lint: its stable id, level, what it finds and the sentence behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Lint {
    /// The stable id (`--allow ID`).
    pub id: &'static str,
    /// Its level.
    pub level: Level,
    /// What it finds, in one sentence.
    pub what: &'static str,
    /// The RFC 9309 sentence or crawler documentation behind it, quoted, with where.
    pub source: &'static str,
}

/// A lint's finding in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The lint's id.
    pub id: &'static str,
    /// The lint's level.
    pub level: Level,
    /// The 1-based line it is about, if one.
    pub line: Option<usize>,
    /// What is wrong, naming the lines and crawlers.
    pub message: String,
}

/// The trap-group lint's id.
pub const TRAP_GROUP: &str = "trap-group";
/// The dropped-`*`-rules lint's id.
pub const STAR_RULES_DROPPED: &str = "star-rules-dropped";
/// The render-resources lint's id.
pub const RENDER_BLOCKED: &str = "render-blocked";
/// The Crawl-delay lint's id.
pub const CRAWL_DELAY: &str = "crawl-delay-ignored";
/// The Noindex lint's id.
pub const NOINDEX: &str = "noindex-ignored";
/// The Host lint's id.
pub const HOST: &str = "host-ignored";
/// The Sitemap lint's id.
pub const SITEMAP_URL: &str = "sitemap-url";
/// The shadowed-Allow lint's id.
pub const SHADOWED_ALLOW: &str = "shadowed-allow";
/// The duplicate-rule lint's id.
pub const DUPLICATE_RULE: &str = "duplicate-rule";
/// The whole-site-block lint's id.
pub const WHOLE_SITE_BLOCK: &str = "whole-site-block";
/// The near-the-limit size lint's id.
pub const SIZE_NEAR_LIMIT: &str = "size-near-limit";
/// The past-the-limit size lint's id.
pub const SIZE_OVER_LIMIT: &str = "size-over-limit";

const RFC_GROUP: &str = "RFC 9309 §2.2.1: \"If no matching group exists, crawlers MUST obey the group with a user-agent line with the \"*\" value, if present.\" A crawler named by a group of its own never reads the `*` group.";
const GOOGLE_FIELDS: &str = "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt (Google's reading of robots.txt lists the fields it supports: user-agent, allow, disallow, sitemap); RFC 9309 §2.2.4: \"Crawlers MAY interpret other records that are not part of the robots.txt protocol\"";

/// Every lint, in the order of docs/policy.md.
pub const LINTS: [Lint; 12] = [
    Lint {
        id: TRAP_GROUP,
        level: Level::Warning,
        what: "a group for a named crawler that adds nothing over the `*` group: the crawler reads the same rules today, but no rule added to `*` later will reach it",
        source: RFC_GROUP,
    },
    Lint {
        id: STAR_RULES_DROPPED,
        level: Level::Warning,
        what: "a group for a named crawler that leaves out Disallow rules of the `*` group: the crawler may fetch what every other crawler may not",
        source: RFC_GROUP,
    },
    Lint {
        id: RENDER_BLOCKED,
        level: Level::Warning,
        what: "a Disallow rule that keeps Googlebot or Bingbot from the CSS, JavaScript, images or fonts pages need to render (`/assets/`, `*.css`, `*.js$`)",
        source: "Google Search Central, 2014-10-27, https://developers.google.com/search/blog/2014/10/updating-our-technical-webmaster: \"Disallowing crawling of Javascript or CSS files in your site's robots.txt directly harms how well our algorithms render and index your content and can result in suboptimal rankings.\"",
    },
    Lint {
        id: CRAWL_DELAY,
        level: Level::Note,
        what: "a Crawl-delay record: Googlebot ignores it (Bing and Yandex read it)",
        source: GOOGLE_FIELDS,
    },
    Lint {
        id: NOINDEX,
        level: Level::Warning,
        what: "a Noindex record: no major crawler reads it; pages stay indexable (use a `noindex` robots meta tag or X-Robots-Tag header on a crawlable page)",
        source: "Google Search Central, 2019-07-02, https://developers.google.com/search/blog/2019/07/a-note-on-unsupported-rules-in-robotstxt: Google retired \"all code that handles unsupported and unpublished rules (such as noindex)\" on September 1, 2019",
    },
    Lint {
        id: HOST,
        level: Level::Note,
        what: "a Host record: only Yandex ever read it (and has since dropped it); other crawlers ignore it",
        source: GOOGLE_FIELDS,
    },
    Lint {
        id: SITEMAP_URL,
        level: Level::Warning,
        what: "a Sitemap record whose value is not an absolute http(s) URL: crawlers cannot resolve a relative or broken one",
        source: "https://www.sitemaps.org/protocol.html#submit_robots: \"The <sitemap_location> should be the complete URL to the Sitemap\"; RFC 9309 §2.2.4 names Sitemaps as a record crawlers MAY interpret",
    },
    Lint {
        id: SHADOWED_ALLOW,
        level: Level::Warning,
        what: "an Allow rule that never decides: a longer Disallow rule of the same group matches every path it matches",
        source: "RFC 9309 §2.2.2: \"The most specific match found MUST be used. The most specific match is the match that has the most octets.\"",
    },
    Lint {
        id: DUPLICATE_RULE,
        level: Level::Note,
        what: "the same rule twice in one group: the second changes nothing",
        source: "RFC 9309 §2.2.2: \"Duplicate rules in a group MAY be deduplicated.\"",
    },
    Lint {
        id: WHOLE_SITE_BLOCK,
        level: Level::Note,
        what: "a search crawler may fetch nothing at all (`/` is disallowed for it); it may be intended",
        source: "RFC 9309 §2.2.2: \"The most specific match found MUST be used.\" A `Disallow: /` that decides `/` disallows every path that no longer rule allows.",
    },
    Lint {
        id: SIZE_NEAR_LIMIT,
        level: Level::Warning,
        what: "the file is past 90 % of the 500 KiB that every crawler must parse; rules added at its end may soon be ignored",
        source: "RFC 9309 §2.5: \"The parsing limit MUST be at least 500 kibibytes [KiB].\"",
    },
    Lint {
        id: SIZE_OVER_LIMIT,
        level: Level::Error,
        what: "the file is larger than 500 KiB: a crawler may ignore every rule past that point",
        source: "RFC 9309 §2.5: \"The parsing limit MUST be at least 500 kibibytes [KiB].\"",
    },
];

/// The lint with this id.
pub fn find(id: &str) -> Option<&'static Lint> {
    LINTS.iter().find(|l| l.id == id)
}

/// A finding of lint `id` (its level from [`LINTS`]).
fn finding(id: &'static str, line: Option<usize>, message: String) -> Finding {
    let level = find(id).map_or(Level::Warning, |l| l.level);
    Finding {
        id,
        level,
        line,
        message,
    }
}

/// Every lint's findings on `body`, by line (file-wide ones first). `search_crawlers`
/// are the product tokens the whole-site lint asks about.
pub fn lint(body: &[u8], search_crawlers: &[&str]) -> Vec<Finding> {
    let groups = groups(body);
    let mut out = records::size(body);
    out.extend(records::records(body));
    out.extend(rules::trap_groups(&groups));
    out.extend(rules::shadowed_and_duplicate(&groups));
    let robots = reptest_reference::Robots::parse_with(body, &reptest_reference::Config::rfc9309());
    out.extend(verdicts::star_rules_dropped(&robots, &groups));
    out.extend(verdicts::render_blocked(&robots, &groups));
    out.extend(verdicts::whole_site(&robots, search_crawlers));
    out.sort_by_key(|f| (f.line, f.id));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with one instance of every mistake: each lint must name its own.
    const EVERY_MISTAKE: &[u8] = b"User-agent: *\nDisallow: /assets/\nDisallow: /cart\nAllow: /news/\nDisallow: /news/*\nDisallow: /cart\nCrawl-delay: 4\nNoindex: /drafts/\nHost: example.com\nSitemap: sitemap.xml\n\nUser-agent: GPTBot\nDisallow: /assets/\nDisallow: /cart\nAllow: /news/\nDisallow: /news/*\nDisallow: /cart\n\nUser-agent: Bingbot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /assets/\n";

    #[test]
    fn every_lint_is_run_and_names_its_mistake() {
        let mut body = EVERY_MISTAKE.to_vec();
        body.resize(470 * 1024, b'\n');
        let found: std::collections::BTreeSet<&str> = lint(&body, &["Googlebot", "Bingbot"])
            .iter()
            .map(|f| f.id)
            .collect();
        let mut all: std::collections::BTreeSet<&str> = LINTS.iter().map(|l| l.id).collect();
        all.remove(SIZE_OVER_LIMIT);
        assert_eq!(found, all);
        body.resize(600 * 1024, b'\n');
        assert!(lint(&body, &[])
            .iter()
            .any(|f| f.id == SIZE_OVER_LIMIT && f.level == Level::Error));
    }

    #[test]
    fn ids_are_unique_and_every_lint_cites_its_source() {
        let ids: std::collections::BTreeSet<&str> = LINTS.iter().map(|l| l.id).collect();
        assert_eq!(ids.len(), LINTS.len());
        for l in LINTS {
            assert!(
                l.source.contains("RFC 9309") || l.source.contains("https://"),
                "{}",
                l.id
            );
            assert!(l.source.contains('"'), "{} quotes its source", l.id);
        }
    }

    #[test]
    fn no_input_makes_it_panic() {
        for body in [
            &b""[..],
            b"\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n",
            b"\x00\xff\xfe:\n:\n\r\r",
            b"Disallow: *\n",
        ] {
            let _ = lint(body, &["Googlebot"]);
        }
    }
}
