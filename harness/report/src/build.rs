//! Building the report model ([`Report::build`]) from a corpus and a run: the cases and
//! queries as they were, every outcome, and the scores computed from them.

use crate::model::{
    Agreement, CaseEntry, CauseEntry, CauseKind, Cell, FailureCauses, ImplEntry, ImplScore,
    LevelTally, Meta, QueryEntry, QuestionAnswer, QuestionEntry, QuestionVerdict, Report,
    RequirementEntry, RequirementScore, SlowCase, UpstreamThread, FORMAT_VERSION, SLOWEST_CASES,
};
use reptest_core::causes::{group_by_cause, CauseShare};
use reptest_core::runner::Run;
use reptest_core::score::{judge, summarize, Judgement, RootCause, Summary, Tally};
use reptest_core::{ImplInfo, Outcome};
use reptest_corpus::{Case, Corpus, Expect, Profile, Query};
use std::collections::BTreeMap;
use std::path::Path;

/// Every query of the corpus with its case, in corpus order (the matrix's rows).
type Rows<'a> = [(&'a Case, &'a Query)];

impl Report {
    /// Builds the report of `run` over `corpus` (loaded from `corpus_dir`);
    /// `infos[i]` describes `run.implementations[i]`. `generated_at` is the date to
    /// record (RFC 3339).
    pub fn build(
        corpus: &Corpus,
        corpus_dir: &Path,
        run: &Run,
        infos: &[ImplInfo],
        generated_at: &str,
    ) -> Report {
        let queries: Vec<_> = corpus.queries().collect();
        let columns = columns(run, &queries);
        let (cases, seeds) = case_entries(corpus, corpus_dir);
        Report {
            format: FORMAT_VERSION,
            meta: Meta {
                reptest_version: env!("CARGO_PKG_VERSION").to_string(),
                corpus_fingerprint: corpus.fingerprint(),
                corpus_version: corpus.version().map(str::to_string),
                cases: corpus.cases().len(),
                queries: queries.len(),
                profiles: Profile::ALL.to_vec(),
                generated_at: generated_at.to_string(),
                seeds,
            },
            implementations: impl_entries(run, infos),
            requirements: requirement_entries(corpus),
            cases,
            outcomes: columns
                .iter()
                .map(|column| column.iter().map(Cell::from).collect())
                .collect(),
            scores: impl_scores(corpus, run, infos, &queries, &columns),
            per_requirement: requirement_scores(corpus, &queries, &columns),
            agreement: agreement(&columns),
            questions: questions(corpus, &queries, &columns),
        }
    }
}

/// Every column in corpus order, each outcome looked up by query id (a query another
/// shard ran is an error outcome saying so).
fn columns(run: &Run, queries: &Rows<'_>) -> Vec<Vec<Outcome>> {
    let lookup = run.lookup();
    (0..run.implementations.len())
        .map(|i| {
            queries
                .iter()
                .map(|(_, q)| {
                    lookup.outcome(i, &q.id).cloned().unwrap_or_else(|| {
                        Outcome::Error("not in this run (another shard's query)".into())
                    })
                })
                .collect()
        })
        .collect()
}

/// The cases in corpus order, their queries numbered in matrix-row order, and the
/// campaign seeds the fuzzing findings name (sorted, each once).
fn case_entries(corpus: &Corpus, corpus_dir: &Path) -> (Vec<CaseEntry>, Vec<u64>) {
    let repo_root = corpus_dir.parent().unwrap_or(corpus_dir);
    let mut seeds = Vec::new();
    let mut index = 0;
    let cases = corpus
        .cases()
        .iter()
        .map(|case| {
            let entries = case
                .queries
                .iter()
                .map(|q| {
                    if let Some(seed) = seed_of(&q.why) {
                        if !seeds.contains(&seed) {
                            seeds.push(seed);
                        }
                    }
                    index += 1;
                    query_entry(q, index - 1)
                })
                .collect();
            case_entry(case, repo_root, entries)
        })
        .collect();
    seeds.sort_unstable();
    (cases, seeds)
}

