//! A crawler as an [`Implementation`]: every consumer (run, report, gate) judges it
//! through the same runner as any parser.
//!
//! Crawlers are judged on the cases with a fetch outcome (the access method, §2.3.1:
//! where crawlers differ most, and one crawl per case keeps a run short); a case with a
//! plain body is `unsupported` ([`PLAIN_CASES`]).
//!
//! For one case, each product token of its queries gets one crawl: the site serves the
//! case's robots.txt the way its fetch outcome says ([`crate::scenario_for`]), its start page
//! links the path of every query with that token, the crawler runs with the token as its
//! agent, and each query's verdict is read from the request log: fetched is `allowed`,
//! not fetched is `disallowed` ([`Crawler::run`]). A query for `/robots.txt` itself is
//! `allowed` when the crawler requested it (§2.2.2: "The /robots.txt URI is implicitly
//! allowed"). The scenario, the
//! pages and the site's bounded lifetime are [`crate::served_case`]'s, shared with the libraries
//! that fetch through their own API. What one fetch cannot show (a cached copy, §2.4) is `unsupported`; a page
//! not fetched by a crawler ended at its time limit is `timeout`, not a verdict.

use reptest_core::{
    Availability, Capabilities, CaseInput, Environment, ImplInfo, ImplKind, Implementation, Outcome,
};
use std::path::PathBuf;

use super::crawler::Crawler;
use crate::served_case::{case_scenario, page_of};

/// Why a case without a fetch outcome is `unsupported` for a crawler.
pub const PLAIN_CASES: &str = "crawlers are judged on the access method, the cases with a \
     fetch outcome (RFC 9309 §2.3.1), one crawl each; a plain body is left to the parsers";

/// A [`Crawler`] judged on corpus cases over the loopback site.
#[derive(Debug, Clone)]
pub struct CrawlerImplementation {
    crawler: Crawler,
    info: ImplInfo,
    /// Where its program is looked for ([`Environment::search_path`]).
    search_path: Vec<PathBuf>,
}

impl CrawlerImplementation {
    /// `crawler` under the name `name` (e.g. `crawler-wget`), written in `language`, its
    /// program looked for on the search path of `environment`. Its version is the
    /// installed package's, when it names one.
    pub fn new(name: &str, language: &str, crawler: Crawler, environment: &Environment) -> Self {
        let stated = crawler.version().map(str::to_string);
        let version = stated.unwrap_or_else(|| {
            crawler
                .package()
                .map(|package| {
                    package
                        .installed_version()
                        .unwrap_or_else(|| format!("{} (not installed)", package.version))
                })
                .unwrap_or_else(|| "fixture".to_string())
        });
        let info = ImplInfo {
            name: name.to_string(),
            version,
            language: language.to_string(),
            capabilities: Capabilities {
                full_urls: true,
                fetch_outcomes: true,
                fetches: true,
                reports_line: false,
            },
            kind: ImplKind::Crawler,
        };
        CrawlerImplementation {
            crawler,
            info,
            search_path: environment.search_path().to_vec(),
        }
    }

    /// The crawler it runs.
    pub fn crawler(&self) -> &Crawler {
        &self.crawler
    }
}

impl Implementation for CrawlerImplementation {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn availability(&self) -> Availability {
        if self.crawler.is_installed(&self.search_path) {
            return Availability::Available;
        }
        let missing = self
            .crawler
            .requirements()
            .iter()
            .find(|path| !path.exists())
            .map_or_else(
                || self.crawler.program().to_string(),
                |path| path.display().to_string(),
            );
        Availability::Unavailable {
            why: format!("`{missing}` is not installed"),
            fix: self.crawler.package().map_or_else(
                || "bash harness/external/setup crawlers".to_string(),
                |package| package.install_command(),
            ),
        }
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        self.evaluate_with_evidence(case).0
    }

    /// The evidence is each crawl's request log, in arrival order: `AGENT: GET /path`
    /// per request the site answered (a request to the second origin says so).
    fn evaluate_with_evidence(&self, case: &CaseInput<'_>) -> (Vec<Outcome>, Vec<String>) {
        let count = case.queries.len();
        if case.fetch.is_none() {
            return (
                vec![Outcome::Unsupported(PLAIN_CASES.into()); count],
                Vec::new(),
            );
        }
        let scenario = match case_scenario(case) {
            Ok(scenario) => scenario,
            Err(why) => {
                return (
                    vec![Outcome::Unsupported(why.to_string()); count],
                    Vec::new(),
                )
            }
        };
        let mut evidence = Vec::new();
        let mut outcomes: Vec<Option<Outcome>> = vec![None; count];
        // One crawl per product token, in the order tokens first appear.
        let mut agents: Vec<&str> = Vec::new();
        for query in case.queries {
            if !agents.contains(&query.agent) {
                agents.push(query.agent);
            }
        }
        for agent in agents {
            let mine: Vec<usize> = (0..count)
                .filter(|&i| case.queries[i].agent == agent)
                .collect();
            let mut pages: Vec<String> = Vec::new();
            for &i in &mine {
                let page = page_of(case.queries[i].url);
                if page == "/robots.txt" {
                    continue;
                }
                let alone = scenario.clone().with_pages([page.clone()]);
                match alone.validate() {
                    Ok(()) if !pages.contains(&page) => pages.push(page),
                    Ok(()) => {}
                    Err(why) => {
                        outcomes[i] = Some(Outcome::Unsupported(format!(
                            "this URL cannot be linked from a page as written: {why}"
                        )))
                    }
                }
            }
            let report = match self.crawler.run(&scenario.clone().with_pages(pages), agent) {
                Ok(report) => {
                    evidence.extend(request_log(agent, &report));
                    report
                }
                Err(error) => {
                    for &i in &mine {
                        outcomes[i].get_or_insert(Outcome::Error(error.to_string()));
                    }
                    continue;
                }
            };
            for &i in &mine {
                let page = page_of(case.queries[i].url);
                let fetched = if page == "/robots.txt" {
                    Some(report.fetched_robots)
                } else {
                    report.verdict(&page).map(|v| v.is_allowed())
                };
                let outcome = match fetched {
                    Some(false) if report.timed_out => Outcome::Timeout(format!(
                        "{} was ended at its time limit of {} before fetching {page}",
                        self.crawler.name(),
                        reptest_core::seconds(self.crawler.time_limit())
                    )),
                    Some(allowed) => Outcome::Verdict {
                        allowed,
                        line: None,
                    },
                    None => continue,
                };
                outcomes[i].get_or_insert(outcome);
            }
        }
        let outcomes = outcomes
            .into_iter()
            .map(|o| o.unwrap_or_else(|| Outcome::Error("no crawl judged this query".into())))
            .collect();
        (outcomes, evidence)
    }
}

/// One line per request of a crawl as `agent`, in arrival order: `AGENT: GET /path`, and
/// `(second origin)` after a request the redirect's other origin received.
fn request_log(agent: &str, report: &super::CrawlReport) -> Vec<String> {
    let first = report.requests.first().map(|r| r.origin.as_str());
    let mut lines: Vec<String> = report
        .requests
        .iter()
        .map(|request| {
            let elsewhere = if Some(request.origin.as_str()) == first {
                ""
            } else {
                " (second origin)"
            };
            format!("{agent}: {} {}{elsewhere}", request.method, request.path)
        })
        .collect();
    if lines.is_empty() {
        lines.push(format!("{agent}: no request"));
    }
    lines
}
