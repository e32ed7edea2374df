//! The report model (also the JSON report's schema).

use reptest_core::runner::Run;
use reptest_core::score::{judge, summarize, Judgement, Summary, Tally};
use reptest_core::{ImplInfo, Outcome};
use reptest_corpus::{Corpus, Expect, OutcomeWord, Profile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

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
    /// Known upstream reports: (implementation, url, title).
    pub upstream: Vec<(String, String, String)>,
    /// Raw hits per fuzzing campaign (findings file name to hits) of the findings that
    /// name this question.
    pub hits: BTreeMap<String, u64>,
}

/// How one implementation answers a question's queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionAnswer {
    /// `right` (every judged query passed), `wrong` (at least one failed), or
    /// `no-verdict` (none judged: errors, timeouts, unsupported).
    pub verdict: QuestionVerdict,
    /// Queries passed.
    pub pass: usize,
    /// Queries failed.
    pub fail: usize,
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
    /// It cannot express any of the question's queries (each one `unsupported`: a
    /// crawler on a plain body, a parser on a fetch outcome); left out of the tables.
    NotJudged,
}

impl QuestionVerdict {
    /// `right`, `wrong`, `no verdict`.
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionVerdict::Right => "right",
            QuestionVerdict::Wrong => "wrong",
            QuestionVerdict::NoVerdict => "no verdict",
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
    /// Reports the deciding line.
    pub reports_line: bool,
    /// Wall time for the whole corpus, in seconds.
    pub seconds: f64,
    /// The cases it took longest on, slowest first (a timeout's wait included).
    #[serde(default)]
    pub slowest_cases: Vec<SlowCase>,
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
    /// The body in visible-character notation ([`reptest_core::visible::render`]).
    pub body: String,
    /// The fetch outcome it describes, if any (RFC 9309 §2.3.1), in words.
    pub fetch: Option<String>,
    /// Its queries.
    pub queries: Vec<QueryEntry>,
}

/// One query of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryEntry {
    /// The query id (`case/N`).
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

/// Judgement counts at one level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct LevelTally {
    /// Passed.
    pub pass: usize,
    /// Failed.
    pub fail: usize,
    /// Unsupported (not judged).
    pub unsupported: usize,
    /// Error, timeout or crash.
    pub no_verdict: usize,
    /// Pass rate in percent over the judged queries (100 when none).
    pub pass_rate: f64,
}

