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
//! Where it sits in the workspace (normal dependencies, top depends on bottom; the
//! allowed edges are checked by `.ci/crate-graph.py`):
//!
//! ```text
//!            reptest (cli)
//!       ┌──────┬───┴──────┬───────────┐
//!    report  survey    adapters  cargo-test ─▶ report
//!       │      │          │
//!   fuzz-diff  │         site
//!     │    └───┤
//!  fuzz-gen  triage
//!              │
//!            core
//!              │
//!      reference, corpus
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
