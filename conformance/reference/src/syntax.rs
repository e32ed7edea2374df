//! The syntax of a robots.txt file, line by line and lossless: what each line says as
//! written, before any meaning is given to it (the way `regex-syntax` keeps its `ast`
//! apart from its `hir`). The reference's own parser reads every line through this layer,
//! and so does every tool of the workspace that looks at a file's lines.
//!
//! RFC 9309 §2.2 (the ABNF):
//!
//! ```text
//! robotstxt = *(group / emptyline)
//! emptyline = EOL
//! rule = *WS ("allow" / "disallow") *WS ":" *WS (path-pattern / empty-pattern) EOL
//! startgroupline = *WS "user-agent" *WS ":" *WS product-token EOL
//! comment = "#" *(UTF8-char-noctl / WS / "#")
//! EOL = %x0A / %x0D / %x0D.0A
//! WS = %x20 / %x09
//! ```
//!
//! * [`Lines`] splits a body at `EOL`: CR, LF and CRLF each end exactly one line and may
//!   be mixed; lines are numbered from 1; the text after the last line end is a line if it
//!   is not empty. A UTF-8 byte order mark at byte 0 is reported ([`Line::bom`]) and, by
//!   default, not part of the first line's text.
//! * [`Record`] is the syntax of one line: its comment (from the first `#`, RFC 9309
//!   §2.2: "#" starts a comment to the end of the line), its first colon, and its reading
//!   as `key : value` with the white space around key and value dropped ([`Key`]: the
//!   records of §2.2, `sitemap` and the other records of §2.2.4, or an unknown key). The
//!   misspellings and the missing colon that RFC 9309 §2.2.4 allows a crawler to accept
//!   ("Crawlers MAY interpret other records ... `disalow`") are read and flagged, never
//!   decided: whether they count is the parser's choice ([`crate::Config::accept_typos`]).
//! * [`records`] is both: each line of a body with its syntax.
//!
//! Nothing here fails or panics: any octets have a syntax, if only "not a record".
//!
//! ```
//! use reptest_reference::syntax::{records, Key, LineEnd};
//!
//! let body = b"\xEF\xBB\xBFUser-agent: examplebot # me\r\nDisalow /private\n";
//! let all: Vec<_> = records(body).collect();
//! assert!(all[0].line().bom());
//! assert_eq!(all[0].key_kind(), Some(Key::UserAgent));
//! assert_eq!(all[0].value(), b"examplebot");
//! assert_eq!(all[0].comment(), Some(&b"# me"[..]));
//! assert_eq!(all[0].line().line_end(), Some(LineEnd::CrLf));
//! assert_eq!(all[1].line().number(), 2);
//! assert_eq!(all[1].key_kind(), Some(Key::Disallow));
//! assert!(all[1].misspelt() && all[1].missing_colon());
//! assert_eq!(all[1].value(), b"/private");
//! ```

use std::ops::Range;

use memchr::{memchr, memchr2};

pub use crate::group::is_product_token;

/// The UTF-8 byte order mark, `EF BB BF`.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How a line ended (RFC 9309 §2.2: `EOL = %x0A / %x0D / %x0D.0A`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineEnd {
    /// LF alone.
    Lf,
    /// CR not followed by LF.
    Cr,
    /// CR LF: one line end.
    CrLf,
}

impl LineEnd {
    /// The line end's octets.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            LineEnd::Lf => b"\n",
            LineEnd::Cr => b"\r",
            LineEnd::CrLf => b"\r\n",
        }
    }
}

/// One physical line of a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    number: usize,
    start: usize,
    raw: &'a [u8],
    bom: bool,
    skip_bom: bool,
    end: Option<LineEnd>,
}

impl<'a> Line<'a> {
    /// A line on its own (numbered `number`, at offset 0, without a line end): for a
    /// tool that already holds one line's octets.
    pub fn single(number: usize, text: &'a [u8]) -> Line<'a> {
        Line {
            number,
            start: 0,
            raw: text,
            bom: false,
            skip_bom: false,
            end: None,
        }
    }

    /// The 1-based line number: CR, LF and CRLF each end one line (RFC 9309 §2.2).
    pub fn number(&self) -> usize {
        self.number
    }

    /// Where the line's octets lie in the body, its line end excluded and a byte order
    /// mark included.
    pub fn span(&self) -> Range<usize> {
        self.start..self.start + self.raw.len()
    }

    /// The line's octets, line end excluded, a byte order mark at the start of the file
    /// included.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The line's text: its octets without the line end, and without the file's byte
    /// order mark when it was skipped (the default of [`Lines`]).
    pub fn text(&self) -> &'a [u8] {
        if self.skip_bom {
            &self.raw[BOM.len()..]
        } else {
            self.raw
        }
    }

