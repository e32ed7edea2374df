//! Percent-encoding normalization of URL paths and rule patterns
//! (RFC 9309 §2.2.2, §2.2.3).
//!
//! Both sides of a comparison are brought to one form, octet by octet:
//!
//! * an octet `>= 0x80` becomes `%XX` (RFC 9309 §2.2.2: octets outside
//!   US-ASCII MUST be percent-encoded; requirement `2.2.2-ENCODE`), so `/ツ`
//!   and `/%E3%83%84` are the same;
//! * so does a space, which a URI never holds raw (RFC 3986 §2): an HTTP client
//!   sends `/a b` as `/a%20b`, so the two are the same path;
//! * a valid `%xx` escape gets upper-case hex digits (`%c3` is `%C3`), on both
//!   sides: RFC 9309 §2.2.2 percent-encodes "as defined by [RFC3986]", and
//!   RFC 3986 §2.1 says "If two URIs differ only in the case of hexadecimal
//!   digits used in percent-encoded octets, they are equivalent." (requirement
//!   `2.2.2-HEX-CASE`, question `Q-PCT-HEX-CASE`), so `/x%2fy` and `/x%2Fy`
//!   are one path, and a rule `/%e3` matches the URL `/ツ` (`/%E3%83%84`);
//! * an escape of an unreserved ASCII character (`A-Z a-z 0-9 - . _ ~`) is
//!   decoded: `/%62%61%7A` is `/baz`. In the URI, RFC 9309 §2.2.2 says so
//!   (`2.2.2-DECODE-UNRESERVED`); in a rule too, because a path-pattern is a
//!   "valid URI path pattern" (§2.2) and RFC 3986 §2.3 says "URIs that differ
//!   in the replacement of an unreserved character with its corresponding
//!   percent-encoded US-ASCII octet are equivalent" (`2.2.2-DECODE-RULE`,
//!   question `Q-PCT-DECODE-RULE`), so the rule `/%7Euser/` is `/~user/`;
//! * other valid escapes (reserved characters such as `%2F`, `%3F`) stay
//!   encoded;
//! * a reserved character of RFC 3986's generic syntax (`: / ? # [ ] @`)
//!   that is data where it stands is percent-encoded (RFC 9309 §2.2.2: reserved
//!   octets "MUST be percent-encoded", requirement `2.2.2-ENCODE-RESERVED`).
//!   Figure 4 row 2 shows which: `/foo/bar?baz=https://foo.bar` is matched as
//!   `/foo/bar?baz=https%3A%2F%2Ffoo.bar`. So `:` `@` `[` `]` are encoded
//!   anywhere, and `/` and `?` inside the query; the path's `/` separators and
//!   the `?` that opens the query delimit and stay, as do the sub-delimiters
//!   (`=` in the figure; `*` and `$` are handled below). `#` never gets here:
//!   it ends a URL's path and starts a comment in a rule;
//! * an invalid escape (`%zz`, a lone `%`) is kept literally.
//!
//! `%2A` and `%24` become the literal octets `*` and `$`, in rule patterns
//! and URL paths alike. In a pattern such a `*` or `$` is a literal, never
//! a wildcard or an anchor, and it matches a `*` / `$` in the URL whether
//! the URL wrote it plainly or as `%2A` / `%24` (RFC 9309 §2.2.3,
//! requirement `2.2.3-LITERAL`: `/path/foo-%24` matches `/path/foo-$`; and
//! `2.2.2-OCTETS`: identically encoded octets match). These two are the
//! only reserved characters decoded, and only because the pattern side
//! must decode them to tell them apart from wildcards.

use memchr::{memchr, memchr2, memchr3};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// RFC 3986 unreserved characters.
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Whether octet `b` is always percent-encoded: outside US-ASCII, or a space.
fn must_encode(b: u8) -> bool {
    b >= 0x80 || b == b' '
}

/// Whether `b` is a generic delimiter of RFC 3986 that is data where it stands
/// (before or after the `?` that opens the query), and so is percent-encoded.
fn is_data_delimiter(b: u8, in_query: bool) -> bool {
    matches!(b, b':' | b'@' | b'[' | b']') || (in_query && matches!(b, b'/' | b'?'))
}

fn push_escape(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
}

/// [`CLASS`] bit: an octet that is never in normal form as it stands (outside US-ASCII,
/// a space, `%`, or a generic delimiter that is data anywhere: `:` `@` `[` `]`).
const NOT_PLAIN: u8 = 1;
/// [`CLASS`] bit: `*`, a wildcard in a pattern.
const STAR: u8 = 2;
/// [`CLASS`] bit: `?`, which opens the query (the first) or is data (the others).
const QUERY: u8 = 4;
/// [`CLASS`] bit: `/`, a separator in the path, data in the query.
const SLASH: u8 = 8;
/// [`CLASS`] bit: `$`, which ends a pattern (RFC 9309 §2.2.3).
const DOLLAR: u8 = 16;

