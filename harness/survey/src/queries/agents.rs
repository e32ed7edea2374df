//! The agents that queries are made for: a fixed set, and the file's own.

use reptest_reference::syntax::is_product_token;

/// Generic product tokens that no real file names, so they fall to the `*` group
/// (RFC 9309 §2.2.1): the agents of queries about a file's `*` rules.
pub const GENERIC_AGENTS: [&str; 2] = ["examplebot", "somebot"];

/// The crawlers that sites name most in their robots.txt files: search engines, AI
/// crawlers, archivers and SEO tools.
pub const CRAWLER_AGENTS: [&str; 18] = [
    "Googlebot",
    "Bingbot",
    "GPTBot",
    "ClaudeBot",
    "CCBot",
    "Google-Extended",
    "Applebot",
    "Baiduspider",
    "YandexBot",
    "DuckDuckBot",
    "facebookexternalhit",
    "Twitterbot",
    "ia_archiver",
    "AhrefsBot",
    "SemrushBot",
    "PerplexityBot",
    "Bytespider",
    "Amazonbot",
];

/// At most this many agents are taken from one file's user-agent lines (the first ones,
/// in file order).
pub const MAX_FILE_AGENTS: usize = 64;

/// The agent a user-agent value gives for queries: the value itself when it is a product
/// token; otherwise its leading product token (`Googlebot-Image/1.0` gives
/// `Googlebot-Image`, `Mozilla/5.0 (compatible; X)` gives `Mozilla`), where
/// implementations that compare the whole value and those that compare the leading token
/// disagree. `None` for `*` and for a value that does not start with a token character.
pub(crate) fn agent_of(value: &[u8]) -> Option<&str> {
    let end = value
        .iter()
        .position(|&b| !(b.is_ascii_alphabetic() || b == b'-' || b == b'_'))
        .unwrap_or(value.len());
    let token = &value[..end];
    // Only ASCII letters, '-' and '_': always UTF-8.
    std::str::from_utf8(token)
        .ok()
        .filter(|t| is_product_token(t.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_of_values() {
        assert_eq!(agent_of(b"Googlebot"), Some("Googlebot"));
        assert_eq!(agent_of(b"Googlebot-Image/1.0"), Some("Googlebot-Image"));
        assert_eq!(agent_of(b"Mozilla/5.0 (compatible; X)"), Some("Mozilla"));
        assert_eq!(agent_of(b"*"), None);
        assert_eq!(agent_of(b"*bot"), None);
        assert_eq!(agent_of(b""), None);
        assert_eq!(agent_of(b"\xff"), None);
        assert!(GENERIC_AGENTS
            .iter()
            .chain(&CRAWLER_AGENTS)
            .all(|a| is_product_token(a.as_bytes())));
    }
}
