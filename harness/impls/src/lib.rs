//! reptest's adapters, and the registry of implementations: every adapter is listed
//! here and nowhere else.
//!
//! - [`Reference`]: the reference matcher (`reptest-reference`), always present;
//! - [`Google`]: Google's C++ robotstxt through cxx (feature `google`; available when
//!   the build found an installed copy, see `build.rs`);
//! - the robots.txt crates from crates.io, in process (feature `crates`);
//! - [`external`] programs in any language over protocol v1 (feature `external`), and
//!   [`eval`], the protocol's JSON lines answered by any implementation;
//! - real crawlers judged as black boxes on the loopback site (feature `crawlers`,
//!   `reptest-site`): `crawler-wget`, `crawler-httrack`.
//!
//! ```
//! let reference = reptest_impls::one("reference").unwrap();
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

pub use crates::{Limits, MAX_STUCK, QUERY_TIMEOUT};
pub use google::Google;
pub use reference::Reference;
/// The loopback site crawlers and fetching adapters are judged on (what a fetch case is
/// served as: [`site::scenario_for`]).
#[cfg(feature = "crawlers")]
pub use reptest_site as site;

use reptest_core::{Availability, Implementation};

/// Why [`Registry::select`] could not give the implementations named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SelectError {
    /// No implementation has that name.
    #[error("unknown implementation `{name}` ({})", did_you_mean(.name, .known))]
    Unknown {
        /// The name asked for.
        name: String,
        /// Every known name, comma-separated.
        known: String,
    },
    /// The implementation cannot run here.
    #[error("implementation `{name}` is unavailable: {why}\n  fix: {fix}")]
    Unavailable {
        /// Its name.
        name: String,
        /// What is missing.
        why: String,
        /// How to make it available.
        fix: String,
    },
}

/// The nearest known names to `name` (see [`reptest_core::nearest`]) and every known
/// one: `did you mean `x`? known: ...`, or `known: ...` when none is near.
fn did_you_mean(name: &str, known: &str) -> String {
    let near = reptest_core::nearest::nearest(name, known.split(", "), 3);
    if near.is_empty() {
        return format!("known: {known}");
    }
    let near: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
    format!("did you mean {}? known: {known}", near.join(" or "))
}

/// Settings a [`Registry`] hands to the adapters it makes. They are never process-wide,
/// so two registries (two tests, a site server and a run) never see each other's.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The limits of the in-process crate adapters.
    pub crate_limits: Limits,
    /// Take external adapters' handshakes from the on-disk cache when still valid,
    /// instead of starting them (`reptest impls`; see [`external::cache`]).
    pub cached_handshakes: bool,
    /// When set, every external adapter's per-request timeout instead of its
    /// `adapters.toml` value (`reptest survey --timeout`): the adapters' own timeout and
    /// restart machinery, with the caller's bound.
    pub external_timeout: Option<std::time::Duration>,
    /// What the caller read from its environment (the state folder, extra adapter
    /// folders, the protocol version, the search path): the command line passes its
    /// own; the default sets none of it (see [`reptest_core::Environment`]).
    pub environment: reptest_core::Environment,
}

/// The implementations reptest knows, made under one [`Options`] value. Their external
/// adapters share one handshake cache, so asking twice starts nothing twice.
///
/// ```
/// use reptest_impls::{Options, Registry};
/// let registry = Registry::new(Options::default());
/// assert_eq!(registry.names()[0], "reference");
/// ```
#[derive(Debug, Default)]
pub struct Registry {
    options: Options,
    #[cfg(feature = "external")]
    handshakes: std::sync::Arc<external::Handshakes>,
}

impl Registry {
    /// A registry making its adapters under `options`.
    pub fn new(options: Options) -> Registry {
        Registry {
            #[cfg(feature = "external")]
            handshakes: std::sync::Arc::new(external::Handshakes::new(
                options.cached_handshakes,
                &options.environment,
            )),
            options,
        }
    }

    /// Every implementation reptest knows, available or not.
    pub fn all(&self) -> Vec<Box<dyn Implementation>> {
        #[allow(unused_mut)]
        let mut all = self.in_process();
        // External adapters last (harness/external/*/adapters.toml, REPTEST_ADAPTERS).
        #[cfg(feature = "external")]
        all.extend(external::all_with(
            &self.options.environment,
            &self.handshakes,
            self.options.external_timeout,
        ));
        // Crawlers after them (harness/site/src/crawl/).
        #[cfg(feature = "crawlers")]
        all.extend(
            reptest_site::crawl::implementations(&self.options.environment)
                .into_iter()
                .map(|c| Box::new(c) as Box<dyn Implementation>),
        );
        all
    }