    /// Whether the file starts with a UTF-8 byte order mark and this is its first line
    /// (RFC 9309 is silent on byte order marks; see [`crate::Config::skip_bom`]).
    pub fn bom(&self) -> bool {
        self.bom
    }

    /// The line end, `None` for a last line without one.
    pub fn line_end(&self) -> Option<LineEnd> {
        self.end
    }

    /// The line's octets with its line end: the lines of a body, joined, are the body.
    pub fn with_line_end(&self, body: &'a [u8]) -> &'a [u8] {
        let end = self.span().end + self.end.map_or(0, |e| e.as_bytes().len());
        body.get(self.start..end).unwrap_or(self.raw)
    }
}

/// Iterator over the [`Line`]s of a body (RFC 9309 §2.2 `EOL`).
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    body: &'a [u8],
    pos: usize,
    number: usize,
    skip_bom: bool,
}

/// The lines of `body`, a byte order mark at its start skipped ([`Line::text`]).
pub fn lines(body: &[u8]) -> Lines<'_> {
    Lines {
        body,
        pos: 0,
        number: 0,
        skip_bom: true,
    }
}

/// The lines of `body` with their [`Record`]s, a byte order mark at its start skipped.
pub fn records(body: &[u8]) -> Records<'_> {
    lines(body).records()
}

impl<'a> Lines<'a> {
    /// The same lines, a byte order mark at the start of the body kept in the first
    /// line's text (where it becomes part of the first key).
    pub fn keep_bom(self) -> Lines<'a> {
        Lines {
            skip_bom: false,
            ..self
        }
    }

    /// Each line with its [`Record`].
    pub fn records(self) -> Records<'a> {
        Records { lines: self }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.body.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        self.number += 1;
        let start = self.pos;
        let (len, end, eol_len) = match memchr2(b'\n', b'\r', rest) {
            Some(i) if rest[i] == b'\n' => (i, Some(LineEnd::Lf), 1),
            Some(i) if rest.get(i + 1) == Some(&b'\n') => (i, Some(LineEnd::CrLf), 2),
            Some(i) => (i, Some(LineEnd::Cr), 1),
            None => (rest.len(), None, 0),
        };
        self.pos = start + len + eol_len;
        let raw = &rest[..len];
        let bom = start == 0 && raw.starts_with(BOM);
        Some(Line {
            number: self.number,
            start,
            raw,
            bom,
            skip_bom: bom && self.skip_bom,
            end,
        })
    }
}

/// Iterator over the [`Record`]s of a body's lines (see [`records`]).
#[derive(Debug, Clone)]
pub struct Records<'a> {
    lines: Lines<'a>,
}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        self.lines.next().map(Record::new)
    }
}

/// The key of a record, case-insensitive (RFC 9309 §2.2), as [`Record::key_kind`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// `user-agent` (RFC 9309 §2.2.1), or a misspelling of it ([`Record::misspelt`]).
    UserAgent,
    /// `allow` (RFC 9309 §2.2.2).
    Allow,
    /// `disallow` (RFC 9309 §2.2.2), or a misspelling of it ([`Record::misspelt`]).
    Disallow,
    /// `sitemap`, the example of other records in RFC 9309 §2.2.4.
    Sitemap,
    /// Another well-known record of §2.2.4: `crawl-delay`, `host`, `clean-param`,
    /// `request-rate`, `visit-time`, `noindex`.
    Extension,
    /// Any other key.
    Unknown,
}

impl Key {
    /// The canonical name of a record of RFC 9309 §2.2 (`"user-agent"`, `"allow"`,
    /// `"disallow"`), or `"sitemap"`; `None` for the others.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Key::UserAgent => Some("user-agent"),
            Key::Allow => Some("allow"),
            Key::Disallow => Some("disallow"),
            Key::Sitemap => Some("sitemap"),
            Key::Extension | Key::Unknown => None,
        }
    }

    /// Whether this is one of the three records RFC 9309 §2.2 defines.
    pub fn is_rfc9309(self) -> bool {
        matches!(self, Key::UserAgent | Key::Allow | Key::Disallow)
    }
}

/// The syntax of one line: comment, colon, and its reading as `key : value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    line: Line<'a>,
    /// Index in the text of the first `#`.
    comment: Option<usize>,
    /// Index in the text of the first `:` before any `#`.
    colon: Option<usize>,
    reading: Reading<'a>,
}

/// What a line's text reads as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reading<'a> {
    kind: Option<Key>,
    key: &'a [u8],
    value: &'a [u8],
    misspelt: bool,
    missing_colon: bool,
}

