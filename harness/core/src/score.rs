//! Judges outcomes against expectations and tallies them per implementation and level.
//!
//! Only decided queries (expecting `allowed` or `disallowed` under the profile) are
//! passed or failed. A query the profile lets implementations answer either way
//! ([`Expect::Either`]: an RFC sentence permits both verdicts) is a [`Judgement::Choice`]:
//! what the implementation chose is recorded, never counted as a pass, and stays out of
//! pass rates.

use crate::runner::Run;
use crate::Outcome;
use reptest_corpus::{Cause, Corpus, Expect, Level, Profile};
use std::collections::BTreeMap;

/// The judgement of one outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// The verdict meets the (decided) expectation.
    Pass,
    /// The verdict contradicts the (decided) expectation.
    Fail,
    /// The implementation cannot express the query.
    Unsupported,
    /// Error, timeout or crash on a decided query: no verdict.
    NoVerdict,
    /// The profile permits either verdict ([`Expect::Either`]): not decided, so neither a
    /// pass nor a failure. `Some(allowed)` is the verdict the implementation chose, `None`
    /// that it gave none (error, timeout or crash).
    Choice(Option<bool>),
}

impl Judgement {
    /// Whether the query counts as not passed: a wrong verdict or no verdict on a decided
    /// query (a choice and an unsupported query are neither).
    pub fn is_failure(self) -> bool {
        matches!(self, Judgement::Fail | Judgement::NoVerdict)
    }
}

/// Judges one outcome against one expectation: an unsupported query is
/// [`Judgement::Unsupported`] whatever the expectation, any other outcome of an `either`
/// query is a [`Judgement::Choice`].
pub fn judge(expect: Expect, outcome: &Outcome) -> Judgement {
    match outcome {
        Outcome::Unsupported(_) => Judgement::Unsupported,
        _ if expect == Expect::Either => Judgement::Choice(outcome.allowed()),
        Outcome::Verdict { allowed, .. } if expect.accepts(*allowed) => Judgement::Pass,
        Outcome::Verdict { .. } => Judgement::Fail,
        Outcome::Error(_) | Outcome::Timeout(_) | Outcome::Crash(_) => Judgement::NoVerdict,
    }
}

/// Counts of judgements. Pass, fail and no verdict count decided queries only; the
/// queries answered where either verdict conforms are counted as `choice`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Passed.
    pub pass: usize,
    /// Failed.
    pub fail: usize,
    /// Unsupported.
    pub unsupported: usize,
    /// Error, timeout or crash on a decided query.
    pub no_verdict: usize,
    /// Queries where the profile permits either verdict ([`Judgement::Choice`]).
    pub choice: usize,
}

impl Tally {
    /// Counts one judgement.
    pub fn add(&mut self, judgement: Judgement) {
        match judgement {
            Judgement::Pass => self.pass += 1,
            Judgement::Fail => self.fail += 1,
            Judgement::Unsupported => self.unsupported += 1,
            Judgement::NoVerdict => self.no_verdict += 1,
            Judgement::Choice(_) => self.choice += 1,
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Tally) {
        self.pass += other.pass;
        self.fail += other.fail;
        self.unsupported += other.unsupported;
        self.no_verdict += other.no_verdict;
        self.choice += other.choice;
    }

    /// Decided queries judged: passed, failed or no verdict (neither unsupported nor
    /// choices).
    pub fn judged(&self) -> usize {
        self.pass + self.fail + self.no_verdict
    }

    /// Decided queries not passed: failed or no verdict.
    pub fn not_passed(&self) -> usize {
        self.fail + self.no_verdict
    }

    /// Pass rate in percent over the judged decided queries (100 when none were judged).
    pub fn pass_rate(&self) -> f64 {
        match self.judged() {
            0 => 100.0,
            judged => 100.0 * self.pass as f64 / judged as f64,
        }
    }
}

/// What a query's failures are put down to ([`reptest_corpus::Query::cause`]), owned.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RootCause {
    /// A question of the catalogue (`Q-…`, `corpus/questions.toml`).
    Question(String),
    /// The one plain RFC requirement the query tests (e.g. `2.2.2-LONGEST`).
    Requirement(String),
}

impl RootCause {
    /// The cause of a query, owned.
    pub fn of(cause: Cause<'_>) -> RootCause {
        match cause {
            Cause::Question(id) => RootCause::Question(id.to_string()),
            Cause::Requirement(id) => RootCause::Requirement(id.to_string()),
        }
    }

