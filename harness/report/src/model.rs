//! The report model (also the JSON report's schema).

use reptest_core::score::Tally;
use reptest_core::Outcome;
use reptest_corpus::{OutcomeWord, Profile, ThreadKind, ThreadStatus};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version of the report format ([`Report::format`]); bumped on incompatible changes.
pub const FORMAT_VERSION: u32 = 1;

/// A whole run: what ran, on what, what each implementation answered, and the scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`FORMAT_VERSION`].
    pub format: u32,
    /// Versions, corpus fingerprint, date.
    pub meta: Meta,
    /// The implementations, in run order (columns of [`Report::outcomes`]).
    pub implementations: Vec<ImplEntry>,
    /// The requirement index the corpus cites.
    pub requirements: Vec<RequirementEntry>,
    /// The cases, in corpus order; their queries in order make the rows of the matrix.
    pub cases: Vec<CaseEntry>,
    /// `outcomes[i][q]`: implementation `i`, query `q` (global index, corpus order).
    pub outcomes: Vec<Vec<Cell>>,
    /// Scores per implementation, in [`Report::implementations`] order.
    pub scores: Vec<ImplScore>,
    /// Scores per requirement ID, in index order.
    pub per_requirement: Vec<RequirementScore>,
    /// Pairwise agreement between implementations.
    pub agreement: Agreement,
    /// The question catalogue, each with how every implementation answers it, in
    /// catalogue order.
    #[serde(default)]
    pub questions: Vec<QuestionEntry>,
}

/// One question of the catalogue (`corpus/questions.toml`) and how each implementation
/// answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionEntry {
    /// `Q-…`.
    pub id: String,
    /// The question in one sentence.
    pub question: String,
    /// The deciding RFC sentences: (section, text).
    pub rfc: Vec<(String, String)>,
    /// The decision and its argument.
    pub decision: String,
    /// The sentence that permits both verdicts, where the RFC does.
    pub permits_both: Option<String>,
    /// `MUST`, `SHOULD` or `MAY`.
    pub level: String,
    /// Requirement IDs.
    pub requirements: Vec<String>,
    /// Its example queries, as [`QueryEntry::index`]es.
    pub examples: Vec<usize>,
    /// Every query naming the question (examples included), as indexes.
    pub queries: Vec<usize>,
    /// Per implementation (report order), over [`QuestionEntry::queries`] under `rfc9309`.
    pub per_impl: Vec<QuestionAnswer>,
    /// Known upstream threads about implementations and this question, with their
    /// status ([`Report::threads_for`] gives one implementation's).
    pub upstream: Vec<UpstreamThread>,
    /// Raw hits per fuzzing campaign (findings file name to hits) of the findings that
    /// name this question.
    pub hits: BTreeMap<String, u64>,
}

/// An upstream thread (issue or pull request) about an implementation and a question, as
/// `corpus/questions.toml` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpstreamThread {
    /// The implementation's name in reptest.
    pub implementation: String,
    /// The thread's address.
    pub url: String,
    /// Its title, as upstream wrote it.
    pub title: String,
    /// Issue or pull request.
    pub kind: ThreadKind,
    /// Open, fixed or wontfix, as upstream left it on [`UpstreamThread::checked`].
    pub status: ThreadStatus,
    /// The release with the fix, when fixed and known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_in: Option<String>,
    /// The day the status was checked, `YYYY-MM-DD`.
    pub checked: String,
}

impl UpstreamThread {
    /// Its status in words: `open`, `fixed in 1.4` (`fixed` when the release is not
    /// known) or `wontfix`.
    ///
    /// ```
    /// use reptest_report::UpstreamThread;
    /// use reptest_corpus::{ThreadKind, ThreadStatus};
    /// let mut thread = UpstreamThread {
    ///     implementation: "java-crawler-commons".into(),
    ///     url: "https://github.com/crawler-commons/crawler-commons/issues/195".into(),
    ///     title: "Path analyse bug".into(),
    ///     kind: ThreadKind::Issue,
    ///     status: ThreadStatus::Fixed,
    ///     fixed_in: Some("1.4".into()),
    ///     checked: "2026-12-03".into(),
    /// };
    /// assert_eq!(thread.describe(), "fixed in 1.4");
    /// thread.fixed_in = None;
    /// assert_eq!(thread.describe(), "fixed");
    /// thread.status = ThreadStatus::Open;
    /// assert_eq!(thread.describe(), "open");
    /// ```
    pub fn describe(&self) -> String {
        match (self.status, &self.fixed_in) {
            (ThreadStatus::Fixed, Some(version)) => format!("fixed in {version}"),
            (status, _) => status.as_str().to_string(),
        }
    }