impl Reading<'_> {
    const NONE: Reading<'static> = Reading {
        kind: None,
        key: b"",
        value: b"",
        misspelt: false,
        missing_colon: false,
    };
}

impl<'a> Record<'a> {
    /// The syntax of `line`'s text.
    #[inline(always)]
    pub fn new(line: Line<'a>) -> Record<'a> {
        let text = line.text();
        // One scan finds the first `#` or `:`; only after a `:` is a second scan for `#`
        // needed.
        let (comment, colon) = match memchr2(b'#', b':', text) {
            Some(i) if text[i] == b'#' => (Some(i), None),
            Some(i) => (memchr(b'#', &text[i + 1..]).map(|j| i + 1 + j), Some(i)),
            None => (None, None),
        };
        let content = &text[..comment.unwrap_or(text.len())];
        let reading = read(content, colon);
        Record {
            line,
            comment,
            colon,
            reading,
        }
    }

    /// The syntax of one line's text (line end removed), numbered `number`.
    pub fn parse(number: usize, text: &'a [u8]) -> Record<'a> {
        Record::new(Line::single(number, text))
    }

    /// The line.
    pub fn line(&self) -> &Line<'a> {
        &self.line
    }

    /// The line's text ([`Line::text`]).
    pub fn text(&self) -> &'a [u8] {
        self.line.text()
    }

    /// The text before the comment (all of it without one).
    pub fn content(&self) -> &'a [u8] {
        let text = self.text();
        &text[..self.comment.unwrap_or(text.len())]
    }

    /// The comment, from its `#` to the end of the line (RFC 9309 §2.2 `comment`).
    pub fn comment(&self) -> Option<&'a [u8]> {
        self.comment.map(|at| &self.text()[at..])
    }

    /// Whether the line is empty, white space only, or a comment (RFC 9309 §2.2: such
    /// lines may stand anywhere).
    pub fn is_blank(&self) -> bool {
        trim(self.content()).is_empty()
    }

    /// The index in [`Record::text`] of the first `:` before any comment.
    pub fn colon(&self) -> Option<usize> {
        self.colon
    }

    /// The octets before and after the first colon, comment removed, untrimmed; `None`
    /// without a colon.
    pub fn colon_split(&self) -> Option<(&'a [u8], &'a [u8])> {
        let colon = self.colon?;
        let content = self.content();
        Some((&content[..colon], &content[colon + 1..]))
    }

    /// What record the line reads as; `None` for a blank line or one that is no
    /// record (no `key: value`, and no known key followed by white space).
    pub fn key_kind(&self) -> Option<Key> {
        self.reading.kind
    }

    /// The key as written, white space around it dropped (empty when
    /// [`Record::key_kind`] is `None`).
    pub fn key(&self) -> &'a [u8] {
        self.reading.key
    }

    /// The value as written, comment and white space around it dropped (empty when
    /// [`Record::key_kind`] is `None`).
    pub fn value(&self) -> &'a [u8] {
        self.reading.value
    }

    /// Whether the key is a misspelling of `user-agent` (`useragent`, `user agent`) or of
    /// `disallow` (`disalow`, `dissallow`, `dissalow`, `disallaw`), which RFC 9309 §2.2.4
    /// lets a crawler accept.
    pub fn misspelt(&self) -> bool {
        self.reading.misspelt
    }

    /// Whether the record is a known key followed by white space instead of a colon
    /// (`Disallow /x`, `Disallow /a:b`): no record of the ABNF, which a crawler may
    /// accept (RFC 9309 §2.2.4).
    pub fn missing_colon(&self) -> bool {
        self.reading.missing_colon
    }

    /// Whether the text starts with white space (RFC 9309 §2.2 `*WS` before the key).
    pub fn leading_whitespace(&self) -> bool {
        self.text().first().is_some_and(|&b| is_ws(b))
    }

    /// Whether the content ([`Record::content`]) ends with white space.
    pub fn trailing_whitespace(&self) -> bool {
        self.content().last().is_some_and(|&b| is_ws(b))
    }

    /// Whether white space stands right before the colon (RFC 9309 §2.2 `*WS ":"`).
    pub fn whitespace_before_colon(&self) -> bool {
        self.colon_split()
            .is_some_and(|(key, _)| key.last().is_some_and(|&b| is_ws(b)))
    }

    /// Whether the text holds a control octet ([`has_control`]).
    pub fn has_control(&self) -> bool {
        has_control(self.text())
    }
}

