//! The corpus as language-neutral data (`reptest corpus export`): one [`ExportQuery`] per
//! query with everything a test in any language needs (the body's address, the agent
//! and URL, the fetch scenario, the expected verdict per profile, the level, the
//! requirement IDs), the bodies ([`ExportBody`]), and a [`Manifest`] naming the corpus
//! version and fingerprint.
//!
//! Each distinct body is stored once, under the SHA-256 of its bytes (lower-case hex),
//! which the queries name (`body_sha256`, `cache_body_sha256`). A body is a list of
//! [`Part`]s whose concatenation is its exact bytes: text where the bytes are valid
//! UTF-8, base64 otherwise, and a part repeated `repeat` times where a run of identical
//! lines (or of one byte) is at least [`RUN_BYTES`] long, so the generated bodies of the
//! size-limit cases (512,000 bytes of comment lines and more) take a few hundred bytes,
//! exactly.
//!
//! ```
//! let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
//! let export = reptest_corpus::export::export(&corpus);
//! assert_eq!(export.manifest.queries, export.queries.len());
//! assert_eq!(export.queries[0].expect.len(), 2, "one expectation per profile");
//! let (case, _) = corpus.queries().next().unwrap();
//! let body = &export.bodies[&export.queries[0].body_sha256];
//! assert_eq!(body.bytes(), case.body, "the parts make the exact bytes");
//! ```

use crate::model::{Cache, Case, Fetch, Query};
use crate::vocabulary::Profile;
use crate::Corpus;
use base64::Engine;
use serde::Serialize;
use std::collections::BTreeMap;

/// The format of the export files; a consumer checks it. 2: bodies stored once, by
/// SHA-256, in `bodies.json` (1 had `body_b64` and `body` on every query).
pub const EXPORT_FORMAT: u32 = 2;

/// The shortest run of identical lines (or of one byte) stored as one repeated part.
pub const RUN_BYTES: usize = 1024;

/// Everything `reptest corpus export` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    /// `manifest.json`.
    pub manifest: Manifest,
    /// `queries.jsonl` (or `queries.json`), in corpus order.
    pub queries: Vec<ExportQuery>,
    /// `bodies.json`: every distinct body (the cases' and their cached copies'), by the
    /// SHA-256 of its bytes (lower-case hex).
    pub bodies: BTreeMap<String, ExportBody>,
}

/// One body, as parts whose concatenation is its exact bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportBody {
    /// Its length in bytes.
    pub size: usize,
    /// Its parts, in order.
    pub parts: Vec<Part>,
}

/// A piece of a body: `text` (valid UTF-8) or `b64` (base64, standard alphabet,
/// padded), `repeat` times (1 when absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    /// The bytes as text, when they are valid UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The bytes as base64, when they are not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b64: Option<String>,
    /// How many times the bytes follow one another; absent for 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<usize>,
}

impl Part {
    fn new(bytes: &[u8], repeat: usize) -> Part {
        let (text, b64) = match std::str::from_utf8(bytes) {
            Ok(text) => (Some(text.to_string()), None),
            Err(_) => (
                None,
                Some(base64::engine::general_purpose::STANDARD.encode(bytes)),
            ),
        };
        Part {
            text,
            b64,
            repeat: (repeat != 1).then_some(repeat),
        }
    }

    /// The part's bytes, repeated.
    pub fn bytes(&self) -> Vec<u8> {
        let unit = match (&self.text, &self.b64) {
            (Some(text), _) => text.as_bytes().to_vec(),
            (None, Some(b64)) => base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap_or_default(),
            (None, None) => Vec::new(),
        };
        unit.repeat(self.repeat.unwrap_or(1))
    }
}

impl ExportBody {
    /// `bytes` as parts: runs of identical lines, then runs of one byte, of at least
    /// [`RUN_BYTES`] become repeated parts; the rest is kept whole between them.
    pub fn new(bytes: &[u8]) -> ExportBody {
        let mut parts = Vec::new();
        let mut literal = 0; // start of the bytes not yet in a part
        let mut at = 0;
        while at < bytes.len() {
            let line = line_at(bytes, at);
            let mut count = 1;
            while bytes[at + count * line.len()..].starts_with(line) {
                count += 1;
            }
            if count > 1 && count * line.len() >= RUN_BYTES {
                byte_runs(&bytes[literal..at], &mut parts);
                parts.push(Part::new(line, count));
                at += count * line.len();
                literal = at;
            } else {
                at += line.len();
            }
        }
        byte_runs(&bytes[literal..], &mut parts);
        ExportBody {
            size: bytes.len(),
            parts,
        }
    }

    /// The body's exact bytes: its parts concatenated.
    pub fn bytes(&self) -> Vec<u8> {
        self.parts.iter().flat_map(Part::bytes).collect()
    }
}

