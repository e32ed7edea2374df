//! The one URL type of the harness: every adapter derives the form its library takes
//! (path, absolute URL, robots.txt URL) from a [`QueryUrl`], and the path is the one the
//! reference matches against ([`reptest_reference::target_path`], RFC 9309 §2.2.2), so
//! the harness never makes implementations disagree by handing them different paths.

use std::borrow::Cow;

/// The origin a URL without one (a path, `urn:x`, `x/y`) is put under for libraries
/// that want an absolute URL.
pub const DEFAULT_ORIGIN: &str = "https://example.com";

/// A query's URL as the corpus (or a user) gives it: absolute, or a path.
///
/// ```
/// use reptest_core::url::QueryUrl;
/// let url = QueryUrl::new("urn:x/y#f");
/// assert_eq!(url.path(), "/x/y");
/// assert_eq!(url.absolute(), "https://example.com/x/y");
/// assert_eq!(url.robots_url(), "https://example.com/robots.txt");
/// let url = QueryUrl::new("http://[::1]:8080/a?b");
/// assert_eq!(url.path(), "/a?b");
/// assert_eq!(url.absolute(), "http://[::1]:8080/a?b");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryUrl<'a> {
    raw: &'a str,
}

impl<'a> QueryUrl<'a> {
    /// The URL `raw`, as given.
    pub fn new(raw: &'a str) -> QueryUrl<'a> {
        QueryUrl { raw }
    }

    /// The URL as given.
    pub fn as_str(&self) -> &'a str {
        self.raw
    }

    /// `scheme://authority`, when the URL has one.
    pub fn authority(&self) -> Option<&'a str> {
        reptest_reference::origin(self.raw)
    }

    /// Whether the URL is absolute (`scheme://authority...`).
    pub fn is_absolute(&self) -> bool {
        self.authority().is_some()
    }

    /// `scheme://authority` of the URL, or [`DEFAULT_ORIGIN`].
    pub fn origin(&self) -> &'a str {
        self.authority().unwrap_or(DEFAULT_ORIGIN)
    }

    /// The path and query that rules are matched against: no fragment, always starting
    /// with `/` (RFC 9309 §2.2.2; [`reptest_reference::target_path`]).
    pub fn path(&self) -> Cow<'a, str> {
        reptest_reference::target_path(self.raw)
    }

    /// The URL as given when absolute (fragment and all: the library under test strips
    /// it), else [`Self::path`] under [`DEFAULT_ORIGIN`]: a network-path reference
    /// (`//host/path`, RFC 3986 §4.2) too, whose path is what follows its host, asked
    /// about under the origin whose robots.txt is in question.
    pub fn absolute(&self) -> Cow<'a, str> {
        if self.is_absolute() {
            Cow::Borrowed(self.raw)
        } else {
            Cow::Owned(format!("{DEFAULT_ORIGIN}{}", self.path()))
        }
    }

    /// The robots.txt URL of the URL's origin (RFC 9309 §2.3: `/robots.txt` at the top
    /// level of the service).
    pub fn robots_url(&self) -> String {
        format!("{}/robots.txt", self.origin())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_forms() {
        let abs = QueryUrl::new("https://example.com:8443/a/b?c=d#frag");
        assert!(abs.is_absolute());
        assert_eq!(abs.origin(), "https://example.com:8443");
        assert_eq!(abs.path(), "/a/b?c=d");
        assert_eq!(abs.absolute(), "https://example.com:8443/a/b?c=d#frag");
        assert_eq!(abs.robots_url(), "https://example.com:8443/robots.txt");

        let bare = QueryUrl::new("https://example.com?q=1");
        assert_eq!(bare.origin(), "https://example.com");
        assert_eq!(bare.path(), "/?q=1");
        assert_eq!(QueryUrl::new("https://example.com").path(), "/");

        let path = QueryUrl::new("/x/y?z#f");
        assert!(!path.is_absolute());
        assert_eq!(path.origin(), DEFAULT_ORIGIN);
        assert_eq!(path.path(), "/x/y?z");
        assert_eq!(path.absolute(), "https://example.com/x/y?z");
        assert_eq!(path.robots_url(), "https://example.com/robots.txt");

        assert_eq!(QueryUrl::new("").path(), "/");
        // A network-path reference (RFC 3986 §4.2): `h` is its host, not part of its path;
        // it is asked about under the default origin, whose robots.txt is in question.
        let network = QueryUrl::new("//h/p?q#f");
        assert!(!network.is_absolute());
        assert_eq!(network.path(), "/p?q");
        assert_eq!(network.absolute(), "https://example.com/p?q");
        assert_eq!(QueryUrl::new("/a//b").path(), "/a//b");
        // A scheme without an authority: the rest is the path, as the reference reads it.
        assert_eq!(QueryUrl::new("a:b").path(), "/b");
        assert_eq!(
            QueryUrl::new("urn:x/y").absolute(),
            "https://example.com/x/y"
        );
        assert_eq!(QueryUrl::new("x/y").absolute(), "https://example.com/x/y");
        assert_eq!(QueryUrl::new("*").path(), "/*");
        assert_eq!(
            QueryUrl::new("http://[::1]:8080").robots_url(),
            "http://[::1]:8080/robots.txt"
        );
    }
}
