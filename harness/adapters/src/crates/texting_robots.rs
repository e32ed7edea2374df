//! `rust-texting-robots`: the `texting_robots` crate.
//!
//! `Robot::new(agent, bytes)` keeps only the agent's rules, so each query gets its own
//! `Robot`; `allowed(url)` takes an absolute URL or a path.

use super::{Body, Checker, CrateAdapter};
use ::texting_robots::Robot;

/// The pinned version (`texting_robots = "=0.2.2"` in harness/adapters/Cargo.toml).
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
    Ok(Box::new(move |q| {
        let robot = Robot::new(q.agent, body.bytes).map_err(|e| format!("{e:#}"))?;
        Ok(robot.allowed(q.url))
    }))
}
