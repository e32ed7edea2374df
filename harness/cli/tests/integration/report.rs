//! The Markdown reports, snapshot-tested: the corpus runs once through every available
//! implementation but `google`, and the conformance summary and one page per
//! implementation are compared with the Markdown committed under `reports/snapshots/`,
//! so any change of any implementation's behaviour (or of the corpus) is a reviewed diff.
//!
//! `google` is left out: its library is built by hand and missing on most machines, and
//! `python-jwm-robotstxt` (a prebuilt wheel of the same library) stands for it.
//!
//! An unavailable implementation fails the snapshot tests, naming the fix (install them
//! with `bash harness/external/setup`): the snapshots hold every implementation, so a
//! partial run cannot be compared. Built with `REPTEST_SKIP_ADAPTERS=1`, the tests are
//! reported as ignored instead (build.rs).
//!
//! Update after a reviewed change: `INSTA_UPDATE=always cargo test -p reptest --test
//! integration report::` (or `cargo insta review`).

use reptest::report::markdown::{self, WriteUp};
use reptest::report::Report;
use reptest::runner::Run;
use reptest::{impls, runner, Availability, Implementation};
use reptest_corpus::Corpus;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

/// The tests' own environment (REPTEST_STATE, REPTEST_ADAPTERS, PATH), read here as the
/// command line reads it: the libraries take it as a value.
fn environment() -> reptest::Environment {
    reptest::Environment::from_lookup(|name| std::env::var_os(name))
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the CLI crate sits at harness/cli in the workspace")
}

/// The report of the corpus through every implementation but `google`; fails naming
/// the implementations that are unavailable and the fix.
pub(crate) fn report() -> &'static Report {
    static REPORT: OnceLock<Result<Report, String>> = OnceLock::new();
    REPORT
        .get_or_init(|| {
            let all: Vec<_> = impls::Registry::new(impls::Options {
                environment: environment(),
                ..Default::default()
            })
            .all()
            .into_iter()
            .filter(|i| i.name() != "google")
            .collect();
            let availability = impls::availabilities(&all);
            let mut missing = Vec::new();
            let mut chosen = Vec::new();
            for (implementation, availability) in all.into_iter().zip(availability) {
                match availability {
                    Availability::Available => chosen.push(implementation),
                    Availability::Unavailable { why, fix } => {
                        missing.push(format!("{}: {why}\n    fix: {fix}", implementation.name()))
                    }
                }
            }
            if !missing.is_empty() {
                let message = format!(
                    "unavailable implementation(s); the snapshots hold every one but google \
                     (bash harness/external/setup installs them, or build the tests with \
                     REPTEST_SKIP_ADAPTERS=1 to have these ignored):\n  {}",
                    missing.join("\n  ")
                );
                return Err(message);
            }
            let dir = reptest_corpus::default_dir();
            let corpus = Corpus::load(&dir).unwrap_or_else(|e| panic!("{e}"));
            let started = Instant::now();
            let mut run = runner::run(&corpus, &chosen);
            retry_timeouts(&corpus, &chosen, &mut run);
            eprintln!(
                "corpus through {} implementations in {:.1} s",
                chosen.len(),
                started.elapsed().as_secs_f64()
            );
            let infos: Vec<_> = chosen.iter().map(|i| i.info().clone()).collect();
            let mut report = Report::build(&corpus, &dir, &run, &infos, "1970-01-01T00:00:00Z");
            for cell in report.outcomes.iter_mut().flatten() {
                if let Some(detail) = &mut cell.detail {
                    *detail = without_request_numbers(detail);
                }
            }
            Ok(report)
        })
        .as_ref()
        .unwrap_or_else(|why| panic!("{why}"))
}

