//! A corpus case's fetch outcome as a scenario the site serves: what a crawler meets when
//! it fetches the case's robots.txt over real HTTP (RFC 9309 §2.3.1–§2.5).
//!
//! | `[case.fetch]` | scenario |
//! | --- | --- |
//! | `status = S` | `/robots.txt` answers `S` with the case's body (§2.3.1.1–§2.3.1.4) |
//! | `redirects = N` | `N` hops of `301` before that answer (§2.3.1.2) |
//! | `cross_origin = true` | the last hop's `Location` names the site's second origin, where the file is served (§2.3.1.2 "even across authorities") |
//! | `fault = "reset"`, or `network_error = true` alone | a `200` cut by a TCP reset mid-body ([`Fault::ResetMidBody`]): the file never arrives whole (§2.3.1.4 "unreachable") |
//! | `fault = "never-completes"` | a `200` whose body stops halfway and never ends ([`Fault::NeverCompletes`]): the crawler's own timeout decides (§2.3.1.4) |
//! | `fault = "refused"` | the origin of the final request refuses the connection ([`Fault::ConnectionRefused`]); only after a cross-origin last hop, so the start page stays reachable |
//! | `content_encoding = "gzip"` | the server gzips the body and says `Content-Encoding: gzip` (RFC 9110 §8.4) |
//! | `content_type = T` | `Content-Type: T` (default `text/plain`) |
//! | `cache` with a refetch outcome (`status` or a network error) | that outcome, as above: the case's verdicts follow the refetch, never the cached copy |
//! | `cache` of at most 24 hours, not fetched again | a `200` of the cached body: within one crawl the crawler's own copy is the fresh cached copy (§2.4) |
//! | `cache` older than 24 hours, not fetched again | not servable: one fetch cannot make a crawler hold a copy that old (§2.4) |
//!
//! A case without `[case.fetch]` is a plain `200` with its body.

use reptest_corpus::{ContentEncoding, Fetch, NetworkFault};

use crate::error::Error;
use crate::scenario::{Fault, Redirect, Scenario};

/// The status a faulty response starts with before it fails: the file was on its way.
const FAULTY_STATUS: u16 = 200;

