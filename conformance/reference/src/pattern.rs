//! Compiled rule patterns and the matcher (RFC 9309 §2.2.2, §2.2.3).
//!
//! A pattern is normalized (see [`crate::encode`]), then split at its
//! wildcard `*`s into literal segments:
//!
//! * `*` matches zero or more of any octet, anywhere (RFC 9309 §2.2.3,
//!   `2.2.3-STAR`); `**` is the same as `*`;
//! * `$` "Designates the end of the match pattern" (RFC 9309 §2.2.3,
//!   `2.2.3-DOLLAR`): it matches the end of the path, so a pattern with a `$`
//!   is anchored there. Octets written after the first `$` are still part of
//!   the rule, and only `*` (zero octets) and `$` can match after the end of
//!   the path: `/a$*` is `/a$`, while `/a$b` matches no path (the strict
//!   reading of a `$` before the end, which the RFC leaves open; see
//!   [`crate::encode::PatternBody`]). A literal `$` is written `%24`;
//! * without wildcards a pattern is a prefix match from the first octet of
//!   the path (RFC 9309 §2.2.2, `2.2.2-PREFIX`, `2.2.2-OCTETS`), case
//!   sensitive (`2.2.2-CASE`);
//! * an empty pattern matches nothing (RFC 9309 §2.2, `2.2-EMPTY-PATTERN`).
//!
//! Matching never backtracks: the first segment must be a prefix of the
//! path, each further segment is searched leftmost after the end of the
//! previous one, and with `$` the last segment must sit at the very end of
//! the path, no earlier than the end of the previous segment. Placing every
//! segment leftmost leaves the most room for the rest, so this greedy search
//! finds a match whenever one exists, in time linear in the path length per
//! segment: a segment of up to [`SHORT_NEEDLE`] octets is searched by its first
//! octet (`memchr`) and compared where it occurs (at most that many comparisons
//! per position, and nothing to build at parse time); a longer one with a
//! `memchr::memmem` finder built once.
//!
//! Specificity (RFC 9309 §2.2.2, `2.2.2-LONGEST`) is the number of octets of
//! the normalized pattern, every `*` and `$` included.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use memchr::memchr;
use memchr::memmem::Finder;

use crate::encode::{normalize_pattern_into, pattern_body, PatternBody};

/// A range of octets in a [`Store`]'s text arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Span {
    start: usize,
    end: usize,
}

impl Span {
    /// The octets of this span in `text` (empty if out of range, which
    /// cannot happen for spans made by the same [`Store`]).
    pub(crate) fn get(self, text: &[u8]) -> &[u8] {
        text.get(self.start..self.end).unwrap_or_default()
    }

    fn len(self) -> usize {
        self.end - self.start
    }
}

/// A compiled pattern: a small handle into the [`Store`] that compiled it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pattern {
    specificity: usize,
    /// The first octets the path must start with, for [`Pattern::may_match`].
    lead: Lead,
    matcher: Matcher,
}

/// Up to the first 8 octets of a pattern's leading literal (before any `*`), packed
/// into a word with the mask of the octets it has: a path that does not start with
/// them cannot match (RFC 9309 §2.2.2: a pattern matches from the first octet of the
/// path), so most rules are ruled out by one comparison instead of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Lead {
    octets: u64,
    mask: u64,
}

impl Lead {
    fn of(literal: &[u8]) -> Lead {
        let n = literal.len().min(8);
        Lead {
            octets: PathLead::of(literal).0,
            mask: if n == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * n)) - 1
            },
        }
    }
}

/// The first 8 octets of a normalized path (zero-padded), computed once per check and
/// compared with each rule's lead ([`Pattern::may_match`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathLead(u64);

impl PathLead {
    /// The lead of `path`.
    pub(crate) fn of(path: &[u8]) -> PathLead {
        // One load for the usual path of 8 octets or more; no `memcpy` call.
        if let Some(word) = path.first_chunk::<8>() {
            return PathLead(u64::from_le_bytes(*word));
        }
        let mut word = 0;
        for (i, &b) in path.iter().enumerate() {
            word |= u64::from(b) << (8 * i);
        }
        PathLead(word)
    }
}

