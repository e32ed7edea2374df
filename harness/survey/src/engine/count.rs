//! Counting one query's answers: against the decided verdict, pairwise, in the
//! agreement and per question, into the whole tally or one of its slices.

use std::collections::{BTreeMap, BTreeSet};

use reptest_core::Outcome;

use crate::breaker::Answers;
use crate::tally::{Agreement, Decided, PairTally, QuestionTally, Slice, Tally};

/// What the counts of queries are kept in: the whole [`Tally`] or a [`Slice`].
pub(super) trait Counted {
    fn agreement(&mut self) -> &mut Agreement;
    fn decided(&mut self, i: usize) -> &mut Decided;
    fn pair(&mut self, i: usize, j: usize) -> &mut PairTally;
    fn questions(&mut self) -> &mut BTreeMap<String, QuestionTally>;
}

impl Counted for Tally {
    fn agreement(&mut self) -> &mut Agreement {
        &mut self.agreement
    }
    fn decided(&mut self, i: usize) -> &mut Decided {
        &mut self.implementations[i].decided
    }
    fn pair(&mut self, i: usize, j: usize) -> &mut PairTally {
        &mut self.pairwise[i][j]
    }
    fn questions(&mut self) -> &mut BTreeMap<String, QuestionTally> {
        &mut self.per_question
    }
}

impl Counted for Slice {
    fn agreement(&mut self) -> &mut Agreement {
        &mut self.agreement
    }
    fn decided(&mut self, i: usize) -> &mut Decided {
        &mut self.decided[i]
    }
    fn pair(&mut self, i: usize, j: usize) -> &mut PairTally {
        &mut self.pairwise[i][j]
    }
    fn questions(&mut self) -> &mut BTreeMap<String, QuestionTally> {
        &mut self.per_question
    }
}

/// One query judged: its verdicts, and for a split one, its sides and question.
pub(crate) struct Judged {
    /// Each implementation's verdict.
    pub verdicts: Vec<Option<bool>>,
    /// The decided verdict (the decider's), `None` if it gave none.
    pub decided: Option<bool>,
    /// Whether at least two verdicts were given and both verdicts occur.
    pub split: bool,
    /// For a split query: the implementations that answered `allowed`, sorted.
    pub allowed: Vec<String>,
    /// For a split query: the implementations that answered `disallowed`, sorted.
    pub disallowed: Vec<String>,
    /// The question a split query is attributed to.
    pub question: Option<String>,
    /// Attributed to a question the corpus leaves open: no verdict is decided.
    pub open: bool,
}

/// What one file showed at least once: a file counts once in a files column however
/// many of its queries showed it.
pub(super) struct Seen {
    pair_both: Vec<Vec<bool>>,
    pair_split: Vec<Vec<bool>>,
    decided_both: Vec<bool>,
    decided_split: Vec<bool>,
    /// The questions a split query was attributed to.
    questions: BTreeSet<String>,
    /// (question, implementation): it answered such a query against the decided verdict.
    against: BTreeSet<(String, String)>,
}

impl Seen {
    /// Nothing seen yet, for `n` implementations.
    pub(super) fn new(n: usize) -> Seen {
        Seen {
            pair_both: vec![vec![false; n]; n],
            pair_split: vec![vec![false; n]; n],
            decided_both: vec![false; n],
            decided_split: vec![false; n],
            questions: BTreeSet::new(),
            against: BTreeSet::new(),
        }
    }

    /// The file's counts in the files columns of `c`.
    pub(super) fn count_files(self, c: &mut impl Counted) {
        let n = self.decided_both.len();
        for i in 0..n {
            let mine = c.decided(i);
            mine.files = u64::from(self.decided_both[i]);
            mine.files_disagree = u64::from(self.decided_split[i]);
            for j in 0..n {
                let pair = c.pair(i, j);
                pair.files = u64::from(self.pair_both[i][j]);
                pair.files_disagree = u64::from(self.pair_split[i][j]);
            }
        }
        for id in self.questions {
            if let Some(question) = c.questions().get_mut(&id) {
                question.files = 1;
            }
        }
        for (id, name) in self.against {
            if let Some(question) = c.questions().get_mut(&id) {
                question.against_files.insert(name, 1);
            }
        }
    }
}

