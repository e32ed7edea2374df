//! One file through the implementations: its derived queries and its site queries,
//! asked as one case input, judged and counted into the file's [`Tally`].

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use reptest_core::runner::evaluate;
use reptest_core::{CaseInput, Outcome, QueryInput};
use reptest_triage::features::{features_with, BodyScan};

use super::count::{count_breakers, count_outcomes, count_query, Judged, Seen};
use super::{Observer, Options, Setup};
use crate::breaker::{Answers, Breakers};
use crate::queries::derive_scanned;
use crate::queries::scan::{scan, Scan};
use crate::records::FileRecord;
use crate::sites::SiteQueries;
use crate::tally::{Example, NewGroup, Slice, StatusRow, Tally, EXAMPLE_BODY_LIMIT};
use crate::{AccessBranch, AgentClass, Cut, StatusFamily, Stratum, SurveyFile};
use crate::{SurveyQuery, ORIGINS};

/// What every file of one survey is surveyed with.
pub(super) struct Context<'a> {
    pub setup: &'a Setup<'a>,
    pub options: &'a Options,
    pub decider_at: Option<usize>,
    pub input: &'a str,
    pub breakers: Breakers,
}

/// One file's queries with their answers and judgements.
pub(crate) struct Asked<'f> {
    pub file: &'f SurveyFile,
    /// Where the file is in the input (its source without the input's name).
    pub locator: &'f str,
    /// The derived queries, then the site queries.
    pub queries: Vec<SurveyQuery>,
    /// How many of `queries` are derived ones.
    pub derived: usize,
    /// The site queries' crawler ranges (offset by `derived`).
    pub site: SiteQueries,
    /// Each query judged.
    pub judged: Vec<Judged>,
    /// The answers, per implementation.
    pub answers: Vec<Answers>,
}

