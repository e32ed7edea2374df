//! Fetch cases for an adapter with the `fetches` capability (`harness/PROTOCOL.md`, "Fetch
//! requests"): the library is judged through its own fetching API, over real HTTP on
//! reptest's loopback site (RFC 9309 §2.3.1, the access method).
//!
//! For one case: the site serves the case's robots.txt the way its fetch outcome says
//! ([`reptest_site::served_case::case_scenario`]: a status, redirects, a network fault), every
//! query's URL is moved onto the site's origin ([`reptest_site::served_case::url_on`]), the
//! adapter is sent fetch requests naming the site's robots.txt URL and those queries, and
//! the site is stopped once they are answered. The site's lifetime is bounded by the time
//! reptest waits for the answers ([`reptest_site::served_case::options_for`]), and it lives in
//! this process (a thread), so nothing of it outlives the run, Ctrl-C included; the adapter's
//! processes are ended as always.
//!
//! What one fetch cannot show (a cached copy, §2.4) is `unsupported`. A verdict given
//! without the site having seen a request for the robots.txt is an `error`: it says nothing
//! about the fetch outcome. So is a verdict given after the site stopped at its lifetime or
//! its request bound, since the library then met a site that was no longer the scenario.
//!
//! Messages name the site as `<site>` (and its second origin as `<site-2>`) instead of its
//! random loopback address and port, and any other loopback port (the client's own end of
//! a connection) as `<port>`, so that the same failure reads the same in every run and
//! the reports' snapshots stay deterministic.

use reptest_core::{CaseInput, Implementation, Outcome, QueryInput};
use reptest_site::served_case::{
    case_scenario, fetch_is_logged, options_for, requested_robots, url_on,
};
use reptest_site::StopReason;
use std::sync::OnceLock;
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
        Err(why) => return vec![Outcome::Unsupported(why.to_string()); n],
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
    let second = site.second_origin().map(str::to_owned);
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
    for outcome in &mut outcomes {
        if let Outcome::Error(why) | Outcome::Timeout(why) | Outcome::Crash(why) = outcome {
            *why = stable(why, &origin, second.as_deref());
        }
    }
    outcomes
}

/// `message` with the site's origins written `<site>` and `<site-2>`, and any other
/// loopback `address:port` as `address:<port>`.
fn stable(message: &str, origin: &str, second: Option<&str>) -> String {
    static LOOPBACK_PORT: OnceLock<regex::Regex> = OnceLock::new();
    let authority = |origin: &str| origin.trim_start_matches("http://").to_owned();
    let mut text = message.replace(&authority(origin), "<site>");
    if let Some(second) = second {
        text = text.replace(&authority(second), "<site-2>");
    }
    let port = LOOPBACK_PORT.get_or_init(|| {
        regex::Regex::new(r"\b(127(?:\.[0-9]{1,3}){3}):[0-9]{1,5}\b").expect("a valid pattern")
    });
    port.replace_all(&text, "$1:<port>").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_site_not_its_random_address() {
        let got = stable(
            "read tcp 127.0.0.1:49996->127.171.157.157:35101: reset; Get \"http://127.9.9.9:80/hop/2\"",
            "http://127.171.157.157:35101",
            Some("http://127.9.9.9:80"),
        );
        assert_eq!(
            got,
            "read tcp 127.0.0.1:<port>-><site>: reset; Get \"http://<site-2>/hop/2\""
        );
        assert_eq!(
            stable("no address", "http://127.0.0.2:1", None),
            "no address"
        );
    }
}
