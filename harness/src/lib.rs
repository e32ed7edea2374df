//! reptest's harness: runs the RFC 9309 conformance corpus through robots.txt
//! implementations and judges what each one answers.
//!
//! Data flows one way: a [`reptest_corpus::Case`] becomes a [`CaseInput`] (the body and
//! its queries), every [`Implementation`] answers it with one [`Outcome`] per query, the
//! [`runner`] collects those into a [`runner::Run`] (implementations × queries), and
//! [`score`] judges each outcome against the query's expectation.
//!
//! ```
//! use reptest::{impls, runner, score};
//! let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
//! let implementations = impls::select(&["reference"]).unwrap();
//! let run = runner::run(&corpus, &implementations);
//! let summary = score::summarize(&corpus, &run, "rfc9309");
//! assert_eq!(summary[0].name, "reference");
//! ```
#![deny(missing_docs)]

pub mod atomic;
pub mod eval;
pub mod fuzz;
pub mod gate;
mod implementation;
pub mod impls;
pub mod markup;
pub mod report;
pub mod runner;
pub mod score;
pub mod shutdown;
pub mod visible;

pub use implementation::{
    Availability, Capabilities, CaseInput, ImplInfo, Implementation, Outcome, QueryInput,
};
