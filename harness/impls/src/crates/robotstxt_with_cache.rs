//! `rust-robotstxt-with-cache`: the `robotstxt-with-cache` crate, a fork of `robotstxt`
//! (a port of Google's C++ library) whose `CachingRobotsMatcher` parses the body once
//! and answers any number of `(agent, URL)` queries from that parse.
//!
//! `DefaultCachingMatcher::new(DefaultMatcher::default())`, `parse(&str)` once per case,
//! then `one_agent_allowed_by_robots(agent, url)` with a full URL per query (it takes
//! `&mut self`, hence the `RefCell`).

use super::{Body, Checker, CrateAdapter};
use ::robotstxt_with_cache::{DefaultCachingMatcher, DefaultMatcher};
use std::cell::RefCell;

/// The pinned version (`robotstxt-with-cache = "=0.4.0"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.4.0";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new(
        "rust-robotstxt-with-cache",
        "robotstxt-with-cache",
        VERSION,
        true,
        prepare,
    )
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    let mut matcher = DefaultCachingMatcher::new(DefaultMatcher::default());
    matcher.parse(body.text);
    let matcher = RefCell::new(matcher);
    Ok(Box::new(move |q| {
        let url = q.absolute();
        Ok(matcher
            .borrow_mut()
            .one_agent_allowed_by_robots(q.agent, &url))
    }))
}