/// The octet classes of [`is_plain`], one table lookup per octet.
const CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let mut b = 0x80;
    while b < 256 {
        class[b] = NOT_PLAIN;
        b += 1;
    }
    let mut i = 0;
    let not_plain = b" %:@[]";
    while i < not_plain.len() {
        class[not_plain[i] as usize] = NOT_PLAIN;
        i += 1;
    }
    class[b'*' as usize] = STAR;
    class[b'?' as usize] = QUERY;
    class[b'/' as usize] = SLASH;
    class[b'$' as usize] = DOLLAR;
    class
};

/// Inputs up to this length are classified by [`CLASS`] in one pass; longer ones by
/// vectorized searches (`is_ascii`, `memchr`), which cost more to start but less per
/// octet.
const SHORT: usize = 64;

/// Whether `input` is already in normal form with no special octet, so it
/// can be copied as is (fast path).
fn is_plain(input: &[u8], pattern: bool) -> bool {
    // This runs on every pattern at parse and on every path at check.
    if input.len() <= SHORT {
        let mut reject = NOT_PLAIN | if pattern { STAR } else { 0 };
        for &b in input {
            let class = CLASS[usize::from(b)];
            if class & reject != 0 {
                return false;
            }
            if class & QUERY != 0 {
                // After the `?` that opens the query, `/` and `?` are data.
                reject |= QUERY | SLASH;
            }
        }
        return true;
    }
    input.is_ascii()
        && memchr3(b' ', b'%', b':', input).is_none()
        && memchr3(b'@', b'[', b']', input).is_none()
        && (!pattern || memchr(b'*', input).is_none())
        && memchr(b'?', input)
            .is_none_or(|q| memchr2(b'/', b'?', input.get(q + 1..).unwrap_or_default()).is_none())
}

/// A rule pattern as written, split at its first `$` (RFC 9309 §2.2.3, Figure 5: `$`
/// "Designates the end of the match pattern").
///
/// The `$` is read as the end of the path, wherever it stands: the pattern matches
/// only where the path ends at that point. What follows the `$` is still part of the
/// rule's path (§2.2.2: a match needs "the end of the path from the rule" to be
/// reached), and nothing can match after the end of the path but a `*` (zero octets) or
/// another `$`: `/a$*` is `/a$`, while `/a$b` or `/*$api` match no path at all. Where
/// the RFC leaves a `$` before the end of a pattern open (question `Q-DOLLAR-MID`),
/// this is the strict reading: it neither drops octets of the rule (`/a$b` as `/a$`)
/// nor takes the special character `$` for an ordinary octet (`%24` is that).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PatternBody<'a> {
    /// The octets before the first `$` (all of them without one).
    pub(crate) body: &'a [u8],
    /// Whether there was a `$`: the pattern is anchored at the end of the path.
    pub(crate) anchored: bool,
    /// The octets from the first `$` to the end (the `$` included; 0 without one).
    pub(crate) tail: usize,
    /// Whether an octet other than `*` and `$` follows the first `$`: it would have to
    /// match after the end of the path, so the pattern matches no path.
    pub(crate) void: bool,
    /// Whether `body` is already normal and has no wildcard, so its octets can be used
    /// as written ([`is_plain`]).
    pub(crate) plain: bool,
}

/// Splits `raw` at its first `$` and tells whether the rest is plain, in one pass over a
/// short pattern (most are), else with vectorized searches.
pub(crate) fn pattern_body(raw: &[u8]) -> PatternBody<'_> {
    if raw.len() <= SHORT {
        // One pass: the classes of the body's octets, or-ed, up to the first `$`.
        let mut classes = 0;
        let mut end = raw.len();
        for (i, &b) in raw.iter().enumerate() {
            if b == b'$' {
                end = i;
                break;
            }
            classes |= CLASS[usize::from(b)];
        }
        let body = raw.get(..end).unwrap_or_default();
        // Only a body with a `?` needs a second look, at its query.
        let plain =
            classes & (NOT_PLAIN | STAR) == 0 && (classes & QUERY == 0 || is_plain(body, true));
        return split(raw, body, plain);
    }
    let body = match memchr(b'$', raw) {
        Some(end) => raw.get(..end).unwrap_or_default(),
        None => raw,
    };
    split(raw, body, is_plain(body, true))
}

