//! The baseline file, and judging a run query by query.

use reptest_core::runner::Run;
use reptest_core::score::{judge, Judgement};
use reptest_core::Outcome;
use reptest_corpus::{Corpus, Expect, OutcomeWord, Profile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The comment written at the top of every baseline file.
pub const HEADER: &str = "\
# reptest gate baseline: what one robots.txt implementation passes in reptest's RFC 9309
# corpus, so CI can fail on a change (`reptest gate --impl NAME --baseline FILE`).
#
# - `passed`: query ids (case/name, see `reptest corpus show CASE`) that passed. One
#   that fails later is a regression: the gate fails.
# - `[[known_failure]]`: queries that fail today. When one passes, the gate fails until
#   its entry is removed (the ratchet: a fixed bug cannot come back unnoticed). Fill in
#   `reason = \"...\"` to say why a failure is accepted; re-recording keeps reasons.
# - `unsupported`: queries the implementation cannot express (fetch outcomes); ignored.
# - Queries where the profile permits either verdict are in no list: both answers
#   conform, so they cannot regress and are not gated.
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
    pub profile: Profile,
    /// The corpus fingerprint ([`Corpus::fingerprint`]) at recording time.
    pub corpus: String,
    /// The corpus version ([`Corpus::version`]) at recording time, when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corpus_version: Option<String>,
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
    /// The query id (`case/name`).
    pub id: String,
    /// The verdict the profile expects: `allowed`, `disallowed` or `either`.
    pub expected: String,
    /// What the implementation answered, as an outcome word (`allowed`, `disallowed`,
    /// `error`, `timeout`, `crash`).
    pub got: OutcomeWord,
    /// Free text a maintainer fills in: why the failure is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Why a baseline file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BaselineError {
    /// The file does not exist.
    #[error("{}: no such file", .0.display())]
    Missing(PathBuf),
    /// The file exists but cannot be read or is not a valid baseline; the message names
    /// the file and, where known, the line.
    #[error("{0}")]
    Invalid(String),
}

/// The sort key of a query id: its case, then its name (an id splits at its first `/`,
/// `reptest_corpus::names`), so each case's queries stay together.
pub(super) fn id_key(id: &str) -> (&str, &str) {
    reptest_corpus::names::split_id(id).unwrap_or((id, ""))
}

/// Sorts query ids by case, then by name.
pub(super) fn sort_ids(ids: &mut [String]) {
    ids.sort_by(|a, b| id_key(a).cmp(&id_key(b)));
}

/// One corpus query judged for one implementation: everything a report prints about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// The query id (`case/name`).
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
    pub got: OutcomeWord,
    /// The outcome in full (with the deciding line or the error message).
    pub detail: String,
    /// How the outcome meets the expectation.
    pub judgement: Judgement,
    /// The case id (`reptest corpus show CASE` prints it whole).
    pub case: String,
    /// The body in visible notation, long ones cut in the middle.
    pub body: String,
    /// Why the expectation holds (the case file's `why`).
    pub why: String,
    /// The first requirement's entry in the requirement index: `ID (LEVEL, §section): text`.
    pub requirement_text: Option<String>,
}

/// The body of a case in visible notation, cut to its first and last characters when
/// long, for a report that must stand without the corpus.
fn body_excerpt(body: &[u8]) -> String {
    const HEAD: usize = 600;
    const TAIL: usize = 120;
    let text = reptest_core::visible_notation::render(body);
    let count = text.chars().count();
    if count <= HEAD + TAIL {
        return text;
    }
    let head: String = text.chars().take(HEAD).collect();
    let tail: String = text.chars().skip(count - TAIL).collect();
    format!("{head}… ({} bytes in all) …{tail}", body.len())
}

impl Judged {
    /// Whether the query passed.
    pub fn passed(&self) -> bool {
        self.judgement == Judgement::Pass
    }

    /// Whether the query failed: a wrong verdict or none (error, timeout, crash) on a
    /// decided query.
    pub fn failed(&self) -> bool {
        self.judgement.is_failure()
    }

