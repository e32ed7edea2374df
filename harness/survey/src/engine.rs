//! The survey engine: files from an input, their derived queries, every implementation's
//! outcomes through [`reptest_core::runner::evaluate`], and the [`Tally`].
//!
//! Files are read as a stream, one at a time by whichever worker thread (rayon) is free,
//! and surveyed in parallel, so memory stays bounded by one body per thread whatever
//! the input's size, and a slow file holds up only its own thread (counts add in any
//! order: [`Tally::merge`]). Each file is one [`CaseInput`](reptest_core::CaseInput): its body and all its
//! queries at once, so an implementation that parses once and checks many does so. Each
//! implementation is asked through its circuit breaker ([`crate::breaker`]). Only files whose status
//! means the rules apply (2xx, or none, as for a directory or tar archive) are put
//! through the implementations; the others are counted in the status table.
//!
//! The *decided* verdict of a query is the reference's: RFC 9309 as the corpus decides
//! it (the reference passes every decided corpus query). It is taken from the reference's
//! own answers when the reference is one of the implementations surveyed, and asked of it
//! separately otherwise.

use std::path::Path;
use std::time::Duration;

use rayon::prelude::*;
use reptest_core::Implementation;
use reptest_triage::attribution::Attribution;
use serde::{Deserialize, Serialize};

use crate::breaker::{self, Breakers};
use crate::fingerprint::{InputDigest, InputFingerprint};
use crate::provenance::Provenance;
use crate::records::FileRecord;
use crate::tally::Tally;
use crate::{Error, Origins, Shard, SurveyFile};

mod count;
pub(crate) mod file;
mod shares;
mod sites;

use file::Context;

/// The format version of partial results and of `survey.json`. Version 2 added the
/// input's fingerprint and the per-query timeout, and to partials the checksum of the
/// answers to the catalogue's probes and their own checksums; version 3 the
/// [`Provenance`] (reptest's build, the corpus's fingerprints, the runtimes).
pub const FORMAT: u32 = 3;

/// A survey's settings and what it ran: everything its results depend on besides the
/// files. Partials merge only when their headers are equal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The seed of query derivation.
    pub seed: u64,
    /// Queries derived per file (`--queries-per-file`).
    pub queries_per_file: u64,
    /// The origins they are derived from (`--origins`: `all`, `natural`, `probe`).
    #[serde(default = "all_origins")]
    pub origins: String,
    /// At most this many files of the input were read (`--limit`), before sharding.
    pub limit: Option<u64>,
    /// The implementations surveyed, in order.
    pub implementations: Vec<ImplEntry>,
    /// The implementation whose verdict is the decided one.
    pub decided_by: ImplEntry,
    /// The catalogue's questions (id and text), for the reports.
    pub questions: Vec<QuestionEntry>,
    /// The checksum of the attribution ([`attribution_checksum`]): what the
    /// implementations answered to the catalogue's probes, which attribution rests on.
    pub attribution: String,
    /// The circuit breaker's settings ([`crate::breaker`]).
    #[serde(default)]
    pub breaker: breaker::Limits,
    /// The per-query timeout the implementations were given ([`Options::timeout`]; in
    /// the JSON: `timeout_ms`).
    #[serde(with = "breaker::millis", rename = "timeout_ms")]
    pub timeout: Duration,
    /// What was read: the same for every shard of one input
    /// ([`crate::fingerprint`]).
    pub input: InputFingerprint,
    /// Which reptest, corpus and runtimes made the results ([`crate::provenance`]).
    pub provenance: Provenance,
}

/// An implementation's name and version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplEntry {
    /// The short name (`reference`, `rust-robotxt`, ...).
    pub name: String,
    /// The version of the library under test.
    pub version: String,
}

impl ImplEntry {
    /// The name and version of `implementation`.
    pub fn of(implementation: &dyn Implementation) -> ImplEntry {
        ImplEntry {
            name: implementation.name().to_string(),
            version: implementation.info().version.clone(),
        }
    }
}

/// A question of the catalogue: its id and text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionEntry {
    /// `Q-...`.
    pub id: String,
    /// The question, as the catalogue asks it.
    pub question: String,
    /// Whether the corpus leaves it open on some example: an RFC sentence permits both
    /// verdicts (`permits_both`), so a split query attributed to it decides nothing.
    #[serde(default)]
    pub open: bool,
}

