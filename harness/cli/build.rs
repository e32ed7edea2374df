//! Build script of `reptest`: tells the tests (`tests/integration/`) which optional
//! components this build has, so that a test that cannot run here is reported as *ignored,
//! with its reason*, never as passed (`#[cfg_attr(not(reptest_google), ignore = "...")]`).
//!
//! * `cfg(reptest_google)`: Google's C++ library is linked into this build.
//!   `reptest-impls`' build script finds it and says so through its `links = "robots"`
//!   metadata (`DEP_ROBOTS_GOOGLE=1`).
//! * `cfg(reptest_no_browser)`: no chromium (or Chrome) is on `PATH` and `CI` is unset
//!   (CI installs chromium; there a missing one fails the browser test).
//! * `cfg(reptest_skip_adapters)`, `cfg(reptest_skip_crawlers)`,
//!   `cfg(reptest_skip_fetching)`, `cfg(reptest_skip_survey_data)`: the variable
//!   `REPTEST_SKIP_ADAPTERS`, `REPTEST_SKIP_CRAWLERS`, `REPTEST_SKIP_FETCHING` or
//!   `REPTEST_SKIP_SURVEY_DATA` is `1` at build time: the tests that need the external
//!   adapters, the crawlers, the fetching adapters or the protego files are ignored instead
//!   of failing with the command that installs what they need.

use std::env;
use std::path::{Path, PathBuf};

/// The variables that mark tests ignored, and the cfg each sets.
const SKIPS: [(&str, &str); 4] = [
    ("REPTEST_SKIP_ADAPTERS", "reptest_skip_adapters"),
    ("REPTEST_SKIP_CRAWLERS", "reptest_skip_crawlers"),
    ("REPTEST_SKIP_FETCHING", "reptest_skip_fetching"),
    ("REPTEST_SKIP_SURVEY_DATA", "reptest_skip_survey_data"),
];

/// The browsers `tests/integration/report_html.rs` drives, by program name.
const BROWSERS: [&str; 4] = ["chromium", "chromium-browser", "google-chrome", "chrome"];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(reptest_google)");
    println!("cargo::rustc-check-cfg=cfg(reptest_no_browser)");
    for (variable, cfg) in SKIPS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={variable}");
        if env::var(variable).as_deref() == Ok("1") {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
    if env::var("DEP_ROBOTS_GOOGLE").as_deref() == Ok("1") {
        println!("cargo::rustc-cfg=reptest_google");
    }
    println!("cargo::rerun-if-env-changed=CI");
    let ci = env::var_os("CI").is_some_and(|v| !v.is_empty());
    match browser() {
        // Watched, so that removing it is noticed.
        Some(found) => println!("cargo::rerun-if-changed={}", found.display()),
        None => {
            // Watched, so that installing one is noticed.
            for dir in path_dirs().filter(|d| d.is_dir()) {
                println!("cargo::rerun-if-changed={}", dir.display());
            }
            if !ci {
                println!("cargo::rustc-cfg=reptest_no_browser");
            }
        }
    }
}

/// The folders of `PATH`.
fn path_dirs() -> impl Iterator<Item = PathBuf> {
    let path = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&path).collect::<Vec<_>>().into_iter()
}

/// The first of [`BROWSERS`] found on `PATH` as an executable file.
fn browser() -> Option<PathBuf> {
    path_dirs()
        .flat_map(|dir| BROWSERS.map(|name| dir.join(name)))
        .find(|candidate| executable(candidate))
}

#[cfg(unix)]
fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn executable(path: &Path) -> bool {
    path.is_file()
}
