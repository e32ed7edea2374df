//! The registry of implementations: every adapter is listed here and nowhere else.

mod reference;

pub use reference::Reference;

use crate::{Availability, Implementation};

/// Every implementation reptest knows, available or not.
pub fn all() -> Vec<Box<dyn Implementation>> {
    vec![Box::new(Reference::rfc9309())]
}

/// The names of every implementation, in registry order.
pub fn names() -> Vec<String> {
    all().iter().map(|i| i.info().name.clone()).collect()
}

/// The implementations named, in the order given; `all` names every available one.
/// An unknown or unavailable name is an error that says what is known, or how to fix it.
pub fn select<S: AsRef<str>>(names: &[S]) -> Result<Vec<Box<dyn Implementation>>, String> {
    let mut known = all();
    if names.iter().any(|n| n.as_ref() == "all") {
        known.retain(|i| i.availability() == Availability::Available);
        return Ok(known);
    }
    let mut chosen: Vec<Box<dyn Implementation>> = Vec::new();
    for name in names {
        let name = name.as_ref();
        let Some(at) = known.iter().position(|i| i.info().name == name) else {
            if chosen.iter().any(|i| i.info().name == name) {
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