/// The questions of a corpus's catalogue.
pub fn questions_of(corpus: &reptest_corpus::Corpus) -> Vec<QuestionEntry> {
    corpus
        .questions()
        .iter()
        .map(|q| QuestionEntry {
            id: q.id.clone(),
            question: q.question.clone(),
            open: q.permits_both.is_some(),
        })
        .collect()
}

/// The checksum ([`crate::fingerprint::checksum`]) of `attribution`: of its debug text,
/// which lists every question's features and what each implementation answered to each
/// of its probes (vectors and ordered maps, so the same for the same answers).
pub fn attribution_checksum(attribution: &Attribution) -> String {
    crate::fingerprint::checksum(&format!("{attribution:?}"))
}

/// A survey's result, whole or one shard's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Survey {
    /// What it ran (its fields at the top level of the JSON).
    #[serde(flatten)]
    pub header: Header,
    /// What it counted.
    pub tally: Tally,
}

/// What to survey with.
pub struct Setup<'a> {
    /// The implementations, in report order.
    pub implementations: &'a [&'a dyn Implementation],
    /// The implementation that decides (the reference).
    pub decider: &'a dyn Implementation,
    /// Attribution to the catalogue's questions, probed with `implementations`
    /// ([`reptest_triage::attribution::probe`]).
    pub attribution: &'a Attribution,
    /// The catalogue's questions.
    pub questions: Vec<QuestionEntry>,
    /// Which reptest, corpus and runtimes survey ([`crate::provenance`]), recorded in the
    /// [`Header`].
    pub provenance: Provenance,
}

impl Setup<'_> {
    /// Whether question `id` is open ([`QuestionEntry::open`]).
    pub fn is_open(&self, id: &str) -> bool {
        self.questions.iter().any(|q| q.id == id && q.open)
    }
}

/// How to survey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The seed of query derivation.
    pub seed: u64,
    /// Queries derived per file.
    pub queries_per_file: usize,
    /// The shard surveyed.
    pub shard: Shard,
    /// Read at most this many files of the input (before sharding).
    pub limit: Option<u64>,
    /// The circuit breaker's settings.
    pub breaker: breaker::Limits,
    /// The per-query timeout the implementations were built with: recorded in the
    /// [`Header`], not applied here (the caller gives it to the implementations).
    pub timeout: Duration,
    /// The origins queries are derived from (`--origins`).
    pub origins: Origins,
    /// Whether the observer is given each file's records ([`Observer::record`]).
    pub records: bool,
}

/// [`Options::timeout`] by default: 1 s, `reptest survey --timeout`'s default.
pub const TIMEOUT: Duration = Duration::from_secs(1);

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 1,
            queries_per_file: 20,
            shard: Shard::WHOLE,
            limit: None,
            breaker: breaker::Limits::default(),
            timeout: TIMEOUT,
            origins: Origins::All,
            records: false,
        }
    }
}

/// Told what a survey does as it goes (from worker threads).
pub trait Observer: Sync {
    /// `files` more files of the shard were tallied.
    fn tallied(&self, files: u64) {
        let _ = files;
    }

    /// An entry or record was skipped (a non-fatal [`Error`]).
    fn skipped(&self, error: &Error) {
        let _ = error;
    }

    /// One more file was read from the input, whether or not it is in the shard (a
    /// shard's tally counts only its own files in `files.read`).
    fn read(&self) {}

    /// One file's records, when [`Options::records`] asks for them.
    fn record(&self, record: &FileRecord) {
        let _ = record;
    }

    /// One more file of the shard was tallied: `tally` is its counts alone (each
    /// implementation's missing answers by kind, whether its circuit breaker opened on
    /// it, ...), given before [`Observer::tallied`] counts the file.
    fn counted(&self, tally: &Tally) {
        let _ = tally;
    }
}

/// An [`Observer`] that ignores everything.
pub struct Quiet;

impl Observer for Quiet {}

/// Surveys the input at `path` (see [`crate::open`]).
///
/// # Errors
///
/// When the input cannot be opened, or cannot be read on (a fatal [`Error`]): a partial
/// survey of a damaged input is not given, so that no result silently misses files.
pub fn survey(
    path: &Path,
    options: &Options,
    setup: &Setup<'_>,
    observer: &dyn Observer,
) -> Result<Survey, Error> {
    let name = path.display().to_string();
    survey_files(crate::open(path)?, &name, options, setup, observer)
}

