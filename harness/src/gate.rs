//! The CI gate for parser maintainers: a [`Baseline`] records which corpus queries one
//! implementation passes and which it is known to fail, and [`GateResult::compare`] judges
//! a new run against it.
//!
//! - A query that passed in the baseline and fails now is a **regression** (fatal).
//! - A query listed as a known failure that passes now is **stale** (fatal): the ratchet.
//!   The entry must be removed, so a fixed bug can never come back unnoticed.
//! - A failing query the baseline does not mention (a query added to the corpus since) is
//!   a **new failure**: reported, fatal only in strict mode.
//! - A baseline id the corpus no longer has is **missing**: a warning.
//!
//! Three renderers print a result: [`human`], [`junit`] (JUnit XML as Jenkins, GitLab and
//! GitHub test reporters read it) and [`github`] (GitHub Actions workflow commands).

use crate::markup::escape as xml_escape;
use crate::runner::Run;
use crate::score::{judge, Judgement};
use crate::Outcome;
use reptest_corpus::{Corpus, Expect, PROFILES};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The comment written at the top of every baseline file.
pub const HEADER: &str = "\
# reptest gate baseline: what one robots.txt implementation passes in reptest's RFC 9309
# corpus, so CI can fail on a change (`reptest gate --impl NAME --baseline FILE`).
#
# - `passed`: query ids (case/N, see `reptest corpus show CASE`) that passed. One that
#   fails later is a regression: the gate fails.
# - `[[known_failure]]`: queries that fail today. When one passes, the gate fails until
#   its entry is removed (the ratchet: a fixed bug cannot come back unnoticed). Fill in
#   `reason = \"...\"` to say why a failure is accepted; re-recording keeps reasons.
# - `unsupported`: queries the implementation cannot express (fetch outcomes); ignored.
# - `corpus`: a fingerprint of the corpus the baseline was recorded on; when it differs,
#   the gate notes it and reports queries new to the corpus (fatal only with --strict).
#
# Record or re-record: reptest gate --impl NAME --baseline FILE --write-baseline
";

/// What one implementation passed and failed on one corpus under one profile: the file
/// `reptest gate --write-baseline` writes (TOML, with [`HEADER`] on top) and the gate
/// compares new runs with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The implementation's name, as `--impl` takes it.
    pub implementation: String,
    /// The profile the queries were judged under: `rfc9309` or `google`.
    pub profile: String,
    /// The corpus fingerprint ([`Corpus::fingerprint`]) at recording time.
    pub corpus: String,
    /// Ids of the queries that passed, sorted.
    #[serde(default)]
    pub passed: Vec<String>,
    /// Ids of the queries the implementation cannot express, sorted: neither passed nor
    /// failed, so a later pass is not stale.
    #[serde(default)]
    pub unsupported: Vec<String>,
    /// The queries that failed (a wrong verdict, or none: error, timeout, crash).
    #[serde(default, rename = "known_failure")]
    pub known_failures: Vec<KnownFailure>,
}

/// One `[[known_failure]]` entry of a [`Baseline`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailure {
    /// The query id (`case/N`).
    pub id: String,
    /// The verdict the profile expects: `allowed`, `disallowed` or `either`.
    pub expected: String,
    /// What the implementation answered, as an outcome word (`allowed`, `disallowed`,
    /// `error`, `timeout`, `crash`).
    pub got: String,
    /// Free text a maintainer fills in: why the failure is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Why a baseline file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaselineError {
    /// The file does not exist.
    Missing(PathBuf),
    /// The file exists but cannot be read or is not a valid baseline; the message names
    /// the file and, where known, the line.
    Invalid(String),
}

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaselineError::Missing(path) => write!(f, "{}: no such file", path.display()),
            BaselineError::Invalid(message) => f.write_str(message),
        }
    }
}

/// A sort key for query ids that orders `case/2` before `case/10`.
fn id_key(id: &str) -> (&str, u64, &str) {
    match id.rsplit_once('/') {
        Some((case, n)) => match n.parse() {
            Ok(n) => (case, n, ""),
            Err(_) => (case, u64::MAX, n),
        },
        None => (id, 0, ""),
    }
}

/// Sorts query ids by case, then by query number.
fn sort_ids(ids: &mut [String]) {
    ids.sort_by(|a, b| id_key(a).cmp(&id_key(b)));
}

/// One corpus query judged for one implementation: everything a report prints about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// The query id (`case/N`).
    pub id: String,
    /// The case file the query is in.
    pub file: PathBuf,
    /// The 1-based line of the query in that file.
    pub line: usize,
    /// The product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// The first requirement the query tests (e.g. `2.2.3-STAR`).
    pub requirement: Option<String>,
    /// The verdict the profile expects.
    pub expected: Expect,
    /// The outcome word (`allowed`, `disallowed`, `unsupported`, `error`, ...).
    pub got: String,
    /// The outcome in full (with the deciding line or the error message).
    pub detail: String,
    /// How the outcome meets the expectation.
    pub judgement: Judgement,
}

