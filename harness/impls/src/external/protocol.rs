//! The wire format of the external adapter protocol, versions 1 and 2
//! (`harness/PROTOCOL.md`), for both sides: reptest as the client of an adapter
//! ([`super::Persistent`], which speaks either) and reptest as an adapter itself
//! (`reptest serve`, [`crate::eval::serve`], which speaks version 1).
//!
//! Version 2 adds one request shape: one body and many queries
//! ([`write_batch_request`]), answered by one line of answers in order
//! ([`parse_batch_answer`]); a version-2 adapter still answers version-1 requests.
//!
//! Every line written here is ASCII only: non-ASCII characters in JSON strings become
//! `\uXXXX` escapes (surrogate pairs above U+FFFF) and control characters JSON escapes, so
//! no CR, U+2028 or U+0085 can split a line in the reader at the other end.

use reptest_core::url::QueryUrl;
use reptest_core::{ImplInfo, Outcome};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

/// The protocol version of the handshake an in-process implementation sends when it
/// serves as an adapter ([`Handshake::of`], `reptest serve`): version 1.
pub const VERSION: u64 = 1;
/// The highest protocol version reptest speaks as a client: 2 (batch requests).
pub const MAX_VERSION: u64 = 2;
/// The protocol version that adds batch requests (one body, many queries).
pub const BATCH_VERSION: u64 = 2;

/// The first line an adapter writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handshake {
    /// The protocol version, `1` or `2`.
    pub protocol: u64,
    /// The library's name.
    #[serde(default)]
    pub name: String,
    /// The library's version, as installed.
    pub version: String,
    /// The language the library is written in.
    #[serde(default)]
    pub language: String,
    /// What the library takes and reports.
    #[serde(default)]
    pub capabilities: HandshakeCapabilities,
}

/// The `capabilities` object of a [`Handshake`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandshakeCapabilities {
    /// The library takes absolute URLs (otherwise reptest sends the path and query).
    #[serde(default)]
    pub full_urls: bool,
    /// Answers carry the deciding rule's line.
    #[serde(default)]
    pub reports_line: bool,
    /// The adapter takes fetch requests ([`write_fetch_request`]): it fetches the
    /// robots.txt itself, from a URL on reptest's loopback site, through the library's own
    /// fetching API (RFC 9309 §2.3.1: the access method).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fetches: bool,
}

impl Handshake {
    /// The handshake an in-process implementation sends when it serves as an adapter.
    pub fn of(info: &ImplInfo) -> Handshake {
        Handshake {
            protocol: VERSION,
            name: info.name.clone(),
            version: info.version.clone(),
            language: info.language.clone(),
            capabilities: HandshakeCapabilities {
                full_urls: info.capabilities.full_urls,
                reports_line: info.capabilities.reports_line,
                fetches: false,
            },
        }
    }

    /// Reads a handshake line; an error says what is wrong with it.
    pub fn parse(line: &[u8]) -> Result<Handshake, HandshakeError> {
        let handshake: Handshake =
            serde_json::from_slice(trim_cr(line)).map_err(|e| HandshakeError::NotAHandshake {
                error: e.to_string(),
                line: excerpt(line),
            })?;
        if !(VERSION..=MAX_VERSION).contains(&handshake.protocol) {
            return Err(HandshakeError::Protocol(handshake.protocol));
        }
        Ok(handshake)
    }

    /// Whether the adapter takes batch requests (it said protocol 2 or later).
    pub fn batches(&self) -> bool {
        self.protocol >= BATCH_VERSION
    }
}

/// Why a first line is not a usable handshake.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HandshakeError {
    /// Not the JSON object of a handshake.
    #[error("the first line is not a protocol handshake ({error}): {line}")]
    NotAHandshake {
        /// What the JSON reader said.
        error: String,
        /// The start of the line, in visible notation.
        line: String,
    },
    /// Another protocol version.
    #[error(
        "the adapter speaks protocol {0}, reptest speaks protocols {VERSION} and {MAX_VERSION}"
    )]
    Protocol(u64),
}

/// Why a line is not an answer to any request: [`parse_answer`] and
/// [`parse_batch_answer`] found no JSON object with an integer `id` in it. `Display` says
/// what was wrong and shows the start of the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerError {
    kind: AnswerErrorKind,
    /// The start of the line, in visible notation.
    line: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum AnswerErrorKind {
    /// The line does not start with `{`.
    NotAnObject,
    /// A JSON object, but not one with an integer `id` (what the JSON reader said).
    NotAnAnswer(String),
}

