//! The harness's path from the corpus to a score, with the reference adapter: every query
//! run through `runner::run` and counted by `score::summarize` passes, a choice is never
//! counted as a pass, and the verdicts carry the deciding line. (The reference drives the
//! corpus itself, with both profiles, in `conformance/reference/tests/integration/corpus.rs`;
//! the corpus's coverage of the requirement index is tested in the corpus crate.)

use reptest::{impls, runner, score};
use reptest_corpus::Corpus;

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
    // (regression checks of recorded answers, tested in the `fuzz` module).
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