/// One case: its file relative to the repository (with `/`), its body in visible
/// notation, its fetch in words, and its queries.
fn case_entry(case: &Case, repo_root: &Path, queries: Vec<QueryEntry>) -> CaseEntry {
    let file = case
        .file
        .strip_prefix(repo_root)
        .unwrap_or(&case.file)
        .to_string_lossy()
        .replace('\\', "/");
    CaseEntry {
        id: case.id.clone(),
        title: case.title.clone(),
        file,
        line: case.line,
        dimensions: case
            .dimensions
            .iter()
            .map(|d| d.as_str().to_string())
            .collect(),
        body: reptest_core::visible_notation::render(&case.body),
        fetch: case.fetch.as_ref().map(describe_fetch),
        access: case
            .fetch
            .as_ref()
            .and_then(|fetch| crate::AccessTopic::of(fetch, case.body.len())),
        queries,
    }
}

/// One query, row `index` of the matrix, with its expectation under every profile.
fn query_entry(q: &Query, index: usize) -> QueryEntry {
    QueryEntry {
        id: q.id.clone(),
        index,
        agent: q.agent.clone(),
        url: q.url.clone(),
        level: q.level.as_str().to_string(),
        requirements: q.requirements.clone(),
        expect: Profile::ALL
            .into_iter()
            .map(|p| (p, q.expect_for(p).as_str().to_string()))
            .collect(),
        why: q.why.clone(),
        triage: q.triage.clone(),
        question: q.question.clone(),
        finding: q.is_undecided_finding(),
        line: q.line,
    }
}

/// The implementations in run order: what each is, how long it took, its slowest cases.
fn impl_entries(run: &Run, infos: &[ImplInfo]) -> Vec<ImplEntry> {
    infos
        .iter()
        .zip(&run.elapsed)
        .enumerate()
        .map(|(i, (info, elapsed))| ImplEntry {
            name: info.name.clone(),
            version: info.version.clone(),
            language: info.language.clone(),
            full_urls: info.capabilities.full_urls,
            fetch_outcomes: info.capabilities.fetch_outcomes,
            fetches: info.capabilities.fetches,
            crawler: info.kind == reptest_core::ImplKind::Crawler,
            reports_line: info.capabilities.reports_line,
            seconds: elapsed.as_secs_f64(),
            slowest_cases: run
                .slowest_cases(i, SLOWEST_CASES)
                .into_iter()
                .map(|(case, time)| SlowCase {
                    case: case.to_string(),
                    seconds: time.as_secs_f64(),
                })
                .collect(),
            request_logs: run.evidence.get(i).cloned().unwrap_or_default(),
        })
        .collect()
}

/// The requirement index the corpus cites.
fn requirement_entries(corpus: &Corpus) -> Vec<RequirementEntry> {
    corpus
        .requirements()
        .iter()
        .map(|r| RequirementEntry {
            id: r.id.clone(),
            level: level_name(r.level),
            section: r.section.clone(),
            text: r.text.clone(),
        })
        .collect()
}

/// How each implementation scored, in run order: judged under every profile as
/// `reptest run` judges it.
fn impl_scores(
    corpus: &Corpus,
    run: &Run,
    infos: &[ImplInfo],
    queries: &Rows<'_>,
    columns: &[Vec<Outcome>],
) -> Vec<ImplScore> {
    let reference = run.implementations.iter().position(|n| n == "reference");
    let summaries: Vec<Vec<Summary>> = Profile::ALL
        .into_iter()
        .map(|profile| summarize(corpus, run, profile))
        .collect();
    run.implementations
        .iter()
        .zip(columns)
        .zip(infos)
        .map(|((name, outcomes), info)| {
            // Lines are compared only for an implementation that reports them.
            let reference = reference
                .filter(|_| info.capabilities.reports_line && name != "reference")
                .map(|r| columns[r].as_slice());
            ImplScore {
                name: name.clone(),
                profiles: level_tallies(name, &summaries),
                may_choices: may_choices(queries, outcomes),
                same_verdict_other_line: same_verdict_other_line(queries, outcomes, reference),
                totals: totals(name, &summaries),
                either_verdicts: either_verdicts(queries, outcomes),
                not_passed: not_passed(queries, outcomes),
                causes: failure_causes(corpus, queries, name, &summaries),
            }
        })
        .collect()
}

/// Profile to level (`MUST`, `SHOULD`, `MAY`) to tally, from the summaries of every
/// profile (in [`Profile::ALL`] order).
fn level_tallies(
    name: &str,
    summaries: &[Vec<Summary>],
) -> BTreeMap<Profile, BTreeMap<String, LevelTally>> {
    Profile::ALL
        .into_iter()
        .zip(summaries)
        .map(|(profile, summaries)| {
            let tallies = summaries
                .iter()
                .find(|summary| summary.name == name)
                .map(|summary| {
                    summary
                        .per_level
                        .iter()
                        .map(|(level, t)| (level.as_str().to_string(), LevelTally::from(*t)))
                        .collect()
                })
                .unwrap_or_default();
            (profile, tallies)
        })
        .collect()
}

