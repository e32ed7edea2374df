//! The `google` adapter: Google's C++ robotstxt linked through cxx (`src/impls/google.rs`).
//!
//! Google's library is found at build time (`ROBOTSTXT_CPP_PREFIX`, see
//! `harness/impls/build.rs`), which tells this crate's build script
//! (`cfg(reptest_google)`). When it is not linked, the tests that need it are reported as
//! *ignored*, with the fix, never as passed. The comparison with the Python binding of the
//! same library also needs the external adapters (`REPTEST_SKIP_ADAPTERS=1` at build time
//! marks it ignored too).

use reptest::{
    impls, runner, Availability, CaseInput, ImplInfo, Implementation, Outcome, QueryInput,
};
use reptest_corpus::Corpus;

/// Whether this crate's build script saw Google's library linked (`cfg(reptest_google)`).
fn linked() -> bool {
    cfg!(reptest_google)
}

/// The registered `google` adapter, available or not.
fn registered(name: &str) -> Option<Box<dyn Implementation>> {
    impls::all().into_iter().find(|i| i.info().name == name)
}

/// The `google` adapter, which must be available (the tests that call this are ignored
/// where the library is not linked).
fn google() -> Box<dyn Implementation> {
    let google = registered("google").expect("google is registered in impls::all()");
    match google.availability() {
        Availability::Available => google,
        Availability::Unavailable { why, fix } => {
            panic!("the google adapter is linked but unavailable: {why}; fix: {fix}")
        }
    }
}

fn corpus() -> Corpus {
    Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"))
}

/// One query against one body.
fn ask(implementation: &dyn Implementation, robots: &str, agent: &str, url: &str) -> Outcome {
    let queries = [QueryInput { agent, url }];
    let case = CaseInput {
        robots: robots.as_bytes(),
        fetch: None,
        queries: &queries,
    };
    let mut outcomes = implementation.evaluate(&case);
    assert_eq!(outcomes.len(), 1, "one outcome per query");
    outcomes.remove(0)
}

fn verdict(allowed: bool, line: Option<usize>) -> Outcome {
    Outcome::Verdict { allowed, line }
}

#[test]
fn google_is_registered_with_what_it_can_do() {
    let google = registered("google").expect("google is registered in impls::all()");
    let ImplInfo {
        name,
        language,
        capabilities,
        version,
        kind,
    } = google.info().clone();
    assert_eq!(name, "google");
    assert_eq!(kind, reptest::ImplKind::InProcess);
    assert_eq!(language, "C++");
    assert!(capabilities.full_urls);
    assert!(!capabilities.fetch_outcomes);
    assert!(capabilities.reports_line);
    // Available exactly where the build script saw the library linked: the tests
    // ignored without it are ignored for the right reason.
    match google.availability() {
        Availability::Available => {
            assert!(linked(), "available, yet cfg(reptest_google) is unset");
            assert!(!version.is_empty());
        }
        Availability::Unavailable { why, fix } => {
            assert!(!linked(), "linked, yet unavailable: {why}");
            assert!(
                why.starts_with("Google's robotstxt library is not installed (looked in: "),
                "{why}"
            );
            assert!(
                fix.contains("ROBOTSTXT_CPP_PREFIX=<install prefix>"),
                "{fix}"
            );
            assert!(fix.contains("-DROBOTS_SKIP_DEPS=ON"), "{fix}");
            // `reptest run --impl google` says why and how to fix it.
            let err = impls::select(&["google"])
                .err()
                .expect("unavailable")
                .to_string();
            assert!(err.contains(&why) && err.contains(&fix), "{err}");
        }
    }
}

#[test]
#[cfg_attr(
    not(reptest_google),
    ignore = "Google's robotstxt library is not linked into this build: install it (README, \"The google adapter\") and rebuild, with ROBOTSTXT_CPP_PREFIX=<prefix> unless it is under /usr/local or /usr"
)]
fn the_agent_and_the_url_go_where_they_belong() {
    let google = google();
    let google = google.as_ref();
    let robots = "User-agent: foobot\nDisallow: /\n";
    assert_eq!(
        ask(google, robots, "foobot", "https://example.com/page"),
        verdict(false, Some(2))
    );
    assert_eq!(
        ask(google, robots, "barbot", "https://example.com/page"),
        verdict(true, None)
    );
    // Product tokens match case-insensitively; a path gets the origin https://example.com.
    assert_eq!(
        ask(google, robots, "FooBot", "/page"),
        verdict(false, Some(2))
    );
    assert_eq!(ask(google, robots, "barbot", "/page"), verdict(true, None));
}

#[test]
#[cfg_attr(
    not(reptest_google),
    ignore = "Google's robotstxt library is not linked into this build: install it (README, \"The google adapter\") and rebuild, with ROBOTSTXT_CPP_PREFIX=<prefix> unless it is under /usr/local or /usr"
)]
fn the_deciding_line_is_the_longest_match() {
    let google = google();
    let google = google.as_ref();
    let robots = "User-agent: *\nDisallow: /a\nAllow: /a/b\n\nUser-agent: foobot\nAllow: /\n";
    let url = |path: &str| format!("https://example.com{path}");
    assert_eq!(
        ask(google, robots, "examplebot", &url("/a/b/c")),
        verdict(true, Some(3))
    );
    assert_eq!(
        ask(google, robots, "examplebot", &url("/a/x")),
        verdict(false, Some(2))
    );
    assert_eq!(
        ask(google, robots, "examplebot", &url("/z")),
        verdict(true, None)
    );
    // foobot's own group decides for it, not the `*` group.
    assert_eq!(
        ask(google, robots, "foobot", &url("/a/x")),
        verdict(true, Some(6))
    );
    // Bytes that are not UTF-8, NUL and CR-only line ends reach the library as they are.
    let odd = "User-agent: *\rDisallow: /\u{0}x\rDisallow: /b\r";
    assert_eq!(
        ask(google, odd, "examplebot", &url("/b")),
        verdict(false, Some(3))
    );
}

