//! The crate's one error type: opaque, with a private kind.

use std::fmt;
use std::io;
use std::net::Ipv4Addr;

/// Why a scenario or a crawl could not be started: a corpus case's fetch outcome cannot be
/// served by one fetch over HTTP ([`scenario_for`](crate::scenario_for)), the scenario is
/// invalid, an address is not on loopback, binding / the runtime / the thread failed; or (for
/// [`crawl`](crate::crawl)) the crawler description is invalid, its program cannot be
/// started, or its work directory cannot be made.
///
/// A crawler's *behaviour* is never an error: whatever it does once started (exiting
/// non-zero, crashing, hanging, flooding its output) is reported in a
/// [`CrawlReport`](crate::crawl::CrawlReport).
///
/// ```
/// use reptest_site::{Scenario, Site};
///
/// let error = Site::start(&Scenario::new(42, "")).unwrap_err();
/// assert!(error.to_string().contains("42"));
/// ```
#[derive(Debug)]
pub struct Error {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// A fetch outcome one fetch over HTTP cannot show (a stale cached copy, ...).
    Unservable(String),
    /// The scenario cannot be served as written.
    Invalid(String),
    /// A caller-chosen address outside 127.0.0.0/8.
    NotLoopback(Ipv4Addr),
    /// Binding a loopback socket failed.
    Bind(Ipv4Addr, io::Error),
    /// The tokio runtime or the site's thread could not be started.
    Start(io::Error),
    /// The crawler description (or the agent) cannot be run as written.
    Crawler(String),
    /// The crawler's program could not be started (e.g. it is not installed).
    Spawn(String, io::Error),
    /// The crawl's work directory (or a reader thread) could not be made.
    Setup(io::Error),
}

impl Error {
    pub(crate) fn unservable(message: impl Into<String>) -> Self {
        Self {
            kind: Kind::Unservable(message.into()),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self {
            kind: Kind::Invalid(message.into()),
        }
    }

    pub(crate) fn not_loopback(address: Ipv4Addr) -> Self {
        Self {
            kind: Kind::NotLoopback(address),
        }
    }

    pub(crate) fn bind(address: Ipv4Addr, error: io::Error) -> Self {
        Self {
            kind: Kind::Bind(address, error),
        }
    }

    pub(crate) fn start(error: io::Error) -> Self {
        Self {
            kind: Kind::Start(error),
        }
    }

    pub(crate) fn crawler(message: impl Into<String>) -> Self {
        Self {
            kind: Kind::Crawler(message.into()),
        }
    }

    pub(crate) fn spawn(program: &str, error: io::Error) -> Self {
        Self {
            kind: Kind::Spawn(program.to_owned(), error),
        }
    }

    pub(crate) fn setup(error: io::Error) -> Self {
        Self {
            kind: Kind::Setup(error),
        }
    }

    /// Whether a fetch outcome was asked for that one fetch over HTTP cannot show
    /// ([`scenario_for`](crate::scenario_for)).
    pub fn is_unservable(&self) -> bool {
        matches!(self.kind, Kind::Unservable(_))
    }

    /// Whether the scenario (or an option) itself is at fault, rather than the machine.
    pub fn is_invalid_scenario(&self) -> bool {
        matches!(self.kind, Kind::Invalid(_) | Kind::NotLoopback(_))
    }

    /// Whether the crawler description or the agent is at fault (an empty command, an
    /// unknown placeholder, a zero time limit, an agent that cannot be sent).
    pub fn is_invalid_crawler(&self) -> bool {
        matches!(self.kind, Kind::Crawler(_))
    }

    /// Whether the crawler's program was not found (not installed, or not on `PATH`).
    pub fn is_not_installed(&self) -> bool {
        matches!(&self.kind, Kind::Spawn(_, error) if error.kind() == io::ErrorKind::NotFound)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Unservable(message) => f.write_str(message),
            Kind::Invalid(message) => write!(f, "invalid scenario: {message}"),
            Kind::NotLoopback(address) => {
                write!(f, "{address} is not a loopback address (127.0.0.0/8)")
            }
            Kind::Bind(address, error) => write!(f, "cannot bind {address}: {error}"),
            Kind::Start(error) => write!(f, "cannot start the site: {error}"),
            Kind::Crawler(message) => write!(f, "invalid crawler: {message}"),
            Kind::Spawn(program, error) => write!(f, "cannot start crawler {program:?}: {error}"),
            Kind::Setup(error) => write!(f, "cannot set up the crawl: {error}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            Kind::Bind(_, error)
            | Kind::Start(error)
            | Kind::Spawn(_, error)
            | Kind::Setup(error) => Some(error),
            Kind::Unservable(_) | Kind::Invalid(_) | Kind::NotLoopback(_) | Kind::Crawler(_) => {
                None
            }
        }
    }
}
