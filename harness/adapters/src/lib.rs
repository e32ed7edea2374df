//! reptest's adapters, and the registry of implementations: every adapter is listed
//! here and nowhere else.
//!
//! - [`Reference`]: the reference matcher (`reptest-reference`), always present;
//! - [`Google`]: Google's C++ robotstxt through cxx (feature `google`; available when
//!   the build found an installed copy, see `build.rs`);
//! - the robots.txt crates from crates.io, in process (feature `crates`);
//! - [`external`] programs in any language over protocol v1 (feature `external`), and
//!   [`eval`], the protocol's JSON lines answered by any implementation.
//!
//! ```
//! let reference = reptest_adapters::one("reference").unwrap();
//! assert_eq!(reference.name(), "reference");
//! ```
#![deny(missing_docs)]

mod crates;
#[cfg(feature = "external")]
pub mod eval;
#[cfg(feature = "external")]
pub mod external;
mod google;
mod reference;

pub use crates::{query_timeout, set_limits, stuck_limit, MAX_STUCK, QUERY_TIMEOUT};
pub use google::Google;
pub use reference::Reference;

use reptest_core::{Availability, Implementation};

/// Every implementation reptest knows, available or not.
pub fn all() -> Vec<Box<dyn Implementation>> {
    #[allow(unused_mut)]
    let mut all = in_process();
    // External adapters last (harness/external/*/adapters.toml, REPTEST_ADAPTERS).
    #[cfg(feature = "external")]
    all.extend(external::all());
    all
}

/// Every implementation that runs in this process, available or not: the reference,
/// Google's library (through cxx) and the robots.txt crates from crates.io
/// (src/crates/), in registry order.
pub fn in_process() -> Vec<Box<dyn Implementation>> {
    let mut all: Vec<Box<dyn Implementation>> =
        vec![Box::new(Reference::rfc9309()), Box::new(Google::new())];
    all.extend(crates::all());
    all
}

/// The names of every implementation, in registry order.
pub fn names() -> Vec<String> {
    all().iter().map(|i| i.name().to_string()).collect()
}

/// The availability of each implementation, found concurrently (external adapters are
/// started and handshaken in parallel, one thread each: the handshakes wait on I/O).
pub fn availabilities(implementations: &[Box<dyn Implementation>]) -> Vec<Availability> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = implementations
            .iter()
            .map(|i| scope.spawn(move || i.availability()))
            .collect();
        handles
            .into_iter()
            .zip(implementations)
            .map(|(handle, i)| {
                handle.join().unwrap_or_else(|_| Availability::Unavailable {
                    why: format!("`{}` panicked while starting", i.name()),
                    fix: "report a bug".into(),
                })
            })
            .collect()
    })
}

/// The one implementation named, when it is known and available; errors as [`select`].
pub fn one(name: &str) -> Result<Box<dyn Implementation>, String> {
    select(&[name])?
        .pop()
        .ok_or_else(|| format!("no implementation `{name}`"))
}

/// The implementations named, in the order given; `all` names every available one.
/// An unknown or unavailable name is an error that says what is known, or how to fix it.
pub fn select<S: AsRef<str>>(names: &[S]) -> Result<Vec<Box<dyn Implementation>>, String> {
    let mut known = all();
    if names.iter().any(|n| n.as_ref() == "all") {
        let available = availabilities(&known);
        let mut available = available.iter();
        known.retain(|_| available.next() == Some(&Availability::Available));
        return Ok(known);
    }
    let mut chosen: Vec<Box<dyn Implementation>> = Vec::new();
    for name in names {
        let name = name.as_ref();
        let Some(at) = known.iter().position(|i| i.name() == name) else {
            if chosen.iter().any(|i| i.name() == name) {
                continue;
            }
            return Err(format!(
                "unknown implementation `{name}` (known: {})",
                self::names().join(", ")
            ));
        };
        let implementation = known.remove(at);
        if let Availability::Unavailable { why, fix } = implementation.availability() {
            return Err(format!(
                "implementation `{name}` is unavailable: {why}\n  fix: {fix}"
            ));
        }
        chosen.push(implementation);
    }
    Ok(chosen)
}
