//! Lints of records other than rules (RFC 9309 §2.2.4) and of the file's size (§2.5).

use super::{
    finding, Finding, CRAWL_DELAY, HOST, NOINDEX, SITEMAP_URL, SIZE_NEAR_LIMIT, SIZE_OVER_LIMIT,
};
use reptest_reference::syntax::records as lines;
use reptest_reference::MIN_PARSE_LIMIT;

/// `size-over-limit` past 500 KiB, `size-near-limit` past 90 % of it.
pub(super) fn size(body: &[u8]) -> Vec<Finding> {
    let kib = |n: usize| format!("{:.1} KiB", n as f64 / 1024.0);
    if body.len() > MIN_PARSE_LIMIT {
        let line = body[..MIN_PARSE_LIMIT]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        vec![finding(
            SIZE_OVER_LIMIT,
            Some(line),
            format!(
                "the file is {} (limit 500 KiB); rules from line {line} on may be ignored",
                kib(body.len())
            ),
        )]
    } else if body.len() > MIN_PARSE_LIMIT / 10 * 9 {
        vec![finding(
            SIZE_NEAR_LIMIT,
            None,
            format!(
                "the file is {}, close to the 500 KiB parse limit",
                kib(body.len())
            ),
        )]
    } else {
        Vec::new()
    }
}

/// Crawl-delay, Noindex and Host records, and Sitemap records whose value is not an
/// absolute http(s) URL.
pub(super) fn records(body: &[u8]) -> Vec<Finding> {
    let mut out = Vec::new();
    for record in lines(body) {
        if record.colon().is_none() {
            continue;
        }
        let line = record.line().number();
        let key = String::from_utf8_lossy(record.key())
            .trim()
            .to_ascii_lowercase();
        let value = String::from_utf8_lossy(record.value()).into_owned();
        let (id, message) = match key.as_str() {
            "crawl-delay" => (CRAWL_DELAY, format!("`Crawl-delay: {value}` is ignored by Googlebot (Bing and Yandex read it); set Google's rate in Search Console")),
            "noindex" => (NOINDEX, format!("`Noindex: {value}` is read by no major crawler: the pages stay indexable")),
            "host" => (HOST, format!("`Host: {value}` is ignored by every major crawler; redirect to the preferred host instead")),
            "sitemap" | "site-map" => match sitemap_problem(&value) {
                Some(problem) => (SITEMAP_URL, format!("`Sitemap: {value}` {problem}: write the complete URL, as https://example.com/sitemap.xml")),
                None => continue,
            },
            _ => continue,
        };
        out.push(finding(id, Some(line), message));
    }
    out
}

/// What is wrong with a Sitemap value, if anything.
fn sitemap_problem(value: &str) -> Option<&'static str> {
    let lower = value.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    match rest {
        _ if value.is_empty() => Some("is empty"),
        None if lower.contains("://") => Some("is not an http(s) URL"),
        None => Some("is a relative URL"),
        Some(_) if value.chars().any(|c| c.is_whitespace() || c.is_control()) => {
            Some("is not a URL (it holds white space or control characters)")
        }
        Some(rest) if rest.is_empty() || rest.starts_with('/') => Some("has no host"),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(body: &[u8]) -> Vec<&'static str> {
        records(body).iter().map(|f| f.id).collect()
    }

    #[test]
    fn crawl_delay_is_named() {
        assert_eq!(ids(b"User-agent: *\nCrawl-delay: 10\n"), [CRAWL_DELAY]);
    }

    #[test]
    fn noindex_is_named() {
        assert_eq!(ids(b"User-agent: *\nNoindex: /drafts/\n"), [NOINDEX]);
    }

    #[test]
    fn host_is_named() {
        assert_eq!(ids(b"Host: www.example.com\n"), [HOST]);
    }

    #[test]
    fn relative_and_broken_sitemaps_are_named_absolute_ones_are_not() {
        assert_eq!(ids(b"Sitemap: /sitemap.xml\n"), [SITEMAP_URL]);
        assert_eq!(ids(b"Sitemap: ftp://x/s.xml\n"), [SITEMAP_URL]);
        assert_eq!(ids(b"Sitemap: https:///s.xml\n"), [SITEMAP_URL]);
        assert_eq!(ids(b"Sitemap: https://x.org/a b.xml\n"), [SITEMAP_URL]);
        assert!(ids(b"Sitemap: https://example.com/sitemap.xml\n").is_empty());
    }

    #[test]
    fn sizes_near_and_past_the_limit_are_named() {
        assert!(size(&vec![b'#'; 400 * 1024]).is_empty());
        assert_eq!(size(&vec![b'#'; 470 * 1024])[0].id, SIZE_NEAR_LIMIT);
        let mut big = b"User-agent: *\n".repeat(40_000);
        big.truncate(600 * 1024);
        let over = size(&big);
        assert_eq!(over[0].id, SIZE_OVER_LIMIT);
        assert_eq!(over[0].line, Some(512_000 / 14 + 1));
    }
}
