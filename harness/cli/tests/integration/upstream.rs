//! Bug reports to file upstream (`reptest upstream`, `reptest report`'s `upstream/`):
//! they reach the libraries, each example is a failing query of its question, the index
//! and one whole report are snapshot-tested under reports/snapshots/, and the command
//! prints, filters and fails as its help says. The reproducers themselves run in CI
//! (`harness/external/reproducers/check.py`, a step of .ci/run) against the pinned
//! libraries.

use reptest::report::upstream;
use reptest_corpus::{Corpus, Profile};
use std::collections::BTreeSet;
use std::process::Command;

fn corpus() -> Corpus {
    Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"))
}

fn reptest(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(args)
        .output()
        .expect("reptest runs")
}

#[test]
#[cfg_attr(
    reptest_skip_adapters,
    ignore = "built with REPTEST_SKIP_ADAPTERS=1; install the adapters with `bash harness/external/setup`"
)]
fn bug_reports_reach_the_libraries_with_reproducers() {
    let report = super::report::report();
    let corpus = corpus();
    let bugs = upstream::bug_reports(report, &corpus, None);
    let with: Vec<_> = bugs.iter().filter(|b| b.reproducer.is_some()).collect();
    let libraries: BTreeSet<&str> = with
        .iter()
        .map(|b| b.implementation.name.as_str())
        .collect();
    assert!(
        with.len() >= 60 && libraries.len() >= 15,
        "{} reports with a reproducer across {} libraries: {libraries:?}",
        with.len(),
        libraries.len()
    );
    for bug in &bugs {
        let column = report
            .implementation(&bug.implementation.name)
            .expect("a column");
        let cell = &report.outcomes[column][bug.query.index];
        assert_eq!(cell.word.as_str(), bug.actual, "{}", bug.query.id);
        assert_eq!(
            bug.query.expect[&Profile::Rfc9309],
            bug.expected,
            "{}",
            bug.query.id
        );
        assert_ne!(bug.expected, bug.actual, "{}", bug.query.id);
        assert_eq!(
            bug.query.question.as_deref(),
            Some(bug.question.id.as_str())
        );
        // Every library with a recipe gets its reproducer on a plain body; a fetch case
        // gets the crawlers' loopback script (wget, httrack, Scrapy) or none.
        let has_recipe = upstream::recipe::find(&bug.implementation.name).is_some();
        if bug.case.fetch.is_none() {
            assert_eq!(bug.reproducer.is_some(), has_recipe, "{}", bug.query.id);
        } else if ["crawler-wget", "crawler-httrack"].contains(&bug.implementation.name.as_str()) {
            assert!(
                bug.reproducer.is_some(),
                "{} on {}",
                bug.implementation.name,
                bug.query.id
            );
        }
    }
    snapshot!("upstream-index", upstream::index(&bugs));
    let protego = bugs
        .iter()
        .find(|b| {
            b.implementation.name == "python-protego" && b.question.id == "Q-AGENT-PARTIAL-VALUE"
        })
        .expect("protego's substring matching of user-agent values");
    snapshot!(
        "upstream-python-protego-Q-AGENT-PARTIAL-VALUE",
        upstream::render(protego)
    );
}

#[test]
fn upstream_prints_the_reports_of_one_implementation() {
    let all = reptest(&["upstream", "--impl", "rust-robots-txt", "-q"]);
    assert!(
        all.status.success(),
        "{}",
        String::from_utf8_lossy(&all.stderr)
    );
    let text = String::from_utf8_lossy(&all.stdout);
    for part in [
        "# rust-robots-txt: ",
        "## The robots.txt",
        "## Expected: ",
        "> RFC 9309 §",
        "## Actual: ",
        "## Reproduce",
        "Install: `cargo new repro && cd repro && cargo add robots_txt@=0.7.0`",
        "## Reach",
        "## Upstream",
    ] {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
    let one = reptest(&[
        "upstream",
        "--impl",
        "rust-robots-txt",
        "--question",
        "Q-AGENT-CASE",
        "--reproducer",
        "-q",
    ]);
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    let source = String::from_utf8_lossy(&one.stdout);
    assert!(
        source.contains("use robots_txt::{matcher::SimpleMatcher, Robots};"),
        "{source}"
    );
    assert!(source.contains("fn main()") && source.contains("const BODY: &[u8] = b\""));
}

#[test]
fn upstream_says_when_there_is_nothing_to_report() {
    let none = reptest(&["upstream", "--impl", "reference", "-q"]);
    assert_eq!(
        none.status.code(),
        Some(1),
        "the reference gets no question wrong"
    );
    assert!(String::from_utf8_lossy(&none.stderr).contains("no bug report"));
    let unknown = reptest(&["upstream", "--impl", "reference", "--question", "Q-NOPE"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown question `Q-NOPE`"));
    let neither = reptest(&["upstream"]);
    assert_eq!(
        neither.status.code(),
        Some(2),
        "--impl or --report is needed"
    );
}

#[test]
fn report_writes_the_upstream_folder() {
    let out = tempfile::tempdir().expect("a temporary folder");
    let status = reptest(&[
        "report",
        "-q",
        "--impl",
        "reference,rust-cylon",
        "--out",
        out.path().to_str().expect("UTF-8 path"),
    ]);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(
        stdout.contains("bug report(s) for 1 implementation(s)"),
        "{stdout}"
    );
    let dir = out.path().join("upstream");
    let index = std::fs::read_to_string(dir.join("README.md")).expect("the index");
    assert!(index.contains("| rust-cylon | [Q-"), "{index}");
    let manifest = std::fs::read_to_string(dir.join("reproducers.json")).expect("manifest");
    let entries: Vec<serde_json::Value> = serde_json::from_str(&manifest).expect("JSON");
    assert!(!entries.is_empty());
    for entry in &entries {
        let file = dir.join(entry["file"].as_str().expect("file"));
        let source = std::fs::read_to_string(&file).expect("the reproducer is written");
        assert!(
            source.contains("use cylon::Compiler;"),
            "{}",
            file.display()
        );
        let report = file.with_extension("md");
        assert!(report.is_file(), "{} beside it", report.display());
        assert_eq!(entry["language"], "rust");
        assert_ne!(entry["expected"], entry["actual"]);
    }
}
