//! The crates.io adapters (`rust-*`) take their arguments in the right order and the
//! URL in the right form: one table of cases, run through every adapter.

use reptest::{impls, runner, CaseInput, Outcome, QueryInput};
use reptest_corpus::Corpus;

/// Every in-process crate adapter.
const CRATES: [&str; 6] = [
    "rust-robotstxt",
    "rust-texting-robots",
    "rust-robotxt",
    "rust-robots-txt",
    "rust-robotparser",
    "rust-cylon",
];

/// A file where the agent decides.
const BY_AGENT: &str = "User-agent: foobot\nDisallow: /\n";
/// A file where the path decides.
const BY_PATH: &str = "User-agent: *\nDisallow: /private\n";

/// (robots.txt, agent, URL, allowed), each URL as an absolute URL and as a path.
const CASES: &[(&str, &str, &str, bool)] = &[
    (BY_AGENT, "foobot", "https://example.com/page", false),
    (BY_AGENT, "barbot", "https://example.com/page", true),
    (BY_AGENT, "foobot", "/page", false),
    (BY_AGENT, "barbot", "/page", true),
    (BY_PATH, "foobot", "https://example.com/private/x", false),
    (BY_PATH, "foobot", "https://example.com/public", true),
    (BY_PATH, "foobot", "/private/x", false),
    (BY_PATH, "foobot", "/public", true),
];

fn answer(name: &str, robots: &str, agent: &str, url: &str) -> Outcome {
    let implementation = impls::select(&[name]).unwrap().remove(0);
    let queries = [QueryInput { agent, url }];
    let case = CaseInput {
        robots: robots.as_bytes(),
        fetch: None,
        queries: &queries,
    };
    implementation.evaluate(&case).remove(0)
}

#[test]
fn every_crate_adapter_answers_the_table() {
    let mut wrong = Vec::new();
    for name in CRATES {
        for &(robots, agent, url, allowed) in CASES {
            let outcome = answer(name, robots, agent, url);
            if outcome.allowed() != Some(allowed) {
                wrong.push(format!("{name}: {robots:?} {agent} {url}: {outcome}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn one_case_with_several_queries_answers_each_in_order() {
    let queries: Vec<QueryInput<'_>> = CASES[..2]
        .iter()
        .map(|&(_, agent, url, _)| QueryInput { agent, url })
        .collect();
    let case = CaseInput {
        robots: CASES[0].0.as_bytes(),
        fetch: None,
        queries: &queries,
    };
    for implementation in impls::select(&CRATES).unwrap() {
        let verdicts: Vec<_> = implementation
            .evaluate(&case)
            .iter()
            .map(Outcome::allowed)
            .collect();
        let name = &implementation.info().name;
        assert_eq!(verdicts, [Some(false), Some(true)], "{name}");
    }
}

#[test]
fn crate_adapters_describe_themselves() {
    for implementation in impls::select(&CRATES).unwrap() {
        let info = implementation.info();
        assert_eq!(info.language, "Rust", "{}", info.name);
        assert!(!info.capabilities.fetch_outcomes, "{}", info.name);
        assert!(!info.capabilities.reports_line, "{}", info.name);
        let parts: Vec<_> = info.version.split('.').collect();
        assert_eq!(parts.len(), 3, "{}: {}", info.name, info.version);
        assert!(
            parts.iter().all(|p| p.parse::<u32>().is_ok()),
            "{}",
            info.name
        );
    }
}

#[test]
fn the_whole_corpus_runs_through_every_crate_adapter_without_a_timeout_or_crash() {
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let implementations = impls::select(&CRATES).unwrap();
    let run = runner::run(&corpus, &implementations);
    let queries: Vec<_> = corpus.queries().collect();
    let mut stuck = Vec::new();
    for (name, outcomes) in run.implementations.iter().zip(&run.outcomes) {
        assert_eq!(outcomes.len(), queries.len(), "{name}");
        for (outcome, (case, query)) in outcomes.iter().zip(&queries) {
            if matches!(outcome, Outcome::Timeout(_) | Outcome::Crash(_)) {
                let url: String = query.url.chars().take(60).collect();
                stuck.push(format!("{name}: {} {url}: {outcome}", case.id));
            }
        }
    }
    assert!(stuck.is_empty(), "{}", stuck.join("\n"));
}