#[test]
#[cfg_attr(
    not(reptest_google),
    ignore = "Google's robotstxt library is not linked into this build: install it (README, \"The google adapter\") and rebuild, with ROBOTSTXT_CPP_PREFIX=<prefix> unless it is under /usr/local or /usr"
)]
fn every_corpus_query_gets_a_verdict_except_fetch_outcomes() {
    let google = google();
    let corpus = corpus();
    let run = runner::run(&corpus, &[google]);
    let mut problems = Vec::new();
    let (mut verdicts, mut unsupported) = (0, 0);
    for ((case, query), outcome) in corpus.queries().zip(&run.outcomes[0]) {
        match (outcome, case.fetch.is_some()) {
            (Outcome::Verdict { .. }, false) => verdicts += 1,
            (Outcome::Unsupported(_), true) => unsupported += 1,
            _ => problems.push(format!(
                "{} ({}:{}): {outcome}",
                query.id,
                case.file.display(),
                query.line
            )),
        }
    }
    assert!(
        problems.is_empty(),
        "{} queries without the expected kind of outcome:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(verdicts >= 300, "only {verdicts} verdicts");
    eprintln!("google: {verdicts} verdicts, {unsupported} fetch-outcome queries unsupported");
}

/// Where two implementations' outcomes differ on the corpus.
struct Comparison {
    /// Queries where both answered with a verdict.
    both_verdicts: usize,
    /// One line per query whose outcomes differ (verdict, kind of outcome, or both report
    /// a deciding line and the lines differ).
    differences: Vec<String>,
}

/// Runs the whole corpus through implementations `a` and `b` and lists every query whose
/// outcomes differ; fails when either is unregistered or unavailable.
fn compare(corpus: &Corpus, a: &str, b: &str) -> Comparison {
    for name in [a, b] {
        match registered(name).map(|i| i.availability()) {
            None => panic!("comparison {a} vs {b}: `{name}` is not registered"),
            Some(Availability::Unavailable { why, fix }) => {
                panic!("comparison {a} vs {b}: `{name}` is unavailable: {why}; fix: {fix}")
            }
            Some(Availability::Available) => {}
        }
    }
    // One at a time, so that an implementation can be compared with itself.
    let implementations: Vec<_> = [a, b]
        .iter()
        .flat_map(|name| impls::select(&[name]).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let run = runner::run(corpus, &implementations);
    let mut comparison = Comparison {
        both_verdicts: 0,
        differences: Vec::new(),
    };
    let pairs = run.outcomes[0].iter().zip(&run.outcomes[1]);
    for ((case, query), (x, y)) in corpus.queries().zip(pairs) {
        let differ = match (x, y) {
            (
                Outcome::Verdict {
                    allowed: xa,
                    line: xl,
                },
                Outcome::Verdict {
                    allowed: ya,
                    line: yl,
                },
            ) => {
                comparison.both_verdicts += 1;
                xa != ya || (xl.is_some() && yl.is_some() && xl != yl)
            }
            _ => x.word() != y.word(),
        };
        if differ {
            comparison.differences.push(format!(
                "{} ({}:{}) agent={} url={}: {a} {x}, {b} {y}",
                query.id,
                case.file.display(),
                query.line,
                query.agent,
                short(&query.url),
            ));
        }
    }
    comparison
}

/// A URL cut to 100 characters for a report line.
fn short(url: &str) -> String {
    match url.char_indices().nth(100) {
        Some((at, _)) => format!("{}... ({} bytes)", &url[..at], url.len()),
        None => url.to_string(),
    }
}

#[test]
#[cfg_attr(
    not(reptest_google),
    ignore = "Google's robotstxt library is not linked into this build: install it (README, \"The google adapter\") and rebuild, with ROBOTSTXT_CPP_PREFIX=<prefix> unless it is under /usr/local or /usr"
)]
#[cfg_attr(
    all(reptest_google, reptest_skip_adapters),
    ignore = "built with REPTEST_SKIP_ADAPTERS=1; install python-jwm-robotstxt with `bash harness/external/setup`"
)]
fn google_and_the_python_binding_of_the_same_library_agree() {
    let corpus = corpus();
    let comparison = compare(&corpus, "google", "python-jwm-robotstxt");
    eprintln!(
        "google vs python-jwm-robotstxt: {} queries with two verdicts, {} differences",
        comparison.both_verdicts,
        comparison.differences.len()
    );
    assert!(comparison.both_verdicts >= 300);
    assert!(
        comparison.differences.is_empty(),
        "google and python-jwm-robotstxt (a Python binding of Google's library) differ on \
         {} of {} queries:\n{}",
        comparison.differences.len(),
        comparison.both_verdicts,
        comparison.differences.join("\n")
    );
}

#[test]
fn an_implementation_agrees_with_itself() {
    // The comparison itself, on the one implementation that is always there.
    let corpus = corpus();
    let comparison = compare(&corpus, "reference", "reference");
    assert_eq!(comparison.both_verdicts, corpus.queries().count());
    assert!(comparison.differences.is_empty());
}
