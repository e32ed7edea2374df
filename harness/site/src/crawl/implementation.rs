//! A crawler as an [`Implementation`]: every consumer (run, report, gate) judges it
//! through the same runner as any parser.
//!
//! Crawlers are judged on the cases with a fetch outcome (the access method, §2.3.1:
//! where crawlers differ most, and a site per case keeps a run short); a case with a
//! plain body is `unsupported` ([`PLAIN_CASES`]).
//!
//! For one case, each product token of its queries gets one site, crawled on its own or,
//! for a crawler run in batches, with the sites of other cases by the same process
//! ([`evaluate_batch`](reptest_core::Implementation::evaluate_batch)): the site serves the
//! case's robots.txt the way its fetch outcome says ([`crate::scenario_for`]), its start
//! page links the path of every query with that token, the crawler runs with the token as
//! its agent, and each query's verdict is read from the request log: fetched is `allowed`,
//! not fetched is `disallowed` ([`Crawler::run`]). A query for `/robots.txt` itself is
//! `allowed` when the crawler requested it (§2.2.2: "The /robots.txt URI is implicitly
//! allowed"). The scenario, the pages and the site's bounded lifetime are
//! [`crate::served_case`]'s, shared with the libraries that fetch through their own API.
//! What one fetch cannot show (a cached copy, §2.4) is `unsupported`; a page not fetched by
//! a crawler ended at its time limit is `timeout`, not a verdict.

use reptest_core::{
    Availability, Capabilities, CaseInput, Environment, ImplInfo, ImplKind, Implementation, Outcome,
};
use std::path::PathBuf;

use super::crawler::Crawler;
use super::CrawlReport;
use crate::scenario::check_page;
use crate::served_case::{case_scenario, page_of};
use crate::{Fault, Scenario};

/// Why a case without a fetch outcome is `unsupported` for a crawler.
pub const PLAIN_CASES: &str = "crawlers are judged on the access method, the cases with a \
     fetch outcome (RFC 9309 §2.3.1), a loopback site each; a plain body is left to the parsers";

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
        self.evaluate_batch(std::slice::from_ref(case))
            .pop()
            .unwrap_or_default()
    }

    /// A crawler run in batches ([`Crawler::with_batch`]) crawls a site per case, as many
    /// as its batch size, in one process.
    fn batch_size(&self) -> usize {
        self.crawler.batch_size()
    }

    /// One crawl per product token for all the cases at once: the sites of every case
    /// with a query for that token, each on an origin of its own, crawled by one process
    /// ([`Crawler::run_many`]); each case judged from its own site's request log.
    fn evaluate_batch(&self, cases: &[CaseInput<'_>]) -> Vec<(Vec<Outcome>, Vec<String>)> {
        let mut plans: Vec<CasePlan> = cases.iter().map(CasePlan::new).collect();
        let mut agents: Vec<&str> = Vec::new();
        for plan in &plans {
            for crawl in &plan.crawls {
                if !agents.contains(&crawl.agent) {
                    agents.push(crawl.agent);
                }
            }
        }
        for agent in agents {
            let mine: Vec<(usize, usize)> = plans
                .iter()
                .enumerate()
                .flat_map(|(p, plan)| {
                    plan.crawls
                        .iter()
                        .position(|crawl| crawl.agent == agent)
                        .map(|c| (p, c))
                })
                .collect();
            // A robots.txt that never completes leaves the crawler's own timeout to decide
            // (§2.3.1.4): crawled alone, so a crawler that waits for it waits for no other
            // site.
            let (alone, together): (Vec<_>, Vec<_>) = mine.into_iter().partition(|&(p, c)| {
                plans[p].crawls[c].scenario.fault == Some(Fault::NeverCompletes)
            });
            let parts = alone
                .chunks(1)
                .chain(together.chunks(self.crawler.batch_size()));
            for part in parts {
                self.crawl_part(&mut plans, part, agent);
            }
        }
        plans.into_iter().map(CasePlan::answer).collect()
    }
}

impl CrawlerImplementation {
    /// Crawls the sites of `part` (crawl `c` of plan `p` each) as `agent` in one process and
    /// judges each. A batch ended at its time limit says nothing about the sites it had
    /// not finished (a crawler stuck on one site, or starved of CPU, leaves every other
    /// unfetched): each of its sites is crawled again alone, as a crawler without batches
    /// is, and judged from that crawl.
    fn crawl_part(&self, plans: &mut [CasePlan<'_>], part: &[(usize, usize)], agent: &str) {
        let scenarios: Vec<Scenario> = part
            .iter()
            .map(|&(p, c)| plans[p].crawls[c].scenario.clone())
            .collect();
        match self.crawler.run_many(&scenarios, agent) {
            Ok(reports) if part.len() > 1 && reports.iter().any(|r| r.timed_out) => {
                for single in part.chunks(1) {
                    self.crawl_part(plans, single, agent);
                }
            }
            Ok(reports) => {
                for (&(p, c), report) in part.iter().zip(&reports) {
                    plans[p].judge(c, report);
                }
            }
            Err(error) => {
                for &(p, c) in part {
                    plans[p].fail(c, &error.to_string());
                }
            }
        }
    }
}

/// One case's crawls and answers, as they come in ([`CrawlerImplementation::evaluate_batch`]).
struct CasePlan<'a> {
    case: CaseInput<'a>,
    /// One crawl per product token, in the order tokens first appear.
    crawls: Vec<PlannedCrawl<'a>>,
    outcomes: Vec<Option<Outcome>>,
    evidence: Vec<String>,
}

