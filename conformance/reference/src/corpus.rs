//! The reference on reptest's case model (feature `corpus`): the bridge the harness's
//! reference adapter and this crate's corpus test (`tests/integration/corpus.rs`) share.

use crate::access::{Cached, Fetch};
use crate::{check_fetch, Config, Robots, Verdict};

/// The access method's view (RFC 9309 §2.3.1, §2.4) of a case's fetch scenario, with
/// `body` the case's body: what the server sent on this fetch.
pub fn fetch<'a>(fetch: &'a reptest_corpus::Fetch, body: &'a [u8]) -> Fetch<'a> {
    Fetch {
        status: fetch.status,
        network_error: fetch.network_error,
        redirects: fetch.redirects,
        body,
        cache: fetch.cache.as_ref().map(|cache| Cached {
            age_hours: cache.age_hours,
            body: &cache.body,
        }),
    }
}

/// The reference's verdict on every query of `case` under `config`, in order: the body
/// parsed once when the case has no fetch scenario, else the access method first
/// ([`check_fetch`]).
pub fn verdicts(case: &reptest_corpus::Case, config: &Config) -> Vec<Verdict> {
    match &case.fetch {
        None => {
            let robots = Robots::parse_with(&case.body, config);
            let check = |q: &reptest_corpus::Query| robots.check(&q.agent, &q.url);
            case.queries.iter().map(check).collect()
        }
        Some(scenario) => {
            let fetch = fetch(scenario, &case.body);
            let check = |q: &reptest_corpus::Query| check_fetch(&fetch, config, &q.agent, &q.url);
            case.queries.iter().map(check).collect()
        }
    }
}
