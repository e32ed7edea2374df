//! `rust-robotxt`: the `robotxt` crate (spire-rs/kit).
//!
//! `Robots::parse(bytes, agent)` keeps only the agent's group, so each agent of a
//! case gets its own `Robots` ([`ParsedBy`]); an absolute URL goes through `is_url_allowed(&Url)` (parsed by the `url`
//! crate it re-exports), a path through `is_allowed(path)`.

use super::{Body, Checker, CrateAdapter, ParsedBy};
use ::robotxt::{url::Url, Robots};

/// The pinned version (`robotxt = "=0.7.0"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.7.0";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new("rust-robotxt", "robotxt", VERSION, true, prepare)
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    let parsed = ParsedBy::new();
    Ok(Box::new(move |q| {
        parsed.check(
            q.agent,
            || Ok(Robots::parse(body.bytes, q.agent)),
            |robots| {
                if q.is_absolute() {
                    let url = Url::parse(q.url).map_err(|e| format!("url: {e}"))?;
                    Ok(robots.is_url_allowed(&url))
                } else {
                    Ok(robots.is_allowed(&q.path()))
                }
            },
        )
    }))
}
