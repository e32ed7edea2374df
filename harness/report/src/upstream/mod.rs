//! Bug reports a maintainer can file upstream (`reptest report`'s `upstream/` folder and
//! `reptest upstream`): one per implementation and question it gets wrong, each with the
//! smallest corpus query that shows it, the body as exact bytes, the RFC 9309 sentence
//! that decides it, the library's answer, how much of the corpus (and of a survey) the
//! question touches for it, the known upstream threads, and a reproducer in the
//! library's own language that calls its public API ([`recipe`]) and prints the actual
//! answer next to the expected one.
//!
//! Selection ([`bug_reports`]): for implementation `I` and a question it answers
//! `wrong`, the candidates are the question's decided queries (`allowed` or `disallowed`
//! under the `rfc9309` profile, no undecided finding) on which `I` gave the other
//! verdict; the example is the candidate on a plain body (no fetch outcome) with the
//! fewest body octets, then the earliest in corpus order. A question whose failures all
//! need a fetch (RFC 9309 §2.3) gets a report without a reproducer.

mod crawler;
mod frame;
pub mod literal;
mod markdown;
pub mod recipe;

use crate::{CaseEntry, ImplEntry, QueryEntry, QuestionAnswer, QuestionEntry, Report};
use reptest_core::url::QueryUrl;
use reptest_corpus::{Corpus, OutcomeWord, Profile};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub use markdown::{index, render, title};

/// The folder of bug reports, inside the report folder.
pub const UPSTREAM_DIR: &str = "upstream";

/// A reproducer's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Python 3.
    Python,
    /// JavaScript on Node.js.
    JavaScript,
    /// Go.
    Go,
    /// Java 11 or later (a single source file).
    Java,
    /// Perl 5.
    Perl,
    /// Ruby.
    Ruby,
    /// Rust.
    Rust,
}

impl Language {
    /// The file extension of a reproducer.
    pub fn extension(self) -> &'static str {
        match self {
            Language::Python => "py",
            Language::JavaScript => "js",
            Language::Go => "go",
            Language::Java => "java",
            Language::Perl => "pl",
            Language::Ruby => "rb",
            Language::Rust => "rs",
        }
    }

    /// The fence tag of a Markdown code block.
    pub fn fence(self) -> &'static str {
        match self {
            Language::JavaScript => "js",
            other => other.extension(),
        }
    }

    /// How to run the reproducer `file` once the install line has run (for Rust, in the
    /// new project beside it, with the body's file when it has one).
    pub fn run(self, file: &str, body_file: Option<&str>) -> String {
        match self {
            // reptest starts adapters with these hash seeds (reptest_core::environment::
            // PROCESS_SEEDS): a library whose answer depends on hash order answers so.
            Language::Python => format!("PYTHONHASHSEED=0 python3 {file}"),
            Language::JavaScript => format!("node {file}"),
            Language::Go => format!("go run {file}"),
            Language::Java => format!("java -cp <the library's jars> {file}"),
            Language::Perl => format!("PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl {file}"),
            Language::Ruby => format!("ruby {file}"),
            Language::Rust => match body_file {
                Some(body) => format!("cp ../{file} src/main.rs && cp ../{body} src/ && cargo run"),
                None => format!("cp ../{file} src/main.rs && cargo run"),
            },
        }
    }
}

/// One bug report: an implementation, a question it gets wrong and the query that shows
/// it.
#[derive(Debug, Clone)]
pub struct BugReport<'r> {
    /// What produced the run.
    pub meta: &'r crate::Meta,
    /// The implementation.
    pub implementation: &'r ImplEntry,
    /// The question.
    pub question: &'r QuestionEntry,
    /// The implementation's answers to the question's queries.
    pub answer: QuestionAnswer,
    /// The example's case.
    pub case: &'r CaseEntry,
    /// The example query.
    pub query: &'r QueryEntry,
    /// The body, exact bytes.
    pub body: Vec<u8>,
    /// The expected verdict under RFC 9309 (`allowed` or `disallowed`).
    pub expected: &'r str,
    /// The implementation's verdict.
    pub actual: &'static str,
    /// The deciding line the implementation reported, when it does.
    pub actual_line: Option<usize>,
    /// The reference's deciding line, when it ran.
    pub reference_line: Option<usize>,
    /// The reproducer, when the library has a recipe and the example needs no fetch.
    pub reproducer: Option<Reproducer>,
    /// Survey files on which the implementation answered a query of this question
    /// against the decided verdict, when a survey was given: (files, files surveyed).
    pub survey_files: Option<(u64, u64)>,
    /// The newest release, when the run holds `NAME@latest`: (its version, whether it
    /// still gets the question wrong).
    pub latest: Option<(String, bool)>,
}

/// Bodies longer than this (in octets) go to a file of their own beside the reproducer
/// (`Q-….robots.txt`), which reads it, instead of a literal in its source.
pub const BODY_FILE_OVER: usize = 4096;