    /// Its status and the day it was checked: `open, checked 2026-12-03`.
    pub fn describe_checked(&self) -> String {
        format!("{}, checked {}", self.describe(), self.checked)
    }
}

/// What the newest release of an implementation answers to a question, beside its
/// pinned version, when a report holds both (`NAME` and `NAME@latest`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatestAnswer {
    /// The newest release's version (its handshake's).
    pub version: String,
    /// Its verdict on the question.
    pub verdict: QuestionVerdict,
    /// Its answer in words ([`QuestionAnswer::describe`]).
    pub answer: String,
    /// Whether the pinned version's verdict is another.
    pub differs: bool,
}

impl LatestAnswer {
    /// Whether the newest release still gets the question wrong.
    pub fn still_wrong(&self) -> bool {
        self.verdict == QuestionVerdict::Wrong
    }
}

/// The suffix naming the newest release of an implementation (`python-protego@latest`).
pub const LATEST_SUFFIX: &str = "@latest";

/// The implementation a name stands for: `python-protego` for `python-protego@latest`,
/// the name itself otherwise.
pub fn pinned_name(name: &str) -> &str {
    name.strip_suffix(LATEST_SUFFIX).unwrap_or(name)
}

/// How one implementation answers a question's queries: every query naming the
/// question, not only its examples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionAnswer {
    /// `right` (every judged query passed), `wrong` (at least one failed), `no-verdict`
    /// (none judged: errors, timeouts), `choice` (every answer given where either
    /// verdict conforms) or `not-judged` (all unsupported).
    pub verdict: QuestionVerdict,
    /// Decided queries passed.
    pub pass: usize,
    /// Decided queries failed (a wrong verdict).
    pub fail: usize,
    /// Decided queries without a verdict (error, timeout, crash).
    #[serde(default)]
    pub no_verdict: usize,
    /// Its verdicts on the queries where either verdict conforms: (allowed, disallowed).
    #[serde(default)]
    pub choices: (usize, usize),
}

impl QuestionAnswer {
    /// Decided queries judged: passed, failed or without a verdict.
    pub fn judged(&self) -> usize {
        self.pass + self.fail + self.no_verdict
    }

    /// The answer in words, for the question tables: `45 of 50 wrong` (failed of the
    /// decided queries judged), `50 of 50 right`, then `2 no verdict` and `chose
    /// allowed 3 / disallowed 1` when there are any, joined by commas.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self.verdict {
            QuestionVerdict::Right => {
                parts.push(format!("{} of {} right", self.pass, self.judged()))
            }
            QuestionVerdict::Wrong => {
                parts.push(format!("{} of {} wrong", self.fail, self.judged()))
            }
            _ => {}
        }
        if self.no_verdict > 0 {
            parts.push(format!("{} no verdict", self.no_verdict));
        }
        let (allowed, disallowed) = self.choices;
        if allowed + disallowed > 0 {
            parts.push(format!("chose allowed {allowed} / disallowed {disallowed}"));
        }
        parts.join(", ")
    }
}

/// The verdict on one implementation's answers to a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuestionVerdict {
    /// Every judged query passed.
    Right,
    /// At least one failed.
    Wrong,
    /// None was judged: every answer was an error, a timeout or a crash.
    NoVerdict,
    /// Every query it answered is one where either verdict conforms: its answers are
    /// choices, neither right nor wrong.
    Choice,
    /// It cannot express any of the question's queries (each one `unsupported`: a
    /// crawler on a plain body, a parser on a fetch outcome); left out of the tables.
    NotJudged,
}

impl QuestionVerdict {
    /// `right`, `wrong`, `no verdict`, `choice`, `not judged`.
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionVerdict::Right => "right",
            QuestionVerdict::Wrong => "wrong",
            QuestionVerdict::NoVerdict => "no verdict",
            QuestionVerdict::Choice => "choice",
            QuestionVerdict::NotJudged => "not judged",
        }
    }
}

