//! Triage of divergences: what an input that splits implementations shows, how to group,
//! shrink and explain it. The differential campaign (`reptest-fuzz-diff`) and the survey
//! of real files (`reptest-survey`) both triage their divergences here, so neither knows
//! the other, and the survey knows nothing of the fuzzer.
//!
//! - [`dimensions`](mod@dimensions): the [`reptest_corpus::Dimension`] tags of a body and
//!   one query, from the bytes.
//! - [`features`]: the finer facts of a body and one query that the question catalogue
//!   (`corpus/questions.toml`) names.
//! - [`signature`]: the partition of implementations by verdict plus the dimensions and
//!   the kind of deciding rule: what groups divergences.
//! - [`minimize`]: shrinks a divergent input while it keeps its signature.
//! - [`attribution`]: which known question a divergence is about, or that it is new.
//! - [`Query`]: the owned query the minimizer shortens.
//!
//! Where it sits in the workspace, in layers (normal dependencies; a crate uses only
//! layers below its own; `.ci/crate-graph.py` checks the allowed edges):
//!
//! ```text
//! 7  reptest (the CLI and its façade)
//! 6  reptest-cargo-test ─▶ report
//! 5  reptest-report ─▶ fuzz-diff, triage
//! 4  reptest-fuzz-diff ─▶ fuzz-gen, triage    reptest-survey ─▶ triage
//!    reptest-impls ─▶ site
//! 3  reptest-triage ─▶ core    reptest-site ─▶ core
//! 2  reptest-core ─▶ reference, corpus
//! 1  reptest-reference ─▶ corpus (its `corpus` feature)
//! 0  reptest-corpus    reptest-fuzz-gen (arbitrary only: nothing of the workspace)
//! ```
//!
//! ```
//! use reptest_triage::dimensions;
//! let tags = dimensions(b"User-agent: *\r\nDisallow: /a*\n", "bot", "https://h/a");
//! assert!(tags.contains(&reptest_corpus::Dimension::Wildcards));
//! ```
#![deny(missing_docs)]

pub mod attribution;
pub mod dimensions;
pub mod features;
pub mod minimize;
pub mod query;
pub mod signature;

pub use dimensions::dimensions;
pub use query::Query;
