//! Every corpus query through the harness's reference adapter: all must pass, a choice
//! is never a pass, and the corpus must cover the whole requirement index. (The reference
//! drives the corpus itself, with both profiles, in `conformance/reference/tests/corpus.rs`.)

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