/// What produced the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// reptest's version.
    pub reptest_version: String,
    /// The corpus fingerprint ([`reptest_corpus::Corpus::fingerprint`]), so two reports
    /// can be told to come from the same corpus.
    pub corpus_fingerprint: String,
    /// The corpus version (`corpus/VERSION`), when it has one.
    #[serde(default)]
    pub corpus_version: Option<String>,
    /// Cases in the corpus.
    pub cases: usize,
    /// Queries in the corpus.
    pub queries: usize,
    /// The profiles the expectations are given for.
    pub profiles: Vec<Profile>,
    /// When the run was made (RFC 3339, UTC); not used by the Markdown rendering.
    pub generated_at: String,
    /// Fuzzing campaign seeds the findings cases came from (named in their `why`).
    pub seeds: Vec<u64>,
}

/// One implementation that ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImplEntry {
    /// Its name (`reptest impls`).
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its language.
    pub language: String,
    /// Takes absolute URLs (else paths only).
    pub full_urls: bool,
    /// Takes fetch outcomes (RFC 9309 §2.3.1).
    pub fetch_outcomes: bool,
    /// Fetches `/robots.txt` itself over HTTP: its fetch cases were served on the
    /// loopback site, not described to it.
    pub fetches: bool,
    /// A crawler judged as a black box by what it fetches (not a library given a body).
    #[serde(default)]
    pub crawler: bool,
    /// Reports the deciding line.
    pub reports_line: bool,
    /// Wall time for the whole corpus, in seconds.
    pub seconds: f64,
    /// The cases it took longest on, slowest first (a timeout's wait included).
    #[serde(default)]
    pub slowest_cases: Vec<SlowCase>,
    /// Case id to what it did to answer the case, one line per step, where it says: a
    /// crawler's request log (`AGENT: GET /path`, in arrival order, one crawl per agent).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub request_logs: BTreeMap<String, Vec<String>>,
}

/// One case and the wall time an implementation took on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlowCase {
    /// The case id.
    pub case: String,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// How many slowest cases the model keeps per implementation.
pub const SLOWEST_CASES: usize = 3;

/// One requirement of the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequirementEntry {
    /// Its stable ID.
    pub id: String,
    /// `MUST`, `SHOULD`, `MAY`, ...
    pub level: String,
    /// The RFC section.
    pub section: String,
    /// The requirement's text.
    pub text: String,
}

/// One corpus case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseEntry {
    /// The case id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The case file, relative to the repository (`corpus/rfc/x.toml`) when it is below
    /// the corpus folder's parent, else as given.
    pub file: String,
    /// The 1-based line of the case in its file.
    pub line: usize,
    /// The dimensions it exercises.
    pub dimensions: Vec<String>,
    /// The body in visible-character notation ([`reptest_core::visible_notation::render`]).
    pub body: String,
    /// The fetch outcome it describes, if any (RFC 9309 §2.3.1), in words.
    pub fetch: Option<String>,
    /// What its fetch outcome tests of the access method (the crawler view's topic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<crate::AccessTopic>,
    /// Its queries.
    pub queries: Vec<QueryEntry>,
}

/// One query of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryEntry {
    /// The query id (`case/name`).
    pub id: String,
    /// Its global index (row of the matrix).
    pub index: usize,
    /// The product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// `MUST`, `SHOULD` or `MAY`.
    pub level: String,
    /// The requirement IDs it cites.
    pub requirements: Vec<String>,
    /// Profile name to expected verdict (`allowed`, `disallowed`, `either`), every profile.
    pub expect: BTreeMap<Profile, String>,
    /// Why (the RFC argument).
    pub why: String,
    /// Open question, when marked for triage.
    pub triage: Option<String>,
    /// The question of the catalogue it names (`Q-…`), if any.
    #[serde(default)]
    pub question: Option<String>,
    /// A fuzzing finding awaiting its RFC verdict: recorded answers, not judged in pass
    /// rates ([`reptest_corpus::Query::is_undecided_finding`]).
    #[serde(default)]
    pub finding: bool,
    /// The 1-based line of the query in its file.
    pub line: usize,
}

