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

/// The product tokens of AI crawlers and AI fetchers: training crawlers, AI search
/// indexers and user-initiated fetchers, as their operators name them (compared without
/// regard to case).
pub const AI_AGENTS: [&str; 24] = [
    "GPTBot",
    "OAI-SearchBot",
    "ChatGPT-User",
    "ClaudeBot",
    "Claude-User",
    "Claude-SearchBot",
    "Claude-Web",
    "anthropic-ai",
    "CCBot",
    "Google-Extended",
    "GoogleOther",
    "PerplexityBot",
    "Perplexity-User",
    "Bytespider",
    "Applebot-Extended",
    "meta-externalagent",
    "meta-externalfetcher",
    "FacebookBot",
    "Amazonbot",
    "cohere-ai",
    "Diffbot",
    "YouBot",
    "Timpibot",
    "omgili",
];

/// The product tokens of search engines' crawlers (compared without regard to case).
pub const SEARCH_AGENTS: [&str; 14] = [
    "Googlebot",
    "Googlebot-Image",
    "Googlebot-News",
    "AdsBot-Google",
    "Bingbot",
    "Applebot",
    "Baiduspider",
    "YandexBot",
    "Yandex",
    "DuckDuckBot",
    "Slurp",
    "SeznamBot",
    "PetalBot",
    "Yeti",
];

/// The class of a query's agent, for the reports' tables per agent class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AgentClass {
    /// A generic token ([`GENERIC_AGENTS`]) that no file names: it falls to `*`.
    Generic,
    /// A search engine's crawler ([`SEARCH_AGENTS`]).
    Search,
    /// An AI crawler or fetcher ([`AI_AGENTS`]).
    Ai,
    /// Any other: archivers, SEO tools, social previews, and the tokens files name.
    Other,
}

impl AgentClass {
    /// Every class, in the reports' order.
    pub const ALL: [AgentClass; 4] = [
        AgentClass::Generic,
        AgentClass::Search,
        AgentClass::Ai,
        AgentClass::Other,
    ];

    /// The class of `agent` (case-insensitive).
    pub fn of(agent: &str) -> AgentClass {
        let named = |list: &[&str]| list.iter().any(|a| a.eq_ignore_ascii_case(agent));
        if named(&GENERIC_AGENTS) {
            AgentClass::Generic
        } else if named(&AI_AGENTS) {
            AgentClass::Ai
        } else if named(&SEARCH_AGENTS) {
            AgentClass::Search
        } else {
            AgentClass::Other
        }
    }

    /// `generic`, `search`, `ai` or `other`.
    pub fn label(self) -> &'static str {
        match self {
            AgentClass::Generic => "generic",
            AgentClass::Search => "search",
            AgentClass::Ai => "ai",
            AgentClass::Other => "other",
        }
    }
}

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

#[cfg(test)]
mod class_tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(AgentClass::of("gptbot"), AgentClass::Ai);
        assert_eq!(AgentClass::of("Googlebot"), AgentClass::Search);
        assert_eq!(AgentClass::of("examplebot"), AgentClass::Generic);
        assert_eq!(AgentClass::of("AhrefsBot"), AgentClass::Other);
        // The fixed crawlers asked about are classed.
        let ai = CRAWLER_AGENTS
            .iter()
            .filter(|a| AgentClass::of(a) == AgentClass::Ai)
            .count();
        assert_eq!(ai, 7);
    }
}