/// `detail` with each `request N` of an external adapter's message as `request #`: the
/// number counts the requests the adapter process has had, which depends on how the
/// cases were scheduled, not on the library.
fn without_request_numbers(detail: &str) -> String {
    let mut out = String::with_capacity(detail.len());
    let mut rest = detail;
    while let Some(at) = rest.find("request ") {
        let (before, after) = rest.split_at(at + "request ".len());
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            out.push('#');
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// Runs every case with a `timeout` again, alone: a 500 KiB body can take an external
/// adapter past its per-request timeout while every core is busy, which is the machine's
/// load, not the library's behaviour. A case that times out again keeps its `timeout`.
fn retry_timeouts(corpus: &Corpus, implementations: &[Box<dyn Implementation>], run: &mut Run) {
    run.evidence
        .resize_with(implementations.len(), Default::default);
    let columns = run.outcomes.iter_mut().zip(&mut run.evidence);
    for (implementation, (column, evidence)) in implementations.iter().zip(columns) {
        let mut start = 0;
        for case in corpus.cases() {
            let end = start + case.queries.len();
            if column[start..end].iter().any(|o| o.word() == "timeout") {
                let (again, log) =
                    runner::evaluate_case_with_evidence(implementation.as_ref(), case);
                if !log.is_empty() {
                    evidence.insert(case.id.clone(), log);
                }
                eprintln!(
                    "{}: {} timed out under load; again alone: {}",
                    implementation.name(),
                    case.id,
                    if again.iter().any(|o| o.word() == "timeout") {
                        "timeout"
                    } else {
                        "answered"
                    }
                );
                column.splice(start..end, again);
            }
            start = end;
        }
    }
}

/// The fuzzing write-ups under reports/findings/, linked from reports/snapshots/.
fn write_ups() -> Vec<WriteUp> {
    let Ok(entries) = std::fs::read_dir(repo_root().join("reports/findings")) else {
        return Vec::new();
    };
    let mut list: Vec<WriteUp> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter_map(|p| {
            let name = p.file_stem()?.to_string_lossy().into_owned();
            let file = p.file_name()?.to_string_lossy().into_owned();
            Some(WriteUp {
                name,
                link: format!("../findings/{file}"),
            })
        })
        .collect();
    list.sort();
    list
}

#[test]
#[cfg_attr(
    reptest_skip_adapters,
    ignore = "built with REPTEST_SKIP_ADAPTERS=1; install the adapters with `bash harness/external/setup`"
)]
fn conformance_summary_snapshot() {
    // The crawlers' request logs are left out: a crawler that fetches two pages at once
    // may send them in either order. `crawler_view_shows_each_broken_must_with_its_requests`
    // checks that the summary shows them.
    let mut report = report().clone();
    for entry in &mut report.implementations {
        entry.request_logs.clear();
    }
    snapshot!("conformance", markdown::summary(&report, &write_ups()));
}

#[test]
#[cfg_attr(
    reptest_skip_adapters,
    ignore = "built with REPTEST_SKIP_ADAPTERS=1; install the adapters with `bash harness/external/setup`"
)]
fn crawler_view_shows_each_broken_must_with_its_requests() {
    let report = report();
    let view = report.crawler_view().expect("the crawlers ran");
    assert!(view.rows.len() >= 4, "{} crawlers", view.rows.len());
    let summary = markdown::summary(report, &write_ups());
    let section = &summary[summary.find("## Crawlers over HTTP").unwrap()..];
    for row in &view.rows {
        let name = &report.implementations[row.implementation].name;
        for broken in &row.broken {
            assert!(
                !broken.log.is_empty(),
                "{name}: {} has no log",
                broken.query.id
            );
        }
        if !row.broken.is_empty() {
            assert!(section.contains(&format!("### `{name}`")), "{name}");
        }
    }
    // wget crawls on after a 5xx, where §2.3.1.4 says complete disallow: its log shows
    // the robots.txt asked for, then the page.
    let wget = view
        .rows
        .iter()
        .find(|row| report.implementations[row.implementation].name == "crawler-wget")
        .expect("crawler-wget ran");
    let five = wget
        .broken
        .iter()
        .find(|b| b.topic == reptest::report::AccessTopic::ServerError)
        .expect("wget 1.21.3 crawls after a 5xx");
    assert!(
        five.log
            .iter()
            .any(|line| line.starts_with("GET /robots.txt")),
        "{:?}",
        five.log
    );
    assert!(section.contains("Requests, in order:"));
}

