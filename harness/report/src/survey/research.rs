//! The survey's research views, shared by `survey.json` and the pages: queries per
//! stratum and per agent class, site-level classes per crawler and implementation, the
//! AI-crawler headline, and the 95 % intervals ([`reptest_survey::bootstrap`]).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::pieces::numbers::share;
use reptest_survey::bootstrap::{Interval, GROUPS, REPLICATES};
use reptest_survey::engine::Survey;
use reptest_survey::sites::{is_ai, SiteClass, RULES_PER_CRAWLER, SITE_CRAWLERS};
use reptest_survey::tally::{Agreement, Decided, SiteExample, Slice};

/// What a stratum is, for every output.
pub const STRATA_MEANS: &str = "Natural queries are URLs a crawler meets: the paths a file's rules name, their children and extensions, wildcards filled in, a `$` pattern's exact end, and common paths. Probes are URLs made to provoke a divergence (one letter percent-encoded, an escape in the other hex case or decoded, raw UTF-8, a `$` read literally or passed by one octet): they show where parsers part ways on RFC 9309 §2.2.2 and §2.2.3, not how often that happens on the URLs crawlers meet.";

/// What a site-level class is, for every output.
pub fn sites_means() -> String {
    format!(
        "For each crawler, a file is fully restricted when `/` is disallowed, partially restricted when `/` is allowed but a path one of its `Disallow` rules names is disallowed (the rules of groups naming the crawler, then of `*`, at most {RULES_PER_CRAWLER} paths), and unrestricted otherwise, under each implementation's own answers. The decided class is the reference's; it is open when a query it rests on splits on a question the corpus leaves open (an RFC sentence permits both verdicts)."
    )
}

/// How the intervals are made, for every output.
pub fn intervals_means(seed: u64) -> String {
    format!(
        "95 % intervals: files are hashed (seed {seed}) into {GROUPS} random groups and the groups resampled with replacement, {REPLICATES} replicates; an interval is the 2.5th to 97.5th percentile of the replicates' shares."
    )
}

/// A share with its interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Shared {
    /// The count.
    pub count: u64,
    /// Of this many.
    pub of: u64,
    /// `count / of` (0 when `of` is 0).
    pub share: f64,
    /// Its 95 % interval, when files counted towards it.
    pub interval: Option<Interval>,
}

impl Shared {
    fn of(survey: &Survey, key: &str, count: u64, of: u64) -> Shared {
        Shared {
            count,
            of,
            share: share(count, of),
            interval: survey.tally.bootstrap.interval(key, survey.header.seed),
        }
    }
}

/// One slice's queries (a stratum or an agent class).
#[derive(Serialize)]
pub struct SliceView<'a> {
    /// Queries asked.
    pub queries: u64,
    /// The agreement counts.
    pub agreement: &'a Agreement,
    /// Unanimous among compared, with its interval (strata only).
    pub unanimous: Shared,
    /// Per implementation.
    pub implementations: Vec<SliceImpl<'a>>,
    /// Pairwise query disagreement shares, indexed like `implementations`.
    pub pairwise_query_share: Vec<Vec<f64>>,
    /// Split queries per question.
    pub per_question: &'a BTreeMap<String, reptest_survey::tally::QuestionTally>,
}

/// One implementation in a slice.
#[derive(Serialize)]
pub struct SliceImpl<'a> {
    /// Its name.
    pub name: &'a str,
    /// Against the decided verdict.
    pub decided: &'a Decided,
    /// Disagreeing queries among decided ones.
    pub queries_disagree: Shared,
    /// Files with a disagreeing query.
    pub files_disagree: Shared,
}

/// The slices of `map` (strata or agent classes) in `order`, those present.
pub fn slices<'a>(
    survey: &'a Survey,
    map: &'a BTreeMap<String, Slice>,
    order: &[&str],
    keyed: bool,
) -> BTreeMap<String, SliceView<'a>> {
    order
        .iter()
        .filter_map(|key| Some((key.to_string(), slice(survey, map.get(*key)?, key, keyed))))
        .collect()
}

fn slice<'a>(survey: &'a Survey, s: &'a Slice, key: &str, keyed: bool) -> SliceView<'a> {
    // Intervals exist for the strata (`keyed`), not for the agent classes.
    let at = |k: String| if keyed { k } else { String::new() };
    SliceView {
        queries: s.queries,
        agreement: &s.agreement,
        unanimous: Shared::of(
            survey,
            &at(format!("{key}/unanimous")),
            s.agreement.unanimous,
            s.agreement.compared,
        ),
        implementations: survey
            .header
            .implementations
            .iter()
            .zip(&s.decided)
            .map(|(entry, d)| SliceImpl {
                name: &entry.name,
                decided: d,
                queries_disagree: Shared::of(
                    survey,
                    &at(format!("{key}/queries/{}", entry.name)),
                    d.queries_disagree,
                    d.queries,
                ),
                files_disagree: Shared::of(
                    survey,
                    &at(format!("{key}/files/{}", entry.name)),
                    d.files_disagree,
                    d.files,
                ),
            })
            .collect(),
        pairwise_query_share: s
            .pairwise
            .iter()
            .map(|row| {
                row.iter()
                    .map(|p| share(p.queries_disagree, p.queries))
                    .collect()
            })
            .collect(),
        per_question: &s.per_question,
    }
}

