//! `rust-texting-robots`: the `texting_robots` crate.
//!
//! `Robot::new(agent, bytes)` keeps only the agent's rules, so each agent of a
//! case gets its own `Robot` ([`ParsedBy`]); `allowed(url)` takes an absolute URL or a path.

use super::{Body, Checker, CrateAdapter, ParsedBy};
use ::texting_robots::Robot;

/// The pinned version (`texting_robots = "=0.2.2"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.2.2";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new(
        "rust-texting-robots",
        "texting_robots",
        VERSION,
        true,
        prepare,
    )
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    let robots = ParsedBy::new();
    Ok(Box::new(move |q| {
        robots.check(
            q.agent,
            || Robot::new(q.agent, body.bytes).map_err(|e| format!("{e:#}")),
            |robot| Ok(robot.allowed(q.url)),
        )
    }))
}
