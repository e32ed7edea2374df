//! The survey of the real robots.txt files that protego 0.7.0's sdist ships (4,231 files
//! from top sites, fetched by `bash harness/external/setup survey-data` under
//! `harness/external/.state/survey/`, never committed), through the reference and the
//! Rust crates whose answers here do not depend on timing, as the committed Markdown
//! `reports/survey/protego.snap` (an insta snapshot): a fresh run must match it.
//!
//! rust-cylon is left out: a few of these files take it longer than the 1 s timeout per
//! query, so its `timeout` count (and the breaker's) depends on the machine (and it is the
//! slowest crate, about 500 files/s with the reference; see docs/survey.md). So are the
//! external adapters (minutes, and timeouts under load); `reptest survey` without
//! `--impl` runs them all.
//! Without the data this test fails naming the setup command, unless built with
//! `REPTEST_SKIP_SURVEY_DATA=1`, which marks it ignored.
//!
//! The Provenance section's rows that depend on the machine or the commit (reptest's
//! commit and rustc, the corpus and catalogue fingerprints, the runtimes) are redacted
//! before the comparison; its input fingerprint, settings and implementations are not.

use std::path::PathBuf;
use std::process::Command;

/// The implementations of the committed survey.
const IMPLS: &str =
    "reference,rust-robotstxt,rust-texting-robots,rust-robotxt,rust-robots-txt,rust-robotparser";

/// The protego files; fails naming the setup command when they are not there.
fn protego_files() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../external/.state/survey/protego-0.7.0/test_data");
    let files = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    assert!(
        files == 4231,
        "{} has {files} files, not protego 0.7.0's 4,231: run `bash harness/external/setup \
         survey-data` (or build the tests with REPTEST_SKIP_SURVEY_DATA=1 to have this one \
         ignored)",
        dir.display()
    );
    dir
}

/// The rows of the Provenance section whose values depend on the machine or the commit
/// (`reptest_report::survey::provenance::MACHINE_ROWS`), as the snapshot shows them.
const REDACTED: &str = "[machine or commit]";

/// `markdown` with the values of the machine- or commit-dependent rows of its Provenance
/// table replaced by [`REDACTED`]; the other rows (input fingerprint, settings,
/// implementations) stay, and must match.
fn redacted(markdown: &str) -> String {
    let rows = reptest::report::survey::provenance::MACHINE_ROWS;
    let mut seen = Vec::new();
    let lines: Vec<String> = markdown
        .split('\n')
        .map(|line| {
            for label in rows {
                if line.starts_with(&format!("| {label} | ")) {
                    seen.push(label);
                    return format!("| {label} | {REDACTED} |");
                }
            }
            line.to_string()
        })
        .collect();
    assert_eq!(seen, rows, "each machine row once, in order: {markdown}");
    lines.join("\n")
}

#[test]
#[cfg_attr(
    reptest_skip_survey_data,
    ignore = "built with REPTEST_SKIP_SURVEY_DATA=1; fetch the files with `bash harness/external/setup survey-data`"
)]
fn the_committed_survey_of_the_protego_files_matches_a_fresh_run() {
    let input = protego_files();
    let out = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(["survey", "--input"])
        .arg(&input)
        // A generous per-query timeout and file budget: the committed figures must not
        // depend on how loaded the machine is (at the default 1 s, a loaded 2-core
        // machine saw one texting-robots query time out and the snapshot change; at the
        // default 5 s budget, a debug build under a load of 14 saw rust-robotstxt trip
        // the breaker on one or two files).
        .args(["--impl", IMPLS, "--minimize", "--timeout", "10"])
        .args(["--file-budget", "60", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let markdown = redacted(&std::fs::read_to_string(out.path().join("README.md")).unwrap());
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("survey.json")).unwrap()).unwrap();
    assert_eq!(json["files"]["surveyed"], 4231, "{}", json["files"]);
    insta::with_settings!({
        snapshot_path => "../../../../reports/survey",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!("protego", markdown);
    });
}
