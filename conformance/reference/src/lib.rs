//! The reptest reference matcher: a strict RFC 9309 (Robots Exclusion
//! Protocol) robots.txt parser and matcher.
//!
//! * Bytes in: the body is `&[u8]`; parsing is total (invalid UTF-8, NUL,
//!   byte order marks, any mix of CR / LF / CRLF, very long lines) and never
//!   panics.
//! * [`Config::default`] is RFC-strict; every choice the RFC leaves open is
//!   a [`Config`] field; [`Config::google`] is the Google profile.
//! * [`Robots`] is the compiled file: parse once, [`Robots::check`] many
//!   times. A [`Verdict`] tells why, down to the deciding rule's line.
//! * [`check_once`] answers one query from a body in one pass, compiling only the
//!   rules that can decide it: the same verdict as parse + check.
//! * [`access::rules_in_force`] is the access method of RFC 9309 §2.3.1 and
//!   the caching rule of §2.4 as a pure function; [`check_fetch`] combines it
//!   with parsing and checking.
//! * [`syntax`] is the lossless syntax of a file, line by line (RFC 9309 §2.2), that
//!   the parser reads through and that tools read too; [`target_path`] is the path of a
//!   URL that rules are matched against (§2.2.2).
//!
//! ```
//! use reptest_reference::{Config, Robots};
//!
//! let body = b"User-agent: *\nDisallow: /private/\nAllow: /private/*.css$\n";
//! let robots = Robots::parse_with(body, &Config::rfc9309());
//! assert!(!robots.is_allowed("examplebot", "https://example.com/private/x"));
//! assert!(robots.is_allowed("examplebot", "https://example.com/private/site.css"));
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod access;
mod config;
#[cfg(feature = "corpus")]
pub mod corpus;
mod encode;
mod group;
mod lines;
mod once;
mod parse;
mod pattern;
mod robots;
pub mod syntax;
mod url;
mod verdict;
mod warning;

pub use access::AccessReason;
pub use config::{AgentValueMatch, Config, PatternWithoutSlash, MIN_PARSE_LIMIT};
pub use once::check_once;
pub use robots::{comparison_path, Robots};
pub use url::{origin, target_path, written_path};
pub use verdict::{MatchedRule, Reason, RuleKind, Verdict};
pub use warning::{Warning, WarningKind};

/// Applies the access method to `fetch` (RFC 9309 §2.3.1, §2.4; see
/// [`access::rules_in_force`]), then, if a body is in force, parses it with
/// `config` and checks `url` for `agent` ([`check_once`]).
///
/// When the access method allows or disallows everything, the verdict's
/// reason is [`Reason::Access`], for every path but `/robots.txt`, which stays
/// implicitly allowed ([`Reason::RobotsTxtPath`], RFC 9309 §2.2.2) even under the
/// complete disallow of an unreachable file (§2.3.1.4): the crawler refetches it.
///
/// ```
/// use reptest_reference::access::Fetch;
/// use reptest_reference::{check_fetch, AccessReason, Config, Reason};
///
/// let config = Config::default();
/// let fetch = Fetch { status: Some(503), ..Fetch::default() };
/// let verdict = check_fetch(&fetch, &config, "examplebot", "/page");
/// assert!(!verdict.is_allowed());
/// assert_eq!(verdict.reason(), &Reason::Access(AccessReason::Unreachable { status: Some(503) }));
///
/// let fetch = Fetch { status: Some(200), body: b"User-agent: *\nDisallow: /page", ..Fetch::default() };
/// assert!(!check_fetch(&fetch, &config, "examplebot", "/page").is_allowed());
/// ```
pub fn check_fetch(fetch: &access::Fetch<'_>, config: &Config, agent: &str, url: &str) -> Verdict {
    match access::rules_in_force(fetch, config) {
        access::RulesInForce::Parsed(body) => check_once(body, config, agent, url),
        access::RulesInForce::AllowAll(reason) => Verdict::new(true, Reason::Access(reason)),
        access::RulesInForce::DisallowAll(_)
            if robots::is_robots_txt(&robots::comparison_path(url)) =>
        {
            Verdict::new(true, Reason::RobotsTxtPath)
        }
        access::RulesInForce::DisallowAll(reason) => Verdict::new(false, Reason::Access(reason)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use access::{Cached, Fetch};

    #[test]
    fn check_fetch_paths() {
        let c = Config::default();
        let v = check_fetch(
            &Fetch {
                status: Some(404),
                ..Fetch::default()
            },
            &c,
            "a",
            "/x",
        );
        assert!(v.is_allowed());
        assert_eq!(
            v.reason(),
            &Reason::Access(AccessReason::Unavailable { status: 404 })
        );
        let v = check_fetch(
            &Fetch {
                cache: Some(Cached {
                    age_hours: 3,
                    body: b"user-agent: *\ndisallow: /x",
                }),
                ..Fetch::default()
            },
            &c,
            "a",
            "/x",
        );
        assert!(!v.is_allowed());
        assert_eq!(v.line(), Some(2));
    }

    #[test]
    fn robots_txt_stays_allowed_under_complete_disallow() {
        // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed.", whatever the
        // rules; §2.3.1.4's complete disallow stands for the undefined file.
        let c = Config::default();
        for fetch in [
            Fetch {
                status: Some(503),
                ..Fetch::default()
            },
            Fetch {
                network_error: true,
                ..Fetch::default()
            },
        ] {
            let v = check_fetch(&fetch, &c, "a", "https://example.com/robots.txt");
            assert!(v.is_allowed());
            assert_eq!(v.reason(), &Reason::RobotsTxtPath);
            assert!(check_fetch(&fetch, &c, "a", "/%72obots.txt").is_allowed());
            assert!(!check_fetch(&fetch, &c, "a", "/robots.txt?x=1").is_allowed());
            assert!(!check_fetch(&fetch, &c, "a", "/ROBOTS.TXT").is_allowed());
            assert!(!check_fetch(&fetch, &c, "a", "/page").is_allowed());
        }
    }
}
