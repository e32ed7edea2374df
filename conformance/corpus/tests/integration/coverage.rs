//! The shipped corpus covers the whole requirement index: every requirement has its
//! queries, as many as its level asks, every query has a root cause, and nothing awaits a
//! decision.

use reptest_corpus::{Corpus, Level};

#[test]
fn the_corpus_covers_the_requirement_index() {
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let stats = corpus.stats();
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