/// The sum over every level per profile ([`Summary::total`]).
fn totals(name: &str, summaries: &[Vec<Summary>]) -> BTreeMap<Profile, LevelTally> {
    Profile::ALL
        .into_iter()
        .zip(summaries)
        .filter_map(|(profile, summaries)| {
            let summary = summaries.iter().find(|s| s.name == name)?;
            Some((profile, LevelTally::from(summary.total())))
        })
        .collect()
}

/// The queries `profile` lets implementations answer either way, findings awaiting
/// their verdict left out, with their outcomes.
fn either_way<'a>(
    queries: &'a Rows<'_>,
    outcomes: &'a [Outcome],
    profile: Profile,
) -> impl Iterator<Item = (&'a Query, &'a Outcome)> {
    queries
        .iter()
        .zip(outcomes)
        .map(|((_, q), outcome)| (*q, outcome))
        .filter(move |(q, _)| q.expect_for(profile) == Expect::Either && !q.is_undecided_finding())
}

/// The choices made where the RFC lets implementations choose (`either` under
/// `rfc9309`): requirement ID to (allowed, disallowed) counts.
fn may_choices(queries: &Rows<'_>, outcomes: &[Outcome]) -> BTreeMap<String, (usize, usize)> {
    let mut choices: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (q, outcome) in either_way(queries, outcomes, Profile::Rfc9309) {
        if let Some(allowed) = outcome.allowed() {
            for id in &q.requirements {
                let entry = choices.entry(id.clone()).or_default();
                if allowed {
                    entry.0 += 1;
                } else {
                    entry.1 += 1;
                }
            }
        }
    }
    choices
}

/// Profile to the verdicts on the queries it lets implementations answer either way:
/// (allowed, disallowed).
fn either_verdicts(queries: &Rows<'_>, outcomes: &[Outcome]) -> BTreeMap<Profile, (usize, usize)> {
    Profile::ALL
        .into_iter()
        .map(|profile| {
            let mut verdicts = (0, 0);
            for (_, outcome) in either_way(queries, outcomes, profile) {
                match outcome.allowed() {
                    Some(true) => verdicts.0 += 1,
                    Some(false) => verdicts.1 += 1,
                    None => {}
                }
            }
            (profile, verdicts)
        })
        .collect()
}

/// The queries where the reference's verdict came with another deciding line (none
/// without a `reference` column to compare with).
fn same_verdict_other_line(
    queries: &Rows<'_>,
    outcomes: &[Outcome],
    reference: Option<&[Outcome]>,
) -> Vec<String> {
    let Some(reference) = reference else {
        return Vec::new();
    };
    queries
        .iter()
        .zip(outcomes.iter().zip(reference))
        .filter_map(|((_, q), (mine, theirs))| match (mine, theirs) {
            (
                Outcome::Verdict {
                    allowed: a,
                    line: Some(la),
                },
                Outcome::Verdict {
                    allowed: b,
                    line: Some(lb),
                },
            ) if a == b && la != lb => Some(q.id.clone()),
            _ => None,
        })
        .collect()
}

/// Profile to the queries not passed under it (wrong verdict or no verdict), as row
/// indexes in corpus order.
fn not_passed(queries: &Rows<'_>, outcomes: &[Outcome]) -> BTreeMap<Profile, Vec<usize>> {
    Profile::ALL
        .into_iter()
        .map(|profile| {
            let indexes = queries
                .iter()
                .zip(outcomes)
                .enumerate()
                .filter(|(_, ((_, q), outcome))| judge(q.expect_for(profile), outcome).is_failure())
                .map(|(index, _)| index)
                .collect();
            (profile, indexes)
        })
        .collect()
}

