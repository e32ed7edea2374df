//! Every corpus query through the reference matcher: all must pass, and the corpus must
//! cover the whole requirement index.

use reptest::{impls, runner, score};
use reptest_corpus::{Corpus, Level};

fn corpus() -> Corpus {
    Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_reference_passes_every_corpus_query() {
    let corpus = corpus();
    let implementations = impls::select(&["reference"]).unwrap();
    let run = runner::run(&corpus, &implementations);
    let summary = &score::summarize(&corpus, &run, reptest_corpus::Profile::Rfc9309)[0];
    let report: Vec<String> = summary
        .failures
        .iter()
        .map(|f| f.describe(&corpus))
        .collect();
    assert!(
        report.is_empty(),
        "{} queries failed:\n{}",
        report.len(),
        report.join("\n")
    );
    // Every decided query is judged and passes, and every other one is a choice made
    // (a verdict where either conforms), but fuzzing findings awaiting their verdict
    // (regression checks of recorded answers, tested in tests/fuzz.rs).
    let judged = corpus
        .queries()
        .filter(|(_, q)| !q.is_undecided_finding())
        .count();
    let total = summary.total();
    assert_eq!(
        (total.pass + total.choice, total.unsupported),
        (judged, 0),
        "every query must be judged and pass, or be a choice"
    );
    let either = corpus
        .queries()
        .filter(|(_, q)| !q.is_undecided_finding())
        .filter(|(_, q)| {
            q.expect_for(reptest_corpus::Profile::Rfc9309) == reptest_corpus::Expect::Either
        })
        .count();
    assert_eq!(total.choice, either, "a choice is never counted as a pass");
}

#[test]
fn the_corpus_covers_the_requirement_index() {
    let stats = corpus().stats();
    assert!(stats.queries >= 300, "only {} queries", stats.queries);
    assert!(
        stats.uncovered.is_empty(),
        "uncovered: {:?}",
        stats.uncovered
    );
    assert!(
        stats.under_covered.is_empty(),
        "fewer queries than the level asks: {:?}",
        stats.under_covered
    );
    // Corpus 3.0.0: every query has a root cause its failures group by (its question, or
    // the one plain requirement it tests), and nothing awaits a decision.
    assert!(
        stats.without_cause.is_empty(),
        "queries without a question or a single plain requirement: {:?}",
        stats.without_cause
    );
    assert_eq!(stats.undecided, 0, "queries awaiting a decision");
    assert!(stats.questions >= 38, "only {} questions", stats.questions);
    for level in [Level::Must, Level::Should, Level::May] {
        assert!(
            stats.per_level.get(&level).copied().unwrap_or(0) > 0,
            "no {level} query"
        );
    }
}

#[test]
fn the_reference_reports_a_deciding_line_for_rule_verdicts() {
    let corpus = corpus();
    let implementations = impls::select(&["reference"]).unwrap();
    let run = runner::run(&corpus, &implementations);
    let with_line = run.outcomes[0]
        .iter()
        .filter(|o| matches!(o, reptest::Outcome::Verdict { line: Some(_), .. }))
        .count();
    assert!(
        with_line * 2 > run.outcomes[0].len(),
        "most verdicts come from a rule with a line: {with_line}"
    );
}

/// Departures of the `google` profile that `Config::google()` does not model (a profile ID,
/// or a query id for a single query), each with what Google does.
const GOOGLE_NOT_MODELLED: &[(&str, &str)] = &[
    (
        "profile-google-bom-prefix",
        "skips a partial BOM prefix before the first key",
    ),
    ("profile-google-nul-ends-line", "ends a line at a NUL octet"),
    (
        "profile-google-ascii-whitespace",
        "strips form feed and vertical tab as white space",
    ),
    (
        "profile-google-escapes-as-written",
        "compares percent-escapes as written: no hex-case folding, no decoding in a rule",
    ),
    (
        "profile-google-dollar-inside-literal",
        "reads a `$` before the end of a pattern as a literal octet",
    ),
    (
        "profile-google-pattern-without-slash",
        "keeps a pattern without `/` as a rule that matches nothing and ends the agents' run",
    ),
    (
        "profile-google-control-octet-rule",
        "keeps a rule with a control octet in its path",
    ),
    (
        "typo-disallow-misspellings/examplebot:/four",
        "reads any key that starts with `disallow` (`Disallowed`) as disallow",
    ),
];

/// The reference's `Config::google()` is the `google` profile in code: on every decided
/// query without a fetch scenario where the profile departs from RFC 9309, it answers
/// what the profile expects, unless the departure is listed in [`GOOGLE_NOT_MODELLED`].
#[test]
fn the_reference_google_config_answers_the_google_profile_where_it_departs() {
    use reptest_corpus::{Expect, Profile};
    use reptest_reference::{Config, Robots};
    let corpus = corpus();
    let listed = |id: &str| GOOGLE_NOT_MODELLED.iter().any(|(name, _)| *name == id);
    let (mut checked, mut wrong) = (0, Vec::new());
    for (case, query) in corpus.queries() {
        let google = query.expect_for(Profile::Google);
        if case.fetch.is_some() || google == query.expect || google == Expect::Either {
            continue;
        }
        if listed(&query.id) || query.requirements.iter().any(|r| listed(r)) {
            continue;
        }
        checked += 1;
        let allowed =
            Robots::parse_with(&case.body, &Config::google()).is_allowed(&query.agent, &query.url);
        if allowed != (google == Expect::Allowed) {
            wrong.push(format!("{} ({:?})", query.id, query.requirements));
        }
    }
    assert!(
        checked >= 40,
        "only {checked} queries where the profile departs"
    );
    assert!(
        wrong.is_empty(),
        "Config::google() differs from the google profile:\n{}",
        wrong.join("\n")
    );
}
