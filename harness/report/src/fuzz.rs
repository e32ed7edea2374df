//! The human summary of `reptest fuzz` and the JSON form of a campaign ([`Json`]): what
//! ran, how fast, how the signatures attribute to the catalogue's questions, and the top
//! signatures with their minimized examples. The command line runs the campaign and
//! prints what this renders.

use reptest_corpus::write::{segments, Segment};
use reptest_fuzz_diff::campaign::CampaignReport;
use reptest_triage::minimize::Stop;
use std::fmt::Write as _;

/// The summary of `report`: the top `top` signatures; `sample` is the campaign's
/// `--external-sample`, `budget` its time budget in seconds (none with `--inputs`).
pub fn summary(report: &CampaignReport, top: usize, sample: u64, budget: Option<f64>) -> String {
    let mut out = String::new();
    header(&mut out, report, sample, budget);
    minimization(&mut out, report);
    attribution(&mut out, report);
    signatures(&mut out, report, top);
    out
}

/// Seed, counts and speed; who answered; the time against the budget.
fn header(out: &mut String, report: &CampaignReport, sample: u64, budget: Option<f64>) {
    let _ = writeln!(
        out,
        "reptest fuzz: seed {}, {} inputs, {} queries, {} execs in {:.1} s ({:.0} execs/s; minimizing {:.1} s)",
        report.seed,
        report.inputs,
        report.queries,
        report.execs,
        report.seconds,
        report.execs_per_second(),
        report.minimize_seconds
    );
    let _ = writeln!(
        out,
        "evaluating: {:.0} execs/s per thread on {} threads (minimization excluded)",
        report.execs_per_second_per_thread(),
        report.threads
    );
    let _ = writeln!(out, "in process: {}", report.in_process.join(", "));
    if !report.external.is_empty() {
        let sampled = match sample {
            0 => "only on the queries already divergent in process".to_string(),
            1 => "on every input".to_string(),
            k => {
                format!("on the queries divergent in process and on every query of 1 input in {k}")
            }
        };
        let _ = writeln!(
            out,
            "external, consulted {sampled} (change with --external-sample K): {}",
            report.external.join(", ")
        );
    }
    if let Some(budget) = budget {
        let over = report.seconds - budget;
        let tail = if over > 0.5 {
            format!(
                "; {over:.1} s over it by what was in flight at the deadline (an input's or a candidate's evaluation, at most an adapter's timeout)"
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "time: {:.1} s of a {budget:.0}-s budget that includes minimization{tail}",
            report.seconds
        );
    }
}

/// The examples time cut short, and the dissents never grouped.
fn minimization(out: &mut String, report: &CampaignReport) {
    let cut = report
        .signatures
        .iter()
        .filter(|f| f.minimize_stop == Stop::Deadline)
        .count();
    if cut > 0 {
        let _ = writeln!(
            out,
            "{cut} example(s) only partly minimized when time ran out (marked ~ below; more --seconds, or --inputs N, minimizes them fully)"
        );
    }
    if report.unminimized > 0 {
        let _ = writeln!(
            out,
            "{} dissent(s) not grouped: time ran out before they were minimized (more --seconds, or --inputs N)",
            report.unminimized
        );
    }
}

/// The share of raw hits the known questions take, and each question's signatures.
fn attribution(out: &mut String, report: &CampaignReport) {
    if report.questions_known > 0 && !report.signatures.is_empty() {
        let new = report
            .signatures
            .iter()
            .filter(|f| f.question.is_none())
            .count();
        let _ = writeln!(
            out,
            "\nattribution: {:.1} % of raw hits to the {} known questions; {new} new signature(s) to look at",
            100.0 * report.attributed_share(),
            report.questions_known
        );
        for tally in report.per_question.iter().filter(|t| t.signatures > 0) {
            let _ = writeln!(
                out,
                "  {:<28} {:>4} signature(s) {:>8} hits",
                tally.question, tally.signatures, tally.hits
            );
        }
    }
}

/// The signatures per dimension, then the top ones with their minimized examples.
fn signatures(out: &mut String, report: &CampaignReport, top: usize) {
    let _ = writeln!(
        out,
        "\n{} signature(s); per dimension:",
        report.signatures.len()
    );
    for (dimension, n) in report.per_dimension() {
        let _ = writeln!(out, "  {dimension:<17} {n}");
    }
    if report.signatures.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\ntop signatures (raw hits, question or NEW, signature, minimized example):"
    );
    for found in report.signatures.iter().take(top) {
        let mark = if found.minimize_stop == Stop::Deadline {
            '~'
        } else {
            ' '
        };
        let _ = writeln!(
            out,
            "{mark} {:>7}  {}  {}",
            found.hits,
            found.question.as_deref().unwrap_or("NEW"),
            found.signature
        );
        let _ = writeln!(
            out,
            "           {} | {} {}",
            shorten(&compact(&found.minimized.body)),
            found.minimized.agent,
            found.minimized.url
        );
    }
    if report.signatures.len() > top {
        let _ = writeln!(
            out,
            "  ... and {} more (--top N, --json)",
            report.signatures.len() - top
        );
    }
}

/// A body in visible notation on one line, runs written once with their count
/// (`⟪#p…⟫×512`, `p×1000`), so a padded input reads in a few dozen characters.
fn compact(body: &[u8]) -> String {
    let visible = |bytes: &[u8]| reptest_core::visible_notation::render(bytes).replace("↵\n", "↵");
    segments(body)
        .into_iter()
        .map(|segment| match segment {
            Segment::Text(text) => visible(text),
            Segment::Repeat(unit, n) if unit.len() == 1 => format!("{}×{n}", visible(unit)),
            Segment::Repeat(unit, n) => format!("⟪{}⟫×{n}", compact(unit)),
        })
        .collect()
}

/// At most 160 characters of a rendered body, with how many were left out.
fn shorten(rendered: &str) -> String {
    const KEEP: usize = 160;
    let count = rendered.chars().count();
    if count <= KEEP {
        return rendered.to_string();
    }
    let head: String = rendered.chars().take(KEEP).collect();
    format!("{head}… ({} more characters)", count - KEEP)
}

/// The JSON form of a campaign: the report (each signature with its `question`, an id or
/// null when new, and its raw `hits`; `per_question`) plus its signature count per
/// dimension and the share of raw hits attributed to known questions.
#[derive(serde::Serialize)]
pub struct Json<'a> {
    /// The campaign.
    #[serde(flatten)]
    pub report: &'a CampaignReport,
    /// Dimension name (and `none`) to the number of signatures carrying it.
    pub per_dimension: std::collections::BTreeMap<String, usize>,
    /// Raw hits of signatures attributed to known questions over all raw hits, in [0, 1].
    pub attributed_share: f64,
}

impl<'a> Json<'a> {
    /// The JSON form of `report`.
    pub fn of(report: &'a CampaignReport) -> Json<'a> {
        Json {
            report,
            per_dimension: report.per_dimension().into_iter().collect(),
            attributed_share: report.attributed_share(),
        }
    }
}
