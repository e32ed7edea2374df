//! Output that cannot be written is an error, never a panic or a truncated file:
//! standard output on `/dev/full` exits 2 with a message, a write past a file-size limit
//! (`ulimit -f`) leaves the previous files whole, and `reptest report` names the files it
//! wrote. Also: the handshake cache notices a library upgraded in place.

use crate::common;

use common::words;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");
const FIXTURE: &str = env!("CARGO_BIN_EXE_reptest-fixture-adapter");

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("outputs", name)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `reptest` with the arguments of `line` (see [`words`]) and the fixture's `noop`
/// adapter (always `allowed`, so it fails many queries) registered as `fixture-noop`,
/// its stdout going to `stdout`; `shell`, when given, runs first in the same process
/// (`ulimit -f 1`, `umask 022`).
fn reptest(line: &str, stdout: Stdio, shell: Option<&str>) -> Output {
    let args = words(line);
    let adapters = temp_dir(&format!("adapters-{}", args.join("-").replace('/', "_")));
    std::fs::write(
        adapters.join("adapters.toml"),
        format!("[[adapter]]\nname = \"fixture-noop\"\nlanguage = \"Rust\"\ncommand = [{FIXTURE:?}, \"noop\"]\n"),
    )
    .unwrap();
    let mut command = match shell {
        Some(shell) => {
            let mut c = Command::new("bash");
            c.arg("-c")
                .arg(format!("{shell} && exec \"$@\""))
                .arg("bash")
                .arg(REPTEST);
            c
        }
        None => Command::new(REPTEST),
    };
    command
        .args(&args)
        .env("REPTEST_ADAPTERS", &adapters)
        .env("REPTEST_STATE", adapters.join("state"))
        .env_remove("REPTEST_CORPUS")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("reptest runs")
}

fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

