//! `rust-robotstxt`: the `robotstxt` crate, a native Rust port of Google's C++ library.
//!
//! `DefaultMatcher::one_agent_allowed_by_robots(body, agent, url)` parses the `&str`
//! body on every call and takes a full URL; the matcher keeps per-call state, so each
//! query gets a fresh one.

use super::{Body, Checker, CrateAdapter};
use ::robotstxt::DefaultMatcher;

/// The pinned version (`robotstxt = "=0.3.0"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.3.0";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new("rust-robotstxt", "robotstxt", VERSION, true, prepare)
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    Ok(Box::new(move |q| {
        let url = q.absolute();
        Ok(DefaultMatcher::default().one_agent_allowed_by_robots(body.text, q.agent, &url))
    }))
}
