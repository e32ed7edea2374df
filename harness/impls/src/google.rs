//! `google`: Google's C++ robotstxt library (`googlebot::RobotsMatcher`,
//! <https://github.com/google/robotstxt>), linked from an installed copy through the `cxx`
//! crate.
//!
//! The library is never vendored or built by reptest: `build.rs` looks for an installed
//! copy (`ROBOTSTXT_CPP_PREFIX`, else `/usr/local` and `/usr`) and, when it finds one,
//! compiles the shim `cpp/google_shim.cc` with the bridge in `google/ffi.rs` and sets
//! `cfg(reptest_google)`. Without it the adapter is listed but unavailable, with the fix.
//!
//! Every query gets a fresh `RobotsMatcher` and one `OneAgentAllowedByRobots` call on the
//! whole body (Google has no parse-once API), and the deciding line is
//! `RobotsMatcher::matching_line()` (none when no rule matched). Google's matcher takes
//! the agent as given (it keeps the leading `[a-zA-Z_-]+`) and an absolute URL; a
//! path-only URL is given the origin `https://example.com` (`reptest_core::url`).

use reptest_core::{Availability, Capabilities, CaseInput, ImplInfo, Implementation, Outcome};
use std::borrow::Cow;

/// The `#[cxx::bridge]` to `cpp/google_shim.h`; compiled only when `build.rs` found the
/// library. (It is a file of its own because `cxx_build` reads the bridge file before
/// `cfg(reptest_google)` exists, and would drop a bridge carrying that cfg.)
#[cfg(reptest_google)]
mod ffi;

/// Google's robotstxt, or its absence.
pub struct Google {
    info: ImplInfo,
}

impl Google {
    /// The adapter; available only when the library was found at build time.
    pub fn new() -> Google {
        Google {
            info: ImplInfo {
                name: "google".into(),
                version: version(),
                language: "C++".into(),
                capabilities: Capabilities {
                    full_urls: true,
                    fetch_outcomes: false,
                    fetches: false,
                    reports_line: true,
                },
                kind: reptest_core::ImplKind::InProcess,
            },
        }
    }

    /// Whether Google's library was linked into this build (`cfg(reptest_google)`).
    pub const fn linked() -> bool {
        cfg!(reptest_google)
    }

    /// The library's folder and file this build linked (`/usr/local/lib (librobots.a)`),
    /// as `build.rs` found it; `None` when it was not linked.
    pub fn linked_from() -> Option<&'static str> {
        option_env!("REPTEST_GOOGLE_LINKED_FROM").filter(|_| Google::linked())
    }

    /// What the adapter runs on, for a survey's provenance: the C++ library, in
    /// reptest's process, and where it was linked from (or that it was not).
    pub fn runtime() -> String {
        match Google::linked_from() {
            Some(from) => format!("C++ library linked in process from {from}"),
            None => "not linked into this build".to_string(),
        }
    }
}

impl Default for Google {
    fn default() -> Google {
        Google::new()
    }
}

#[cfg(reptest_google)]
fn version() -> String {
    ffi::version()
}

#[cfg(not(reptest_google))]
fn version() -> String {
    "not installed".into()
}

/// The URL Google's matcher is given: absolute URLs as they are, anything else as the
/// path the reference matches under [`reptest_core::url::DEFAULT_ORIGIN`].
#[cfg_attr(not(reptest_google), allow(dead_code))]
fn absolute_url(url: &str) -> Cow<'_, str> {
    reptest_core::url::QueryUrl::new(url).absolute()
}

/// One query through Google's matcher.
#[cfg(reptest_google)]
fn evaluate_one(robots: &[u8], agent: &str, url: &str) -> Outcome {
    match ffi::evaluate(robots, agent, &absolute_url(url)) {
        Ok(verdict) => Outcome::Verdict {
            allowed: verdict.allowed,
            line: (verdict.line > 0).then_some(verdict.line as usize),
        },
        Err(e) => Outcome::Error(format!("C++ exception: {}", e.what())),
    }
}

#[cfg(not(reptest_google))]
fn evaluate_one(_robots: &[u8], _agent: &str, _url: &str) -> Outcome {
    Outcome::Error("Google's robotstxt library is not linked into this build".into())
}

impl Implementation for Google {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn availability(&self) -> Availability {
        if Google::linked() {
            return Availability::Available;
        }
        let looked_in = option_env!("REPTEST_GOOGLE_LOOKED_IN").unwrap_or("/usr/local, /usr");
        Availability::Unavailable {
            why: format!("Google's robotstxt library is not installed (looked in: {looked_in})"),
            fix: "build and install google/robotstxt following its README (cmake \
                  -DROBOTS_SKIP_DEPS=ON with Debian's libabsl-dev), then set \
                  ROBOTSTXT_CPP_PREFIX=<install prefix> and rebuild"
                .into(),
        }
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        case.queries
            .iter()
            .map(|q| evaluate_one(case.robots, q.agent, q.url))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::absolute_url;

    #[test]
    fn paths_get_an_origin_and_urls_stay() {
        assert_eq!(absolute_url("/a?b"), "https://example.com/a?b");
        assert_eq!(absolute_url(""), "https://example.com/");
        assert_eq!(absolute_url("http://x.test/p"), "http://x.test/p");
    }
}