/// One outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// `allowed`, `disallowed`, `unsupported`, `error`, `timeout` or `crash`.
    pub word: OutcomeWord,
    /// The deciding line, when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The message of an error, crash or unsupported outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl From<&Outcome> for Cell {
    fn from(outcome: &Outcome) -> Cell {
        let (line, detail) = match outcome {
            Outcome::Verdict { line, .. } => (*line, None),
            Outcome::Unsupported(why)
            | Outcome::Error(why)
            | Outcome::Crash(why)
            | Outcome::Timeout(why) => (None, Some(why.clone())),
        };
        Cell {
            word: outcome.kind(),
            line,
            detail,
        }
    }
}

/// Judgement counts at one level ([`Tally`]): pass, fail and no verdict count decided
/// queries only; the queries where either verdict conforms are `choices`, never passes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct LevelTally {
    /// Decided queries passed.
    pub pass: usize,
    /// Decided queries failed.
    pub fail: usize,
    /// Unsupported (not judged).
    pub unsupported: usize,
    /// Error, timeout or crash on a decided query.
    pub no_verdict: usize,
    /// Queries answered where the profile permits either verdict (not judged).
    #[serde(default)]
    pub choices: usize,
    /// Pass rate in percent over the judged decided queries (100 when none).
    pub pass_rate: f64,
}

impl LevelTally {
    /// Decided queries judged: passed, failed or without a verdict.
    pub fn judged(&self) -> usize {
        self.pass + self.fail + self.no_verdict
    }
}

impl From<Tally> for LevelTally {
    fn from(t: Tally) -> LevelTally {
        LevelTally {
            pass: t.pass,
            fail: t.fail,
            unsupported: t.unsupported,
            no_verdict: t.no_verdict,
            choices: t.choice,
            pass_rate: t.pass_rate(),
        }
    }
}

/// An implementation's non-passing decided queries under one profile, grouped by root
/// cause ([`reptest_core::causes`]), with the share that carries a question.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FailureCauses {
    /// Decided queries not passed: failed or no verdict (unsupported queries and those
    /// where either verdict conforms are left out).
    pub non_passing: usize,
    /// How many of them name a question of the catalogue.
    pub with_question: usize,
    /// `with_question` over `non_passing`, in percent (100 when nothing failed).
    pub share: f64,
    /// The groups: the largest first, the queries without a root cause last.
    pub groups: Vec<CauseEntry>,
}

/// One root cause and the non-passing queries it explains.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CauseEntry {
    /// What kind of cause.
    pub kind: CauseKind,
    /// The question's id (`Q-…`) or the requirement's; `None` for no root cause.
    pub id: Option<String>,
    /// The question in one sentence, or the requirement's paraphrase.
    pub text: String,
    /// How many queries (the length of `queries`).
    pub count: usize,
    /// The queries, as [`QueryEntry::index`]es in corpus order; the first is the example.
    pub queries: Vec<usize>,
}

/// What a failure is put down to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CauseKind {
    /// A question of the catalogue (`corpus/questions.toml`).
    Question,
    /// The one plain RFC requirement the query tests.
    Requirement,
    /// The query names no question and tests no single requirement.
    None,
}

/// How one implementation scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImplScore {
    /// The implementation.
    pub name: String,
    /// Profile to level (`MUST`, `SHOULD`, `MAY`) to tally (fuzzing findings awaiting
    /// their verdict left out).
    pub profiles: BTreeMap<Profile, BTreeMap<String, LevelTally>>,
    /// The choices made where the RFC lets implementations choose (queries expecting
    /// `either` under `rfc9309`, counted in no pass rate): requirement ID to (allowed,
    /// disallowed) counts.
    pub may_choices: BTreeMap<String, (usize, usize)>,
    /// Queries where it gave the reference's verdict but named another deciding line
    /// (only for implementations that report lines).
    pub same_verdict_other_line: Vec<String>,
    /// Profile to the tally over every level (the sum of `profiles`' level tallies).
    #[serde(default)]
    pub totals: BTreeMap<Profile, LevelTally>,
    /// Profile to its verdicts on the queries that profile lets implementations answer
    /// either way (findings awaiting their verdict left out): (allowed, disallowed).
    #[serde(default)]
    pub either_verdicts: BTreeMap<Profile, (usize, usize)>,
    /// Profile to the decided queries not passed under it (wrong verdict or no verdict),
    /// as [`QueryEntry::index`]es in corpus order.
    #[serde(default)]
    pub not_passed: BTreeMap<Profile, Vec<usize>>,
    /// Profile to the same queries grouped by root cause.
    #[serde(default)]
    pub causes: BTreeMap<Profile, FailureCauses>,
}

