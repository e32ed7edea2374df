//! The survey engine: files from an input, their derived queries, every implementation's
//! outcomes through [`reptest_core::runner::evaluate`], and the [`Tally`].
//!
//! Files are read as a stream, one at a time by whichever worker thread (rayon) is free,
//! and surveyed in parallel, so memory stays bounded by one body per thread whatever
//! the input's size, and a slow file holds up only its own thread (counts add in any
//! order: [`Tally::merge`]). Each file is one [`CaseInput`]: its body and all its
//! queries at once, so an implementation that parses once and checks many does so. Each
//! implementation is asked through its circuit breaker ([`crate::breaker`]). Only files whose status
//! means the rules apply (2xx, or none, as for a directory or tar archive) are put
//! through the implementations; the others are counted in the status table.
//!
//! The *decided* verdict of a query is the reference's: RFC 9309 as the corpus decides
//! it (the reference passes every decided corpus query). It is taken from the reference's
//! own answers when the reference is one of the implementations surveyed, and asked of it
//! separately otherwise.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use rayon::prelude::*;
use reptest_core::runner::evaluate;
use reptest_core::{CaseInput, Implementation, Outcome, QueryInput};
use reptest_triage::attribution::Attribution;
use reptest_triage::features::{features_with, BodyScan};
use serde::{Deserialize, Serialize};

use crate::breaker::{self, Answers, Breakers};
use crate::fingerprint::{InputDigest, InputFingerprint};
use crate::provenance::Provenance;
use crate::tally::{Example, NewGroup, StatusRow, Tally, EXAMPLE_BODY_LIMIT};
use crate::{derive, AccessBranch, Cut, Error, Shard, StatusFamily, SurveyFile, SurveyQuery};

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
}