#[derive(Debug, Clone, Copy)]
enum Matcher {
    /// The empty pattern: matches nothing.
    Never,
    /// No wildcard, no anchor: the path must start with these octets.
    Prefix(Span),
    /// No wildcard, anchored: the path must be exactly these octets.
    Exact(Span),
    /// At least one wildcard: index into [`Store::wilds`].
    Wild(usize),
}

#[derive(Debug, Clone, Copy)]
struct Wild {
    /// Literal before the first `*`: a prefix of the path.
    first: Span,
    /// Non-empty literals between two `*`s, searched leftmost in order:
    /// a range of [`Store::segments`].
    middle_start: usize,
    middle_end: usize,
    /// The literal after the last `*`.
    last: Last,
}

/// Segments up to this many octets are searched without a prebuilt finder
/// ([`Needle::Short`]).
pub(crate) const SHORT_NEEDLE: usize = 8;

/// A literal segment between wildcards, as searched.
#[derive(Debug, Clone, Copy)]
enum Needle {
    /// At most [`SHORT_NEEDLE`] octets: found by its first octet, then compared.
    Short(Span),
    /// Longer: index into [`Store::finders`].
    Long(usize),
}

#[derive(Debug, Clone, Copy)]
enum Last {
    /// Pattern ends with `*` (or `*` then `$`): anything may follow.
    Anything,
    /// Not anchored: must occur somewhere after the previous segment.
    Find(Needle),
    /// Anchored with `$`: must be a suffix, not overlapping the previous
    /// segment.
    Suffix(Span),
}

/// Owns everything the compiled patterns of one file refer to, in a few
/// flat vectors (a handful of allocations per file instead of several per
/// rule): the pattern octets as written and normalized, the substring
/// searchers of wildcard segments, and the wildcard pattern layouts.
#[derive(Debug, Clone, Default)]
pub(crate) struct Store {
    text: Vec<u8>,
    /// Substring searchers, one per distinct long segment.
    finders: Vec<Finder<'static>>,
    /// Middle segments of wildcard patterns.
    segments: Vec<Needle>,
    wilds: Vec<Wild>,
    /// Scratch space for wildcard positions while compiling.
    stars: Vec<usize>,
    /// While compiling: finder index by needle hash, so that a segment that
    /// recurs (files often repeat rules across groups) shares one finder.
    finder_index: HashMap<u64, usize, BuildHasherDefault<Fnv>>,
}

/// FNV-1a: a tiny, fast hash for short needles. Collisions are harmless:
/// a hit is only used after comparing the needles.
#[derive(Debug, Clone, Copy)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// How many distinct segment finders a store compares one by one before it indexes
/// them by hash ([`Store::finder`]).
const LINEAR_FINDERS: usize = 16;

/// The FNV-1a hash of `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    let mut hasher = Fnv::default();
    hasher.write(bytes);
    hasher.finish()
}

impl Store {
    /// A store with room for `text` octets and `wilds` wildcard patterns.
    pub(crate) fn with_capacity(text: usize, wilds: usize) -> Store {
        Store {
            text: Vec::with_capacity(text),
            finders: Vec::with_capacity(wilds),
            segments: Vec::new(),
            wilds: Vec::with_capacity(wilds),
            stars: Vec::new(),
            finder_index: HashMap::default(),
        }
    }

    /// The text arena, for [`Span::get`].
    pub(crate) fn text(&self) -> &[u8] {
        &self.text
    }

    /// Appends `bytes` to the text arena and returns their span.
    pub(crate) fn push_text(&mut self, bytes: &[u8]) -> Span {
        let start = self.text.len();
        self.text.extend_from_slice(bytes);
        Span {
            start,
            end: self.text.len(),
        }
    }

    /// Releases scratch space and excess capacity once parsing is done.
    pub(crate) fn finish(&mut self) {
        self.stars = Vec::new();
        self.finder_index = HashMap::default();
        if self.text.capacity() > 2 * self.text.len() + 4096 {
            self.text.shrink_to_fit();
        }
    }

