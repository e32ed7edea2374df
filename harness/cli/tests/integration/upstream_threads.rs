//! Upstream threads with their status, beside the failures they explain, and the newest
//! releases (`NAME@latest`): the catalogue's threads name known implementations and keep
//! their status through the report into Markdown and HTML; a failure with no thread says
//! `no upstream issue known`; a newest release is never in a default run, named it runs
//! from its own install, and when missing it says how to install it.

use reptest::report::markdown;
use reptest::report::{QuestionVerdict, Report};
use reptest::{impls, runner};
use reptest_corpus::{Corpus, ThreadStatus};
use std::collections::BTreeSet;
use std::process::Command;

/// A report of the corpus through `reference` and `rust-robotxt`, the latter's column
/// renamed `python-urllib` (which has threads in the catalogue) and copied as
/// `python-urllib@latest`, version 9.9, that gets Q-LONGEST-MATCH right.
fn report() -> Report {
    let dir = reptest_corpus::default_dir();
    let corpus = Corpus::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let chosen = impls::select(&["reference", "rust-robotxt"]).expect("in-process adapters");
    let run = runner::run(&corpus, &chosen);
    let infos: Vec<_> = chosen.iter().map(|i| i.info().clone()).collect();
    let mut report = Report::build(&corpus, &dir, &run, &infos, "1970-01-01T00:00:00Z");
    let column = report.implementation("rust-robotxt").expect("its column");
    report.implementations[column].name = "python-urllib".into();
    let mut latest = report.implementations[column].clone();
    latest.name = "python-urllib@latest".into();
    latest.version = "9.9".into();
    report.implementations.push(latest);
    for q in &mut report.questions {
        let mut answer = q.per_impl[column];
        if q.id == "Q-LONGEST-MATCH" {
            assert_eq!(
                answer.verdict,
                QuestionVerdict::Wrong,
                "rust-robotxt changed"
            );
            answer.verdict = QuestionVerdict::Right;
            answer.pass += answer.fail;
            answer.fail = 0;
        }
        q.per_impl.push(answer);
    }
    report
}

#[test]
fn threads_keep_their_status_and_failures_without_one_say_so() {
    let report = report();
    let threads = report.threads_for("Q-LONGEST-MATCH", "python-urllib");
    assert!(threads.len() >= 2, "{threads:?}");
    assert!(threads.iter().any(|t| t.status == ThreadStatus::Fixed));
    assert!(threads.iter().any(|t| t.status == ThreadStatus::Open));
    // The newest release's threads are its pinned version's.
    assert_eq!(
        report.threads_for("Q-LONGEST-MATCH", "python-urllib@latest"),
        threads
    );
    assert!(report
        .threads_for("Q-UA-VALUE-NOT-TOKEN", "python-urllib")
        .is_empty());

    let page = markdown::implementation(&report, "python-urllib").expect("a page");
    assert!(
        page.contains(
            "  - upstream: [Support RFC 9309 in robotparser](<https://github.com/python/cpython/issues/138907>) (fixed, checked 2026-12-03)"
        ) && page.contains("does not respect the longest match for the rule](<https://github.com/python/cpython/issues/83368>) (open, checked 2026-12-03)"),
        "{page}"
    );
    // Q-UA-VALUE-NOT-TOKEN: wrong, and no thread is known.
    let at = page
        .find("- **Q-UA-VALUE-NOT-TOKEN**")
        .expect("a wrong question");
    let item = &page[at..];
    let item = &item[..item[2..].find("\n- ").map_or(item.len(), |end| end + 2)];
    assert!(
        item.contains(&format!("  - {}", markdown::NO_THREAD)),
        "{item}"
    );

    let html = reptest::report::html::render(&report);
    assert!(
        html.contains("<span class=\"thread fixed\">fixed, checked 2026-12-03</span>")
            && html.contains("<span class=\"thread open\">open, checked 2026-12-03</span>")
            && html.contains("<i class=no-thread>no upstream issue known</i>"),
        "the HTML's question sections lost the threads' status"
    );
}

