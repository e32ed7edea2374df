//! The corpus crate's integration tests, as one test binary: the loader on handmade case
//! files (`loader`), and the shipped corpus's coverage of the requirement index
//! (`coverage`).

mod coverage;
mod loader;
