//! `reptest`: the command line (`src/main.rs`), and one façade over the workspace's crates
//! for tests, benchmarks and tools that want the whole harness under one name.
//!
//! | path | crate |
//! | --- | --- |
//! | `reptest::{Implementation, Outcome, runner, score, visible, markup, atomic, shutdown, ...}` | `reptest-core` |
//! | `reptest::impls` (the registry and every adapter), `reptest::eval` | `reptest-impls` |
//! | `reptest::report`, `reptest::gate` | `reptest-report` |
//! | `reptest::fuzz` (generator and differential campaign) | `reptest-fuzz-gen`, `reptest-fuzz-diff` |
//! | `reptest::triage` (signatures, minimizer, attribution of divergences) | `reptest-triage` |
//!
//! ```
//! use reptest::{impls, runner, score};
//! let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
//! let implementations = impls::select(&["reference"]).unwrap();
//! let run = runner::run(&corpus, &implementations);
//! let summary = score::summarize(&corpus, &run, reptest_corpus::Profile::Rfc9309);
//! assert_eq!(summary[0].name, "reference");
//! ```
#![deny(missing_docs)]

pub use reptest_core::*;
pub use reptest_impls as impls;
pub use reptest_impls::eval;
pub use reptest_report as report;
pub use reptest_report::gate;
pub use reptest_triage as triage;

/// Differential fuzzing: the generator (`reptest-fuzz-gen`) and the campaign
/// (`reptest-fuzz-diff`) under one path.
pub mod fuzz {
    pub use reptest_fuzz_diff::*;
    pub use reptest_fuzz_gen::*;
}
