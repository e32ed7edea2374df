//! What reptest takes from its process environment, as a value: the command line reads the
//! variables once (`reptest`'s `main`) and hands an [`Environment`] down, so no library
//! reads the environment itself and two callers (two tests, a tool) never see each
//! other's settings.
//!
//! | variable | what it sets |
//! | --- | --- |
//! | `REPTEST_STATE` | where external implementations and crawlers are installed ([`Environment::state_dir`]) |
//! | `REPTEST_ADAPTERS` | more folders with an `adapters.toml` ([`Environment::adapter_dirs`]) |
//! | `REPTEST_PROTOCOL` | the highest adapter protocol version to speak ([`Environment::max_protocol`]) |
//! | `PATH` | where programs named without a `/` are looked for ([`Environment::search_path`]) |
//! | `PYTHONHASHSEED`, `PERL_HASH_SEED`, `PERL_PERTURB_KEYS` | when set, kept for started adapters ([`Environment::process_seeds`]) |
//!
//! ```
//! use std::ffi::OsString;
//! use reptest_core::Environment;
//!
//! let vars = |name: &str| match name {
//!     "REPTEST_PROTOCOL" => Some(OsString::from(" 1 ")),
//!     "PATH" => Some(OsString::from("/usr/bin:/bin")),
//!     _ => None,
//! };
//! let environment = Environment::from_lookup(vars);
//! assert_eq!(environment.max_protocol(), Some(1));
//! assert_eq!(environment.search_path().len(), 2);
//! assert_eq!(environment.state_dir(), None);
//! // The command line passes the process's own:
//! // Environment::from_lookup(|name| std::env::var_os(name)).
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Fixed hash seeds for started adapter processes: a library whose answer depends on
/// dict or hash iteration order (python-robotspy on overlapping groups) then answers the
/// same in every run. A seed the caller's environment sets is kept.
pub const PROCESS_SEEDS: [(&str, &str); 3] = [
    ("PYTHONHASHSEED", "0"),
    ("PERL_HASH_SEED", "0"),
    ("PERL_PERTURB_KEYS", "0"),
];

/// The settings reptest reads from its environment (see the [module](self) table).
///
/// [`Environment::default`] is an environment that sets none of the variables: the
/// default state folder, no extra adapters, the highest protocol version, no search path
/// (a program named without a `/` is not found) and every [`PROCESS_SEEDS`] entry set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    state_dir: Option<PathBuf>,
    adapter_dirs: Vec<PathBuf>,
    max_protocol: Option<u64>,
    search_path: Vec<PathBuf>,
    process_seeds: Vec<(&'static str, &'static str)>,
}

impl Default for Environment {
    fn default() -> Environment {
        Environment {
            state_dir: None,
            adapter_dirs: Vec::new(),
            max_protocol: None,
            search_path: Vec::new(),
            process_seeds: PROCESS_SEEDS.to_vec(),
        }
    }
}

impl Environment {
    /// The settings `lookup` gives for each variable (the command line passes
    /// `|name| std::env::var_os(name)`). Relative folders are taken from the current
    /// directory.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<OsString>) -> Environment {
        let state_dir = lookup("REPTEST_STATE")
            .filter(|dir| !dir.is_empty())
            .map(|dir| absolute(PathBuf::from(dir)));
        let adapter_dirs = lookup("REPTEST_ADAPTERS")
            .map(|dirs| {
                std::env::split_paths(&dirs)
                    .filter(|dir| !dir.as_os_str().is_empty())
                    .map(absolute)
                    .collect()
            })
            .unwrap_or_default();
        let max_protocol = lookup("REPTEST_PROTOCOL")
            .and_then(|v| v.to_str().and_then(|v| v.trim().parse::<u64>().ok()));
        let search_path = lookup("PATH")
            .map(|path| std::env::split_paths(&path).collect())
            .unwrap_or_default();
        let process_seeds = PROCESS_SEEDS
            .into_iter()
            .filter(|(name, _)| lookup(name).is_none())
            .collect();
        Environment {
            state_dir,
            adapter_dirs,
            max_protocol,
            search_path,
            process_seeds,
        }
    }

    /// `REPTEST_STATE`: where `harness/external/setup` installs external implementations
    /// and crawlers (absolute); `None`: each crate's default, `harness/external/.state`.
    pub fn state_dir(&self) -> Option<&Path> {
        self.state_dir.as_deref()
    }

    /// `REPTEST_ADAPTERS`: folders (absolute) each holding an `adapters.toml` of one's own.
    pub fn adapter_dirs(&self) -> &[PathBuf] {
        &self.adapter_dirs
    }

    /// `REPTEST_PROTOCOL`: the highest adapter protocol version to speak (`1`: version-1
    /// requests only); `None` when unset or not a number.
    pub fn max_protocol(&self) -> Option<u64> {
        self.max_protocol
    }

    /// `PATH`, split: where a program named without a `/` is looked for, in order.
    pub fn search_path(&self) -> &[PathBuf] {
        &self.search_path
    }

    /// The [`PROCESS_SEEDS`] to set for a started adapter: those the environment does not
    /// set itself.
    pub fn process_seeds(&self) -> &[(&'static str, &'static str)] {
        &self.process_seeds
    }

    /// The same settings with the state folder `dir` (`REPTEST_STATE`).
    pub fn with_state_dir(mut self, dir: impl Into<PathBuf>) -> Environment {
        self.state_dir = Some(dir.into());
        self
    }

    /// The same settings with the search path `dirs` (`PATH`).
    pub fn with_search_path(mut self, dirs: impl IntoIterator<Item = PathBuf>) -> Environment {
        self.search_path = dirs.into_iter().collect();
        self
    }
}

/// `path`, taken from the current directory when relative.
fn absolute(path: PathBuf) -> PathBuf {
    if path.is_absolute() {
        path
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(&path))
            .unwrap_or(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_and_empty_variables_leave_the_defaults() {
        let empty = |name: &str| (name == "REPTEST_STATE").then(OsString::new);
        assert_eq!(Environment::from_lookup(empty), Environment::default());
        assert_eq!(Environment::from_lookup(|_| None), Environment::default());
    }

    #[test]
    fn folders_are_absolute_and_empty_entries_of_reptest_impls_are_skipped() {
        let vars = |name: &str| match name {
            "REPTEST_STATE" => Some(OsString::from("relative/state")),
            "REPTEST_ADAPTERS" => Some(OsString::from("/a::b")),
            "REPTEST_PROTOCOL" => Some(OsString::from("two")),
            "PATH" => Some(OsString::from("/x::/y")),
            "PERL_HASH_SEED" => Some(OsString::from("7")),
            _ => None,
        };
        let environment = Environment::from_lookup(vars);
        let state = environment.state_dir().unwrap();
        assert!(
            state.is_absolute() && state.ends_with("relative/state"),
            "{state:?}"
        );
        assert_eq!(environment.adapter_dirs().len(), 2);
        assert_eq!(environment.adapter_dirs()[0], Path::new("/a"));
        assert!(environment.adapter_dirs()[1].is_absolute());
        assert_eq!(environment.max_protocol(), None);
        // PATH's empty entry stays (it means the current directory to a shell).
        assert_eq!(environment.search_path().len(), 3);
        let seeds: Vec<&str> = environment.process_seeds().iter().map(|s| s.0).collect();
        assert_eq!(seeds, ["PYTHONHASHSEED", "PERL_PERTURB_KEYS"]);
    }
}