/// Site-level classes.
#[derive(Serialize)]
pub struct SitesView<'a> {
    /// What the classes are.
    pub means: String,
    /// Per crawler, in [`SITE_CRAWLERS`]' order.
    pub crawlers: Vec<CrawlerView<'a>>,
    /// Per implementation: files on which it classes some AI crawler otherwise than
    /// decided.
    pub ai_headline: Vec<HeadlineView<'a>>,
}

/// One crawler's classes.
#[derive(Serialize)]
pub struct CrawlerView<'a> {
    /// The product token.
    pub crawler: &'static str,
    /// `ai` or `search`.
    pub class: &'static str,
    /// Files classed.
    pub files: u64,
    /// Files whose decided class is open.
    pub open: u64,
    /// Files on which the implementations' verdicts on `/` split.
    pub root_split: u64,
    /// Files the implementations class differently.
    pub disagree: Shared,
    /// Of those, files whose decided class is open.
    pub disagree_open: u64,
    /// Per implementation.
    pub implementations: Vec<SiteImplView<'a>>,
}

/// One implementation's classes for one crawler.
#[derive(Serialize)]
pub struct SiteImplView<'a> {
    /// Its name.
    pub name: &'a str,
    /// Files per class: `full`, `partial`, `none`.
    pub classes: BTreeMap<&'static str, u64>,
    /// Files it gave no class.
    pub missing: u64,
    /// `confusion[decided][its]` over decided files, keyed by class.
    pub confusion: BTreeMap<&'static str, BTreeMap<&'static str, u64>>,
    /// Decided files it classes otherwise.
    pub differ: Shared,
    /// Open files it classes otherwise than the reference.
    pub differ_open: u64,
}

/// One implementation against the decided AI-crawler classes.
#[derive(Serialize)]
pub struct HeadlineView<'a> {
    /// Its name.
    pub name: &'a str,
    /// Files on which it classes at least one AI crawler otherwise.
    pub changed: Shared,
    /// Files on which it classes an AI crawler otherwise where the class is open.
    pub changed_open: u64,
    /// The first such file, with the query where its verdict differs.
    pub example: Option<&'a SiteExample>,
}

/// The site-level view of `survey`.
pub fn sites(survey: &Survey) -> SitesView<'_> {
    let names: Vec<&str> = survey.header.names();
    let crawlers = SITE_CRAWLERS
        .iter()
        .filter_map(|crawler| {
            let c = survey.tally.sites.crawlers.get(*crawler)?;
            Some(CrawlerView {
                crawler,
                class: if is_ai(crawler) { "ai" } else { "search" },
                files: c.files,
                open: c.open,
                root_split: c.root_split,
                disagree: Shared::of(
                    survey,
                    &format!("sites/{crawler}/disagree"),
                    c.disagree,
                    c.files,
                ),
                disagree_open: c.disagree_open,
                implementations: names
                    .iter()
                    .zip(&c.implementations)
                    .map(|(name, m)| {
                        let compared = m.confusion.iter().flatten().sum();
                        SiteImplView {
                            name,
                            classes: SiteClass::ALL
                                .iter()
                                .map(|k| (k.key(), m.classes[k.index()]))
                                .collect(),
                            missing: m.missing,
                            confusion: SiteClass::ALL
                                .iter()
                                .map(|d| {
                                    let row = SiteClass::ALL
                                        .iter()
                                        .map(|k| (k.key(), m.confusion[d.index()][k.index()]))
                                        .collect();
                                    (d.key(), row)
                                })
                                .collect(),
                            differ: Shared::of(
                                survey,
                                &format!("sites/{crawler}/{name}"),
                                m.differ,
                                compared,
                            ),
                            differ_open: m.differ_open,
                        }
                    })
                    .collect(),
            })
        })
        .collect();
    let ai_headline = names
        .iter()
        .zip(&survey.tally.sites.ai)
        .map(|(name, h)| HeadlineView {
            name,
            changed: Shared::of(survey, &format!("sites/ai/{name}"), h.changed, h.compared),
            changed_open: h.changed_open,
            example: h.example.as_ref(),
        })
        .collect();
    SitesView {
        means: sites_means(),
        crawlers,
        ai_headline,
    }
}

/// Every share's interval, by its key.
pub fn intervals(survey: &Survey) -> BTreeMap<&str, Interval> {
    let seed = survey.header.seed;
    survey
        .tally
        .bootstrap
        .sums
        .keys()
        .filter_map(|key| Some((key.as_str(), survey.tally.bootstrap.interval(key, seed)?)))
        .collect()
}
