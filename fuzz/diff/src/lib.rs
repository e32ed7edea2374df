//! Differential fuzzing: the campaign that runs generated inputs
//! ([`reptest_fuzz_gen`]) through implementations and triages their divergences
//! ([`reptest_triage`]: signatures, minimization, attribution to the questions).
//!
//! - [`campaign`]: a reproducible campaign from a seed (`reptest fuzz`).
//! - [`findings`]: new signatures as regression cases (`corpus/findings/`) and write-ups.
#![deny(missing_docs)]

pub mod campaign;
pub mod findings;
