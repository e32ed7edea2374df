//! `survey.json`: the counts of the survey with the shares computed from them.
//!
//! Top-level keys: `format`, `seed`, `queries_per_file`, `limit`, `timeout_ms` (the
//! per-query timeout), `breaker` (the circuit breaker's `file_budget_ms` and
//! `trip_after`), `input` (the input's fingerprint: `entries` and `xxh3`), `decided_by`,
//! `decided_means`, `implementations` (name, version and answers of each, missing ones
//! by kind, what the breaker did, and its disagreement with the decided verdict), `files`, `queries`, `status` (the status
//! table), `agreement`, `pairwise` (matrices indexed like `implementations`),
//! `per_question` (per question: `queries`, `files`, `minority` and `against_files`, the
//! files per implementation where it answered one of them against the decided verdict), `new` (split queries attributed to no question, by partition) and
//! `new_minimized` (whether the new groups' examples went through the minimizer:
//! `reptest survey --minimize`, or `reptest survey merge --minimize`), and `provenance`
//! (`reptest`: version, commit, dirty, rustc; `corpus`: version, cases, fingerprint,
//! questions, questions_fingerprint; `runtimes`: by implementation name; and
//! `top_level_keys`, the keys above that are part of the provenance too).

use std::collections::BTreeMap;

use serde::Serialize;

use super::research::{self, SitesView, SliceView, STRATA_MEANS};
use reptest_survey::bootstrap::Interval;

use super::{AGREEMENT_MEANS, DECIDED_MEANS};
use crate::pieces::numbers::share;
use reptest_survey::breaker::Limits;
use reptest_survey::engine::{ImplEntry, Survey, FORMAT};
use reptest_survey::fingerprint::InputFingerprint;
use reptest_survey::provenance::Provenance;
use reptest_survey::tally::{
    Agreement, BreakerTally, Decided, FileCounts, Missing, NewGroup, PairTally,
};
use reptest_survey::{AccessBranch, StatusFamily};

/// The JSON text of `survey.json` (pretty-printed, a final newline).
pub fn render(survey: &Survey) -> String {
    let mut text = serde_json::to_string_pretty(&View::of(survey))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

#[derive(Serialize)]
struct View<'a> {
    format: u32,
    seed: u64,
    queries_per_file: u64,
    limit: Option<u64>,
    timeout_ms: u64,
    breaker: &'a Limits,
    input: &'a InputFingerprint,
    decided_by: &'a ImplEntry,
    decided_means: &'static str,
    implementations: Vec<Impl<'a>>,
    files: &'a FileCounts,
    queries: u64,
    status: Vec<Status>,
    agreement: AgreementView,
    pairwise: Pairwise<'a>,
    per_question: Vec<Question<'a>>,
    new: Vec<&'a NewGroup>,
    new_minimized: bool,
    origins: &'a str,
    strata_means: &'static str,
    strata: BTreeMap<String, SliceView<'a>>,
    agents: BTreeMap<String, SliceView<'a>>,
    sites: SitesView<'a>,
    intervals_means: String,
    intervals: BTreeMap<&'a str, Interval>,
    provenance: ProvenanceView<'a>,
}

/// `provenance`: the survey's [`Provenance`], and the names of the top-level keys that
/// are part of the provenance too.
#[derive(Serialize)]
struct ProvenanceView<'a> {
    #[serde(flatten)]
    recorded: &'a Provenance,
    top_level_keys: [&'static str; 8],
}

/// The top-level keys of `survey.json` that are part of a survey's provenance.
const PROVENANCE_KEYS: [&str; 8] = [
    "input",
    "seed",
    "queries_per_file",
    "limit",
    "timeout_ms",
    "breaker",
    "implementations",
    "decided_by",
];

#[derive(Serialize)]
struct Impl<'a> {
    name: &'a str,
    version: &'a str,
    asked: u64,
    verdicts: u64,
    allowed: u64,
    missing: &'a Missing,
    missing_total: u64,
    breaker: &'a BreakerTally,
    decided: DecidedView,
}

#[derive(Serialize)]
struct DecidedView {
    #[serde(flatten)]
    counts: Decided,
    query_share: f64,
    file_share: f64,
}

#[derive(Serialize)]
struct Status {
    family: String,
    branch: String,
    section: Option<&'static str>,
    meaning: &'static str,
    files: u64,
    queries: u64,
}

#[derive(Serialize)]
struct AgreementView {
    #[serde(flatten)]
    counts: Agreement,
    share: f64,
    means: &'static str,
}

#[derive(Serialize)]
struct Pairwise<'a> {
    implementations: Vec<&'a str>,
    queries: Vec<Vec<u64>>,
    queries_disagree: Vec<Vec<u64>>,
    query_share: Vec<Vec<f64>>,
    files: Vec<Vec<u64>>,
    files_disagree: Vec<Vec<u64>>,
    file_share: Vec<Vec<f64>>,
}

#[derive(Serialize)]
struct Question<'a> {
    id: &'a str,
    question: &'a str,
    queries: u64,
    files: u64,
    minority: &'a std::collections::BTreeMap<String, u64>,
    against_files: &'a std::collections::BTreeMap<String, u64>,
}

/// The status families in table order: `none` (no status), then `2xx` ... `other`.
pub(crate) fn status_rows(survey: &Survey) -> Vec<(String, AccessBranch, u64, u64)> {
    let families = std::iter::once(("none", AccessBranch::of(None))).chain(
        StatusFamily::ALL.iter().map(|f| {
            let code = match f {
                StatusFamily::Success => Some(200),
                StatusFamily::Redirection => Some(300),
                StatusFamily::ClientError => Some(400),
                StatusFamily::ServerError => Some(500),
                StatusFamily::Other => Some(0),
            };
            (f.label(), AccessBranch::of(code))
        }),
    );
    families
        .filter_map(|(family, branch)| {
            let row = survey.tally.status.get(family)?;
            Some((family.to_string(), branch, row.files, row.queries))
        })
        .collect()
}

