//! The answers of one case, shared by the worker thread that computes them and the
//! thread that waits for them.
//!
//! The worker records each outcome with the time it was given, without waking anyone;
//! it wakes the waiter once, when the case is done (or when the worker ends without
//! finishing it). The waiter sleeps until then, or until the query in progress has taken
//! longer than the timeout since the last answer (or since the case started), which is
//! the per-query timeout of [`super::Limits::timeout`]: a case costs two thread switches
//! (the job handed over, the answers handed back), not one per query.

use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use reptest_core::Outcome;

/// One case's answers in progress.
pub(super) struct Answers {
    state: Mutex<State>,
    done: Condvar,
}

struct State {
    outcomes: Vec<Outcome>,
    /// When the last answer was given, or the case started.
    last: Instant,
    /// The worker is finished with the case (all answered, or it ended).
    finished: bool,
    /// The waiter gave up: the worker stops at its next answer.
    abandoned: bool,
}

/// How the wait for a case ended.
pub(super) enum Waited {
    /// Every query answered.
    Answered(Vec<Outcome>),
    /// A query took longer than the timeout: the answers given before it.
    TimedOut(Vec<Outcome>),
    /// The worker ended before answering every query: the answers it gave.
    Ended(Vec<Outcome>),
}

impl Answers {
    /// Answers for a case of `count` queries starting now.
    pub(super) fn new(count: usize) -> Answers {
        Answers {
            state: Mutex::new(State {
                outcomes: Vec::with_capacity(count),
                last: Instant::now(),
                finished: false,
                abandoned: false,
            }),
            done: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records the next outcome (on the worker); `false` when the waiter has given up,
    /// so the worker stops.
    pub(super) fn give(&self, outcome: Outcome) -> bool {
        let mut state = self.lock();
        if state.abandoned {
            return false;
        }
        state.outcomes.push(outcome);
        state.last = Instant::now();
        true
    }

    /// The worker is done with the case: wakes the waiter. Called when the job ends,
    /// however it ends ([`Finish`]).
    fn finish(&self) {
        self.lock().finished = true;
        self.done.notify_all();
    }

    /// Waits for `count` answers, each within `timeout` of the one before it (the first
    /// within `timeout` of the start).
    pub(super) fn wait(&self, count: usize, timeout: Duration) -> Waited {
        let mut state = self.lock();
        loop {
            if state.outcomes.len() >= count {
                return Waited::Answered(std::mem::take(&mut state.outcomes));
            }
            if state.finished {
                return Waited::Ended(std::mem::take(&mut state.outcomes));
            }
            let deadline = state.last + timeout;
            let now = Instant::now();
            if now >= deadline {
                state.abandoned = true;
                return Waited::TimedOut(std::mem::take(&mut state.outcomes));
            }
            state = self
                .done
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// Marks the case finished when dropped: at the end of the job, or while a panic
/// unwinds the worker.
pub(super) struct Finish<'a>(pub(super) &'a Answers);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}
