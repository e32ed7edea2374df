//! The request log: every request a site answered, in arrival order, and the request bound.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// One request the site received (and answered).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Request {
    /// The method, e.g. `GET`.
    pub method: String,
    /// The origin whose listener received it, `http://127.a.b.c:PORT`.
    pub origin: String,
    /// The request target's path with its query, exactly as sent (e.g. `/a?b=1`).
    pub path: String,
    /// The `User-Agent` header (lossily decoded as UTF-8), if any.
    pub user_agent: Option<String>,
    /// When it arrived, since the site started.
    pub elapsed: Duration,
}

/// What the log says about a new request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    /// Recorded and to be answered; `last` when it reached the bound.
    Admitted { last: bool },
    /// Past the bound: not recorded, not answered.
    OverLimit,
}

/// The shared log, bounded to `max` requests.
#[derive(Debug)]
pub(crate) struct Log {
    start: Instant,
    max: usize,
    requests: Mutex<Vec<Request>>,
}

impl Log {
    pub(crate) fn new(start: Instant, max: usize) -> Self {
        Self {
            start,
            max,
            requests: Mutex::new(Vec::new()),
        }
    }

    /// Records a request unless the bound is reached.
    pub(crate) fn admit(
        &self,
        method: &str,
        origin: &str,
        path: &str,
        user_agent: Option<String>,
    ) -> Admission {
        let mut requests = self.lock();
        if requests.len() >= self.max {
            return Admission::OverLimit;
        }
        requests.push(Request {
            method: method.to_owned(),
            origin: origin.to_owned(),
            path: path.to_owned(),
            user_agent,
            elapsed: self.start.elapsed(),
        });
        Admission::Admitted {
            last: requests.len() >= self.max,
        }
    }

    /// A copy of every request so far.
    pub(crate) fn snapshot(&self) -> Vec<Request> {
        self.lock().clone()
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Request>> {
        // A panic elsewhere must not make the log unreadable: the data is append-only.
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_admits_exactly_max() {
        let log = Log::new(Instant::now(), 2);
        assert_eq!(
            log.admit("GET", "o", "/a", None),
            Admission::Admitted { last: false }
        );
        assert_eq!(
            log.admit("GET", "o", "/b", Some("ua".into())),
            Admission::Admitted { last: true }
        );
        assert_eq!(log.admit("GET", "o", "/c", None), Admission::OverLimit);
        let paths: Vec<_> = log.snapshot().into_iter().map(|r| r.path).collect();
        assert_eq!(paths, ["/a", "/b"]);
    }
}
