//! Build script of `reptest-impls`: with the `google` feature (on by default), finds an installed copy of Google's C++ robotstxt library
//! for the `google` adapter (`src/google.rs`).
//!
//! Google's library is linked, never vendored: nothing here downloads or builds it. Where
//! it is looked for:
//!
//! * `ROBOTSTXT_CPP_PREFIX=<dir>` set and non-empty: only `<dir>` (no fallback search).
//! * `ROBOTSTXT_CPP_PREFIX` set but empty: nowhere; the adapter is unavailable.
//! * unset: the standard prefixes `/usr/local` and `/usr`. A hand-made install elsewhere,
//!   such as `/opt/robotstxt`, is used only when named by `ROBOTSTXT_CPP_PREFIX`.
//!
//! A prefix holds the library when it has `include/robots.h` and `librobots.a` or
//! `librobots.so` in `lib`, `lib64` or `lib/<multiarch>`. When found, the shim
//! `cpp/google_shim.cc` and the `#[cxx::bridge]` of `src/google/ffi.rs` are
//! compiled with `cxx_build` (C++17), `librobots` is linked (static preferred, else
//! shared with an rpath), abseil is linked (flags from `pkg-config absl_strings`, else a
//! fixed list: the static library needs `absl_strings` and `absl_throw_delegate`, which
//! pull in `absl_strings_internal`, `absl_base`, `absl_raw_logging_internal` and
//! friends), and `cfg(reptest_google)` is set; the metadata `google=1` (`google=0` when
//! not) tells the build scripts of dependent crates (`DEP_ROBOTS_GOOGLE`, through
//! `links = "robots"`), so that `reptest`'s tests of the adapter run only where it is linked. When not found, no C++ is compiled for the adapter and
//! `REPTEST_GOOGLE_LOOKED_IN` tells the adapter where it looked, for its
//! `Availability::Unavailable` message.
//!
//! `ROBOTSTXT_CPP_VERSION` (optional) is reported as the adapter's version, e.g. the git
//! commit the installed copy was built from; otherwise the version is `installed`.

// Without the `google` feature only `main` runs; the rest is there for the feature.
#![cfg_attr(not(feature = "google"), allow(dead_code))]

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Searched when `ROBOTSTXT_CPP_PREFIX` is unset.
const STANDARD_PREFIXES: &[&str] = &["/usr/local", "/usr"];

/// What the static `librobots.a` needs from abseil when `pkg-config` cannot tell: the
/// closure of `absl_strings` and `absl_throw_delegate` in Debian's libabsl-dev (20220623).
const ABSL_FALLBACK: &[&str] = &[
    "absl_strings",
    "absl_strings_internal",
    "absl_base",
    "absl_spinlock_wait",
    "absl_int128",
    "absl_throw_delegate",
    "absl_raw_logging_internal",
    "absl_log_severity",
];

/// An installed copy of Google's robotstxt.
struct Install {
    include: PathBuf,
    lib_dir: PathBuf,
    static_lib: bool,
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(reptest_google)");
    println!("cargo::rerun-if-env-changed=ROBOTSTXT_CPP_PREFIX");
    println!("cargo::rerun-if-env-changed=ROBOTSTXT_CPP_VERSION");
    println!("cargo::rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo::rerun-if-env-changed=PKG_CONFIG");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=cpp/google_shim.h");
    println!("cargo::rerun-if-changed=cpp/google_shim.cc");
    println!("cargo::rerun-if-changed=src/google/ffi.rs");

