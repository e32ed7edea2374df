//! HTTP status families and the branch of RFC 9309's access method (§2.3.1) that a
//! fetch's status selects, for the survey's status table.
//!
//! | status | [`StatusFamily`] | [`AccessBranch`] | RFC 9309 | what a crawler does |
//! | --- | --- | --- | --- | --- |
//! | none (a directory or tar file) | — | [`Success`](AccessBranch::Success) | §2.3.1.1 | the file's rules apply |
//! | 200–299 | `2xx` | [`Success`](AccessBranch::Success) | §2.3.1.1 | the file's rules apply |
//! | 300–399 | `3xx` | [`Redirect`](AccessBranch::Redirect) | §2.3.1.2 | follows the redirect (at least five hops); the rules are the target's, not in this record |
//! | 400–499 | `4xx` | [`Unavailable`](AccessBranch::Unavailable) | §2.3.1.3 | MAY access any resources |
//! | 500–599 | `5xx` | [`Unreachable`](AccessBranch::Unreachable) | §2.3.1.4 | MUST assume complete disallow |
//! | anything else | `other` | [`Unexpected`](AccessBranch::Unexpected) | — | the rules are unknown; the reference disallows everything |
//!
//! A final 3xx in an archive is a redirect that was recorded, not followed; the
//! reference's access method ([`reptest_reference::access::rules_in_force`]), having no
//! target to follow, disallows everything for it, as for [`AccessBranch::Unexpected`].

use std::fmt;

/// The class of an HTTP status code (its first digit).
///
/// ```
/// use reptest_survey::StatusFamily;
///
/// assert_eq!(StatusFamily::of(404), StatusFamily::ClientError);
/// assert_eq!(StatusFamily::of(404).label(), "4xx");
/// assert_eq!(StatusFamily::of(99), StatusFamily::Other);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StatusFamily {
    /// 200–299.
    Success,
    /// 300–399.
    Redirection,
    /// 400–499.
    ClientError,
    /// 500–599.
    ServerError,
    /// Any other code (1xx, or outside 100–599).
    Other,
}

impl StatusFamily {
    /// Every family, in table order.
    pub const ALL: [StatusFamily; 5] = [
        StatusFamily::Success,
        StatusFamily::Redirection,
        StatusFamily::ClientError,
        StatusFamily::ServerError,
        StatusFamily::Other,
    ];

    /// The family of `status`.
    pub fn of(status: u16) -> StatusFamily {
        match status {
            200..=299 => StatusFamily::Success,
            300..=399 => StatusFamily::Redirection,
            400..=499 => StatusFamily::ClientError,
            500..=599 => StatusFamily::ServerError,
            _ => StatusFamily::Other,
        }
    }

    /// `2xx`, `3xx`, `4xx`, `5xx` or `other`.
    pub fn label(self) -> &'static str {
        match self {
            StatusFamily::Success => "2xx",
            StatusFamily::Redirection => "3xx",
            StatusFamily::ClientError => "4xx",
            StatusFamily::ServerError => "5xx",
            StatusFamily::Other => "other",
        }
    }
}

impl fmt::Display for StatusFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Which branch of RFC 9309's access method (§2.3.1) a fetch's status selects.
///
/// ```
/// use reptest_survey::AccessBranch;
///
/// assert_eq!(AccessBranch::of(Some(503)), AccessBranch::Unreachable);
/// assert_eq!(AccessBranch::of(Some(503)).section(), Some("2.3.1.4"));
/// assert!(AccessBranch::of(None).rules_apply());
/// assert!(!AccessBranch::of(Some(404)).rules_apply());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessBranch {
    /// 2xx, or no status (a file from a directory or tar archive): the file's rules apply
    /// (§2.3.1.1).
    Success,
    /// 3xx: the crawler follows the redirect (§2.3.1.2); the rules in force are the
    /// target's.
    Redirect,
    /// 4xx: the file is unavailable; the crawler MAY access any resources (§2.3.1.3).
    Unavailable,
    /// 5xx: the file is unreachable; the crawler MUST assume complete disallow
    /// (§2.3.1.4).
    Unreachable,
    /// Any other status: no branch of §2.3.1 covers it.
    Unexpected,
}

impl AccessBranch {
    /// Every branch, in table order.
    pub const ALL: [AccessBranch; 5] = [
        AccessBranch::Success,
        AccessBranch::Redirect,
        AccessBranch::Unavailable,
        AccessBranch::Unreachable,
        AccessBranch::Unexpected,
    ];

