//! `reference`: reptest's own strict RFC 9309 matcher, in process.

use reptest_core::{Capabilities, CaseInput, ImplInfo, Implementation, Outcome};
use reptest_reference::{check_fetch, check_once, Config, Robots, Verdict};

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
            // One query: parsed and checked in one pass, only the rules that can decide it
            // compiled; more: the file compiled once for all of them.
            None if case.queries.len() == 1 => case
                .queries
                .iter()
                .map(|q| outcome(&check_once(case.robots, &self.config, q.agent, q.url)))
                .collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_core::QueryInput;

    /// A case of one query (answered by `check_once`) and the same query among others
    /// (the file parsed once) give the same outcome, the deciding line included.
    #[test]
    fn one_query_and_many_agree() {
        let robots = b"user-agent: a\ndisallow: /x\nuser-agent: *\nallow: /x/y\ndisallow: /\n";
        let queries = [
            QueryInput {
                agent: "a",
                url: "/x/z",
            },
            QueryInput {
                agent: "b",
                url: "https://h/x/y",
            },
            QueryInput {
                agent: "b",
                url: "/z",
            },
            QueryInput {
                agent: "a",
                url: "/robots.txt",
            },
        ];
        let reference = Reference::rfc9309();
        let many = reference.evaluate(&CaseInput {
            robots,
            fetch: None,
            queries: &queries,
        });
        assert_eq!(many.len(), queries.len());
        for (query, expected) in queries.iter().zip(&many) {
            let one = std::slice::from_ref(query);
            let outcome = reference.evaluate(&CaseInput {
                robots,
                fetch: None,
                queries: one,
            });
            assert_eq!(outcome, vec![expected.clone()], "{query:?}");
        }
        assert_eq!(
            many[0],
            Outcome::Verdict {
                allowed: false,
                line: Some(2)
            }
        );
        assert_eq!(
            many[1],
            Outcome::Verdict {
                allowed: true,
                line: Some(4)
            }
        );
    }
}
