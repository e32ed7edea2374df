//! The circuit breaker: a slow or hanging implementation does not stall the survey.
//!
//! Every answer is already bounded by the implementation's own timeout (the crate
//! adapters' per-query `--timeout`, an external adapter's per-request timeout, scaled
//! by the queries of a batch; both record `timeout` and move on). On top of that, per
//! implementation and per shard, the breaker watches each file:
//!
//! * a file **trips** the breaker of an implementation when one of its answers is a
//!   `timeout`, or when the implementation spent longer than [`Limits::file_budget`] on
//!   it (wall time of the one call that answers the file's queries);
//! * after [`Limits::trip_after`] tripped files in a row (a file answered in time resets
//!   the count), the breaker **opens**: the implementation is not asked again for the
//!   rest of the shard, and each query it is not asked counts as a missing answer of
//!   kind `skipped`.
//!
//! The implementation that decides (the reference) is never skipped: without its verdict
//! nothing is decided. "In a row" is in the order files finish, and files are surveyed in
//! parallel, so once a breaker trips the result depends on timing; while no answer times
//! out and no file runs over its budget, the breaker changes nothing and a survey is the
//! same whole or sharded, on any machine.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use reptest_core::runner::evaluate;
use reptest_core::{CaseInput, Implementation, Outcome};
use serde::{Deserialize, Serialize};

/// The breaker's settings (`--file-budget`, `--trip-after`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Longer than this on one file (all of its queries) trips the breaker (in the
    /// JSON: `file_budget_ms`).
    #[serde(with = "millis", rename = "file_budget_ms")]
    pub file_budget: Duration,
    /// Tripped files in a row that open the breaker; 0 never opens it.
    pub trip_after: u32,
}

/// [`Limits::file_budget`] by default: 5 s for one file's queries.
pub const FILE_BUDGET: Duration = Duration::from_secs(5);

/// [`Limits::trip_after`] by default.
pub const TRIP_AFTER: u32 = 3;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            file_budget: FILE_BUDGET,
            trip_after: TRIP_AFTER,
        }
    }
}

/// Durations as whole milliseconds in the survey's JSON (`file_budget_ms`, `timeout_ms`).
pub(crate) mod millis {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}

/// What the breaker did with one file of one implementation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answers {
    /// The implementation was asked: one outcome per query.
    Asked {
        /// The outcomes.
        outcomes: Vec<Outcome>,
        /// Whether the file tripped the breaker.
        tripped: bool,
        /// Whether this file opened it.
        opened: bool,
    },
    /// The breaker was open: the implementation was not asked.
    Skipped,
}

impl Answers {
    /// The outcome of query `q`, when the implementation was asked.
    pub fn outcome(&self, q: usize) -> Option<&Outcome> {
        match self {
            Answers::Asked { outcomes, .. } => outcomes.get(q),
            Answers::Skipped => None,
        }
    }
}

/// One breaker per implementation, shared by the threads of one survey (shard).
pub struct Breakers {
    limits: Limits,
    states: Vec<State>,
}

#[derive(Default)]
struct State {
    in_a_row: AtomicU32,
    open: AtomicBool,
}

impl Breakers {
    /// Closed breakers for `n` implementations.
    pub fn new(limits: Limits, n: usize) -> Breakers {
        Breakers {
            limits,
            states: (0..n).map(|_| State::default()).collect(),
        }
    }

    /// Implementation `i`'s answers to `case` through the runner
    /// ([`reptest_core::runner::evaluate`]), or [`Answers::Skipped`] while its breaker is
    /// open. A `never_skip` implementation (the decider) is always asked.
    pub fn evaluate(
        &self,
        i: usize,
        implementation: &dyn Implementation,
        case: &CaseInput<'_>,
        never_skip: bool,
    ) -> Answers {
        let state = &self.states[i];
        if !never_skip && state.open.load(Ordering::Relaxed) {
            return Answers::Skipped;
        }
        let started = Instant::now();
        let outcomes = evaluate(implementation, case);
        let slow = started.elapsed() > self.limits.file_budget;
        let tripped = slow || outcomes.iter().any(|o| matches!(o, Outcome::Timeout(_)));
        let opened = if !tripped {
            state.in_a_row.store(0, Ordering::Relaxed);
            false
        } else {
            let in_a_row = state.in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
            !never_skip
                && self.limits.trip_after > 0
                && in_a_row >= self.limits.trip_after
                && !state.open.swap(true, Ordering::Relaxed)
        };
        Answers::Asked {
            outcomes,
            tripped,
            opened,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_core::{ImplInfo, QueryInput};

    /// Times out on a body of `slow`, answers `allowed` otherwise.
    struct Flaky(ImplInfo);

    impl Implementation for Flaky {
        fn info(&self) -> &ImplInfo {
            &self.0
        }
        fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
            let outcome = if case.robots == b"slow" {
                Outcome::Timeout("test".into())
            } else {
                Outcome::Verdict {
                    allowed: true,
                    line: None,
                }
            };
            vec![outcome; case.queries.len()]
        }
    }

    fn flaky() -> Flaky {
        Flaky(ImplInfo {
            name: "flaky".into(),
            version: "0".into(),
            language: "Rust".into(),
            capabilities: Default::default(),
            kind: Default::default(),
        })
    }

    fn ask(breakers: &Breakers, body: &[u8], never_skip: bool) -> Answers {
        let queries = [QueryInput {
            agent: "a",
            url: "/",
        }];
        let case = CaseInput {
            robots: body,
            fetch: None,
            queries: &queries,
        };
        breakers.evaluate(0, &flaky(), &case, never_skip)
    }

    fn tripped(answers: &Answers) -> (bool, bool) {
        match answers {
            Answers::Asked {
                tripped, opened, ..
            } => (*tripped, *opened),
            Answers::Skipped => panic!("skipped"),
        }
    }

    #[test]
    fn opens_after_trip_after_tripped_files_in_a_row() {
        let limits = Limits {
            file_budget: Duration::from_secs(60),
            trip_after: 2,
        };
        let breakers = Breakers::new(limits, 1);
        assert_eq!(tripped(&ask(&breakers, b"slow", false)), (true, false));
        // A file answered in time resets the count.
        assert_eq!(tripped(&ask(&breakers, b"fast", false)), (false, false));
        assert_eq!(tripped(&ask(&breakers, b"slow", false)), (true, false));
        assert_eq!(tripped(&ask(&breakers, b"slow", false)), (true, true));
        assert_eq!(ask(&breakers, b"fast", false), Answers::Skipped);
        // The decider is asked all the same.
        assert_eq!(tripped(&ask(&breakers, b"fast", true)), (false, false));
    }

    #[test]
    fn never_opens_with_trip_after_zero_or_for_the_decider() {
        for (trip_after, never_skip) in [(0, false), (1, true)] {
            let limits = Limits {
                file_budget: Duration::from_secs(60),
                trip_after,
            };
            let breakers = Breakers::new(limits, 1);
            for _ in 0..3 {
                assert_eq!(tripped(&ask(&breakers, b"slow", never_skip)), (true, false));
            }
        }
    }

    #[test]
    fn a_file_over_its_budget_trips() {
        let limits = Limits {
            file_budget: Duration::ZERO,
            trip_after: 1,
        };
        let breakers = Breakers::new(limits, 1);
        assert_eq!(tripped(&ask(&breakers, b"fast", false)), (true, true));
    }
}