    /// Whether the gate judges the query at all: not when the profile permits either
    /// verdict (both answers conform, so no answer can regress).
    pub fn gated(&self) -> bool {
        self.expected != Expect::Either
    }
}

/// Judges every corpus query under `profile` against what `implementation` answered in
/// `run` (looked up by query id); a query without an outcome has no verdict. Fuzzing
/// findings awaiting their verdict are not judged (as in pass rates): they are neither
/// passed nor failed in a baseline.
pub fn judge_all(
    corpus: &Corpus,
    run: &Run,
    implementation: &str,
    profile: Profile,
) -> Vec<Judged> {
    let none = Outcome::Error("no outcome recorded for this query".into());
    let column = run.implementation_index(implementation);
    let lookup = run.lookup();
    corpus
        .queries()
        .filter(|(_, query)| !query.is_undecided_finding())
        .map(|(case, query)| {
            let outcome = column
                .and_then(|i| lookup.outcome(i, &query.id))
                .unwrap_or(&none);
            let expected = query.expect_for(profile);
            let requirement_text = query
                .requirements
                .first()
                .and_then(|id| corpus.requirements().resolve(id))
                .map(|r| {
                    format!(
                        "{} ({}, §{}): {}",
                        r.id,
                        r.level.as_str(),
                        r.section,
                        r.text
                    )
                });
            Judged {
                case: case.id.clone(),
                body: body_excerpt(&case.body),
                why: query.why.clone(),
                requirement_text,
                id: query.id.clone(),
                file: case.file.clone(),
                line: query.line,
                agent: query.agent.clone(),
                url: query.url.clone(),
                requirement: query.requirements.first().cloned(),
                expected,
                got: outcome.kind(),
                detail: outcome.to_string(),
                judgement: judge(expected, outcome),
            }
        })
        .collect()
}

impl Baseline {
    /// The baseline of `implementation` from its outcomes in `run`, judged under
    /// `profile`: passes go to `passed`, unsupported queries to `unsupported`, everything
    /// else (wrong verdict, error, timeout, crash) becomes a known failure. Queries the
    /// profile lets implementations answer either way are not gated ([`Judged::gated`]):
    /// they are in no list.
    pub fn from_run(corpus: &Corpus, implementation: &str, run: &Run, profile: Profile) -> Self {
        let mut baseline = Baseline {
            implementation: implementation.to_string(),
            profile,
            corpus: corpus.fingerprint(),
            corpus_version: corpus.version().map(str::to_string),
            passed: Vec::new(),
            unsupported: Vec::new(),
            known_failures: Vec::new(),
        };
        for judged in judge_all(corpus, run, implementation, profile) {
            if !judged.gated() {
                continue;
            }
            match judged.judgement {
                Judgement::Pass => baseline.passed.push(judged.id),
                Judgement::Unsupported => baseline.unsupported.push(judged.id),
                Judgement::Choice(_) => {}
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

    /// Sorts every list by query id (case, then name).
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
        match reptest_core::lines::read_text(path, reptest_core::lines::MAX_TEXT_FILE) {
            Ok(text) => Self::parse(&text, path),
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
    pub fn parse(text: &str, path: &Path) -> Result<Self, BaselineError> {
        let invalid = |line: Option<usize>, message: &str| {
            let at = line.map(|l| format!(":{l}")).unwrap_or_default();
            BaselineError::Invalid(format!(
                "{}{at}: not a valid reptest gate baseline: {message}",
                path.display()
            ))
        };
        let mut baseline: Baseline = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| reptest_corpus::line_of(text, s.start));
            invalid(line, e.message().trim())
        })?;
        if baseline.implementation.trim().is_empty() {
            return Err(invalid(None, "`implementation` is empty"));
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
        let _ = writeln!(out, "profile = {}", quote(self.profile.as_str()));
        let _ = writeln!(out, "corpus = {}", quote(&self.corpus));
        if let Some(version) = &self.corpus_version {
            let _ = writeln!(out, "corpus_version = {}", quote(version));
        }
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
            let _ = writeln!(out, "got = {}", quote(k.got.as_str()));
            if let Some(reason) = &k.reason {
                let _ = writeln!(out, "reason = {}", quote(reason));
            }
        }
        out
    }
}