/// Counts `query` in `c`: the agreement, every implementation against the decided
/// verdict (an open query counts as open, neither agreeing nor not), each pair, and a
/// split query's question.
pub(super) fn count_query(c: &mut impl Counted, seen: &mut Seen, query: &Judged) {
    count_agreement(c.agreement(), query);
    let verdicts = &query.verdicts;
    for (i, v) in verdicts.iter().enumerate() {
        if let (Some(v), Some(d)) = (v, query.decided) {
            let mine = c.decided(i);
            if query.open {
                mine.open += 1;
            } else {
                mine.queries += 1;
                seen.decided_both[i] = true;
                if *v != d {
                    mine.queries_disagree += 1;
                    seen.decided_split[i] = true;
                }
            }
        }
        for (j, w) in verdicts.iter().enumerate() {
            if let (Some(a), Some(b)) = (v, w) {
                let pair = c.pair(i, j);
                pair.queries += 1;
                seen.pair_both[i][j] = true;
                if a != b {
                    pair.queries_disagree += 1;
                    seen.pair_split[i][j] = true;
                }
            }
        }
    }
    if let Some(id) = &query.question {
        count_question(c.questions(), seen, id, query);
    }
}

/// Counts a query in the agreement (when at least two gave a verdict).
fn count_agreement(a: &mut Agreement, query: &Judged) {
    if query.verdicts.iter().flatten().count() < 2 {
        return;
    }
    a.compared += 1;
    if !query.split {
        a.unanimous += 1;
        return;
    }
    a.split += 1;
    a.attributed += u64::from(query.question.is_some());
    a.open += u64::from(query.open);
}

/// Counts a split query attributed to question `id`, and who is on its minority side:
/// the smaller side, or on a tie the side against the decided verdict.
fn count_question(
    questions: &mut BTreeMap<String, QuestionTally>,
    seen: &mut Seen,
    id: &str,
    query: &Judged,
) {
    let tally = questions.entry(id.to_string()).or_default();
    tally.queries += 1;
    seen.questions.insert(id.to_string());
    let (allowed, disallowed) = (&query.allowed, &query.disallowed);
    let minority = match allowed.len().cmp(&disallowed.len()) {
        std::cmp::Ordering::Less => Some(allowed),
        std::cmp::Ordering::Greater => Some(disallowed),
        std::cmp::Ordering::Equal => match query.decided {
            Some(true) => Some(disallowed),
            Some(false) => Some(allowed),
            None => None,
        },
    };
    for name in minority.into_iter().flatten() {
        *tally.minority.entry(name.clone()).or_default() += 1;
    }
    let against = match query.decided {
        Some(true) => disallowed,
        Some(false) => allowed,
        None => return,
    };
    for name in against {
        seen.against.insert((id.to_string(), name.clone()));
    }
}

/// Counts every implementation's answer to query `q`: asked, verdicts, allowed, and
/// the answers without a verdict by kind.
pub(super) fn count_outcomes(t: &mut Tally, answers: &[Answers], q: usize) {
    for (mine, answer) in t.implementations.iter_mut().zip(answers) {
        mine.asked += 1;
        match answer.outcome(q) {
            Some(Outcome::Verdict { allowed, .. }) => {
                mine.verdicts += 1;
                mine.allowed += u64::from(*allowed);
            }
            Some(Outcome::Error(_)) => mine.missing.error += 1,
            Some(Outcome::Timeout(_)) => mine.missing.timeout += 1,
            Some(Outcome::Crash(_)) => mine.missing.crash += 1,
            Some(Outcome::Unsupported(_)) => mine.missing.unsupported += 1,
            None => mine.missing.skipped += 1,
        }
    }
}

/// What each implementation's breaker did with the file.
pub(super) fn count_breakers(t: &mut Tally, answers: &[Answers]) {
    for (mine, answers) in t.implementations.iter_mut().zip(answers) {
        let b = &mut mine.breaker;
        match answers {
            Answers::Asked {
                tripped, opened, ..
            } => {
                b.files_tripped = u64::from(*tripped);
                b.opened = u64::from(*opened);
            }
            Answers::Skipped => b.files_skipped = 1,
        }
    }
}