impl Judged {
    /// Whether the query passed.
    pub fn passed(&self) -> bool {
        self.judgement == Judgement::Pass
    }

    /// Whether the query failed: a wrong verdict or none (error, timeout, crash).
    pub fn failed(&self) -> bool {
        matches!(self.judgement, Judgement::Fail | Judgement::NoVerdict)
    }
}

/// Judges every corpus query under `profile` against `outcomes` (one per query, corpus
/// order, as in a [`Run`] column); a query without an outcome has no verdict.
pub fn judge_all(corpus: &Corpus, outcomes: &[Outcome], profile: &str) -> Vec<Judged> {
    let none = Outcome::Error("no outcome recorded for this query".into());
    corpus
        .queries()
        .enumerate()
        .map(|(i, (case, query))| {
            let outcome = outcomes.get(i).unwrap_or(&none);
            let expected = query.expect_for(profile);
            Judged {
                id: query.id.clone(),
                file: case.file.clone(),
                line: query.line,
                agent: query.agent.clone(),
                url: query.url.clone(),
                requirement: query.requirements.first().cloned(),
                expected,
                got: outcome.word().to_string(),
                detail: outcome.to_string(),
                judgement: judge(expected, outcome),
            }
        })
        .collect()
}

impl Baseline {
    /// The baseline of column `column` of `run` (an index into `run.implementations`),
    /// judged under `profile`; `None` when the run has no such column.
    pub fn from_run(corpus: &Corpus, run: &Run, column: usize, profile: &str) -> Option<Self> {
        let name = run.implementations.get(column)?;
        let outcomes = run.outcomes.get(column)?;
        Some(Self::from_outcomes(corpus, name, outcomes, profile))
    }

    /// The baseline of `implementation` from its outcomes (one per corpus query, in
    /// corpus order), judged under `profile`: passes go to `passed`, unsupported queries
    /// to `unsupported`, everything else (wrong verdict, error, timeout, crash) becomes a
    /// known failure.
    pub fn from_outcomes(
        corpus: &Corpus,
        implementation: &str,
        outcomes: &[Outcome],
        profile: &str,
    ) -> Self {
        let mut baseline = Baseline {
            implementation: implementation.to_string(),
            profile: profile.to_string(),
            corpus: corpus.fingerprint(),
            passed: Vec::new(),
            unsupported: Vec::new(),
            known_failures: Vec::new(),
        };
        for judged in judge_all(corpus, outcomes, profile) {
            match judged.judgement {
                Judgement::Pass => baseline.passed.push(judged.id),
                Judgement::Unsupported => baseline.unsupported.push(judged.id),
                Judgement::Fail | Judgement::NoVerdict => {
                    baseline.known_failures.push(KnownFailure {
                        id: judged.id,
                        expected: judged.expected.as_str().to_string(),
                        got: judged.got,
                        reason: None,
                    })
                }
            }
        }
        baseline.normalize();
        baseline
    }

    /// Sorts every list by query id (case, then query number).
    pub fn normalize(&mut self) {
        sort_ids(&mut self.passed);
        sort_ids(&mut self.unsupported);
        self.known_failures
            .sort_by(|a, b| id_key(&a.id).cmp(&id_key(&b.id)));
    }

    /// Copies the `reason` of every known failure of `previous` that is still a known
    /// failure here (re-recording keeps what maintainers wrote).
    pub fn keep_reasons(&mut self, previous: &Baseline) {
        let reasons: BTreeMap<&str, &str> = previous
            .known_failures
            .iter()
            .filter_map(|k| Some((k.id.as_str(), k.reason.as_deref()?)))
            .collect();
        for entry in &mut self.known_failures {
            if entry.reason.is_none() {
                entry.reason = reasons.get(entry.id.as_str()).map(|r| r.to_string());
            }
        }
    }

