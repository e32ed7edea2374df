//! reptest's structure-aware robots.txt generator, for the differential campaign
//! (`reptest-fuzz-diff`) and the cargo-fuzz targets (`fuzz/targets`).
//!
//! - [`model`]: the robots.txt model ([`arbitrary`]-derived) with its quirks.
//! - [`render`]: model → bytes, deterministically.
//! - [`generate`](mod@generate): a [`FuzzInput`] (body and queries derived from its rules) from
//!   arbitrary bytes or from a seed.
//!
//! ```
//! let input = reptest_fuzz_gen::generate_from_seed(7);
//! assert!(!input.queries.is_empty());
//! ```
#![deny(missing_docs)]

pub mod generate;
pub mod model;
pub mod render;

pub use generate::{generate, generate_from_seed, FuzzInput, FuzzQuery};
