//! Judging from the request log: a queried page the crawler fetched is `allowed`, one it
//! did not fetch is `disallowed`.

use std::collections::HashSet;
use std::fmt;

use crate::log::Request;

/// What a crawler's behaviour says about one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// It fetched the URL.
    Allowed,
    /// It did not fetch the URL.
    Disallowed,
}

impl Verdict {
    /// `Allowed` for `true`.
    pub fn of(allowed: bool) -> Self {
        if allowed {
            Self::Allowed
        } else {
            Self::Disallowed
        }
    }

    /// Whether it is [`Allowed`](Self::Allowed).
    pub fn is_allowed(self) -> bool {
        self == Self::Allowed
    }

    /// `allowed` or `disallowed` (reptest's outcome words).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allowed => "allowed",
            Self::Disallowed => "disallowed",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The verdict for one queried page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageVerdict {
    /// The page's path with its query, as in the scenario's `pages`.
    pub path: String,
    /// Whether the crawler fetched it.
    pub verdict: Verdict,
}

/// What the log says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Judgement {
    pub(crate) verdicts: Vec<PageVerdict>,
    pub(crate) fetched_robots: bool,
    pub(crate) other_paths: Vec<String>,
}

/// Judges `requests` for `pages` (each once, in order) on `origin`, the site's first
/// origin, where the robots.txt, the start page and the pages are.
///
/// A page is `allowed` when some GET (whatever the answer's status) named exactly its
/// path and query on that origin. `fetched_robots` says whether `/robots.txt` was
/// requested there at all (any method). `other_paths` are the paths, on any origin,
/// that are none of these nor a redirect hop (`/hop/...`): a crawler that rewrites a
/// queried path (say, normalizing its percent-encoding) shows up there, and its
/// `disallowed` for that page is then not a decision about robots.txt.
pub(crate) fn judge(pages: &[String], origin: &str, requests: &[Request]) -> Judgement {
    let fetched: HashSet<&str> = requests
        .iter()
        .filter(|request| request.method == "GET" && request.origin == origin)
        .map(|request| request.path.as_str())
        .collect();
    let mut seen = HashSet::new();
    let verdicts = pages
        .iter()
        .filter(|page| seen.insert(page.as_str()))
        .map(|page| PageVerdict {
            path: page.clone(),
            verdict: Verdict::of(fetched.contains(page.as_str())),
        })
        .collect();
    let fetched_robots = crate::served_case::requested_robots(origin, requests);
    let mut other = HashSet::new();
    let other_paths = requests
        .iter()
        .map(|request| request.path.as_str())
        .filter(|path| {
            *path != crate::pages::START_PATH
                && *path != "/robots.txt"
                && !path.starts_with("/hop/")
                && !seen.contains(path)
        })
        .filter(|path| other.insert(*path))
        .map(str::to_owned)
        .collect();
    Judgement {
        verdicts,
        fetched_robots,
        other_paths,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn request(method: &str, origin: &str, path: &str) -> Request {
        Request {
            method: method.into(),
            origin: origin.into(),
            path: path.into(),
            user_agent: None,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn a_page_is_allowed_only_when_fetched_with_get_on_the_first_origin() {
        let (first, second) = ("http://127.0.0.2:1", "http://127.0.0.3:2");
        let pages: Vec<String> = ["/a", "/b", "/c", "/d", "/a"].map(Into::into).into();
        let requests = [
            request("GET", first, crate::pages::START_PATH),
            request("GET", first, "/a"),
            request("HEAD", first, "/b"),
            request("GET", second, "/c"),
            request("GET", first, "/D"),
            request("GET", second, "/hop/1/robots.txt"),
        ];
        let judgement = judge(&pages, first, &requests);
        let verdicts: Vec<_> = judgement
            .verdicts
            .iter()
            .map(|v| (v.path.as_str(), v.verdict))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("/a", Verdict::Allowed),
                ("/b", Verdict::Disallowed),
                ("/c", Verdict::Disallowed),
                ("/d", Verdict::Disallowed),
            ]
        );
        assert!(!judgement.fetched_robots);
        assert_eq!(judgement.other_paths, ["/D"]);
        let judgement = judge(&pages, first, &[request("HEAD", first, "/robots.txt")]);
        assert!(judgement.fetched_robots);
    }
}
