//! An example for parser maintainers: `tests/conformance.rs` gates the `texting_robots`
//! crate on reptest's RFC 9309 corpus with `reptest-cargo-test`, against the baseline
//! `tests/reptest-baseline.toml`. Run it with `cargo test -p reptest-example-texting-robots`;
//! re-record the baseline with `REPTEST_WRITE_BASELINE=1` in front.