    /// The newest-release variants of the external adapters whose library comes from a
    /// package registry (`python-protego@latest`, `node-robots-parser@latest`: see
    /// [`external::config::Flavour`]), available or not (they are when `bash
    /// harness/external/setup --latest` installed them). They are not among
    /// [`Registry::all`], so never in a default run: [`Registry::select`] takes one only
    /// when it is named.
    pub fn latest(&self) -> Vec<Box<dyn Implementation>> {
        #[cfg(feature = "external")]
        let latest = external::latest_with(
            &self.options.environment,
            &self.handshakes,
            self.options.external_timeout,
        );
        #[cfg(not(feature = "external"))]
        let latest = Vec::new();
        latest
    }

    /// Every implementation that runs in this process, available or not: the reference,
    /// Google's library (through cxx) and the robots.txt crates from crates.io
    /// (src/crates/), in registry order.
    pub fn in_process(&self) -> Vec<Box<dyn Implementation>> {
        let mut all: Vec<Box<dyn Implementation>> =
            vec![Box::new(Reference::rfc9309()), Box::new(Google::new())];
        all.extend(crates::all(self.options.crate_limits));
        all
    }

    /// The names of every implementation, in registry order.
    pub fn names(&self) -> Vec<String> {
        self.all().iter().map(|i| i.name().to_string()).collect()
    }

    /// The runtime each implementation of `names` runs on, for those that do not run as
    /// reptest's own Rust code: an external adapter's (its Python, Node.js, JVM, Go, Perl
    /// or Ruby version, [`external::runtime`]: each runtime asked once, within
    /// `timeout`), and Google's library (where it was linked from). The reference and
    /// the robots.txt crates run in reptest's process: they have no entry.
    pub fn runtimes<S: AsRef<str>>(
        &self,
        names: &[S],
        timeout: std::time::Duration,
    ) -> std::collections::BTreeMap<String, String> {
        let named = |name: &str| names.iter().any(|n| n.as_ref() == name);
        #[allow(unused_mut)]
        let mut runtimes = std::collections::BTreeMap::new();
        if named("google") {
            runtimes.insert("google".to_string(), Google::runtime());
        }
        #[cfg(feature = "external")]
        {
            let environment = &self.options.environment;
            let registry =
                external::config::load(&external::config::default_files(environment), environment);
            let specs: Vec<&external::AdapterSpec> = registry
                .adapters
                .iter()
                .filter(|spec| named(&spec.name))
                .collect();
            runtimes.extend(external::runtime::runtimes(&specs, timeout));
        }
        #[cfg(not(feature = "external"))]
        let _ = timeout;
        runtimes
    }

    /// The one implementation named, when it is known and available; errors as
    /// [`Registry::select`].
    pub fn one(&self, name: &str) -> Result<Box<dyn Implementation>, SelectError> {
        self.select(&[name])?
            .pop()
            .ok_or_else(|| SelectError::Unknown {
                name: name.to_string(),
                known: self.names().join(", "),
            })
    }

    /// The implementations named, in the order given; `all` names every available one,
    /// `parsers` every available one that parses a body, `crawlers` every available
    /// crawler (never a newest-release variant: `NAME@latest` is taken only when named,
    /// from [`Registry::latest`]). An unknown or unavailable name is an error that says
    /// what is known (for `NAME@latest`: the variants there are), or how to fix it.
    pub fn select<S: AsRef<str>>(
        &self,
        names: &[S],
    ) -> Result<Vec<Box<dyn Implementation>>, SelectError> {
        let mut known = self.all();
        // Which known ones are available, asked once and only when a set is named.
        let mut available: Vec<bool> = if names.iter().any(|n| Set::of(n.as_ref()).is_some()) {
            availabilities(&known)
                .iter()
                .map(|a| *a == Availability::Available)
                .collect()
        } else {
            Vec::new()
        };
        let mut chosen: Vec<Box<dyn Implementation>> = Vec::new();
        let mut latest: Option<Vec<Box<dyn Implementation>>> = None;
        for name in names {
            let name = name.as_ref();
            if let Some(set) = Set::of(name) {
                let mut at = 0;
                while at < known.len() {
                    if available[at] && set.holds(known[at].as_ref()) {
                        available.remove(at);
                        chosen.push(known.remove(at));
                    } else {
                        at += 1;
                    }
                }
                continue;
            }
            if name.ends_with("@latest") && !chosen.iter().any(|i| i.name() == name) {
                let variants = latest.get_or_insert_with(|| self.latest());
                chosen.push(take_latest(variants, name)?);
                continue;
            }
            let Some(at) = known.iter().position(|i| i.name() == name) else {
                if chosen.iter().any(|i| i.name() == name) {
                    continue;
                }
                return Err(SelectError::Unknown {
                    name: name.to_string(),
                    known: self.names().join(", "),
                });
            };
            if !available.is_empty() {
                available.remove(at);
            }
            chosen.push(self::available(known.remove(at))?);
        }
        Ok(chosen)
    }
}

