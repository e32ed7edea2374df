//! `rust-robotstxt-rs`: the `robotstxt-rs` crate (joshmsimpson/robots-txt). Its parser
//! is only compiled with its default `async` feature (which also brings its fetching
//! through reqwest); the adapter only parses.
//!
//! `RobotsTxt::parse(&str)` parses once for every agent; `can_fetch(user_agent, path)`
//! takes a path (and query), as in its documentation.

use super::{Body, Checker, CrateAdapter};
use ::robotstxt_rs::RobotsTxt;

/// The pinned version (`robotstxt-rs = "=0.1.4"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.1.4";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new("rust-robotstxt-rs", "robotstxt-rs", VERSION, false, prepare)
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    let robots = RobotsTxt::parse(body.text);
    Ok(Box::new(move |q| Ok(robots.can_fetch(q.agent, &q.path()))))
}