/// How the implementations did on the queries citing one requirement (under `rfc9309`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequirementScore {
    /// The requirement ID.
    pub id: String,
    /// Its level.
    pub level: String,
    /// Queries citing it.
    pub queries: usize,
    /// Per implementation (report order): (passed, judged).
    pub per_impl: Vec<(usize, usize)>,
}

/// Pairwise agreement: over the queries both implementations gave a verdict for, how
/// many verdicts were the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// `same[a][b]`: queries where `a` and `b` gave the same verdict.
    pub same: Vec<Vec<usize>>,
    /// `both[a][b]`: queries where both gave a verdict.
    pub both: Vec<Vec<usize>>,
}

impl Agreement {
    /// The agreement rate of `a` and `b` in percent (`None` when no query has both).
    pub fn rate(&self, a: usize, b: usize) -> Option<f64> {
        let both = *self.both.get(a)?.get(b)?;
        (both > 0).then(|| 100.0 * self.same[a][b] as f64 / both as f64)
    }
}

impl Report {
    /// The questions implementation `name` gets wrong, in catalogue order.
    pub fn questions_wrong(&self, name: &str) -> Vec<&QuestionEntry> {
        let Some(column) = self.implementation(name) else {
            return Vec::new();
        };
        self.questions
            .iter()
            .filter(|q| {
                q.per_impl
                    .get(column)
                    .is_some_and(|a| a.verdict == QuestionVerdict::Wrong)
            })
            .collect()
    }

    /// Every query in matrix-row order, with its case.
    pub fn queries(&self) -> impl Iterator<Item = (&CaseEntry, &QueryEntry)> {
        self.cases
            .iter()
            .flat_map(|case| case.queries.iter().map(move |query| (case, query)))
    }

    /// The column of implementation `name`.
    pub fn implementation(&self, name: &str) -> Option<usize> {
        self.implementations.iter().position(|i| i.name == name)
    }

    /// The question with id `question`.
    pub fn question(&self, question: &str) -> Option<&QuestionEntry> {
        self.questions.iter().find(|q| q.id == question)
    }

    /// The upstream threads known about `implementation` and `question`, in catalogue
    /// order; those of `NAME` for `NAME@latest` too. Empty when none is known (or the
    /// question is not in the report).
    pub fn threads_for(&self, question: &str, implementation: &str) -> Vec<&UpstreamThread> {
        self.question(question)
            .map(|q| q.threads_for(implementation))
            .unwrap_or_default()
    }

    /// What the newest release of `implementation` (the column `NAME@latest`) answers to
    /// `question`, when the report holds both it and `NAME` and the newest release judged
    /// the question (not `not judged`); `None` otherwise, and for a `NAME@latest` itself.
    pub fn latest_answer(&self, implementation: &str, question: &str) -> Option<LatestAnswer> {
        if implementation.ends_with(LATEST_SUFFIX) {
            return None;
        }
        let pinned = implementation;
        let q = self.question(question)?;
        let latest_column = self.implementation(&format!("{pinned}{LATEST_SUFFIX}"))?;
        let pinned_answer = q.per_impl.get(self.implementation(pinned)?)?;
        let latest = q.per_impl.get(latest_column)?;
        if latest.verdict == QuestionVerdict::NotJudged {
            return None;
        }
        Some(LatestAnswer {
            version: self.implementations.get(latest_column)?.version.clone(),
            verdict: latest.verdict,
            answer: latest.describe(),
            differs: latest.verdict != pinned_answer.verdict,
        })
    }

    /// [`Report::latest_answer`] as the bug report needs it: the newest release's
    /// version and whether it still gets `question` wrong.
    pub fn still_wrong_in_latest(
        &self,
        implementation: &str,
        question: &str,
    ) -> Option<(String, bool)> {
        self.latest_answer(implementation, question)
            .map(|latest| (latest.version.clone(), latest.still_wrong()))
    }
}

impl QuestionEntry {
    /// The upstream threads about `implementation` (or, for `NAME@latest`, `NAME`).
    pub fn threads_for(&self, implementation: &str) -> Vec<&UpstreamThread> {
        let name = pinned_name(implementation);
        self.upstream
            .iter()
            .filter(|t| t.implementation == name)
            .collect()
    }
}