impl<'a> View<'a> {
    fn of(survey: &'a Survey) -> View<'a> {
        let header = &survey.header;
        let tally = &survey.tally;
        let matrix = |f: &dyn Fn(&PairTally) -> u64| matrix_of(&tally.pairwise, f);
        let shares = |f: &dyn Fn(&PairTally) -> f64| matrix_of(&tally.pairwise, f);
        View {
            format: FORMAT,
            seed: header.seed,
            queries_per_file: header.queries_per_file,
            limit: header.limit,
            timeout_ms: u64::try_from(header.timeout.as_millis()).unwrap_or(u64::MAX),
            breaker: &header.breaker,
            input: &header.input,
            decided_by: &header.decided_by,
            decided_means: DECIDED_MEANS,
            implementations: header
                .implementations
                .iter()
                .zip(&tally.implementations)
                .map(|(entry, t)| Impl {
                    name: &entry.name,
                    version: &entry.version,
                    asked: t.asked,
                    verdicts: t.verdicts,
                    allowed: t.allowed,
                    missing: &t.missing,
                    missing_total: t.missing.total(),
                    breaker: &t.breaker,
                    decided: DecidedView {
                        counts: t.decided,
                        query_share: share(t.decided.queries_disagree, t.decided.queries),
                        file_share: share(t.decided.files_disagree, t.decided.files),
                    },
                })
                .collect(),
            files: &tally.files,
            queries: tally.queries,
            status: status_rows(survey)
                .into_iter()
                .map(|(family, branch, files, queries)| Status {
                    family,
                    branch: branch.label().to_string(),
                    section: branch.section(),
                    meaning: branch.meaning(),
                    files,
                    queries,
                })
                .collect(),
            agreement: AgreementView {
                counts: tally.agreement,
                share: share(tally.agreement.unanimous, tally.agreement.compared),
                means: AGREEMENT_MEANS,
            },
            pairwise: Pairwise {
                implementations: header
                    .implementations
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect(),
                queries: matrix(&|p| p.queries),
                queries_disagree: matrix(&|p| p.queries_disagree),
                query_share: shares(&|p| share(p.queries_disagree, p.queries)),
                files: matrix(&|p| p.files),
                files_disagree: matrix(&|p| p.files_disagree),
                file_share: shares(&|p| share(p.files_disagree, p.files)),
            },
            per_question: questions(survey),
            new: new_groups(survey),
            new_minimized: tally.new_minimized,
            origins: &header.origins,
            strata_means: STRATA_MEANS,
            strata: research::slices(survey, &tally.strata, &["natural", "probe"], true),
            agents: research::slices(
                survey,
                &tally.agents,
                &["generic", "search", "ai", "other"],
                false,
            ),
            sites: research::sites(survey),
            intervals_means: research::intervals_means(header.seed),
            intervals: research::intervals(survey),
            provenance: ProvenanceView {
                recorded: &header.provenance,
                top_level_keys: PROVENANCE_KEYS,
            },
        }
    }
}

/// `f` of every pair of a pairwise matrix.
fn matrix_of<T>(pairwise: &[Vec<PairTally>], f: &dyn Fn(&PairTally) -> T) -> Vec<Vec<T>> {
    pairwise
        .iter()
        .map(|row| row.iter().map(f).collect())
        .collect()
}

/// The questions that split at least one query, most queries first, then in catalogue
/// order; with their text.
fn questions(survey: &Survey) -> Vec<Question<'_>> {
    let mut rows: Vec<(usize, Question<'_>)> = survey
        .tally
        .per_question
        .iter()
        .map(|(id, t)| {
            let at = survey.header.questions.iter().position(|q| q.id == *id);
            let question = Question {
                id,
                question: at.map_or("", |at| survey.header.questions[at].question.as_str()),
                queries: t.queries,
                files: t.files,
                minority: &t.minority,
                against_files: &t.against_files,
            };
            (at.unwrap_or(usize::MAX), question)
        })
        .collect();
    rows.sort_by(|(a, x), (b, y)| y.queries.cmp(&x.queries).then(a.cmp(b)));
    rows.into_iter().map(|(_, q)| q).collect()
}

/// The new groups, most queries first, then by key.
pub(crate) fn new_groups(survey: &Survey) -> Vec<&NewGroup> {
    let mut groups: Vec<(&String, &NewGroup)> = survey.tally.new.iter().collect();
    groups.sort_by(|(a, x), (b, y)| y.queries.cmp(&x.queries).then(a.cmp(b)));
    groups.into_iter().map(|(_, g)| g).collect()
}

/// One row of the per-question table of the Markdown and HTML pages.
pub(crate) struct QuestionRow {
    pub(crate) id: String,
    pub(crate) text: String,
    pub(crate) queries: u64,
    pub(crate) files: u64,
    /// Implementations on the minority side with their counts, most first.
    pub(crate) minority: Vec<(String, u64)>,
}

/// The per-question rows, in the order of `per_question`.
pub(crate) fn question_rows(survey: &Survey) -> Vec<QuestionRow> {
    questions(survey)
        .into_iter()
        .map(|q| {
            let mut minority: Vec<(String, u64)> =
                q.minority.iter().map(|(n, c)| (n.clone(), *c)).collect();
            minority.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            QuestionRow {
                id: q.id.to_string(),
                text: q.question.to_string(),
                queries: q.queries,
                files: q.files,
                minority,
            }
        })
        .collect()
}
