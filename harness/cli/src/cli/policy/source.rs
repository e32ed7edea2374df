//! Where the robots.txt comes from (a file, stdin or a URL) and what the access method
//! (RFC 9309 §2.3.1) makes of it.

use reptest_reference::access::{rules_in_force, Fetch, RulesInForce};
use reptest_reference::Config;
#[cfg(feature = "fetch")]
use reptest_reference::{AccessReason, Reason};
use std::time::Duration;

/// What was read or fetched, in the terms of the reference's access method.
pub(super) struct Source {
    /// The origin the rules apply to: the initial URL's, even after redirects to other
    /// authorities (RFC 9309 §2.3.1.2); a placeholder for a file.
    pub origin: String,
    /// The final HTTP status (200 for a file); `None` after a network error.
    pub status: Option<u16>,
    /// The fetch broke off below HTTP after reaching the server (RFC 9309 §2.3.1.4).
    pub network_error: bool,
    /// The redirects followed, or 6 when there were more than five (§2.3.1.2).
    pub redirects: u32,
    /// The body, decoded (RFC 9110 §8.4) and at most the size limit.
    pub body: Vec<u8>,
    /// What happened, for the reader: the redirect chain, the status and what it means,
    /// a cut or broken body.
    pub notes: Vec<String>,
}

impl Source {
    /// The fetch as the reference's access method takes it.
    pub fn fetch(&self) -> Fetch<'_> {
        Fetch {
            status: self.status,
            network_error: self.network_error,
            redirects: self.redirects,
            body: &self.body,
            ..Fetch::default()
        }
    }

    /// The body whose rules are in force, if the access method parses one (§2.3.1.1):
    /// only then is it linted and compared with other parsers.
    pub fn parsed(&self, config: &Config) -> Option<&[u8]> {
        match rules_in_force(&self.fetch(), config) {
            RulesInForce::Parsed(body) => Some(body),
            _ => None,
        }
    }

    /// What the access method makes of this fetch, in one sentence.
    #[cfg(feature = "fetch")]
    pub fn meaning(&self, config: &Config, content_type: &str) -> String {
        let reason = match rules_in_force(&self.fetch(), config) {
            RulesInForce::Parsed(_) if content_type.contains("html") => {
                return "served as HTML: RFC 9309 parses it as rules anyway; lines that are not rules are ignored (§2.3.1.1, §2.3.1.5)".to_string()
            }
            RulesInForce::Parsed(_) => return "its rules apply (RFC 9309 §2.3.1.1)".to_string(),
            RulesInForce::AllowAll(reason) | RulesInForce::DisallowAll(reason) => reason,
        };
        match reason {
            AccessReason::Unavailable { .. } => {
                "unavailable: crawlers MAY access everything (RFC 9309 §2.3.1.3)".to_string()
            }
            AccessReason::Unreachable { .. } => {
                "unreachable: crawlers MUST assume everything is disallowed (RFC 9309 §2.3.1.4)"
                    .to_string()
            }
            AccessReason::UnexpectedStatus { .. } => {
                "neither success nor an error: treated as unreachable, everything is disallowed"
                    .to_string()
            }
            other => reptest::report::check::explain(&Reason::Access(other), &[]),
        }
    }
}

/// The robots.txt from a file, stdin or an http(s) URL (fetched within `timeout`).
pub(super) fn read(robots: &str, timeout: Duration) -> Result<Source, String> {
    if robots.starts_with("http://") || robots.starts_with("https://") {
        return fetch(robots, timeout);
    }
    let body = super::super::check::read_body(std::path::Path::new(robots))?;
    Ok(Source {
        origin: reptest::url::DEFAULT_ORIGIN.to_string(),
        status: Some(200),
        network_error: false,
        redirects: 0,
        body,
        notes: Vec::new(),
    })
}

#[cfg(feature = "fetch")]
fn fetch(url: &str, timeout: Duration) -> Result<Source, String> {
    super::fetch::fetch(url, timeout)
}

/// Without the `fetch` feature there is no HTTP client.
#[cfg(not(feature = "fetch"))]
fn fetch(url: &str, _timeout: Duration) -> Result<Source, String> {
    Err(format!(
        "cannot fetch {url}: this reptest was built without its `fetch` feature; save the file and give its path"
    ))
}
