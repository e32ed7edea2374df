//! The reference's integration tests, as one test binary: the corpus driven through the
//! reference itself (`corpus`, the only oracle of `mutants.sh`, which runs
//! `cargo test --test integration corpus::`), property tests of the matcher
//! (`properties`), and the one-query path `check_once` against parse + check (`once`).

mod corpus;
mod once;
mod properties;
