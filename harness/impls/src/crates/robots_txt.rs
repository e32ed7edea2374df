//! `rust-robots-txt`: the `robots_txt` crate.
//!
//! `Robots::from_str_lossy(&str)` parses once per case; `choose_section(agent)` picks the
//! group and `SimpleMatcher::check_path(path)` matches a path (no full URLs).

use super::{Body, Checker, CrateAdapter};
use ::robots_txt::{matcher::SimpleMatcher, Robots};

/// The pinned version (`robots_txt = "=0.7.0"` in harness/impls/Cargo.toml).
pub(super) const VERSION: &str = "0.7.0";

/// The adapter.
pub(super) fn adapter() -> CrateAdapter {
    CrateAdapter::new("rust-robots-txt", "robots_txt", VERSION, false, prepare)
}

fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
    let robots = Robots::from_str_lossy(body.text);
    Ok(Box::new(move |q| {
        let section = robots.choose_section(q.agent);
        Ok(SimpleMatcher::new(&section.rules).check_path(&q.path()))
    }))
}
