//! Extracting the part of a URL that rules are matched against
//! (RFC 9309 §2.2.2, requirement `2.2.2-PATH`).
//!
//! Rules apply to the path of the URI including its query ("params and
//! query"), never to the scheme, the authority or the fragment. An empty
//! path is `/`.
//!
//! Accepted inputs:
//!
//! * an absolute URL `scheme://authority/path?query#fragment` (RFC 3986
//!   §3: the scheme is a letter followed by letters, digits, `+`, `-`, `.`);
//!   the authority runs to the first `/`, `?` or `#`;
//! * `scheme:rest` without `//` (e.g. `urn:x`): the rest is the path;
//! * a network-path reference `//authority/path?query#fragment` (a
//!   protocol-relative URL, RFC 3986 §4.2): the authority runs to the first
//!   `/`, `?` or `#`, as in an absolute URL, so `//a/b` has the path `/b`. It
//!   cannot be a path: "If a URI does not contain an authority component,
//!   then the path cannot begin with two slash characters" (RFC 3986 §3.3),
//!   and resolved against any base (§5.2.2) it keeps its own authority and
//!   path;
//! * a path starting with a single `/`, used as is;
//! * `?query` alone, which becomes `/?query`;
//! * anything else is taken as a relative path and gets a leading `/`
//!   (`foo` becomes `/foo`, `example.com/a` becomes `/example.com/a`).
//!
//! In every case the fragment (from the first `#`) is dropped.

use memchr::memchr;
use std::borrow::Cow;

/// The path and query of `url` that rules are matched against (RFC 9309 §2.2.2): no
/// scheme, authority or fragment, always starting with `/` (see the module doc for every
/// accepted form). The harness gives every implementation this same path, so that the
/// harness itself never makes implementations disagree.
///
/// ```
/// use reptest_reference::target_path;
/// assert_eq!(target_path("https://example.com/a?b#c"), "/a?b");
/// assert_eq!(target_path("urn:x/y"), "/x/y");
/// assert_eq!(target_path("x/y"), "/x/y");
/// assert_eq!(target_path("http://[::1]:8080"), "/");
/// assert_eq!(target_path("//example.com/a?b"), "/a?b");
/// assert_eq!(target_path("/private/open/../../private/x?a=../b"), "/private/x?a=../b");
/// ```
pub fn target_path(url: &str) -> Cow<'_, str> {
    let path = written_path(url);
    match remove_dot_segments(path.as_bytes()) {
        // Segments of valid UTF-8 joined with `/` are valid UTF-8.
        Some(resolved) => Cow::Owned(String::from_utf8(resolved).unwrap_or_default()),
        None => path,
    }
}

/// The path and query of `url` as written: [`target_path`] before its `.` and `..`
/// segments are resolved (no scheme, authority or fragment, always starting with `/`).
/// For a tool that looks at how a URL is written (a dot segment, a `%` escape inside a
/// segment that resolving removes); every verdict uses [`target_path`].
///
/// ```
/// use reptest_reference::{target_path, written_path};
/// assert_eq!(written_path("https://example.com/a/../b?c#d"), "/a/../b?c");
/// assert_eq!(target_path("https://example.com/a/../b?c#d"), "/b?c");
/// assert_eq!(written_path("https://example.com"), "/");
/// assert_eq!(written_path("https://example.com?q"), "/?q");
/// ```
pub fn written_path(url: &str) -> Cow<'_, str> {
    let (slash, rest) = path_and_query(url.as_bytes());
    // `rest` is a sub-slice of `url` cut at ASCII bytes, so it is valid UTF-8.
    let rest = std::str::from_utf8(rest).unwrap_or_default();
    if slash {
        Cow::Owned(format!("/{rest}"))
    } else {
        Cow::Borrowed(rest)
    }
}

/// The path (the part before any `?`) of `path_and_query` with its `.` and `..`
/// segments removed (RFC 3986 §5.2.4, as a client does before it fetches: `/a/../b` is
/// `/b`, `/a/./b` is `/a/b`, `/a/..` is `/`), the query kept as it is; `None` when there
/// is no such segment (the common case, copied nothing).
pub(crate) fn remove_dot_segments(path_and_query: &[u8]) -> Option<Vec<u8>> {
    let end = memchr(b'?', path_and_query).unwrap_or(path_and_query.len());
    let (path, query) = path_and_query.split_at(end);
    // Every check passes here: a dot segment starts with `/.` (the path begins with `/`),
    // so paths without one are let through by a vectorized search for `.` (most paths
    // have few), without building a substring searcher per call.
    memchr::memchr_iter(b'.', path).find(|&i| i > 0 && path.get(i - 1) == Some(&b'/'))?;
    let has_dots = path
        .split(|&b| b == b'/')
        .any(|segment| segment == b"." || segment == b"..");
    if !has_dots {
        return None;
    }
    // Segments after the leading `/`; a trailing `.` or `..` leaves a trailing `/`.
    let mut out: Vec<&[u8]> = Vec::new();
    let segments: Vec<&[u8]> = path
        .strip_prefix(b"/")
        .unwrap_or(path)
        .split(|&b| b == b'/')
        .collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing_slash = false;
    for (i, segment) in segments.into_iter().enumerate() {
        match segment {
            b"." => trailing_slash = i == last,
            b".." => {
                out.pop();
                trailing_slash = i == last;
            }
            _ => {
                out.push(segment);
                trailing_slash = false;
            }
        }
    }
    let mut resolved = Vec::with_capacity(path_and_query.len());
    for segment in &out {
        resolved.push(b'/');
        resolved.extend_from_slice(segment);
    }
    if trailing_slash || resolved.is_empty() {
        resolved.push(b'/');
    }
    resolved.extend_from_slice(query);
    Some(resolved)
}