/// The questions of a corpus's catalogue.
pub fn questions_of(corpus: &reptest_corpus::Corpus) -> Vec<QuestionEntry> {
    corpus
        .questions()
        .iter()
        .map(|q| QuestionEntry {
            id: q.id.clone(),
            question: q.question.clone(),
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
                let t = context.file(&file);
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
    /// The header of a survey with these settings (its input's fingerprint still empty).
    fn of(options: &Options, setup: &Setup<'_>) -> Header {
        Header {
            seed: options.seed,
            queries_per_file: options.queries_per_file as u64,
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

struct Context<'a> {
    setup: &'a Setup<'a>,
    options: &'a Options,
    decider_at: Option<usize>,
    input: &'a str,
    breakers: Breakers,
}

impl Context<'_> {
    /// The tally of one file.
    fn file(&self, file: &SurveyFile) -> Tally {
        let n = self.setup.implementations.len();
        let mut t = Tally::new(n);
        let queries = self.count_file(&mut t, file);
        if queries.is_empty() {
            return t;
        }
        let inputs: Vec<QueryInput<'_>> = queries.iter().map(SurveyQuery::input).collect();
        let case = CaseInput {
            robots: &file.body,
            fetch: None,
            queries: &inputs,
        };
        let answers = self.answers(&case);
        count_breakers(&mut t, &answers);
        let decided = self.decided(&answers, &case);
        let mut seen = Seen::new(n);
        let locator = file.source.strip_prefix(self.input).unwrap_or(&file.source);
        // The body's features are read once, at its first split query (attribution).
        let scan = std::cell::OnceCell::new();
        for (q, query) in queries.iter().enumerate() {
            let verdicts: Vec<Option<bool>> = answers
                .iter()
                .map(|a| a.outcome(q).and_then(Outcome::allowed))
                .collect();
            count_answers(&mut t, &mut seen, &answers, q, &verdicts, decided[q]);
            if !count_agreement(&mut t, &verdicts) {
                continue;
            }
            self.split(
                &mut t,
                file,
                scan.get_or_init(|| BodyScan::of(&file.body)),
                locator,
                q,
                query,
                &verdicts,
                decided[q],
                &mut seen,
            );
        }
        seen.count_files(&mut t);
        t
    }

    /// Counts the file in `t` (read, cut, status) and returns its derived queries: none
    /// when its status means the rules do not apply.
    fn count_file(&self, t: &mut Tally, file: &SurveyFile) -> Vec<SurveyQuery> {
        t.files.read = 1;
        match file.cut {
            Some(Cut::Limit) => t.files.cut_at_limit = 1,
            Some(Cut::Archive) => t.files.cut_in_archive = 1,
            None => {}
        }
        let family = file
            .status
            .map_or("none", |status| StatusFamily::of(status).label());
        let branch = AccessBranch::of(file.status);
        let mut row = StatusRow {
            branch: branch.label().to_string(),
            files: 1,
            queries: 0,
        };
        if !branch.rules_apply() {
            t.files.not_surveyed = 1;
            t.status.insert(family.to_string(), row);
            return Vec::new();
        }
        t.files.surveyed = 1;
        let queries = derive(file, self.options.seed, self.options.queries_per_file);
        row.queries = queries.len() as u64;
        t.status.insert(family.to_string(), row);
        t.queries = queries.len() as u64;
        queries
    }

    /// Every implementation's answers to the file's queries, through its breaker.
    fn answers(&self, case: &CaseInput<'_>) -> Vec<Answers> {
        self.setup
            .implementations
            .iter()
            .enumerate()
            .map(|(i, implementation)| {
                self.breakers
                    .evaluate(i, *implementation, case, Some(i) == self.decider_at)
            })
            .collect()
    }

    /// The decided verdict of each query: the decider's among `answers`, or asked of it.
    fn decided(&self, answers: &[Answers], case: &CaseInput<'_>) -> Vec<Option<bool>> {
        match self.decider_at {
            Some(at) => (0..case.queries.len())
                .map(|q| answers[at].outcome(q).and_then(Outcome::allowed))
                .collect(),
            None => evaluate(self.setup.decider, case)
                .iter()
                .map(Outcome::allowed)
                .collect(),
        }
    }

    /// Attributes one split query: to a question, or to a new group.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &self,
        t: &mut Tally,
        file: &SurveyFile,
        scan: &BodyScan<'_>,
        locator: &str,
        q: usize,
        query: &SurveyQuery,
        verdicts: &[Option<bool>],
        decided: Option<bool>,
        seen: &mut Seen,
    ) {
        let names: Vec<&str> = self
            .setup
            .implementations
            .iter()
            .map(|i| i.name())
            .collect();
        let by_name: BTreeMap<&str, bool> = names
            .iter()
            .zip(verdicts)
            .filter_map(|(name, v)| Some((*name, (*v)?)))
            .collect();
        let side = |verdict: bool| -> Vec<String> {
            let mut side: Vec<String> = by_name
                .iter()
                .filter(|(_, v)| **v == verdict)
                .map(|(name, _)| name.to_string())
                .collect();
            side.sort();
            side
        };
        let (allowed, disallowed) = (side(true), side(false));
        let features = features_with(scan, &query.agent, &query.url);
        match self.setup.attribution.of_verdicts(&by_name, &features) {
            Some(id) => count_question(t, seen, id, &allowed, &disallowed, decided),
            None => {
                let key = NewGroup::key(&allowed, &disallowed);
                seen.new.insert(key.clone());
                t.new
                    .entry(key)
                    .and_modify(|group| group.queries += 1)
                    .or_insert_with(|| NewGroup {
                        allowed,
                        disallowed,
                        queries: 1,
                        files: 0,
                        example: example(file, locator, q, query),
                        minimized: None,
                    });
            }
        }
    }
}

/// Counts a split query attributed to question `id`, and who is on its minority side:
/// the smaller side, or on a tie the side against the `decided` verdict.
fn count_question(
    t: &mut Tally,
    seen: &mut Seen,
    id: &str,
    allowed: &[String],
    disallowed: &[String],
    decided: Option<bool>,
) {
    t.agreement.attributed += 1;
    let tally = t.per_question.entry(id.to_string()).or_default();
    tally.queries += 1;
    seen.questions.insert(id.to_string());
    let minority = match allowed.len().cmp(&disallowed.len()) {
        std::cmp::Ordering::Less => Some(allowed),
        std::cmp::Ordering::Greater => Some(disallowed),
        std::cmp::Ordering::Equal => match decided {
            Some(true) => Some(disallowed),
            Some(false) => Some(allowed),
            None => None,
        },
    };
    for name in minority.into_iter().flatten() {
        *tally.minority.entry(name.clone()).or_default() += 1;
    }
}

/// Query `q` of `file` as a new group's example (its body's first
/// [`EXAMPLE_BODY_LIMIT`] octets).
fn example(file: &SurveyFile, locator: &str, q: usize, query: &SurveyQuery) -> Example {
    let kept = &file.body[..file.body.len().min(EXAMPLE_BODY_LIMIT)];
    Example {
        host: file.host.clone(),
        locator: locator.to_string(),
        query: q as u64,
        agent: query.agent.clone(),
        url: query.url.clone(),
        origin: query.origin.to_string(),
        body: reptest_core::visible_notation::render(kept),
        body_len: file.body.len() as u64,
        body_hex: crate::tally::hex(kept),
    }
}

/// What one file showed at least once: a file counts once in a files column however
/// many of its queries showed it.
struct Seen {
    /// `[i][j]`: implementations `i` and `j` both gave a verdict on one query.
    pair_both: Vec<Vec<bool>>,
    /// `[i][j]`: their verdicts differed on one query.
    pair_split: Vec<Vec<bool>>,
    /// `[i]`: implementation `i` and the decider both gave a verdict on one query.
    decided_both: Vec<bool>,
    /// `[i]`: their verdicts differed on one query.
    decided_split: Vec<bool>,
    /// The questions a split query was attributed to.
    questions: BTreeSet<String>,
    /// The new groups a split query went to.
    new: BTreeSet<String>,
}

impl Seen {
    /// Nothing seen yet, for `n` implementations.
    fn new(n: usize) -> Self {
        Seen {
            pair_both: vec![vec![false; n]; n],
            pair_split: vec![vec![false; n]; n],
            decided_both: vec![false; n],
            decided_split: vec![false; n],
            questions: BTreeSet::new(),
            new: BTreeSet::new(),
        }
    }

    /// The file's counts in the files columns of `t`.
    fn count_files(self, t: &mut Tally) {
        let n = self.decided_both.len();
        for i in 0..n {
            let mine = &mut t.implementations[i].decided;
            mine.files = u64::from(self.decided_both[i]);
            mine.files_disagree = u64::from(self.decided_split[i]);
            for j in 0..n {
                t.pairwise[i][j].files = u64::from(self.pair_both[i][j]);
                t.pairwise[i][j].files_disagree = u64::from(self.pair_split[i][j]);
            }
        }
        for id in self.questions {
            if let Some(question) = t.per_question.get_mut(&id) {
                question.files = 1;
            }
        }
        for key in self.new {
            if let Some(group) = t.new.get_mut(&key) {
                group.files = 1;
            }
        }
    }
}

/// What each implementation's breaker did with the file.
fn count_breakers(t: &mut Tally, answers: &[Answers]) {
    for (mine, answers) in t.implementations.iter_mut().zip(answers) {
        let b = &mut mine.breaker;
        match answers {
            Answers::Asked {
                tripped, opened, ..
            } => {
                b.files_tripped = u64::from(*tripped);
                b.opened = u64::from(*opened);
            }
            Answers::Skipped => b.files_skipped = 1,
        }
    }
}

/// Counts every implementation's answer to query `q` (its `verdicts`), against the
/// `decided` verdict and against each other implementation.
fn count_answers(
    t: &mut Tally,
    seen: &mut Seen,
    answers: &[Answers],
    q: usize,
    verdicts: &[Option<bool>],
    decided: Option<bool>,
) {
    for (i, answer) in answers.iter().enumerate() {
        let mine = &mut t.implementations[i];
        mine.asked += 1;
        match answer.outcome(q) {
            Some(Outcome::Verdict { allowed, .. }) => {
                mine.verdicts += 1;
                mine.allowed += u64::from(*allowed);
            }
            Some(Outcome::Error(_)) => mine.missing.error += 1,
            Some(Outcome::Timeout(_)) => mine.missing.timeout += 1,
            Some(Outcome::Crash(_)) => mine.missing.crash += 1,
            Some(Outcome::Unsupported(_)) => mine.missing.unsupported += 1,
            None => mine.missing.skipped += 1,
        }
        if let (Some(v), Some(d)) = (verdicts[i], decided) {
            mine.decided.queries += 1;
            seen.decided_both[i] = true;
            if v != d {
                mine.decided.queries_disagree += 1;
                seen.decided_split[i] = true;
            }
        }
        for j in 0..answers.len() {
            if let (Some(a), Some(b)) = (verdicts[i], verdicts[j]) {
                let pair = &mut t.pairwise[i][j];
                pair.queries += 1;
                seen.pair_both[i][j] = true;
                if a != b {
                    pair.queries_disagree += 1;
                    seen.pair_split[i][j] = true;
                }
            }
        }
    }
}

/// Counts a query in the agreement (when at least two gave a verdict); true when the
/// verdicts split.
fn count_agreement(t: &mut Tally, verdicts: &[Option<bool>]) -> bool {
    let answered = verdicts.iter().flatten().count();
    if answered < 2 {
        return false;
    }
    t.agreement.compared += 1;
    let allowed = verdicts.iter().flatten().filter(|v| **v).count();
    if allowed == 0 || allowed == answered {
        t.agreement.unanimous += 1;
        return false;
    }
    t.agreement.split += 1;
    true
}
