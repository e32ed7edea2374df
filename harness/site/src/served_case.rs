//! One corpus case served on the loopback site for a client that fetches it itself: a real
//! crawler ([`crate::crawl`]) or a library through its own fetching API (an external
//! adapter with the `fetches` capability, `harness/PROTOCOL.md`). What both need, in one
//! place:
//!
//! - the scenario the case's fetch outcome is served as ([`case_scenario`], from
//!   [`scenario_for`]), or why one fetch cannot show it;
//! - a site whose lifetime is bounded by the client's own time limit ([`options_for`]):
//!   it stops by itself shortly after the client must have finished, whatever happens;
//! - where a query's URL is on the site ([`page_of`], [`url_on`]): the same path and query
//!   on the site's origin, so that the robots.txt of the URL's origin (RFC 9309 §2.3: "the
//!   top-level path of the service") is the file the site serves;
//! - whether the client requested that robots.txt at all ([`requested_robots`]): a verdict
//!   given without fetching it says nothing about the access method (§2.3.1).

use std::time::Duration;

use reptest_core::url::QueryUrl;
use reptest_core::CaseInput;

use crate::crawl::TERM_GRACE;
use crate::error::Error;
use crate::fetch::scenario_for;
use crate::log::Request;
use crate::scenario::{Fault, Scenario};
use crate::site::Options;

/// How much longer than its client's time limit (and the grace of ending its process
/// group) a site lives, so the site is still there while the client is being ended.
pub const SITE_MARGIN: Duration = Duration::from_secs(5);

/// The scenario the case's robots.txt is served as: its body, the way its fetch outcome
/// says it was obtained (RFC 9309 §2.3.1; a case without one is a plain `200`), or why one
/// fetch over HTTP cannot show that outcome (a cached copy, §2.4).
///
/// ```
/// use reptest_core::{CaseInput, QueryInput};
/// use reptest_corpus::Fetch;
/// let fetch = Fetch { status: Some(404), ..Fetch::default() };
/// let case = CaseInput { robots: b"", fetch: Some(&fetch), queries: &[] };
/// assert_eq!(reptest_site::served_case::case_scenario(&case).unwrap().response.status, 404);
/// ```
pub fn case_scenario(case: &CaseInput<'_>) -> Result<Scenario, Error> {
    scenario_for(case.fetch, case.robots)
}

/// Site options for a client that has `limit` to finish: the site lives for `limit`, the
/// grace of ending a process group and [`SITE_MARGIN`], then stops by itself (and at the
/// default request bound sooner), so no site outlives its client by more than that.
pub fn options_for(limit: Duration) -> Options {
    Options::new().lifetime(limit.saturating_add(TERM_GRACE + SITE_MARGIN))
}

/// The path a query's URL is fetched at on the site: its path and query, as rules match
/// them (RFC 9309 §2.2.2; no fragment, always starting with `/`).
///
/// ```
/// assert_eq!(reptest_site::served_case::page_of("https://example.com/a?b#c"), "/a?b");
/// assert_eq!(reptest_site::served_case::page_of("/x"), "/x");
/// ```
pub fn page_of(url: &str) -> String {
    QueryUrl::new(url).path().into_owned()
}

/// The query's URL on the site: [`page_of`] under `origin` (`http://127.a.b.c:PORT`). A
/// case's queries all name the origin whose fetch outcome the case describes, whatever
/// host they are written with, so each is moved onto the one origin the site serves.
///
/// ```
/// let url = reptest_site::served_case::url_on("http://127.0.0.2:8080", "https://example.com/p?q");
/// assert_eq!(url, "http://127.0.0.2:8080/p?q");
/// ```
pub fn url_on(origin: &str, url: &str) -> String {
    format!("{origin}{}", page_of(url))
}

/// Whether `requests` (a site's log) hold a request for `/robots.txt` on `origin`, the
/// site's first origin, any method.
pub fn requested_robots(origin: &str, requests: &[Request]) -> bool {
    requests
        .iter()
        .any(|request| request.origin == origin && request.path == "/robots.txt")
}

/// Whether a client that fetched the robots.txt of `scenario` must show up in the log:
/// always, except when connecting to the site's only origin is refused
/// ([`Fault::ConnectionRefused`] without redirects), where nothing can arrive.
pub fn fetch_is_logged(scenario: &Scenario) -> bool {
    !(scenario.fault == Some(Fault::ConnectionRefused) && scenario.redirects.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_move_onto_the_site_with_their_path_and_query() {
        assert_eq!(
            url_on("http://127.0.0.3:1", "https://example.com"),
            "http://127.0.0.3:1/"
        );
        assert_eq!(
            url_on("http://127.0.0.3:1", "http://other.example:8080/a/b?c=d"),
            "http://127.0.0.3:1/a/b?c=d"
        );
    }

    #[test]
    fn the_site_outlives_its_client_by_a_bounded_margin() {
        let options = options_for(Duration::from_secs(1));
        let expected = Options::new().lifetime(Duration::from_secs(1) + TERM_GRACE + SITE_MARGIN);
        assert_eq!(options, expected);
    }

    #[test]
    fn a_refused_only_origin_logs_nothing() {
        let refused = Scenario::new(200, "").with_fault(Fault::ConnectionRefused);
        assert!(!fetch_is_logged(&refused));
        assert!(fetch_is_logged(&Scenario::new(503, "")));
        assert!(fetch_is_logged(
            &refused.with_redirects([crate::Redirect::cross_origin(301)])
        ));
    }
}
