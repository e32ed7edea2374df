//! The text report of `reptest policy`.

use super::{other_reading, verdict_word, warning_text, Report};
use std::fmt::Write as _;

/// The report for a terminal or a log: the fetch, each expectation, the other parsers'
/// readings, the lint warnings and the verdict.
pub fn render(report: &Report<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "reptest policy: {} against {}",
        report.robots,
        report.expect.display()
    );
    for note in report.notes {
        let _ = writeln!(out, "{note}");
    }
    expectations(&mut out, report);
    other_readings(&mut out, report);
    if !report.warnings.is_empty() {
        let _ = writeln!(out, "\nlint warnings:");
        for w in &report.warnings {
            let _ = writeln!(out, "  {}", warning_text(w));
        }
    }
    let failed = report.failed();
    let _ = writeln!(
        out,
        "\n{}",
        if failed == 0 {
            "PASS: every expectation holds".to_string()
        } else {
            format!("FAIL: {failed} expectation(s) do not hold")
        }
    );
    out
}

/// One line per expectation, and under a failure its likely cause.
fn expectations(out: &mut String, report: &Report<'_>) {
    let failed = report.failed();
    let _ = writeln!(
        out,
        "\n{} expectations, {} hold under RFC 9309 (the reference), {failed} do not:",
        report.judged.len(),
        report.judged.len() - failed
    );
    for j in &report.judged {
        let _ = writeln!(
            out,
            "  {} {:<10} {:<20} {}: {}",
            if j.holds { "ok  " } else { "FAIL" },
            verdict_word(j.allowed),
            j.agent,
            j.url,
            j.reason
        );
        if let Some(note) = &j.note {
            let _ = writeln!(out, "       note: {note}");
        }
    }
}

/// The expectations some other parser reads otherwise than RFC 9309.
fn other_readings(out: &mut String, report: &Report<'_>) {
    if report.compared.is_empty() {
        return;
    }
    let differ: Vec<_> = report
        .judged
        .iter()
        .filter(|j| !j.others.is_empty())
        .collect();
    let _ = writeln!(
        out,
        "\nas {} other parsers read the file: {} expectation(s) read otherwise than RFC 9309 by some",
        report.compared.len(),
        differ.len()
    );
    for j in differ {
        let _ = writeln!(out, "  {}", other_reading(j));
    }
}