    /// Empties the store, keeping its allocations: a store that compiles one pattern at
    /// a time ([`crate::once`]) reuses them for the next.
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.finders.clear();
        self.segments.clear();
        self.wilds.clear();
        self.stars.clear();
        self.finder_index.clear();
    }

    /// Compiles a pattern as written in the file. With `prepend_slash`, a
    /// `/` is put in front first ([`crate::PatternWithoutSlash::PrependSlash`]).
    /// Returns the span of the pattern as written, and the pattern.
    pub(crate) fn compile(&mut self, raw: &[u8], prepend_slash: bool) -> (Span, Pattern) {
        let written = self.push_text(raw);
        if raw.is_empty() {
            let never = Pattern {
                specificity: 0,
                lead: Lead::default(),
                matcher: Matcher::Never,
            };
            return (written, never);
        }
        let PatternBody {
            body,
            anchored,
            tail,
            void,
            plain,
        } = pattern_body(raw);
        if void {
            // Octets after a `$` would have to match past the end of the path.
            let never = Pattern {
                specificity: 0,
                lead: Lead::default(),
                matcher: Matcher::Never,
            };
            return (written, never);
        }
        self.stars.clear();
        let normalized = if !prepend_slash && plain {
            // Already normal and wildcard-free: reuse the written octets.
            Span {
                start: written.start,
                end: written.start + body.len(),
            }
        } else {
            let start = self.text.len();
            if prepend_slash {
                self.text.push(b'/');
            }
            normalize_pattern_into(body, &mut self.text, &mut self.stars);
            Span {
                start,
                end: self.text.len(),
            }
        };
        // The `$` and any `*` or `$` after it count as written (none of them is encoded).
        let specificity = normalized.len() + tail;
        let literal_end = self.stars.first().copied().unwrap_or(normalized.end);
        let lead = Lead::of(
            self.text
                .get(normalized.start..literal_end)
                .unwrap_or_default(),
        );
        let matcher = match (self.stars.is_empty(), anchored) {
            (true, false) => Matcher::Prefix(normalized),
            (true, true) => Matcher::Exact(normalized),
            (false, _) => self.compile_wild(normalized, anchored),
        };
        let pattern = Pattern {
            specificity,
            lead,
            matcher,
        };
        (written, pattern)
    }

    /// Splits a normalized pattern at its wildcards (positions in
    /// `self.stars`, absolute in the arena) into segments.
    fn compile_wild(&mut self, normalized: Span, anchored: bool) -> Matcher {
        let first_star = self.stars.first().copied().unwrap_or(normalized.end);
        let last_star = self.stars.last().copied().unwrap_or(normalized.start);
        let first = Span {
            start: normalized.start,
            end: first_star,
        };
        let middle_start = self.segments.len();
        let stars = std::mem::take(&mut self.stars);
        for pair in stars.windows(2) {
            let segment = Span {
                start: pair[0] + 1,
                end: pair[1],
            };
            if segment.len() > 0 {
                let needle = self.needle(segment);
                self.segments.push(needle);
            }
        }
        self.stars = stars;
        let middle_end = self.segments.len();
        let tail = Span {
            start: last_star + 1,
            end: normalized.end,
        };
        let last = if tail.len() == 0 {
            Last::Anything
        } else if anchored {
            Last::Suffix(tail)
        } else {
            Last::Find(self.needle(tail))
        };
        self.wilds.push(Wild {
            first,
            middle_start,
            middle_end,
            last,
        });
        Matcher::Wild(self.wilds.len() - 1)
    }

    /// How the segment `span` is searched.
    fn needle(&mut self, span: Span) -> Needle {
        if span.len() <= SHORT_NEEDLE {
            Needle::Short(span)
        } else {
            Needle::Long(self.finder(span))
        }
    }

    /// Where the first occurrence of `needle` in `haystack` ends.
    fn find(&self, needle: Needle, haystack: &[u8]) -> Option<usize> {
        match needle {
            Needle::Short(span) => {
                let bytes = span.get(&self.text);
                let (&first, rest) = bytes.split_first()?;
                let mut from = 0;
                while let Some(i) = memchr(first, haystack.get(from..)?) {
                    let at = from + i;
                    if haystack.get(at + 1..)?.starts_with(rest) {
                        return Some(at + bytes.len());
                    }
                    from = at + 1;
                }
                None
            }
            Needle::Long(i) => {
                let finder = self.finders.get(i)?;
                finder.find(haystack).map(|at| at + finder.needle().len())
            }
        }
    }

    /// The index in `self.finders` of a finder for the octets of `needle`,
    /// built unless an equal needle already has one. Up to [`LINEAR_FINDERS`] finders
    /// are compared one by one (no hash, no map for the usual file); beyond, they are
    /// looked up by hash.
    fn finder(&mut self, needle: Span) -> usize {
        let bytes = needle.get(&self.text);
        let found = if self.finders.len() <= LINEAR_FINDERS {
            self.finders.iter().position(|f| f.needle() == bytes)
        } else {
            if self.finder_index.is_empty() {
                let index = self
                    .finders
                    .iter()
                    .enumerate()
                    .map(|(i, f)| (fnv(f.needle()), i))
                    .collect();
                self.finder_index = index;
            }
            self.finder_index
                .get(&fnv(bytes))
                .copied()
                .filter(|&i| self.finders.get(i).is_some_and(|f| f.needle() == bytes))
        };
        if let Some(i) = found {
            return i;
        }
        self.finders.push(Finder::new(bytes).into_owned());
        let i = self.finders.len() - 1;
        if !self.finder_index.is_empty() {
            self.finder_index.insert(fnv(bytes), i);
        }
        i
    }

    /// Whether `pattern` (compiled by this store) matches a normalized path.
    pub(crate) fn matches(&self, pattern: &Pattern, path: &[u8]) -> bool {
        match pattern.matcher {
            Matcher::Never => false,
            Matcher::Prefix(p) => path.starts_with(p.get(&self.text)),
            Matcher::Exact(p) => path == p.get(&self.text),
            Matcher::Wild(i) => self
                .wilds
                .get(i)
                .is_some_and(|w| self.wild_matches(w, path)),
        }
    }

    fn wild_matches(&self, wild: &Wild, path: &[u8]) -> bool {
        let first = wild.first.get(&self.text);
        if !path.starts_with(first) {
            return false;
        }
        let mut pos = first.len();
        let middle = self
            .segments
            .get(wild.middle_start..wild.middle_end)
            .unwrap_or_default();
        for &needle in middle {
            let rest = path.get(pos..).unwrap_or_default();
            match self.find(needle, rest) {
                Some(end) => pos += end,
                None => return false,
            }
        }
        match wild.last {
            Last::Anything => true,
            Last::Find(needle) => self
                .find(needle, path.get(pos..).unwrap_or_default())
                .is_some(),
            Last::Suffix(suffix) => {
                let suffix = suffix.get(&self.text);
                path.len() >= pos + suffix.len() && path.ends_with(suffix)
            }
        }
    }
}