    /// The branch for a fetch with final status `status`; `None` (no status recorded) is
    /// treated as 200, as [`reptest_reference::access::rules_in_force`] does.
    pub fn of(status: Option<u16>) -> AccessBranch {
        match StatusFamily::of(status.unwrap_or(200)) {
            StatusFamily::Success => AccessBranch::Success,
            StatusFamily::Redirection => AccessBranch::Redirect,
            StatusFamily::ClientError => AccessBranch::Unavailable,
            StatusFamily::ServerError => AccessBranch::Unreachable,
            StatusFamily::Other => AccessBranch::Unexpected,
        }
    }

    /// The section of RFC 9309 for the branch (`2.3.1.1` ... `2.3.1.4`); `None` for
    /// [`AccessBranch::Unexpected`].
    pub fn section(self) -> Option<&'static str> {
        match self {
            AccessBranch::Success => Some("2.3.1.1"),
            AccessBranch::Redirect => Some("2.3.1.2"),
            AccessBranch::Unavailable => Some("2.3.1.3"),
            AccessBranch::Unreachable => Some("2.3.1.4"),
            AccessBranch::Unexpected => None,
        }
    }

    /// A short name for tables: `success`, `redirect`, `unavailable`, `unreachable`,
    /// `unexpected`.
    pub fn label(self) -> &'static str {
        match self {
            AccessBranch::Success => "success",
            AccessBranch::Redirect => "redirect",
            AccessBranch::Unavailable => "unavailable",
            AccessBranch::Unreachable => "unreachable",
            AccessBranch::Unexpected => "unexpected",
        }
    }

    /// What the branch means for a crawler, in the RFC's words where it has them.
    pub fn meaning(self) -> &'static str {
        match self {
            AccessBranch::Success => "the file's rules apply",
            AccessBranch::Redirect => "follow the redirect; the target's rules apply",
            AccessBranch::Unavailable => "MAY access any resources",
            AccessBranch::Unreachable => "MUST assume complete disallow",
            AccessBranch::Unexpected => "no rule of RFC 9309 covers the status",
        }
    }

    /// Whether the body's rules are the ones in force (only [`AccessBranch::Success`]).
    pub fn rules_apply(self) -> bool {
        self == AccessBranch::Success
    }
}

impl fmt::Display for AccessBranch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_reference::access::{rules_in_force, AccessReason, Fetch, RulesInForce};
    use reptest_reference::Config;

    #[test]
    fn families() {
        assert_eq!(StatusFamily::of(200), StatusFamily::Success);
        assert_eq!(StatusFamily::of(299), StatusFamily::Success);
        assert_eq!(StatusFamily::of(301), StatusFamily::Redirection);
        assert_eq!(StatusFamily::of(451), StatusFamily::ClientError);
        assert_eq!(StatusFamily::of(599), StatusFamily::ServerError);
        assert_eq!(StatusFamily::of(100), StatusFamily::Other);
        assert_eq!(StatusFamily::of(600), StatusFamily::Other);
        assert_eq!(StatusFamily::of(0), StatusFamily::Other);
    }

    /// The branches agree with the reference's access method on every status.
    #[test]
    fn agrees_with_the_reference() {
        let config = Config::default();
        let statuses = (0..=1000).map(Some).chain([None, Some(u16::MAX)]);
        for status in statuses {
            let fetch = Fetch {
                status,
                ..Fetch::default()
            };
            let branch = AccessBranch::of(status);
            let decided = rules_in_force(&fetch, &config);
            let agrees = matches!(
                (branch, decided),
                (AccessBranch::Success, RulesInForce::Parsed(_))
                    | (
                        AccessBranch::Unavailable,
                        RulesInForce::AllowAll(AccessReason::Unavailable { .. }),
                    )
                    | (
                        AccessBranch::Unreachable,
                        RulesInForce::DisallowAll(AccessReason::Unreachable { .. }),
                    )
                    | (
                        AccessBranch::Redirect | AccessBranch::Unexpected,
                        RulesInForce::DisallowAll(AccessReason::UnexpectedStatus { .. }),
                    )
            );
            assert!(agrees, "{status:?}: {branch:?} vs {decided:?}");
            assert_eq!(
                branch.rules_apply(),
                matches!(decided, RulesInForce::Parsed(_))
            );
        }
    }
}
