//! Differential fuzzing: the campaign that runs generated inputs
//! ([`reptest_fuzz_gen`]) through implementations and groups their divergences.
//!
//! - [`signature`]: the partition of implementations by verdict plus the dimensions and
//!   the kind of deciding rule: what groups divergences.
//! - [`minimize`]: shrinks a divergent input while it keeps its signature.
//! - [`campaign`]: a reproducible campaign from a seed (`reptest fuzz`).
//! - [`findings`]: new signatures as regression cases (`corpus/findings/`) and write-ups.
//! - [`attribution`]: which known question (`corpus/questions.toml`) a divergence is
//!   about, or that it is new.
#![deny(missing_docs)]

pub mod attribution;
pub mod campaign;
pub mod features;
pub mod findings;
pub mod minimize;
pub mod signature;
