//! `rust-robotparser`: the `robotparser` crate (messense/robotparser-rs). Version 0.11.0
//! does not compile without its default `reqwest` and `futures` features, so they are
//! built, but only the parser and `RobotsTxtService` are called: no network I/O.
//!
//! `parser::parse_robots_txt(origin, &str)` parses for the origin of the robots.txt URL,
//! and `can_fetch(agent, &Url)` answers `false` for a URL of another origin, so the body
//! is parsed once per origin of a case's queries ([`ParsedBy`]).

use super::{Body, Checker, CrateAdapter, ParsedBy};
use ::robotparser::parser::parse_robots_txt;
use ::robotparser::service::RobotsTxtService;
use url::Url;

/// The pinned version (`robotparser = "=0.11.0"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.11.0";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new("rust-robotparser", "robotparser", VERSION, true, prepare)
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    let parsed = ParsedBy::new();
    Ok(Box::new(move |q| {
        let parse = |url: &str| Url::parse(url).map_err(|e| format!("url {url}: {e}"));
        let robots_url = q.robots_url();
        parsed.check(
            &robots_url,
            || Ok(parse_robots_txt(parse(&robots_url)?.origin(), body.text).get_result()),
            |robots| Ok(robots.can_fetch(q.agent, &parse(&q.absolute())?)),
        )
    }))
}
