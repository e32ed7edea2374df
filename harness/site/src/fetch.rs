//! A corpus case's fetch outcome as a scenario the site serves: what a crawler meets when
//! it fetches the case's robots.txt over real HTTP (RFC 9309 §2.3.1).
//!
//! | `[case.fetch]` | scenario |
//! | --- | --- |
//! | `status = S` | `/robots.txt` answers `S` with the case's body (§2.3.1.1–§2.3.1.4) |
//! | `redirects = N` | `N` hops of `301` before that answer (§2.3.1.2) |
//! | `network_error = true` | the response is cut by a reset mid-body ([`Fault::ResetMidBody`]): the origin answers, the file never arrives whole (§2.3.1.4 "unreachable") |
//! | `cache = …` | not servable: a cached copy and its age (§2.4) are not something one fetch can show |
//!
//! A case without `[case.fetch]` is a plain `200` with its body.

use reptest_corpus::Fetch;

use crate::scenario::{Fault, Redirect, Scenario};

/// The scenario that serves `body` the way `fetch` says it was obtained (`None`: a plain
/// `200`), or why one fetch over HTTP cannot show it.
///
/// ```
/// use reptest_corpus::Fetch;
/// let fetch = Fetch { status: Some(503), ..Fetch::default() };
/// let scenario = reptest_site::scenario_for(Some(&fetch), b"User-agent: *\nAllow: /\n").unwrap();
/// assert_eq!(scenario.response.status, 503);
/// let cached = Fetch { cache: Some(reptest_corpus::Cache { age_hours: 1, body: vec![] }), ..Fetch::default() };
/// assert!(reptest_site::scenario_for(Some(&cached), b"").is_err());
/// ```
pub fn scenario_for(fetch: Option<&Fetch>, body: &[u8]) -> Result<Scenario, String> {
    let Some(fetch) = fetch else {
        return Ok(Scenario::new(200, body));
    };
    if fetch.cache.is_some() {
        return Err(
            "a cached copy and its age (RFC 9309 §2.4) cannot be shown by one fetch over HTTP"
                .into(),
        );
    }
    let redirects = (0..fetch.redirects).map(|_| Redirect::new(301));
    if fetch.network_error {
        return Ok(Scenario::new(200, body)
            .with_redirects(redirects)
            .with_fault(Fault::ResetMidBody));
    }
    let Some(status) = fetch.status else {
        return Err("the fetch outcome names no status and no network error".into());
    };
    Ok(Scenario::new(status, body).with_redirects(redirects))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_outcome_maps_to_what_it_describes() {
        let plain = scenario_for(None, b"x").unwrap();
        assert_eq!(plain.response.status, 200);
        assert_eq!(plain.response.body.as_bytes(), b"x");
        let moved = Fetch {
            status: Some(404),
            redirects: 6,
            ..Fetch::default()
        };
        let scenario = scenario_for(Some(&moved), b"").unwrap();
        assert_eq!(scenario.redirects.len(), 6);
        assert_eq!(scenario.response.status, 404);
        assert!(scenario.fault.is_none());
        let unreachable = Fetch {
            network_error: true,
            ..Fetch::default()
        };
        assert_eq!(
            scenario_for(Some(&unreachable), b"a").unwrap().fault,
            Some(Fault::ResetMidBody)
        );
        assert!(scenario_for(Some(&Fetch::default()), b"").is_err());
    }
}
