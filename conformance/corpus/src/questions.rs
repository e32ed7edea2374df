//! The question catalogue (`corpus/questions.toml`): the root questions implementations
//! disagree on, each with the RFC 9309 sentences that decide it, the decision, the level
//! and its minimal example queries in the corpus.
//!
//! A question is what a divergence is *about*; its example queries carry the verdicts.
//! Queries name their question (`question = "Q-…"`), and a question's examples must name
//! it back, so the catalogue and the cases cannot drift apart.

use crate::error::Problem;
use crate::line_of;
use crate::model::{Case, Dimension, Expect, Level};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use toml::Spanned;

/// One root question with its RFC decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Question {
    /// Stable id: `Q-` and uppercase ASCII letters, digits and `-`.
    pub id: String,
    /// The question in one sentence.
    pub question: String,
    /// The RFC 9309 sentences that decide it, quoted.
    pub rfc: Vec<RfcQuote>,
    /// The decision and its argument from those sentences.
    pub decision: String,
    /// Where the RFC permits both verdicts on some example: the sentence that does.
    pub permits_both: Option<String>,
    /// The level of the decision.
    pub level: Level,
    /// Requirement IDs the question falls under.
    pub requirements: Vec<String>,
    /// The dimensions where it shows (empty: none of the named dimensions).
    pub dimensions: Vec<Dimension>,
    /// The features a divergence about it shows in its input, all of them (names of
    /// `reptest_triage::features`): what attribution checks first.
    pub features: Vec<String>,
    /// Its minimal example queries, as query ids (`case-id/name`).
    pub examples: Vec<String>,
    /// Known upstream reports about implementations that get it wrong.
    pub upstream: Vec<Upstream>,
    /// The 1-based line of the question's `id` in `questions.toml`.
    pub line: usize,
}

/// A quoted RFC sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RfcQuote {
    /// Section or figure, e.g. `2.2.2` or `Figure 4`.
    pub section: String,
    /// The sentence, word for word.
    pub text: String,
}

/// An upstream thread (issue or pull request) about an implementation and a question,
/// with its status when it was last checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upstream {
    /// The implementation's name in reptest (`python-urllib`, ...).
    pub implementation: String,
    /// The thread's address.
    pub url: String,
    /// The thread's title, as upstream wrote it.
    pub title: String,
    /// Issue or pull request; when not given, told by the address (`/pull/`: a pull
    /// request), see [`Upstream::kind`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ThreadKind>,
    /// Open, fixed or wontfix, as upstream left it on [`Upstream::checked`].
    pub status: ThreadStatus,
    /// The release with the fix, when [`ThreadStatus::Fixed`] and known (`1.4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_in: Option<String>,
    /// The day the status was checked, `YYYY-MM-DD`.
    pub checked: String,
}

impl Upstream {
    /// Its kind: the one given, else a pull request when the address has `/pull/`, an
    /// issue otherwise.
    ///
    /// ```
    /// use reptest_corpus::questions::{ThreadKind, ThreadStatus, Upstream};
    /// let thread = Upstream {
    ///     implementation: "java-heritrix".into(),
    ///     url: "https://github.com/internetarchive/heritrix3/pull/656".into(),
    ///     title: "Support * and $ wildcards in robots.txt".into(),
    ///     kind: None,
    ///     status: ThreadStatus::Open,
    ///     fixed_in: None,
    ///     checked: "2026-12-03".into(),
    /// };
    /// assert_eq!(thread.kind(), ThreadKind::Pr);
    /// ```
    pub fn kind(&self) -> ThreadKind {
        self.kind.unwrap_or(if self.url.contains("/pull/") {
            ThreadKind::Pr
        } else {
            ThreadKind::Issue
        })
    }

    /// What is wrong with it, if anything: an `https://` address, a title, a
    /// `YYYY-MM-DD` date, `fixed_in` only when fixed.
    fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let at = &self.url;
        if !at.starts_with("https://")
            || at
                .chars()
                .any(|c| c.is_whitespace() || c == '<' || c == '>')
        {
            problems.push(format!(
                "upstream `{at}`: `url` must be an https:// address"
            ));
        }
        if self.title.trim().is_empty() || self.implementation.trim().is_empty() {
            problems.push(format!(
                "upstream `{at}`: `implementation` and `title` must say something"
            ));
        }
        if !is_date(&self.checked) {
            problems.push(format!(
                "upstream `{at}`: `checked = {:?}` is not a date `YYYY-MM-DD`",
                self.checked
            ));
        }
        match (&self.status, &self.fixed_in) {
            (ThreadStatus::Fixed, Some(v)) if v.trim().is_empty() => {
                problems.push(format!("upstream `{at}`: `fixed_in` is empty"));
            }
            (ThreadStatus::Open | ThreadStatus::Wontfix, Some(_)) => problems.push(format!(
                "upstream `{at}`: `fixed_in` is only for `status = \"fixed\"`"
            )),
            _ => {}
        }
        problems
    }
}