    /// Reads and validates the baseline at `path`.
    pub fn load(path: &Path) -> Result<Self, BaselineError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text, path).map_err(BaselineError::Invalid),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(BaselineError::Missing(path.to_path_buf()))
            }
            Err(e) => Err(BaselineError::Invalid(format!(
                "cannot read {}: {e}",
                path.display()
            ))),
        }
    }

    /// Parses and validates baseline TOML; `path` names the file in errors
    /// (`FILE:LINE: message`). Rejects an unknown profile, an empty implementation name,
    /// and a query id listed twice or in two lists.
    pub fn parse(text: &str, path: &Path) -> Result<Self, String> {
        let invalid = |line: Option<usize>, message: &str| {
            let at = line.map(|l| format!(":{l}")).unwrap_or_default();
            format!(
                "{}{at}: not a valid reptest gate baseline: {message}",
                path.display()
            )
        };
        let mut baseline: Baseline = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| reptest_corpus::line_of(text, s.start));
            invalid(line, e.message().trim())
        })?;
        if baseline.implementation.trim().is_empty() {
            return Err(invalid(None, "`implementation` is empty"));
        }
        if !PROFILES.contains(&baseline.profile.as_str()) {
            return Err(invalid(
                None,
                &format!(
                    "`profile = {:?}`: expected one of {}",
                    baseline.profile,
                    PROFILES.join(", ")
                ),
            ));
        }
        let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
        let lists = baseline
            .passed
            .iter()
            .map(|id| (id.as_str(), "passed"))
            .chain(
                baseline
                    .unsupported
                    .iter()
                    .map(|id| (id.as_str(), "unsupported")),
            )
            .chain(
                baseline
                    .known_failures
                    .iter()
                    .map(|k| (k.id.as_str(), "known_failure")),
            );
        for (id, list) in lists {
            if let Some(first) = seen.insert(id, list) {
                let message = if first == list {
                    format!("query `{id}` is listed twice in `{list}`")
                } else {
                    format!("query `{id}` is listed in both `{first}` and `{list}`")
                };
                return Err(invalid(None, &message));
            }
        }
        baseline.normalize();
        Ok(baseline)
    }

    /// The baseline as TOML: [`HEADER`], the scalars, then one id per line, then one
    /// `[[known_failure]]` table per known failure. [`Baseline::parse`] reads it back.
    pub fn to_toml(&self) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = String::from(HEADER);
        let _ = writeln!(out, "\nimplementation = {}", quote(&self.implementation));
        let _ = writeln!(out, "profile = {}", quote(&self.profile));
        let _ = writeln!(out, "corpus = {}", quote(&self.corpus));
        let mut list = |name: &str, comment: &str, ids: &[String]| {
            let _ = writeln!(out, "\n# {comment} ({})", ids.len());
            if ids.is_empty() {
                let _ = writeln!(out, "{name} = []");
                return;
            }
            let _ = writeln!(out, "{name} = [");
            for id in ids {
                let _ = writeln!(out, "  {},", quote(id));
            }
            out.push_str("]\n");
        };
        list(
            "passed",
            "passed: failing one of these is a regression",
            &self.passed,
        );
        list(
            "unsupported",
            "unsupported: the implementation cannot express these queries",
            &self.unsupported,
        );
        let _ = writeln!(
            out,
            "\n# known failures ({}): remove an entry once its query passes",
            self.known_failures.len()
        );
        for k in &self.known_failures {
            let _ = writeln!(out, "\n[[known_failure]]");
            let _ = writeln!(out, "id = {}", quote(&k.id));
            let _ = writeln!(out, "expected = {}", quote(&k.expected));
            let _ = writeln!(out, "got = {}", quote(&k.got));
            if let Some(reason) = &k.reason {
                let _ = writeln!(out, "reason = {}", quote(reason));
            }
        }
        out
    }
}

/// Where a query stands in a gate comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Passed in the baseline, passes now.
    Passed,
    /// Passed in the baseline, fails (or is unsupported) now: fatal.
    Regression,
    /// A known failure that passes now: fatal until the entry is removed (the ratchet).
    Stale,
    /// A known failure that still fails.
    KnownFailure,
    /// Not in the baseline's `passed` or `known_failure` lists, and fails: fatal only
    /// in strict mode.
    NewFailure,
    /// Not in the baseline's `passed` or `known_failure` lists, and passes.
    NewPass,
    /// The implementation cannot express the query.
    Unsupported,
}

/// One query of a gate comparison: the judged query, where it stands, and the
/// baseline's reason for it when it is a known failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The query and its outcome.
    pub query: Judged,
    /// Where it stands against the baseline.
    pub status: Status,
    /// The `reason` of its `[[known_failure]]` entry, if any.
    pub reason: Option<String>,
}

/// Counts of a gate comparison.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Queries in the corpus.
    pub queries: usize,
    /// Queries passing now (baseline passes and new passes).
    pub passed: usize,
    /// Regressions.
    pub regressions: usize,
    /// Stale known failures.
    pub stale: usize,
    /// Known failures still failing.
    pub known_failures: usize,
    /// New failures.
    pub new_failures: usize,
    /// Passing queries the baseline does not list.
    pub new_passes: usize,
    /// Unsupported queries.
    pub unsupported: usize,
    /// Baseline ids no longer in the corpus.
    pub missing: usize,
}

/// A new run compared with a [`Baseline`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateResult {
    /// The implementation.
    pub implementation: String,
    /// The profile the queries were judged under.
    pub profile: String,
    /// Whether new failures are fatal.
    pub strict: bool,
    /// The baseline's corpus fingerprint.
    pub baseline_corpus: String,
    /// The current corpus's fingerprint.
    pub corpus: String,
    /// Every corpus query, in corpus order.
    pub entries: Vec<Entry>,
    /// Passed in the baseline, fail now.
    pub regressions: Vec<Entry>,
    /// Known failures that pass now: their entries must be removed.
    pub stale: Vec<Entry>,
    /// Failing queries the baseline does not list.
    pub new_failures: Vec<Entry>,
    /// Baseline ids the corpus no longer has, sorted.
    pub missing: Vec<String>,
    /// The counts.
    pub counts: Counts,
}

