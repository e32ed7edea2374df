//! reptest's core: what every part of the harness shares and nothing heavy.
//!
//! Data flows one way: a [`reptest_corpus::Case`] becomes a [`CaseInput`] (the body and
//! its queries), every [`Implementation`] answers it with one [`Outcome`] per query, the
//! [`runner`] collects those into a [`runner::Run`] (implementations × queries), and
//! [`score`] judges each outcome against the query's expectation ([`causes`] groups an
//! implementation's failures by root cause). The adapters
//! (`reptest-impls`), reports and gate (`reptest-report`), the triage of divergences
//! (`reptest-triage`), the survey (`reptest-survey`), the differential campaign
//! (`reptest-fuzz-diff`) and the CLI (`reptest`) build on it.
//!
//! Also here: [`atomic`] output (a failed write never truncates a file), orderly
//! [`shutdown`] (adapters are stopped on a signal), [`visible_notation`] for bytes and
//! [`markup_escape`], the [`nearest`] known names for "did you mean", and the
//! [`Environment`] the command line reads once and hands down (no library reads it).
//!
//! ```
//! use reptest_core::{runner, score, CaseInput, ImplInfo, ImplKind, Implementation, Outcome};
//!
//! /// An implementation that allows everything.
//! struct AllowAll(ImplInfo);
//!
//! impl Implementation for AllowAll {
//!     fn info(&self) -> &ImplInfo {
//!         &self.0
//!     }
//!     fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
//!         let allowed = Outcome::Verdict { allowed: true, line: None };
//!         vec![allowed; case.queries.len()]
//!     }
//! }
//!
//! let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
//! let info = ImplInfo {
//!     name: "allow-all".into(),
//!     version: "1".into(),
//!     language: "Rust".into(),
//!     capabilities: Default::default(),
//!     kind: ImplKind::InProcess,
//! };
//! let implementations: Vec<Box<dyn Implementation>> = vec![Box::new(AllowAll(info))];
//! let run = runner::run(&corpus, &implementations);
//! let summary = score::summarize(&corpus, &run, reptest_corpus::Profile::Rfc9309);
//! assert!(!summary[0].failures.is_empty(), "allowing everything fails some queries");
//! ```
#![deny(missing_docs)]

pub mod atomic;
pub mod causes;
pub mod environment;
#[cfg(test)]
mod fixtures;
mod implementation;
pub mod lines;
pub mod markup_escape;
pub mod nearest;
pub mod runner;
pub mod score;
pub mod shutdown;
pub mod tail;
pub mod url;
pub mod visible_notation;

pub use environment::Environment;
pub use implementation::{
    seconds, Availability, Capabilities, CaseInput, ImplInfo, ImplKind, Implementation, Outcome,
    QueryInput,
};
