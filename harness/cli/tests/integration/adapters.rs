//! Every registered implementation (`impls::all()`), if available, on sanity cases where
//! the order of the arguments matters (agent vs URL, body vs query): a swapped or
//! dropped argument in an adapter shows up here before it shows up as a "divergence".
//!
//! One test per kind of implementation, and an unavailable one fails its test naming the
//! fix; a kind that is optional here is reported as *ignored* with its reason instead
//! (build.rs): `google` unless its library is linked, the external adapters when built
//! with `REPTEST_SKIP_ADAPTERS=1`, the crawlers with `REPTEST_SKIP_CRAWLERS=1`.

use reptest::{impls, Availability, CaseInput, ImplKind, Implementation, QueryInput};

/// The tests' own environment (REPTEST_STATE, REPTEST_ADAPTERS, PATH), read here as the
/// command line reads it: the libraries take it as a value.
fn environment() -> reptest::Environment {
    reptest::Environment::from_lookup(|name| std::env::var_os(name))
}

struct Sanity {
    robots: &'static [u8],
    queries: &'static [(&'static str, &'static str, bool)],
}

const SANITY: &[Sanity] = &[
    Sanity {
        robots: b"User-agent: foobot\nDisallow: /\n",
        queries: &[
            ("foobot", "https://example.com/page", false),
            ("barbot", "https://example.com/page", true),
        ],
    },
    Sanity {
        robots: b"User-agent: *\nDisallow: /private\n",
        queries: &[
            ("foobot", "https://example.com/private/x", false),
            ("foobot", "https://example.com/public", true),
        ],
    },
];

fn check(implementation: &dyn Implementation) -> Vec<String> {
    let mut problems = Vec::new();
    // A crawler is judged over HTTP on a fetch outcome (a plain body is `unsupported`
    // for it), and wget and httrack obey the group of their own name, not the token
    // they are given (README, "The access method over HTTP"): they get the `*` case,
    // served with a 200.
    let crawler = implementation.info().kind == reptest::ImplKind::Crawler;
    let ok = reptest_corpus::Fetch {
        status: Some(200),
        ..Default::default()
    };
    let fetch = crawler.then_some(&ok);
    for sanity in SANITY.iter().skip(usize::from(crawler)) {
        let queries: Vec<QueryInput<'_>> = sanity
            .queries
            .iter()
            .map(|(agent, url, _)| QueryInput { agent, url })
            .collect();
        let outcomes = implementation.evaluate(&CaseInput {
            robots: sanity.robots,
            fetch,
            queries: &queries,
        });
        if outcomes.len() != queries.len() {
            problems.push(format!(
                "{} answers for {} queries",
                outcomes.len(),
                queries.len()
            ));
            continue;
        }
        for ((agent, url, allowed), outcome) in sanity.queries.iter().zip(&outcomes) {
            if outcome.allowed() != Some(*allowed) {
                problems.push(format!(
                    "{:?} agent={agent} url={url}: expected {}, got {outcome}",
                    String::from_utf8_lossy(sanity.robots),
                    if *allowed { "allowed" } else { "disallowed" },
                ));
            }
        }
    }
    problems
}

/// Checks every registered implementation that `chosen` picks (at least one must be):
/// each must be available and pass the sanity cases.
fn sanity_of(what: &str, chosen: impl Fn(&dyn Implementation) -> bool) {
    let all: Vec<_> = impls::Registry::new(impls::Options {
        environment: environment(),
        ..Default::default()
    })
    .all()
    .into_iter()
    .filter(|i| chosen(i.as_ref()))
    .collect();
    assert!(!all.is_empty(), "no {what} is registered");
    let availability = impls::availabilities(&all);
    let mut failures = Vec::new();
    for (implementation, availability) in all.iter().zip(availability) {
        let name = implementation.name();
        match availability {
            Availability::Available => {
                for problem in check(implementation.as_ref()) {
                    failures.push(format!("{name}: {problem}"));
                }
            }
            Availability::Unavailable { why, fix } => {
                failures.push(format!("{name}: unavailable: {why}\n    fix: {fix}"));
            }
        }
    }
    eprintln!("sanity cases: {} {what}(s) checked", all.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_in_process_implementation_passes_the_sanity_cases() {
    sanity_of("in-process implementation", |i| {
        i.info().kind == ImplKind::InProcess && i.name() != "google"
    });
}

#[test]
#[cfg_attr(
    not(reptest_google),
    ignore = "Google's robotstxt library is not linked into this build: install it (README, \"The google adapter\") and rebuild, with ROBOTSTXT_CPP_PREFIX=<prefix> unless it is under /usr/local or /usr"
)]
fn google_passes_the_sanity_cases() {
    sanity_of("google", |i| i.name() == "google");
}

#[test]
#[cfg_attr(
    reptest_skip_adapters,
    ignore = "built with REPTEST_SKIP_ADAPTERS=1; install the adapters with `bash harness/external/setup`"
)]
fn every_external_adapter_passes_the_sanity_cases() {
    sanity_of("external adapter", |i| i.info().kind == ImplKind::Process);
}

#[test]
#[cfg(feature = "crawlers")]
#[cfg_attr(
    reptest_skip_crawlers,
    ignore = "built with REPTEST_SKIP_CRAWLERS=1; install the crawlers with `bash harness/external/setup crawlers`"
)]
fn every_crawler_passes_the_sanity_cases() {
    sanity_of("crawler", |i| i.info().kind == ImplKind::Crawler);
}