impl GateResult {
    /// Compares `outcomes` (one per corpus query, in corpus order, as in a
    /// [`Run`] column) with `baseline`, judged under the baseline's profile.
    pub fn compare(
        baseline: &Baseline,
        corpus: &Corpus,
        outcomes: &[Outcome],
        strict: bool,
    ) -> GateResult {
        let passed: BTreeSet<&str> = baseline.passed.iter().map(String::as_str).collect();
        let known: BTreeMap<&str, &KnownFailure> = baseline
            .known_failures
            .iter()
            .map(|k| (k.id.as_str(), k))
            .collect();
        let mut counts = Counts::default();
        let mut entries = Vec::new();
        let mut in_corpus = BTreeSet::new();
        for query in judge_all(corpus, outcomes, &baseline.profile) {
            in_corpus.insert(query.id.clone());
            let known_failure = known.get(query.id.as_str());
            let status = if query.judgement == Judgement::Unsupported {
                if passed.contains(query.id.as_str()) {
                    Status::Regression
                } else {
                    Status::Unsupported
                }
            } else if passed.contains(query.id.as_str()) {
                if query.passed() {
                    Status::Passed
                } else {
                    Status::Regression
                }
            } else if known_failure.is_some() {
                if query.passed() {
                    Status::Stale
                } else {
                    Status::KnownFailure
                }
            } else if query.passed() {
                Status::NewPass
            } else {
                Status::NewFailure
            };
            counts.queries += 1;
            match status {
                Status::Passed | Status::Stale | Status::NewPass => counts.passed += 1,
                _ => {}
            }
            match status {
                Status::Regression => counts.regressions += 1,
                Status::Stale => counts.stale += 1,
                Status::KnownFailure => counts.known_failures += 1,
                Status::NewFailure => counts.new_failures += 1,
                Status::NewPass => counts.new_passes += 1,
                Status::Unsupported => counts.unsupported += 1,
                Status::Passed => {}
            }
            entries.push(Entry {
                query,
                status,
                reason: known_failure.and_then(|k| k.reason.clone()),
            });
        }
        let mut missing: Vec<String> = baseline
            .passed
            .iter()
            .chain(&baseline.unsupported)
            .chain(baseline.known_failures.iter().map(|k| &k.id))
            .filter(|id| !in_corpus.contains(id.as_str()))
            .cloned()
            .collect();
        sort_ids(&mut missing);
        missing.dedup();
        counts.missing = missing.len();
        let of = |status: Status| -> Vec<Entry> {
            entries
                .iter()
                .filter(|e| e.status == status)
                .cloned()
                .collect()
        };
        GateResult {
            implementation: baseline.implementation.clone(),
            profile: baseline.profile.clone(),
            strict,
            baseline_corpus: baseline.corpus.clone(),
            corpus: corpus.fingerprint(),
            regressions: of(Status::Regression),
            stale: of(Status::Stale),
            new_failures: of(Status::NewFailure),
            missing,
            entries,
            counts,
        }
    }

    /// Whether the gate passes: no regressions, no stale known failures, and in strict
    /// mode no new failures.
    pub fn is_ok(&self) -> bool {
        self.regressions.is_empty()
            && self.stale.is_empty()
            && (!self.strict || self.new_failures.is_empty())
    }

    /// Whether the corpus changed since the baseline was recorded.
    pub fn corpus_changed(&self) -> bool {
        self.baseline_corpus != self.corpus
    }

