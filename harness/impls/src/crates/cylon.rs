//! `rust-cylon`: the `cylon` crate, which compiles the rules for one agent into an
//! automaton.
//!
//! `Compiler::new(agent).compile(reader)` is async over an `AsyncRead`; the body is a
//! byte slice, which never waits, so `pollster::block_on` drives it without a runtime.
//! Each agent of a case gets its own compiled `Cylon` ([`ParsedBy`]); `allow(path)` takes a path only.

use super::{Body, Checker, CrateAdapter, ParsedBy};
use ::cylon::Compiler;

/// The pinned version (`cylon = "=0.3.3"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.3.3";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new("rust-cylon", "cylon", VERSION, false, prepare)
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    let compiled = ParsedBy::new();
    Ok(Box::new(move |q| {
        compiled.check(
            q.agent,
            || {
                pollster::block_on(Compiler::new(q.agent).compile(body.bytes))
                    .map_err(|e| format!("compile: {e}"))
            },
            |cylon| Ok(cylon.allow(q.path().as_bytes())),
        )
    }))
}