    if env::var_os("CARGO_FEATURE_GOOGLE").is_none() {
        not_linked();
        println!(
            "cargo::rustc-env=REPTEST_GOOGLE_LOOKED_IN=nowhere: reptest was built without its `google` feature"
        );
        return;
    }
    let prefixes: Vec<PathBuf> = match env::var_os("ROBOTSTXT_CPP_PREFIX") {
        Some(p) if p.is_empty() => Vec::new(),
        Some(p) => vec![PathBuf::from(p)],
        None => STANDARD_PREFIXES.iter().map(PathBuf::from).collect(),
    };
    match prefixes.iter().find_map(|p| find(p)) {
        Some(install) => build(&install),
        None => {
            not_linked();
            let looked_in = if prefixes.is_empty() {
                "nowhere: ROBOTSTXT_CPP_PREFIX is set but empty".to_string()
            } else {
                prefixes
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            println!("cargo::rustc-env=REPTEST_GOOGLE_LOOKED_IN={looked_in}");
        }
    }
}

/// Tells the build scripts of the crates that depend on this one (`links = "robots"`:
/// `DEP_ROBOTS_GOOGLE`) that Google's library is not linked; [`build`] says `google=1`.
fn not_linked() {
    println!("cargo::metadata=google=0");
}

/// The install under `prefix`, if it has the header and a library.
fn find(prefix: &Path) -> Option<Install> {
    let include = prefix.join("include");
    if !include.join("robots.h").is_file() {
        return None;
    }
    let mut lib_dirs = vec![prefix.join("lib"), prefix.join("lib64")];
    if let Some(multiarch) = multiarch() {
        lib_dirs.push(prefix.join("lib").join(multiarch));
    }
    for static_lib in [true, false] {
        let file = if static_lib {
            "librobots.a"
        } else {
            "librobots.so"
        };
        if let Some(lib_dir) = lib_dirs.iter().find(|d| d.join(file).is_file()) {
            return Some(Install {
                include,
                lib_dir: lib_dir.clone(),
                static_lib,
            });
        }
    }
    None
}

/// Debian's multiarch directory name, e.g. `x86_64-linux-gnu`.
fn multiarch() -> Option<String> {
    let arch = env::var("CARGO_CFG_TARGET_ARCH").ok()?;
    let os = env::var("CARGO_CFG_TARGET_OS").ok()?;
    let target_env = env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    Some(format!("{arch}-{os}-{target_env}"))
}

/// Without the `google` feature there is no cxx_build; `main` returns before this.
#[cfg(not(feature = "google"))]
fn build(_: &Install) {}

/// Compiles the shim and bridge, links robots and abseil, and sets `cfg(reptest_google)`.
#[cfg(feature = "google")]
fn build(install: &Install) {
    let watched = [
        install.include.join("robots.h"),
        install.lib_dir.join("librobots.a"),
        install.lib_dir.join("librobots.so"),
    ];
    for path in watched.iter().filter(|p| p.is_file()) {
        println!("cargo::rerun-if-changed={}", path.display());
    }
    let absl = Absl::probe(install.static_lib);

    let mut shim = cxx_build::bridge("src/google/ffi.rs");
    shim.file("cpp/google_shim.cc").std("c++17");
    // -isystem: the library's and abseil's headers are not ours to keep warning-free
    // (robots.h has unused parameters under -Wextra).
    for dir in std::iter::once(&install.include).chain(&absl.include_dirs) {
        shim.flag("-isystem").flag(dir.as_os_str());
    }
    for (name, value) in &absl.defines {
        shim.define(name, value.as_deref());
    }
    if let Ok(version) = env::var("ROBOTSTXT_CPP_VERSION") {
        shim.define("REPTEST_GOOGLE_VERSION", format!("{version:?}").as_str());
    }
    shim.compile("reptest_google_shim");

    // After the shim (which cxx_build has just told rustc to link), so the linker sees
    // the users before the definitions.
    println!(
        "cargo::rustc-link-search=native={}",
        install.lib_dir.display()
    );
    // Where it was linked from, for a survey's provenance (`Google::linked_from`).
    println!(
        "cargo::rustc-env=REPTEST_GOOGLE_LINKED_FROM={} ({})",
        install.lib_dir.display(),
        if install.static_lib {
            "librobots.a"
        } else {
            "librobots.so"
        }
    );
    if install.static_lib {
        println!("cargo::rustc-link-lib=static=robots");
    } else {
        println!("cargo::rustc-link-lib=dylib=robots");
        println!(
            "cargo::rustc-link-arg=-Wl,-rpath,{}",
            install.lib_dir.display()
        );
    }
    for dir in &absl.lib_dirs {
        println!("cargo::rustc-link-search=native={}", dir.display());
    }
    for lib in &absl.libs {
        println!("cargo::rustc-link-lib={lib}");
    }
    println!("cargo::rustc-cfg=reptest_google");
    println!("cargo::metadata=google=1");
}

/// How to compile against and link abseil.
#[derive(Default)]
struct Absl {
    include_dirs: Vec<PathBuf>,
    defines: Vec<(String, Option<String>)>,
    lib_dirs: Vec<PathBuf>,
    /// `static=NAME` or `dylib=NAME`, in link order.
    libs: Vec<String>,
}

impl Absl {
    /// Asks `pkg-config` for `absl_strings`; falls back to [`ABSL_FALLBACK`] in the
    /// linker's default directories. With a static robots, each abseil library is linked
    /// statically where its `.a` is in a known directory.
    fn probe(static_robots: bool) -> Absl {
        let mut absl = Absl::default();
        let mut names: Vec<String> = Vec::new();
        let cflags = pkg_config(&["--cflags", "absl_strings"]);
        let libs = pkg_config(&["--static", "--libs", "absl_strings"]);
        let libdir = pkg_config(&["--variable=libdir", "absl_strings"]);
        if let (Some(cflags), Some(libs)) = (cflags, libs) {
            for flag in cflags.split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-I") {
                    absl.include_dirs.push(dir.into());
                } else if let Some(define) = flag.strip_prefix("-D") {
                    let (name, value) = match define.split_once('=') {
                        Some((n, v)) => (n.to_string(), Some(v.to_string())),
                        None => (define.to_string(), None),
                    };
                    absl.defines.push((name, value));
                }
            }
            for flag in libs.split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    absl.lib_dirs.push(dir.into());
                } else if let Some(name) = flag.strip_prefix("-l") {
                    names.push(name.to_string());
                }
            }
            if let Some(dir) = libdir.map(|d| d.trim().to_string()) {
                if !dir.is_empty() {
                    absl.lib_dirs.push(dir.into());
                }
            }
        } else {
            names = ABSL_FALLBACK.iter().map(|s| s.to_string()).collect();
            absl.lib_dirs.push("/usr/local/lib".into());
            if let Some(multiarch) = multiarch() {
                absl.lib_dirs.push(Path::new("/usr/lib").join(multiarch));
            }
            absl.lib_dirs.push("/usr/lib".into());
            absl.lib_dirs.retain(|d| d.is_dir());
        }
        for name in names {
            let archive = format!("lib{name}.a");
            let is_static = static_robots
                && name.starts_with("absl_")
                && absl.lib_dirs.iter().any(|d| d.join(&archive).is_file());
            let kind = if is_static { "static" } else { "dylib" };
            absl.libs.push(format!("{kind}={name}"));
        }
        absl
    }
}

/// `pkg-config ARGS` stdout, if it ran and succeeded.
fn pkg_config(args: &[&str]) -> Option<String> {
    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let out = Command::new(pkg_config).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}
