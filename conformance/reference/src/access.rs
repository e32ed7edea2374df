//! The access method (RFC 9309 §2.3.1) and caching (RFC 9309 §2.4) as a
//! pure function: given what happened when the file was fetched, which
//! rules are in force?
//!
//! Decision order, first match wins:
//!
//! 1. a network error: the file is unreachable, disallow everything
//!    (RFC 9309 §2.3.1.4 MUST), whatever the cache holds;
//! 2. more than [`Config::max_redirects`] redirects: the file is unavailable
//!    (RFC 9309 §2.3.1.2 MAY), so [`Config::unavailable_allows_all`]
//!    decides (§2.3.1.3);
//! 3. no status and a cached copy: the file was not refetched. A copy at
//!    most 24 hours old is parsed; an older one SHOULD NOT be used
//!    (RFC 9309 §2.4), and as this crate cannot fetch, it answers
//!    disallow-all with [`AccessReason::StaleCache`] (the conservative
//!    choice: "refetch first");
//! 4. no status and no cache: treated as a 200 of `body`;
//! 5. 2xx: the body is parsed (RFC 9309 §2.3.1.1); any cache is ignored;
//! 6. 4xx: unavailable (RFC 9309 §2.3.1.3): allow everything, or disallow
//!    everything if [`Config::unavailable_allows_all`] is `false`;
//! 7. 5xx: unreachable, disallow everything (RFC 9309 §2.3.1.4 MUST). This
//!    crate does not take the §2.3.1.4 / §2.4 option of using a cached copy
//!    while the server errs;
//! 8. anything else (1xx, a final 3xx, codes outside 100..=599): the rules
//!    are unknown, so disallow everything
//!    ([`AccessReason::UnexpectedStatus`]), the conservative reading.
//!
//! What a fetch outcome may say besides, and why it changes none of these
//! decisions:
//!
//! - which network error it was (a refused connection, a reset mid-body, a
//!   response that never completes): each leaves the file "unreachable due to
//!   server or network errors" (§2.3.1.4), so each is `network_error`, rule 1.
//!   A cut body is no file: its first half is never parsed;
//! - a redirect across authorities: §2.3.1.2 "The crawlers SHOULD follow at
//!   least five consecutive redirects, even across authorities", and the file
//!   reached is followed "in the context of the initial authority", so only the
//!   count matters (rule 2);
//! - a content coding (`Content-Encoding: gzip`): the coding is a property of
//!   the transfer, not of the file (RFC 9110 §8.4: the representation is what
//!   remains once the codings are removed), so [`Fetch::body`] is the decoded
//!   file and rule 5 parses it like any other;
//! - a media type (`Content-Type: text/html`): RFC 9309 names none, and §2.3.1.1
//!   "If the crawler successfully downloads the robots.txt file, the crawler
//!   MUST follow the parseable rules" does not depend on it (rule 5);
//! - a large file: rule 5 parses at least the first 500 KiB
//!   ([`Config::parse_limit`], §2.5), whatever the status line said.

use crate::config::Config;

/// What was fetched (or not) for one robots.txt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fetch<'a> {
    /// The final HTTP status, after redirects. `None` with
    /// `network_error == false` and a cache means "not refetched"; `None`
    /// without a cache is treated as 200.
    pub status: Option<u16>,
    /// The fetch failed below HTTP (DNS, a refused connection, a reset, a
    /// response that never completes...): RFC 9309 §2.3.1.4 "unreachable due to
    /// server or network errors", whichever it was.
    pub network_error: bool,
    /// How many redirects were followed.
    pub redirects: u32,
    /// The body of a successful fetch, decoded (any `Content-Encoding`
    /// removed, RFC 9110 §8.4), whatever its `Content-Type`.
    pub body: &'a [u8],
    /// A previously fetched copy, if any.
    pub cache: Option<Cached<'a>>,
}

/// A cached copy of the file (RFC 9309 §2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cached<'a> {
    /// Hours since the copy was fetched.
    pub age_hours: u32,
    /// The cached body.
    pub body: &'a [u8],
}

/// Which rules are in force after a fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesInForce<'a> {
    /// Parse this body and follow its rules.
    Parsed(&'a [u8]),
    /// Everything is allowed, without rules.
    AllowAll(AccessReason),
    /// Everything is disallowed, without rules.
    DisallowAll(AccessReason),
}

/// Why the access method allowed or disallowed everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AccessReason {
    /// 4xx: the file is unavailable (RFC 9309 §2.3.1.3).
    Unavailable {
        /// The HTTP status.
        status: u16,
    },
    /// 5xx (`Some(status)`) or a network error (`None` unless a status was
    /// also given): the file is unreachable (RFC 9309 §2.3.1.4).
    Unreachable {
        /// The HTTP status, if there was one.
        status: Option<u16>,
    },
    /// More redirects than [`Config::max_redirects`]: treated as
    /// unavailable (RFC 9309 §2.3.1.2).
    TooManyRedirects {
        /// How many redirects were followed.
        redirects: u32,
    },
    /// The file was not refetched and the cached copy is older than 24
    /// hours (RFC 9309 §2.4): it is not used; disallow everything until a
    /// refetch.
    StaleCache,
    /// A final status that is neither 2xx, 4xx nor 5xx (1xx, an unfollowed
    /// 3xx, out of range): the rules are unknown; disallow everything.
    UnexpectedStatus {
        /// The HTTP status.
        status: u16,
    },
}