#[test]
fn pinned_and_latest_show_side_by_side_where_they_differ() {
    let report = report();
    assert_eq!(
        report.still_wrong_in_latest("python-urllib", "Q-LONGEST-MATCH"),
        Some(("9.9".to_string(), false))
    );
    assert_eq!(
        report.still_wrong_in_latest("python-urllib", "Q-TIE-ALLOW"),
        Some(("9.9".to_string(), true))
    );
    assert_eq!(
        report.still_wrong_in_latest("reference", "Q-TIE-ALLOW"),
        None
    );
    let page = markdown::implementation(&report, "python-urllib").expect("a page");
    assert!(
        page.contains("  - newest release 9.9 (`python-urllib@latest`): right ("),
        "{page}"
    );
    let summary = markdown::summary(&report, &[]);
    let row = summary
        .lines()
        .skip_while(|l| !l.starts_with("### Q-LONGEST-MATCH"))
        .find(|l| l.starts_with("| `python-urllib` |"))
        .expect("python-urllib's row under Q-LONGEST-MATCH");
    assert!(row.contains(" · 9.9 (latest): right ("), "{row}");
    let html = reptest::report::html::render(&report);
    assert!(
        html.contains(" · 9.9 (latest): right"),
        "no side by side in the HTML"
    );
}

/// Every thread names an implementation reptest knows, and the catalogue links at least
/// 15 distinct threads.
#[test]
fn catalogue_threads_name_known_implementations() {
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let known: BTreeSet<String> = impls::names().into_iter().collect();
    let mut urls = BTreeSet::new();
    for q in corpus.questions() {
        for thread in &q.upstream {
            assert!(
                known.contains(&thread.implementation),
                "{}: upstream {} names `{}`, not an implementation (`reptest impls`)",
                q.id,
                thread.url,
                thread.implementation
            );
            urls.insert(thread.url.as_str());
        }
    }
    assert!(urls.len() >= 15, "{} threads: {urls:?}", urls.len());
}

/// `NAME@latest` is never among the implementations of a default run or of `reptest
/// impls`; named, it is found, and without its install it is unavailable with the fix.
#[test]
fn latest_variants_run_only_when_named_and_say_how_to_install_them() {
    let state = tempfile::tempdir().expect("a temporary folder");
    let environment = reptest::Environment::default().with_state_dir(state.path());
    let registry = impls::Registry::new(impls::Options {
        environment,
        ..Default::default()
    });
    assert!(registry.names().iter().all(|n| !n.ends_with("@latest")));
    let latest: Vec<String> = registry
        .latest()
        .iter()
        .map(|i| i.name().to_string())
        .collect();
    for name in [
        "python-protego@latest",
        "node-robots-parser@latest",
        "go-temoto-robotstxt@latest",
    ] {
        assert!(latest.iter().any(|n| n == name), "{latest:?}");
    }
    // The standard library has no newest release on PyPI.
    assert!(
        !latest.iter().any(|n| n == "python-urllib@latest"),
        "{latest:?}"
    );

    let reptest = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_reptest"))
            .args(args)
            .env("REPTEST_STATE", state.path())
            .output()
            .expect("reptest runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = reptest(&["run", "--impl", "python-protego@latest"]);
    assert_ne!(code, Some(0));
    assert!(
        err.contains("`python-protego@latest` is unavailable")
            && err.contains("the newest releases are not installed")
            && err.contains(&format!("{}", state.path().join("venv-latest").display()))
            && err.contains("fix: bash harness/external/setup --latest python"),
        "{err}"
    );
    let (code, _, err) = reptest(&["run", "--impl", "python-urllib@latest"]);
    assert_ne!(code, Some(0));
    assert!(
        err.contains("unknown implementation `python-urllib@latest`")
            && err.contains("python-protego@latest"),
        "{err}"
    );
    let (code, out, _) = reptest(&["impls", "--latest"]);
    assert_eq!(code, Some(0));
    assert!(
        out.lines()
            .any(|l| l.starts_with("node-robots-parser@latest") && l.contains(" no ")),
        "{out}"
    );
    let (code, out, _) = reptest(&["impls"]);
    assert_eq!(code, Some(0));
    assert!(!out.contains("@latest"), "{out}");
}
