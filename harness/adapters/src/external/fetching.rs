//! Fetch cases for an adapter with the `fetches` capability (`harness/PROTOCOL.md`, "Fetch
//! requests"): the library is judged through its own fetching API, over real HTTP on
//! reptest's loopback site (RFC 9309 §2.3.1, the access method).
//!
//! For one case: the site serves the case's robots.txt the way its fetch outcome says
//! ([`reptest_site::served::case_scenario`]: a status, redirects, a network fault), every
//! query's URL is moved onto the site's origin ([`reptest_site::served::url_on`]), the
//! adapter is sent fetch requests naming the site's robots.txt URL and those queries, and
//! the site is stopped once they are answered. The site's lifetime is bounded by the time
//! reptest waits for the answers ([`reptest_site::served::options_for`]), and it lives in
//! this process (a thread), so nothing of it outlives the run, Ctrl-C included; the adapter's
//! processes are ended as always.
//!
//! What one fetch cannot show (a cached copy, §2.4) is `unsupported`. A verdict given
//! without the site having seen a request for the robots.txt is an `error`: it says nothing
//! about the fetch outcome. So is a verdict given after the site stopped at its lifetime or
//! its request bound, since the library then met a site that was no longer the scenario.

use reptest_core::{CaseInput, Implementation, Outcome, QueryInput};
use reptest_site::served::{case_scenario, fetch_is_logged, options_for, requested_robots, url_on};
use reptest_site::StopReason;
use std::time::Duration;

use super::persistent::{batch_timeout, Payload, Persistent, HANDSHAKE_TIMEOUT};

/// The share of the per-request timeout the library's fetch is given (`timeout_ms` of a
/// fetch request): half, so that a fetch that never completes ends as the library decides
/// (its own timeout error, or its verdict for an unreachable file) before reptest's own
/// timeout makes it `timeout`.
pub fn fetch_timeout(timeout: Duration) -> Duration {
    timeout / 2
}

/// Every query of `case` (which has a fetch outcome), answered by `adapter` fetching the
/// case's robots.txt from the loopback site.
pub(super) fn evaluate(adapter: &Persistent, case: &CaseInput<'_>) -> Vec<Outcome> {
    let n = case.queries.len();
    let scenario = match case_scenario(case) {
        Ok(scenario) => scenario,
        Err(why) => return vec![Outcome::Unsupported(why); n],
    };
    let timeout = adapter.spec().timeout;
    // Every query's own timeout (what reptest waits for the answers in all), and one
    // restart of the adapter.
    let waited = batch_timeout(timeout, n).saturating_add(HANDSHAKE_TIMEOUT);
    let site = match options_for(waited).start(&scenario) {
        Ok(site) => site,
        Err(error) => {
            let why = format!("the loopback site could not start: {error}");
            return vec![Outcome::Error(why); n];
        }
    };
    let origin = site.origin().to_owned();
    let robots_url = site.robots_url();
    let urls: Vec<String> = case
        .queries
        .iter()
        .map(|q| url_on(&origin, q.url))
        .collect();
    let queries: Vec<QueryInput<'_>> = case
        .queries
        .iter()
        .zip(&urls)
        .map(|(query, url)| QueryInput {
            agent: query.agent,
            url,
        })
        .collect();
    let payload = Payload::Fetch {
        robots_url: &robots_url,
        timeout_ms: u64::try_from(fetch_timeout(timeout).as_millis()).unwrap_or(u64::MAX),
    };
    let mut outcomes = adapter.answer_all(&payload, &queries);
    let stopped = site.stop();
    let unjudged = if stopped.reason != StopReason::Stopped {
        Some(format!(
            "{}: the loopback site stopped ({:?}) before the answers came, so the library \
             did not meet the case's fetch outcome",
            adapter.name(),
            stopped.reason
        ))
    } else if fetch_is_logged(&scenario) && !requested_robots(&origin, &stopped.requests) {
        Some(format!(
            "{}: answered without requesting {robots_url}: the verdict says nothing about \
             the fetch outcome",
            adapter.name()
        ))
    } else {
        None
    };
    if let Some(why) = unjudged {
        for outcome in &mut outcomes {
            if matches!(outcome, Outcome::Verdict { .. }) {
                *outcome = Outcome::Error(why.clone());
            }
        }
    }
    outcomes
}