/// The [`PatternBody`] of `raw` whose octets before the first `$` are `body`.
fn split<'a>(raw: &'a [u8], body: &'a [u8], plain: bool) -> PatternBody<'a> {
    let tail = raw.get(body.len()..).unwrap_or_default();
    PatternBody {
        body,
        anchored: !tail.is_empty(),
        tail: tail.len(),
        void: tail.iter().any(|&b| b != b'$' && b != b'*'),
        plain,
    }
}

/// The longest prefix of a rule pattern as written whose octets are their own normal
/// form and no wildcard, anchor or escape (before any `?`: none of `%` `*` `$` `?`, no
/// octet that [`normalize`] encodes). The normalized pattern starts with these octets
/// and they come before its first `*`, so a path that does not start with them cannot
/// match (RFC 9309 §2.2.2: a pattern matches from the first octet of the path).
pub(crate) fn literal_lead(raw: &[u8]) -> &[u8] {
    let end = raw
        .iter()
        .position(|&b| CLASS[usize::from(b)] & (NOT_PLAIN | STAR | QUERY | DOLLAR) != 0)
        .unwrap_or(raw.len());
    raw.get(..end).unwrap_or_default()
}

/// Whether a URL path is already in normal form (it can be used as is).
pub(crate) fn path_is_plain(input: &[u8]) -> bool {
    is_plain(input, false)
}

/// Normalizes a URL path (path + query) into `out` (appended).
///
/// Callers test [`path_is_plain`] first where it saves the copy; a plain input comes
/// out unchanged either way.
pub(crate) fn normalize_path_into(input: &[u8], out: &mut Vec<u8>) {
    normalize(input, out, None);
}

/// Normalizes a rule pattern (without its anchoring `$`) into `out`
/// (appended). The position in `out` of each wildcard `*` is pushed onto
/// `stars`; a `*` that came from `%2A` is a literal and is not recorded.
///
/// Callers test plainness first ([`pattern_body`]); a plain input comes out
/// unchanged either way.
pub(crate) fn normalize_pattern_into(input: &[u8], out: &mut Vec<u8>, stars: &mut Vec<usize>) {
    normalize(input, out, Some(stars));
}

