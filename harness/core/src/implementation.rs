//! The one abstraction every adapter plugs into.

use reptest_corpus::{Fetch, OutcomeWord};
use std::fmt;

/// A robots.txt implementation under test: ours, Google's, a crate, or an external
/// process. Adapters answer whole cases, so an implementation that can parse once and
/// check many does so.
pub trait Implementation: Send + Sync {
    /// Name, version, language and capabilities.
    fn info(&self) -> &ImplInfo;

    /// The short unique name (`info().name`). Adapters whose info needs a running
    /// process (an external adapter's handshake) override it, so finding an
    /// implementation by name starts nothing.
    fn name(&self) -> &str {
        &self.info().name
    }

    /// Whether the implementation can run here; when not, why and how to fix it.
    fn availability(&self) -> Availability {
        Availability::Available
    }

    /// Answers every query of one case, one outcome per query, in order.
    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome>;

    /// [`evaluate`](Self::evaluate), with what the implementation did to reach its
    /// answers, one line per step, for the reports' evidence: a crawler's request log
    /// (what it fetched, in order). Empty by default: a parser's answer is its evidence.
    fn evaluate_with_evidence(&self, case: &CaseInput<'_>) -> (Vec<Outcome>, Vec<String>) {
        (self.evaluate(case), Vec::new())
    }

    /// How many cases it answers best at once ([`evaluate_batch`](Self::evaluate_batch)):
    /// 1 by default; more for a crawler that crawls many loopback sites in one process, so
    /// its start-up is paid once per batch.
    fn batch_size(&self) -> usize {
        1
    }

    /// [`evaluate_with_evidence`](Self::evaluate_with_evidence) for several cases at once
    /// (at most [`batch_size`](Self::batch_size)), one answer per case, in order. By
    /// default each case in turn.
    fn evaluate_batch(&self, cases: &[CaseInput<'_>]) -> Vec<(Vec<Outcome>, Vec<String>)> {
        cases
            .iter()
            .map(|case| self.evaluate_with_evidence(case))
            .collect()
    }
}

/// What an implementation is and can do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImplInfo {
    /// Short unique name used on the command line, e.g. `reference`.
    pub name: String,
    /// The version of the library under test.
    pub version: String,
    /// The language it is written in.
    pub language: String,
    /// What it can take and report.
    pub capabilities: Capabilities,
    /// How it runs.
    pub kind: ImplKind,
}

/// How an implementation runs, which decides what a query costs and what can go wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ImplKind {
    /// In this process: a Rust library or a linked C++ one.
    #[default]
    InProcess,
    /// A program of its own, spoken to over the external protocol, v1 or v2
    /// (`harness/PROTOCOL.md`).
    Process,
    /// A crawler judged as a black box by what it fetches.
    Crawler,
}

impl ImplKind {
    /// `in-process`, `process` or `crawler`.
    pub fn as_str(self) -> &'static str {
        match self {
            ImplKind::InProcess => "in-process",
            ImplKind::Process => "process",
            ImplKind::Crawler => "crawler",
        }
    }
}

/// What an implementation can take and report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// Takes absolute URLs (otherwise only paths).
    pub full_urls: bool,
    /// Models the access method of RFC 9309 §2.3.1 (HTTP status, redirects, caching);
    /// cases with a fetch outcome are unsupported without it.
    pub fetch_outcomes: bool,
    /// Fetches `/robots.txt` over HTTP itself (through its library's own fetching API,
    /// or as a crawler): its fetch cases are served on the loopback site (RFC 9309
    /// §2.3–2.5 judged over real HTTP), not described to it.
    pub fetches: bool,
    /// Reports the line of the deciding rule.
    pub reports_line: bool,
}

/// Whether an implementation can run on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// Ready.
    Available,
    /// Not usable here.
    Unavailable {
        /// What is missing.
        why: String,
        /// The command or step that makes it available.
        fix: String,
    },
}

/// One case as an implementation sees it.
#[derive(Debug, Clone, Copy)]
pub struct CaseInput<'a> {
    /// The robots.txt body, byte for byte.
    pub robots: &'a [u8],
    /// How the body was obtained; `None` is a plain HTTP 200.
    pub fetch: Option<&'a Fetch>,
    /// The queries to answer.
    pub queries: &'a [QueryInput<'a>],
}

/// One query as an implementation sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryInput<'a> {
    /// The product token.
    pub agent: &'a str,
    /// An absolute URL or a path.
    pub url: &'a str,
}

impl<'a> From<&'a reptest_corpus::Query> for QueryInput<'a> {
    fn from(query: &'a reptest_corpus::Query) -> Self {
        QueryInput {
            agent: &query.agent,
            url: &query.url,
        }
    }
}

/// What one implementation answered for one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A verdict, with the deciding rule's 1-based line where the implementation reports it.
    Verdict {
        /// `true` when the URL may be crawled.
        allowed: bool,
        /// The deciding line, if reported.
        line: Option<usize>,
    },
    /// The implementation cannot express this query (e.g. a fetch outcome).
    Unsupported(String),
    /// The implementation failed on this input.
    Error(String),
    /// No answer in time: how long was waited, for what, and what the implementation
    /// said meanwhile (an external adapter's last stderr lines).
    Timeout(String),
    /// The implementation's process died.
    Crash(String),
}

impl Outcome {
    /// The verdict, if there is one.
    pub fn allowed(&self) -> Option<bool> {
        match self {
            Outcome::Verdict { allowed, .. } => Some(*allowed),
            _ => None,
        }
    }

    /// The outcome's word ([`OutcomeWord`]: one vocabulary for the corpus's `observed`
    /// records, the reports, baselines and signatures).
    pub fn kind(&self) -> OutcomeWord {
        match self {
            Outcome::Verdict { allowed, .. } => OutcomeWord::of_verdict(*allowed),
            Outcome::Unsupported(_) => OutcomeWord::Unsupported,
            Outcome::Error(_) => OutcomeWord::Error,
            Outcome::Timeout(_) => OutcomeWord::Timeout,
            Outcome::Crash(_) => OutcomeWord::Crash,
        }
    }

    /// The word as text: `allowed`, `disallowed`, `unsupported`, `error`, `timeout`,
    /// `crash`.
    pub fn word(&self) -> &'static str {
        self.kind().as_str()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Verdict {
                line: Some(line), ..
            } => write!(f, "{} (line {line})", self.word()),
            Outcome::Unsupported(why)
            | Outcome::Error(why)
            | Outcome::Crash(why)
            | Outcome::Timeout(why) => write!(f, "{}: {why}", self.word()),
            _ => f.write_str(self.word()),
        }
    }
}

/// A duration as people read it in messages: `5 s`, `0.3 s`.
pub fn seconds(duration: std::time::Duration) -> String {
    format!("{} s", (duration.as_secs_f64() * 1000.0).round() / 1000.0)
}