#[test]
#[cfg_attr(
    reptest_skip_adapters,
    ignore = "built with REPTEST_SKIP_ADAPTERS=1; install the adapters with `bash harness/external/setup`"
)]
fn implementation_page_snapshots() {
    let report = report();
    for entry in &report.implementations {
        let page = markdown::implementation(report, &entry.name).expect("a column");
        snapshot!(format!("impl-{}", entry.name), page);
    }
    assert!(markdown::implementation(report, "no-such-implementation").is_none());
}

#[test]
#[cfg_attr(
    reptest_skip_adapters,
    ignore = "built with REPTEST_SKIP_ADAPTERS=1; install the adapters with `bash harness/external/setup`"
)]
fn the_reference_passes_every_judged_rfc9309_query() {
    let report = report();
    let reference = report.implementation("reference").expect("reference");
    // Under `rfc9309` only: the reference makes the RFC's choices, not Google's.
    for (level, tally) in &report.scores[reference].profiles[&reptest_corpus::Profile::Rfc9309] {
        assert_eq!(
            (tally.fail, tally.no_verdict),
            (0, 0),
            "reference under rfc9309 at {level}"
        );
    }
    let page = markdown::implementation(report, "reference").expect("a page");
    assert!(page.contains("## Queries not passed under `rfc9309` (0)"));
}

/// `reptest report` writes the four kinds of files, the JSON reads back into a
/// [`Report`], and the renderings are deterministic.
#[test]
fn report_command_writes_json_html_and_markdown() {
    let out = tempfile::tempdir().expect("a temporary folder");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(["report", "--impl", "reference,rust-cylon", "--out"])
        .arg(out.path())
        .output()
        .expect("reptest runs");
    assert!(
        status.status.success(),
        "reptest report failed: {}\n{}",
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(stdout.contains("report.json"), "{stdout}");
    for file in [
        "report.json",
        "report.html",
        "README.md",
        "impl/reference.md",
        "impl/rust-cylon.md",
    ] {
        let path = out.path().join(file);
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        assert!(size > 0, "{} missing or empty", path.display());
    }
    let json = std::fs::read_to_string(out.path().join("report.json")).expect("the JSON");
    let report: Report = serde_json::from_str(&json).expect("the JSON is a Report");
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let queries = corpus.queries().count();
    assert_eq!(report.meta.queries, queries);
    assert_eq!(report.implementations.len(), 2);
    assert_eq!(report.implementations[0].name, "reference");
    assert_eq!(report.outcomes.len(), 2, "one column per implementation");
    assert!(report.outcomes.iter().all(|c| c.len() == queries), "rows");
    assert_eq!(report.scores.len(), 2);
    assert_eq!(report.queries().count(), queries);
    assert!(report.meta.generated_at.ends_with('Z'));

    // The README is the summary of the JSON's report (links aside: none in a temp run
    // unless reports/findings/ has write-ups, which the command links relative to --out).
    let readme = std::fs::read_to_string(out.path().join("README.md")).expect("README");
    let links: Vec<WriteUp> = Vec::new();
    if write_ups().is_empty() {
        assert_eq!(readme, markdown::summary(&report, &links));
    }
    let page = std::fs::read_to_string(out.path().join("impl/rust-cylon.md")).expect("page");
    assert_eq!(
        Some(page),
        markdown::implementation(&report, "rust-cylon"),
        "the page is the rendering of the JSON's report"
    );

    // Determinism: the same report renders byte for byte the same, and timings and the
    // date do not reach the Markdown.
    let mut other = report.clone();
    other.meta.generated_at = "2000-01-01T00:00:00Z".into();
    for entry in &mut other.implementations {
        entry.seconds += 12.5;
    }
    assert_eq!(
        markdown::summary(&report, &links),
        markdown::summary(&other, &links)
    );
    for name in ["reference", "rust-cylon"] {
        assert_eq!(
            markdown::implementation(&report, name),
            markdown::implementation(&other, name)
        );
    }
    assert_eq!(
        reptest::report::html::render(&report),
        reptest::report::html::render(&report)
    );
}

/// `reptest report` reports an unwritable folder as an error (exit 2).
#[test]
fn report_command_exits_2_when_it_cannot_write() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").expect("written");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(["report", "--impl", "reference", "--out"])
        .arg(file.join("sub"))
        .output()
        .expect("reptest runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot create"));
}