/// Whether `text` is a date `YYYY-MM-DD` (month 01 to 12, day 01 to 31).
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10
        || b[4] != b'-'
        || b[7] != b'-'
        || !digits(0..4)
        || !digits(5..7)
        || !digits(8..10)
    {
        return false;
    }
    let month = (b[5] - b'0') * 10 + (b[6] - b'0');
    let day = (b[8] - b'0') * 10 + (b[9] - b'0');
    (1..=12).contains(&month) && (1..=31).contains(&day)
}

/// Where an upstream thread stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThreadStatus {
    /// Not resolved yet.
    Open,
    /// Fixed upstream (in [`Upstream::fixed_in`] when known).
    Fixed,
    /// Closed without a fix: the maintainers keep the behaviour.
    Wontfix,
}

impl ThreadStatus {
    /// `open`, `fixed`, `wontfix`.
    pub fn as_str(self) -> &'static str {
        match self {
            ThreadStatus::Open => "open",
            ThreadStatus::Fixed => "fixed",
            ThreadStatus::Wontfix => "wontfix",
        }
    }
}

/// An issue or a pull request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThreadKind {
    /// An issue.
    Issue,
    /// A pull request.
    Pr,
}

impl Question {
    /// The verdict of each example: query id to its expectation, in example order. The
    /// corpus holds them (the examples are ordinary queries).
    pub fn decisions<'a>(&'a self, cases: &'a [Case]) -> Vec<(&'a str, Expect)> {
        self.examples
            .iter()
            .filter_map(|id| {
                let (case, query) = find_query(cases, id)?;
                let _ = case;
                Some((id.as_str(), query.expect))
            })
            .collect()
    }
}

/// How a quote's place reads: `§2.2.1` for a section, `Figure 4` as it is.
///
/// ```
/// use reptest_corpus::questions::cite;
/// assert_eq!(cite("2.2.1"), "§2.2.1");
/// assert_eq!(cite("Figure 4"), "Figure 4");
/// ```
pub fn cite(section: &str) -> String {
    if section.starts_with(|c: char| c.is_ascii_digit()) {
        format!("§{section}")
    } else {
        section.to_string()
    }
}

/// The case and query of a query id (`case-id/name`).
pub(crate) fn find_query<'a>(
    cases: &'a [Case],
    id: &str,
) -> Option<(&'a Case, &'a crate::model::Query)> {
    let (case_id, _) = crate::names::split_id(id)?;
    let case = cases.iter().find(|c| c.id == case_id)?;
    let query = case.queries.iter().find(|q| q.id == id)?;
    Some((case, query))
}

/// Why `example` names no query, with the id meant when it is a positional id of corpus
/// 2.x (`case/N`): the id of that query now, from the table of 2.1.0's positional ids
/// (`crate::positional`), else the query at that place in the case file.
fn not_a_query(cases: &[Case], example: &str) -> String {
    let mut message = format!("example `{example}` is not a query of the corpus");
    if !crate::names::is_positional(example) {
        return message;
    }
    message.push_str(" (positional ids `case/N` are gone: ids are `case/name`");
    let table = crate::positional::PositionalIds::embedded().ok();
    match table.as_ref().map(|t| t.get(example)) {
        Some(crate::positional::Mapped::Now(new)) => {
            message.push_str(&format!("; in corpus 2.1.0 it was the query now `{new}`"));
        }
        Some(crate::positional::Mapped::Removed(why)) => {
            message.push_str(&format!("; that query of corpus 2.1.0 was removed: {why}"));
        }
        _ => {
            let place = crate::names::split_id(example).and_then(|(case, n)| {
                let case = cases.iter().find(|c| c.id == case)?;
                case.queries.get(n.parse::<usize>().ok()?.checked_sub(1)?)
            });
            if let Some(query) = place {
                message.push_str(&format!("; the query at that place now is `{}`", query.id));
            }
        }
    }
    message.push(')');
    message
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    question: Vec<RawQuestion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    id: Spanned<String>,
    question: String,
    #[serde(default)]
    rfc: Vec<RfcQuote>,
    decision: String,
    permits_both: Option<String>,
    level: String,
    #[serde(default)]
    requirements: Vec<String>,
    #[serde(default)]
    dimensions: Vec<String>,
    #[serde(default)]
    features: Vec<String>,
    #[serde(default)]
    examples: Vec<String>,
    #[serde(default)]
    upstream: Vec<Upstream>,
}

/// Parses and validates `questions.toml` against the cases loaded: ids well formed and
/// unique, at least one RFC quote, a known level and requirements, examples that exist
/// and name the question back, `permits_both` exactly when an example expects `either`,
/// every upstream thread with an address, a title, a status (`open`, `fixed`, `wontfix`:
/// another word is refused when the file is read), a date checked and `fixed_in` only
/// when fixed, and every query's `question` a known id.
pub(crate) fn load(
    file: &Path,
    text: &str,
    cases: &[Case],
    index: &crate::RequirementIndex,
    problems: &mut Vec<Problem>,
) -> Vec<Question> {
    let at = |line: usize, id: Option<&str>, message: String| Problem {
        file: file.to_path_buf(),
        line: Some(line),
        case: id.map(|id| format!("question {id}")),
        message,
    };
    let raw: RawFile = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(text, s.start));
            problems.push(at(line, None, e.message().to_string()));
            return Vec::new();
        }
    };
    let mut questions = Vec::new();
    let mut seen = BTreeSet::new();
    for raw in raw.question {
        let line = line_of(text, raw.id.span().start);
        let id = raw.id.get_ref().clone();
        let mut fail = |message: String| problems.push(at(line, Some(&id), message));
        let first = seen.insert(id.clone());
        let checked = Checked {
            line,
            first,
            cases,
            index,
        };
        if let Some(question) = checked.question(raw, &mut fail) {
            questions.push(question);
        }
    }
    unknown_questions(file, cases, &questions, &seen, problems);
    questions
}

