//! The survey crate's integration tests, as one test binary: inputs (directories, tar,
//! WARC from two independent writers), hostile and random inputs, query derivation, and
//! the engine with its shards, and the synthetic WARC generator.

mod common;

mod engine;
mod hostile;
mod inputs;
mod queries;
mod robustness;
mod synth;
mod warc_rust;
mod warcio;