/// The scenario that serves `body` the way `fetch` says it was obtained (`None`: a plain
/// `200`), or why one fetch over HTTP cannot show it ([`Error::is_unservable`]; an
/// invalid scenario otherwise).
///
/// ```
/// use reptest_corpus::{Cache, Fetch};
/// let fetch = Fetch { status: Some(503), ..Fetch::default() };
/// let scenario = reptest_site::scenario_for(Some(&fetch), b"User-agent: *\nAllow: /\n").unwrap();
/// assert_eq!(scenario.response.status, 503);
/// let stale = Fetch { cache: Some(Cache { age_hours: 30, body: vec![] }), ..Fetch::default() };
/// assert!(reptest_site::scenario_for(Some(&stale), b"").is_err());
/// ```
pub fn scenario_for(fetch: Option<&Fetch>, body: &[u8]) -> Result<Scenario, Error> {
    let Some(fetch) = fetch else {
        return Ok(Scenario::new(200, body));
    };
    let refetched = fetch.status.is_some() || fetch.network_error;
    match &fetch.cache {
        Some(cache) if !refetched && cache.is_fresh() => {
            // RFC 9309 §2.4: a copy at most 24 hours old is used without fetching again.
            // In one crawl the crawler fetches the file once and keeps it: that copy is
            // the fresh cached copy, so the site serves the cached body as a 200.
            return Ok(Scenario::new(200, cache.body.as_slice()));
        }
        Some(cache) if !refetched => {
            return Err(Error::unservable(format!(
                "a cached copy {} hours old, not fetched again (RFC 9309 §2.4: not to be used \
                 past {} hours), cannot be shown by one fetch over HTTP: no crawler can be \
                 made to hold a copy that old",
                cache.age_hours,
                reptest_corpus::Cache::MAX_AGE_HOURS
            )));
        }
        // A refetch outcome decides the verdicts (§2.3.1): it is served as it is.
        _ => {}
    }
    let hops = fetch.redirects as usize;
    let redirects = (0..hops).map(|hop| {
        if fetch.cross_origin && hop + 1 == hops {
            Redirect::cross_origin(301)
        } else {
            Redirect::new(301)
        }
    });
    let fault = match (fetch.fault, fetch.network_error) {
        (Some(NetworkFault::Refused), _) if hops == 0 => {
            return Err(Error::unservable(
                "a refused connection with no redirect in front refuses the site's \
                        only origin: the start page would be unreachable too, and the crawl \
                        would show nothing about robots.txt",
            ));
        }
        (Some(NetworkFault::Refused), _) => Some(Fault::ConnectionRefused),
        (Some(NetworkFault::Reset), _) | (None, true) => Some(Fault::ResetMidBody),
        (Some(NetworkFault::NeverCompletes), _) => Some(Fault::NeverCompletes),
        (None, false) => None,
    };
    let status = match (fault, fetch.status) {
        (Some(_), _) => FAULTY_STATUS,
        (None, Some(status)) => status,
        (None, None) => {
            return Err(Error::unservable(
                "the fetch outcome names no status and no network error",
            ));
        }
    };
    let mut scenario = Scenario::new(status, body)
        .with_redirects(redirects)
        .with_gzip(fetch.content_encoding == Some(ContentEncoding::Gzip));
    if let Some(fault) = fault {
        scenario = scenario.with_fault(fault);
    }
    if let Some(content_type) = &fetch.content_type {
        scenario = scenario.with_content_type(content_type.as_str());
    }
    scenario.validate()?;
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_corpus::Cache;

    fn cache(age_hours: u32) -> Option<Cache> {
        Some(Cache {
            age_hours,
            body: b"cached".to_vec(),
        })
    }

    #[test]
    fn statuses_and_redirects_map_to_what_they_describe() {
        let plain = scenario_for(None, b"x").unwrap();
        assert_eq!(plain.response.status, 200);
        assert_eq!(plain.response.body.as_bytes(), b"x");
        assert!(!plain.response.gzip);
        assert_eq!(plain.response.content_type, "text/plain");
        let moved = Fetch {
            status: Some(404),
            redirects: 6,
            ..Fetch::default()
        };
        let scenario = scenario_for(Some(&moved), b"").unwrap();
        assert_eq!(scenario.redirects.len(), 6);
        assert!(!scenario.crosses_origin());
        assert_eq!(scenario.response.status, 404);
        assert!(scenario.fault.is_none());
        assert!(scenario_for(Some(&Fetch::default()), b"").is_err());
    }

    #[test]
    fn a_cross_origin_redirect_crosses_on_its_last_hop_only() {
        let fetch = Fetch {
            status: Some(200),
            redirects: 3,
            cross_origin: true,
            ..Fetch::default()
        };
        let scenario = scenario_for(Some(&fetch), b"rules").unwrap();
        let crossing: Vec<bool> = scenario.redirects.iter().map(|h| h.cross_origin).collect();
        assert_eq!(crossing, [false, false, true]);
        assert_eq!(scenario.response.body.as_bytes(), b"rules");
    }

    #[test]
    fn each_fault_maps_to_the_site_fault() {
        let faulty = |fault, redirects, cross_origin| Fetch {
            network_error: true,
            fault,
            redirects,
            cross_origin,
            ..Fetch::default()
        };
        for (fetch, want) in [
            (faulty(None, 0, false), Fault::ResetMidBody),
            (
                faulty(Some(NetworkFault::Reset), 0, false),
                Fault::ResetMidBody,
            ),
            (
                faulty(Some(NetworkFault::NeverCompletes), 0, false),
                Fault::NeverCompletes,
            ),
            (
                faulty(Some(NetworkFault::Refused), 1, true),
                Fault::ConnectionRefused,
            ),
            (
                faulty(Some(NetworkFault::Refused), 2, true),
                Fault::ConnectionRefused,
            ),
        ] {
            let scenario = scenario_for(Some(&fetch), b"a").unwrap();
            assert_eq!(scenario.fault, Some(want), "{fetch:?}");
            assert_eq!(scenario.response.status, FAULTY_STATUS);
            assert_eq!(scenario.redirects.len(), fetch.redirects as usize);
        }
        // Refused on the only origin: the start page would be refused too.
        let why =
            scenario_for(Some(&faulty(Some(NetworkFault::Refused), 0, false)), b"").unwrap_err();
        assert!(why.to_string().contains("start page"), "{why}");
    }

    #[test]
    fn encoding_and_content_type_are_served_as_given() {
        let fetch = Fetch {
            status: Some(200),
            content_encoding: Some(ContentEncoding::Gzip),
            content_type: Some("text/html; charset=utf-8".into()),
            ..Fetch::default()
        };
        let scenario = scenario_for(Some(&fetch), b"User-agent: *\n").unwrap();
        assert!(scenario.response.gzip);
        assert_eq!(scenario.response.content_type, "text/html; charset=utf-8");
        assert_eq!(scenario.response.body.as_bytes(), b"User-agent: *\n");
    }

    #[test]
    fn cached_copies_are_served_as_what_one_fetch_shows() {
        // A refetch outcome is served; the cached copy plays no part.
        let refetched = Fetch {
            status: Some(503),
            cache: cache(30),
            ..Fetch::default()
        };
        let scenario = scenario_for(Some(&refetched), b"new").unwrap();
        assert_eq!(scenario.response.status, 503);
        assert_eq!(scenario.response.body.as_bytes(), b"new");
        let failed = Fetch {
            network_error: true,
            cache: cache(2),
            ..Fetch::default()
        };
        assert_eq!(
            scenario_for(Some(&failed), b"new").unwrap().fault,
            Some(Fault::ResetMidBody)
        );
        // Not fetched again, at most 24 hours old: the copy, as a 200.
        for age in [0, 2, 24] {
            let fresh = Fetch {
                cache: cache(age),
                ..Fetch::default()
            };
            let scenario = scenario_for(Some(&fresh), b"unused").unwrap();
            assert_eq!(scenario.response.status, 200);
            assert_eq!(scenario.response.body.as_bytes(), b"cached");
            assert!(scenario.fault.is_none() && scenario.redirects.is_empty());
        }
        // Older, not fetched again: not servable, and the reason says so.
        let stale = Fetch {
            cache: cache(25),
            ..Fetch::default()
        };
        let why = scenario_for(Some(&stale), b"").unwrap_err();
        assert!(why.is_unservable(), "{why}");
        let why = why.to_string();
        assert!(why.contains("25 hours") && why.contains("§2.4"), "{why}");
    }

    /// Every fetch case of the shipped corpus is servable, except a stale copy not
    /// fetched again.
    #[test]
    fn every_corpus_fetch_case_but_a_stale_unrefetched_copy_is_servable() {
        let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
        let mut served = 0;
        for case in corpus.cases() {
            let Some(fetch) = &case.fetch else { continue };
            let stale_unrefetched = fetch.status.is_none()
                && !fetch.network_error
                && fetch.cache.as_ref().is_some_and(|c| !c.is_fresh());
            match scenario_for(Some(fetch), &case.body) {
                Ok(_) => {
                    assert!(!stale_unrefetched, "{}", case.id);
                    served += 1;
                }
                Err(why) => assert!(stale_unrefetched, "{}: {why}", case.id),
            }
        }
        assert!(served >= 30, "only {served} fetch cases served");
    }
}
