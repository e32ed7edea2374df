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
//!
//! It also captures what the binary was built from, for a survey's provenance
//! (`reptest_survey::provenance::Build`), as compile-time variables:
//!
//! * `REPTEST_GIT_COMMIT`: `git rev-parse HEAD`, or `unknown` when this is not a git
//!   checkout or git is missing;
//! * `REPTEST_GIT_DIRTY`: `true` when tracked files differ from that commit (`git status
//!   --porcelain --untracked-files=no`), `false`, or `unknown`;
//! * `REPTEST_RUSTC`: `rustc --version` of the compiler building it, or `unknown`.
//!
//! Nothing here fails the build. It runs again when `.git/HEAD`, the ref it points to or
//! the packed refs change (a commit, a checkout), not on every edit: the dirty flag is
//! the tree's state when it last ran, so an edit made since shows from the next commit
//! or checkout (or `cargo clean -p reptest`). Watching the index too would rebuild the
//! binary whenever anyone's `git status` refreshes it.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

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
    provenance();
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

/// Sets `REPTEST_GIT_COMMIT`, `REPTEST_GIT_DIRTY` and `REPTEST_RUSTC` (see the module
/// documentation), and watches the git files they come from.
fn provenance() {
    let commit = git(&["rev-parse", "HEAD"]).filter(|c| c.len() == 40);
    let dirty = commit.as_ref().and_then(|_| {
        git(&[
            "--no-optional-locks",
            "status",
            "--porcelain",
            "--untracked-files=no",
        ])
        .map(|status| (!status.is_empty()).to_string())
    });
    println!(
        "cargo::rustc-env=REPTEST_GIT_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    println!(
        "cargo::rustc-env=REPTEST_GIT_DIRTY={}",
        dirty.as_deref().unwrap_or("unknown")
    );
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = output(Command::new(rustc).arg("--version"));
    println!(
        "cargo::rustc-env=REPTEST_RUSTC={}",
        version.as_deref().unwrap_or("unknown")
    );
    watch_git();
}

/// Reruns this script when HEAD moves (a commit, a checkout).
fn watch_git() {
    let (Some(git_dir), Some(common)) = (
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ) else {
        return;
    };
    let (git_dir, common) = (PathBuf::from(git_dir), PathBuf::from(common));
    let mut watched = vec![git_dir.join("HEAD"), common.join("packed-refs")];
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common.join(reference));
    }
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo::rerun-if-changed={}", path.display());
    }
}

/// `git ARGS` in this crate's folder: its trimmed standard output when it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let dir = env::var_os("CARGO_MANIFEST_DIR")?;
    output(Command::new("git").args(args).current_dir(dir))
}

/// The trimmed standard output of `command` when it runs and succeeds.
fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
