//! A slow implementation does not stall `reptest survey`: the fixture adapter
//! (`reptest-fixture-adapter v2`, registered as `slowbot`) hangs on every batch that holds
//! a query for agent `hang-now`, so each file naming that agent costs a timeout; the
//! circuit breaker then skips slowbot for the rest of the survey, and the outputs say how
//! many of its answers are missing, by kind. The reference, which decides, is asked on
//! every file.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

const FIXTURE: &str = env!("CARGO_BIN_EXE_reptest-fixture-adapter");

/// Registers the fixture adapter in mode `v2` as `slowbot` in `dir/adapters.toml`.
fn register(dir: &Path) {
    let toml = format!(
        "[[adapter]]\nname = \"slowbot\"\nlanguage = \"Rust\"\ncommand = [{FIXTURE:?}, \"v2\"]\n"
    );
    std::fs::write(dir.join("adapters.toml"), toml).unwrap();
}

/// `hanging` files whose only group is for `hang-now` (so their rules are asked for it),
/// then `answered` plain ones.
fn files(dir: &Path, hanging: usize, answered: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..hanging {
        let body = format!("User-agent: hang-now\nDisallow: /private{i}/\n");
        std::fs::write(dir.join(format!("h{i:02}.example")), body).unwrap();
    }
    for i in 0..answered {
        let body = format!("User-agent: *\nDisallow: /private{i}/\n");
        std::fs::write(dir.join(format!("z{i:02}.example")), body).unwrap();
    }
}

/// Runs `reptest survey` with the fixture registered; the JSON, the Markdown, stderr,
/// and the wall time.
fn survey(root: &Path, extra: &[&str]) -> (Value, String, String, Duration) {
    let out = root.join("out");
    let started = Instant::now();
    let run = Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(["survey", "--input"])
        .arg(root.join("robots"))
        .args(["--impl", "reference,slowbot", "--queries-per-file", "4"])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .env("REPTEST_ADAPTERS", root)
        .env("REPTEST_STATE", root.join("state"))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_COUNT")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("REPTEST_SHARD_COUNT")
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{}\n{stderr}", run.status);
    let json = serde_json::from_slice(&std::fs::read(out.join("survey.json")).unwrap()).unwrap();
    let markdown = std::fs::read_to_string(out.join("README.md")).unwrap();
    (json, markdown, stderr, elapsed)
}

fn n(value: &Value) -> u64 {
    value
        .as_u64()
        .unwrap_or_else(|| panic!("not a count: {value}"))
}

/// More files than the survey has threads (twice the cores, at least 4), so that some are
/// asked after the breaker opened whatever the machine.
fn threads() -> usize {
    (std::thread::available_parallelism().map_or(2, |n| n.get()) * 2).max(4)
}

#[test]
fn a_hanging_adapter_times_out_then_is_skipped_and_its_missing_answers_are_counted() {
    let root = common::temp_dir("survey-breaker", "hang");
    register(&root);
    let hanging = 3 * threads() + 4;
    files(&root.join("robots"), hanging, 0);
    let (json, markdown, stderr, elapsed) = survey(
        &root,
        &[
            "--timeout",
            "0.1",
            "--file-budget",
            "30",
            "--trip-after",
            "2",
        ],
    );
    // Without the breaker each file would cost a 0.4 s batch timeout and a restart, two
    // at a time: this bound holds only because most files are skipped.
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}\n{stderr}");
    assert_eq!(n(&json["files"]["surveyed"]), hanging as u64);
    assert_eq!(n(&json["breaker"]["trip_after"]), 2);
    assert_eq!(n(&json["breaker"]["file_budget_ms"]), 30_000);
    let [reference, slowbot] = [0, 1].map(|i| &json["implementations"][i]);
    assert_eq!(slowbot["name"], "slowbot");
    let asked = n(&slowbot["asked"]);
    assert!(asked > 0);
    let missing = &slowbot["missing"];
    assert!(n(&missing["timeout"]) > 0, "{missing}");
    assert!(n(&missing["skipped"]) > 0, "{missing}");
    assert_eq!(
        n(&slowbot["verdicts"]) + n(&slowbot["missing_total"]),
        asked,
        "{slowbot}"
    );
    let total: u64 = ["error", "timeout", "crash", "unsupported", "skipped"]
        .iter()
        .map(|kind| n(&missing[*kind]))
        .sum();
    assert_eq!(total, n(&slowbot["missing_total"]));
    let breaker = &slowbot["breaker"];
    assert_eq!(n(&breaker["opened"]), 1, "{breaker}");
    assert!(n(&breaker["files_tripped"]) >= 2, "{breaker}");
    assert!(n(&breaker["files_skipped"]) >= 1, "{breaker}");
    assert_eq!(
        n(&breaker["files_tripped"]) + n(&breaker["files_skipped"]),
        hanging as u64,
        "every file either timed out or was skipped: {breaker}"
    );
    // The decider is never skipped.
    assert_eq!(n(&reference["missing_total"]), 0, "{reference}");
    assert_eq!(n(&reference["verdicts"]), asked);
    assert!(markdown.contains("skipped"), "{markdown}");
    assert!(
        markdown.contains("Files that tripped it: slowbot"),
        "{markdown}"
    );
    assert!(
        stderr.contains("slowbot: ") && stderr.contains("which opened"),
        "{stderr}"
    );
}

#[test]
fn with_trip_after_zero_every_file_is_asked_and_answered_ones_stay_answered() {
    let root = common::temp_dir("survey-breaker", "never");
    register(&root);
    files(&root.join("robots"), 2, 3);
    let (json, markdown, stderr, elapsed) =
        survey(&root, &["--timeout", "0.1", "--trip-after", "0"]);
    // --timeout replaces the adapter's own per-request timeout (5 s by default, so 20 s
    // for a hanging batch of 4 queries): each hanging file costs 0.4 s and a restart.
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}\n{stderr}");
    let slowbot = &json["implementations"][1];
    let missing = &slowbot["missing"];
    assert_eq!(n(&missing["skipped"]), 0, "{missing}");
    assert!(n(&missing["timeout"]) > 0, "{missing}\n{stderr}");
    // The plain files are answered in full.
    assert!(n(&slowbot["verdicts"]) >= 3, "{slowbot}");
    let breaker = &slowbot["breaker"];
    assert_eq!(n(&breaker["opened"]), 0);
    assert_eq!(n(&breaker["files_tripped"]), 2, "{breaker}");
    assert!(markdown.contains("it never opens"), "{markdown}");
}