#[test]
fn a_full_stdout_is_a_clear_error_with_exit_2_in_every_subcommand() {
    let robots = temp_dir("full-robots").join("robots.txt");
    std::fs::write(&robots, "User-agent: *\nDisallow: /private\n").unwrap();
    let baseline = temp_dir("full-baseline").join("baseline.toml");
    let robots = robots.to_str().unwrap();
    let baseline = baseline.to_str().unwrap();
    let commands = [
        format!("check --robots {robots} --agent bot --url https://example.com/private"),
        "corpus stats".into(),
        "corpus show access-200-rules-followed".into(),
        "impls".into(),
        "run --impl reference".into(),
        format!("gate --impl reference --baseline {baseline} --write-baseline"),
        format!("gate --impl reference --baseline {baseline}"),
    ];
    for args in commands {
        let out = reptest(&args, dev_full(), None);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

/// `reptest ... | head`: a standard output closed by its reader ends reptest quietly with
/// 141, as a shell reports a SIGPIPE death, never with a panic.
#[test]
fn a_closed_stdout_ends_quietly_with_141() {
    let mut child = Command::new(REPTEST)
        .args(["run", "--impl", "reference", "--json"])
        .env_remove("REPTEST_ADAPTERS")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
}

/// Every file in `dir` (recursively) with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(snapshot(&path));
        } else {
            files.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    files.sort();
    files
}

/// Runs `args` once unlimited (it must succeed and write into `dir`), then again under a
/// 1 KiB file-size limit: it must fail with exit 2 naming a file, and leave `dir`
/// exactly as the first run left it.
fn a_failed_write_leaves_the_previous_files(dir: &Path, args: &str, ok: &[i32]) {
    let first = reptest(args, Stdio::piped(), None);
    assert!(
        ok.contains(&first.status.code().unwrap_or(-1)),
        "{args:?}: {}",
        text(&first.stderr)
    );
    let before = snapshot(dir);
    assert!(
        !before.is_empty(),
        "{args:?} wrote nothing in {}",
        dir.display()
    );
    // bash counts `ulimit -f` in KiB.
    let limited = reptest(args, Stdio::piped(), Some("ulimit -f 1"));
    let stderr = text(&limited.stderr);
    assert_eq!(limited.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains("cannot write"), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let after = snapshot(dir);
    assert!(
        before == after,
        "{args:?}: the files changed or a temporary file was left: {:?}",
        after.iter().map(|(p, b)| (p, b.len())).collect::<Vec<_>>()
    );
}

#[test]
fn a_report_that_cannot_be_written_leaves_the_previous_report_whole() {
    let dir = temp_dir("report");
    let out = dir.join("report");
    let args = format!(
        "report --impl reference,fixture-noop --out {}",
        out.display()
    );
    a_failed_write_leaves_the_previous_files(&dir, &args, &[0]);
}

#[test]
fn a_baseline_junit_or_matrix_that_cannot_be_written_leaves_the_previous_file() {
    let dir = temp_dir("baseline");
    let baseline = dir.join("baseline.toml");
    let baseline = baseline.to_str().unwrap();
    let args = format!("gate --impl fixture-noop --baseline {baseline} --write-baseline");
    a_failed_write_leaves_the_previous_files(&dir, &args, &[0]);

    let junit_dir = temp_dir("junit");
    let junit = junit_dir.join("junit.xml");
    let args = format!(
        "gate --impl fixture-noop --baseline {baseline} --format junit --output {}",
        junit.display()
    );
    a_failed_write_leaves_the_previous_files(&junit_dir, &args, &[0]);

    let matrix_dir = temp_dir("matrix");
    let matrix = matrix_dir.join("matrix.tsv");
    let args = format!("run --impl reference --matrix {}", matrix.display());
    a_failed_write_leaves_the_previous_files(&matrix_dir, &args, &[0]);
}

#[test]
fn report_names_the_pages_it_wrote() {
    let out = temp_dir("report-names").join("r");
    let run = reptest(
        &format!(
            "report --impl reference,fixture-noop --out {}",
            out.display()
        ),
        Stdio::piped(),
        None,
    );
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(
        stdout.contains("reference.md") && stdout.contains("fixture-noop.md"),
        "{stdout}"
    );
    assert!(!stdout.contains("NAME.md"), "{stdout}");
    assert!(out.join("impl/fixture-noop.md").is_file());
}

/// `reptest impls` takes handshakes from its cache; upgrading the library in place (as
/// `pip install -U` does in a virtualenv) must show the new version, not the cached one.
#[test]
fn the_handshake_cache_notices_an_upgraded_library() {
    let root = temp_dir("upgrade");
    let prefix = root.join("venv");
    let site = prefix.join("lib/python3.11/site-packages");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::fs::create_dir_all(site.join("lib-1.0.dist-info")).unwrap();
    let version_file = root.join("installed-version");
    std::fs::write(&version_file, "1.0").unwrap();
    // The adapter's program, like a virtualenv's python: it reports the version that the
    // "installed library" says. Its own file never changes.
    let program = prefix.join("bin/adapter");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\nprintf '{{\"protocol\":1,\"name\":\"lib\",\"version\":\"%s\",\"language\":\"Shell\",\"capabilities\":{{}}}}\\n' \"$(cat {})\"\nexec cat >/dev/null\n",
            version_file.display()
        ),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&program).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&program, permissions).unwrap();
    let adapters = root.join("adapters");
    std::fs::create_dir_all(&adapters).unwrap();
    std::fs::write(
        adapters.join("adapters.toml"),
        format!(
            "[[adapter]]\nname = \"shell-lib\"\nlanguage = \"Shell\"\ncommand = [{:?}]\n",
            program.display().to_string()
        ),
    )
    .unwrap();
    let impls = || {
        let out = Command::new(REPTEST)
            .args(["impls", "--json"])
            .env("REPTEST_ADAPTERS", &adapters)
            .env("REPTEST_STATE", root.join("state"))
            .output()
            .unwrap();
        let list: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
        list.as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == "shell-lib")
            .map(|i| i["version"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(impls(), "1.0");
    // The cache is used: a changed answer with nothing installed differently is not seen.
    std::fs::write(&version_file, "1.5").unwrap();
    assert_eq!(
        impls(),
        "1.0",
        "the cached handshake is used while nothing changed"
    );
    // `pip install -U lib`: the dist-info folder of the old version goes, the new comes.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&version_file, "2.0").unwrap();
    std::fs::remove_dir(site.join("lib-1.0.dist-info")).unwrap();
    std::fs::create_dir(site.join("lib-2.0.dist-info")).unwrap();
    assert_eq!(impls(), "2.0", "the upgrade is seen");
}

/// The permission bits of every file below `dir`, by path.
#[cfg(unix)]
fn modes(dir: &Path) -> Vec<(PathBuf, u32)> {
    use std::os::unix::fs::PermissionsExt;
    snapshot(dir)
        .into_iter()
        .map(|(path, _)| {
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
            (path, mode)
        })
        .collect()
}

/// Every kind of file reptest writes (a report, a baseline, JUnit, a matrix, the exported
/// corpus, a survey, a fuzzing report, the handshake cache) has the mode any new file has
/// under the umask: `-rw-r--r--` under 022, `-rw-r-----` under 027, not a private 0600.
#[cfg(unix)]
#[test]
fn every_file_written_follows_the_umask() {
    for (umask, expected) in [("022", 0o644), ("027", 0o640)] {
        let dir = temp_dir(&format!("umask-{umask}"));
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let input = dir.join("survey-input");
        std::fs::create_dir_all(&input).unwrap();
        std::fs::write(input.join("example.com"), "User-agent: *\nDisallow: /x\n").unwrap();
        let o = out.display();
        let commands = [
            format!("report --impl reference --out {o}/report"),
            format!("gate --impl reference --baseline {o}/baseline.toml --write-baseline"),
            format!(
                "gate --impl reference --baseline {o}/baseline.toml --report junit={o}/junit.xml"
            ),
            format!("run --impl reference --matrix {o}/matrix.tsv"),
            format!("corpus export --out {o}/export"),
            format!(
                "survey --input {} --impl reference --out {o}/survey",
                input.display()
            ),
            format!("fuzz --inputs 20 --seed 1 --impl reference,rust-robotstxt --out {o}/fuzz"),
        ];
        // Every kind under 022; under 027, that the umask is followed, not a fixed 0644
        // (the quick commands only).
        let quick = ["run ", "survey ", "fuzz "];
        let chosen = commands
            .iter()
            .filter(|line| umask == "022" || quick.iter().any(|q| line.starts_with(q)));
        let shell = format!("umask {umask}");
        for line in chosen {
            let run = reptest(line, Stdio::piped(), Some(&shell));
            assert_eq!(run.status.code(), Some(0), "{line}: {}", text(&run.stderr));
        }
        let written = modes(&out);
        let kinds: &[&str] = if umask == "022" {
            &[
                "report.html",
                "baseline.toml",
                "junit.xml",
                "matrix.tsv",
                "README.md",
                "survey.json",
                "fuzz-1.json",
            ]
        } else {
            &["matrix.tsv", "survey.json", "fuzz-1.json"]
        };
        for kind in kinds {
            assert!(
                written.iter().any(|(p, _)| p.ends_with(kind)),
                "no {kind} in {written:?}"
            );
        }
        for (path, mode) in &written {
            assert_eq!(
                *mode,
                expected,
                "umask {umask}: {} is {mode:o}",
                path.display()
            );
        }
        // The handshake cache, in the state folder of `reptest()`'s adapters folder.
        let impls = reptest("impls --recheck", Stdio::piped(), Some(&shell));
        assert_eq!(impls.status.code(), Some(0), "{}", text(&impls.stderr));
        let state = std::env::temp_dir().join(format!(
            "reptest-outputs-{}-adapters-impls---recheck/state",
            std::process::id()
        ));
        let cache = modes(&state);
        assert!(
            cache.iter().any(|(p, _)| p.ends_with("handshakes.json")),
            "{cache:?}"
        );
        for (path, mode) in &cache {
            assert_eq!(
                *mode,
                expected,
                "umask {umask}: {} is {mode:o}",
                path.display()
            );
        }
    }
}

/// A file reptest replaces keeps its mode, whatever the umask.
#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("replaced-mode");
    let baseline = dir.join("baseline.toml");
    let matrix = dir.join("matrix.tsv");
    let line = format!(
        "gate --impl reference --baseline {} --write-baseline",
        baseline.display()
    );
    for (path, mode) in [(&baseline, 0o640), (&matrix, 0o644)] {
        std::fs::write(path, "old").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let run = reptest(&line, Stdio::piped(), Some("umask 077"));
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let line = format!("run --impl reference --matrix {}", matrix.display());
    let run = reptest(&line, Stdio::piped(), Some("umask 077"));
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert_eq!(
        modes(&dir),
        [(baseline.clone(), 0o640), (matrix.clone(), 0o644)]
    );
    assert_ne!(std::fs::read(&baseline).unwrap(), b"old");
    assert_ne!(std::fs::read(&matrix).unwrap(), b"old");
}