impl Pattern {
    /// The number of octets of the normalized pattern (RFC 9309 §2.2.2).
    pub(crate) fn specificity(&self) -> usize {
        self.specificity
    }

    /// `false` when a path with this lead cannot match (its first octets differ from
    /// the pattern's leading literal); `true` means [`Store::matches`] decides.
    pub(crate) fn may_match(&self, path: PathLead) -> bool {
        path.0 & self.lead.mask == self.lead.octets
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn compile(pattern: &[u8], prepend: bool) -> (Store, Pattern) {
        let mut store = Store::default();
        // Other patterns in the store already, so indices do not start at 0.
        store.push_text(b"junk");
        store.compile(b"/x*y*z", false);
        let (written, p) = store.compile(pattern, prepend);
        assert_eq!(written.get(store.text()), pattern);
        (store, p)
    }

    fn m(pattern: &str, path: &str) -> bool {
        let (store, p) = compile(pattern.as_bytes(), false);
        let matched = store.matches(&p, path.as_bytes());
        if matched {
            assert!(
                p.may_match(PathLead::of(path.as_bytes())),
                "{pattern} {path}"
            );
        }
        matched
    }

    fn spec(pattern: &str) -> usize {
        compile(pattern.as_bytes(), false).1.specificity()
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
    fn dollar_is_the_end_of_the_path_wherever_it_stands() {
        // RFC 9309 §2.2.3, Figure 5: `$` "Designates the end of the match pattern"; §2.2.2:
        // a match needs "the end of the path from the rule" to be reached. After a `$`
        // only `*` (zero octets) and `$` match, so `/a$b` matches no path, and `/a$*` is
        // `/a$`. (This test used to assert the old reading, `/a$b` as `/a$`, which drops
        // the rule's `b`; the RFC leaves the choice open, question Q-DOLLAR-MID.)
        assert!(!m("/a$b", "/a"));
        assert!(!m("/a$b", "/a$b"));
        assert!(!m("/a$b", "/ab"));
        assert!(
            !m("/*$api", "/"),
            "not every path: no octet matches after the end"
        );
        assert!(!m("/*$api", "/x$api"));
        assert!(m("/a$$", "/a"));
        assert!(!m("/a$$", "/a$"));
        assert!(m("/a$*", "/a"));
        assert!(!m("/a$*", "/ab"));
        assert!(m("/a*$*", "/abc"));
        assert!(!m("/*.gif$.bak", "/x.gif"));
        assert!(!m("/*.gif$.bak", "/x.gif.bak"));
        assert_eq!(spec("/a$*"), 4, "the `$` and the `*` after it count");
        assert_eq!(spec("/a$$"), 4);
    }

    fn mp(pattern: &str, path: &str) -> bool {
        let mut normalized = Vec::new();
        crate::encode::normalize_path_into(path.as_bytes(), &mut normalized);
        let (store, p) = compile(pattern.as_bytes(), false);
        store.matches(&p, &normalized)
    }

    #[test]
    fn encoded_specials_match_plain_and_encoded_urls() {
        assert!(mp("/path/file-with-a-%2A.html", "/path/file-with-a-*.html"));
        assert!(mp(
            "/path/file-with-a-%2A.html",
            "/path/file-with-a-%2A.html"
        ));
        assert!(mp(
            "/path/file-with-a-%2A.html",
            "/path/file-with-a-%2a.html"
        ));
        assert!(!mp(
            "/path/file-with-a-%2A.html",
            "/path/file-with-a-x.html"
        ));
        assert!(mp("/path/foo-%24", "/path/foo-$"));
        assert!(mp("/path/foo-%24", "/path/foo-%24"));
        assert!(mp("/path/foo-%24", "/path/foo-$bar"));
        assert!(!mp("/path/foo-%24", "/path/foo-"));
        assert!(mp("/*%2A$", "/note*"));
        assert!(mp("/*%2A$", "/note%2A"));
        assert!(!mp("/*%2A$", "/note*s"));
        assert!(mp("/a%24b", "/a$b"));
        assert!(!mp("/a$b", "/a%24b"), "a raw `$` is the end of the path");
        assert!(!mp("/a$b", "/a$b"), "a raw `$` is the end of the path");
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
            compile(b"foo", true).1.specificity(),
            4,
            "prepended slash counts"
        );
    }

    #[test]
    fn leads_rule_out_only_paths_that_cannot_match() {
        let may = |pattern: &str, path: &str| {
            let (_, p) = compile(pattern.as_bytes(), false);
            p.may_match(PathLead::of(path.as_bytes()))
        };
        assert!(may("/private/x", "/private/x/y"));
        assert!(!may("/private/x", "/public/x"));
        assert!(
            may("/private/x", "/private"),
            "a short path is left to the matcher"
        );
        assert!(!may("/a", "/b"));
        assert!(may("*.gif", "/b"), "no leading literal");
        assert!(may("/a*b", "/a"));
        assert!(!may("/a*b", "/b"));
        assert!(may("/ab$", "/abc"));
        assert!(may("/%7A", "/z"), "compared normalized");
        assert!(
            !may("/%7A", "/%7A"),
            "the path is normalized before the check"
        );
    }

    #[test]
    fn prepend_slash() {
        let (store, p) = compile(b"foo", true);
        assert!(store.matches(&p, b"/foo/bar"));
        let (store, p) = compile(b"foo", false);
        assert!(!store.matches(&p, b"/foo"));
    }

    #[test]
    fn non_ascii_patterns() {
        assert!(m("/ツ", "/%E3%83%84"));
        assert!(m("/%E3%83%84", "/%E3%83%84"));
        assert!(m("/%e3%83%84", "/%E3%83%84"));
    }

    #[test]
    fn recurring_segments_share_finders() {
        let mut store = Store::default();
        // Segments longer than SHORT_NEEDLE get a finder; short ones none.
        let (_, a) = store.compile(b"/a*xxxxxxxxx*yyyyyyyyyz*x*", false);
        let (_, b) = store.compile(b"/b*yyyyyyyyyz*xxxxxxxxx", false);
        let (_, c) = store.compile(b"/c*xxxxxxxxx$", false);
        assert_eq!(
            store.finders.len(),
            2,
            "the two long segments, each built once"
        );
        assert!(store.matches(&a, b"/a-xxxxxxxxx-yyyyyyyyyz-x"));
        assert!(!store.matches(&a, b"/a-yyyyyyyyyz-xxxxxxxxx"));
        assert!(store.matches(&b, b"/b-yyyyyyyyyz-xxxxxxxxx"));
        assert!(!store.matches(&b, b"/b-xxxxxxxxx-yyyyyyyyyz"));
        assert!(store.matches(&c, b"/c-xxxxxxxxx"));
        store.finish();
        assert!(
            store.matches(&a, b"/a-xxxxxxxxx-yyyyyyyyyz-x"),
            "still usable after finish"
        );
    }

    #[test]
    fn recurring_segments_share_finders_beyond_the_linear_few() {
        let mut store = Store::default();
        let n = LINEAR_FINDERS * 3;
        let patterns: Vec<Pattern> = (0..n)
            .map(|i| {
                store
                    .compile(format!("/a*segment-{i:03}*").as_bytes(), false)
                    .1
            })
            .collect();
        assert_eq!(store.finders.len(), n);
        let again: Vec<Pattern> = (0..n)
            .map(|i| {
                store
                    .compile(format!("/b*segment-{i:03}*").as_bytes(), false)
                    .1
            })
            .collect();
        assert_eq!(store.finders.len(), n, "each segment built once");
        for (i, (a, b)) in patterns.iter().zip(&again).enumerate() {
            let (pa, pb) = (format!("/a-segment-{i:03}-"), format!("/b-segment-{i:03}-"));
            assert!(store.matches(a, pa.as_bytes()) && store.matches(b, pb.as_bytes()));
            let other = format!("/a-segment-{:03}-", (i + 1) % n);
            assert!(!store.matches(a, other.as_bytes()));
        }
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

    /// Exponential reference matcher over tokens: `*` any run, `$` the end of the path
    /// (wherever it stands), any other octet itself; a pattern matches a prefix.
    #[derive(Debug, Clone, Copy)]
    enum Tok {
        Star,
        End,
        Lit(u8),
    }

    fn naive(p: &[Tok], s: &[u8]) -> bool {
        match p.split_first() {
            None => true,
            Some((Tok::Star, rest)) => (0..=s.len()).any(|i| naive(rest, &s[i..])),
            Some((Tok::End, rest)) => s.is_empty() && naive(rest, s),
            Some((Tok::Lit(c), rest)) => s.first() == Some(c) && naive(rest, &s[1..]),
        }
    }

    fn tokens(raw: &[u8]) -> Vec<Tok> {
        raw.iter()
            .map(|&b| match b {
                b'*' => Tok::Star,
                b'$' => Tok::End,
                _ => Tok::Lit(b),
            })
            .collect()
    }

    proptest! {
        #[test]
        fn agrees_with_naive(
            pattern in proptest::collection::vec(prop_oneof![Just(b'/'), Just(b'a'), Just(b'b'), Just(b'*'), Just(b'$')], 1..8),
            path in proptest::collection::vec(prop_oneof![Just(b'/'), Just(b'a'), Just(b'b'), Just(b'$')], 0..12),
        ) {
            let expected = naive(&tokens(&pattern), &path);
            let (store, p) = compile(&pattern, false);
            prop_assert_eq!(store.matches(&p, &path), expected);
            if expected {
                prop_assert!(p.may_match(PathLead::of(&path)));
            }
        }

        #[test]
        fn long_segments_agree_with_naive(
            segments in proptest::collection::vec(proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b')], 0..14), 1..4),
            anchored in any::<bool>(),
            path in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b')], 0..40),
        ) {
            // Segments of up to 13 octets: both sides of SHORT_NEEDLE.
            let mut pattern = b"/".to_vec();
            pattern.extend(segments.join(&b'*'));
            if anchored {
                pattern.push(b'$');
            }
            let mut full = b"/".to_vec();
            full.extend(&path);
            let expected = naive(&tokens(&pattern), &full);
            let (store, p) = compile(&pattern, false);
            prop_assert_eq!(store.matches(&p, &full), expected);
        }
    }
}