impl From<Tally> for LevelTally {
    fn from(t: Tally) -> LevelTally {
        LevelTally {
            pass: t.pass,
            fail: t.fail,
            unsupported: t.unsupported,
            no_verdict: t.no_verdict,
            pass_rate: t.pass_rate(),
        }
    }
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
    /// `either` under `rfc9309`): requirement ID to (allowed, disallowed) counts.
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
    /// Profile to the queries not passed under it (wrong verdict or no verdict), as
    /// [`QueryEntry::index`]es in corpus order.
    #[serde(default)]
    pub not_passed: BTreeMap<Profile, Vec<usize>>,
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
        // Every column in corpus order, each outcome looked up by query id.
        let lookup = run.lookup();
        let columns: Vec<Vec<Outcome>> = (0..run.implementations.len())
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
            .collect();
        let repo_root = corpus_dir.parent().unwrap_or(corpus_dir);
        let mut seeds = Vec::new();
        let mut index = 0;
        let cases = corpus
            .cases()
            .iter()
            .map(|case| {
                let file = case
                    .file
                    .strip_prefix(repo_root)
                    .unwrap_or(&case.file)
                    .to_string_lossy()
                    .replace('\\', "/");
                let entries = case
                    .queries
                    .iter()
                    .map(|q| {
                        if let Some(seed) = seed_of(&q.why) {
                            if !seeds.contains(&seed) {
                                seeds.push(seed);
                            }
                        }
                        let entry = QueryEntry {
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
                        };
                        index += 1;
                        entry
                    })
                    .collect();
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
                    body: reptest_core::visible::render(&case.body),
                    fetch: case.fetch.as_ref().map(describe_fetch),
                    queries: entries,
                }
            })
            .collect();
        seeds.sort_unstable();
        let implementations = infos
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
            })
            .collect::<Vec<_>>();
        let reference = run.implementations.iter().position(|n| n == "reference");
        // Every implementation judged under every profile, as `reptest run` judges it.
        let summaries: Vec<Vec<Summary>> = Profile::ALL
            .into_iter()
            .map(|profile| summarize(corpus, run, profile))
            .collect();
        let scores = run
            .implementations
            .iter()
            .zip(&columns)
            .zip(infos)
            .map(|((name, outcomes), info)| {
                let profiles: BTreeMap<Profile, BTreeMap<String, LevelTally>> = Profile::ALL
                    .into_iter()
                    .zip(&summaries)
                    .map(|(profile, summaries)| {
                        let tallies = summaries
                            .iter()
                            .find(|summary| summary.name == *name)
                            .map(|summary| {
                                summary
                                    .per_level
                                    .iter()
                                    .map(|(level, t)| {
                                        (level.as_str().to_string(), LevelTally::from(*t))
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        (profile, tallies)
                    })
                    .collect();
                let mut may_choices: BTreeMap<String, (usize, usize)> = BTreeMap::new();
                for ((_, q), outcome) in queries.iter().zip(outcomes) {
                    if q.expect_for(Profile::Rfc9309) != Expect::Either || q.is_undecided_finding()
                    {
                        continue;
                    }
                    if let Some(allowed) = outcome.allowed() {
                        for id in &q.requirements {
                            let entry = may_choices.entry(id.clone()).or_default();
                            if allowed {
                                entry.0 += 1;
                            } else {
                                entry.1 += 1;
                            }
                        }
                    }
                }
                let same_verdict_other_line = match reference {
                    Some(r) if info.capabilities.reports_line && name != "reference" => queries
                        .iter()
                        .zip(outcomes.iter().zip(&columns[r]))
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
                        .collect(),
                    _ => Vec::new(),
                };
                // The sum over every level: score::Summary::total, per profile.
                let totals = Profile::ALL
                    .into_iter()
                    .zip(&summaries)
                    .filter_map(|(profile, summaries)| {
                        let summary = summaries.iter().find(|s| s.name == *name)?;
                        Some((profile, LevelTally::from(summary.total())))
                    })
                    .collect();
                let either_verdicts = Profile::ALL
                    .into_iter()
                    .map(|profile| {
                        let mut verdicts = (0, 0);
                        for ((_, q), outcome) in queries.iter().zip(outcomes) {
                            if q.expect_for(profile) != Expect::Either || q.is_undecided_finding() {
                                continue;
                            }
                            match outcome.allowed() {
                                Some(true) => verdicts.0 += 1,
                                Some(false) => verdicts.1 += 1,
                                None => {}
                            }
                        }
                        (profile, verdicts)
                    })
                    .collect();
                let not_passed = Profile::ALL
                    .into_iter()
                    .map(|profile| {
                        let indexes = queries
                            .iter()
                            .zip(outcomes)
                            .enumerate()
                            .filter(|(_, ((_, q), outcome))| {
                                matches!(
                                    judge(q.expect_for(profile), outcome),
                                    Judgement::Fail | Judgement::NoVerdict
                                )
                            })
                            .map(|(index, _)| index)
                            .collect();
                        (profile, indexes)
                    })
                    .collect();
                ImplScore {
                    name: name.clone(),
                    profiles,
                    may_choices,
                    same_verdict_other_line,
                    totals,
                    either_verdicts,
                    not_passed,
                }
            })
            .collect();
        let per_requirement = corpus
            .requirements()
            .iter()
            .map(|req| {
                let citing: Vec<usize> = queries
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, q))| !q.is_undecided_finding())
                    .filter(|(_, (_, q))| {
                        q.requirements.iter().any(|id| {
                            corpus.requirements().resolve(id).map(|r| r.id.as_str())
                                == Some(req.id.as_str())
                        })
                    })
                    .map(|(i, _)| i)
                    .collect();
                let per_impl = columns
                    .iter()
                    .map(|outcomes| {
                        let mut tally = Tally::default();
                        for &i in &citing {
                            tally.add(judge(
                                queries[i].1.expect_for(Profile::Rfc9309),
                                &outcomes[i],
                            ));
                        }
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
            .collect();
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
            implementations,
            requirements: corpus
                .requirements()
                .iter()
                .map(|r| RequirementEntry {
                    id: r.id.clone(),
                    level: level_name(r.level),
                    section: r.section.clone(),
                    text: r.text.clone(),
                })
                .collect(),
            cases,
            outcomes: columns
                .iter()
                .map(|column| column.iter().map(Cell::from).collect())
                .collect(),
            scores,
            per_requirement,
            agreement,
            questions: questions(corpus, &queries, &columns),
        }
    }

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
            reptest_core::visible::render(&cache.body)
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
fn questions(
    corpus: &Corpus,
    queries: &[(&reptest_corpus::Case, &reptest_corpus::Query)],
    columns: &[Vec<Outcome>],
) -> Vec<QuestionEntry> {
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
            let per_impl = columns
                .iter()
                .map(|outcomes| {
                    let mut tally = Tally::default();
                    for &i in &naming {
                        tally.add(judge(
                            queries[i].1.expect_for(Profile::Rfc9309),
                            &outcomes[i],
                        ));
                    }
                    let verdict = if tally.fail > 0 {
                        QuestionVerdict::Wrong
                    } else if tally.pass > 0 {
                        QuestionVerdict::Right
                    } else if tally.no_verdict > 0 {
                        QuestionVerdict::NoVerdict
                    } else {
                        QuestionVerdict::NotJudged
                    };
                    QuestionAnswer {
                        verdict,
                        pass: tally.pass,
                        fail: tally.fail,
                    }
                })
                .collect();
            let mut hits: BTreeMap<String, u64> = BTreeMap::new();
            for &i in &naming {
                let (case, query) = queries[i];
                if let Some(n) = query.hits {
                    let campaign = case
                        .file
                        .file_stem()
                        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                    *hits.entry(campaign).or_insert(0) += n;
                }
            }
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
                queries: naming,
                per_impl,
                upstream: question
                    .upstream
                    .iter()
                    .map(|u| (u.implementation.clone(), u.url.clone(), u.title.clone()))
                    .collect(),
                hits,
            }
        })
        .collect()
}