    /// The one-line verdict, e.g. `FAIL: 1 regression, 0 stale known failures`.
    pub fn verdict(&self) -> String {
        let mut problems = vec![
            plural(self.regressions.len(), "regression", "regressions"),
            plural(
                self.stale.len(),
                "stale known failure",
                "stale known failures",
            ),
        ];
        if self.strict {
            problems.push(plural(
                self.new_failures.len(),
                "new failure (--strict)",
                "new failures (--strict)",
            ));
        }
        if self.is_ok() {
            format!(
                "PASS: {} ({} passed, {})",
                problems.join(", "),
                self.counts.passed,
                plural(
                    self.counts.known_failures + self.counts.new_failures,
                    "known failure remains",
                    "known failures remain"
                )
            )
        } else {
            format!("FAIL: {}", problems.join(", "))
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What the renderers need beyond the result.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The baseline file, as the user named it.
    pub baseline: PathBuf,
    /// The command that re-records the baseline (`reptest gate ... --write-baseline`).
    pub rerecord: String,
    /// Case files are shown relative to this folder when below it (e.g. the parent of
    /// the corpus folder, giving `corpus/rfc/x.toml`).
    pub root: Option<PathBuf>,
    /// How long the run took (JUnit `time`).
    pub elapsed: Duration,
}

impl Context {
    /// `file` relative to [`Context::root`] when below it, else as it is.
    pub fn show(&self, file: &Path) -> String {
        self.root
            .as_deref()
            .and_then(|root| file.strip_prefix(root).ok())
            .unwrap_or(file)
            .display()
            .to_string()
    }
}

/// One line about a query: `id (file:line) agent=.. url=..: expected X, got Y`.
fn describe(entry: &Entry, context: &Context) -> String {
    let q = &entry.query;
    format!(
        "{} ({}:{}) agent={} url={}: expected {}, got {}",
        q.id,
        context.show(&q.file),
        q.line,
        q.agent,
        q.url,
        q.expected,
        q.detail
    )
}

/// The human report: the counts, the two titled lists (regressions, stale known
/// failures), new failures and missing ids when there are any, a corpus note, the
/// one-line verdict and the command that fixes the baseline.
pub fn human(result: &GateResult, context: &Context) -> String {
    let c = &result.counts;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "reptest gate: {}, profile {}, baseline {}",
        result.implementation,
        result.profile,
        context.baseline.display()
    );
    let _ = writeln!(
        out,
        "{} queries: {} passed, {} known failures still failing, {} new failures, {} unsupported",
        c.queries, c.passed, c.known_failures, c.new_failures, c.unsupported
    );
    let mut section = |title: &str, entries: &[Entry]| {
        let _ = writeln!(out, "\n{title}: {}", entries.len());
        if entries.is_empty() {
            out.push_str("  none\n");
        }
        for entry in entries {
            let _ = writeln!(out, "  {}", describe(entry, context));
        }
    };
    section(
        "Regressions (passed in the baseline, fail now)",
        &result.regressions,
    );
    section(
        "Stale known failures (pass now: remove them from the baseline)",
        &result.stale,
    );
    if !result.new_failures.is_empty() {
        let title = if result.strict {
            "New failures (not in the baseline; fatal with --strict)"
        } else {
            "New failures (not in the baseline; add them with --write-baseline)"
        };
        section(title, &result.new_failures);
    }
    if !result.missing.is_empty() {
        let _ = writeln!(
            out,
            "\nMissing from the corpus (in the baseline, no longer in the corpus): {}",
            result.missing.len()
        );
        for id in &result.missing {
            let _ = writeln!(out, "  {id}");
        }
    }
    if result.corpus_changed() {
        let _ = writeln!(
            out,
            "\nnote: the corpus changed since the baseline was recorded (fingerprint {} then, {} now); re-record to follow it",
            result.baseline_corpus, result.corpus
        );
    }
    let _ = writeln!(out, "\n{}", result.verdict());
    if !result.is_ok() {
        if !result.regressions.is_empty() {
            out.push_str(
                "fix: make the regressed queries pass again; to accept them as known failures instead, re-record the baseline\n",
            );
        }
        if !result.stale.is_empty() {
            let _ = writeln!(
                out,
                "fix: delete the stale [[known_failure]] entries from {} (or re-record it; reasons are kept)",
                context.baseline.display()
            );
        }
        if result.strict && !result.new_failures.is_empty() {
            out.push_str("fix: make the new failures pass, or record them with --write-baseline\n");
        }
        let _ = writeln!(out, "re-record: {}", context.rerecord);
    }
    out
}

/// The JUnit class name of a query: `reptest.` and its first requirement with dots as
/// underscores (`reptest.2_2_3-STAR`, so report viewers do not split it into packages),
/// or its case file's stem when it names none.
fn classname(query: &Judged) -> String {
    let group = match &query.requirement {
        Some(requirement) => requirement.replace('.', "_"),
        None => query
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().replace('.', "_"))
            .unwrap_or_else(|| "corpus".into()),
    };
    format!("reptest.{group}")
}