/// A name on the command line that stands for several implementations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Set {
    /// `all`: every available implementation.
    All,
    /// `parsers`: every available one that parses a body (not a crawler).
    Parsers,
    /// `crawlers`: every available crawler.
    Crawlers,
}

impl Set {
    /// The set `name` stands for, if it names one.
    fn of(name: &str) -> Option<Set> {
        match name {
            "all" => Some(Set::All),
            "parsers" => Some(Set::Parsers),
            "crawlers" => Some(Set::Crawlers),
            _ => None,
        }
    }

    /// Whether `implementation` (an available one) belongs to the set.
    fn holds(self, implementation: &dyn Implementation) -> bool {
        let crawler = implementation.info().kind == reptest_core::ImplKind::Crawler;
        match self {
            Set::All => true,
            Set::Parsers => !crawler,
            Set::Crawlers => crawler,
        }
    }
}

/// The newest-release variant `name` (`NAME@latest`) taken from `variants`, when it is
/// there and available.
fn take_latest(
    variants: &mut Vec<Box<dyn Implementation>>,
    name: &str,
) -> Result<Box<dyn Implementation>, SelectError> {
    let Some(at) = variants.iter().position(|i| i.name() == name) else {
        let known: Vec<&str> = variants.iter().map(|i| i.name()).collect();
        return Err(SelectError::Unknown {
            name: name.to_string(),
            known: known.join(", "),
        });
    };
    available(variants.remove(at))
}

/// `implementation` when it is available, else the error naming why and the fix.
fn available(
    implementation: Box<dyn Implementation>,
) -> Result<Box<dyn Implementation>, SelectError> {
    match implementation.availability() {
        Availability::Available => Ok(implementation),
        Availability::Unavailable { why, fix } => Err(SelectError::Unavailable {
            name: implementation.name().to_string(),
            why,
            fix,
        }),
    }
}

/// Every implementation reptest knows, available or not, under default [`Options`].
pub fn all() -> Vec<Box<dyn Implementation>> {
    Registry::default().all()
}

/// Every in-process implementation, available or not, under default [`Options`].
pub fn in_process() -> Vec<Box<dyn Implementation>> {
    Registry::default().in_process()
}

/// The names of every implementation, in registry order.
pub fn names() -> Vec<String> {
    Registry::default().names()
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

/// [`Registry::one`] under default [`Options`].
pub fn one(name: &str) -> Result<Box<dyn Implementation>, SelectError> {
    Registry::default().one(name)
}

/// [`Registry::select`] under default [`Options`].
pub fn select<S: AsRef<str>>(names: &[S]) -> Result<Vec<Box<dyn Implementation>>, SelectError> {
    Registry::default().select(names)
}

#[cfg(all(test, feature = "crates"))]
mod tests {
    use super::*;
    use reptest_core::{CaseInput, QueryInput};
    use std::time::Duration;

    /// One registry's limits never reach another's adapters (they were process-wide
    /// statics once: a campaign's short timeout leaked into every later run).
    #[test]
    fn options_belong_to_their_registry() {
        let default = Registry::default().one("rust-robotxt").unwrap();
        let hurried = Registry::new(Options {
            crate_limits: Limits {
                timeout: Duration::from_nanos(1),
                max_stuck: 100,
            },
            ..Options::default()
        })
        .one("rust-robotxt")
        .unwrap();
        let case = CaseInput {
            robots: b"User-agent: *\nDisallow: /private\n",
            fetch: None,
            queries: &[QueryInput {
                agent: "bot",
                url: "https://example.com/private",
            }],
        };
        // The hurried one most likely times out; whatever it does, the other is unchanged.
        let _ = hurried.evaluate(&case);
        assert_eq!(default.evaluate(&case)[0].allowed(), Some(false));
    }
}
