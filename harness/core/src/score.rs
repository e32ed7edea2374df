//! Judges outcomes against expectations and tallies them per implementation and level.

use crate::runner::Run;
use crate::Outcome;
use reptest_corpus::{Corpus, Expect, Level, Profile};
use std::collections::BTreeMap;

/// The judgement of one outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// The verdict meets the expectation.
    Pass,
    /// The verdict contradicts the expectation.
    Fail,
    /// The implementation cannot express the query.
    Unsupported,
    /// Error, timeout or crash: no verdict.
    NoVerdict,
}

/// Judges one outcome against one expectation.
pub fn judge(expect: Expect, outcome: &Outcome) -> Judgement {
    match outcome {
        Outcome::Verdict { allowed, .. } if expect.accepts(*allowed) => Judgement::Pass,
        Outcome::Verdict { .. } => Judgement::Fail,
        Outcome::Unsupported(_) => Judgement::Unsupported,
        Outcome::Error(_) | Outcome::Timeout(_) | Outcome::Crash(_) => Judgement::NoVerdict,
    }
}

/// Counts of judgements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Passed.
    pub pass: usize,
    /// Failed.
    pub fail: usize,
    /// Unsupported.
    pub unsupported: usize,
    /// Error, timeout or crash.
    pub no_verdict: usize,
}

impl Tally {
    /// Counts one judgement.
    pub fn add(&mut self, judgement: Judgement) {
        match judgement {
            Judgement::Pass => self.pass += 1,
            Judgement::Fail => self.fail += 1,
            Judgement::Unsupported => self.unsupported += 1,
            Judgement::NoVerdict => self.no_verdict += 1,
        }
    }

    /// Queries judged (everything but unsupported).
    pub fn judged(&self) -> usize {
        self.pass + self.fail + self.no_verdict
    }

    /// Pass rate in percent over the judged queries (100 when none were judged).
    pub fn pass_rate(&self) -> f64 {
        match self.judged() {
            0 => 100.0,
            judged => 100.0 * self.pass as f64 / judged as f64,
        }
    }
}

/// One query an implementation did not pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The query's id (`case/name`).
    pub id: String,
    /// What the profile expects.
    pub expected: Expect,
    /// What the implementation answered.
    pub outcome: Outcome,
}

impl Failure {
    /// One line: the query id, its file and line, agent and URL, what was expected and
    /// what came, e.g. `wrong/a:/x (corpus/rfc/x.toml:7) agent=a url=/x: expected allowed,
    /// got disallowed (line 2)`.
    pub fn describe(&self, corpus: &Corpus) -> String {
        match corpus.queries().find(|(_, q)| q.id == self.id) {
            Some((case, query)) => format!(
                "{} ({}:{}) agent={} url={}: expected {}, got {}",
                self.id,
                case.file.display(),
                query.line,
                query.agent,
                query.url,
                self.expected,
                self.outcome
            ),
            None => format!(
                "{}: expected {}, got {}",
                self.id, self.expected, self.outcome
            ),
        }
    }
}

/// How one implementation did under one profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The implementation's name.
    pub name: String,
    /// Tallies per level.
    pub per_level: BTreeMap<Level, Tally>,
    /// Every query not passed (failed, or no verdict), in corpus order.
    pub failures: Vec<Failure>,
}

impl Summary {
    /// The tally over all levels.
    pub fn total(&self) -> Tally {
        self.per_level
            .values()
            .fold(Tally::default(), |mut sum, t| {
                sum.pass += t.pass;
                sum.fail += t.fail;
                sum.unsupported += t.unsupported;
                sum.no_verdict += t.no_verdict;
                sum
            })
    }
}

/// Judges a run under `profile`. Fuzzing findings awaiting their verdict
/// ([`reptest_corpus::Query::is_undecided_finding`]) are not judged.
pub fn summarize(corpus: &Corpus, run: &Run, profile: Profile) -> Vec<Summary> {
    let lookup = run.lookup();
    run.implementations
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut per_level: BTreeMap<Level, Tally> = BTreeMap::new();
            let mut failures = Vec::new();
            for (_, query) in corpus.queries() {
                if query.is_undecided_finding() {
                    continue;
                }
                // A query this run does not hold (another shard's) is not judged.
                let Some(outcome) = lookup.outcome(i, &query.id) else {
                    continue;
                };
                let expected = query.expect_for(profile);
                let judgement = judge(expected, outcome);
                per_level.entry(query.level).or_default().add(judgement);
                if matches!(judgement, Judgement::Fail | Judgement::NoVerdict) {
                    failures.push(Failure {
                        id: query.id.clone(),
                        expected,
                        outcome: outcome.clone(),
                    });
                }
            }
            Summary {
                name: name.clone(),
                per_level,
                failures,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgements() {
        let allowed = Outcome::Verdict {
            allowed: true,
            line: None,
        };
        let disallowed = Outcome::Verdict {
            allowed: false,
            line: Some(2),
        };
        assert_eq!(judge(Expect::Allowed, &allowed), Judgement::Pass);
        assert_eq!(judge(Expect::Allowed, &disallowed), Judgement::Fail);
        assert_eq!(judge(Expect::Disallowed, &disallowed), Judgement::Pass);
        assert_eq!(judge(Expect::Either, &disallowed), Judgement::Pass);
        assert_eq!(
            judge(Expect::Either, &Outcome::Timeout(String::new())),
            Judgement::NoVerdict
        );
        assert_eq!(
            judge(Expect::Allowed, &Outcome::Unsupported("x".into())),
            Judgement::Unsupported
        );
    }

    #[test]
    fn pass_rate_ignores_unsupported() {
        let tally = Tally {
            pass: 3,
            fail: 1,
            unsupported: 10,
            no_verdict: 0,
        };
        assert_eq!(tally.judged(), 4);
        assert!((tally.pass_rate() - 75.0).abs() < 1e-9);
    }
}