impl AnswerError {
    fn not_an_object(line: &[u8]) -> AnswerError {
        AnswerError {
            kind: AnswerErrorKind::NotAnObject,
            line: excerpt(line),
        }
    }

    fn not_an_answer(error: &serde_json::Error, line: &[u8]) -> AnswerError {
        AnswerError {
            kind: AnswerErrorKind::NotAnAnswer(error.to_string()),
            line: excerpt(line),
        }
    }
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            AnswerErrorKind::NotAnObject => write!(f, "not a JSON object: {}", self.line),
            AnswerErrorKind::NotAnAnswer(error) => {
                write!(f, "not a protocol answer ({error}): {}", self.line)
            }
        }
    }
}

impl std::error::Error for AnswerError {}

/// Serializes `value` as one ASCII-only JSON line (with its `\n`) onto `out`.
pub fn write_line<W: Write, T: Serialize + ?Sized>(out: &mut W, value: &T) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, Ascii);
    value.serialize(&mut serializer).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// Appends one request line (`{"id":…,"robots_b64":…,"agent":…,"url":…}\n`) to `out`;
/// `robots_b64` is the body already encoded (standard alphabet, padded), so a case's
/// queries share one encoding.
pub fn write_request(out: &mut Vec<u8>, id: u64, robots_b64: &str, agent: &str, url: &str) {
    // Writes into a Vec cannot fail.
    let _ = write!(out, "{{\"id\":{id},\"robots_b64\":\"");
    out.extend_from_slice(robots_b64.as_bytes());
    out.extend_from_slice(b"\",\"agent\":");
    write_str(out, agent);
    out.extend_from_slice(b",\"url\":");
    write_str(out, url);
    out.extend_from_slice(b"}\n");
}

/// Appends one batch request line (protocol 2:
/// `{"id":…,"robots_b64":…,"queries":[{"agent":…,"url":…},…]}\n`) to `out`: one body,
/// many queries, answered by one line holding one answer per query, in order.
pub fn write_batch_request<'a>(
    out: &mut Vec<u8>,
    id: u64,
    robots_b64: &str,
    queries: impl IntoIterator<Item = (&'a str, &'a str)>,
) {
    let _ = write!(out, "{{\"id\":{id},\"robots_b64\":\"");
    out.extend_from_slice(robots_b64.as_bytes());
    out.extend_from_slice(b"\",\"queries\":");
    write_queries(out, queries);
    out.extend_from_slice(b"}\n");
}

/// Appends one fetch request line (capability `fetches`:
/// `{"id":…,"robots_url":…,"timeout_ms":…,"queries":[{"agent":…,"url":…},…]}\n`) to
/// `out`: no body, the URL of the robots.txt to fetch instead, the time the library's fetch
/// may take, and the queries, answered like a batch request (one line, one answer per
/// query, in order) whatever the protocol version.
pub fn write_fetch_request<'a>(
    out: &mut Vec<u8>,
    id: u64,
    robots_url: &str,
    timeout_ms: u64,
    queries: impl IntoIterator<Item = (&'a str, &'a str)>,
) {
    let _ = write!(out, "{{\"id\":{id},\"robots_url\":");
    write_str(out, robots_url);
    let _ = write!(out, ",\"timeout_ms\":{timeout_ms},\"queries\":");
    write_queries(out, queries);
    out.extend_from_slice(b"}\n");
}

/// `[{"agent":…,"url":…},…]`.
fn write_queries<'a>(out: &mut Vec<u8>, queries: impl IntoIterator<Item = (&'a str, &'a str)>) {
    out.push(b'[');
    for (i, (agent, url)) in queries.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"agent\":");
        write_str(out, agent);
        out.extend_from_slice(b",\"url\":");
        write_str(out, url);
        out.push(b'}');
    }
    out.push(b']');
}

fn write_str(out: &mut Vec<u8>, text: &str) {
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, Ascii);
    // A &str always serializes, and a Vec always takes the bytes.
    let _ = text.serialize(&mut serializer);
}

/// The URL to send for a corpus URL ([`QueryUrl`]): an adapter that takes paths gets the
/// path and query the reference matches (`/` when empty, no fragment); one that takes
/// absolute URLs gets an absolute URL as given, anything else as that path under
/// [`reptest_core::url::DEFAULT_ORIGIN`].
pub fn request_url(url: &str, full_urls: bool) -> Cow<'_, str> {
    let url = QueryUrl::new(url);
    if full_urls {
        url.absolute()
    } else {
        url.path()
    }
}