/// The line that starts at `at`, its LF included (the rest of `bytes` when none follows).
fn line_at(bytes: &[u8], at: usize) -> &[u8] {
    let end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |n| at + n + 1);
    &bytes[at..end]
}

/// `bytes` as parts: runs of one byte of at least [`RUN_BYTES`] repeated, the rest whole.
fn byte_runs(bytes: &[u8], parts: &mut Vec<Part>) {
    let mut literal = 0;
    let mut at = 0;
    while at < bytes.len() {
        let run = bytes[at..].iter().take_while(|&&b| b == bytes[at]).count();
        if run >= RUN_BYTES {
            if literal < at {
                parts.push(Part::new(&bytes[literal..at], 1));
            }
            parts.push(Part::new(&bytes[at..at + 1], run));
            literal = at + run;
        }
        at += run;
    }
    if literal < bytes.len() {
        parts.push(Part::new(&bytes[literal..], 1));
    }
}

/// What an export holds, and of which corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Manifest {
    /// [`EXPORT_FORMAT`].
    pub format: u32,
    /// The corpus version (`corpus/VERSION`), when it has one.
    pub corpus_version: Option<String>,
    /// [`Corpus::fingerprint`].
    pub corpus_fingerprint: String,
    /// Cases exported.
    pub cases: usize,
    /// Queries exported (one line of `queries.jsonl`, one element of `queries.json`).
    pub queries: usize,
    /// Distinct bodies exported (entries of `bodies.json`).
    pub bodies: usize,
    /// The profiles each query's `expect` names, the default first.
    pub profiles: Vec<Profile>,
}

/// One query, self-contained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportQuery {
    /// `case/name`: unique across the corpus, stable across corpus versions from 3.0.0.
    pub id: String,
    /// The query's name, unique within its case: given in the case file, or derived from
    /// the agent and URL (`corpus/README.md`, *Query names and ids*).
    pub name: String,
    /// The case id.
    pub case: String,
    /// The case title.
    pub title: String,
    /// The SHA-256 of the robots.txt body (lower-case hex): its key in `bodies.json`.
    pub body_sha256: String,
    /// The product token.
    pub agent: String,
    /// The URL: absolute, or a path.
    pub url: String,
    /// How the body was obtained; `None` is a plain HTTP 200.
    pub fetch: Option<ExportFetch>,
    /// Profile name to the expected verdict: `allowed`, `disallowed` or `either` (the
    /// RFC lets implementations choose).
    pub expect: BTreeMap<Profile, String>,
    /// `MUST`, `SHOULD` or `MAY`.
    pub level: String,
    /// Requirement IDs (`corpus/requirements.md`).
    pub requirements: Vec<String>,
    /// The question this query decides (the catalogue of questions), when it has one.
    pub question: Option<String>,
    /// Why the expectation holds.
    pub why: String,
    /// No decided verdict yet (marked for triage: an RFC reading not settled, or a
    /// fuzzing finding awaiting its verdict): a record, not a conformance test.
    pub undecided: bool,
}

/// The fetch scenario of a query (RFC 9309 §2.3.1, §2.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportFetch {
    /// The final HTTP status; `None` with a cached copy and no network error means "not
    /// fetched again".
    pub status: Option<u16>,
    /// No complete HTTP response (RFC 9309 §2.3.1.4 "network errors").
    pub network_error: bool,
    /// Which network error: `refused`, `reset`, `never-completes`, or `None` (none, or
    /// of no particular kind).
    pub fault: Option<String>,
    /// Redirects followed before the final response.
    pub redirects: u32,
    /// The last redirect crosses to another authority (§2.3.1.2).
    pub cross_origin: bool,
    /// The `Content-Encoding` it was served with (`gzip`); the body is the decoded one.
    pub content_encoding: Option<String>,
    /// The `Content-Type` it was served with; `None` is `text/plain`.
    pub content_type: Option<String>,
    /// The age of a cached copy, in hours.
    pub cache_age_hours: Option<u32>,
    /// The SHA-256 of the cached copy's body: its key in `bodies.json`.
    pub cache_body_sha256: Option<String>,
}

/// The manifest, every query of `corpus` in corpus order, and every distinct body.
pub fn export(corpus: &Corpus) -> Export {
    let mut bodies = BTreeMap::new();
    let mut address = |bytes: &[u8]| {
        let hash = crate::sha256::hex(bytes);
        bodies
            .entry(hash.clone())
            .or_insert_with(|| ExportBody::new(bytes));
        hash
    };
    let queries: Vec<ExportQuery> = corpus
        .queries()
        .map(|(case, query)| export_query(case, query, &mut address))
        .collect();
    let manifest = Manifest {
        format: EXPORT_FORMAT,
        corpus_version: corpus.version().map(str::to_string),
        corpus_fingerprint: corpus.fingerprint(),
        cases: corpus.cases().len(),
        queries: queries.len(),
        bodies: bodies.len(),
        profiles: Profile::ALL.to_vec(),
    };
    Export {
        manifest,
        queries,
        bodies,
    }
}

