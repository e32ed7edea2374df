//! The corpus as language-neutral data (`reptest corpus export`): one [`ExportQuery`] per
//! query with everything a test in any language needs (the exact bytes of the body, the
//! agent and URL, the fetch scenario, the expected verdict per profile, the level, the
//! requirement IDs), and a [`Manifest`] naming the corpus version and fingerprint.
//!
//! Bodies travel as base64 (`body_b64`, always) and as text (`body`, when the bytes are
//! valid UTF-8), so a consumer never has to guess an encoding.
//!
//! ```
//! let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
//! let (manifest, queries) = reptest_corpus::export::export(&corpus);
//! assert_eq!(manifest.queries, queries.len());
//! assert_eq!(queries[0].expect.len(), 2, "one expectation per profile");
//! ```

use crate::model::{Cache, Case, Fetch, Query};
use crate::vocabulary::Profile;
use crate::Corpus;
use base64::Engine;
use serde::Serialize;
use std::collections::BTreeMap;

/// The format of the export files; a consumer checks it.
pub const EXPORT_FORMAT: u32 = 1;

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
    /// The robots.txt body, base64 (standard alphabet, padded).
    pub body_b64: String,
    /// The body as text, when it is valid UTF-8.
    pub body: Option<String>,
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
    /// The cached copy's body, base64.
    pub cache_body_b64: Option<String>,
}

/// The manifest and every query of `corpus`, in corpus order.
pub fn export(corpus: &Corpus) -> (Manifest, Vec<ExportQuery>) {
    let queries: Vec<ExportQuery> = corpus
        .queries()
        .map(|(case, query)| export_query(case, query))
        .collect();
    let manifest = Manifest {
        format: EXPORT_FORMAT,
        corpus_version: corpus.version().map(str::to_string),
        corpus_fingerprint: corpus.fingerprint(),
        cases: corpus.cases().len(),
        queries: queries.len(),
        profiles: Profile::ALL.to_vec(),
    };
    (manifest, queries)
}

fn export_query(case: &Case, query: &Query) -> ExportQuery {
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    ExportQuery {
        id: query.id.clone(),
        name: query.name.clone(),
        case: case.id.clone(),
        title: case.title.clone(),
        body_b64: b64(&case.body),
        body: String::from_utf8(case.body.clone()).ok(),
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
            cache_body_b64: fetch.cache.as_ref().map(|c: &Cache| b64(&c.body)),
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
