//! `reference`: reptest's own strict RFC 9309 matcher, in process.

use reptest_core::{Capabilities, CaseInput, ImplInfo, Implementation, Outcome};
use reptest_reference::{check_fetch, Config, Robots, Verdict};

/// The reference matcher with one configuration.
pub struct Reference {
    info: ImplInfo,
    config: Config,
}

impl Reference {
    /// The RFC 9309 defaults (`Config::rfc9309()`).
    pub fn rfc9309() -> Reference {
        Reference {
            info: ImplInfo {
                name: "reference".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                language: "Rust".into(),
                capabilities: Capabilities {
                    full_urls: true,
                    fetch_outcomes: true,
                    fetches: false,
                    reports_line: true,
                },
                kind: reptest_core::ImplKind::InProcess,
            },
            config: Config::rfc9309(),
        }
    }

    /// The configuration in use.
    pub fn config(&self) -> &Config {
        &self.config
    }
}

fn outcome(verdict: &Verdict) -> Outcome {
    Outcome::Verdict {
        allowed: verdict.is_allowed(),
        line: verdict.line(),
    }
}

impl Implementation for Reference {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        match case.fetch {
            None => {
                let robots = Robots::parse_with(case.robots, &self.config);
                case.queries
                    .iter()
                    .map(|q| outcome(&robots.check(q.agent, q.url)))
                    .collect()
            }
            Some(fetch) => {
                let fetch = reptest_reference::corpus::fetch(fetch, case.robots);
                case.queries
                    .iter()
                    .map(|q| outcome(&check_fetch(&fetch, &self.config, q.agent, q.url)))
                    .collect()
            }
        }
    }
}