/// Surveys `files`, read from the input named `input` (the name in their sources).
///
/// # Errors
///
/// The first fatal [`Error`] the files give.
pub fn survey_files(
    files: impl Iterator<Item = Result<SurveyFile, Error>> + Send,
    input: &str,
    options: &Options,
    setup: &Setup<'_>,
    observer: &dyn Observer,
) -> Result<Survey, Error> {
    let mut header = Header::of(options, setup);
    let n = setup.implementations.len();
    let decider_at = setup
        .implementations
        .iter()
        .position(|i| i.name() == setup.decider.name());
    let context = Context {
        setup,
        options,
        decider_at,
        input,
        breakers: Breakers::new(options.breaker, n),
    };
    // External adapters keep worker threads waiting on pipes: twice as many threads as
    // cores keep pooled adapter processes busy (as the corpus runner does).
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(4))
        .build()
        .ok();
    let mut wanted = Wanted {
        files,
        input,
        options,
        observer,
        read: 0,
        skipped: 0,
        digest: InputDigest::new(),
        fatal: None,
    };
    // The files wanted, read one at a time by whichever thread is free (`par_bridge`), so
    // a slow file holds up its own thread only, and memory holds one body per thread.
    // Fused: once the input ends (or fails), no thread reads it again.
    let mut work = || {
        (&mut wanted)
            .fuse()
            .par_bridge()
            .map(|file| {
                let t = context.file(&file, observer);
                observer.counted(&t);
                observer.tallied(1);
                t
            })
            .reduce(
                || Tally::new(n),
                |mut whole, part| {
                    // Same implementation count by construction, and no sum of per-file
                    // counts reaches 2^64; tallies add in any order.
                    let _ = whole.merge(part);
                    whole
                },
            )
    };
    let mut tally = match &pool {
        Some(pool) => pool.install(work),
        None => work(),
    };
    if let Some(err) = wanted.fatal {
        return Err(err);
    }
    tally.files.skipped += wanted.skipped;
    header.input = wanted.digest.finish();
    Ok(Survey { header, tally })
}

impl Header {
    /// The implementations' names, in the survey's order.
    pub fn names(&self) -> Vec<&str> {
        self.implementations
            .iter()
            .map(|i| i.name.as_str())
            .collect()
    }

    /// The header of a survey with these settings (its input's fingerprint still empty).
    fn of(options: &Options, setup: &Setup<'_>) -> Header {
        Header {
            seed: options.seed,
            queries_per_file: options.queries_per_file as u64,
            origins: options.origins.label().to_string(),
            limit: options.limit,
            implementations: setup
                .implementations
                .iter()
                .map(|i| ImplEntry::of(*i))
                .collect(),
            decided_by: ImplEntry::of(setup.decider),
            questions: setup.questions.clone(),
            attribution: attribution_checksum(setup.attribution),
            breaker: options.breaker,
            timeout: options.timeout,
            input: InputFingerprint::default(),
            provenance: setup.provenance.clone(),
        }
    }
}

/// The files of the input that this shard surveys, read one at a time. Every entry read
/// is counted and digested before sharding (so the same in every shard); the files end
/// at the limit (`--limit`) or at the first fatal error, which is kept.
struct Wanted<'a, I> {
    files: I,
    input: &'a str,
    options: &'a Options,
    observer: &'a dyn Observer,
    /// Entries read.
    read: u64,
    /// Entries skipped as unreadable (every shard reads every entry; the first counts
    /// them).
    skipped: u64,
    /// Every entry read, before sharding.
    digest: InputDigest,
    /// The fatal error the input ended with.
    fatal: Option<Error>,
}

impl<I: Iterator<Item = Result<SurveyFile, Error>>> Iterator for Wanted<'_, I> {
    type Item = SurveyFile;

    fn next(&mut self) -> Option<SurveyFile> {
        loop {
            if self.options.limit.is_some_and(|limit| self.read >= limit) {
                return None;
            }
            match self.files.next()? {
                Ok(file) => {
                    self.read += 1;
                    self.digest.file(&file, self.input);
                    self.observer.read();
                    if self.options.shard.holds(&file, self.input) {
                        return Some(file);
                    }
                }
                Err(err) if err.is_fatal() => {
                    self.fatal = Some(err);
                    return None;
                }
                Err(err) => {
                    self.digest.skipped(err.location(), self.input);
                    self.observer.skipped(&err);
                    if self.options.shard.index == 0 {
                        self.skipped += 1;
                    }
                }
            }
        }
    }
}

/// `all`, the origins of a header written before `--origins` existed.
fn all_origins() -> String {
    Origins::All.label().to_string()
}
