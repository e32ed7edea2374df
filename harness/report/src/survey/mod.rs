//! A survey's outputs: `survey.json` ([`json`]), `README.md` ([`markdown`]),
//! `survey.html` ([`html`]), every table of the pages as CSV ([`tables`], in `csv/`) and
//! the figures as SVG ([`figures`], in `figures/`), all deterministic (no time stamps, no
//! paths), so the same survey ([`reptest_survey::engine::Survey`]), whole or merged from
//! shards, gives the same octets ([`files`] lists them); and what `reptest survey` says
//! on standard error when it is done ([`summary`]).
//! Counts, shares, escaping, tables and SVG are [`crate::pieces`]'.

pub mod figures;
pub mod html;
pub mod json;
pub mod markdown;
pub mod provenance;
pub mod records;
pub mod research;
mod research_markdown;
pub mod research_tables;
pub mod summary;
pub mod tables;

use std::path::PathBuf;

use crate::pieces::numbers::{count, percent};
use crate::pieces::table::CSV_DIR;
use reptest_survey::engine::Survey;

/// The folders [`files`] writes into, inside the output folder.
pub const FOLDERS: [&str; 2] = [CSV_DIR, figures::FIGURES_DIR];

/// Every file of a survey's output folder, as a path relative to it with its contents:
/// `survey.json`, `README.md`, `survey.html`, then `csv/NAME.csv` for every table
/// ([`tables::all`]), then `figures/NAME.svg` for every figure the survey has
/// ([`figures::Figure::render`]). The folders are [`FOLDERS`].
pub fn files(survey: &Survey) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![
        ("survey.json".into(), json::render(survey).into_bytes()),
        ("README.md".into(), markdown::render(survey).into_bytes()),
        ("survey.html".into(), html::render(survey).into_bytes()),
    ];
    for table in tables::all(survey) {
        files.push((table.csv_path().into(), table.csv().into_bytes()));
    }
    for figure in figures::Figure::ALL {
        if let Some(svg) = figure.render(survey) {
            files.push((figure.path().into(), svg.into_bytes()));
        }
    }
    files
}

/// What "decided" means in every output.
pub const DECIDED_MEANS: &str = "The decided verdict of a query is the reference's verdict: RFC 9309 as reptest's corpus decides it (the reference passes every decided corpus query). An implementation's disagreement with it is a departure from that reading of the RFC, not necessarily a bug: some questions leave both answers open.";

/// What the agreement figure means in every output.
pub const AGREEMENT_MEANS: &str = "The share of queries, among those at least two implementations answered with a verdict, on which every implementation that answered gave the same verdict.";

/// The headline, as plain text: the agreement share, then what it is of. With strata,
/// the natural queries' share leads (URLs a crawler meets), then all queries', probes
/// included.
pub(crate) fn headline(survey: &Survey) -> (String, String) {
    let a = &survey.tally.agreement;
    let all = format!(
        "{} queries compared ({} unanimous, {} split)",
        count(a.compared),
        count(a.unanimous),
        count(a.split)
    );
    let Some(natural) = survey.tally.strata.get("natural") else {
        return (
            percent(a.unanimous, a.compared),
            format!("of {all}: on that share, every implementation that answered gave the same verdict."),
        );
    };
    let n = &natural.agreement;
    (
        percent(n.unanimous, n.compared),
        format!(
            "of {} natural queries compared (URLs a crawler meets): on that share, every implementation that answered gave the same verdict ({} unanimous, {} split). Over all {all}, probes included (URLs made to provoke a divergence), the share is {}.",
            count(n.compared),
            count(n.unanimous),
            count(n.split),
            percent(a.unanimous, a.compared)
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

/// The kinds of missing answers, in the order of the table against the decided verdict.
pub(crate) const MISSING_KINDS: &str = "error / timeout / crash / unsupported / skipped";

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
