//! A survey's outputs: `survey.json` ([`json`]), `README.md` ([`markdown`]) and
//! `survey.html` ([`html`]), all deterministic (no time stamps, no paths), so the same
//! survey ([`reptest_survey::engine::Survey`]), whole or merged from shards, gives the
//! same octets; and what `reptest survey` says on standard error when it is done
//! ([`summary`]).
//! Counts, shares and escaping are [`crate::pieces`]'.

pub mod html;
pub mod json;
pub mod markdown;
pub mod provenance;
pub mod summary;

use crate::pieces::numbers::{count, percent, share};
use reptest_survey::engine::Survey;
use reptest_survey::tally::Missing;

/// What "decided" means in every output.
pub const DECIDED_MEANS: &str = "The decided verdict of a query is the reference's verdict: RFC 9309 as reptest's corpus decides it (the reference passes every decided corpus query). An implementation's disagreement with it is a departure from that reading of the RFC, not necessarily a bug: some questions leave both answers open.";

/// What the agreement figure means in every output.
pub const AGREEMENT_MEANS: &str = "The share of queries, among those at least two implementations answered with a verdict, on which every implementation that answered gave the same verdict.";

/// The headline, as plain text: the agreement share, then what it is of.
pub(crate) fn headline(survey: &Survey) -> (String, String) {
    let a = &survey.tally.agreement;
    (
        percent(a.unanimous, a.compared),
        format!(
            "of {} queries compared: on that share, every implementation that answered gave the same verdict ({} unanimous, {} split).",
            count(a.compared),
            count(a.unanimous),
            count(a.split)
        ),
    )
}

/// The survey's settings and size, one sentence of plain text (both pages' header).
pub(crate) fn settings(survey: &Survey) -> String {
    let header = &survey.header;
    let tally = &survey.tally;
    let limit = header.limit.map_or(String::new(), |l| {
        format!(", at most {} files read", count(l))
    });
    format!(
        "Seed {}, {} queries per file{limit}; {} file(s) read, {} surveyed, {} queries; {} implementation(s); decided by {} {}.",
        header.seed,
        header.queries_per_file,
        count(tally.files.read),
        count(tally.files.surveyed),
        count(tally.queries),
        header.implementations.len(),
        header.decided_by.name,
        header.decided_by.version
    )
}

/// One row of the table against the decided verdict, as text (both pages).
pub(crate) struct DecidedRow<'a> {
    pub(crate) name: &'a str,
    pub(crate) version: &'a str,
    pub(crate) asked: String,
    pub(crate) verdicts: String,
    /// Missing answers in all.
    pub(crate) missing: String,
    /// Missing answers by kind ([`missing_by_kind`]).
    pub(crate) by_kind: String,
    /// The share of its verdicts that differ from the decided ones, for the heatmap.
    pub(crate) share: f64,
    /// That share as a percentage, then the count.
    pub(crate) queries: (String, String),
    /// The share of files with a difference, then the count.
    pub(crate) files: (String, String),
}

/// The rows of the table against the decided verdict, in the survey's order.
pub(crate) fn decided_rows(survey: &Survey) -> Vec<DecidedRow<'_>> {
    survey
        .header
        .implementations
        .iter()
        .zip(&survey.tally.implementations)
        .map(|(entry, t)| {
            let d = &t.decided;
            DecidedRow {
                name: &entry.name,
                version: &entry.version,
                asked: count(t.asked),
                verdicts: count(t.verdicts),
                missing: count(t.missing.total()),
                by_kind: missing_by_kind(&t.missing),
                share: share(d.queries_disagree, d.queries),
                queries: (
                    percent(d.queries_disagree, d.queries),
                    count(d.queries_disagree),
                ),
                files: (percent(d.files_disagree, d.files), count(d.files_disagree)),
            }
        })
        .collect()
}

/// The kinds of missing answers, in the order of [`missing_by_kind`].
pub(crate) const MISSING_KINDS: &str = "error / timeout / crash / unsupported / skipped";

/// The missing answers of one implementation by kind, as [`MISSING_KINDS`] orders them.
pub(crate) fn missing_by_kind(m: &Missing) -> String {
    [m.error, m.timeout, m.crash, m.unsupported, m.skipped]
        .map(count)
        .join(" / ")
}

/// What the circuit breaker did, as plain text: its settings, and for every
/// implementation it tripped for, how many files tripped it, whether it opened and how
/// many files were then skipped.
pub(crate) fn breaker(survey: &Survey) -> String {
    let limits = &survey.header.breaker;
    let mut text = format!(
        "Circuit breaker: a file trips it for an implementation with a timeout among its answers or more than {} s spent on it; {}.",
        limits.file_budget.as_secs_f64(),
        match limits.trip_after {
            0 => "it never opens (--trip-after 0)".to_string(),
            k => format!(
                "after {k} tripped files in a row it opens and the implementation is skipped for the rest of the run (or shard), its answers missing as `skipped`"
            ),
        }
    );
    let tripped: Vec<String> = survey
        .header
        .implementations
        .iter()
        .zip(&survey.tally.implementations)
        .filter(|(_, t)| t.breaker.files_tripped > 0 || t.breaker.files_skipped > 0)
        .map(|(entry, t)| {
            let b = &t.breaker;
            let opened = match b.opened {
                0 => String::new(),
                1 => format!(", opened, {} files skipped", count(b.files_skipped)),
                n => format!(
                    ", opened in {n} shards, {} files skipped",
                    count(b.files_skipped)
                ),
            };
            format!("{} {} tripped{opened}", entry.name, count(b.files_tripped))
        })
        .collect();
    if tripped.is_empty() {
        text.push_str(" No file tripped it.");
    } else {
        text.push_str(&format!(
            " Files that tripped it: {}. Once it trips, the results depend on timing.",
            tripped.join("; ")
        ));
    }
    text
}