/// Profile to the failures of implementation `name` grouped by root cause
/// ([`group_by_cause`], as `reptest run` prints them), from the summaries of every
/// profile (in [`Profile::ALL`] order), with the share that names a question.
fn failure_causes(
    corpus: &Corpus,
    queries: &Rows<'_>,
    name: &str,
    summaries: &[Vec<Summary>],
) -> BTreeMap<Profile, FailureCauses> {
    let index: BTreeMap<&str, usize> = queries
        .iter()
        .enumerate()
        .map(|(i, (_, q))| (q.id.as_str(), i))
        .collect();
    Profile::ALL
        .into_iter()
        .zip(summaries)
        .filter_map(|(profile, summaries)| {
            let summary = summaries.iter().find(|s| s.name == name)?;
            let share = CauseShare::of(&summary.failures);
            let groups = group_by_cause(corpus, &summary.failures)
                .into_iter()
                .map(|group| CauseEntry {
                    kind: match &group.cause {
                        Some(RootCause::Question(_)) => CauseKind::Question,
                        Some(RootCause::Requirement(_)) => CauseKind::Requirement,
                        None => CauseKind::None,
                    },
                    id: group.cause.as_ref().map(|c| c.id().to_string()),
                    text: group.text,
                    count: group.failures.len(),
                    queries: group
                        .failures
                        .iter()
                        .filter_map(|f| index.get(f.id.as_str()).copied())
                        .collect(),
                })
                .collect();
            let causes = FailureCauses {
                non_passing: share.non_passing,
                with_question: share.with_question,
                share: share.share(),
                groups,
            };
            Some((profile, causes))
        })
        .collect()
}

/// The tally of `outcomes` on the rows `indexes`, judged under `rfc9309`.
fn tally_of(queries: &Rows<'_>, outcomes: &[Outcome], indexes: &[usize]) -> Tally {
    let mut tally = Tally::default();
    for &i in indexes {
        tally.add(judge(
            queries[i].1.expect_for(Profile::Rfc9309),
            &outcomes[i],
        ));
    }
    tally
}

/// Per requirement ID, in index order: the decided queries citing it (by any of its
/// names) and each implementation's (passed, judged) on them under `rfc9309`.
fn requirement_scores(
    corpus: &Corpus,
    queries: &Rows<'_>,
    columns: &[Vec<Outcome>],
) -> Vec<RequirementScore> {
    let requirements = corpus.requirements();
    requirements
        .iter()
        .map(|req| {
            let citing: Vec<usize> = queries
                .iter()
                .enumerate()
                .filter(|(_, (_, q))| !q.is_undecided_finding())
                .filter(|(_, (_, q))| {
                    q.requirements.iter().any(|id| {
                        requirements.resolve(id).map(|r| r.id.as_str()) == Some(req.id.as_str())
                    })
                })
                .map(|(i, _)| i)
                .collect();
            let per_impl = columns
                .iter()
                .map(|outcomes| {
                    let tally = tally_of(queries, outcomes, &citing);
                    (tally.pass, tally.judged())
                })
                .collect();
            RequirementScore {
                id: req.id.clone(),
                level: level_name(req.level),
                queries: citing.len(),
                per_impl,
            }
        })
        .collect()
}

/// Pairwise agreement over the queries both implementations gave a verdict for.
fn agreement(columns: &[Vec<Outcome>]) -> Agreement {
    let n = columns.len();
    let mut agreement = Agreement {
        same: vec![vec![0; n]; n],
        both: vec![vec![0; n]; n],
    };
    for a in 0..n {
        for b in 0..n {
            for (x, y) in columns[a].iter().zip(&columns[b]) {
                if let (Some(x), Some(y)) = (x.allowed(), y.allowed()) {
                    agreement.both[a][b] += 1;
                    if x == y {
                        agreement.same[a][b] += 1;
                    }
                }
            }
        }
    }
    agreement
}

