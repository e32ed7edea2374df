//! The crawlers `reptest policy --audit` reports on: a curated catalogue (data, not
//! code: `harness/report/data/crawlers.toml`, embedded at build time), one entry per
//! product token (RFC 9309 §2.2.1) with its operator, purpose, the operator's page and
//! the date it was checked.

use serde::{Deserialize, Serialize};

/// The curated catalogue's text, as shipped.
pub const CATALOGUE: &str = include_str!("../../data/crawlers.toml");

/// What the operator says a crawler's fetches are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    /// A search engine's index.
    Search,
    /// Training AI models.
    AiTraining,
    /// An AI product's search or answers.
    AiSearch,
    /// A fetch a person asked for (an assistant's, a feed reader's).
    UserInitiated,
    /// SEO tools' link and site indexes.
    Seo,
    /// Web archives.
    Archive,
    /// Link previews.
    Social,
    /// Advertising quality checks.
    Ads,
    /// Anything else.
    Other,
}

impl Purpose {
    /// The catalogue's word: `search`, `ai-training`, ...
    pub fn word(self) -> &'static str {
        match self {
            Purpose::Search => "search",
            Purpose::AiTraining => "ai-training",
            Purpose::AiSearch => "ai-search",
            Purpose::UserInitiated => "user-initiated",
            Purpose::Seo => "seo",
            Purpose::Archive => "archive",
            Purpose::Social => "social",
            Purpose::Ads => "ads",
            Purpose::Other => "other",
        }
    }
}

/// One crawler of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Crawler {
    /// The product token a group names.
    pub token: String,
    /// Who runs it.
    pub operator: String,
    /// What its fetches are for.
    pub purpose: Purpose,
    /// Whether it feeds an AI product.
    pub ai: bool,
    /// The operator's page about it (empty when none is known).
    pub docs: String,
    /// The date the entry was compared with that page (empty when it was not).
    pub checked: String,
    /// What a site owner should know, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The catalogue file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    crawler: Vec<Crawler>,
}

/// Why a catalogue was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    /// Not TOML of the catalogue's shape.
    #[error("the crawler catalogue is not valid: {0}")]
    Syntax(String),
    /// The same token twice (compared without regard to case, as groups are found).
    #[error("the crawler catalogue lists `{0}` twice")]
    Duplicate(String),
    /// A token a group could not name: empty, or with white space or `:`.
    #[error("the crawler catalogue's token `{0}` cannot stand on a user-agent line")]
    BadToken(String),
}

/// Reads a catalogue (the shipped one is [`CATALOGUE`]).
pub fn parse(text: &str) -> Result<Vec<Crawler>, CatalogueError> {
    let file: File = toml::from_str(text).map_err(|e| CatalogueError::Syntax(e.to_string()))?;
    let mut seen = std::collections::HashSet::new();
    for c in &file.crawler {
        if c.token.is_empty() || c.token.contains(|ch: char| ch.is_whitespace() || ch == ':') {
            return Err(CatalogueError::BadToken(c.token.clone()));
        }
        if !seen.insert(c.token.to_ascii_lowercase()) {
            return Err(CatalogueError::Duplicate(c.token.clone()));
        }
    }
    Ok(file.crawler)
}

/// The shipped catalogue.
pub fn builtin() -> Vec<Crawler> {
    parse(CATALOGUE).expect("the shipped crawler catalogue is valid (tested)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_catalogue_covers_what_the_audit_promises() {
        let crawlers = parse(CATALOGUE).unwrap();
        assert!(crawlers.len() >= 60, "{}", crawlers.len());
        assert!(crawlers.iter().filter(|c| c.ai).count() >= 25);
        for token in [
            "GPTBot",
            "OAI-SearchBot",
            "ChatGPT-User",
            "ClaudeBot",
            "Claude-User",
            "Claude-SearchBot",
            "Google-Extended",
            "CCBot",
            "PerplexityBot",
            "Perplexity-User",
            "Bytespider",
            "Applebot-Extended",
            "meta-externalagent",
            "Amazonbot",
            "Googlebot",
            "Bingbot",
            "AhrefsBot",
            "SemrushBot",
            "ia_archiver",
            "archive.org_bot",
        ] {
            assert!(crawlers.iter().any(|c| c.token == token), "{token}");
        }
        for c in &crawlers {
            assert!(c.checked.is_empty() || c.checked.len() == 10, "{}", c.token);
            assert!(
                c.checked.is_empty() || c.docs.starts_with("https://"),
                "{}",
                c.token
            );
        }
    }

    #[test]
    fn a_catalogue_with_a_token_twice_is_refused() {
        let entry = "[[crawler]]\ntoken = \"X\"\noperator = \"o\"\npurpose = \"seo\"\nai = false\ndocs = \"\"\nchecked = \"\"\n";
        let twice = format!("{entry}{}", entry.replace("\"X\"", "\"x\""));
        assert_eq!(parse(&twice), Err(CatalogueError::Duplicate("x".into())));
        let spaced = entry.replace("\"X\"", "\"A B\"");
        assert_eq!(parse(&spaced), Err(CatalogueError::BadToken("A B".into())));
        assert!(matches!(
            parse("[[crawler]]\ntoken = 1"),
            Err(CatalogueError::Syntax(_))
        ));
    }
}
