//! Compiled rule patterns and the matcher (RFC 9309 §2.2.2, §2.2.3).
//!
//! A pattern is normalized (see [`crate::encode`]), then split at its
//! wildcard `*`s into literal segments:
//!
//! * `*` matches zero or more of any octet, anywhere (RFC 9309 §2.2.3,
//!   `2.2.3-STAR`); `**` is the same as `*`;
//! * a `$` that is the last character of the pattern as written anchors the
//!   end of the path (`2.2.3-DOLLAR`); a `$` anywhere else is a literal `$`;
//! * without wildcards a pattern is a prefix match from the first octet of
//!   the path (RFC 9309 §2.2.2, `2.2.2-PREFIX`, `2.2.2-OCTETS`), case
//!   sensitive (`2.2.2-CASE`);
//! * an empty pattern matches nothing (RFC 9309 §2.2, `2.2-EMPTY-PATTERN`).
//!
//! Matching never backtracks: the first segment must be a prefix of the
//! path, each further segment is searched leftmost after the end of the
//! previous one (with `memchr::memmem`), and with `$` the last segment must
//! sit at the very end of the path, no earlier than the end of the previous
//! segment. Placing every segment leftmost leaves the most room for the
//! rest, so this greedy search finds a match whenever one exists, in time
//! linear in the path length per segment.
//!
//! Specificity (RFC 9309 §2.2.2, `2.2.2-LONGEST`) is the number of octets of
//! the normalized pattern, `*` and `$` included.

use memchr::memmem::Finder;

use crate::encode::normalize_pattern_into;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    specificity: usize,
    matcher: Matcher,
}

#[derive(Debug, Clone)]
enum Matcher {
    /// The empty pattern: matches nothing.
    Never,
    /// No wildcard, no anchor: the path must start with these octets.
    Prefix(Box<[u8]>),
    /// No wildcard, anchored: the path must be exactly these octets.
    Exact(Box<[u8]>),
    /// At least one wildcard.
    Wild(Box<Wild>),
}

#[derive(Debug, Clone)]
struct Wild {
    /// Literal before the first `*`: a prefix of the path.
    first: Box<[u8]>,
    /// Non-empty literals between two `*`s, searched leftmost in order.
    middle: Vec<Finder<'static>>,
    /// The literal after the last `*`.
    last: Last,
}

// `Last` only lives inside the boxed `Wild`, once per wildcard pattern.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
enum Last {
    /// Pattern ends with `*` (or `*` then `$`): anything may follow.
    Anything,
    /// Not anchored: must occur somewhere after the previous segment.
    Find(Finder<'static>),
    /// Anchored with `$`: must be a suffix, not overlapping the previous
    /// segment.
    Suffix(Box<[u8]>),
}

impl Pattern {
    /// Compiles a pattern as written in the file. With `prepend_slash`, a
    /// `/` is put in front first ([`crate::PatternWithoutSlash::PrependSlash`]).
    pub(crate) fn compile(raw: &[u8], prepend_slash: bool) -> Pattern {
        if raw.is_empty() {
            return Pattern {
                specificity: 0,
                matcher: Matcher::Never,
            };
        }
        let (body, anchored) = match raw.strip_suffix(b"$") {
            Some(body) => (body, true),
            None => (raw, false),
        };
        let mut bytes = Vec::with_capacity(body.len() + 1);
        if prepend_slash {
            bytes.push(b'/');
        }
        let mut stars = Vec::new();
        normalize_pattern_into(body, &mut bytes, &mut stars);
        let specificity = bytes.len() + usize::from(anchored);

        let matcher = if stars.is_empty() {
            let bytes = bytes.into_boxed_slice();
            if anchored {
                Matcher::Exact(bytes)
            } else {
                Matcher::Prefix(bytes)
            }
        } else {
            let mut segments = Vec::with_capacity(stars.len() + 1);
            let mut start = 0;
            for &star in &stars {
                segments.push(bytes.get(start..star).unwrap_or_default());
                start = star + 1;
            }
            let tail = bytes.get(start..).unwrap_or_default();
            let first = segments.first().copied().unwrap_or_default();
            let middle = segments
                .iter()
                .skip(1)
                .filter(|s| !s.is_empty())
                .map(|s| Finder::new(s).into_owned())
                .collect();
            let last = if tail.is_empty() {
                Last::Anything
            } else if anchored {
                Last::Suffix(tail.into())
            } else {
                Last::Find(Finder::new(tail).into_owned())
            };
            Matcher::Wild(Box::new(Wild {
                first: first.into(),
                middle,
                last,
            }))
        };
        Pattern {
            specificity,
            matcher,
        }
    }