/// What a question of `questions.toml` is checked against.
struct Checked<'a> {
    /// Its line.
    line: usize,
    /// Whether no question with its id comes earlier.
    first: bool,
    cases: &'a [Case],
    index: &'a crate::RequirementIndex,
}

impl Checked<'_> {
    /// The question, or `None` when its level is unknown; `fail` hears of every problem.
    fn question(&self, raw: RawQuestion, fail: &mut dyn FnMut(String)) -> Option<Question> {
        let id = raw.id.into_inner();
        let well_formed = id.len() > 2
            && id.starts_with("Q-")
            && id[2..]
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-');
        if !well_formed {
            fail("an id is `Q-` then uppercase letters, digits and `-`".into());
        }
        if !self.first {
            fail("a question with this id comes earlier".into());
        }
        if raw.question.trim().is_empty() || raw.decision.trim().is_empty() {
            fail("`question` and `decision` must say something".into());
        }
        if raw.rfc.is_empty() || raw.rfc.iter().any(|q| q.text.trim().is_empty()) {
            fail(
                "quote at least one RFC sentence: [[question.rfc]] with `section` and `text`"
                    .into(),
            );
        }
        let level = Level::parse(&raw.level);
        if level.is_none() {
            fail(format!(
                "level must be MUST, SHOULD or MAY, found `{}`",
                raw.level
            ));
        }
        for requirement in &raw.requirements {
            if self.index.resolve(requirement).is_none() {
                fail(format!("unknown requirement ID `{requirement}`"));
            }
        }
        let mut dimensions = Vec::new();
        for name in &raw.dimensions {
            match Dimension::parse(name) {
                Some(d) => dimensions.push(d),
                None => fail(format!("unknown dimension `{name}`")),
            }
        }
        self.check_examples(&id, &raw.examples, raw.permits_both.is_some(), fail);
        for upstream in &raw.upstream {
            for problem in upstream.problems() {
                fail(problem);
            }
        }
        Some(Question {
            id,
            question: raw.question,
            rfc: raw.rfc,
            decision: raw.decision,
            permits_both: raw.permits_both,
            level: level?,
            requirements: raw.requirements,
            dimensions,
            features: raw.features,
            examples: raw.examples,
            upstream: raw.upstream,
            line: self.line,
        })
    }

    /// Checks the examples of question `id`: at least one, each a query that names the
    /// question back and is not marked for triage, and `permits_both` given exactly when
    /// one expects `either`.
    fn check_examples(
        &self,
        id: &str,
        examples: &[String],
        permits_both: bool,
        fail: &mut dyn FnMut(String),
    ) {
        if examples.is_empty() {
            fail("give at least one example query (`examples = [\"case-id/name\"]`)".into());
        }
        let mut any_either = false;
        for example in examples {
            match find_query(self.cases, example) {
                None => fail(not_a_query(self.cases, example)),
                Some((_, query)) => {
                    any_either |= query.expect == Expect::Either;
                    if query.question.as_deref() != Some(id) {
                        fail(format!(
                            "example `{example}` does not name this question back (add `question = \"{id}\"` to it)"
                        ));
                    }
                    if query.triage.is_some() {
                        fail(format!("example `{example}` is still marked for triage"));
                    }
                }
            }
        }
        match (permits_both, any_either) {
            (false, true) => fail(
                "an example expects `either`: quote the RFC sentence that permits both in `permits_both`"
                    .into(),
            ),
            (true, false) => fail(
                "`permits_both` is given but no example expects `either`".into(),
            ),
            _ => {}
        }
    }
}

/// Reports every query whose `question` is not in `file`, unless a question with that id
/// was there and already reported (`seen`).
fn unknown_questions(
    file: &Path,
    cases: &[Case],
    questions: &[Question],
    seen: &BTreeSet<String>,
    problems: &mut Vec<Problem>,
) {
    let known: BTreeMap<&str, ()> = questions.iter().map(|q| (q.id.as_str(), ())).collect();
    for case in cases {
        for query in &case.queries {
            if let Some(question) = &query.question {
                if !known.contains_key(question.as_str()) && seen.contains(question) {
                    continue; // Reported above, with the question.
                }
                if !known.contains_key(question.as_str()) {
                    problems.push(Problem {
                        file: case.file.clone(),
                        line: Some(query.line),
                        case: Some(case.id.clone()),
                        message: format!(
                            "query {}: question `{question}` is not in {}",
                            query.id,
                            file.display()
                        ),
                    });
                }
            }
        }
    }
}