/// The JUnit XML report (the Jenkins / Surefire schema most CI systems read): one
/// `<testsuites>` holding one `<testsuite name="reptest gate: IMPL">`, one `<testcase>`
/// per corpus query. Regressions and stale entries (and new failures with strict) are
/// `<failure type="regression|stale|new-failure">`; known failures, non-fatal new
/// failures and unsupported queries are `<skipped>`; everything else passes.
pub fn junit(result: &GateResult, context: &Context) -> String {
    let mut cases = String::new();
    let (mut failures, mut skipped) = (0usize, 0usize);
    for entry in &result.entries {
        let q = &entry.query;
        let _ = write!(
            cases,
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\"",
            xml_escape(&classname(q)),
            xml_escape(&q.id),
            xml_escape(&context.show(&q.file)),
            q.line
        );
        let expected_got = format!("expected {}, got {}", q.expected, q.detail);
        let detail = format!(
            "{}\nagent: {}\nurl: {}\nexpected: {}\ngot: {}",
            describe(entry, context),
            q.agent,
            q.url,
            q.expected,
            q.detail
        );
        let failure = |kind: &str, message: String, extra: &str| {
            format!(
                ">\n      <failure message=\"{}\" type=\"{kind}\">{}</failure>\n    </testcase>\n",
                xml_escape(&message),
                xml_escape(&format!("{detail}{extra}"))
            )
        };
        let skip = |message: String| {
            format!(
                ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                xml_escape(&message)
            )
        };
        let body = match entry.status {
            Status::Passed | Status::NewPass => "/>\n".to_string(),
            Status::Regression => {
                failures += 1;
                failure(
                    "regression",
                    format!("regression: passed in the baseline, now {expected_got}"),
                    "",
                )
            }
            Status::Stale => {
                failures += 1;
                failure(
                    "stale",
                    format!(
                        "stale known failure: passes now; remove its [[known_failure]] entry from {}",
                        context.baseline.display()
                    ),
                    &format!(
                        "\nfix: delete the [[known_failure]] entry with id = \"{}\" from {}",
                        q.id,
                        context.baseline.display()
                    ),
                )
            }
            Status::NewFailure if result.strict => {
                failures += 1;
                failure(
                    "new-failure",
                    format!("new failure (not in the baseline): {expected_got}"),
                    "",
                )
            }
            Status::NewFailure => {
                skipped += 1;
                skip(format!("new failure, not in the baseline: {expected_got}"))
            }
            Status::KnownFailure => {
                skipped += 1;
                let reason = entry
                    .reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                skip(format!("known failure: {expected_got}{reason}"))
            }
            Status::Unsupported => {
                skipped += 1;
                skip(q.detail.clone())
            }
        };
        cases.push_str(&body);
    }
    let tests = result.entries.len();
    let time = format!("{:.3}", context.elapsed.as_secs_f64());
    let name = xml_escape(&format!("reptest gate: {}", result.implementation));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{time}\">"
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{time}\">"
    );
    out.push_str("    <properties>\n");
    let properties = [
        ("implementation", result.implementation.as_str()),
        ("profile", result.profile.as_str()),
        ("baseline", &context.baseline.display().to_string()),
        ("corpus", result.corpus.as_str()),
        ("baseline_corpus", result.baseline_corpus.as_str()),
        ("verdict", &result.verdict()),
    ]
    .map(|(k, v)| (k, v.to_string()));
    for (key, value) in &properties {
        let _ = writeln!(
            out,
            "      <property name=\"{}\" value=\"{}\"/>",
            xml_escape(key),
            xml_escape(value)
        );
    }
    out.push_str("    </properties>\n");
    out.push_str(&cases);
    let mut notes = Vec::new();
    if !result.missing.is_empty() {
        notes.push(format!(
            "baseline ids no longer in the corpus: {}",
            result.missing.join(", ")
        ));
    }
    if result.corpus_changed() {
        notes.push(format!(
            "the corpus changed since the baseline was recorded ({} then, {} now)",
            result.baseline_corpus, result.corpus
        ));
    }
    notes.push(result.verdict());
    let _ = writeln!(
        out,
        "    <system-out>{}</system-out>",
        xml_escape(&notes.join("\n"))
    );
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// Escapes the message of a GitHub Actions workflow command: `%`, CR and LF.
pub fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value of a GitHub Actions workflow command (`file=`, `title=`):
/// as [`github_data`], plus `:` and `,`.
pub fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow commands: `::error` for each regression and stale entry (and
/// new failure with strict), `::warning` for new failures and missing ids, then a
/// `::notice` with the verdict. Annotations carry the query's case file and line.
pub fn github(result: &GateResult, context: &Context) -> String {
    let mut out = String::new();
    let mut annotate = |level: &str, entry: &Entry, title: &str, message: String| {
        let q = &entry.query;
        let _ = writeln!(
            out,
            "::{level} file={},line={},title={}::{}",
            github_property(&context.show(&q.file)),
            q.line,
            github_property(&format!("{title} {}", q.id)),
            github_data(&message)
        );
    };
    for entry in &result.regressions {
        let q = &entry.query;
        let message = format!(
            "expected {}, got {} (agent={} url={}; passed in the baseline)",
            q.expected, q.detail, q.agent, q.url
        );
        annotate("error", entry, "reptest regression", message);
    }
    for entry in &result.stale {
        let q = &entry.query;
        let message = format!(
            "passes now (expected {}, got {}): delete its [[known_failure]] entry from {}",
            q.expected,
            q.detail,
            context.baseline.display()
        );
        annotate("error", entry, "reptest stale known failure", message);
    }
    let level = if result.strict { "error" } else { "warning" };
    for entry in &result.new_failures {
        let q = &entry.query;
        let message = format!(
            "expected {}, got {} (agent={} url={}; not in the baseline)",
            q.expected, q.detail, q.agent, q.url
        );
        annotate(level, entry, "reptest new failure", message);
    }
    for id in &result.missing {
        let _ = writeln!(
            out,
            "::warning file={},title={}::{}",
            github_property(&context.baseline.display().to_string()),
            github_property(&format!("reptest missing query {id}")),
            github_data(&format!(
                "{id} is in the baseline but no longer in the corpus; re-record the baseline"
            ))
        );
    }
    let mut summary = format!(
        "{}: {} ({} queries, {} passed, {} known failures, {} new failures, {} unsupported)",
        result.implementation,
        result.verdict(),
        result.counts.queries,
        result.counts.passed,
        result.counts.known_failures,
        result.counts.new_failures,
        result.counts.unsupported
    );
    if result.corpus_changed() {
        summary.push_str("; the corpus changed since the baseline was recorded");
    }
    if !result.is_ok() {
        summary.push_str(&format!("; re-record: {}", context.rerecord));
    }
    let _ = writeln!(
        out,
        "::notice title={}::{}",
        github_property("reptest gate"),
        github_data(&summary)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corpus from the real one: the baseline logic is tested on synthetic outcomes.
    fn corpus() -> Corpus {
        Corpus::load(reptest_corpus::default_dir()).expect("the corpus loads")
    }

    fn allowed(yes: bool) -> Outcome {
        Outcome::Verdict {
            allowed: yes,
            line: None,
        }
    }

    /// Outcomes that pass every query (flip: the indexes that get the wrong verdict).
    fn outcomes(corpus: &Corpus, flip: &[usize]) -> Vec<Outcome> {
        corpus
            .queries()
            .enumerate()
            .map(|(i, (_, q))| {
                let right = q.expect_for("rfc9309") != Expect::Disallowed;
                allowed(if flip.contains(&i) { !right } else { right })
            })
            .collect()
    }

    /// The index of the first `n` queries whose expectation is not `either` (so a flipped
    /// verdict fails).
    fn flippable(corpus: &Corpus, n: usize) -> Vec<usize> {
        corpus
            .queries()
            .enumerate()
            .filter(|(_, (case, q))| q.expect != Expect::Either && case.fetch.is_none())
            .map(|(i, _)| i)
            .take(n)
            .collect()
    }

    #[test]
    fn an_unchanged_run_passes() {
        let corpus = corpus();
        let flip = flippable(&corpus, 3);
        let run = outcomes(&corpus, &flip);
        let baseline = Baseline::from_outcomes(&corpus, "x", &run, "rfc9309");
        assert_eq!(baseline.known_failures.len(), 3);
        assert_eq!(
            baseline.passed.len() + 3 + baseline.unsupported.len(),
            corpus.queries().count()
        );
        let result = GateResult::compare(&baseline, &corpus, &run, true);
        assert!(result.is_ok(), "{}", result.verdict());
        assert_eq!(result.counts.known_failures, 3);
        assert!(!result.corpus_changed());
    }

    #[test]
    fn regressions_stale_new_and_missing() {
        let corpus = corpus();
        let flip = flippable(&corpus, 4);
        let ids: Vec<String> = corpus.queries().map(|(_, q)| q.id.clone()).collect();
        let before = outcomes(&corpus, &flip[..2]);
        let mut baseline = Baseline::from_outcomes(&corpus, "x", &before, "rfc9309");
        // flip[2]: passed before, fails now; flip[0]: known failure, passes now;
        // flip[3]: not in the baseline at all, fails.
        baseline.passed.retain(|id| *id != ids[flip[3]]);
        baseline.passed.push("gone/1".into());
        let now = outcomes(&corpus, &flip[1..]);
        let result = GateResult::compare(&baseline, &corpus, &now, false);
        let of = |entries: &[Entry]| -> Vec<String> {
            entries.iter().map(|e| e.query.id.clone()).collect()
        };
        assert_eq!(of(&result.regressions), vec![ids[flip[2]].clone()]);
        assert_eq!(of(&result.stale), vec![ids[flip[0]].clone()]);
        assert_eq!(of(&result.new_failures), vec![ids[flip[3]].clone()]);
        assert_eq!(result.missing, vec!["gone/1".to_string()]);
        assert_eq!(result.counts.known_failures, 1);
        assert!(!result.is_ok());
        let regression = &result.regressions[0].query;
        assert!(regression.line > 0 && regression.file.extension() == Some("toml".as_ref()));
        // New failures alone: fatal only in strict mode.
        let mut only_new = baseline.clone();
        only_new.passed.retain(|id| *id != ids[flip[2]]);
        only_new.known_failures.retain(|k| k.id != ids[flip[0]]);
        only_new.passed.push(ids[flip[0]].clone());
        let lenient = GateResult::compare(&only_new, &corpus, &now, false);
        assert!(lenient.is_ok(), "{}", human(&lenient, &Context::default()));
        assert!(!GateResult::compare(&only_new, &corpus, &now, true).is_ok());
    }

    #[test]
    fn no_verdict_is_a_failure_and_unsupported_is_neither() {
        let corpus = corpus();
        let mut run = outcomes(&corpus, &[]);
        run[0] = Outcome::Timeout;
        run[1] = Outcome::Unsupported("no".into());
        let baseline = Baseline::from_outcomes(&corpus, "x", &run, "rfc9309");
        let first = corpus.queries().next().unwrap().1.id.clone();
        assert_eq!(baseline.known_failures[0].id, first);
        assert_eq!(baseline.known_failures[0].got, "timeout");
        assert_eq!(baseline.unsupported.len(), 1);
        // An unsupported query that passes later is not stale.
        let result = GateResult::compare(&baseline, &corpus, &outcomes(&corpus, &[]), false);
        assert_eq!(result.stale.len(), 1, "only the timeout is stale");
        assert_eq!(result.counts.new_passes, 1);
        // A query with no outcome at all has no verdict.
        let short = GateResult::compare(&baseline, &corpus, &[], false);
        assert_eq!(short.regressions.len(), baseline.passed.len());
    }

    #[test]
    fn toml_round_trip_keeps_reasons_and_sorts() {
        let corpus = corpus();
        let run = outcomes(&corpus, &flippable(&corpus, 2));
        let mut baseline = Baseline::from_outcomes(&corpus, "x", &run, "rfc9309");
        baseline.known_failures[0].reason = Some("upstream \"bug\" #12\nsee \\ notes".into());
        let text = baseline.to_toml();
        assert!(text.starts_with("# reptest gate baseline"));
        let back = Baseline::parse(&text, Path::new("b.toml")).unwrap();
        assert_eq!(back, baseline);
        let mut again = Baseline::from_outcomes(&corpus, "x", &run, "rfc9309");
        again.keep_reasons(&baseline);
        assert_eq!(again, baseline);
        let mut ids = vec!["a/10".to_string(), "a/2".into(), "a-b/1".into()];
        sort_ids(&mut ids);
        assert_eq!(ids, ["a/2", "a/10", "a-b/1"]);
    }

    #[test]
    fn invalid_baselines_name_file_and_line() {
        let path = Path::new("dir/base.toml");
        let err = Baseline::parse("implementation = \"x\"\nprofile = \n", path).unwrap_err();
        assert!(err.starts_with("dir/base.toml:2: "), "{err}");
        let err = Baseline::parse(
            "implementation = \"x\"\nprofile = \"rfc9309\"\ncorpus = \"\"\npassed = [\"a/1\"]\n[[known_failure]]\nid = \"a/1\"\nexpected = \"allowed\"\ngot = \"error\"\n",
            path,
        )
        .unwrap_err();
        assert!(err.contains("both `passed` and `known_failure`"), "{err}");
        let err = Baseline::parse(
            "implementation = \"x\"\nprofile = \"nope\"\ncorpus = \"\"\n",
            path,
        )
        .unwrap_err();
        assert!(err.contains("expected one of rfc9309, google"), "{err}");
        let err = Baseline::parse(
            "implementation = \"x\"\nprofile = \"rfc9309\"\ncorpus = \"\"\npased = []\n",
            path,
        )
        .unwrap_err();
        assert!(err.contains("unknown field `pased`"), "{err}");
        for garbage in [
            "",
            "\u{0}",
            "[[known_failure]]",
            "passed = 3",
            "\"\"\"",
            "=",
        ] {
            assert!(Baseline::parse(garbage, path).is_err(), "{garbage:?}");
        }
        assert!(matches!(
            Baseline::load(Path::new("/nonexistent/reptest-baseline.toml")),
            Err(BaselineError::Missing(_))
        ));
    }

    #[test]
    fn the_fingerprint_is_the_corpus_fingerprint() {
        let corpus = corpus();
        let fingerprint = corpus.fingerprint();
        assert_eq!(fingerprint.len(), 16);
        assert!(fingerprint.chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn escaping() {
        assert_eq!(
            xml_escape("a<b>&\"c\"'\n\t\u{1}\u{FFFF}é"),
            "a&lt;b&gt;&amp;&quot;c&quot;&apos;&#10;&#9;\u{FFFD}\u{FFFD}é"
        );
        assert_eq!(github_data("100%\r\nx: y, z"), "100%25%0D%0Ax: y, z");
        assert_eq!(
            github_property("100%\r\nx: y, z"),
            "100%25%0D%0Ax%3A y%2C z"
        );
    }

    #[test]
    fn renderers_escape_what_they_print() {
        let corpus = corpus();
        let flip = flippable(&corpus, 1);
        let mut run = outcomes(&corpus, &[]);
        let baseline = Baseline::from_outcomes(&corpus, "x<&>", &run, "rfc9309");
        run[flip[0]] = Outcome::Error("boom: a, b\n<oops> 50%".into());
        let result = GateResult::compare(&baseline, &corpus, &run, false);
        let context = Context {
            baseline: "base,line.toml".into(),
            rerecord: "reptest gate --write-baseline".into(),
            root: None,
            elapsed: Duration::from_millis(1500),
        };
        let xml = junit(&result, &context);
        assert!(xml.contains("reptest gate: x&lt;&amp;&gt;"), "{xml}");
        assert!(xml.contains("type=\"regression\""));
        assert!(xml.contains("&lt;oops&gt; 50%"));
        assert!(xml.contains("time=\"1.500\""));
        let gh = github(&result, &context);
        let first = gh.lines().next().unwrap();
        assert!(first.starts_with("::error file="), "{gh}");
        assert!(first.contains("boom: a, b%0A<oops> 50%25"), "{first}");
        assert!(gh.lines().last().unwrap().starts_with("::notice "), "{gh}");
        assert_eq!(gh.lines().count(), 2, "{gh}");
        let text = human(&result, &context);
        assert!(text.contains("Regressions (passed in the baseline, fail now): 1"));
        assert!(text.contains("FAIL: 1 regression, 0 stale known failures"));
    }
}