    /// The number of octets of the normalized pattern (RFC 9309 §2.2.2).
    pub(crate) fn specificity(&self) -> usize {
        self.specificity
    }

    /// Whether the pattern matches a normalized path.
    pub(crate) fn matches(&self, path: &[u8]) -> bool {
        match &self.matcher {
            Matcher::Never => false,
            Matcher::Prefix(p) => path.starts_with(p),
            Matcher::Exact(p) => path == &p[..],
            Matcher::Wild(w) => w.matches(path),
        }
    }
}

impl Wild {
    fn matches(&self, path: &[u8]) -> bool {
        if !path.starts_with(&self.first) {
            return false;
        }
        let mut pos = self.first.len();
        for finder in &self.middle {
            let rest = path.get(pos..).unwrap_or_default();
            match finder.find(rest) {
                Some(i) => pos += i + finder.needle().len(),
                None => return false,
            }
        }
        match &self.last {
            Last::Anything => true,
            Last::Find(finder) => finder.find(path.get(pos..).unwrap_or_default()).is_some(),
            Last::Suffix(suffix) => path.len() >= pos + suffix.len() && path.ends_with(suffix),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn m(pattern: &str, path: &str) -> bool {
        Pattern::compile(pattern.as_bytes(), false).matches(path.as_bytes())
    }

    fn spec(pattern: &str) -> usize {
        Pattern::compile(pattern.as_bytes(), false).specificity()
    }

    #[test]
    fn empty_matches_nothing() {
        assert!(!m("", "/"));
        assert!(!m("", ""));
        assert_eq!(spec(""), 0);
    }

    #[test]
    fn prefix() {
        assert!(m("/", "/anything"));
        assert!(m("/fish", "/fish"));
        assert!(m("/fish", "/fish.html"));
        assert!(m("/fish", "/fishheads/yummy.html"));
        assert!(!m("/fish", "/Fish.asp"));
        assert!(!m("/fish", "/catfish"));
        assert!(!m("/fish", "/fis"));
    }

    #[test]
    fn star() {
        assert!(m("/fish*", "/fish"));
        assert!(m("/*.php", "/index.php"));
        assert!(m("/*.php", "/folder/filename.php?parameters"));
        assert!(m("/*.php", "/filename.php/"));
        assert!(!m("/*.php", "/windows.PHP"));
        assert!(m("/fish*.php", "/fish.php"));
        assert!(m("/fish*.php", "/fishheads/catfish.php?parameters"));
        assert!(!m("/fish*.php", "/Fish.PHP"));
        assert!(m("*", "/"));
        assert!(m("*", ""));
        assert!(m("/a**b", "/ab"));
        assert!(m("*.gif$", "/x/y.gif"));
    }

    #[test]
    fn dollar() {
        assert!(m("/*.php$", "/filename.php"));
        assert!(m("/*.php$", "/folder/filename.php"));
        assert!(!m("/*.php$", "/filename.php?parameters"));
        assert!(!m("/*.php$", "/filename.php/"));
        assert!(!m("/*.php$", "/filename.php5"));
        assert!(m("/$", "/"));
        assert!(!m("/$", "/a"));
        assert!(m("/a*$", "/abc"));
        assert!(!m("/*.pdf$", "/a.pdf?v=2"));
    }

    #[test]
    fn anchored_suffix_does_not_overlap_previous_segment() {
        // "/ab" then "b" at the end: "/ab" alone must not match.
        assert!(!m("/ab*b$", "/ab"));
        assert!(m("/ab*b$", "/abb"));
        assert!(!m("/a*bc*cd$", "/abcd"));
        assert!(m("/a*bc*cd$", "/abccd"));
    }

    #[test]
    fn dollar_not_at_end_is_literal() {
        assert!(m("/a$b", "/a$b"));
        assert!(!m("/a$b", "/ab"));
        assert!(m("/a$$", "/a$"));
        assert!(!m("/a$$", "/a$x"));
        assert_eq!(spec("/a$b"), 4);
    }

    #[test]
    fn encoded_specials_are_literals() {
        assert!(m("/path/foo-%24", "/path/foo-$"));
        assert!(m("/a%2A", "/a*"));
        assert!(!m("/a%2A", "/ab"));
        assert!(m("/a%2A*", "/a*xyz"));
        assert!(m("/a%24$", "/a$"));
        assert!(!m("/a%24$", "/a$b"));
    }

    #[test]
    fn specificity_counts_normalized_octets() {
        assert_eq!(spec("/"), 1);
        assert_eq!(spec("/fish*"), 6);
        assert_eq!(spec("/*.php$"), 7);
        assert_eq!(spec("/ツ"), 10);
        assert_eq!(spec("/%7A"), 2);
        assert_eq!(spec("/a%2A"), 3);
        assert_eq!(
            Pattern::compile(b"foo", true).specificity(),
            4,
            "prepended slash counts"
        );
    }

    #[test]
    fn prepend_slash() {
        let p = Pattern::compile(b"foo", true);
        assert!(p.matches(b"/foo/bar"));
        assert!(!Pattern::compile(b"foo", false).matches(b"/foo"));
    }

    #[test]
    fn non_ascii_patterns() {
        assert!(m("/ツ", "/%E3%83%84"));
        assert!(m("/%E3%83%84", "/%E3%83%84"));
        assert!(m("/%e3%83%84", "/%E3%83%84"));
    }

    #[test]
    fn many_stars_long_path() {
        let mut pattern = String::from("/");
        for _ in 0..50 {
            pattern.push_str("*a");
        }
        let mut path = String::from("/");
        path.push_str(&"a".repeat(10_000));
        path.push('b');
        assert!(m(&pattern, &path));
        pattern.push('$');
        assert!(!m(&pattern, &path));
    }

    /// Exponential reference matcher over tokens.
    #[derive(Debug, Clone, Copy)]
    enum Tok {
        Star,
        Lit(u8),
    }

    fn naive(p: &[Tok], anchored: bool, s: &[u8]) -> bool {
        match p.split_first() {
            None => !anchored || s.is_empty(),
            Some((Tok::Star, rest)) => (0..=s.len()).any(|i| naive(rest, anchored, &s[i..])),
            Some((Tok::Lit(c), rest)) => s.first() == Some(c) && naive(rest, anchored, &s[1..]),
        }
    }

    fn tokens(raw: &[u8]) -> (Vec<Tok>, bool) {
        let (body, anchored) = match raw.strip_suffix(b"$") {
            Some(b) => (b, true),
            None => (raw, false),
        };
        let toks = body
            .iter()
            .map(|&b| if b == b'*' { Tok::Star } else { Tok::Lit(b) })
            .collect();
        (toks, anchored)
    }

    proptest! {
        #[test]
        fn agrees_with_naive(
            pattern in proptest::collection::vec(prop_oneof![Just(b'/'), Just(b'a'), Just(b'b'), Just(b'*'), Just(b'$')], 1..8),
            path in proptest::collection::vec(prop_oneof![Just(b'/'), Just(b'a'), Just(b'b'), Just(b'$')], 0..12),
        ) {
            let (toks, anchored) = tokens(&pattern);
            let expected = naive(&toks, anchored, &path);
            prop_assert_eq!(Pattern::compile(&pattern, false).matches(&path), expected);
        }
    }
}