/// A reproducer's file and what the checker needs to run it.
#[derive(Debug, Clone, Serialize)]
pub struct Reproducer {
    /// Its language.
    pub language: Language,
    /// The file name (`Q-….py`), beside the bug report.
    pub file: String,
    /// The body's own file beside it (`Q-….robots.txt`), when the body is longer than
    /// [`BODY_FILE_OVER`].
    pub body_file: Option<String>,
    /// The one-line install.
    pub install: String,
    /// Its source.
    #[serde(skip)]
    pub source: String,
}

/// Per question id and implementation name, the survey files on which it answered
/// against the decided verdict; with the files surveyed.
#[derive(Debug, Clone, Default)]
pub struct SurveyFiles {
    /// (question, implementation) to files.
    pub against: BTreeMap<(String, String), u64>,
    /// Files surveyed.
    pub surveyed: u64,
}

impl SurveyFiles {
    /// The counts of a `survey.json` (`reptest survey --out DIR`): `files.surveyed` and
    /// each `per_question` row's `against_files`.
    pub fn from_json(text: &str) -> Result<SurveyFiles, serde_json::Error> {
        #[derive(serde::Deserialize)]
        struct Files {
            surveyed: u64,
        }
        #[derive(serde::Deserialize)]
        struct Row {
            id: String,
            #[serde(default)]
            against_files: BTreeMap<String, u64>,
        }
        #[derive(serde::Deserialize)]
        struct SurveyJson {
            files: Files,
            per_question: Vec<Row>,
        }
        let survey: SurveyJson = serde_json::from_str(text)?;
        let against = survey
            .per_question
            .into_iter()
            .flat_map(|row| {
                let id = row.id;
                row.against_files
                    .into_iter()
                    .map(move |(name, n)| ((id.clone(), name), n))
            })
            .collect();
        Ok(SurveyFiles {
            against,
            surveyed: survey.files.surveyed,
        })
    }
}

/// Every bug report of `report` (implementations in run order, then questions in
/// catalogue order); `corpus` is the corpus the report ran, for the exact bodies. The
/// reference and `NAME@latest` columns get none (a latest release is reported in its
/// pinned sibling's reports).
pub fn bug_reports<'r>(
    report: &'r Report,
    corpus: &Corpus,
    survey: Option<&SurveyFiles>,
) -> Vec<BugReport<'r>> {
    let cases: BTreeMap<&str, &reptest_corpus::Case> =
        corpus.cases().iter().map(|c| (c.id.as_str(), c)).collect();
    let reference = report.implementation("reference");
    // Matrix rows by index, once: each example is looked up among a question's rows.
    let rows: Vec<(&CaseEntry, &QueryEntry)> = report.queries().collect();
    let mut out = Vec::new();
    for (column, implementation) in report.implementations.iter().enumerate() {
        if implementation.name == "reference" || implementation.name.ends_with("@latest") {
            continue;
        }
        for question in report.questions_wrong(&implementation.name) {
            let Some((case, query, cell)) = example(report, &rows, column, question) else {
                continue;
            };
            let source = cases.get(case.id.as_str()).copied();
            let body = source.map_or(&[][..], |c| c.body.as_slice());
            let survey_files = survey.map(|s| {
                let key = (question.id.clone(), implementation.name.clone());
                (s.against.get(&key).copied().unwrap_or(0), s.surveyed)
            });
            let mut bug = BugReport {
                meta: &report.meta,
                implementation,
                question,
                answer: question.per_impl[column],
                case,
                query,
                body: body.to_vec(),
                expected: expected(query).unwrap_or_default(),
                actual: cell.word.as_str(),
                actual_line: cell.line,
                reference_line: reference.and_then(|r| report.outcomes[r][query.index].line),
                reproducer: None,
                survey_files,
                latest: report.still_wrong_in_latest(&implementation.name, &question.id),
            };
            bug.reproducer = match source {
                Some(c) if c.fetch.is_some() => crawler::reproducer(&bug, c),
                _ => reproducer(&bug),
            };
            out.push(bug);
        }
    }
    out
}

/// The expected verdict of `query` under RFC 9309, when it is decided.
fn expected(query: &QueryEntry) -> Option<&str> {
    let expect = query.expect.get(&Profile::Rfc9309)?.as_str();
    (matches!(expect, "allowed" | "disallowed") && !query.finding).then_some(expect)
}

/// The example of `question` for implementation `column` (the module doc's rule).
fn example<'r>(
    report: &'r Report,
    rows: &[(&'r CaseEntry, &'r QueryEntry)],
    column: usize,
    question: &QuestionEntry,
) -> Option<(&'r CaseEntry, &'r QueryEntry, &'r crate::Cell)> {
    question
        .queries
        .iter()
        .filter_map(|&index| {
            let (case, query) = *rows.get(index)?;
            let cell = report.outcomes.get(column)?.get(query.index)?;
            let verdict = matches!(cell.word, OutcomeWord::Allowed | OutcomeWord::Disallowed);
            let wrong = expected(query).is_some_and(|e| e != cell.word.as_str());
            (verdict && wrong).then_some((case, query, cell))
        })
        .min_by_key(|(case, query, _)| (case.fetch.is_some(), case.body.len(), query.index))
}