/// An answer line as the client reads it.
#[derive(Deserialize)]
struct RawAnswer<'a> {
    id: u64,
    #[serde(borrow, default)]
    verdict: Option<Cow<'a, str>>,
    #[serde(default)]
    line: Option<u64>,
    #[serde(borrow, default)]
    error: Option<Cow<'a, str>>,
}

/// Reads one answer line into the request id it answers and its outcome. A line that is
/// not a JSON object with an integer `id` is an error message; a line with an `id` but
/// neither a verdict nor an error is `Outcome::Error` for that id.
pub fn parse_answer(line: &[u8]) -> Result<(u64, Outcome), AnswerError> {
    // serde would also read a struct from an array (`[1]`); the protocol wants objects.
    if line.trim_ascii_start().first() != Some(&b'{') {
        return Err(AnswerError::not_an_object(line));
    }
    let answer: RawAnswer<'_> =
        serde_json::from_slice(trim_cr(line)).map_err(|e| AnswerError::not_an_answer(&e, line))?;
    let outcome = outcome(answer.error, answer.verdict.as_deref(), answer.line, line);
    Ok((answer.id, outcome))
}

/// One element of a batch answer's `answers`.
#[derive(Deserialize)]
struct RawItem<'a> {
    #[serde(borrow, default)]
    verdict: Option<Cow<'a, str>>,
    #[serde(default)]
    line: Option<u64>,
    #[serde(borrow, default)]
    error: Option<Cow<'a, str>>,
}

/// A batch answer line as the client reads it.
#[derive(Deserialize)]
struct RawBatch<'a> {
    id: u64,
    #[serde(borrow, default)]
    answers: Option<Vec<RawItem<'a>>>,
    #[serde(borrow, default)]
    error: Option<Cow<'a, str>>,
}

/// Reads the answer line of a batch request of `expected` queries into the request id it
/// answers and one outcome per query, in order. A line that is not a JSON object with an
/// integer `id` is an error message (as for [`parse_answer`]). With an `id`, every query
/// gets `Outcome::Error` when the line has no `answers` array, when the array does not
/// hold exactly `expected` answers, or when the line carries a top-level `error` instead
/// (the adapter could not read the request).
pub fn parse_batch_answer(
    line: &[u8],
    expected: usize,
) -> Result<(u64, Vec<Outcome>), AnswerError> {
    if line.trim_ascii_start().first() != Some(&b'{') {
        return Err(AnswerError::not_an_object(line));
    }
    let answer: RawBatch<'_> = match serde_json::from_slice(trim_cr(line)) {
        Ok(answer) => answer,
        Err(e) => {
            // An `id` may still be readable (an element of `answers` is malformed): the
            // error then belongs to that request.
            #[derive(Deserialize)]
            struct IdOnly {
                id: u64,
            }
            return match serde_json::from_slice::<IdOnly>(trim_cr(line)) {
                Ok(IdOnly { id }) => Ok((
                    id,
                    all(
                        expected,
                        format!("not a batch answer ({e}): {}", excerpt(line)),
                    ),
                )),
                Err(_) => Err(AnswerError::not_an_answer(&e, line)),
            };
        }
    };
    let outcomes = match (answer.answers, answer.error) {
        (Some(items), _) if items.len() == expected => items
            .into_iter()
            .map(|item| outcome(item.error, item.verdict.as_deref(), item.line, line))
            .collect(),
        (Some(items), _) => all(
            expected,
            format!(
                "{} answers to a request of {expected} queries: {}",
                items.len(),
                excerpt(line)
            ),
        ),
        (None, Some(error)) => all(expected, truncate(&error, 500)),
        (None, None) => all(
            expected,
            format!("a batch answer without `answers`: {}", excerpt(line)),
        ),
    };
    Ok((answer.id, outcomes))
}

fn all(n: usize, why: String) -> Vec<Outcome> {
    vec![Outcome::Error(why); n]
}

fn outcome(
    error: Option<Cow<'_, str>>,
    word: Option<&str>,
    line: Option<u64>,
    raw: &[u8],
) -> Outcome {
    match (error, word) {
        (Some(error), _) => Outcome::Error(truncate(&error, 500)),
        (None, Some("allowed")) => verdict(true, line),
        (None, Some("disallowed")) => verdict(false, line),
        (None, Some(other)) => Outcome::Error(format!(
            "verdict `{}` is neither `allowed` nor `disallowed`",
            truncate(other, 100)
        )),
        (None, None) => Outcome::Error(format!(
            "answer without `verdict` or `error`: {}",
            excerpt(raw)
        )),
    }
}

