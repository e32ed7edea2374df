//! Differential fuzzing: structure-aware generators of robots.txt inputs and the
//! dimension tags of an input (see `CONTRACT.md` in this folder).
//!
//! - [`model`]: the robots.txt model ([`arbitrary`]-derived) with its quirks.
//! - [`render`]: model → bytes, deterministically.
//! - [`generate`](mod@generate): a [`FuzzInput`] (body and queries derived from its rules) from
//!   arbitrary bytes or from a seed.
//! - [`dimensions`](mod@dimensions): the [`reptest_corpus::Dimension`] tags of a body
//!   and one query, from the bytes.

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
