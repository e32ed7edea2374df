//! Every registered implementation (`impls::all()`), if available, on sanity cases where
//! the order of the arguments matters (agent vs URL, body vs query): a swapped or
//! dropped argument in an adapter shows up here before it shows up as a "divergence".
//!
//! An unavailable implementation is skipped with a visible line, except when `CI` is set
//! or `REPTEST_REQUIRE_ADAPTERS=1`: then it fails the test (all but `google`, whose
//! library is built by hand; it is only reported).

use reptest::{impls, Availability, CaseInput, Implementation, QueryInput};

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

fn required() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
        || std::env::var("REPTEST_REQUIRE_ADAPTERS").as_deref() == Ok("1")
}

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

#[test]
fn every_available_implementation_passes_the_sanity_cases() {
    let all = impls::all();
    let availability = impls::availabilities(&all);
    let mut failures = Vec::new();
    let mut checked = 0;
    for (implementation, availability) in all.iter().zip(availability) {
        let name = implementation.name();
        match availability {
            Availability::Available => {
                checked += 1;
                for problem in check(implementation.as_ref()) {
                    failures.push(format!("{name}: {problem}"));
                }
            }
            Availability::Unavailable { why, fix } if required() && name != "google" => {
                failures.push(format!("{name}: unavailable: {why}\n    fix: {fix}"));
            }
            Availability::Unavailable { why, fix } => {
                eprintln!("SKIPPED {name}: unavailable: {why}\n    fix: {fix}");
            }
        }
    }
    eprintln!("sanity cases: {checked} implementation(s) checked");
    assert!(checked >= 1, "the reference at least is available");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
