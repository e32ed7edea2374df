//! The reptest case model: loads and validates the RFC 9309 conformance corpus.
//!
//! The corpus is a folder of TOML files (`corpus/` at the top of the repository); the
//! format is specified in `corpus/README.md`, and this crate enforces it. A [`Corpus`] is
//! a list of [`Case`]s: each is one robots.txt body, byte for byte, with one or more
//! [`Query`]s, each an (agent product token, URL) pair with the [`Expect`]ed outcome and
//! the requirement IDs it tests. The requirement index (`corpus/requirements.md`, a copy
//! of the project's `shared/rfc9309-requirements.md`) gives the IDs and their
//! [`Level`]s.
//!
//! A case may say how its body was obtained, a [`Fetch`] (`[case.fetch]`, RFC 9309
//! §2.3.1–§2.5): the final status, the redirects before it (the last one possibly
//! [`cross_origin`](Fetch::cross_origin)), a [`NetworkFault`] (`refused`, `reset`,
//! `never-completes`) in place of a status, the [`ContentEncoding`] and `Content-Type` it
//! was served with (the body is always the decoded file), and a cached copy with its age
//! (§2.4).
//!
//! This crate knows nothing of any matcher: expected verdicts come from the RFC text.
//!
//! ```
//! let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
//! let stats = corpus.stats();
//! assert!(stats.queries >= stats.cases);
//! for (case, query) in corpus.queries() {
//!     assert!(!case.body.is_empty() || case.fetch.is_some() || query.expect.accepts(true));
//! }
//! ```
#![deny(missing_docs)]

mod body_builder;
mod error;
pub mod export;
mod load;
mod model;
pub mod names;
pub mod positional;
pub mod questions;
mod requirements;
mod sha256;
mod stats;
mod toml_shape;
mod unescape;
mod vocabulary;

/// The corpus files embedded at build time (`build.rs`).
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}
pub mod write;

pub use error::Error;
pub use model::{
    Cache, Case, Cause, ContentEncoding, Dimension, Expect, Fetch, Level, NetworkFault, Query,
};
pub use questions::{Question, RfcQuote, ThreadKind, ThreadStatus, Upstream};
pub use requirements::{Requirement, RequirementIndex, RequirementLevel};
pub use stats::{RequirementCoverage, Stats};
pub use vocabulary::{OutcomeWord, Profile, UnknownWord};

use std::path::{Path, PathBuf};

/// The 1-based line of byte `offset` in `text`: where a TOML span (from `toml::Spanned`
/// or a parse error) starts, for error messages that name a line. Also used by the
/// harness for its `adapters.toml` files.
///
/// ```
/// assert_eq!(reptest_corpus::line_of("a\nb\nc", 2), 2);
/// ```
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The FNV-1a 64 offset basis: the hash of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a 64 of `bytes`, continuing from `hash` ([`FNV_OFFSET`] to start): a small stable
/// hash for fingerprints and ids that must be the same on every machine and version.
///
/// ```
/// use reptest_corpus::{fnv1a, FNV_OFFSET};
/// assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
/// assert_eq!(fnv1a(fnv1a(FNV_OFFSET, b"foo"), b"bar"), fnv1a(FNV_OFFSET, b"foobar"));
/// ```
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The major part of a `MAJOR.MINOR.PATCH` version.
///
/// ```
/// assert_eq!(reptest_corpus::major_of("2.1.0"), Some(2));
/// assert_eq!(reptest_corpus::major_of("x"), None);
/// ```
pub fn major_of(version: &str) -> Option<u64> {
    version.split('.').next()?.parse().ok()
}

/// The corpus folder of this source tree (`corpus/` at the top of the repository).
pub fn default_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    dir.canonicalize().unwrap_or(dir)
}

/// A loaded, validated corpus: every case file below a folder, plus the requirement index.
#[derive(Debug, Clone)]
pub struct Corpus {
    cases: Vec<Case>,
    requirements: RequirementIndex,
    version: Option<String>,
    questions: Vec<Question>,
}

impl Corpus {
    /// Loads `dir/requirements.md` and every `*.toml` file below `dir` (sorted by path),
    /// and validates them. All problems found are reported together, each naming the
    /// file, the line and the case id.
    pub fn load(dir: impl AsRef<Path>) -> Result<Corpus, Error> {
        load::load_dir(dir.as_ref())
    }

