//! Differential fuzzing: structure-aware generators of robots.txt inputs, the dimension
//! tags of an input, and the campaign that looks for divergences between implementations.
//!
//! - [`model`]: the robots.txt model ([`arbitrary`]-derived) with its quirks.
//! - [`render`]: model → bytes, deterministically.
//! - [`generate`](mod@generate): a [`FuzzInput`] (body and queries derived from its rules) from
//!   arbitrary bytes or from a seed.
//! - [`dimensions`](mod@dimensions): the [`reptest_corpus::Dimension`] tags of a body
//!   and one query, from the bytes.
//! - [`signature`]: the partition of implementations by verdict plus the dimensions and
//!   the kind of deciding rule: what groups divergences.
//! - [`minimize`]: shrinks a divergent input while it keeps its signature.
//! - [`campaign`]: a reproducible campaign from a seed (`reptest fuzz`).
//! - [`findings`]: new signatures as regression cases (`corpus/findings/`) and write-ups.

pub mod campaign;
pub mod dimensions;
pub mod findings;
pub mod generate;
pub mod minimize;
pub mod model;
pub mod render;
pub mod signature;

pub use dimensions::dimensions;
pub use generate::{generate, generate_from_seed, FuzzInput, FuzzQuery};