fn normalize(input: &[u8], out: &mut Vec<u8>, mut stars: Option<&mut Vec<usize>>) {
    let pattern = stars.is_some();
    out.reserve(input.len() + 8);
    let mut in_query = false;
    // The octets that end a run of ordinary ones: those never plain (to encode, `%`, the
    // data delimiters), `?`, `*` in a pattern, and `/` once in the query.
    let mut special = NOT_PLAIN | QUERY | if pattern { STAR } else { 0 };
    let mut rest = input;
    loop {
        // Copy the run of ordinary octets in one go.
        let run = rest
            .iter()
            .position(|&b| CLASS[usize::from(b)] & special != 0)
            .unwrap_or(rest.len());
        out.extend_from_slice(&rest[..run]);
        let Some((&b, tail)) = rest[run..].split_first() else {
            return;
        };
        rest = tail;
        if must_encode(b) || is_data_delimiter(b, in_query) {
            push_escape(out, b);
        } else if b == b'?' {
            // The first `?` opens the query.
            in_query = true;
            special |= SLASH;
            out.push(b);
        } else if b == b'*' {
            if let Some(stars) = stars.as_mut() {
                stars.push(out.len());
            }
            out.push(b);
        } else {
            // b == b'%'
            let escape = match rest {
                [h, l, ..] => hex_value(*h).zip(hex_value(*l)).map(|(h, l)| h << 4 | l),
                _ => None,
            };
            match escape {
                Some(v) => {
                    rest = rest.get(2..).unwrap_or_default();
                    if is_unreserved(v) || v == b'*' || v == b'$' {
                        out.push(v);
                    } else {
                        push_escape(out, v);
                    }
                }
                None => out.push(b'%'),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raw_space_is_the_same_as_percent_20_on_both_sides() {
        assert_eq!(path(b"/a b"), b"/a%20b");
        assert_eq!(path(b"/a%20b"), b"/a%20b");
        assert_eq!(pattern(b"/a b").0, b"/a%20b");
    }

    fn path(s: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        normalize_path_into(s, &mut out);
        out
    }

    fn pattern(s: &[u8]) -> (Vec<u8>, Vec<usize>) {
        let mut out = Vec::new();
        let mut stars = Vec::new();
        normalize_pattern_into(s, &mut out, &mut stars);
        (out, stars)
    }

    #[test]
    fn non_ascii_is_encoded_uppercase() {
        assert_eq!(path("/ツ".as_bytes()), b"/%E3%83%84");
        assert_eq!(path(b"/\xff"), b"/%FF");
        assert_eq!(pattern("/ツ".as_bytes()).0, b"/%E3%83%84");
    }

    #[test]
    fn hex_is_uppercased() {
        assert_eq!(path(b"/%e3%83%84"), b"/%E3%83%84");
        assert_eq!(path(b"/a%2fb"), b"/a%2Fb");
    }

    #[test]
    fn unreserved_is_decoded() {
        assert_eq!(path(b"/%62%61%7A"), b"/baz");
        assert_eq!(path(b"/%41%2D%2e%5F%7e%30"), b"/A-._~0");
        assert_eq!(pattern(b"/%62%61%7a").0, b"/baz");
    }

    #[test]
    fn reserved_stays_encoded_and_unencoded() {
        assert_eq!(path(b"/a%2Fb%3Fc"), b"/a%2Fb%3Fc");
        assert_eq!(path(b"/a?b=c&d=%2Fe%3Af"), b"/a?b=c&d=%2Fe%3Af");
        assert_eq!(path(b"/%25"), b"/%25");
    }

    #[test]
    fn reserved_octets_are_encoded_as_rfc_figure_4_row_2() {
        // RFC 9309 §2.2.2, Figure 4 row 2: `/foo/bar?baz=https://foo.bar` is matched as
        // `/foo/bar?baz=https%3A%2F%2Ffoo.bar`, on both sides of the comparison.
        let encoded = b"/foo/bar?baz=https%3A%2F%2Ffoo.bar";
        assert_eq!(path(b"/foo/bar?baz=https://foo.bar"), encoded);
        assert_eq!(path(encoded), encoded);
        assert_eq!(pattern(b"/foo/bar?baz=https://foo.bar").0, encoded);
        // The other generic delimiters are data too; the path's `/`, the `?` that opens
        // the query and the sub-delimiters stay as they are.
        assert_eq!(path(b"/a:b@c[d]"), b"/a%3Ab%40c%5Bd%5D");
        assert_eq!(path(b"/a/b?c?d@e"), b"/a/b?c%3Fd%40e");
        assert_eq!(path(b"/a?b=c&d=!$'()*+,;"), b"/a?b=c&d=!$'()*+,;");
        assert_eq!(
            pattern(b"/*?*x=a/b*"),
            (b"/*?*x=a%2Fb*".to_vec(), vec![1, 3, 11])
        );
    }

    #[test]
    fn invalid_escapes_are_literal() {
        assert_eq!(path(b"/%zz"), b"/%zz");
        assert_eq!(path(b"/%"), b"/%");
        assert_eq!(path(b"/%4"), b"/%4");
        assert_eq!(path(b"/%%41"), b"/%A");
        assert_eq!(path(b"/%4g"), b"/%4g");
    }

    #[test]
    fn star_and_dollar_escapes_in_paths_are_decoded() {
        assert_eq!(path(b"/a%2A%24"), b"/a*$");
        assert_eq!(path(b"/a%2a%24x"), b"/a*$x");
        assert_eq!(path(b"/a*$"), b"/a*$");
    }

    #[test]
    fn star_and_dollar_escapes_in_patterns_are_literals() {
        assert_eq!(pattern(b"/a%2A"), (b"/a*".to_vec(), vec![]));
        assert_eq!(pattern(b"/a%2a%24"), (b"/a*$".to_vec(), vec![]));
        assert_eq!(pattern(b"/a*b%2A*"), (b"/a*b**".to_vec(), vec![2, 5]));
        assert_eq!(pattern(b"*"), (b"*".to_vec(), vec![0]));
    }

    #[test]
    fn stars_positions_after_expansion() {
        assert_eq!(
            pattern("/ツ*".as_bytes()),
            (b"/%E3%83%84*".to_vec(), vec![10])
        );
    }

    #[test]
    fn plain_input_is_copied() {
        assert_eq!(path(b"/plain/path?q=1"), b"/plain/path?q=1");
        assert_eq!(pattern(b"/x$y"), (b"/x$y".to_vec(), vec![]));
    }

    #[test]
    fn pattern_body_cuts_at_the_first_dollar() {
        let cut = |raw: &[u8]| {
            let b = pattern_body(raw);
            (b.body.to_vec(), b.anchored, b.plain)
        };
        assert_eq!(cut(b"/a$b$"), (b"/a".to_vec(), true, true));
        assert_eq!(cut(b"/*.pdf$"), (b"/*.pdf".to_vec(), true, false));
        assert_eq!(cut(b"/x?y/z"), (b"/x?y/z".to_vec(), false, false));
        assert_eq!(cut(b"$"), (Vec::new(), true, true));
        assert_eq!(cut(b"/a%2A"), (b"/a%2A".to_vec(), false, false));
        let mut long = vec![b'a'; SHORT];
        long.extend_from_slice(b"$*");
        assert_eq!(cut(&long), (vec![b'a'; SHORT], true, true));
    }

    #[test]
    fn octets_after_the_first_dollar_void_the_pattern_unless_special() {
        // RFC 9309 §2.2.3: `$` is the end of the path; after it only `*` (zero octets)
        // and `$` can match, any other octet never.
        let tail = |raw: &[u8]| {
            let b = pattern_body(raw);
            (b.tail, b.void)
        };
        assert_eq!(tail(b"/a"), (0, false));
        assert_eq!(tail(b"/a$"), (1, false));
        assert_eq!(tail(b"/a$*$*"), (4, false));
        assert_eq!(tail(b"/a$b"), (2, true));
        assert_eq!(tail(b"/*$api"), (4, true));
        assert_eq!(
            tail(b"/a$%2A"),
            (4, true),
            "an escaped `*` is a literal octet"
        );
        let mut long = vec![b'a'; SHORT];
        long.extend_from_slice(b"$*x");
        assert_eq!(tail(&long), (3, true));
    }

    #[test]
    fn short_and_long_inputs_are_classified_alike() {
        let octets = b"/a?*%: @[]\x80\xff-x";
        // Every string of up to 4 of these octets, padded past SHORT so that the long
        // path classifies it too.
        let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let next: Vec<Vec<u8>> = inputs
                .iter()
                .flat_map(|s| {
                    octets.iter().map(move |&b| {
                        let mut t = s.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            inputs.extend(next);
        }
        for input in inputs {
            for pattern in [false, true] {
                let mut long = vec![b'a'; SHORT];
                long.extend_from_slice(&input);
                let mut long_front = input.clone();
                long_front.extend(std::iter::repeat_n(b'a', SHORT));
                assert_eq!(
                    is_plain(&long, pattern),
                    is_plain(&input, pattern),
                    "{input:?}"
                );
                assert_eq!(
                    is_plain(&long_front, pattern),
                    is_plain(&input, pattern),
                    "{input:?}"
                );
            }
            // The one-pass cut of a short pattern and the searches of a long one agree.
            let short = pattern_body(&input);
            let mut long = vec![b'a'; SHORT];
            long.extend_from_slice(&input);
            let long = pattern_body(&long);
            assert_eq!(short.anchored, long.anchored, "{input:?}");
            assert_eq!(
                (short.tail, short.void),
                (long.tail, long.void),
                "{input:?}"
            );
            assert_eq!(short.plain, long.plain, "{input:?}");
            assert_eq!(short.body, &long.body[SHORT..], "{input:?}");
            // Normalizing a plain input leaves it as it is.
            if short.plain {
                assert_eq!(
                    pattern(short.body),
                    (short.body.to_vec(), vec![]),
                    "{input:?}"
                );
            }
            if is_plain(&input, false) {
                assert_eq!(path(&input), input, "{input:?}");
            }
        }
    }

    #[test]
    fn literal_lead_stops_before_what_normalization_or_wildcards_change() {
        fn lead(raw: &str) -> &str {
            std::str::from_utf8(literal_lead(raw.as_bytes())).unwrap_or("not UTF-8")
        }
        assert_eq!(lead("/a/b.html"), "/a/b.html");
        assert_eq!(lead("/a*b"), "/a");
        assert_eq!(lead("/a$"), "/a");
        assert_eq!(lead("/a%62"), "/a");
        assert_eq!(lead("/a?b/c"), "/a");
        assert_eq!(lead("/a b"), "/a");
        assert_eq!(lead("/a:b"), "/a");
        assert_eq!(lead("/\u{e9}"), "/");
        assert_eq!(lead("*x"), "");
        assert_eq!(lead(""), "");
        // Each lead is a prefix of the normal form.
        for raw in [
            "/a/b.html",
            "/a%62c",
            "/a?b/c",
            "/a b",
            "/a:b",
            "/\u{e9}x",
            "/~x=y,z",
        ] {
            let mut out = Vec::new();
            normalize_pattern_into(raw.as_bytes(), &mut out, &mut Vec::new());
            assert!(out.starts_with(literal_lead(raw.as_bytes())), "{raw}");
        }
    }

    #[test]
    fn unreserved_table() {
        for b in 0u8..=255 {
            let expected = b.is_ascii_alphanumeric() || b"-._~".contains(&b);
            assert_eq!(is_unreserved(b), expected, "{b}");
        }
    }
}