fn export_query(
    case: &Case,
    query: &Query,
    address: &mut impl FnMut(&[u8]) -> String,
) -> ExportQuery {
    ExportQuery {
        id: query.id.clone(),
        name: query.name.clone(),
        case: case.id.clone(),
        title: case.title.clone(),
        body_sha256: address(&case.body),
        agent: query.agent.clone(),
        url: query.url.clone(),
        fetch: case.fetch.as_ref().map(|fetch: &Fetch| ExportFetch {
            status: fetch.status,
            network_error: fetch.network_error,
            fault: fetch.fault.map(|f| f.as_str().to_string()),
            redirects: fetch.redirects,
            cross_origin: fetch.cross_origin,
            content_encoding: fetch.content_encoding.map(|e| e.as_str().to_string()),
            content_type: fetch.content_type.clone(),
            cache_age_hours: fetch.cache.as_ref().map(|c| c.age_hours),
            cache_body_sha256: fetch.cache.as_ref().map(|c: &Cache| address(&c.body)),
        }),
        expect: Profile::ALL
            .into_iter()
            .map(|p| (p, query.expect_for(p).as_str().to_string()))
            .collect(),
        level: query.level.as_str().to_string(),
        requirements: query.requirements.clone(),
        question: query.question.clone(),
        why: query.why.clone(),
        undecided: query.is_undecided(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(bytes: &[u8]) -> ExportBody {
        let body = ExportBody::new(bytes);
        assert_eq!(body.bytes(), bytes);
        assert_eq!(body.size, bytes.len());
        body
    }

    #[test]
    fn a_small_body_is_one_text_part() {
        let body = round_trip(b"User-agent: *\nDisallow: /\nDisallow: /\n");
        assert_eq!(body.parts.len(), 1);
        assert_eq!(
            body.parts[0].text.as_deref(),
            Some("User-agent: *\nDisallow: /\nDisallow: /\n")
        );
        assert_eq!(body.parts[0].repeat, None);
        assert!(round_trip(b"").parts.is_empty());
    }

    #[test]
    fn invalid_utf8_is_base64_and_valid_parts_stay_text() {
        let body = round_trip(b"User-agent: *\nDisallow: /\xff\n");
        assert_eq!(
            body.parts[0].b64.as_deref(),
            Some("VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL/8K")
        );
        let mut long = b"User-agent: *\n".to_vec();
        long.extend(b"#.....\n".repeat(1000));
        long.extend(b"Disallow: /\xfe\n");
        let body = round_trip(&long);
        assert_eq!(body.parts.len(), 3);
        assert_eq!(body.parts[0].text.as_deref(), Some("User-agent: *\n"));
        assert_eq!(body.parts[1].text.as_deref(), Some("#.....\n"));
        assert_eq!(body.parts[1].repeat, Some(1000));
        assert!(body.parts[2].b64.is_some());
    }

    #[test]
    fn runs_of_lines_and_of_bytes_repeat() {
        let mut bytes = b"User-agent: *\nDisallow: /".to_vec();
        bytes.extend(vec![b'a'; 5000]);
        bytes.extend(b"\n");
        bytes.extend(b"Disallow: /filler/\n".repeat(300));
        bytes.extend(vec![0xff; 2000]); // a run of a byte that is not UTF-8 alone
        bytes.extend(b"\xe2\x82");
        let body = round_trip(&bytes);
        let shapes: Vec<(bool, Option<usize>)> = body
            .parts
            .iter()
            .map(|p| (p.text.is_some(), p.repeat))
            .collect();
        assert_eq!(
            shapes,
            [
                (true, None),
                (true, Some(5000)),
                (true, None),
                (true, Some(300)),
                (false, Some(2000)),
                (false, None)
            ]
        );
        // A short run stays literal.
        assert_eq!(round_trip(&b"Disallow: /x\n".repeat(20)).parts.len(), 1);
    }

    #[test]
    fn every_corpus_body_is_stored_once_and_exactly() {
        let corpus = Corpus::load(crate::default_dir()).expect("the corpus loads");
        let export = export(&corpus);
        for ((case, _), query) in corpus.queries().zip(&export.queries) {
            let body = &export.bodies[&query.body_sha256];
            assert_eq!(body.bytes(), case.body, "{}", query.id);
            if let Some(cache) = case.fetch.as_ref().and_then(|f| f.cache.as_ref()) {
                let key = query
                    .fetch
                    .as_ref()
                    .and_then(|f| f.cache_body_sha256.as_ref());
                assert_eq!(export.bodies[key.expect("a cache key")].bytes(), cache.body);
            }
        }
        assert_eq!(export.manifest.bodies, export.bodies.len());
        assert!(export.bodies.len() <= corpus.cases().len() * 2);
    }
}
