//! The expectations file of `reptest policy`: which agents may (or may not) crawl which
//! URLs, each expectation with the line it was written on.

use reptest::report::policy::verdict_word;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;
use toml::Spanned;

/// One expectation: `agent` is `allowed` (or not) to crawl `url`.
pub(super) struct Expectation {
    /// A product token, or `*` for a crawler that no group names.
    pub agent: String,
    /// The URL as written: a path or an absolute URL.
    pub url: String,
    /// Whether the owner means the URL to be crawlable.
    pub allowed: bool,
    /// The 1-based line of the URL in the expectations file.
    pub line: usize,
}

/// The expectations file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    expect: Vec<Table>,
}

/// One `[[expect]]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    agents: Vec<Spanned<String>>,
    #[serde(default)]
    allowed: Vec<Spanned<String>>,
    #[serde(default)]
    disallowed: Vec<Spanned<String>>,
}

/// Reads the expectations file: every agent a product token (RFC 9309 §2.2.1) or `*`.
pub(super) fn load(path: &Path) -> Result<Vec<Expectation>, String> {
    let text = reptest::lines::read_text(path, reptest::lines::MAX_TEXT_FILE)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file: File = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| format!(":{}", reptest_corpus::line_of(&text, s.start)))
            .unwrap_or_default();
        format!("{}{line}: {}", path.display(), e.message().trim())
    })?;
    let line = |spanned: &Spanned<String>| reptest_corpus::line_of(&text, spanned.span().start);
    let mut expectations = Vec::new();
    for table in &file.expect {
        for agent in &table.agents {
            check_agent(
                agent.get_ref(),
                &format!("{}:{}", path.display(), line(agent)),
            )?;
            for (urls, allowed) in [(&table.allowed, true), (&table.disallowed, false)] {
                expectations.extend(urls.iter().map(|url| Expectation {
                    agent: agent.get_ref().clone(),
                    url: url.get_ref().clone(),
                    allowed,
                    line: line(url),
                }));
            }
        }
    }
    Ok(expectations)
}

/// Refuses an agent that is neither `*` nor a product token (RFC 9309 §2.2.1).
fn check_agent(agent: &str, at: &str) -> Result<(), String> {
    if agent == "*" || reptest_reference::syntax::is_product_token(agent.as_bytes()) {
        return Ok(());
    }
    Err(format!(
        "{at}: agent `{agent}` is not a product token (RFC 9309 §2.2.1: letters, `_` and `-`; `*` for any crawler)"
    ))
}

/// Refuses expectations that contradict each other: the same agent (product tokens match
/// case-insensitively, RFC 9309 §2.2.1) and the same URL (`url_of` makes it absolute)
/// expected both allowed and disallowed. Names both lines of each contradiction.
pub(super) fn refuse_contradictions(
    expectations: &[Expectation],
    path: &Path,
    url_of: impl Fn(&str) -> String,
) -> Result<(), String> {
    let mut seen: HashMap<(String, String), &Expectation> = HashMap::new();
    let mut errors = Vec::new();
    for e in expectations {
        let key = (e.agent.to_ascii_lowercase(), url_of(&e.url));
        match seen.get(&key) {
            Some(first) if first.allowed != e.allowed => errors.push(format!(
                "{file}:{}: `{}` {} is expected {} here and {} at {file}:{}: an expectation cannot be both; remove one",
                e.line,
                e.agent,
                e.url,
                verdict_word(e.allowed),
                verdict_word(first.allowed),
                first.line,
                file = path.display(),
            )),
            Some(_) => {}
            None => {
                seen.insert(key, e);
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}
