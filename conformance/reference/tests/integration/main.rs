//! The reference's integration tests, as one test binary: the corpus driven through the
//! reference itself (`corpus`, the only oracle of `mutants.sh`, which runs
//! `cargo test --test integration corpus::`), and property tests of the matcher
//! (`properties`).

mod corpus;
mod properties;
