//! Coverage figures of a corpus.

use crate::model::Level;
use crate::requirements::RequirementLevel;
use crate::Corpus;
use std::collections::BTreeMap;

/// Counts of a corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Number of cases.
    pub cases: usize,
    /// Number of queries.
    pub queries: usize,
    /// Queries per level.
    pub per_level: BTreeMap<Level, usize>,
    /// Queries per expectation (`allowed`, `disallowed`, `either`).
    pub per_expect: BTreeMap<&'static str, usize>,
    /// Per requirement of the index, in index order.
    pub per_requirement: Vec<RequirementCoverage>,
    /// IDs of the index that no query cites.
    pub uncovered: Vec<String>,
    /// IDs cited fewer times than their level asks (3 for MUST and SHOULD, 1 otherwise).
    pub under_covered: Vec<String>,
    /// Queries marked for triage.
    pub triage: usize,
    /// Queries without a decided verdict (marked for triage, findings included).
    pub undecided: usize,
    /// Questions in the catalogue.
    pub questions: usize,
    /// Queries that name a question.
    pub with_question: usize,
    /// Ids of the queries with neither a question nor a single plain requirement as
    /// their root cause ([`crate::Query::cause`]).
    pub without_cause: Vec<String>,
}

/// How often one requirement is cited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequirementCoverage {
    /// The ID (a family such as `profile-google-*` counts its members).
    pub id: String,
    /// `MUST`, `SHOULD`, `MAY` or `profile`.
    pub level: &'static str,
    /// Queries citing it.
    pub queries: usize,
}

/// Queries a requirement of this level needs before it counts as covered.
pub(crate) fn wanted(level: RequirementLevel) -> usize {
    match level {
        RequirementLevel::Rfc(Level::Must | Level::Should) => 3,
        _ => 1,
    }
}

pub(crate) fn compute(corpus: &Corpus) -> Stats {
    let index = corpus.requirements();
    let mut cited: BTreeMap<&str, usize> = BTreeMap::new();
    let mut per_level = BTreeMap::new();
    let mut per_expect = BTreeMap::new();
    let mut queries = 0;
    let mut triage = 0;
    let mut undecided = 0;
    let mut with_question = 0;
    let mut without_cause = Vec::new();
    for (_, query) in corpus.queries() {
        if query.cause().is_none() {
            without_cause.push(query.id.clone());
        }
        queries += 1;
        *per_level.entry(query.level).or_insert(0) += 1;
        *per_expect.entry(query.expect.as_str()).or_insert(0) += 1;
        triage += usize::from(query.triage.is_some());
        undecided += usize::from(query.is_undecided());
        with_question += usize::from(query.question.is_some());
        let mut seen = Vec::new();
        for id in &query.requirements {
            if let Some(entry) = index.resolve(id) {
                if !seen.contains(&entry.id.as_str()) {
                    seen.push(entry.id.as_str());
                    *cited.entry(entry.id.as_str()).or_insert(0) += 1;
                }
            }
        }
    }
    let mut per_requirement = Vec::new();
    let mut uncovered = Vec::new();
    let mut under_covered = Vec::new();
    for entry in index.iter() {
        let count = cited.get(entry.id.as_str()).copied().unwrap_or(0);
        if count == 0 {
            uncovered.push(entry.id.clone());
        }
        if count < wanted(entry.level) {
            under_covered.push(entry.id.clone());
        }
        let level = match entry.level {
            RequirementLevel::Rfc(level) => level.as_str(),
            RequirementLevel::Profile => "profile",
        };
        per_requirement.push(RequirementCoverage {
            id: entry.id.clone(),
            level,
            queries: count,
        });
    }
    Stats {
        cases: corpus.cases().len(),
        queries,
        per_level,
        per_expect,
        per_requirement,
        uncovered,
        under_covered,
        triage,
        undecided,
        questions: corpus.questions().len(),
        with_question,
        without_cause,
    }
}