/// The crawl of one case's site for one product token.
struct PlannedCrawl<'a> {
    agent: &'a str,
    /// The case's scenario, its pages the paths of the token's queries.
    scenario: Scenario,
    /// The token's queries (indices into the case's).
    queries: Vec<usize>,
}

impl<'a> CasePlan<'a> {
    /// The crawls `case` needs, or none when its answers are known without one: a plain
    /// body ([`PLAIN_CASES`]) or an outcome one fetch cannot show.
    fn new(case: &CaseInput<'a>) -> Self {
        let count = case.queries.len();
        let mut plan = CasePlan {
            case: *case,
            crawls: Vec::new(),
            outcomes: vec![None; count],
            evidence: Vec::new(),
        };
        if case.fetch.is_none() {
            plan.outcomes = vec![Some(Outcome::Unsupported(PLAIN_CASES.into())); count];
            return plan;
        }
        let scenario = match case_scenario(case) {
            Ok(scenario) => scenario,
            Err(why) => {
                plan.outcomes = vec![Some(Outcome::Unsupported(why.to_string())); count];
                return plan;
            }
        };
        for (i, query) in case.queries.iter().enumerate() {
            let crawl = match plan.crawls.iter().position(|c| c.agent == query.agent) {
                Some(c) => c,
                None => {
                    plan.crawls.push(PlannedCrawl {
                        agent: query.agent,
                        scenario: scenario.clone().with_pages(Vec::<String>::new()),
                        queries: Vec::new(),
                    });
                    plan.crawls.len() - 1
                }
            };
            plan.crawls[crawl].queries.push(i);
            plan.link(crawl, i);
        }
        plan
    }

    /// Links query `i`'s page from the start page of crawl `crawl`, or answers it
    /// `unsupported` when its URL cannot be linked as written.
    fn link(&mut self, crawl: usize, i: usize) {
        let page = page_of(self.case.queries[i].url);
        if page == "/robots.txt" {
            return;
        }
        let scenario = &mut self.crawls[crawl].scenario;
        match check_page(&page) {
            Ok(()) if !scenario.pages.contains(&page) => scenario.pages.push(page),
            Ok(()) => {}
            Err(why) => {
                self.outcomes[i] = Some(Outcome::Unsupported(format!(
                    "this URL cannot be linked from a page as written: {why}"
                )))
            }
        }
    }

    /// Judges the queries of crawl `crawl` from its report.
    fn judge(&mut self, crawl: usize, report: &CrawlReport) {
        let agent = self.crawls[crawl].agent;
        self.evidence.extend(request_log(agent, report));
        for &i in &self.crawls[crawl].queries {
            let page = page_of(self.case.queries[i].url);
            let fetched = if page == "/robots.txt" {
                Some(report.fetched_robots)
            } else {
                report.verdict(&page).map(|v| v.is_allowed())
            };
            let outcome = match fetched {
                Some(false) if report.timed_out => Outcome::Timeout(format!(
                    "{} was ended at its time limit of {} before fetching {page}",
                    report.crawler,
                    reptest_core::seconds(report.time_limit)
                )),
                Some(allowed) => Outcome::Verdict {
                    allowed,
                    line: None,
                },
                None => continue,
            };
            self.outcomes[i].get_or_insert(outcome);
        }
    }

    /// Answers the queries of crawl `crawl` with the error that kept it from running.
    fn fail(&mut self, crawl: usize, error: &str) {
        for &i in &self.crawls[crawl].queries {
            self.outcomes[i].get_or_insert(Outcome::Error(error.to_owned()));
        }
    }

    /// One outcome per query (`error` for one no crawl judged) and the request logs.
    fn answer(self) -> (Vec<Outcome>, Vec<String>) {
        let outcomes = self
            .outcomes
            .into_iter()
            .map(|o| o.unwrap_or_else(|| Outcome::Error("no crawl judged this query".into())))
            .collect();
        (outcomes, self.evidence)
    }
}

/// One line per request of a crawl as `agent`, in arrival order: `AGENT: GET /path`, and
/// `(second origin)` after a request the redirect's other origin received.
fn request_log(agent: &str, report: &CrawlReport) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_core::QueryInput;
    use reptest_corpus::Fetch;
    use std::time::Duration;

    /// A batch that hangs is crawled again site by site: a "crawler" that sleeps when it
    /// is given several start pages, and with one requests that site's robots.txt.
    #[test]
    fn a_batch_ended_at_its_time_limit_is_crawled_again_site_by_site() {
        let script = r#"if [ $# -gt 1 ]; then exec sleep 30; fi
            exec curl -s -o /dev/null -A "$0" "${1%/*}/robots.txt""#;
        let crawler = Crawler::new("stuck", ["sh", "-c", script, "{agent}", "{start_urls}"])
            .with_time_limit(Duration::from_secs(2))
            .with_batch(4, Duration::ZERO);
        let implementation =
            CrawlerImplementation::new("stuck", "sh", crawler, &Environment::default());
        let fetch = Fetch {
            status: Some(200),
            ..Fetch::default()
        };
        let queries = [QueryInput {
            agent: "bot",
            url: "/robots.txt",
        }];
        let case = CaseInput {
            robots: b"User-agent: *\nDisallow: /\n",
            fetch: Some(&fetch),
            queries: &queries,
        };
        let answers = implementation.evaluate_batch(&[case, case]);
        assert_eq!(answers.len(), 2);
        for (outcomes, evidence) in answers {
            assert_eq!(
                outcomes,
                [Outcome::Verdict {
                    allowed: true,
                    line: None
                }]
            );
            assert_eq!(evidence, ["bot: GET /robots.txt"]);
        }
    }
}
