//! The "Provenance" section of `README.md` and `survey.html`: what the results come
//! from, one row each. The input, the settings and the implementations come from the
//! survey's header; reptest's build, the corpus, the question catalogue and the runtimes
//! from its [`Provenance`](reptest_survey::provenance::Provenance). Those four rows
//! ([`MACHINE_ROWS`]) depend on the machine or the commit: the committed snapshot of the
//! page shows their values redacted (`harness/cli/tests/integration/survey_protego.rs`).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::pieces::html::escape as esc;
use crate::pieces::markdown::plain_cell as cell;
use crate::pieces::numbers::count;
use reptest_survey::engine::Survey;

/// The rows whose values depend on the machine or the commit, by their label.
pub const MACHINE_ROWS: [&str; 4] = ["reptest", "corpus", "question catalogue", "runtimes"];

/// What the section says before its table.
const MEANS: &str = "What these results come from. Partials merge only when every row is the same. The rows reptest, corpus, question catalogue and runtimes depend on the machine or the commit (the committed snapshot of this page leaves their values out).";

/// The section's rows: (label, value).
pub(crate) fn rows(survey: &Survey) -> Vec<(&'static str, String)> {
    let h = &survey.header;
    let p = &h.provenance;
    let implementations: Vec<String> = h
        .implementations
        .iter()
        .map(|i| format!("{} {}", i.name, i.version))
        .collect();
    vec![
        (
            "input",
            format!("{} entries, xxh3 {}", count(h.input.entries), h.input.xxh3),
        ),
        ("settings", settings(survey)),
        (
            "implementations",
            format!(
                "{}; decided by {} {}",
                implementations.join(", "),
                h.decided_by.name,
                h.decided_by.version
            ),
        ),
        ("reptest", p.reptest.to_string()),
        (
            "corpus",
            format!(
                "version {}, {} cases, fingerprint {}",
                p.corpus.version, p.corpus.cases, p.corpus.fingerprint
            ),
        ),
        (
            "question catalogue",
            format!(
                "{} questions, fingerprint {}; answers to its probes: checksum {}",
                p.corpus.questions, p.corpus.questions_fingerprint, h.attribution
            ),
        ),
        ("runtimes", runtimes(survey)),
    ]
}

/// Seed, queries per file, limit, timeout and circuit breaker, as options.
fn settings(survey: &Survey) -> String {
    let h = &survey.header;
    format!(
        "--seed {} --queries-per-file {}{} --timeout {} --file-budget {} --trip-after {}",
        h.seed,
        h.queries_per_file,
        h.limit.map_or(String::new(), |l| format!(" --limit {l}")),
        h.timeout.as_secs_f64(),
        h.breaker.file_budget.as_secs_f64(),
        h.breaker.trip_after
    )
}

/// Each runtime with the implementations that ran on it (`Python 3.11.7: python-a,
/// python-b; ...`), then the implementations that ran in reptest's process.
fn runtimes(survey: &Survey) -> String {
    let known = &survey.header.provenance.runtimes;
    let mut by_runtime: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut in_process = Vec::new();
    for entry in &survey.header.implementations {
        match known.get(&entry.name) {
            Some(runtime) => by_runtime.entry(runtime).or_default().push(&entry.name),
            None => in_process.push(entry.name.as_str()),
        }
    }
    let mut parts: Vec<String> = by_runtime
        .iter()
        .map(|(runtime, names)| format!("{runtime}: {}", names.join(", ")))
        .collect();
    if !in_process.is_empty() {
        parts.push(format!(
            "in reptest's process (its rustc): {}",
            in_process.join(", ")
        ));
    }
    parts.join("; ")
}

/// The section in Markdown.
pub(crate) fn write_markdown(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "## Provenance\n\n{MEANS}\n")?;
    writeln!(page, "| | |\n| --- | --- |")?;
    for (label, value) in rows(survey) {
        writeln!(page, "| {label} | {} |", cell(&value))?;
    }
    writeln!(page)
}

/// The section in HTML.
pub(crate) fn write_html(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "<h2>Provenance</h2>\n<p>{}</p>\n<table>", esc(MEANS))?;
    for (label, value) in rows(survey) {
        writeln!(page, "<tr><th>{label}</th><td>{}</td></tr>", esc(&value))?;
    }
    writeln!(page, "</table>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_rows_are_rows() {
        let survey = Survey {
            header: serde_json::from_value(serde_json::json!({
                "seed": 1, "queries_per_file": 2, "limit": null,
                "implementations": [{"name": "reference", "version": "0.1.0"},
                                    {"name": "python-a", "version": "1"},
                                    {"name": "python-b", "version": "2"}],
                "decided_by": {"name": "reference", "version": "0.1.0"},
                "questions": [], "attribution": "0", "timeout_ms": 1000,
                "input": {"entries": 0, "xxh3": "0"},
                "provenance": {
                    "reptest": {"version": "0.1.0", "commit": "unknown", "dirty": null, "rustc": "unknown"},
                    "corpus": {"version": "3.0.0", "cases": 1, "fingerprint": "f", "questions": 0, "questions_fingerprint": "q"},
                    "runtimes": {"python-a": "Python 3.11.7", "python-b": "Python 3.11.7"}
                }
            }))
            .unwrap(),
            tally: reptest_survey::Tally::new(3),
        };
        let rows = rows(&survey);
        for label in MACHINE_ROWS {
            assert!(rows.iter().any(|(l, _)| *l == label), "{label}");
        }
        let runtimes = &rows.iter().find(|(l, _)| *l == "runtimes").unwrap().1;
        assert_eq!(
            runtimes,
            "Python 3.11.7: python-a, python-b; in reptest's process (its rustc): reference"
        );
    }
}
