//! Provenance: what a survey's results come from besides its files and its settings, so
//! that a reader can tell which reptest, corpus and runtimes made them, and `reptest
//! survey merge` can refuse partials made by different ones.
//!
//! A survey's [`Header`](crate::engine::Header) holds one [`Provenance`] next to the
//! settings it already records (the input's fingerprint, the seed, the queries per file,
//! the per-query timeout, the circuit breaker, the implementations with their versions):
//! those are part of the provenance too, and are not repeated here.
//!
//! * [`Build`]: reptest's version, the git commit it was built from and whether the
//!   working tree was dirty, and the compiler. The library does not find them out: the
//!   command line captures them at build time (its build script) and hands them down.
//! * [`CorpusPrint`]: the corpus version (`corpus/VERSION`) and the fingerprints
//!   ([`checksum`]) of its cases and of its question catalogue (`corpus/questions.toml`),
//!   which attribution rests on.
//! * [`Provenance::runtimes`]: the runtime each implementation ran on, by name, for the
//!   implementations that run apart from reptest's own code (the external adapters: the
//!   Python, Node.js, JVM, Go, Perl or Ruby version; Google's C++ library: where it was
//!   linked from). The reference and the Rust crates run in reptest's process, built by
//!   [`Build::rustc`]: they have no entry.
//!
//! Every field but the corpus's depends on the machine or the commit: the committed
//! snapshot of a survey (`reports/survey/`) leaves them out (`docs/survey.md`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use crate::fingerprint::checksum;

/// What a survey's results come from besides its files and settings (see the module
/// documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// reptest itself, as built.
    pub reptest: Build,
    /// The corpus: its version and fingerprints.
    pub corpus: CorpusPrint,
    /// The runtime each implementation that runs apart from reptest ran on, by
    /// implementation name (`python-protego` → `Python 3.11.2`). In-process Rust
    /// implementations have no entry.
    pub runtimes: BTreeMap<String, String>,
}

/// The reptest that ran a survey, as its command line was built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// The version of the `reptest` crate.
    pub version: String,
    /// The git commit (40 hex digits) the binary was built from; [`UNKNOWN`] when it was
    /// not built from a git checkout, or git was missing.
    pub commit: String,
    /// Whether tracked files differed from that commit when it was built; `None` when not
    /// known.
    pub dirty: Option<bool>,
    /// The compiler (`rustc --version`), or [`UNKNOWN`].
    pub rustc: String,
}

/// What a field says when it is not known.
pub const UNKNOWN: &str = "unknown";

impl Default for Build {
    fn default() -> Build {
        Build {
            version: UNKNOWN.into(),
            commit: UNKNOWN.into(),
            dirty: None,
            rustc: UNKNOWN.into(),
        }
    }
}

impl std::fmt::Display for Build {
    /// `0.1.0, commit 0123abc... (dirty), rustc 1.90.0 (...)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dirty = match self.dirty {
            Some(true) => " (dirty)",
            Some(false) => "",
            None => " (clean or dirty: unknown)",
        };
        write!(
            f,
            "{}, commit {}{dirty}, {}",
            self.version, self.commit, self.rustc
        )
    }
}

/// The corpus a survey's attribution and questions come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusPrint {
    /// `corpus/VERSION`, or [`UNKNOWN`] when the corpus has none.
    pub version: String,
    /// The corpus's cases: how many.
    pub cases: u64,
    /// The 128-bit XXH3 hash of its cases (id, title, body, dimensions, fetch scenario,
    /// queries with their expectations; not where they were read from: their file and
    /// lines), in corpus order, as 32 hex digits.
    pub fingerprint: String,
    /// The catalogue's questions: how many.
    pub questions: u64,
    /// The [`checksum`] of its question catalogue (every question with its RFC quotes,
    /// decision, features and examples; not its line), in catalogue order.
    pub questions_fingerprint: String,
}

impl Default for CorpusPrint {
    fn default() -> CorpusPrint {
        CorpusPrint {
            version: UNKNOWN.into(),
            cases: 0,
            fingerprint: UNKNOWN.into(),
            questions: 0,
            questions_fingerprint: UNKNOWN.into(),
        }
    }
}

impl CorpusPrint {
    /// The version and fingerprints of `corpus`: the same for the same cases and
    /// questions wherever the corpus lies (on disk or built in).
    pub fn of(corpus: &reptest_corpus::Corpus) -> CorpusPrint {
        let questions: Vec<_> = corpus.questions().iter().map(question).collect();
        CorpusPrint {
            version: corpus.version().unwrap_or(UNKNOWN).to_string(),
            cases: corpus.cases().len() as u64,
            fingerprint: cases_fingerprint(corpus.cases()),
            questions: questions.len() as u64,
            questions_fingerprint: checksum(&questions),
        }
    }
}