/// The longest a cached copy may be used without refetching (RFC 9309 §2.4).
pub const MAX_CACHE_AGE_HOURS: u32 = 24;

/// Decides which rules are in force after `fetch` (see the module docs for
/// the order of the decisions).
pub fn rules_in_force<'a>(fetch: &Fetch<'a>, config: &Config) -> RulesInForce<'a> {
    if fetch.network_error {
        return RulesInForce::DisallowAll(AccessReason::Unreachable {
            status: fetch.status,
        });
    }
    if fetch.redirects > config.max_redirects {
        return unavailable(
            AccessReason::TooManyRedirects {
                redirects: fetch.redirects,
            },
            config,
        );
    }
    let status = match (fetch.status, fetch.cache) {
        (Some(status), _) => status,
        (None, Some(cached)) if cached.age_hours <= MAX_CACHE_AGE_HOURS => {
            return RulesInForce::Parsed(cached.body)
        }
        (None, Some(_)) => return RulesInForce::DisallowAll(AccessReason::StaleCache),
        (None, None) => 200,
    };
    match status {
        200..=299 => RulesInForce::Parsed(fetch.body),
        429 if config.too_many_requests_unreachable => {
            RulesInForce::DisallowAll(AccessReason::Unreachable {
                status: Some(status),
            })
        }
        400..=499 => unavailable(AccessReason::Unavailable { status }, config),
        500..=599 => RulesInForce::DisallowAll(AccessReason::Unreachable {
            status: Some(status),
        }),
        _ => RulesInForce::DisallowAll(AccessReason::UnexpectedStatus { status }),
    }
}

fn unavailable(reason: AccessReason, config: &Config) -> RulesInForce<'static> {
    if config.unavailable_allows_all {
        RulesInForce::AllowAll(reason)
    } else {
        RulesInForce::DisallowAll(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetch(status: Option<u16>) -> Fetch<'static> {
        Fetch {
            status,
            body: b"new",
            ..Fetch::default()
        }
    }

    fn cached(age_hours: u32) -> Option<Cached<'static>> {
        Some(Cached {
            age_hours,
            body: b"old",
        })
    }

    #[test]
    fn success_parses_body() {
        let c = Config::default();
        assert_eq!(
            rules_in_force(&fetch(Some(200)), &c),
            RulesInForce::Parsed(b"new")
        );
        assert_eq!(
            rules_in_force(&fetch(Some(204)), &c),
            RulesInForce::Parsed(b"new")
        );
        assert_eq!(
            rules_in_force(&fetch(None), &c),
            RulesInForce::Parsed(b"new")
        );
    }

    #[test]
    fn successful_refetch_ignores_cache() {
        let f = Fetch {
            cache: cached(1),
            ..fetch(Some(200))
        };
        assert_eq!(
            rules_in_force(&f, &Config::default()),
            RulesInForce::Parsed(b"new")
        );
    }

    #[test]
    fn unavailable_4xx() {
        let mut c = Config::default();
        let r = AccessReason::Unavailable { status: 404 };
        assert_eq!(
            rules_in_force(&fetch(Some(404)), &c),
            RulesInForce::AllowAll(r)
        );
        c.unavailable_allows_all = false;
        assert_eq!(
            rules_in_force(&fetch(Some(404)), &c),
            RulesInForce::DisallowAll(r)
        );
    }

    #[test]
    fn unreachable_5xx_and_network_errors_disallow_even_with_cache() {
        let c = Config::default();
        let f = Fetch {
            cache: cached(1),
            ..fetch(Some(503))
        };
        assert_eq!(
            rules_in_force(&f, &c),
            RulesInForce::DisallowAll(AccessReason::Unreachable { status: Some(503) })
        );
        let f = Fetch {
            network_error: true,
            cache: cached(1),
            ..fetch(None)
        };
        assert_eq!(
            rules_in_force(&f, &c),
            RulesInForce::DisallowAll(AccessReason::Unreachable { status: None })
        );
    }

    #[test]
    fn redirects() {
        let mut c = Config::default();
        let f = |n| Fetch {
            redirects: n,
            ..fetch(Some(200))
        };
        assert_eq!(rules_in_force(&f(5), &c), RulesInForce::Parsed(b"new"));
        let r = AccessReason::TooManyRedirects { redirects: 6 };
        assert_eq!(rules_in_force(&f(6), &c), RulesInForce::AllowAll(r));
        c.unavailable_allows_all = false;
        assert_eq!(rules_in_force(&f(6), &c), RulesInForce::DisallowAll(r));
        c.max_redirects = 10;
        assert_eq!(rules_in_force(&f(6), &c), RulesInForce::Parsed(b"new"));
    }

    #[test]
    fn cache_not_refetched() {
        let c = Config::default();
        let f = |age| Fetch {
            cache: cached(age),
            ..fetch(None)
        };
        assert_eq!(rules_in_force(&f(0), &c), RulesInForce::Parsed(b"old"));
        assert_eq!(rules_in_force(&f(24), &c), RulesInForce::Parsed(b"old"));
        assert_eq!(
            rules_in_force(&f(25), &c),
            RulesInForce::DisallowAll(AccessReason::StaleCache)
        );
    }

    #[test]
    fn unexpected_statuses_disallow() {
        let c = Config::default();
        for status in [0, 100, 199, 301, 304, 399, 600, 999] {
            assert_eq!(
                rules_in_force(&fetch(Some(status)), &c),
                RulesInForce::DisallowAll(AccessReason::UnexpectedStatus { status })
            );
        }
    }
}