/// The reading of a line's `content` (comment removed) with its first `colon`.
#[inline]
fn read(content: &[u8], colon: Option<usize>) -> Reading<'_> {
    let trimmed = trim(content);
    if trimmed.is_empty() {
        return Reading::NONE;
    }
    if let Some(colon) = colon {
        let key = trim(&content[..colon]);
        let (kind, misspelt) = classify(key);
        // `Disallow /a:b`: an unknown key with white space in it is no key; the line is
        // read again as a missing colon below.
        if kind != Key::Unknown || !key.iter().any(|&b| is_ws(b)) {
            return Reading {
                kind: Some(kind),
                key,
                value: trim(&content[colon + 1..]),
                misspelt,
                missing_colon: false,
            };
        }
    }
    // RFC 9309 §2.2.4 MAY: a known key with white space as its separator.
    let split = trimmed
        .iter()
        .position(|&b| is_ws(b))
        .unwrap_or(trimmed.len());
    let (key, value) = trimmed.split_at(split);
    match classify(key) {
        (kind @ (Key::UserAgent | Key::Allow | Key::Disallow), misspelt) => Reading {
            kind: Some(kind),
            key,
            value: trim(value),
            misspelt,
            missing_colon: true,
        },
        _ => Reading::NONE,
    }
}

/// Whether `b` is white space of RFC 9309 §2.2 (`WS = %x20 / %x09`).
pub fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// `s` without its leading and trailing white space (RFC 9309 §2.2 `WS`: spaces and
/// tabs only).
pub fn trim(s: &[u8]) -> &[u8] {
    trim_end(trim_start(s))
}

fn trim_start(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_ws(*first) {
            break;
        }
        s = rest;
    }
    s
}

fn trim_end(mut s: &[u8]) -> &[u8] {
    while let [rest @ .., last] = s {
        if !is_ws(*last) {
            break;
        }
        s = rest;
    }
    s
}

const EXTENSIONS: &[&[u8]] = &[
    b"crawl-delay",
    b"host",
    b"clean-param",
    b"request-rate",
    b"visit-time",
    b"noindex",
];

const DISALLOW_TYPOS: &[&[u8]] = &[b"disalow", b"dissallow", b"dissalow", b"disallaw"];

/// The record a key (white space already trimmed) names, case-insensitive, and whether
/// it is a misspelling ([`Record::misspelt`]).
///
/// ```
/// use reptest_reference::syntax::{classify, Key};
/// assert_eq!(classify(b"User-Agent"), (Key::UserAgent, false));
/// assert_eq!(classify(b"user agent"), (Key::UserAgent, true));
/// assert_eq!(classify(b"Crawl-delay"), (Key::Extension, false));
/// ```
#[inline]
pub fn classify(key: &[u8]) -> (Key, bool) {
    if key.eq_ignore_ascii_case(b"user-agent") {
        return (Key::UserAgent, false);
    }
    if key.eq_ignore_ascii_case(b"allow") {
        return (Key::Allow, false);
    }
    if key.eq_ignore_ascii_case(b"disallow") {
        return (Key::Disallow, false);
    }
    if DISALLOW_TYPOS.iter().any(|t| key.eq_ignore_ascii_case(t)) {
        return (Key::Disallow, true);
    }
    if key.eq_ignore_ascii_case(b"useragent") || is_user_space_agent(key) {
        return (Key::UserAgent, true);
    }
    if key.eq_ignore_ascii_case(b"sitemap") {
        return (Key::Sitemap, false);
    }
    if EXTENSIONS.iter().any(|e| key.eq_ignore_ascii_case(e)) {
        return (Key::Extension, false);
    }
    (Key::Unknown, false)
}

/// `user` + one or more spaces/tabs + `agent`, any case.
fn is_user_space_agent(key: &[u8]) -> bool {
    key.len() > 9
        && key[..4].eq_ignore_ascii_case(b"user")
        && key[key.len() - 5..].eq_ignore_ascii_case(b"agent")
        && key[4..key.len() - 5].iter().all(|&b| is_ws(b))
}

/// Whether `bytes` hold a control octet: NUL, any other C0 control but tab, or DEL.
///
/// RFC 9309 §2.2: `path-pattern = "/" *UTF8-char-noctl`, "UTF8 derived from RFC 3629,
/// but excluding control characters" (its range `%x24-7F` reaches DEL, which its own
/// comment excludes, as RFC 5234's `CTL` does). Tab is the white space of the ABNF (`WS`).
pub fn has_control(bytes: &[u8]) -> bool {
    // Every rule goes through this at parse: no early exit, so that the loop vectorizes.
    bytes.iter().fold(false, |found, &b| {
        found | ((b < 0x20) & (b != b'\t')) | (b == 0x7F)
    })
}

#[cfg(test)]
mod tests;