/// The 128-bit XXH3 hash of `cases`, as 32 hex digits: of each case's [`checksum`]
/// without its body, then its body's octets (hashed as they are: a body of 500 KB in
/// JSON would be a list of numbers five times longer).
fn cases_fingerprint(cases: &[reptest_corpus::Case]) -> String {
    let mut h = Xxh3::new();
    for c in cases {
        h.update(checksum(&case(c)).as_bytes());
        h.update(&(c.body.len() as u64).to_le_bytes());
        h.update(&c.body);
    }
    format!("{:032x}", h.digest128())
}

/// What a case says but its body, without where it was read from (its file and lines).
fn case(c: &reptest_corpus::Case) -> impl Serialize + '_ {
    let queries: Vec<_> = c.queries.iter().map(query).collect();
    (&c.id, &c.title, &c.dimensions, &c.fetch, queries)
}

/// What a query says, without its line.
fn query(q: &reptest_corpus::Query) -> impl Serialize + '_ {
    (
        (&q.id, &q.name, &q.agent, &q.url, &q.expect, &q.requirements),
        (&q.level, &q.why, &q.profiles, &q.triage, &q.question),
        (&q.hits, &q.observed),
    )
}

/// What a question says, without its line.
fn question(q: &reptest_corpus::Question) -> impl Serialize + '_ {
    (
        (
            &q.id,
            &q.question,
            &q.rfc,
            &q.decision,
            &q.permits_both,
            &q.level,
        ),
        (&q.requirements, &q.dimensions, &q.features, &q.examples),
        &q.upstream,
    )
}

impl std::fmt::Display for CorpusPrint {
    /// `version 3.0.0, 812 cases (fingerprint ...), 40 questions (fingerprint ...)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "version {}, {} cases (fingerprint {}), {} questions (fingerprint {})",
            self.version, self.cases, self.fingerprint, self.questions, self.questions_fingerprint
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_on_disk_and_built_in_have_one_print() {
        let on_disk = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
        let builtin = reptest_corpus::Corpus::embedded().unwrap();
        let print = CorpusPrint::of(&on_disk);
        assert_eq!(print, CorpusPrint::of(&builtin));
        assert_eq!(print.fingerprint.len(), 32);
        assert!(print.cases > 0 && print.questions > 0, "{print}");
        assert_ne!(print.version, UNKNOWN);
    }

    #[test]
    fn a_case_counts_by_what_it_says_not_where_it_was_read() {
        let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
        let original = corpus.cases()[0].clone();
        let of = |c: &reptest_corpus::Case| cases_fingerprint(std::slice::from_ref(c));
        let mut moved = original.clone();
        moved.file = "elsewhere.toml".into();
        moved.line += 10;
        moved.queries[0].line += 10;
        assert_eq!(of(&moved), of(&original));
        let mut changed = original.clone();
        changed.body.push(b'\n');
        assert_ne!(of(&changed), of(&original));
        let mut expected = original.clone();
        expected.queries[0].url.push('x');
        assert_ne!(of(&expected), of(&original));
    }

    #[test]
    fn a_changed_question_changes_the_catalogue_fingerprint_only() {
        let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
        let print = CorpusPrint::of(&corpus);
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&reptest_corpus::default_dir(), dir.path());
        let questions = dir.path().join("questions.toml");
        let text = std::fs::read_to_string(&questions).unwrap();
        // A comment changes neither: the fingerprints are of what the corpus says.
        std::fs::write(&questions, format!("# a comment\n{text}")).unwrap();
        let same = CorpusPrint::of(&reptest_corpus::Corpus::load(dir.path()).unwrap());
        assert_eq!(same, print);
        let reworded = text.replacen("\nquestion = \"", "\nquestion = \"Reworded: ", 1);
        std::fs::write(&questions, reworded).unwrap();
        let other = CorpusPrint::of(&reptest_corpus::Corpus::load(dir.path()).unwrap());
        assert_eq!(other.fingerprint, print.fingerprint);
        assert_ne!(other.questions_fingerprint, print.questions_fingerprint);
    }

    fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }

    #[test]
    fn a_build_says_what_it_does_not_know() {
        let unknown = Build::default().to_string();
        assert!(unknown.contains("commit unknown"), "{unknown}");
        assert!(unknown.contains("unknown"), "{unknown}");
        let dirty = Build {
            version: "0.1.0".into(),
            commit: "a".repeat(40),
            dirty: Some(true),
            rustc: "rustc 1.90.0".into(),
        };
        assert_eq!(
            dirty.to_string(),
            format!("0.1.0, commit {} (dirty), rustc 1.90.0", "a".repeat(40))
        );
    }
}