impl Context<'_> {
    /// The tally of one file (and its records, when the observer wants them).
    pub(super) fn file(&self, file: &SurveyFile, observer: &dyn Observer) -> Tally {
        let n = self.setup.implementations.len();
        let mut t = Tally::new(n);
        let locator = file.source.strip_prefix(self.input).unwrap_or(&file.source);
        // The body is scanned once, for its derived queries, its site queries and its
        // record.
        let scanned = scan(&file.body);
        let Some(derived) = self.count_file(&mut t, file, &scanned) else {
            if self.options.records {
                let record = FileRecord::of(file, locator, &scanned, None, self.setup);
                observer.record(&record);
            }
            return t;
        };
        let asked = self.ask(file, locator, &scanned, derived);
        count_breakers(&mut t, &asked.answers);
        self.count_derived(&mut t, &asked);
        super::sites::count(&mut t, &asked, self.setup);
        let group = crate::bootstrap::group_of(self.options.seed, &file.host, locator);
        super::shares::add_file(&mut t, self.setup, group);
        if self.options.records {
            let record = FileRecord::of(file, locator, &scanned, Some(&asked), self.setup);
            observer.record(&record);
        }
        t
    }

    /// Counts the file in `t` (read, cut, status) and returns its derived queries;
    /// `None` when its status means the rules do not apply.
    fn count_file(
        &self,
        t: &mut Tally,
        file: &SurveyFile,
        scanned: &Scan<'_>,
    ) -> Option<Vec<SurveyQuery>> {
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
            return None;
        }
        t.files.surveyed = 1;
        let o = self.options;
        let queries = derive_scanned(file, scanned, o.seed, o.queries_per_file, o.origins);
        row.queries = queries.len() as u64;
        t.status.insert(family.to_string(), row);
        t.queries = queries.len() as u64;
        Some(queries)
    }

    /// Asks every implementation the derived and site queries of `file`, and judges
    /// each query.
    fn ask<'f>(
        &self,
        file: &'f SurveyFile,
        locator: &'f str,
        scanned: &Scan<'_>,
        derived: Vec<SurveyQuery>,
    ) -> Asked<'f> {
        let site = SiteQueries::of_scan(scanned);
        let count = derived.len();
        let mut queries = derived;
        queries.extend(site.queries.iter().cloned());
        let inputs: Vec<QueryInput<'_>> = queries.iter().map(SurveyQuery::input).collect();
        let case = CaseInput {
            robots: &file.body,
            fetch: None,
            queries: &inputs,
        };
        let answers = self.answers(&case);
        let decided = self.decided(&answers, &case);
        let scan = OnceCell::new();
        let judged = queries
            .iter()
            .enumerate()
            .map(|(q, query)| {
                let verdicts = answers
                    .iter()
                    .map(|a| a.outcome(q).and_then(Outcome::allowed))
                    .collect();
                self.judge(&file.body, &scan, query, verdicts, decided[q])
            })
            .collect();
        Asked {
            file,
            locator,
            queries,
            derived: count,
            site,
            judged,
            answers,
        }
    }

    /// Every implementation's answers to the case's queries, through its breaker.
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

    /// Judges one query: split or not, and a split one's sides and question (the
    /// body's features are read once, at the file's first split query).
    fn judge<'b>(
        &self,
        body: &'b [u8],
        scan: &OnceCell<BodyScan<'b>>,
        query: &SurveyQuery,
        verdicts: Vec<Option<bool>>,
        decided: Option<bool>,
    ) -> Judged {
        let answered = verdicts.iter().flatten().count();
        let allowed_count = verdicts.iter().flatten().filter(|v| **v).count();
        let split = answered >= 2 && allowed_count != 0 && allowed_count != answered;
        let mut judged = Judged {
            verdicts,
            decided,
            split,
            allowed: Vec::new(),
            disallowed: Vec::new(),
            question: None,
            open: false,
        };
        if !split {
            return judged;
        }
        let names = self.setup.implementations.iter().map(|i| i.name());
        let by_name: BTreeMap<&str, bool> = names
            .zip(&judged.verdicts)
            .filter_map(|(name, v)| Some((name, (*v)?)))
            .collect();
        for (name, v) in &by_name {
            let side = if *v {
                &mut judged.allowed
            } else {
                &mut judged.disallowed
            };
            side.push(name.to_string());
        }
        let features = features_with(
            scan.get_or_init(|| BodyScan::of(body)),
            &query.agent,
            &query.url,
        );
        judged.question = self
            .setup
            .attribution
            .of_verdicts(&by_name, &features)
            .map(str::to_string);
        judged.open = judged
            .question
            .as_deref()
            .is_some_and(|id| self.setup.is_open(id));
        judged
    }

    /// Counts the derived queries: in the whole tally, their stratum's slice and their
    /// agent class's slice; a split query attributed to no question goes to its new
    /// group.
    fn count_derived(&self, t: &mut Tally, asked: &Asked<'_>) {
        let n = self.setup.implementations.len();
        let mut seen = Seen::new(n);
        let mut slices: BTreeMap<(&str, &str), (Slice, Seen)> = BTreeMap::new();
        let mut new = BTreeSet::new();
        for (q, judged) in asked.judged[..asked.derived].iter().enumerate() {
            count_outcomes(t, &asked.answers, q);
            count_query(t, &mut seen, judged);
            let query = &asked.queries[q];
            let stratum = Stratum::of(query.origin).label();
            let class = AgentClass::of(&query.agent).label();
            for key in [("strata", stratum), ("agents", class)] {
                let (slice, seen) = slices
                    .entry(key)
                    .or_insert_with(|| (Slice::new(n), Seen::new(n)));
                slice.queries += 1;
                count_query(slice, seen, judged);
            }
            if judged.split && judged.question.is_none() {
                let key = NewGroup::key(&judged.allowed, &judged.disallowed);
                new.insert(key.clone());
                t.new
                    .entry(key)
                    .and_modify(|group| group.queries += 1)
                    .or_insert_with(|| NewGroup {
                        allowed: judged.allowed.clone(),
                        disallowed: judged.disallowed.clone(),
                        queries: 1,
                        files: 0,
                        example: example(asked, q),
                        minimized: None,
                    });
            }
        }
        seen.count_files(t);
        for key in new {
            if let Some(group) = t.new.get_mut(&key) {
                group.files = 1;
            }
        }
        for ((kind, key), (mut slice, seen)) in slices {
            seen.count_files(&mut slice);
            let map = if kind == "strata" {
                &mut t.strata
            } else {
                &mut t.agents
            };
            map.insert(key.to_string(), slice);
        }
    }
}

/// Query `q` of the asked file as an example (its body's first [`EXAMPLE_BODY_LIMIT`]
/// octets).
pub(super) fn example(asked: &Asked<'_>, q: usize) -> Example {
    let (file, query) = (asked.file, &asked.queries[q]);
    let kept = &file.body[..file.body.len().min(EXAMPLE_BODY_LIMIT)];
    debug_assert!(query.origin == crate::sites::SITE_ORIGIN || ORIGINS.contains(&query.origin));
    Example {
        host: file.host.clone(),
        locator: asked.locator.to_string(),
        query: q as u64,
        agent: query.agent.clone(),
        url: query.url.clone(),
        origin: query.origin.to_string(),
        body: reptest_core::visible_notation::render(kept),
        body_len: file.body.len() as u64,
        body_hex: crate::tally::hex(kept),
    }
}