/// `scheme://authority` of `url` when it has one (`https://example.com` of
/// `https://example.com/a`), else `None` (a path, `urn:x`, `x/y`).
pub fn origin(url: &str) -> Option<&str> {
    let colon = scheme_end(url.as_bytes())?;
    let authority = url.get(colon + 1..)?.strip_prefix("//")?;
    let end = authority.find(['/', '?', '#']).unwrap_or(authority.len());
    Some(&url[..colon + 3 + end])
}

/// The path + query of `url`, and whether a `/` must be put in front of it
/// (for an empty path or one that does not start with `/`).
pub(crate) fn path_and_query(url: &[u8]) -> (bool, &[u8]) {
    let hierarchical = match url.first() {
        Some(b'/') => url,
        _ => match scheme_end(url) {
            Some(colon) => url.get(colon + 1..).unwrap_or_default(),
            None => url,
        },
    };
    // `//` starts an authority, in an absolute URL and in a network-path reference alike
    // (RFC 3986 §3.2, §4.2).
    let rest = match hierarchical.strip_prefix(b"//") {
        Some(authority_and_path) => {
            let end = authority_and_path
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b'#'))
                .unwrap_or(authority_and_path.len());
            authority_and_path.get(end..).unwrap_or_default()
        }
        None => hierarchical,
    };
    let rest = match memchr(b'#', rest) {
        Some(i) => &rest[..i],
        None => rest,
    };
    (rest.first() != Some(&b'/'), rest)
}

/// The index of the `:` that ends a URI scheme at the start of `url`.
fn scheme_end(url: &[u8]) -> Option<usize> {
    if !url.first()?.is_ascii_alphabetic() {
        return None;
    }
    for (i, &b) in url.iter().enumerate().skip(1) {
        match b {
            b':' => return Some(i),
            b if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.') => {}
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(url: &str) -> String {
        let (slash, rest) = path_and_query(url.as_bytes());
        let mut s = String::new();
        if slash {
            s.push('/');
        }
        s.push_str(std::str::from_utf8(rest).unwrap());
        s
    }

    fn dots(path: &str) -> String {
        String::from_utf8(remove_dot_segments(path.as_bytes()).unwrap_or(path.as_bytes().to_vec()))
            .unwrap()
    }

    #[test]
    fn dot_segments_are_resolved_as_rfc_3986_does() {
        assert_eq!(dots("/a/b/c/./../../g"), "/a/g");
        assert_eq!(dots("/private/open/../../private/x"), "/private/x");
        assert_eq!(dots("/a/."), "/a/");
        assert_eq!(dots("/a/.."), "/");
        assert_eq!(dots("/.."), "/");
        assert_eq!(dots("/."), "/");
        assert_eq!(dots("/a/../b?c=/../d"), "/b?c=/../d");
        assert_eq!(dots("/a..b/.c/x."), "/a..b/.c/x.");
        assert!(remove_dot_segments(b"/plain/path?q").is_none());
    }

    #[test]
    fn absolute_urls() {
        assert_eq!(p("http://example.com/a/b?c=d#e"), "/a/b?c=d");
        assert_eq!(p("https://example.com"), "/");
        assert_eq!(p("https://example.com?q"), "/?q");
        assert_eq!(p("https://example.com#frag"), "/");
        assert_eq!(p("HTTP://user:pw@example.com:8080/x"), "/x");
        assert_eq!(p("ftp+x.y-z://h/p"), "/p");
        assert_eq!(p("https://example.com/a:b/c"), "/a:b/c");
        assert_eq!(p("https://example.com//a"), "//a");
    }

    #[test]
    fn paths() {
        assert_eq!(p("/a/b?c#d"), "/a/b?c");
        assert_eq!(p("/"), "/");
        assert_eq!(p("/a//b"), "/a//b");
        assert_eq!(p("/a:b"), "/a:b");
        assert_eq!(p("/robots.txt#x"), "/robots.txt");
    }

    #[test]
    fn network_path_references() {
        // RFC 3986 §4.2: `//` starts the authority; the path is what follows it.
        assert_eq!(p("//a/b"), "/b");
        assert_eq!(p("//example.com/x/y?q#f"), "/x/y?q");
        assert_eq!(p("//example.com"), "/");
        assert_eq!(p("//example.com?q"), "/?q");
        assert_eq!(p("//"), "/");
        assert_eq!(p("///x"), "/x");
        assert_eq!(target_path("//h/a/../b"), "/b");
        assert_eq!(origin("//h/p"), None);
    }

    #[test]
    fn query_only_and_empty() {
        assert_eq!(p("?q=1"), "/?q=1");
        assert_eq!(p(""), "/");
        assert_eq!(p("#frag"), "/");
    }

    #[test]
    fn scheme_without_authority() {
        assert_eq!(p("urn:x/y"), "/x/y");
        assert_eq!(p("http:/a"), "/a");
    }

    #[test]
    fn relative_paths_get_a_slash() {
        assert_eq!(p("foo"), "/foo");
        assert_eq!(p("example.com/a"), "/example.com/a");
        assert_eq!(p("1http://x/y"), "/1http://x/y");
        assert_eq!(p("a b:c"), "/a b:c");
    }

    #[test]
    fn scheme_detection() {
        assert_eq!(scheme_end(b"http://x"), Some(4));
        assert_eq!(scheme_end(b"h:"), Some(1));
        assert_eq!(scheme_end(b":x"), None);
        assert_eq!(scheme_end(b"http"), None);
        assert_eq!(scheme_end(b"ht tp:"), None);
        assert_eq!(scheme_end(b""), None);
    }
}