fn verdict(allowed: bool, line: Option<u64>) -> Outcome {
    Outcome::Verdict {
        allowed,
        // 0 is no line (some libraries say 0 for "no rule"); lines are 1-based.
        line: line
            .filter(|&l| l > 0)
            .and_then(|l| usize::try_from(l).ok()),
    }
}

fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The start of a line of adapter output, printable, for error messages.
pub(crate) fn excerpt(line: &[u8]) -> String {
    truncate(&String::from_utf8_lossy(line), 200)
}

/// `text` cut to at most `max` characters, with `…` when cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// A serde_json formatter that escapes every non-ASCII character as `\uXXXX` (UTF-16
/// code units, so surrogate pairs above U+FFFF); serde_json itself already escapes the
/// control characters.
struct Ascii;

impl serde_json::ser::Formatter for Ascii {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if fragment.is_ascii() {
            return writer.write_all(fragment.as_bytes());
        }
        let mut units = [0u16; 2];
        for c in fragment.chars() {
            if c.is_ascii() {
                writer.write_all(&[c as u8])?;
            } else {
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(value: &serde_json::Value) -> String {
        let mut out = Vec::new();
        write_line(&mut out, value).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn output_is_ascii_with_escapes() {
        let text = "a\u{e9}\r\n\t\0\u{2028}\u{85}\u{1f600}\u{feff}z";
        let out = line(&json!({ "s": text }));
        assert!(out.is_ascii(), "{out}");
        assert_eq!(out.matches('\n').count(), 1);
        assert!(!out.contains('\r'));
        assert_eq!(
            out,
            "{\"s\":\"a\\u00e9\\r\\n\\t\\u0000\\u2028\\u0085\\ud83d\\ude00\\ufeffz\"}\n"
        );
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back["s"], text);
    }

    #[test]
    fn requests_are_ascii_json() {
        let mut out = Vec::new();
        write_request(&mut out, 7, "QUJD", "b\u{f6}t\"\\", "/\u{e9}?\u{2029}");
        let text = String::from_utf8(out).unwrap();
        assert!(text.is_ascii() && text.ends_with("}\n"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back,
            json!({"id": 7, "robots_b64": "QUJD", "agent": "b\u{f6}t\"\\", "url": "/\u{e9}?\u{2029}"})
        );
    }

    #[test]
    fn answers() {
        assert_eq!(
            parse_answer(br#"{"id": 3, "verdict": "disallowed", "line": 2}"#),
            Ok((
                3,
                Outcome::Verdict {
                    allowed: false,
                    line: Some(2)
                }
            ))
        );
        assert_eq!(
            parse_answer(b"{\"id\":4,\"verdict\":\"allowed\",\"line\":0}\r"),
            Ok((
                4,
                Outcome::Verdict {
                    allowed: true,
                    line: None
                }
            ))
        );
        assert_eq!(
            parse_answer(br#"{"id": 5, "error": "TypeError"}"#),
            Ok((5, Outcome::Error("TypeError".into())))
        );
        assert!(matches!(
            parse_answer(br#"{"id": 6, "verdict": "maybe"}"#),
            Ok((6, Outcome::Error(_)))
        ));
        assert!(matches!(
            parse_answer(br#"{"id": 6}"#),
            Ok((6, Outcome::Error(_)))
        ));
        for garbage in [
            &b"garbage"[..],
            b"",
            b"[1]",
            br#"{"verdict":"allowed"}"#,
            br#"{"id":"1","verdict":"allowed"}"#,
            br#"{"id":-1,"verdict":"allowed"}"#,
            b"\xff\xfe",
        ] {
            assert!(parse_answer(garbage).is_err(), "{garbage:?}");
        }
    }

    #[test]
    fn handshakes() {
        let h = Handshake::parse(br#"{"protocol": 1, "name": "x", "version": "1.2", "language": "Go", "capabilities": {"full_urls": false, "reports_line": true}}"#).unwrap();
        assert_eq!(h.version, "1.2");
        assert!(!h.capabilities.full_urls && h.capabilities.reports_line);
        let v2 = Handshake::parse(br#"{"protocol": 2, "version": "1"}"#).unwrap();
        assert!(v2.batches() && !h.batches());
        for other in [0, 3] {
            let line = format!(r#"{{"protocol": {other}, "version": "1"}}"#);
            assert!(Handshake::parse(line.as_bytes())
                .unwrap_err()
                .to_string()
                .contains(&format!("protocol {other}")));
        }
        assert!(Handshake::parse(b"hello").is_err());
        assert!(!h.capabilities.fetches);
        let fetching = Handshake::parse(
            br#"{"protocol": 1, "version": "1", "capabilities": {"fetches": true}}"#,
        )
        .unwrap();
        assert!(fetching.capabilities.fetches && !fetching.batches());
    }

    #[test]
    fn fetch_requests_name_the_robots_url_and_carry_no_body() {
        let mut out = Vec::new();
        write_fetch_request(
            &mut out,
            3,
            "http://127.0.0.2:9/robots.txt",
            2500,
            [("b\u{f6}t", "http://127.0.0.2:9/p")],
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.is_ascii() && text.ends_with("]}\n"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back,
            json!({"id": 3, "robots_url": "http://127.0.0.2:9/robots.txt", "timeout_ms": 2500,
                   "queries": [{"agent": "b\u{f6}t", "url": "http://127.0.0.2:9/p"}]})
        );
    }

    #[test]
    fn batch_requests_are_ascii_json() {
        let mut out = Vec::new();
        write_batch_request(
            &mut out,
            9,
            "QUJD",
            [("b\u{f6}t", "/\u{e9}?\u{2029}"), ("x\"\\", "https://h/p")],
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.is_ascii() && text.ends_with("]}\n"), "{text}");
        assert_eq!(text.matches('\n').count(), 1);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back,
            json!({"id": 9, "robots_b64": "QUJD", "queries": [
                {"agent": "b\u{f6}t", "url": "/\u{e9}?\u{2029}"},
                {"agent": "x\"\\", "url": "https://h/p"}
            ]})
        );
    }

    #[test]
    fn batch_answers() {
        let (id, outcomes) = parse_batch_answer(
            br#"{"id": 4, "answers": [{"verdict": "allowed", "line": 2}, {"error": "E"}, {"verdict": "disallowed"}, {"verdict": "maybe"}, {}]}"#,
            5,
        )
        .unwrap();
        assert_eq!(id, 4);
        assert_eq!(
            outcomes[..3],
            [
                Outcome::Verdict {
                    allowed: true,
                    line: Some(2)
                },
                Outcome::Error("E".into()),
                Outcome::Verdict {
                    allowed: false,
                    line: None
                },
            ]
        );
        assert!(matches!(outcomes[3], Outcome::Error(_)));
        assert!(matches!(outcomes[4], Outcome::Error(_)));
        // A wrong count, a missing array, a malformed element or a top-level error:
        // every query of the request is an error.
        for line in [
            &br#"{"id": 5, "answers": [{"verdict": "allowed"}]}"#[..],
            br#"{"id": 5, "answers": [{"verdict": "allowed"}, {"verdict": "allowed"}, {"verdict": "allowed"}]}"#,
            br#"{"id": 5, "verdict": "allowed"}"#,
            br#"{"id": 5, "answers": [1, 2]}"#,
            br#"{"id": 5, "answers": {"a": 1}}"#,
            br#"{"id": 5, "error": "bad request"}"#,
        ] {
            let (id, outcomes) = parse_batch_answer(line, 2).unwrap();
            assert_eq!(id, 5);
            assert_eq!(outcomes.len(), 2);
            assert!(
                outcomes.iter().all(|o| matches!(o, Outcome::Error(_))),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
        for garbage in [&b"garbage"[..], b"[1]", br#"{"answers": []}"#, b"\xff"] {
            assert!(parse_batch_answer(garbage, 1).is_err(), "{garbage:?}");
        }
    }

    #[test]
    fn urls() {
        let cases = [
            ("https://example.com/a/b?c=d#e", "/a/b?c=d"),
            ("https://example.com", "/"),
            ("https://example.com?q=1", "/?q=1"),
            ("https://example.com:8443/x;y", "/x;y"),
            ("/p?q#f", "/p?q"),
            ("/a//b", "/a//b"),
            ("//a/b", "/b"),
        ];
        for (url, path) in cases {
            assert_eq!(request_url(url, false), path, "{url}");
        }
        assert_eq!(request_url("/p", true), "https://example.com/p");
        assert_eq!(request_url("https://h/p", true), "https://h/p");
    }
}
