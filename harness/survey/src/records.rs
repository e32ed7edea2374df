//! Per-query records (`reptest survey --records FILE`): one record per file and one per
//! query, for analyses the reports do not make.
//!
//! The records are data here; the report crate writes them as JSON lines
//! (`reptest_report::survey::records`). A file's record gives its host, locator,
//! status, size, how many groups it has and the product tokens its user-agent lines
//! name, and for each site crawler the decided class and every implementation's
//! ([`crate::sites`]). A query's record gives the agent, the URL, its origin and
//! stratum, the decided verdict (or `open`), the question a split query is attributed
//! to, and every implementation's outcome, in the order of the survey's
//! implementations.

use reptest_core::Outcome;
use serde::Serialize;

use crate::engine::file::Asked;
use crate::engine::Setup;
use crate::queries::scan::Scan;
use crate::queries::{agent_of, MAX_FILE_AGENTS};
use crate::sites::{SiteClass, SITE_CRAWLERS};
use crate::{Stratum, SurveyFile};

/// One file's records.
#[derive(Debug, Clone, Serialize)]
pub struct FileRecord {
    /// The file.
    pub file: FileLine,
    /// Its derived queries (none when its rules do not apply).
    pub queries: Vec<QueryLine>,
}

/// The record of one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileLine {
    /// The file's host.
    pub host: String,
    /// Where it is in the input.
    pub locator: String,
    /// The HTTP status, when the input has one.
    pub status: Option<u16>,
    /// The body's length in octets (as read).
    pub size: u64,
    /// Whether the body was cut: `limit` or `archive`.
    pub cut: Option<&'static str>,
    /// Groups (runs of user-agent lines followed by rules).
    pub groups: u64,
    /// The product tokens its user-agent lines name (the first 64, in file order).
    pub agents: Vec<String>,
    /// Per site crawler: the decided class and each implementation's (`full`,
    /// `partial`, `none`, or null), when the rules apply.
    pub sites: Vec<SiteLine>,
}

/// One crawler's classes on one file.
#[derive(Debug, Clone, Serialize)]
pub struct SiteLine {
    /// The crawler.
    pub crawler: &'static str,
    /// The decided class, or `open`, or null when the decider gave none.
    pub decided: Option<&'static str>,
    /// Each implementation's class.
    pub classes: Vec<Option<&'static str>>,
}

/// The record of one query.
#[derive(Debug, Clone, Serialize)]
pub struct QueryLine {
    /// The file's host.
    pub host: String,
    /// The product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// The method that made it.
    pub origin: &'static str,
    /// `natural` or `probe`.
    pub stratum: &'static str,
    /// `allowed`, `disallowed`, `open`, or null when the decider gave no verdict.
    pub decided: Option<&'static str>,
    /// The question a split query is attributed to.
    pub question: Option<String>,
    /// Each implementation's outcome: `allowed`, `disallowed`, `error`, `timeout`,
    /// `crash`, `unsupported`, or `skipped` (its breaker open).
    pub outcomes: Vec<&'static str>,
}

impl FileRecord {
    /// The records of `file`, scanned as `scanned`; `asked` is `None` when its rules do
    /// not apply.
    pub(crate) fn of(
        file: &SurveyFile,
        locator: &str,
        scanned: &Scan<'_>,
        asked: Option<&Asked<'_>>,
        setup: &Setup<'_>,
    ) -> FileRecord {
        let mut agents: Vec<String> = Vec::new();
        for value in scanned.groups.iter().flatten() {
            if let Some(agent) = agent_of(value) {
                if agents.len() < MAX_FILE_AGENTS && !agents.iter().any(|a| a == agent) {
                    agents.push(agent.to_string());
                }
            }
        }
        let line = FileLine {
            host: file.host.clone(),
            locator: locator.to_string(),
            status: file.status,
            size: file.body.len() as u64,
            cut: file.cut.map(|c| match c {
                crate::Cut::Limit => "limit",
                crate::Cut::Archive => "archive",
            }),
            groups: scanned.groups.len() as u64,
            agents,
            sites: asked.map(|a| site_lines(a, setup)).unwrap_or_default(),
        };
        let queries = asked.map(|a| query_lines(a)).unwrap_or_default();
        FileRecord {
            file: line,
            queries,
        }
    }
}

fn site_lines(asked: &Asked<'_>, setup: &Setup<'_>) -> Vec<SiteLine> {
    let n = setup.implementations.len();
    SITE_CRAWLERS
        .iter()
        .enumerate()
        .map(|(c, crawler)| {
            let r = &asked.site.ranges[c];
            let judged = &asked.judged[r.start + asked.derived..r.end + asked.derived];
            let class = |v: Vec<Option<bool>>| SiteClass::of(&v).map(SiteClass::key);
            let decided = if judged.iter().any(|j| j.open) {
                Some("open")
            } else {
                class(judged.iter().map(|j| j.decided).collect())
            };
            SiteLine {
                crawler,
                decided,
                classes: (0..n)
                    .map(|i| class(judged.iter().map(|j| j.verdicts[i]).collect()))
                    .collect(),
            }
        })
        .collect()
}

fn query_lines(asked: &Asked<'_>) -> Vec<QueryLine> {
    (0..asked.derived)
        .map(|q| {
            let (query, judged) = (&asked.queries[q], &asked.judged[q]);
            let decided = match (judged.open, judged.decided) {
                (true, _) => Some("open"),
                (false, Some(true)) => Some("allowed"),
                (false, Some(false)) => Some("disallowed"),
                (false, None) => None,
            };
            QueryLine {
                host: asked.file.host.clone(),
                agent: query.agent.clone(),
                url: query.url.clone(),
                origin: query.origin,
                stratum: Stratum::of(query.origin).label(),
                decided,
                question: judged.question.clone(),
                outcomes: asked.answers.iter().map(|a| word(a.outcome(q))).collect(),
            }
        })
        .collect()
}

/// The record's word for an outcome.
fn word(outcome: Option<&Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Verdict { allowed: true, .. }) => "allowed",
        Some(Outcome::Verdict { allowed: false, .. }) => "disallowed",
        Some(Outcome::Error(_)) => "error",
        Some(Outcome::Timeout(_)) => "timeout",
        Some(Outcome::Crash(_)) => "crash",
        Some(Outcome::Unsupported(_)) => "unsupported",
        None => "skipped",
    }
}