/// The reproducer of `bug`, when its library has a recipe and its case needs no fetch.
fn reproducer(bug: &BugReport<'_>) -> Option<Reproducer> {
    let recipe = recipe::find(&bug.implementation.name)?;
    if bug.case.fetch.is_some() {
        return None;
    }
    let url = QueryUrl::new(&bug.query.url);
    let target = match recipe.target {
        recipe::Target::Absolute => url.absolute(),
        recipe::Target::Path => url.path(),
        recipe::Target::AsGiven => url.as_str().into(),
    };
    let file = format!("{}.{}", bug.question.id, recipe.language.extension());
    let body_file = (bug.body.len() > BODY_FILE_OVER).then(|| body_file_name(bug));
    let version = bug
        .implementation
        .version
        .split_whitespace()
        .next()
        .unwrap_or("");
    let install = recipe.install.replace("{version}", version);
    let query = frame::Query {
        header: markdown::reproducer_header(
            bug,
            &install,
            &recipe.language.run(&file, body_file.as_deref()),
        ),
        body: &bug.body,
        body_file: body_file.as_deref(),
        agent: &bug.query.agent,
        target: &target,
        robots_url: &url.robots_url(),
        expected: bug.expected,
    };
    let source = frame::render(recipe, &query);
    Some(Reproducer {
        language: recipe.language,
        file,
        body_file,
        install,
        source,
    })
}

/// The name of the body's file of `bug` (`Q-….robots.txt`).
fn body_file_name(bug: &BugReport<'_>) -> String {
    format!("{}.robots.txt", bug.question.id)
}

/// One line of `upstream/reproducers.json`: what the checker runs and what it expects.
#[derive(Debug, Serialize)]
struct ManifestEntry<'a> {
    implementation: &'a str,
    version: &'a str,
    question: &'a str,
    query: &'a str,
    /// Relative to the `upstream` folder.
    file: String,
    language: Language,
    /// The body's own file, relative to the `upstream` folder, when it has one.
    body_file: Option<String>,
    install: &'a str,
    expected: &'a str,
    actual: &'a str,
}

/// The files of the `upstream` folder, relative to the report folder: per bug report
/// `upstream/NAME/QUESTION.md` and its reproducer beside it, `upstream/README.md` (the
/// index) and `upstream/reproducers.json` (what the checker runs).
pub fn files(bugs: &[BugReport<'_>]) -> Result<Vec<(PathBuf, Vec<u8>)>, serde_json::Error> {
    let root = PathBuf::from(UPSTREAM_DIR);
    let mut files = vec![(root.join("README.md"), markdown::index(bugs).into_bytes())];
    let mut manifest = Vec::new();
    for bug in bugs {
        let dir = root.join(crate::folder::file_name(&bug.implementation.name));
        files.push((
            dir.join(format!("{}.md", bug.question.id)),
            render(bug).into_bytes(),
        ));
        if bug.body.len() > BODY_FILE_OVER {
            files.push((dir.join(body_file_name(bug)), bug.body.clone()));
        }
        if let Some(r) = &bug.reproducer {
            files.push((dir.join(&r.file), r.source.clone().into_bytes()));
            let name = crate::folder::file_name(&bug.implementation.name);
            manifest.push(ManifestEntry {
                implementation: &bug.implementation.name,
                version: &bug.implementation.version,
                question: &bug.question.id,
                query: &bug.query.id,
                file: format!("{name}/{}", r.file),
                language: r.language,
                body_file: r.body_file.as_ref().map(|f| format!("{name}/{f}")),
                install: &r.install,
                expected: bug.expected,
                actual: bug.actual,
            });
        }
    }
    let json = serde_json::to_string_pretty(&manifest)? + "\n";
    files.push((root.join("reproducers.json"), json.into_bytes()));
    Ok(files)
}

/// What `reptest report` says of the bug reports it wrote into `dir`.
pub fn written(bugs: &[BugReport<'_>], dir: &std::path::Path) -> String {
    let (implementations, with) = counts(bugs);
    format!(
        "wrote {} bug report(s) for {} implementation(s) in {}, {with} with a reproducer in \
         the library's language (index: README.md; the checker: python3 \
         harness/external/reproducers/check.py {})\n",
        bugs.len(),
        implementations,
        dir.display(),
        dir.display()
    )
}

/// Of `bugs`: how many implementations they are about, and how many have a reproducer.
pub(crate) fn counts(bugs: &[BugReport<'_>]) -> (usize, usize) {
    let with = bugs.iter().filter(|b| b.reproducer.is_some()).count();
    let mut names: Vec<&str> = bugs
        .iter()
        .map(|b| b.implementation.name.as_str())
        .collect();
    names.dedup();
    (names.len(), with)
}
