//! External implementations: programs in any language that reptest starts and talks to,
//! registered in `adapters.toml` files (`harness/PROTOCOL.md`).
//!
//! - [`config`] reads the `adapters.toml` files into [`AdapterSpec`]s;
//! - [`cache`] keeps handshake results (in memory, and on disk for `reptest impls`);
//! - [`Persistent`] speaks protocol v1 or v2 ([`protocol`]; v2 sends one body with many
//!   queries to an adapter that said `"protocol": 2`) with a pool of long-running
//!   processes (`process.rs` is one child process, `pool.rs` the pool);
//! - [`PerQuery`] runs one process per query (compatibility mode);
//! - [`runtime`] tells the runtime an adapter runs on (Python, Node.js, JVM, Go, Perl,
//!   Ruby), for a survey's provenance;
//! - `fetching` (feature `crawlers`, which brings the loopback site) judges an adapter
//!   with the `fetches` capability on fetch cases through its library's own fetching API.
//!
//! A malformed registration is not fatal: it shows up as an unavailable implementation
//! whose reason names the file, line and adapter.

pub mod cache;
pub mod config;
#[cfg(feature = "crawlers")]
pub mod fetching;
mod per_query;
mod persistent;
mod pool;
mod process;
pub mod protocol;
pub mod runtime;

pub use cache::Handshakes;
pub use config::{AdapterSpec, Flavour, LoadError, Mode, Registry, Verdicts, LATEST_SUFFIX};
pub use per_query::PerQuery;
pub use persistent::{
    batch_line_limit, batch_timeout, max_protocol, Persistent, BATCH_LINE_PER_QUERY,
    HANDSHAKE_TIMEOUT, MAX_BATCH, MAX_RESTARTS, POOL_SIZE,
};

use reptest_core::{Availability, CaseInput, Environment, ImplInfo, Implementation, Outcome};
use std::path::PathBuf;
use std::sync::Arc;

/// Every external implementation registered in [`config::default_files`] under
/// `environment`; no process is started until an implementation's availability or info
/// is asked for.
pub fn all(environment: &Environment) -> Vec<Box<dyn Implementation>> {
    let handshakes = Arc::new(Handshakes::new(false, environment));
    all_with(environment, &handshakes, None)
}

/// [`all`], with handshakes cached in `handshakes` and, when `timeout` is set, that
/// per-request timeout for every adapter instead of its registration's.
pub fn all_with(
    environment: &Environment,
    handshakes: &Arc<Handshakes>,
    timeout: Option<std::time::Duration>,
) -> Vec<Box<dyn Implementation>> {
    from_registry(
        load_default(environment, timeout),
        handshakes,
        max_protocol(environment),
    )
}

/// The newest-release variants (`NAME@latest`, [`config::Flavour::Latest`]) of the
/// adapters [`all_with`] makes, under the same handshake cache and timeout. They are not
/// among [`all_with`]'s: a run takes one only when it is named.
pub fn latest_with(
    environment: &Environment,
    handshakes: &Arc<Handshakes>,
    timeout: Option<std::time::Duration>,
) -> Vec<Box<dyn Implementation>> {
    let max_protocol = max_protocol(environment);
    load_default(environment, timeout)
        .latest
        .into_iter()
        .map(|spec| adapter(spec, handshakes, max_protocol))
        .collect()
}

/// The registry of [`config::default_files`], every adapter (and variant) with the
/// per-request `timeout` when set.
fn load_default(environment: &Environment, timeout: Option<std::time::Duration>) -> Registry {
    let mut registry = config::load(&config::default_files(environment), environment);
    if let Some(timeout) = timeout {
        for spec in registry.adapters.iter_mut().chain(&mut registry.latest) {
            spec.timeout = timeout;
        }
    }
    registry
}

/// The external implementations of the `adapters.toml` in each of `dirs`, under
/// `environment` (for tests and tools that bring their own adapters).
pub fn from_dirs(dirs: &[PathBuf], environment: &Environment) -> Vec<Box<dyn Implementation>> {
    let files: Vec<PathBuf> = dirs.iter().map(|d| d.join("adapters.toml")).collect();
    from_registry(
        config::load(&files, environment),
        &Arc::new(Handshakes::new(false, environment)),
        max_protocol(environment),
    )
}

/// One implementation per registered adapter, speaking protocol `max_protocol` at most
/// (1: v1 requests only, as with `REPTEST_PROTOCOL=1`), and one unavailable placeholder
/// per problem found.
pub fn from_registry(
    registry: Registry,
    handshakes: &Arc<Handshakes>,
    max_protocol: u64,
) -> Vec<Box<dyn Implementation>> {
    let mut implementations: Vec<Box<dyn Implementation>> = registry
        .adapters
        .into_iter()
        .map(|spec| adapter(spec, handshakes, max_protocol))
        .collect();
    implementations.extend(
        registry
            .errors
            .into_iter()
            .map(|e| Box::new(Malformed::new(e)) as Box<dyn Implementation>),
    );
    implementations
}

/// The implementation for one registration, speaking protocol `max_protocol` at most.
pub fn adapter(
    spec: AdapterSpec,
    handshakes: &Arc<Handshakes>,
    max_protocol: u64,
) -> Box<dyn Implementation> {
    match PerQuery::new(spec.clone()) {
        Some(per_query) => Box::new(per_query),
        None => Box::new(Persistent::with_max_protocol(
            spec,
            Arc::clone(handshakes),
            max_protocol,
        )),
    }
}

/// A registration that could not be read: always unavailable, saying why.
struct Malformed {
    info: ImplInfo,
    error: LoadError,
}

impl Malformed {
    fn new(error: LoadError) -> Malformed {
        let folder = error
            .file
            .parent()
            .and_then(|dir| dir.file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = match (&error.name, error.line) {
            (Some(name), _) => format!("{name}?"),
            (None, Some(line)) => format!("{folder}/adapters.toml:{line}"),
            (None, None) => format!("{folder}/adapters.toml"),
        };
        Malformed {
            info: ImplInfo {
                name,
                version: "-".into(),
                language: "-".into(),
                capabilities: Default::default(),
                kind: reptest_core::ImplKind::Process,
            },
            error,
        }
    }
}

impl Implementation for Malformed {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn availability(&self) -> Availability {
        Availability::Unavailable {
            why: format!("malformed registration: {}", self.error),
            fix: format!(
                "correct {} (format: harness/PROTOCOL.md)",
                self.error.file.display()
            ),
        }
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        vec![Outcome::Error(self.error.to_string()); case.queries.len()]
    }
}