    /// The question's or the requirement's id.
    pub fn id(&self) -> &str {
        match self {
            RootCause::Question(id) | RootCause::Requirement(id) => id,
        }
    }
}

/// One decided query an implementation did not pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The query's id (`case/name`).
    pub id: String,
    /// What the profile expects.
    pub expected: Expect,
    /// What the implementation answered.
    pub outcome: Outcome,
    /// The query's root cause, if it has one.
    pub cause: Option<RootCause>,
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
    /// Every decided query not passed (failed, or no verdict), in corpus order.
    pub failures: Vec<Failure>,
}

impl Summary {
    /// The tally over all levels.
    pub fn total(&self) -> Tally {
        self.per_level
            .values()
            .fold(Tally::default(), |mut sum, t| {
                sum.merge(t);
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
                if judgement.is_failure() {
                    failures.push(Failure {
                        id: query.id.clone(),
                        expected,
                        outcome: outcome.clone(),
                        cause: query.cause().map(RootCause::of),
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
    use crate::fixtures;

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
        assert_eq!(
            judge(Expect::Allowed, &Outcome::Timeout(String::new())),
            Judgement::NoVerdict
        );
        assert_eq!(
            judge(Expect::Allowed, &Outcome::Unsupported("x".into())),
            Judgement::Unsupported
        );
    }

    /// Where either verdict conforms, the answer is a choice, never a pass; no verdict
    /// there is a choice not made, not a failure; unsupported stays unsupported.
    #[test]
    fn either_is_a_choice_not_a_pass() {
        let verdict = |allowed| Outcome::Verdict {
            allowed,
            line: None,
        };
        assert_eq!(
            judge(Expect::Either, &verdict(false)),
            Judgement::Choice(Some(false))
        );
        assert_eq!(
            judge(Expect::Either, &verdict(true)),
            Judgement::Choice(Some(true))
        );
        let timeout = judge(Expect::Either, &Outcome::Timeout(String::new()));
        assert_eq!(timeout, Judgement::Choice(None));
        assert!(!timeout.is_failure());
        assert_eq!(
            judge(Expect::Either, &Outcome::Unsupported("x".into())),
            Judgement::Unsupported
        );
        assert!(Judgement::Fail.is_failure() && Judgement::NoVerdict.is_failure());
        assert!(!Judgement::Pass.is_failure() && !Judgement::Unsupported.is_failure());
    }

    #[test]
    fn pass_rate_ignores_unsupported() {
        let tally = Tally {
            pass: 3,
            fail: 1,
            unsupported: 10,
            ..Tally::default()
        };
        assert_eq!(tally.judged(), 4);
        assert!((tally.pass_rate() - 75.0).abs() < 1e-9);
    }

    /// The figure: 36 of 62 decided SHOULD queries passed and 12 either-queries
    /// answered is 36/62, not 48/74.
    #[test]
    fn rates_count_decided_queries_only() {
        let mut tally = Tally::default();
        let pass = Outcome::Verdict {
            allowed: true,
            line: None,
        };
        let fail = Outcome::Verdict {
            allowed: false,
            line: None,
        };
        for _ in 0..36 {
            tally.add(judge(Expect::Allowed, &pass));
        }
        for _ in 0..26 {
            tally.add(judge(Expect::Allowed, &fail));
        }
        for i in 0..12 {
            tally.add(judge(
                Expect::Either,
                if i % 2 == 0 { &pass } else { &fail },
            ));
        }
        assert_eq!((tally.pass, tally.judged(), tally.choice), (36, 62, 12));
        assert_eq!(tally.not_passed(), 26);
        assert!((tally.pass_rate() - 100.0 * 36.0 / 62.0).abs() < 1e-9);
        // Only choices: nothing decided, so the rate is the empty one.
        let choices = Tally {
            choice: 5,
            ..Tally::default()
        };
        assert_eq!(choices.judged(), 0);
        let mut sum = tally;
        sum.merge(&choices);
        assert_eq!((sum.pass, sum.choice), (36, 17));
    }

    /// The tallies of `summary` as (level, pass, fail, no verdict, unsupported, choice).
    fn counts(summary: &Summary) -> Vec<(Level, [usize; 5])> {
        let row = |t: &Tally| [t.pass, t.fail, t.no_verdict, t.unsupported, t.choice];
        summary
            .per_level
            .iter()
            .map(|(l, t)| (*l, row(t)))
            .collect()
    }

    /// The ids of `summary`'s failures, in order.
    fn failed(summary: &Summary) -> Vec<&str> {
        summary.failures.iter().map(|f| f.id.as_str()).collect()
    }

    fn both() -> Vec<Box<dyn crate::Implementation>> {
        vec![fixtures::conforming().boxed(), fixtures::faulty().boxed()]
    }

    /// Under RFC 9309, per level: the conforming implementation passes every decided
    /// query and makes its one choice; the faulty one fails a MUST query, gives no
    /// verdict on another, cannot express the fetch case nor the SHOULD query, and makes
    /// no choice. The undecided finding is judged for neither.
    #[test]
    fn summaries_count_each_judgement_by_level() {
        let corpus = fixtures::corpus();
        let run = crate::runner::run(&corpus, &both());
        let [conforming, faulty] = &summarize(&corpus, &run, Profile::Rfc9309)[..] else {
            panic!("two summaries");
        };
        assert_eq!(
            (conforming.name.as_str(), faulty.name.as_str()),
            ("conforming", "faulty")
        );
        assert_eq!(
            counts(conforming),
            [
                (Level::Must, [3, 0, 0, 0, 0]),
                (Level::Should, [1, 0, 0, 0, 0]),
                (Level::May, [0, 0, 0, 0, 1]),
            ]
        );
        assert!(conforming.failures.is_empty());
        assert_eq!(
            counts(faulty),
            [
                (Level::Must, [0, 1, 1, 1, 0]),
                (Level::Should, [0, 0, 0, 1, 0]),
                (Level::May, [0, 0, 0, 0, 1]),
            ]
        );
        let total = faulty.total();
        assert_eq!((total.judged(), total.unsupported, total.choice), (2, 2, 1));
        assert_eq!(total.pass_rate(), 0.0);
        assert_eq!(failed(faulty), ["must/bot:/private", "must/bot:/public"]);
        let first = &faulty.failures[0];
        assert_eq!(
            (first.expected, &first.outcome),
            (Expect::Disallowed, &fixtures::verdict(true))
        );
        assert_eq!(
            first.cause,
            Some(RootCause::Requirement("2.1-GROUP".into()))
        );
        assert_eq!(faulty.failures[1].outcome, Outcome::Timeout("1 s".into()));
    }

    /// Google's profile decides the query RFC 9309 leaves open: the conforming
    /// implementation's choice (`allowed`) fails there, and the faulty one's crash is no
    /// verdict; the failure's cause is its one plain RFC requirement, not the profile ID.
    #[test]
    fn the_profile_decides_what_passes() {
        let corpus = fixtures::corpus();
        let run = crate::runner::run(&corpus, &both());
        let summaries = summarize(&corpus, &run, Profile::Google);
        assert_eq!(
            summaries[0].per_level[&Level::May],
            Tally {
                fail: 1,
                ..Tally::default()
            }
        );
        assert_eq!(
            summaries[1].per_level[&Level::May],
            Tally {
                no_verdict: 1,
                ..Tally::default()
            }
        );
        assert_eq!(failed(&summaries[0]), ["may/bot:/either"]);
        let either = &summaries[0].failures[0];
        assert_eq!(either.expected, Expect::Disallowed);
        assert_eq!(
            either.cause,
            Some(RootCause::Requirement("2.2.1-UA-VALUE".into()))
        );
        assert_eq!(
            summaries[1].per_level[&Level::Must],
            summarize(&corpus, &run, Profile::Rfc9309)[1].per_level[&Level::Must]
        );
    }

    /// A run over one shard judges that shard's queries only; the shards merged judge
    /// as the whole run does.
    #[test]
    fn a_shard_judges_its_own_queries_and_merged_shards_the_whole() {
        let [whole, first, second] = fixtures::corpora();
        let shard = crate::runner::run(&first, &both());
        let summaries = summarize(&whole, &shard, Profile::Rfc9309);
        assert_eq!(
            counts(&summaries[1]),
            [
                (Level::Must, [0, 1, 1, 0, 0]),
                (Level::Should, [0, 0, 0, 1, 0])
            ]
        );
        let merged = shard.merge(crate::runner::run(&second, &both())).unwrap();
        let all = crate::runner::run(&whole, &both());
        for profile in [Profile::Rfc9309, Profile::Google] {
            assert_eq!(
                summarize(&whole, &merged, profile),
                summarize(&whole, &all, profile)
            );
        }
    }
}