    /// The corpus of the source tree this crate was built from, embedded in the binary
    /// (its files under `corpus/`, as they were at build time): an installed `reptest`
    /// runs anywhere with it. Cases name their files `corpus/...`.
    pub fn embedded() -> Result<Corpus, Error> {
        let find = |name: &str| {
            embedded::FILES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| *t)
        };
        let index = find("requirements.md").unwrap_or_default();
        let version = find("VERSION");
        let questions = find(load::QUESTIONS);
        let files: Vec<(PathBuf, String)> = embedded::FILES
            .iter()
            .filter(|(name, _)| name.ends_with(".toml") && *name != load::QUESTIONS)
            .map(|(name, text)| (Path::new("corpus").join(name), text.to_string()))
            .collect();
        let questions_path = Path::new("corpus").join(load::QUESTIONS);
        load::load_texts(
            (Path::new("corpus/requirements.md"), index),
            version.map(|v| (Path::new("corpus/VERSION"), v)),
            questions.map(|text| (questions_path.as_path(), text)),
            &files,
            Vec::new(),
        )
    }

    /// Loads case files given one by one, validated against the index at `requirements`.
    pub fn load_files(requirements: &Path, files: &[PathBuf]) -> Result<Corpus, Error> {
        load::load_files(requirements, files)
    }

    /// The cases, in file order then in order of appearance.
    pub fn cases(&self) -> &[Case] {
        &self.cases
    }

    /// The requirement index the corpus was validated against.
    pub fn requirements(&self) -> &RequirementIndex {
        &self.requirements
    }

    /// Every query with its case, in corpus order.
    pub fn queries(&self) -> impl Iterator<Item = (&Case, &Query)> {
        self.cases
            .iter()
            .flat_map(|case| case.queries.iter().map(move |query| (case, query)))
    }

    /// A fingerprint of the corpus: FNV-1a 64 ([`fnv1a`]) over every case id, query id,
    /// agent, URL and expectation under every profile, in corpus order, as 16 lowercase
    /// hex digits. The same corpus gives the same string on every machine; adding,
    /// removing or renaming a query, or changing its URL or an expectation, changes it.
    /// Reports and gate baselines record it, to tell whether they share a corpus.
    pub fn fingerprint(&self) -> String {
        let mut hash = FNV_OFFSET;
        for (case, query) in self.queries() {
            for field in [&case.id, &query.id, &query.agent, &query.url] {
                hash = fnv1a(hash, field.as_bytes());
                hash = fnv1a(hash, b"\0");
            }
            for profile in Profile::ALL {
                hash = fnv1a(hash, query.expect_for(profile).as_str().as_bytes());
                hash = fnv1a(hash, b"\0");
            }
        }
        format!("{hash:016x}")
    }

    /// Counts of cases and queries, per level and per requirement, and the requirements
    /// that no query covers.
    pub fn stats(&self) -> Stats {
        stats::compute(self)
    }

    pub(crate) fn from_parts(
        cases: Vec<Case>,
        requirements: RequirementIndex,
        version: Option<String>,
        questions: Vec<Question>,
    ) -> Corpus {
        Corpus {
            cases,
            requirements,
            version,
            questions,
        }
    }

    /// The question catalogue (`questions.toml` at the top of the corpus folder), in file
    /// order; empty when the corpus has none or was loaded file by file.
    pub fn questions(&self) -> &[Question] {
        &self.questions
    }

    /// The question with this id.
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }

    /// The corpus version (`MAJOR.MINOR.PATCH`, from the `VERSION` file beside
    /// `requirements.md`; `corpus/CHANGELOG.md` says what each changed), if the corpus
    /// has one. A new major version changes expectations: baselines recorded against
    /// another major version are refused by the gate.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// The major part of [`Corpus::version`].
    pub fn major_version(&self) -> Option<u64> {
        major_of(self.version.as_deref()?)
    }
}

#[cfg(test)]
mod embedded_tests {
    use super::*;

    /// The embedded corpus is the source tree's, file for file.
    #[test]
    fn the_embedded_corpus_is_the_source_trees() {
        let on_disk = Corpus::load(default_dir()).expect("the corpus loads");
        let embedded = Corpus::embedded().expect("the embedded corpus loads");
        assert_eq!(embedded.fingerprint(), on_disk.fingerprint());
        assert_eq!(embedded.version(), on_disk.version());
        assert_eq!(embedded.cases().len(), on_disk.cases().len());
        for (a, b) in embedded.cases().iter().zip(on_disk.cases()) {
            assert_eq!((&a.id, &a.body, &a.queries), (&b.id, &b.body, &b.queries));
            assert!(a.file.starts_with("corpus"), "{}", a.file.display());
        }
    }
}
