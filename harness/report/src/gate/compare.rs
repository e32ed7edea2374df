//! A run against a baseline: regressions, stale known failures, new failures.

use super::baseline::*;
use super::render::plural;
use reptest_core::runner::Run;
use reptest_core::score::Judgement;
use reptest_corpus::{Corpus, Profile};
use std::collections::{BTreeMap, BTreeSet};

/// Where a query stands in a gate comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Passed in the baseline, passes now.
    Passed,
    /// Passed in the baseline, fails (or is unsupported) now: fatal.
    Regression,
    /// A known failure that passes now: fatal until the entry is removed (the ratchet).
    Stale,
    /// A known failure that still fails.
    KnownFailure,
    /// Not in the baseline's `passed` or `known_failure` lists, and fails: fatal only
    /// in strict mode.
    NewFailure,
    /// Not in the baseline's `passed` or `known_failure` lists, and passes.
    NewPass,
    /// The implementation cannot express the query.
    Unsupported,
    /// The profile permits either verdict: whatever the implementation answered is a
    /// choice, never a pass or a failure, so the gate does not judge it (a baseline that
    /// lists it anywhere is not held to that).
    Choice,
}

/// One query of a gate comparison: the judged query, where it stands, and the
/// baseline's reason for it when it is a known failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The query and its outcome.
    pub query: Judged,
    /// Where it stands against the baseline.
    pub status: Status,
    /// The `reason` of its `[[known_failure]]` entry, if any.
    pub reason: Option<String>,
}

/// Counts of a gate comparison.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Queries in the corpus.
    pub queries: usize,
    /// Queries passing now (baseline passes and new passes).
    pub passed: usize,
    /// Regressions.
    pub regressions: usize,
    /// Stale known failures.
    pub stale: usize,
    /// Known failures still failing.
    pub known_failures: usize,
    /// New failures.
    pub new_failures: usize,
    /// Passing queries the baseline does not list.
    pub new_passes: usize,
    /// Unsupported queries.
    pub unsupported: usize,
    /// Queries where either verdict conforms: not gated.
    pub choices: usize,
    /// Baseline ids no longer in the corpus.
    pub missing: usize,
}

/// A new run compared with a [`Baseline`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateResult {
    /// The implementation.
    pub implementation: String,
    /// The profile the queries were judged under.
    pub profile: Profile,
    /// Whether new failures are fatal.
    pub strict: bool,
    /// The baseline's corpus fingerprint.
    pub baseline_corpus: String,
    /// The current corpus's fingerprint.
    pub corpus: String,
    /// Every corpus query, in corpus order.
    pub entries: Vec<Entry>,
    /// Passed in the baseline, fail now.
    pub regressions: Vec<Entry>,
    /// Known failures that pass now: their entries must be removed.
    pub stale: Vec<Entry>,
    /// Failing queries the baseline does not list.
    pub new_failures: Vec<Entry>,
    /// Baseline ids the corpus no longer has, sorted.
    pub missing: Vec<String>,
    /// The counts.
    pub counts: Counts,
}

impl GateResult {
    /// Compares `outcomes` (one per corpus query, in corpus order, as in a
    /// [`reptest_core::runner::Run`] column) with `baseline`, judged under the baseline's profile.
    pub fn compare(baseline: &Baseline, corpus: &Corpus, run: &Run, strict: bool) -> GateResult {
        let passed: BTreeSet<&str> = baseline.passed.iter().map(String::as_str).collect();
        let known: BTreeMap<&str, &KnownFailure> = baseline
            .known_failures
            .iter()
            .map(|k| (k.id.as_str(), k))
            .collect();
        let mut counts = Counts::default();
        let mut entries = Vec::new();
        // Every corpus id, judged or not (an undecided finding is not judged, but its id
        // in an older baseline is not "missing").
        let in_corpus: BTreeSet<String> = corpus.queries().map(|(_, q)| q.id.clone()).collect();
        for query in judge_all(corpus, run, &baseline.implementation, baseline.profile) {
            let known_failure = known.get(query.id.as_str());
            let status = if !query.gated() {
                Status::Choice
            } else if query.judgement == Judgement::Unsupported {
                if passed.contains(query.id.as_str()) {
                    Status::Regression
                } else {
                    Status::Unsupported
                }
            } else if passed.contains(query.id.as_str()) {
                if query.passed() {
                    Status::Passed
                } else {
                    Status::Regression
                }
            } else if known_failure.is_some() {
                if query.passed() {
                    Status::Stale
                } else {
                    Status::KnownFailure
                }
            } else if query.passed() {
                Status::NewPass
            } else {
                Status::NewFailure
            };
            counts.queries += 1;
            match status {
                Status::Passed | Status::Stale | Status::NewPass => counts.passed += 1,
                _ => {}
            }
            match status {
                Status::Regression => counts.regressions += 1,
                Status::Stale => counts.stale += 1,
                Status::KnownFailure => counts.known_failures += 1,
                Status::NewFailure => counts.new_failures += 1,
                Status::NewPass => counts.new_passes += 1,
                Status::Unsupported => counts.unsupported += 1,
                Status::Choice => counts.choices += 1,
                Status::Passed => {}
            }
            entries.push(Entry {
                query,
                status,
                reason: known_failure.and_then(|k| k.reason.clone()),
            });
        }
        let mut missing: Vec<String> = baseline
            .passed
            .iter()
            .chain(&baseline.unsupported)
            .chain(baseline.known_failures.iter().map(|k| &k.id))
            .filter(|id| !in_corpus.contains(id.as_str()))
            .cloned()
            .collect();
        sort_ids(&mut missing);
        missing.dedup();
        counts.missing = missing.len();
        let of = |status: Status| -> Vec<Entry> {
            entries
                .iter()
                .filter(|e| e.status == status)
                .cloned()
                .collect()
        };
        GateResult {
            implementation: baseline.implementation.clone(),
            profile: baseline.profile,
            strict,
            baseline_corpus: baseline.corpus.clone(),
            corpus: corpus.fingerprint(),
            regressions: of(Status::Regression),
            stale: of(Status::Stale),
            new_failures: of(Status::NewFailure),
            missing,
            entries,
            counts,
        }
    }

    /// Whether the gate passes: no regressions, no stale known failures, and in strict
    /// mode no new failures.
    pub fn is_ok(&self) -> bool {
        self.regressions.is_empty()
            && self.stale.is_empty()
            && (!self.strict || self.new_failures.is_empty())
    }

    /// Whether the corpus changed since the baseline was recorded.
    pub fn corpus_changed(&self) -> bool {
        self.baseline_corpus != self.corpus
    }

    /// The one-line verdict, e.g. `FAIL: 1 regression, 0 stale known failures`.
    pub fn verdict(&self) -> String {
        let mut problems = vec![
            plural(self.regressions.len(), "regression", "regressions"),
            plural(
                self.stale.len(),
                "stale known failure",
                "stale known failures",
            ),
        ];
        if self.strict {
            problems.push(plural(
                self.new_failures.len(),
                "new failure (--strict)",
                "new failures (--strict)",
            ));
        }
        if self.is_ok() {
            format!(
                "PASS: {} ({} passed, {})",
                problems.join(", "),
                self.counts.passed,
                plural(
                    self.counts.known_failures + self.counts.new_failures,
                    "known failure remains",
                    "known failures remain"
                )
            )
        } else {
            format!("FAIL: {}", problems.join(", "))
        }
    }
}