/// The campaign seed named in a finding's `why` (`fuzzing campaign `x`, seed 7, ...`).
fn seed_of(why: &str) -> Option<u64> {
    let at = why.find("fuzzing campaign")?;
    let rest = &why[at..];
    let at = rest.find("seed ")?;
    let digits: String = rest[at + 5..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn describe_fetch(fetch: &reptest_corpus::Fetch) -> String {
    let mut parts = Vec::new();
    if let Some(status) = fetch.status {
        parts.push(format!("HTTP {status}"));
    }
    match fetch.fault {
        Some(fault) => parts.push(format!("network error: {fault}")),
        None if fetch.network_error => parts.push("network error".to_string()),
        None => {}
    }
    if fetch.redirects > 0 {
        parts.push(format!("{} redirect(s)", fetch.redirects));
    }
    if fetch.cross_origin {
        parts.push("the last across authorities".to_string());
    }
    if let Some(encoding) = fetch.content_encoding {
        parts.push(format!("Content-Encoding: {encoding}"));
    }
    if let Some(content_type) = &fetch.content_type {
        parts.push(format!("Content-Type: {content_type}"));
    }
    if let Some(cache) = &fetch.cache {
        parts.push(format!(
            "cached copy {} h old: {}",
            cache.age_hours,
            reptest_core::visible_notation::render(&cache.body)
        ));
    }
    parts.join(", ")
}

/// `MUST`, `SHOULD`, `MAY`, or `PROFILE` for widely deployed behaviour outside the RFC.
fn level_name(level: reptest_corpus::RequirementLevel) -> String {
    level.as_str().to_string()
}

/// The question entries: each question's queries judged per implementation under
/// `rfc9309`.
fn questions(corpus: &Corpus, queries: &Rows<'_>, columns: &[Vec<Outcome>]) -> Vec<QuestionEntry> {
    let index_of = |id: &str| queries.iter().position(|(_, q)| q.id == id);
    corpus
        .questions()
        .iter()
        .map(|question| {
            let naming: Vec<usize> = queries
                .iter()
                .enumerate()
                .filter(|(_, (_, q))| q.question.as_deref() == Some(question.id.as_str()))
                .map(|(i, _)| i)
                .collect();
            QuestionEntry {
                id: question.id.clone(),
                question: question.question.clone(),
                rfc: question
                    .rfc
                    .iter()
                    .map(|q| (q.section.clone(), q.text.clone()))
                    .collect(),
                decision: question.decision.clone(),
                permits_both: question.permits_both.clone(),
                level: question.level.as_str().to_string(),
                requirements: question.requirements.clone(),
                examples: question
                    .examples
                    .iter()
                    .filter_map(|id| index_of(id))
                    .collect(),
                per_impl: columns
                    .iter()
                    .map(|outcomes| question_answer(queries, outcomes, &naming))
                    .collect(),
                hits: campaign_hits(queries, &naming),
                queries: naming,
                upstream: question
                    .upstream
                    .iter()
                    .map(|u| UpstreamThread {
                        implementation: u.implementation.clone(),
                        url: u.url.clone(),
                        title: u.title.clone(),
                        kind: u.kind(),
                        status: u.status,
                        fixed_in: u.fixed_in.clone(),
                        checked: u.checked.clone(),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// How an implementation answers a question, judged under `rfc9309` on every query
/// naming it (the rows `naming`): wrong if it failed one, else right if it passed one,
/// else a choice if it answered one where either verdict conforms.
fn question_answer(queries: &Rows<'_>, outcomes: &[Outcome], naming: &[usize]) -> QuestionAnswer {
    let tally = tally_of(queries, outcomes, naming);
    let mut choices = (0, 0);
    for &i in naming {
        match judge(queries[i].1.expect_for(Profile::Rfc9309), &outcomes[i]) {
            Judgement::Choice(Some(true)) => choices.0 += 1,
            Judgement::Choice(Some(false)) => choices.1 += 1,
            _ => {}
        }
    }
    let verdict = if tally.fail > 0 {
        QuestionVerdict::Wrong
    } else if tally.pass > 0 {
        QuestionVerdict::Right
    } else if tally.no_verdict > 0 {
        QuestionVerdict::NoVerdict
    } else if choices.0 + choices.1 > 0 {
        QuestionVerdict::Choice
    } else {
        QuestionVerdict::NotJudged
    };
    QuestionAnswer {
        verdict,
        pass: tally.pass,
        fail: tally.fail,
        no_verdict: tally.no_verdict,
        choices,
    }
}

/// The raw fuzzing hits of the rows `naming`, per campaign (the finding file's stem).
fn campaign_hits(queries: &Rows<'_>, naming: &[usize]) -> BTreeMap<String, u64> {
    let mut hits: BTreeMap<String, u64> = BTreeMap::new();
    for &i in naming {
        let (case, query) = queries[i];
        if let Some(n) = query.hits {
            let campaign = case
                .file
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            *hits.entry(campaign).or_insert(0) += n;
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_core::ImplKind;
    use std::time::Duration;

    /// The report of an implementation that gets every decided query wrong (under
    /// `rfc9309`) and answers `allowed` where either verdict conforms.
    fn contrary() -> (Corpus, Report) {
        let dir = reptest_corpus::default_dir();
        let corpus = Corpus::load(&dir).expect("the corpus loads");
        let outcomes = corpus
            .queries()
            .map(|(_, q)| Outcome::Verdict {
                allowed: q.expect_for(Profile::Rfc9309) != Expect::Allowed,
                line: None,
            })
            .collect();
        let run = Run {
            implementations: vec!["contrary".into()],
            queries: corpus.queries().map(|(_, q)| q.id.clone()).collect(),
            outcomes: vec![outcomes],
            elapsed: vec![Duration::ZERO],
            case_elapsed: vec![Vec::new()],
            evidence: Vec::new(),
        };
        let info = ImplInfo {
            name: "contrary".into(),
            version: "1".into(),
            language: "Rust".into(),
            capabilities: Default::default(),
            kind: ImplKind::InProcess,
        };
        let report = Report::build(&corpus, &dir, &run, &[info], "2026-01-01T00:00:00Z");
        (corpus, report)
    }

    /// The question table counts every query naming the question, not its examples: an
    /// implementation wrong on all of them is wrong on all of them, and its answers where
    /// either verdict conforms are choices.
    #[test]
    fn question_answers_count_every_query_naming_the_question() {
        let (corpus, report) = contrary();
        let mut beyond_examples = false;
        for q in &report.questions {
            let naming: Vec<&Query> = corpus
                .queries()
                .map(|(_, query)| query)
                .filter(|query| query.question.as_deref() == Some(q.id.as_str()))
                .collect();
            let either = naming
                .iter()
                .filter(|query| query.expect_for(Profile::Rfc9309) == Expect::Either)
                .count();
            let answer = q.per_impl[0];
            assert_eq!(answer.fail, naming.len() - either, "{}", q.id);
            assert_eq!((answer.pass, answer.no_verdict), (0, 0), "{}", q.id);
            assert_eq!(answer.choices, (either, 0), "{}", q.id);
            let expected = if answer.fail > 0 {
                QuestionVerdict::Wrong
            } else {
                QuestionVerdict::Choice
            };
            assert_eq!(answer.verdict, expected, "{}", q.id);
            if answer.fail > 0 {
                let words = format!("{0} of {0} wrong", answer.fail);
                assert!(
                    answer.describe().starts_with(&words),
                    "{}",
                    answer.describe()
                );
            }
            beyond_examples |= answer.fail > q.examples.len();
        }
        assert!(
            beyond_examples,
            "some question has more failing queries than examples"
        );
    }

    /// Pass rates count decided queries only; the failures are grouped by cause, every
    /// decided query in exactly one group, with the share that names a question.
    #[test]
    fn scores_and_causes_count_decided_queries_only() {
        let (corpus, report) = contrary();
        let judged: Vec<&Query> = corpus
            .queries()
            .map(|(_, q)| q)
            .filter(|q| !q.is_undecided_finding())
            .collect();
        let either = judged
            .iter()
            .filter(|q| q.expect_for(Profile::Rfc9309) == Expect::Either)
            .count();
        let decided = judged.len() - either;
        let score = &report.scores[0];
        let total = score.totals[&Profile::Rfc9309];
        assert_eq!(
            (total.pass, total.fail, total.choices),
            (0, decided, either)
        );
        let causes = &score.causes[&Profile::Rfc9309];
        assert_eq!(causes.non_passing, decided);
        let with_question = judged
            .iter()
            .filter(|q| q.expect_for(Profile::Rfc9309) != Expect::Either)
            .filter(|q| q.question.is_some())
            .count();
        assert_eq!(causes.with_question, with_question);
        let counts: Vec<usize> = causes.groups.iter().map(|g| g.count).collect();
        assert_eq!(counts.iter().sum::<usize>(), decided);
        let mut every: Vec<usize> = causes
            .groups
            .iter()
            .flat_map(|g| g.queries.clone())
            .collect();
        every.sort_unstable();
        assert_eq!(every, score.not_passed[&Profile::Rfc9309]);
        // Largest first, but the queries without a root cause last.
        let caused: Vec<usize> = causes
            .groups
            .iter()
            .filter(|g| g.kind != CauseKind::None)
            .map(|g| g.count)
            .collect();
        assert!(caused.windows(2).all(|w| w[0] >= w[1]), "{caused:?}");
        let none = causes.groups.iter().position(|g| g.kind == CauseKind::None);
        assert!(none.is_none_or(|i| i == causes.groups.len() - 1));
    }
}
